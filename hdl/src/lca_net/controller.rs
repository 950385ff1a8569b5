//! The network controller (`docs/interface.md` §4), word-level: the phase register, a
//! count-down step timer, the set-up step/level register, the pass and bit-time counters
//! and the sticky error flag. It broadcasts `ctl_*` to every switch and phase strobes to
//! every PE interface, and reduces the PEs' status vectors (pending, one-hot LCA level —
//! level-major, PE `p`'s level `j` at bit `j·n + p` — range and duplicate-frame errors).
//!
//! Registers: `phase_q` (4), `bt` (10, counts down to 0 in the step's last bit-time), `lv`
//! (5: R1 `UP` step `s` holds `H−1−s` mod 32, `DOWN` the served level, R2 `PROBE` the steps
//! left), `top` (4: `H`), `passes_q` (16), `bit_times_q` (32), `err`, `seed` (16, random policy
//! only).

use super::pe::{strobes, PeShape};
use super::spec::NetSpec;
use crate::netlist::{cat, flag, lit, or_all, zero, Module, ModuleBuilder, V};
use lcanet_sim::lcan::cycle::network::Phase;
use lcanet_sim::lcan::cycle::ArbiterPolicy;

/// Phase names by code (`docs/interface.md` §4), for waveforms.
pub const PHASES: [&str; 11] = [
    "IDLE", "LOAD", "PLAN", "ARM", "UP", "DOWN", "PROBE", "DELIV", "DATA", "ACK", "DONE",
];

/// Switch mode names by `ctl_mode` code (`docs/protocol.md` §2), for waveforms.
pub const MODES: [&str; 6] = ["IDLE", "UP", "DOWN", "PROBE", "PASS", "REV"];

/// The broadcast control signals every switch reads, with their widths.
pub const CTL_SIGNALS: [(&str, usize); 5] = [
    ("ctl_init", 1),
    ("ctl_mode", 3),
    ("ctl_last", 1),
    ("ctl_clear", 1),
    ("ctl_level", 4),
];

/// Generation parameters of the controller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CtrlShape {
    /// PEs.
    pub n: usize,
    /// Levels.
    pub l: usize,
    /// `T_LOAD`, `T_UP`, `T_DOWN`, `T_PROBE`, `NF`.
    pub t_load: usize,
    /// See `t_load`.
    pub t_up: usize,
    /// See `t_load`.
    pub t_down: usize,
    /// See `t_load`.
    pub t_probe: usize,
    /// See `t_load`.
    pub nf: usize,
    /// Random policy: latch and broadcast the seed.
    pub random: bool,
    /// The PE interface it drives (which strobes exist).
    pub pe: PeShape,
}

impl CtrlShape {
    /// The controller's shape for `spec`.
    pub fn of(spec: &NetSpec) -> Self {
        let net = &spec.net;
        CtrlShape {
            n: net.n,
            l: net.levels(),
            t_load: net.t_load,
            t_up: net.fmt.t_up,
            t_down: net.fmt.t_down,
            t_probe: net.fmt.t_probe,
            nf: net.nf,
            random: spec.policy() == ArbiterPolicy::Random,
            pe: PeShape::of(spec),
        }
    }
}

fn code(p: Phase) -> u64 {
    p.code()
}

