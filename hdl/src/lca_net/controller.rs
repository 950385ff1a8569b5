//! The network controller (`docs/interface.md` §4), word-level: the phase register, a
//! count-down step timer, the set-up step/level register, the pass and bit-time counters
//! and the sticky error flag. It drives phase strobes to every PE interface and the tap
//! drivers ([`super::tap`]), and reduces the PEs' status vectors (pending, one-hot LCA
//! level — level-major, PE `p`'s level `j` at bit `j·n + p` — range and duplicate-frame
//! errors).
//!
//! The next state (`phase_next`, `bt_next`, `lv_next`) is explicit
//! (`docs/decisions/fpga-flow.md`) and built by [`sequencer`], which every tap driver runs
//! too on its own copy of the state, reading the controller's registered `H`
//! (`seq_top`), "some PE is pending" (`seq_pend`) and `error`. The drivers send it to the
//! taps (`tap_phase`, `tap_last`, `tap_lv`), which keep a copy of the state and decode
//! `ctl_*` beside their switch. The PE strobes are
//! registered: each strobe's register loads its value in the next state, so that every PE
//! sees the same values in the same bit-time as from a combinational decode, but from a
//! flip-flop. Not `go` (the top's `start`, same bit-time) nor `sel_lvl` (the `lv` register
//! itself).
//!
//! Registers: `phase_q` (4), `bt` (10, counts down to 0 in the step's last bit-time), `lv`
//! (5: R1 `UP` step `s` holds `H−1−s` mod 32, `DOWN` the served level, R2 `PROBE` the steps
//! left), `top` (4: `H`), `passes_q` (16), `bit_times_q` (32), `err`, `seed` (16, random policy
//! only), and one `{strobe}_q` per registered strobe.

use super::pe::{strobes, PeShape};
use super::spec::NetSpec;
use crate::netlist::{cat, flag, lit, priority, zero, Module, ModuleBuilder, V};
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

/// What the controller sends the tap drivers ([`super::tap::driver_module`]): "some PE is
/// pending" and `H`, both registers (with its `error`, the top's output).
pub const SEQ_OUTPUTS: [(&str, usize); 2] = [("seq_pend", 1), ("seq_top", 4)];

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

pub(super) fn code(p: Phase) -> u64 {
    p.code()
}

/// The controller module `name` for `s`.
pub fn controller_module(name: &str, s: &CtrlShape) -> Module {
    let (n, l) = (s.n, s.l);
    let mut m = ModuleBuilder::new(name);
    m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let seed_in = s.random.then(|| m.input("seed_in", 16));
    let pe_pend = m.input("pend_next", n);
    let pe_hot = m.input("hot", n * l);
    let pe_bad = m.input("bad", n);
    let pe_dup = m.input("dup", n);
    let [pend_o, top_o] = SEQ_OUTPUTS.map(|(k, w)| m.output(k, w));
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
    // Registered: each PE says whether it is pending after this bit-time, so that PLAN's
    // choice of ARM or DONE (which the taps load) starts at a flip-flop.
    let any_pend = m.reg("any_pending_q", 1);
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

    let nx = sequencer(
        &mut m,
        s,
        &SeqState {
            phase: phase.clone(),
            bt: bt.clone(),
            lv: lv.clone(),
            top: top.clone(),
            reset: reset.clone(),
            start: start.clone(),
            err: err.clone(),
            pend: any_pend.clone(),
        },
    );
    let go = nx.go.clone();
    let pass_begins = m.def("pass_begins", nx.pass_begins.clone());

    m.comment("Outputs to the top and to the taps' drivers");
    m.assign(&phase_o, &phase);
    m.assign(&done, phase.is(code(Phase::Done)));
    m.assign(&error, &err);
    m.assign(&pend_o, &any_pend);
    m.assign(&top_o, &top);
    m.assign(&passes_o, &passes);
    m.assign(&bit_times_o, &bit_times);
    if let (Some(o), Some(r)) = (&seed16, &seed) {
        m.assign(o, r);
    }
    // The taps' level but in PLAN, which loads H when a pass begins.
    let lv_next = m.def(
        "lv_next",
        priority(
            nx.lv_hold.clone(),
            [
                Some((reset.clone(), zero(5))),
                Some((pass_begins.clone(), h_new.zext(5))),
            ],
        ),
    );

    m.comment("PE strobes, registered: each loads its value in the next state");
    let fanout: Vec<(&str, V, V)> = strobes_of(s, &nx.phase_next, &nx.bt_next, &lv_next)
        .into_iter()
        .map(|(k, v)| (k, m.reg(format!("{k}_q"), v.width()), v))
        .collect();
    let reg_of = |k: &str| {
        fanout
            .iter()
            .find(|(n, _, _)| *n == k)
            .map(|(_, r, _)| r.clone())
    };
    for (k, o) in &st {
        let v = match *k {
            // The start handshake reads the top's `start` in the same bit-time.
            "go" => go.clone(),
            // The level register itself.
            "sel_lvl" => lv.low(4),
            k => reg_of(k).expect("every other strobe is registered"),
        };
        m.assign(o, v);
    }

    m.always(|p| {
        p.load(&any_pend, pe_pend.any());
        p.load(&phase, &nx.phase_next);
        p.load(&bt, &nx.bt_next);
        p.load(&lv, &lv_next);
        for (_, r, v) in &fanout {
            p.load(r, v);
        }
        p.if_(&reset, |p| {
            p.comment("Reset: every counter 0");
            p.load(&top, zero(4));
            p.load(&passes, zero(16));
            p.load(&bit_times, zero(32));
            p.load(&err, flag(false));
            if let Some(r) = &seed {
                p.load(r, zero(16));
            }
        })
        .elif(&go, |p| {
            p.comment("Start: clear the counters, latch the seed");
            p.load(&passes, zero(16));
            p.load(&bit_times, zero(32));
            p.load(&err, flag(false));
            if let (Some(r), Some(i)) = (&seed, &seed_in) {
                p.load(r, i);
            }
        })
        .else_(|p| {
            p.if_(!&nx.idle_or_done, |p| p.load(&bit_times, bit_times.plus(1)));
            p.if_(
                (&nx.in_data & &any_dup) | (&nx.in_load & &nx.last & &any_bad),
                |p| p.load(&err, flag(true)),
            );
            p.if_(&pass_begins, |p| {
                p.load(&passes, passes.plus(1));
                p.load(&top, &h_new);
            });
        });
    });
    m.build()
}

