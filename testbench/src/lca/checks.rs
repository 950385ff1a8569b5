//! The per-bit-time driver of the switch co-simulation: drives the RTL and the golden model
//! with the same legal traffic and checks, every bit-time, the outputs, crosspoints, step
//! counter, arbiter state and waiting winners (after the clock edge), every commit's
//! outcome (before it), and the RTL-only invariants.

use super::cosim::{CosimConfig, CosimError, InvariantViolation, Verdict};
use super::expect::{self, Bits};
use super::names::{self, hier};
use crate::bridge::{BridgeError, InputId, Model, SignalId};
use crate::harness::{Harness, Mismatch, RunInfo, Watch};
use lcanet_hdl::lca::Layout;
use lcanet_sim::lcan::cycle::traffic::LegalTraffic;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchConsts, SwitchModel};
use std::path::Path;

/// Inputs of the RTL.
struct Inputs {
    clock: InputId,
    init: InputId,
    mode: InputId,
    last: InputId,
    clear: InputId,
    level: InputId,
    a: InputId,
    b: InputId,
}

/// Watches of `N` signals and the buffers holding their expected values.
struct Group<const N: usize> {
    watch: [Watch; N],
    want: [Bits; N],
}

impl<const N: usize> Group<N> {
    fn new(h: &mut Harness, names: [String; N], widths: [usize; N]) -> Result<Self, BridgeError> {
        let mut watch = Vec::with_capacity(N);
        for n in &names {
            watch.push(h.watch(n)?);
        }
        Ok(Group {
            watch: watch.try_into().expect("N watches"),
            want: widths.map(Bits::new),
        })
    }

    fn check(&self, h: &mut Harness) -> Result<(), Box<Mismatch>> {
        for (w, b) in self.watch.iter().zip(&self.want) {
            h.check_words(*w, b.words())?;
        }
        Ok(())
    }
}

pub(super) struct Sim {
    pub(super) h: Harness,
    golden: SwitchModel,
    traffic: LegalTraffic,
    lay: Layout,
    inp: Inputs,
    a: Bits,
    b: Bits,
    /// `c`, `d`.
    out: Group<2>,
    bt: Watch,
    xp: Group<4>,
    xp_ids: [SignalId; 4],
    xp_now: [Bits; 4],
    win: Group<1>,
    up: Group<3>,
    dn: Group<4>,
    /// `(gnt, rej)` of each arbiter, read every bit-time for the RTL-only check.
    gnt_rej: [(SignalId, SignalId); 2],
    /// `(watch, is_q)` per policy register of the UP and DOWN arbiters.
    policy: [Vec<(Watch, PolicyReg)>; 2],
    pub(super) commits: u64,
    pub(super) grants: u64,
    pub(super) rejections: u64,
}

/// Which policy register a watch is.
#[derive(Debug, Clone, Copy)]
enum PolicyReg {
    P,
    Q,
    Lfsr,
}

