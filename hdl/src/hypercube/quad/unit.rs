//! Loop unit `j` of a quadratic-cube node (`hc_quad_unit_k{K}_l{L}_j{J}`,
//! `docs/hypercube.md` §14.2): loop `j` of Algorithm 2 with the overlapped schedule, for
//! good. With `f = k − 1 − j`, its `f` local stages switch dimensions `j+1..k-1` (local
//! stage `l` is dimension `j + 1 + l`) and its cross uses dimension `j`, each on the
//! unit's own wire: `dim_in`/`dim_out` bit 0 is the cross wire, bit `1 + l` local stage
//! `l`'s. It is the overlapped [`engine`](crate::hypercube::overlap) with constant masks
//! (every local stage runs, frames are injected into `P_0`), so its registers are sized
//! by `f`, not `k`: A and B (`M` bits), E (`f`), the pipeline (`f + 1`), the stage states
//! and the enumeration's sums and carries (`f` each, the count's `f − 1`).
//!
//! In the load cycle the unit takes `a_prev`/`va_prev` (the PEs' batch for unit 0, unit
//! `j − 1`'s A and `va` for the others), and shows its own A and `va` as `a_out`,
//! `va_out` for the next unit (the last unit: its payload as `result`, for the node's
//! output register). The last unit (`f = 0`) is the cross alone: A, `va` and
//! the cross flags (there is nothing to pack: every k-subcube is one node, so no node
//! ends the cross with two messages — an arriving message always goes to A).

use super::control::{loop_names, CROSS};
use super::{f_of, unit_name};
use crate::hypercube::overlap::control::Control;
use crate::hypercube::overlap::engine::{build, Spec};
use crate::hypercube::parts::shift_in_high;
use crate::netlist::{cat, flag, lit, Module, ModuleBuilder, V};
use lcanet_sim::hypercube::CubeParams;

/// Unit `j` of the quadratic `k`-cube with `L`-bit payloads.
pub fn unit(p: CubeParams, j: usize) -> Module {
    let f = f_of(p, j);
    let msg = p.message_bits();
    let mut m = ModuleBuilder::new(unit_name(p, j));
    m.clock();
    let load = m.input("load", 1);
    let clear = (f > 0).then(|| m.input("clear", 1));
    let loops = loop_names();
    let ctl = Control::declare(|name| {
        if name == "load" {
            load.clone()
        } else if CROSS.contains(&name) || (f > 0 && loops.contains(&name)) {
            m.input(name, 1)
        } else {
            flag(false)
        }
    });
    let vectors = (f > 0).then(|| (m.input("sel", f), m.input("sclr", f), m.input("ewin", f)));
    let my_addr = m.input("my_addr", f + 1);
    let a_prev = m.input("a_prev", msg);
    let va_prev = m.input("va_prev", 1);
    let dim_in = m.input("dim_in", f + 1);
    let dim_out = m.output("dim_out", f + 1);
    // The last unit shows only its payload (the node's result); the others their whole A.
    let last = j + 1 == p.k();
    let a_out = if last {
        m.output("result", p.payload_bits())
    } else {
        m.output("a_out", msg)
    };
    let va_out = m.output("va_out", 1);
    if let (Some(clear), Some((sel, sclr, ewin))) = (clear, vectors) {
        let rx_bit = m.output("rx_bit", 1);
        let collision = m.output("collision", 1);
        let cross_dest = move |a: &V| a.bit(j);
        let e = build(
            &mut m,
            &ctl,
            Spec {
                w: f,
                msg,
                act: lit(f, (1u64 << f) - 1),
                first: lit(f, 1),
                inj: lit(f + 1, 1),
                sel,
                sclr,
                ewin,
                my: my_addr.bits(f, 1),
                loop_in: dim_in.bits(f, 1),
                cross_in: dim_in.bit(0),
                cross_x: my_addr.bit(0),
                cross_dest: &cross_dest,
                load_a: a_prev,
                load_va: va_prev,
                coll_clear: clear,
                semi: false,
            },
        );
        m.comment("Links and outputs: bit 0 the cross wire, bit 1 + l local stage l's");
        m.assign(&dim_out, cat([e.loop_out, e.x_tx]));
        m.assign(&a_out, e.a.top(a_out.width()));
        m.assign(&va_out, &e.va);
        m.assign(&rx_bit, &e.deliver);
        m.assign(&collision, &e.coll);
    } else {
        cross_only(
            &mut m, &ctl, j, msg, &my_addr, &dim_in, &dim_out, &a_prev, &va_prev, &a_out, &va_out,
        );
    }
    m.build()
}

/// The last unit: the cross of dimension `k − 1` alone.
#[allow(clippy::too_many_arguments)]
fn cross_only(
    m: &mut ModuleBuilder,
    ctl: &Control,
    j: usize,
    msg: usize,
    my_addr: &V,
    dim_in: &V,
    dim_out: &V,
    a_prev: &V,
    va_prev: &V,
    a_out: &V,
    va_out: &V,
) {
    m.comment("Buffer A and the cross's flags");
    let a = m.reg("a", msg);
    let va = m.reg("va", 1);
    let xing = m.reg("xing", 1);
    let incoming = m.reg("incoming", 1);
    let keep = m.reg("keep", 1);
    m.comment("The cross of dimension j");
    let cur_win = m.def("cur_win", dim_in.clone());
    let go = m.def("go", &va & (a.bit(j) ^ my_addr));
    let keeps = m.def("keeps", &va & !&go);
    let x_tx = m.def(
        "x_tx",
        &ctl.ph_cross & ctl.x_decide.select(&go, &xing & a.bit(0)),
    );
    let a_shift = m.def("a_shift", &ctl.x_shift & (&xing | (&incoming & !&keep)));
    let a_fill = m.def("a_fill", &incoming & !&keep & &cur_win);
    m.assign(dim_out, &x_tx);
    m.assign(a_out, a.top(a_out.width()));
    m.assign(va_out, &va);
    m.always(|pr| {
        pr.if_(&ctl.load, |pr| pr.load(&a, a_prev))
            .elif(&a_shift, |pr| {
                pr.load(&a, shift_in_high(&a, a_fill.clone()))
            });
        pr.if_(&ctl.x_decide, |pr| {
            pr.load(&xing, &go);
            pr.load(&incoming, &cur_win);
            pr.load(&keep, &keeps);
        });
        pr.if_(&ctl.load, |pr| pr.load(&va, va_prev))
            .elif(&ctl.x_decide, |pr| pr.load(&va, &keeps | &cur_win));
    });
}
