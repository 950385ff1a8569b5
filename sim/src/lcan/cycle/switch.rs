//! The cycle-level golden model of one LCA switch (`docs/protocol.md` §5–§7).
//!
//! [`SwitchModel::outputs`] gives the outputs of the current bit-time (they are registers,
//! so they depend on the state only); [`SwitchModel::clock`] applies one bit-time's inputs and
//! moves to the next bit-time. A network model composes switches by computing every output
//! first, routing outputs to inputs, then clocking every switch.

use super::arbiter::Arbiter;
use super::bits::BitReg;
use super::params::{PacketFormat, SwitchParams};
use super::route::RouteTable;
use super::step_clock::{StepCell, StepClock};
use super::types::{Claim, Control, Mode, ProtocolError, StepOutcome, SwitchConsts};
use super::xpoint::Crosspoints;
use std::sync::Arc;

/// The state of one switch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwitchModel {
    pub(super) params: SwitchParams,
    pub(super) fmt: PacketFormat,
    pub(super) consts: SwitchConsts,
    pub(super) step: StepCell,
    pub(super) rx_a: Vec<BitReg>,
    pub(super) rx_b: Vec<BitReg>,
    pub(super) tx_c: Vec<BitReg>,
    pub(super) tx_d: Vec<BitReg>,
    pub(super) xp: Crosspoints,
    pub(super) winners: Vec<Option<Claim>>,
    pub(super) up: Arbiter,
    pub(super) dn: Arbiter,
    pub(super) outcome: StepOutcome,
    pub(super) guard_rejects: u64,
    pub(super) table: Option<Arc<RouteTable>>,
    /// The R3 switch (`docs/protocol.md` §12): `SRC` works, `UP`/`DOWN`/`PROBE` are `IDLE`.
    pub(super) src: bool,
    /// `SRC` parse state per input (`A(0..d)`, then `B(0..u)`): `sc`, `sf`.
    pub(super) sc: Vec<u8>,
    /// See `sc`.
    pub(super) sf: Vec<u64>,
}

impl SwitchModel {
    /// A switch in its power-up state (every register zero; the protocol starts with
    /// `ctl_init`).
    pub fn new(params: SwitchParams, consts: SwitchConsts) -> Self {
        let fmt = params.format();
        let (d, u, w) = (params.d, params.u, params.width);
        SwitchModel {
            rx_a: vec![BitReg::new(fmt.p1); d],
            rx_b: vec![BitReg::new(fmt.p2); u],
            tx_c: vec![BitReg::new(fmt.n2 * w); d],
            tx_d: vec![BitReg::new(fmt.n1 * w); u],
            xp: Crosspoints::new(d, u),
            winners: vec![None; d],
            up: Arbiter::new(params.policy, d, u),
            dn: Arbiter::new(params.policy, u + d, d),
            outcome: StepOutcome::idle(d, u),
            guard_rejects: 0,
            table: None,
            src: false,
            sc: vec![0; d + u],
            sf: vec![0; d + u],
            step: StepCell::new(StepClock::RESET),
            params,
            fmt,
            consts,
        }
    }

    /// A switch of a Π network, which looks its routes up in `table` (`docs/protocol.md`
    /// §1). Without a table a `Table` switch allows no wire at all.
    pub fn with_table(params: SwitchParams, consts: SwitchConsts, table: Arc<RouteTable>) -> Self {
        SwitchModel {
            table: Some(table),
            ..SwitchModel::new(params, consts)
        }
    }

    /// The parameters.
    pub fn params(&self) -> &SwitchParams {
        &self.params
    }

    /// The packet format.
    pub fn format(&self) -> &PacketFormat {
        &self.fmt
    }

    /// The per-instance constants.
    pub fn consts(&self) -> &SwitchConsts {
        &self.consts
    }

    /// Output lanes of this bit-time: `C(0..d)` then `D(0..u)`.
    pub fn outputs(&self) -> Vec<u64> {
        let w = self.params.width;
        self.tx_c
            .iter()
            .chain(&self.tx_d)
            .map(|r| r.top(w))
            .collect()
    }

    /// Output lanes of one port this bit-time (`C(0..d)` then `D(0..u)`), without allocating.
    #[inline]
    pub fn output(&self, port: usize) -> u64 {
        let w = self.params.width;
        match port.checked_sub(self.params.d) {
            None => self.tx_c[port].top(w),
            Some(k) => self.tx_d[k].top(w),
        }
    }

    /// The crosspoint matrix.
    pub fn crosspoints(&self) -> &Crosspoints {
        &self.xp
    }

    /// The UP arbiter.
    pub fn arbiter_up(&self) -> &Arbiter {
        &self.up
    }

    /// The DOWN arbiter.
    pub fn arbiter_down(&self) -> &Arbiter {
        &self.dn
    }

    /// Waiting winners per downer.
    pub fn winners(&self) -> &[Option<Claim>] {
        &self.winners
    }

    /// The outcome of the most recent commit.
    pub fn last_outcome(&self) -> &StepOutcome {
        &self.outcome
    }

    /// How many requests a **guard** of `docs/protocol.md` rejected since power-up (never
    /// any for legal traffic).
    pub fn guard_rejections(&self) -> u64 {
        self.guard_rejects
    }

