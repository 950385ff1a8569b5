//! The R3 network controller (`docs/interface.md` §11.2), word-level: phases `IDLE`,
//! `LOAD`, `PLAN`, `ARM`, `SRC`, `ACK`, `DONE`; one `SRC` step (source-routed set-up and
//! data, `ctl_mode` 6) and one `ACK` step (`REV`) per pass; the passes counted by `pk` up to
//! the latched `npass`. No arbiter, so no seed and no `ctl_level`.
//!
//! Registers: `phase_q` (4), `bt` (10, counts down to 0 in the step's last bit-time), `top`
//! (4: `H` of the pass, from the PEs of pass `pk`), `pk`, `npass` (`PB + 1` each),
//! `passes_q` (16), `bit_times_q` (32), `err`.

use super::pe::{strobes, PeShape};
use super::spec::NetSpec;
use crate::netlist::{cat, flag, lit, zero, Module, ModuleBuilder, V};
use lcanet_sim::lcan::cycle::network::Phase;
use lcanet_sim::lcan::cycle::Mode;

/// The broadcast control signals the R3 switch reads (no `ctl_level`), with their widths.
pub const R3_CTL_SIGNALS: [(&str, usize); 4] = [
    ("ctl_init", 1),
    ("ctl_mode", 3),
    ("ctl_last", 1),
    ("ctl_clear", 1),
];

/// Phase names by code for an R3 network's waveforms: those of every network, and `SRC`
/// (code 11).
pub const R3_PHASES: [&str; 12] = [
    "IDLE", "LOAD", "PLAN", "ARM", "UP", "DOWN", "PROBE", "DELIV", "DATA", "ACK", "DONE", "SRC",
];

/// Switch mode names by `ctl_mode` code for an R3 network: and `SRC` (code 6).
pub const R3_MODES: [&str; 7] = ["IDLE", "UP", "DOWN", "PROBE", "PASS", "REV", "SRC"];

/// Generation parameters of the R3 controller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct R3CtrlShape {
    /// PEs.
    pub n: usize,
    /// Levels.
    pub l: usize,
    /// `T_LOAD`.
    pub t_load: usize,
    /// `T_SRC(H)` for `H = 0 … l−1`.
    pub t_src: Vec<usize>,
    /// The PE interface it drives.
    pub pe: PeShape,
}

impl R3CtrlShape {
    /// The controller's shape for `spec` (an R3 network).
    pub fn of(spec: &NetSpec) -> Self {
        let net = &spec.net;
        let l = net.levels();
        R3CtrlShape {
            n: net.n,
            l,
            t_load: net.t_load,
            t_src: (0..l)
                .map(|h| net.step_len(Phase::Src, h).expect("R3 has SRC"))
                .collect(),
            pe: PeShape::of(spec),
        }
    }
}

