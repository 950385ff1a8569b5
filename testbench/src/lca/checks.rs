//! The per-bit-time driver of the switch co-simulation: drives the RTL and the golden model
//! with the same legal traffic and checks, every bit-time, outputs, crosspoints, arbiter
//! state and waiting winners (after the clock edge), every commit's outcome (before it),
//! and the RTL-only invariants.

use super::cosim::{CosimConfig, CosimError, InvariantViolation, Verdict};
use super::names::SwitchNames;
use crate::bridge::{BridgeError, InputId, Model, SignalId};
use crate::harness::{Harness, Mismatch, RunInfo, Watch};
use lcanet_hdl::lca::Layout;
use lcanet_sim::lcan::cycle::traffic::LegalTraffic;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, Claim, SlotOutcome, SwitchConsts, SwitchModel};
use std::path::Path;

/// Inputs of the RTL.
struct Inputs {
    clock: InputId,
    init: InputId,
    mode: InputId,
    last: InputId,
    clear: InputId,
    level: InputId,
    a: Vec<InputId>,
    b: Vec<InputId>,
}

/// One arbiter's observed registers (signal ids too where the RTL is checked on its own).
struct ArbWatches {
    gnt: Vec<(Watch, SignalId)>,
    rej: Vec<(Watch, SignalId)>,
    /// `(slot, class, wire, watch)` of `ch0_r`/`ch1_r`.
    ch: Vec<(usize, usize, usize, Watch)>,
    rr_p: Vec<Watch>,
    rr_q: Vec<Watch>,
    lfsr: Option<Watch>,
}

pub(super) struct Sim {
    pub(super) h: Harness,
    golden: SwitchModel,
    traffic: LegalTraffic,
    lay: Layout,
    inp: Inputs,
    outputs: Vec<Watch>,
    xp: Vec<(usize, usize, Watch, SignalId)>,
    win: Vec<Watch>,
    up: ArbWatches,
    dn: ArbWatches,
    pub(super) commits: u64,
    pub(super) grants: u64,
    pub(super) rejections: u64,
}

impl Sim {
    pub(super) fn new(
        cfg: &CosimConfig,
        mut model: Model,
        run: RunInfo,
        top: &str,
    ) -> Result<Sim, CosimError> {
        let lay = Layout::new(cfg.params);
        let names = SwitchNames::new(top, &lay);
        let (d, u, w) = (lay.d, lay.u, lay.w);
        let traffic = LegalTraffic::new(cfg.params, usize::from(cfg.level), cfg.seed);
        let inp = Inputs {
            clock: model.input("clock")?,
            init: model.input("ctl_init")?,
            mode: model.input("ctl_mode")?,
            last: model.input("ctl_last")?,
            clear: model.input("ctl_clear")?,
            level: model.input("ctl_level")?,
            a: (0..d * w)
                .map(|i| model.input(&format!("a_{i}")))
                .collect::<Result<_, _>>()?,
            b: (0..u * w)
                .map(|i| model.input(&format!("b_{i}")))
                .collect::<Result<_, _>>()?,
        };
        let lv = model.input("level")?;
        model.set(lv, u64::from(cfg.level));
        if cfg.params.policy == ArbiterPolicy::Random {
            for (port, v) in [
                ("seed16_0", u64::from(traffic.seed16())),
                ("salt_up_0", u64::from(cfg.salt_up)),
                ("salt_dn_0", u64::from(cfg.salt_dn)),
            ] {
                let id = model.input(port)?;
                model.set(id, v);
            }
        }
        let mut h = Harness::new(model, run);
        let watch_all = |h: &mut Harness, v: &[String]| -> Result<Vec<Watch>, BridgeError> {
            v.iter().map(|n| h.watch(n)).collect()
        };
        let outputs = watch_all(&mut h, &names.outputs)?;
        let mut xp = Vec::new();
        for (group, rows, cols, i0, o0) in [
            (&names.xp_ac, d, d, 0, 0),
            (&names.xp_ad, d, u, 0, d),
            (&names.xp_bc, u, d, d, 0),
            (&names.xp_bd, u, u, d, d),
        ] {
            for r in 0..rows {
                for c in 0..cols {
                    let name = &group[r * cols + c];
                    let id = h.model().signal(name)?;
                    xp.push((i0 + r, o0 + c, h.watch(name)?, id));
                }
            }
        }
        let win = watch_all(&mut h, &names.win)?;
        let up_classes: Vec<_> = std::iter::once(0..d).collect();
        let up = arb_watches(
            &mut h,
            &names,
            "up",
            d,
            d,
            u,
            &up_classes,
            cfg.params.policy,
        )?;
        let n = lay.dn_slots;
        let dn = arb_watches(
            &mut h,
            &names,
            "dn",
            n,
            u + d,
            d,
            &[0..u + d, u..n],
            cfg.params.policy,
        )?;
        let consts = SwitchConsts {
            level: cfg.level,
            salt_up: cfg.salt_up,
            salt_dn: cfg.salt_dn,
        };
        Ok(Sim {
            h,
            golden: SwitchModel::new(cfg.params, consts),
            traffic,
            lay,
            inp,
            outputs,
            xp,
            win,
            up,
            dn,
            commits: 0,
            grants: 0,
            rejections: 0,
        })
    }