/// The PE strobes but `go` and `sel_lvl`, as functions of the state `phase`, `bt`, `lv`
/// (`docs/interface.md` §4). The switch broadcast is decoded by the taps
/// ([`super::tap::switch_broadcast`]).
fn strobes_of(s: &CtrlShape, phase: &V, bt: &V, lv: &V) -> Vec<(&'static str, V)> {
    let is = |p: Phase| phase.is(code(p));
    let last = bt.is(0);
    let (in_load, in_arm) = (is(Phase::Load), is(Phase::Arm));
    let (in_deliv, in_data, in_ack) = (is(Phase::Deliv), is(Phase::Data), is(Phase::Ack));
    let mut v = Vec::new();
    for (k, _) in strobes(&s.pe) {
        let x = match k {
            "go" | "sel_lvl" => continue,
            "lsel" => cat((0..s.pe.abin).rev().map(|b| &in_load & bt.is(b as u64))),
            "plan" => is(Phase::Plan),
            "arm" => in_arm.clone(),
            "up_load" => is(Phase::Up) & &last & lv.is_not(31),
            "deliv0" => &in_deliv & !&last,
            "deliv1" => &in_deliv & &last,
            "data" => in_data.clone(),
            "data_last" => &in_data & &last,
            "ack" => in_ack.clone(),
            other => unreachable!("strobe {other}"),
        };
        v.push((k, x));
    }
    v
}

/// The sequencer's state and what its next state reads: the controller's own registers,
/// or a tap driver's copies of them ([`super::tap::driver_module`]).
pub struct SeqState {
    /// `phase_q` (4).
    pub phase: V,
    /// The step timer `bt` (10).
    pub bt: V,
    /// The level register `lv` (5).
    pub lv: V,
    /// `H` of this pass, `top` (4).
    pub top: V,
    /// The top's `reset`.
    pub reset: V,
    /// The top's `start`.
    pub start: V,
    /// The sticky error flag.
    pub err: V,
    /// "Some PE is pending", registered.
    pub pend: V,
}

/// The sequencer's next state, as named wires of the module it was built in.
pub struct SeqNext {
    /// The start handshake: `start` in `IDLE` or `DONE`, not in reset.
    pub go: V,
    /// The step timer is at 0.
    pub last: V,
    /// Phase `LOAD`.
    pub in_load: V,
    /// Phase `DATA`.
    pub in_data: V,
    /// Phase `IDLE` or `DONE`.
    pub idle_or_done: V,
    /// `PLAN` with a pass to run: the controller loads `H` and counts the pass (an
    /// expression: only the controller names it).
    pub pass_begins: V,
    /// The next phase.
    pub phase_next: V,
    /// The step timer's next value.
    pub bt_next: V,
    /// The level's next value but in `PLAN`, where it holds. The taps read the level in
    /// `DOWN` only and `ARM` (after `PLAN`) loads the first level whatever it was, so a copy
    /// of the level that skips `PLAN`'s load of `H` serves them without the PEs' status.
    pub lv_hold: V,
    /// `bt_next == 0`, written per branch of `bt_next` (a step length `t` loads `t − 1`):
    /// constants but for the count-down, so that it is not behind a 10-bit multiplexer and
    /// a compare (an expression: only the drivers read it).
    pub last_next: V,
}