    /// Bit-times since the current step began.
    pub fn bit_in_step(&self) -> usize {
        self.step.get().bt
    }

    /// One bit-time: `a` holds the lanes of `A(0..d)`, `b` those of `B(0..u)`.
    pub fn clock(
        &mut self,
        ctl: &Control,
        seed16: u16,
        a: &[u64],
        b: &[u64],
    ) -> Result<(), ProtocolError> {
        let (d, u, w) = (self.params.d, self.params.u, self.params.width);
        if a.len() != d || b.len() != u {
            return Err(ProtocolError::InputCount {
                d,
                u,
                a: a.len(),
                b: b.len(),
            });
        }
        if ctl.init {
            self.reset(seed16);
            return Ok(());
        }
        let raw = Mode::from_code(ctl.mode);
        self.check(ctl, raw)?;
        let mut step = self.step.get();
        step.latch(ctl);
        let mode = self.effective_mode(raw);
        // 1. Receive.
        let (into_a, into_b, n) = match mode {
            Mode::Up => (true, false, self.fmt.n1),
            Mode::Down => (false, true, self.fmt.n2),
            Mode::Probe => (true, true, self.fmt.nr),
            _ => (false, false, 0),
        };
        if step.bt < n {
            if into_a {
                for (r, &v) in self.rx_a.iter_mut().zip(a) {
                    r.shift_in(v, w);
                }
            }
            if into_b {
                for (r, &v) in self.rx_b.iter_mut().zip(b) {
                    r.shift_in(v, w);
                }
            }
        }
        // 2. Outputs.
        match mode {
            Mode::Pass | Mode::Rev | Mode::Src => {
                let d = self.params.d;
                for o in 0..d + u {
                    let v = if mode != Mode::Rev {
                        self.xp.forward_port(o, a, b)
                    } else {
                        self.xp.reverse_port(o, a, b)
                    } & lane_mask(w);
                    let r = if o < d {
                        &mut self.tx_c[o]
                    } else {
                        &mut self.tx_d[o - d]
                    };
                    r.clear();
                    let len = r.len();
                    for lane in 0..w {
                        r.set(len - w + lane, v >> lane & 1 == 1);
                    }
                }
                if mode == Mode::Src {
                    self.src_edge(a, b);
                }
            }
            _ => {
                for r in self.tx_c.iter_mut().chain(self.tx_d.iter_mut()) {
                    r.shift_in(0, w);
                }
            }
        }
        // 3. Commit.
        if ctl.last {
            self.outcome.clear();
            match mode {
                Mode::Up => self.commit_up(),
                Mode::Down => self.commit_down(ctl.level),
                Mode::Probe => self.commit_probe(),
                Mode::Idle => {
                    for r in self.tx_c.iter_mut().chain(self.tx_d.iter_mut()) {
                        r.clear();
                    }
                }
                Mode::Pass | Mode::Rev => {}
                Mode::Src => {
                    self.sc.fill(0);
                    self.sf.fill(0);
                }
            }
            for r in self.rx_a.iter_mut().chain(self.rx_b.iter_mut()) {
                r.clear();
            }
        }
        step.advance(ctl.last);
        self.step.set(step);
        // 4. Clear.
        if ctl.clear {
            self.xp.clear();
            self.winners.fill(None);
        }
        Ok(())
    }

    fn check(&self, ctl: &Control, mode: Mode) -> Result<(), ProtocolError> {
        let StepClock {
            bt,
            mode: step_mode,
            level: step_level,
        } = self.step.get();
        if bt > 0 && mode != step_mode {
            return Err(ProtocolError::ModeChanged {
                from: step_mode,
                to: mode,
                bt,
            });
        }
        if bt > 0 && mode == Mode::Down && ctl.level != step_level {
            return Err(ProtocolError::LevelChanged { bt });
        }
        let routing = matches!(mode, Mode::Up | Mode::Down | Mode::Probe);
        if ctl.clear && (routing || (self.src && mode == Mode::Src)) {
            return Err(ProtocolError::ClearInRoutingStep(mode));
        }
        let routing = routing && !self.src;
        if ctl.last && routing {
            let min = match mode {
                Mode::Up => self.fmt.t_up,
                Mode::Down => self.fmt.t_down,
                _ => self.fmt.t_probe,
            };
            if bt + 1 < min {
                return Err(ProtocolError::StepTooShort {
                    mode,
                    len: bt + 1,
                    min,
                });
            }
        }
        Ok(())
    }

    fn reset(&mut self, seed16: u16) {
        for r in [
            &mut self.rx_a,
            &mut self.rx_b,
            &mut self.tx_c,
            &mut self.tx_d,
        ] {
            r.iter_mut().for_each(BitReg::clear);
        }
        self.xp.clear();
        self.winners.fill(None);
        self.sc.fill(0);
        self.sf.fill(0);
        self.up.reset(seed16, self.consts.salt_up);
        self.dn.reset(seed16, self.consts.salt_dn);
        self.outcome.clear();
        self.step.set(StepClock::RESET);
    }
}

fn lane_mask(w: usize) -> u64 {
    (1u64 << w) - 1
}