    pub(super) fn run(&mut self, cfg: &CosimConfig) -> Result<Verdict, CosimError> {
        let w = self.lay.w;
        let seed16 = self.traffic.seed16();
        for t in 0..cfg.bit_times {
            let inp = self.traffic.next_input();
            let m = self.h.model();
            let c = &inp.ctl;
            m.set(self.inp.init, u64::from(c.init));
            m.set(self.inp.mode, u64::from(c.mode));
            m.set(self.inp.last, u64::from(c.last));
            m.set(self.inp.clear, u64::from(c.clear));
            m.set(self.inp.level, u64::from(c.level));
            for (x, &v) in inp.a().iter().enumerate() {
                for l in 0..w {
                    m.set(self.inp.a[x * w + l], (v >> l) & 1);
                }
            }
            for (k, &v) in inp.b().iter().enumerate() {
                for l in 0..w {
                    m.set(self.inp.b[k * w + l], (v >> l) & 1);
                }
            }
            self.golden
                .clock(c, seed16, inp.a(), inp.b())
                .map_err(|error| CosimError::Protocol { bit_time: t, error })?;
            // The step outcome sits in the RTL's working registers until the clock edge.
            if let Some(v) = self.check_working(t) {
                return Ok(v);
            }
            if c.last && !c.init {
                if let Err(m) = self.check_outcome() {
                    return Ok(Verdict::Mismatch(m));
                }
            }
            let clock = self.inp.clock;
            self.h.model().tick(clock);
            if let Err(m) = self.check_state() {
                return Ok(Verdict::Mismatch(m));
            }
            if let Some(v) = self.check_crosspoints(t) {
                return Ok(v);
            }
            self.h.finish_bit_time();
        }
        self.h.model().vcd_flush();
        Ok(Verdict::Match)
    }

    fn violation(&mut self, bit_time: u64, what: String) -> Verdict {
        let m = self.h.model();
        m.vcd_flush();
        let vcd = m.vcd_path().map(Path::to_path_buf);
        Verdict::Invariant(InvariantViolation {
            bit_time,
            what,
            seed: self.h.info().seed.unwrap_or(0),
            vcd,
        })
    }

    /// No request slot is both granted and rejected (RTL only).
    fn check_working(&mut self, t: u64) -> Option<Verdict> {
        let bad = granted_and_rejected(&mut self.h, &self.up)
            .map(|s| ("up", s))
            .or_else(|| granted_and_rejected(&mut self.h, &self.dn).map(|s| ("dn", s)));
        bad.map(|(name, s)| {
            self.violation(
                t,
                format!("{name} arbiter slot {s} is both granted and rejected"),
            )
        })
    }

    /// The RTL's working registers against the model's outcome of this commit.
    fn check_outcome(&mut self) -> Result<(), Box<Mismatch>> {
        self.commits += 1;
        let o = self.golden.last_outcome().clone();
        for (arb, slots) in [(&self.up, &o.up), (&self.dn, &o.down)] {
            for (s, so) in slots.iter().enumerate() {
                let (g, r) = match so {
                    SlotOutcome::Granted(_) => (1, 0),
                    SlotOutcome::Rejected => (0, 1),
                    SlotOutcome::Idle => (0, 0),
                };
                self.grants += g;
                self.rejections += r;
                self.h.check(arb.gnt[s].0, g)?;
                self.h.check(arb.rej[s].0, r)?;
            }
            for &(s, class, wire, wt) in &arb.ch {
                let want = matches!(&slots[s], SlotOutcome::Granted(ws) if ws[class] == Some(wire));
                self.h.check(wt, u64::from(want))?;
            }
        }
        Ok(())
    }