/// The controller module `name` for `s`.
pub fn controller_module(name: &str, s: &CtrlShape) -> Module {
    let (n, l) = (s.n, s.l);
    let r1 = s.pe.r1;
    let mut m = ModuleBuilder::new(name);
    m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let seed_in = s.random.then(|| m.input("seed_in", 16));
    let pe_pend = m.input("pend", n);
    let pe_hot = m.input("hot", n * l);
    let pe_bad = m.input("bad", n);
    let pe_dup = m.input("dup", n);
    let ctl: Vec<V> = CTL_SIGNALS.iter().map(|&(c, w)| m.output(c, w)).collect();
    let seed16 = s.random.then(|| m.output("seed16", 16));
    let phase_o = m.output("phase", 4);
    let done = m.output("done", 1);
    let error = m.output("error", 1);
    let passes_o = m.output("passes", 16);
    let bit_times_o = m.output("bit_times", 32);
    let st: Vec<(&str, V)> = strobes(&s.pe)
        .into_iter()
        .map(|(k, w)| (k, m.output(k, w)))
        .collect();

    m.comment("State");
    let phase = m.reg("phase_q", 4);
    let bt = m.reg("bt", 10);
    let lv = m.reg("lv", 5);
    let top = m.reg("top", 4);
    let passes = m.reg("passes_q", 16);
    let bit_times = m.reg("bit_times_q", 32);
    let err = m.reg("err", 1);
    let seed = s.random.then(|| m.reg("seed", 16));

    m.comment("The PEs' status, reduced");
    let any_pend = m.def("any_pending", pe_pend.any());
    let any_bad = m.def("any_range_error", pe_bad.any());
    let any_dup = m.def("any_dup", pe_dup.any());
    // `hot` is level-major: row j (n bits) holds every PE's "pending at level j".
    let levels = m.def(
        "levels_pending",
        cat((0..l).rev().map(|j| pe_hot.row(j, n).any())),
    );
    // H: the highest pending LCA level (a priority encoder).
    let mut h = lit(4, 0);
    for j in 1..l {
        h = levels.bit(j).select(lit(4, j as u64), h);
    }
    let h_new = m.def("top_next", h);
    // Level 0 is the default of the encoder: its bit is not read.
    m.allow_unread("levels_pending");

    m.comment("Phase decoding");
    let is = |p: Phase| phase.is(code(p));
    let last = m.def("last", bt.is(0));
    let in_load = m.def("in_load", is(Phase::Load));
    let in_plan = m.def("in_plan", is(Phase::Plan));
    let in_arm = m.def("in_arm", is(Phase::Arm));
    // The set-up phases of this algorithm: R1 UP and DOWN, R2 PROBE.
    let in_up = r1.then(|| m.def("in_up", is(Phase::Up)));
    let in_down = r1.then(|| m.def("in_down", is(Phase::Down)));
    let in_probe = (!r1).then(|| m.def("in_probe", is(Phase::Probe)));
    let in_deliv = m.def("in_deliv", is(Phase::Deliv));
    let in_data = m.def("in_data", is(Phase::Data));
    let in_ack = m.def("in_ack", is(Phase::Ack));
    let idle_or_done = m.def("idle_or_done", is(Phase::Idle) | is(Phase::Done));

    m.comment("Outputs to the top");
    m.assign(&phase_o, &phase);
    m.assign(&done, is(Phase::Done));
    m.assign(&error, &err);
    m.assign(&passes_o, &passes);
    m.assign(&bit_times_o, &bit_times);
    if let (Some(o), Some(r)) = (&seed16, &seed) {
        m.assign(o, r);
    }

    m.comment("Switch broadcast (docs/interface.md §4 table)");
    let clear = is(Phase::Plan) | is(Phase::Done);
    m.assign(&ctl[0], is(Phase::Idle) | in_load.clone());
    let mode = |p: &V, k: u64| p.select(lit(3, k), zero(3));
    let setup_modes = [(&in_up, 1), (&in_down, 2), (&in_probe, 3)]
        .into_iter()
        .filter_map(|(p, k)| p.as_ref().map(|p| mode(p, k)));
    m.assign(
        &ctl[1],
        or_all(3, setup_modes.chain([mode(&in_data, 4), mode(&in_ack, 5)])),
    );
    // ARM (one bit-time) and the last bit-time of every step of phases 4-9.
    let stepping = !(&idle_or_done | &in_load | &in_plan | &in_arm) & &last;
    m.assign(&ctl[2], clear.clone() | in_arm.clone() | stepping);
    m.assign(&ctl[3], clear);
    m.assign(
        &ctl[4],
        match &in_down {
            Some(d) => lv.low(4).when(d),
            None => zero(4),
        },
    );

    m.comment("PE strobes");
    let go = m.def("go_now", !&reset & &start & &idle_or_done);
    for (k, o) in &st {
        let v = match *k {
            "go" => go.clone(),
            "lsel" => cat((0..s.pe.abin).rev().map(|b| &in_load & bt.is(b as u64))),
            "plan" => in_plan.clone(),
            "arm" => in_arm.clone(),
            "up_load" => in_up.as_ref().expect("R1") & &last & lv.is_not(31),
            "sel_lvl" => lv.low(4),
            "deliv0" => &in_deliv & !&last,
            "deliv1" => &in_deliv & &last,
            "data" => in_data.clone(),
            "data_last" => &in_data & &last,
            "ack" => in_ack.clone(),
            other => unreachable!("strobe {other}"),
        };
        m.assign(o, v);
    }

    m.comment("Step lengths of this pass: DATA NF+2H+2, ACK 2H+2 (loaded as length-1)");
    let ack_len = m.def("ack_len", cat([zero(5), top.clone(), flag(true)]));
    let data_len = m.def("data_len", &ack_len + lit(10, s.nf as u64));
    let len = |t: usize| lit(10, (t - 1) as u64);

    m.always(|p| {
        p.if_(&reset, |p| {
            p.comment("Reset: every register 0 (IDLE)");
            p.load(&phase, zero(4));
            p.load(&bt, zero(10));
            p.load(&lv, zero(5));
            p.load(&top, zero(4));
            p.load(&passes, zero(16));
            p.load(&bit_times, zero(32));
            p.load(&err, flag(false));
            if let Some(r) = &seed {
                p.load(r, zero(16));
            }
        })
        .elif(&go, |p| {
            p.comment("Start: clear the counters, latch the seed, go to LOAD");
            p.load(&phase, lit(4, code(Phase::Load)));
            p.load(&bt, len(s.t_load));
            p.load(&passes, zero(16));
            p.load(&bit_times, zero(32));
            p.load(&err, flag(false));
            if let (Some(r), Some(i)) = (&seed, &seed_in) {
                p.load(r, i);
            }
        })
        .else_(|p| {
            p.load(&bt, last.select(zero(10), bt.minus(1)));
            p.if_(!&idle_or_done, |p| p.load(&bit_times, bit_times.plus(1)));
            p.if_(&in_data & &any_dup, |p| p.load(&err, flag(true)));
            let goto = |p: &mut crate::netlist::Proc, ph: Phase| p.load(&phase, lit(4, code(ph)));
            p.case(&phase, |c| {
                c.arm(&[code(Phase::Load)], |p| {
                    p.if_(&last, |p| {
                        goto(p, Phase::Plan);
                        p.if_(&any_bad, |p| p.load(&err, flag(true)));
                    });
                });
                c.arm(&[code(Phase::Plan)], |p| {
                    p.if_(&err | !&any_pend, |p| goto(p, Phase::Done))
                        .else_(|p| {
                            goto(p, Phase::Arm);
                            p.load(&passes, passes.plus(1));
                            p.load(&top, &h_new);
                            p.load(&lv, h_new.zext(5));
                        });
                });
                c.arm(&[code(Phase::Arm)], |p| {
                    if r1 {
                        goto(p, Phase::Up);
                        p.load(&bt, len(s.t_up));
                        p.load(&lv, top.zext(5).minus(1));
                    } else {
                        goto(p, Phase::Probe);
                        p.load(&bt, len(s.t_probe));
                        p.load(&lv, cat([top.clone(), flag(false)]));
                    }
                });
                if r1 {
                    c.arm(&[code(Phase::Up)], |p| {
                        p.if_(&last, |p| {
                            p.if_(lv.is(31), |p| {
                                goto(p, Phase::Down);
                                p.load(&bt, len(s.t_down));
                                p.load(&lv, top.zext(5));
                            })
                            .else_(|p| {
                                p.load(&bt, len(s.t_up));
                                p.load(&lv, lv.minus(1));
                            });
                        });
                    });
                }
                // The last set-up phase: R1 DOWN, R2 PROBE; DELIV after level 0.
                let (ph, t) = if r1 {
                    (Phase::Down, s.t_down)
                } else {
                    (Phase::Probe, s.t_probe)
                };
                {
                    c.arm(&[code(ph)], |p| {
                        p.if_(&last, |p| {
                            p.if_(lv.is(0), |p| {
                                goto(p, Phase::Deliv);
                                p.load(&bt, lit(10, 1));
                            })
                            .else_(|p| {
                                p.load(&bt, len(t));
                                p.load(&lv, lv.minus(1));
                            });
                        });
                    });
                }
                c.arm(&[code(Phase::Deliv)], |p| {
                    p.if_(&last, |p| {
                        goto(p, Phase::Data);
                        p.load(&bt, &data_len);
                    });
                });
                c.arm(&[code(Phase::Data)], |p| {
                    p.if_(&last, |p| {
                        goto(p, Phase::Ack);
                        p.load(&bt, &ack_len);
                    });
                });
                c.arm(&[code(Phase::Ack)], |p| {
                    p.if_(&last, |p| goto(p, Phase::Plan));
                });
            });
        });
    });
    m.build()
}