impl Sim {
    pub(super) fn new(
        cfg: &CosimConfig,
        mut model: Model,
        run: RunInfo,
        top: &str,
    ) -> Result<Sim, CosimError> {
        let lay = Layout::new(cfg.params);
        let (d, u, w, p1) = (lay.d, lay.u, lay.w, lay.p1);
        let traffic_params = cfg.table.as_ref().map_or(cfg.params, |t| t.traffic);
        let traffic = LegalTraffic::new(traffic_params, usize::from(cfg.level), cfg.seed);
        let inp = Inputs {
            clock: model.input("clock")?,
            init: model.input("ctl_init")?,
            mode: model.input("ctl_mode")?,
            last: model.input("ctl_last")?,
            clear: model.input("ctl_clear")?,
            level: model.input("ctl_level")?,
            a: model.input("a")?,
            b: model.input("b")?,
        };
        let lv = model.input("level")?;
        model.set(lv, u64::from(cfg.level));
        if cfg.params.policy == ArbiterPolicy::Random {
            for (port, v) in [
                ("seed16", traffic.seed16()),
                ("salt_up", cfg.salt_up),
                ("salt_dn", cfg.salt_dn),
            ] {
                let id = model.input(port)?;
                model.set(id, u64::from(v));
            }
        }
        if let Some(t) = &cfg.table {
            let (tab_dn, tab_up) = t.rom_words(&lay);
            let id = model.input("tab_dn")?;
            model.set_words(id, tab_dn.words())?;
            let id = model.input("tab_up")?;
            model.set_words(id, tab_up.words())?;
        }
        let mut h = Harness::new(model, run);
        let n = lay.dn_slots;
        let hn = |s: &str| hier(top, s);
        let xp_widths = [d * d, d * u, u * d, u * u];
        let xp = Group::new(&mut h, names::CROSSPOINTS.map(hn), xp_widths)?;
        let mut sig = |s: &str| h.model().signal(&hn(s));
        let xp_ids = [
            sig(names::CROSSPOINTS[0])?,
            sig(names::CROSSPOINTS[1])?,
            sig(names::CROSSPOINTS[2])?,
            sig(names::CROSSPOINTS[3])?,
        ];
        let gnt_rej = [
            (sig("up_gnt")?, sig("up_rej")?),
            (sig("dn_gnt")?, sig("dn_rej")?),
        ];
        let up = Group::new(&mut h, names::UP_OUTCOME.map(hn), [d, d, d * u])?;
        let dn = Group::new(
            &mut h,
            names::DN_OUTCOME.map(hn),
            [n, n, (u + d) * d, (d + u) * d],
        )?;
        let mut policy: [Vec<(Watch, PolicyReg)>; 2] = [Vec::new(), Vec::new()];
        for (i, arb) in ["up", "dn"].into_iter().enumerate() {
            for name in names::policy_registers(arb, cfg.params.policy) {
                let which = if name.ends_with("_lfsr") {
                    PolicyReg::Lfsr
                } else if name.ends_with("_q") {
                    PolicyReg::Q
                } else {
                    PolicyReg::P
                };
                policy[i].push((h.watch(&hn(&name))?, which));
            }
        }
        let consts = SwitchConsts {
            level: cfg.level,
            salt_up: cfg.salt_up,
            salt_dn: cfg.salt_dn,
        };
        let golden = match &cfg.table {
            Some(t) => SwitchModel::with_table(cfg.params, consts, t.table.clone()),
            None => SwitchModel::new(cfg.params, consts),
        };
        Ok(Sim {
            out: Group::new(&mut h, names::OUTPUTS.map(String::from), [d * w, u * w])?,
            bt: h.watch(&hn(names::STEP_COUNTER))?,
            win: Group::new(&mut h, [hn(names::WINNERS)], [d * p1])?,
            xp_now: xp_widths.map(Bits::new),
            h,
            golden,
            traffic,
            a: Bits::new(d * w),
            b: Bits::new(u * w),
            inp,
            xp,
            xp_ids,
            up,
            dn,
            gnt_rej,
            policy,
            lay,
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
            let c = &inp.ctl;
            self.a.clear();
            for (x, &v) in inp.a().iter().enumerate() {
                self.a.put(x * w, v, w);
            }
            self.b.clear();
            for (k, &v) in inp.b().iter().enumerate() {
                self.b.put(k * w, v, w);
            }
            let m = self.h.model();
            m.set(self.inp.init, u64::from(c.init));
            m.set(self.inp.mode, u64::from(c.mode));
            m.set(self.inp.last, u64::from(c.last));
            m.set(self.inp.clear, u64::from(c.clear));
            m.set(self.inp.level, u64::from(c.level));
            m.set_words(self.inp.a, self.a.words())?;
            m.set_words(self.inp.b, self.b.words())?;
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
            if let Some(v) = self.check_crosspoints(t)? {
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
        let m = self.h.model();
        let bad = ["up", "dn"]
            .into_iter()
            .zip(self.gnt_rej)
            .find_map(|(arb, (g, r))| {
                let both = m.read_signal(g) & m.read_signal(r);
                (both != 0).then(|| (arb, both.trailing_zeros()))
            });
        bad.map(|(arb, s)| {
            self.violation(
                t,
                format!(
                    "{arb} arbiter slot {s} is both granted and rejected ({arb}_gnt & {arb}_rej)"
                ),
            )
        })
    }

    /// The RTL's working registers against the model's outcome of this commit.
    fn check_outcome(&mut self) -> Result<(), Box<Mismatch>> {
        self.commits += 1;
        let o = self.golden.last_outcome();
        expect::up_outcome(o, &self.lay, &mut self.up.want);
        expect::dn_outcome(o, &self.lay, &mut self.dn.want);
        let count = |b: &Bits| {
            b.words()
                .iter()
                .map(|w| u64::from(w.count_ones()))
                .sum::<u64>()
        };
        self.grants += count(&self.up.want[0]) + count(&self.dn.want[0]);
        self.rejections += count(&self.up.want[1]) + count(&self.dn.want[1]);
        self.up.check(&mut self.h)?;
        self.dn.check(&mut self.h)
    }

    /// Outputs, step counter, crosspoints, arbiter state and waiting winners after the
    /// clock edge.
    fn check_state(&mut self) -> Result<(), Box<Mismatch>> {
        let [c, d] = &mut self.out.want;
        expect::outputs(&self.golden, &self.lay, c, d);
        self.out.check(&mut self.h)?;
        self.h.check(self.bt, self.golden.bit_in_step() as u64)?;
        expect::crosspoints(&self.golden, &mut self.xp.want);
        self.xp.check(&mut self.h)?;
        for (arb, regs) in [self.golden.arbiter_up(), self.golden.arbiter_down()]
            .into_iter()
            .zip(&self.policy)
        {
            let (p, q) = arb.registers();
            for &(wt, which) in regs {
                let want = match which {
                    PolicyReg::P => p as u64,
                    PolicyReg::Q => q as u64,
                    PolicyReg::Lfsr => u64::from(arb.lfsr()),
                };
                self.h.check(wt, want)?;
            }
        }
        expect::winners(&self.golden, &self.lay, &mut self.win.want[0]);
        self.win.check(&mut self.h)
    }

    /// Every output driven at most once, every input driving at most once (RTL only).
    fn check_crosspoints(&mut self, t: u64) -> Result<Option<Verdict>, CosimError> {
        let (d, u) = (self.lay.d, self.lay.u);
        for (id, bits) in self.xp_ids.iter().zip(self.xp_now.iter_mut()) {
            self.h.model().read_signal_words(*id, bits.words_mut())?;
        }
        let n = d + u;
        let mut out_drivers = vec![0u32; n];
        let mut in_loads = vec![0u32; n];
        // (group, rows, cols, first input, first output)
        for (g, (rows, cols, i0, o0)) in [(d, d, 0, 0), (d, u, 0, d), (u, d, d, 0), (u, u, d, d)]
            .into_iter()
            .enumerate()
        {
            for r in 0..rows {
                for c in 0..cols {
                    if self.xp_now[g].get(r * cols + c) {
                        out_drivers[o0 + c] += 1;
                        in_loads[i0 + r] += 1;
                    }
                }
            }
        }
        if let Some(o) = (0..n).find(|&o| out_drivers[o] > 1) {
            let what = format!(
                "output port {o} (C(0..d) then D(0..u)) is driven by {} inputs (xp_*)",
                out_drivers[o]
            );
            return Ok(Some(self.violation(t, what)));
        }
        if let Some(i) = (0..n).find(|&i| in_loads[i] > 1) {
            let what = format!(
                "input port {i} (A(0..d) then B(0..u)) drives {} outputs (xp_*)",
                in_loads[i]
            );
            return Ok(Some(self.violation(t, what)));
        }
        Ok(None)
    }
}