    /// Outputs, crosspoints, arbiter state and waiting winners after the clock edge.
    fn check_state(&mut self) -> Result<(), Box<Mismatch>> {
        let (d, u, w) = (self.lay.d, self.lay.u, self.lay.w);
        for port in 0..d + u {
            let v = self.golden.output(port);
            for l in 0..w {
                self.h.check(self.outputs[port * w + l], (v >> l) & 1)?;
            }
        }
        for &(i, o, wt, _) in &self.xp {
            self.h
                .check(wt, u64::from(self.golden.crosspoints().is_closed(i, o)))?;
        }
        for (arb, w) in [
            (self.golden.arbiter_up(), &self.up),
            (self.golden.arbiter_down(), &self.dn),
        ] {
            if let Some(l) = w.lfsr {
                self.h.check(l, u64::from(arb.lfsr()))?;
            }
            let (p, q) = arb.registers();
            for (i, &wt) in w.rr_p.iter().enumerate() {
                self.h.check(wt, u64::from(i == p))?;
            }
            for (i, &wt) in w.rr_q.iter().enumerate() {
                self.h.check(wt, u64::from(i == q))?;
            }
        }
        let p1 = self.lay.p1;
        for x in 0..d {
            let c = self.golden.winners()[x];
            for i in 0..p1 {
                let want = c.map_or(0, |c| winner_bit(&self.lay, &c, i));
                self.h.check(self.win[x * p1 + i], want)?;
            }
        }
        Ok(())
    }

    /// Every output driven at most once, every input driving at most once (RTL only).
    fn check_crosspoints(&mut self, t: u64) -> Option<Verdict> {
        let n = self.lay.d + self.lay.u;
        let mut out_drivers = [0u32; 32];
        let mut in_loads = [0u32; 32];
        for &(i, o, _, id) in &self.xp {
            if self.h.model().read_signal(id) == 1 {
                out_drivers[o] += 1;
                in_loads[i] += 1;
            }
        }
        if let Some(o) = (0..n).find(|&o| out_drivers[o] > 1) {
            let what = format!(
                "output port {o} (C(0..d) then D(0..u)) is driven by {} inputs",
                out_drivers[o]
            );
            return Some(self.violation(t, what));
        }
        if let Some(i) = (0..n).find(|&i| in_loads[i] > 1) {
            let what = format!(
                "input port {i} (A(0..d) then B(0..u)) drives {} outputs",
                in_loads[i]
            );
            return Some(self.violation(t, what));
        }
        None
    }
}

/// The first slot of `arb` whose `gnt_r` and `rej_r` are both set in the RTL.
fn granted_and_rejected(h: &mut Harness, arb: &ArbWatches) -> Option<usize> {
    let m = h.model();
    (0..arb.gnt.len())
        .find(|&s| m.read_signal(arb.gnt[s].1) == 1 && m.read_signal(arb.rej[s].1) == 1)
}

/// Register bit `i` of a waiting winner `(1, h, s, t)` laid out like a `P1` packet.
fn winner_bit(lay: &Layout, c: &Claim, i: usize) -> u64 {
    let ab = lay.ab;
    if i == lay.p1 - 1 {
        1
    } else if i >= 2 * ab {
        (c.h >> (i - 2 * ab)) & 1
    } else if i >= ab {
        (c.s >> (i - ab)) & 1
    } else {
        (c.t >> i) & 1
    }
}

#[allow(clippy::too_many_arguments)]
fn arb_watches(
    h: &mut Harness,
    names: &SwitchNames,
    arb: &str,
    slots: usize,
    r: usize,
    wires: usize,
    classes: &[std::ops::Range<usize>],
    policy: ArbiterPolicy,
) -> Result<ArbWatches, BridgeError> {
    let mut pair = |reg: &str, s: usize| -> Result<(Watch, SignalId), BridgeError> {
        let name = names.arb(arb, reg, s);
        let id = h.model().signal(&name)?;
        Ok((h.watch(&name)?, id))
    };
    let gnt = (0..slots)
        .map(|s| pair("gnt_r", s))
        .collect::<Result<_, _>>()?;
    let rej = (0..slots)
        .map(|s| pair("rej_r", s))
        .collect::<Result<_, _>>()?;
    let mut ch = Vec::new();
    for (class, range) in classes.iter().enumerate() {
        for (i, s) in range.clone().enumerate() {
            for wire in 0..wires {
                let reg = if class == 0 { "ch0_r" } else { "ch1_r" };
                ch.push((
                    s,
                    class,
                    wire,
                    h.watch(&names.arb(arb, reg, i * wires + wire))?,
                ));
            }
        }
    }
    let rr = policy == ArbiterPolicy::RoundRobin;
    let rr_p = (0..if rr { r } else { 0 })
        .map(|i| h.watch(&names.arb(arb, "rr_p", i)))
        .collect::<Result<_, _>>()?;
    let rr_q = (0..if rr { wires } else { 0 })
        .map(|i| h.watch(&names.arb(arb, "rr_q", i)))
        .collect::<Result<_, _>>()?;
    let lfsr = match policy {
        ArbiterPolicy::Random => Some(h.watch(&names.arb(arb, "lfsr", 0))?),
        _ => None,
    };
    Ok(ArbWatches {
        gnt,
        rej,
        ch,
        rr_p,
        rr_q,
        lfsr,
    })
}