/// The R3 controller module `name` for `s`.
pub fn r3_controller_module(name: &str, s: &R3CtrlShape) -> Module {
    let (n, l, pk_bits) = (s.n, s.l, s.pe.pb + 1);
    let code = |p: Phase| p.code();
    let mut m = ModuleBuilder::new(name);
    m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let npass_in = m.input("npass_in", pk_bits);
    let pe_pend = m.input("pend", n);
    let pe_hot = m.input("hot", n * l);
    let pe_bad = m.input("bad", n);
    let pe_dup = m.input("dup", n);
    let ctl: Vec<V> = R3_CTL_SIGNALS
        .iter()
        .map(|&(c, w)| m.output(c, w))
        .collect();
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
    let top = m.reg("top", 4);
    let pk = m.reg("pk", pk_bits);
    let npass = m.reg("npass", pk_bits);
    let passes = m.reg("passes_q", 16);
    let bit_times = m.reg("bit_times_q", 32);
    let err = m.reg("err", 1);

    m.comment("The PEs' status, reduced (hot: pending in pass pk, level-major)");
    let any_pend = m.def("any_pending", pe_pend.any());
    let any_bad = m.def("any_range_error", pe_bad.any());
    let any_dup = m.def("any_dup", pe_dup.any());
    let levels = m.def(
        "levels_pending",
        cat((0..l).rev().map(|j| pe_hot.row(j, n).any())),
    );
    let mut h = lit(4, 0);
    for j in 1..l {
        h = levels.bit(j).select(lit(4, j as u64), h);
    }
    let h_new = m.def("top_next", h);
    m.allow_unread("levels_pending");

    m.comment("Phase decoding");
    let is = |p: Phase| phase.is(code(p));
    let last = m.def("last", bt.is(0));
    let in_load = m.def("in_load", is(Phase::Load));
    let in_plan = m.def("in_plan", is(Phase::Plan));
    let in_arm = m.def("in_arm", is(Phase::Arm));
    let in_src = m.def("in_src", is(Phase::Src));
    let in_ack = m.def("in_ack", is(Phase::Ack));
    let idle_or_done = m.def("idle_or_done", is(Phase::Idle) | is(Phase::Done));

    m.comment("Outputs to the top");
    m.assign(&phase_o, &phase);
    m.assign(&done, is(Phase::Done));
    m.assign(&error, &err);
    m.assign(&passes_o, &passes);
    m.assign(&bit_times_o, &bit_times);

    m.comment("Switch broadcast (docs/interface.md §11.2)");
    let clear = is(Phase::Plan) | is(Phase::Done);
    m.assign(&ctl[0], is(Phase::Idle) | in_load.clone());
    m.assign(
        &ctl[1],
        in_src.select(
            lit(3, u64::from(Mode::Src.code())),
            in_ack.select(lit(3, u64::from(Mode::Rev.code())), zero(3)),
        ),
    );
    m.assign(
        &ctl[2],
        clear.clone() | in_arm.clone() | ((&in_src | &in_ack) & &last),
    );
    m.assign(&ctl[3], clear);

    m.comment("PE strobes");
    let go = m.def("go_now", !&reset & &start & &idle_or_done);
    for (k, o) in &st {
        let v = match *k {
            "go" => go.clone(),
            "lsel" => cat((0..s.pe.abin).rev().map(|b| &in_load & bt.is(b as u64))),
            "plan" => in_plan.clone(),
            "arm" => in_arm.clone(),
            "src" => in_src.clone(),
            "src_last" => &in_src & &last,
            "ack" => in_ack.clone(),
            "pass_k" => pk.clone(),
            other => unreachable!("strobe {other}"),
        };
        m.assign(o, v);
    }

    m.comment("Step lengths of this pass (loaded as length-1): SRC T_SRC(H), ACK 2H+2");
    let ack_len = m.def("ack_len", cat([zero(5), top.clone(), flag(true)]));
    let mut src_len = lit(10, (s.t_src[0] - 1) as u64);
    for (j, &t) in s.t_src.iter().enumerate().skip(1) {
        src_len = top.is(j as u64).select(lit(10, (t - 1) as u64), src_len);
    }
    let src_len = m.def("src_len", src_len);
    let len = |t: usize| lit(10, (t - 1) as u64);

    m.always(|p| {
        p.if_(&reset, |p| {
            p.comment("Reset: every register 0 (IDLE)");
            p.load(&phase, zero(4));
            p.load(&bt, zero(10));
            p.load(&top, zero(4));
            p.load(&pk, zero(pk_bits));
            p.load(&npass, zero(pk_bits));
            p.load(&passes, zero(16));
            p.load(&bit_times, zero(32));
            p.load(&err, flag(false));
        })
        .elif(&go, |p| {
            p.comment("Start: clear the counters, latch npass, go to LOAD");
            p.load(&phase, lit(4, code(Phase::Load)));
            p.load(&bt, len(s.t_load));
            p.load(&pk, zero(pk_bits));
            p.load(&npass, &npass_in);
            p.load(&passes, zero(16));
            p.load(&bit_times, zero(32));
            p.load(&err, flag(false));
        })
        .else_(|p| {
            p.load(&bt, last.select(zero(10), bt.minus(1)));
            p.if_(!&idle_or_done, |p| p.load(&bit_times, bit_times.plus(1)));
            p.if_(&in_src & &any_dup, |p| p.load(&err, flag(true)));
            let goto = |p: &mut crate::netlist::Proc, ph: Phase| p.load(&phase, lit(4, code(ph)));
            p.case(&phase, |c| {
                c.arm(&[code(Phase::Load)], |p| {
                    p.if_(&last, |p| {
                        goto(p, Phase::Plan);
                        p.if_(&any_bad, |p| p.load(&err, flag(true)));
                    });
                });
                c.arm(&[code(Phase::Plan)], |p| {
                    p.if_(&err | !&any_pend | pk.eq(&npass), |p| goto(p, Phase::Done))
                        .else_(|p| {
                            goto(p, Phase::Arm);
                            p.load(&passes, passes.plus(1));
                            p.load(&top, &h_new);
                        });
                });
                c.arm(&[code(Phase::Arm)], |p| {
                    goto(p, Phase::Src);
                    p.load(&bt, &src_len);
                });
                c.arm(&[code(Phase::Src)], |p| {
                    p.if_(&last, |p| {
                        goto(p, Phase::Ack);
                        p.load(&bt, &ack_len);
                    });
                });
                c.arm(&[code(Phase::Ack)], |p| {
                    p.if_(&last, |p| {
                        goto(p, Phase::Plan);
                        p.load(&pk, pk.plus(1));
                    });
                });
            });
        });
    });
    m.build()
}