/// The sequencer's next state from `q` (`docs/interface.md` §4): built once in the
/// controller and once in every tap driver, from the same code, so the copies agree.
pub fn sequencer(m: &mut ModuleBuilder, s: &CtrlShape, q: &SeqState) -> SeqNext {
    let r1 = s.pe.r1;
    let (phase, bt, lv, top, reset) = (&q.phase, &q.bt, &q.lv, &q.top, &q.reset);
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

    m.comment("Step lengths of this pass: DATA NF+2H+2, ACK 2H+2 (loaded as length-1)");
    let ack_len = m.def("ack_len", cat([zero(5), top.clone(), flag(true)]));
    let data_len = m.def("data_len", &ack_len + lit(10, s.nf as u64));
    let len = |t: usize| lit(10, (t - 1) as u64);

    m.comment("Next state of the sequencer: phase, step timer, level");
    let go = m.def("go_now", !reset & &q.start & &idle_or_done);
    // In PLAN: no pass left (or an error), so DONE rather than ARM.
    let plan_done = m.def("plan_done", &q.err | !&q.pend);
    let pass_begins = &in_plan & !&plan_done;
    // The last set-up phase (R1 DOWN, R2 PROBE), DELIV after its level-0 step.
    let (setup_last, t_setup_last) = match (&in_down, &in_probe) {
        (Some(d), _) => (d.clone(), s.t_down),
        (_, Some(p)) => (p.clone(), s.t_probe),
        _ => unreachable!("R1 has DOWN, R2 has PROBE"),
    };
    let setup_step_ends = m.def("setup_step_ends", &setup_last & &last);
    let up_step_ends = in_up.as_ref().map(|u| m.def("up_step_ends", u & &last));
    let ph = |p: Phase| lit(4, code(p));
    let (first_setup, t_first) = if r1 {
        (Phase::Up, s.t_up)
    } else {
        (Phase::Probe, s.t_probe)
    };
    let phase_next = priority(
        phase.clone(),
        [
            Some((reset.clone(), ph(Phase::Idle))),
            Some((go.clone(), ph(Phase::Load))),
            Some((&in_load & &last, ph(Phase::Plan))),
            Some((
                in_plan.clone(),
                plan_done.select(ph(Phase::Done), ph(Phase::Arm)),
            )),
            Some((in_arm.clone(), ph(first_setup))),
            up_step_ends
                .as_ref()
                .map(|u| (u & lv.is(31), ph(Phase::Down))),
            Some((&setup_step_ends & lv.is(0), ph(Phase::Deliv))),
            Some((&in_deliv & &last, ph(Phase::Data))),
            Some((&in_data & &last, ph(Phase::Ack))),
            Some((&in_ack & &last, ph(Phase::Plan))),
        ],
    );
    let phase_next = m.def("phase_next", phase_next);
    let bt_next = priority(
        last.select(zero(10), bt.minus(1)),
        [
            Some((reset.clone(), zero(10))),
            Some((go.clone(), len(s.t_load))),
            Some((in_arm.clone(), len(t_first))),
            up_step_ends
                .as_ref()
                .map(|u| (u.clone(), lv.is(31).select(len(s.t_down), len(s.t_up)))),
            Some((
                setup_step_ends.clone(),
                lv.is(0).select(lit(10, 1), len(t_setup_last)),
            )),
            Some((&in_deliv & &last, data_len.clone())),
            Some((&in_data & &last, ack_len)),
        ],
    );
    let bt_next = m.def("bt_next", bt_next);
    // R2 PROBE counts 2H steps; R1 UP holds H-1-s mod 32, so that 31 ends it.
    let first_lv = if r1 {
        top.zext(5).minus(1)
    } else {
        cat([top.clone(), flag(false)])
    };
    let lv_hold = priority(
        lv.clone(),
        [
            Some((reset.clone(), zero(5))),
            Some((in_arm.clone(), first_lv)),
            up_step_ends
                .as_ref()
                .map(|u| (u.clone(), lv.is(31).select(top.zext(5), lv.minus(1)))),
            Some((&setup_step_ends & lv.is_not(0), lv.minus(1))),
        ],
    );
    let lv_hold = m.def("lv_hold", lv_hold);
    let ends = |t: usize| flag(t == 1);
    let last_next = priority(
        &last | bt.is(1),
        [
            Some((reset.clone(), flag(true))),
            Some((go.clone(), ends(s.t_load))),
            Some((in_arm.clone(), ends(t_first))),
            up_step_ends
                .as_ref()
                .map(|u| (u.clone(), lv.is(31).select(ends(s.t_down), ends(s.t_up)))),
            Some((
                setup_step_ends,
                lv.is(0).select(flag(false), ends(t_setup_last)),
            )),
            Some((&in_deliv & &last, data_len.is(0))),
            Some((&in_data & &last, flag(false))),
        ],
    );
    SeqNext {
        go,
        last,
        in_load,
        in_data,
        idle_or_done,
        pass_begins,
        phase_next,
        bt_next,
        lv_hold,
        last_next,
    }
}
