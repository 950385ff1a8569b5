//! The broadcast tap (`docs/interface.md` §4): one per switch instance (one per rows
//! instance in [`super::Structure::Rows`]), `lvl<i>_sw<j>_tap`. It holds its own copy of
//! the controller's state — the phase, "the step timer is at 0" and the low four bits of
//! the level register, each loaded with the next value its driver computes (`tap_phase`,
//! `tap_last`, `tap_lv`), so it equals the controller's register in every bit-time (the
//! level but in `ARM`, where no `ctl_*` reads it: `tap_lv` skips `PLAN`'s load of `H`) —
//! and decodes the switch broadcast `ctl_*` from that copy, beside its switch.
//!
//! The next state comes from a tap driver `tapdrv<g>` ([`driver_module`]), one per
//! [`TAPS_PER_DRIVER`] taps in fabric order: a copy of the controller's sequencer (its
//! phase, step timer and level, and the same next-state code,
//! [`super::controller::sequencer`]) that reads only the controller's registered `H`,
//! error and "some PE is pending", and the top's `reset` and `start`.
//!
//! Together they are a fan-out tree (`docs/decisions/fpga-flow.md`): no net of the
//! controller reaches every switch. The controller's few registers reach the drivers, each
//! driver's next state reaches its group of taps, and each tap drives only its own switch's
//! resets and enables. The copies are identical, so their processes are `(* keep *)`, or
//! synthesis would merge them back into one. Decoding beside the switch (rather than
//! copying the decoded `ctl_*`) keeps `ctl_mode` a function of the phase, so synthesis still
//! drops the logic of modes the algorithm never uses.

use super::controller::{code, sequencer, CtrlShape, SeqState, CTL_SIGNALS};
use crate::netlist::{lit, zero, Module, ModuleBuilder, V};
use lcanet_sim::lcan::cycle::network::Phase;

/// The tap's inputs from the controller (its next state), with their widths; `tap_lv`
/// only in R1 networks (R2's `ctl_level` is 0).
pub const TAP_INPUTS: [(&str, usize); 3] = [("tap_phase", 4), ("tap_last", 1), ("tap_lv", 4)];

/// The inputs an R1 (`r1`) or R2 network's tap reads.
pub fn tap_inputs(r1: bool) -> &'static [(&'static str, usize)] {
    if r1 {
        &TAP_INPUTS[..]
    } else {
        &TAP_INPUTS[..2]
    }
}

/// Taps per driver: each driver's next state reaches at most this many taps.
pub const TAPS_PER_DRIVER: usize = 8;

/// A driver's inputs, named as the network top's nets: its `reset` and `start`, and the
/// controller's `error`, `seq_pend` (some PE is pending, registered) and `seq_top` (`H`).
pub const DRIVER_INPUTS: [(&str, usize); 5] = [
    ("reset", 1),
    ("start", 1),
    ("error", 1),
    ("seq_pend", 1),
    ("seq_top", 4),
];

/// The instance name of tap driver `g`: `tapdrv<g>`.
pub fn driver_instance(g: usize) -> String {
    format!("tapdrv{g}")
}

/// The tap driver module `name` for the controller of shape `s`: kept copies of the
/// sequencer's phase, step timer and level, loaded with their next state, which it sends to
/// its taps as [`tap_inputs`].
pub fn driver_module(name: &str, s: &CtrlShape) -> Module {
    let mut m = ModuleBuilder::new(name);
    m.clock();
    let ins: Vec<V> = DRIVER_INPUTS.iter().map(|&(k, w)| m.input(k, w)).collect();
    let outs: Vec<V> = tap_inputs(s.pe.r1)
        .iter()
        .map(|&(k, w)| m.output(k, w))
        .collect();
    m.comment("The controller's sequencer state, copied (it powers up as the controller's)");
    let phase = m.reg_init("phase_q", 4, code(Phase::Idle));
    let bt = m.reg("bt", 10);
    let lv = m.reg("lv", 5);
    m.keep_registers();
    let nx = sequencer(
        &mut m,
        s,
        &SeqState {
            phase: phase.clone(),
            bt: bt.clone(),
            lv: lv.clone(),
            top: ins[4].clone(),
            reset: ins[0].clone(),
            start: ins[1].clone(),
            err: ins[2].clone(),
            pend: ins[3].clone(),
        },
    );
    m.always(|p| {
        p.load(&phase, &nx.phase_next);
        p.load(&bt, &nx.bt_next);
        p.load(&lv, &nx.lv_hold);
    });
    m.comment("To the taps: the next state");
    let next = [nx.phase_next, nx.last_next, nx.lv_hold.low(4)];
    for (o, v) in outs.iter().zip(next) {
        m.assign(o, v);
    }
    m.build()
}

