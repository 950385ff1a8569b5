//! The bit-serial 2x2 self-routing switch of the MINs (docs/min.md §3), one module for
//! every switch of every network: `min_switch_2x2`.
//!
//! Ports 0 (upper) and 1 (lower) are the bits of two-bit vectors: `in[p]`, `out[p]`.
//! While its stage's decision strobe `dec` is high the bits at `in` are the frame's tag
//! bits for this stage: the upper input's tag sets the switch (`crossed ← in[0]`), a
//! conflict is flagged when both inputs ask for the same output (`conflict ← in[0] ==
//! in[1]`; the lower message is then deflected to the other output), and both outputs
//! send 0 (the tag is consumed). Otherwise the outputs pass the inputs, crossed or not.
//! Every output is a register: the switch's latency is one bit-time.

use crate::netlist::{cat, zero, Module, ModuleBuilder};

/// The module name of the switch (it has no parameter).
pub const SWITCH_MODULE: &str = "min_switch_2x2";

/// The 2x2 switch: `clock, reset, dec, in[2]` → `out[2], crossed, conflict`.
pub fn switch() -> Module {
    let mut m = ModuleBuilder::new(SWITCH_MODULE);
    m.clock();
    let reset = m.input("reset", 1);
    let dec = m.input("dec", 1);
    let inp = m.input("in", 2);
    let out = m.output("out", 2);
    let crossed = m.output("crossed", 1);
    let conflict = m.output("conflict", 1);

    m.comment("State: the bits leaving on ports 0 and 1, the setting, the conflict flag");
    let out_q = m.reg("out_q", 2);
    let crossed_q = m.reg("crossed_q", 1);
    let conflict_q = m.reg("conflict_q", 1);
    m.comment("Data through the setting: out[0] = crossed ? in[1] : in[0]");
    let through = m.def(
        "through",
        crossed_q.select(cat([inp.bit(0), inp.bit(1)]), &inp),
    );
    m.assign(&out, &out_q);
    m.assign(&crossed, &crossed_q);
    m.assign(&conflict, &conflict_q);

    m.always(|p| {
        p.if_(&reset, |p| {
            p.load(&out_q, zero(2));
            p.load(&crossed_q, zero(1));
            p.load(&conflict_q, zero(1));
        })
        .elif(&dec, |p| {
            p.comment("Tag bit-time: the upper input's tag sets the switch; the tag is consumed");
            p.load(&crossed_q, inp.bit(0));
            p.load(&conflict_q, inp.bit(0).eq(&inp.bit(1)));
            p.load(&out_q, zero(2));
        })
        .else_(|p| p.load(&out_q, &through));
    });
    m.build()
}