/// The instance name of the tap of switch (or rows instance) `inst`: `<inst>_tap`.
pub fn tap_instance(inst: &str) -> String {
    format!("{inst}_tap")
}

/// The switch broadcast (every `ctl_*`, in [`CTL_SIGNALS`]' order) as functions of the
/// controller's state: `phase`, `last` (the step timer is 0), `lv` (the level register's
/// low four bits; read in R1 `DOWN` only). `docs/interface.md` §4.
pub fn switch_broadcast(r1: bool, phase: &V, last: &V, lv: Option<&V>) -> Vec<(&'static str, V)> {
    let is = |p: Phase| phase.is(code(p));
    let idle_or_done = is(Phase::Idle) | is(Phase::Done);
    let clear = is(Phase::Plan) | is(Phase::Done);
    let mode = |p: Phase, k: u64| is(p).select(lit(3, k), zero(3));
    let setup_mode = if r1 {
        mode(Phase::Up, 1) | mode(Phase::Down, 2)
    } else {
        mode(Phase::Probe, 3)
    };
    // ARM (one bit-time) and the last bit-time of every step of phases 4-9.
    let stepping = !(&idle_or_done | is(Phase::Load) | is(Phase::Plan) | is(Phase::Arm)) & last;
    let v = vec![
        ("ctl_init", is(Phase::Idle) | is(Phase::Load)),
        (
            "ctl_mode",
            setup_mode | mode(Phase::Data, 4) | mode(Phase::Ack, 5),
        ),
        ("ctl_last", clear.clone() | is(Phase::Arm) | stepping),
        ("ctl_clear", clear),
        (
            "ctl_level",
            match lv {
                Some(lv) => lv.when(&is(Phase::Down)),
                None => zero(4),
            },
        ),
    ];
    debug_assert!(v.iter().zip(CTL_SIGNALS).all(|((k, _), (c, _))| *k == c));
    v
}

/// The tap module `name` of an R1 (`r1`) or R2 network.
pub fn tap_module(name: &str, r1: bool) -> Module {
    let mut m = ModuleBuilder::new(name);
    m.clock();
    let ins: Vec<V> = tap_inputs(r1).iter().map(|&(k, w)| m.input(k, w)).collect();
    let outs: Vec<V> = CTL_SIGNALS.iter().map(|&(k, w)| m.output(k, w)).collect();
    m.comment("The controller's state, copied: each loads the controller's next value");
    // Power-up as the controller: phase IDLE, the timer at 0, the level 0.
    let phase = m.reg_init("phase_q", 4, code(Phase::Idle));
    let last = m.reg_init("last_q", 1, 1);
    let lv = r1.then(|| m.reg("lv_q", 4));
    m.keep_registers();
    m.always(|p| {
        p.load(&phase, &ins[0]);
        p.load(&last, &ins[1]);
        if let Some(lv) = &lv {
            p.load(lv, &ins[2]);
        }
    });
    m.comment("Switch broadcast (docs/interface.md §4 table)");
    for (o, (_, v)) in outs
        .iter()
        .zip(switch_broadcast(r1, &phase, &last, lv.as_ref()))
    {
        m.assign(o, v);
    }
    m.build()
}
