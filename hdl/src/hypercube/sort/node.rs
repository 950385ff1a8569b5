//! The node router of the sort-then-pack k-cube (`docs/hypercube.md` §13), one module for
//! every node (`hc_sort_node_k{K}_l{L}`).
//!
//! One pipeline serves both kinds of phase. Its `k` stages are routing switches in a
//! routing phase (§3.2: Algorithm 1, and the unpacking) and **compare-exchange units** in
//! a sort pass; the stage state vectors mean `(decided, take)` there. In pass `s` the
//! stages of dimensions `k−1−s..k−1` (`act = ~low`) run: the node streams its record —
//! `!va`, then A from its head — into `P_{k−1−s}`; stage `d` sends its input stream on
//! the dimension-`d` wire, compares it, most significant bit first, with the partner's
//! stream arriving on the same wire at the same bit time, and passes on its own bits
//! until the first difference, then the stream it keeps: the larger one iff bit `d` of
//! the node's address XOR bit `k−2−s` (`top_of(low)`, a descending block) is 1. The
//! record reaches `P_k` at `s + 2` and shifts back into A; its first bit is the new
//! `!va`. Storage: A alone (no B, no E, no adders).

use super::control::Control;
use crate::hypercube::parts::{first_above, shift_in_high, stage_next, stage_outputs, top_of};
use crate::hypercube::Router;
use crate::netlist::{cat, zero, Module, ModuleBuilder};
use lcanet_sim::hypercube::CubeParams;

/// The node router of the sort `k`-cube with `L`-bit payloads.
pub fn node(p: CubeParams) -> Module {
    let (k, l, msg) = (p.k(), p.payload_bits(), p.message_bits());
    let mut m = ModuleBuilder::new(Router::Sort.node_name(p));
    m.clock();
    let ctl = Control::inputs(&mut m);
    let sel = m.input("sel", k);
    let low = m.input("low", k);
    let my_addr = m.input("my_addr", k);
    let send = m.input("send", 1);
    let dest = m.input("dest", k);
    let payload = m.input("payload", l);
    let dim_in = m.input("dim_in", k);
    let dim_out = m.output("dim_out", k);
    let rx_bit = m.output("rx_bit", 1);
    let rx_valid = m.output("rx_valid", 1);
    let rx_payload = m.output("rx_payload", l);
    let collision = m.output("collision", 1);

    m.comment(
        "Pipeline registers P_0..P_k; stage states (routing: pass, dir; sort: decided, take)",
    );
    let pipe = m.reg("p", k + 1);
    let stage_pass = m.reg("stage_pass", k);
    let stage_dir = m.reg("stage_dir", k);
    m.comment("Message buffer A (head at bit 0) and flags");
    let a = m.reg("a", msg);
    let va = m.reg("va", 1);
    let hit = m.reg("hit", 1);
    let coll = m.reg("coll", 1);

    m.comment("The stages that run: dimensions k-1-s..k-1 in pass s, all in a routing phase");
    let act = m.def("act", !&low);
    let first = m.def("first", first_above(&low));
    let inj = m.def("inj", cat([low.bit(k - 1), first.clone()]));
    let stage_in = m.def("stage_in", pipe.low(k) & &act);
    let other = m.def("other", &dim_in & &act);
    let cur_x = m.def("cur_x", (&sel & &my_addr).any());

    m.comment("Routing stages (docs/hypercube.md §3.2)");
    let (stay, cross_out) = stage_outputs(&mut m, &stage_in, &stage_pass, &stage_dir);
    let meet = m.def("meet", &ctl.ph_semi & (&stay & &other).any());

    m.comment("Compare-exchange stages: keep the larger stream iff x_d XOR (descending block)");
    let desc = m.def("desc", (top_of(&low) & &my_addr).any());
    let keep_max = m.def("keep_max", &my_addr ^ desc.repeat(k));
    let differ = m.def("differ", &stage_in ^ &other);
    let take_now = m.def("take_now", &stage_in ^ &keep_max);
    let take = m.def(
        "take",
        (&stage_pass & &stage_dir) | (!&stage_pass & &differ & &take_now),
    );
    let kept = m.def("kept", (&take & &other) | (!&take & &stage_in));

    m.comment("Sender: routing frames (Algorithm 1) or the record (!va, then A)");
    let tx = m.def(
        "tx",
        (&ctl.ph_semi
            & &va
            & (&ctl.c_start | (&ctl.c_addr & (a.bit(0) ^ &cur_x)) | (&ctl.c_body & a.bit(0))))
            | (&ctl.ph_sort & ((&ctl.c_start & !&va) | (&ctl.c_body & a.bit(0)))),
    );
    let deliver = m.def("deliver", pipe.bit(k));
    let next_out = m.def(
        "next_out",
        ctl.ph_sort.select(&kept, (&stay & &act) | &other),
    );

    m.comment("Links and outputs");
    m.assign(
        &dim_out,
        ctl.ph_sort.select(stage_in.clone(), cross_out.clone()),
    );
    m.assign(&rx_bit, &deliver);
    m.assign(&rx_valid, &ctl.done & &va);
    m.assign(&rx_payload, a.top(l) & rx_valid.repeat(l));
    m.assign(&collision, &coll);

    let a_shift = m.def(
        "a_shift",
        (&ctl.ph_semi & (&ctl.c_addr | &ctl.c_window)) | (&ctl.ph_sort & &ctl.c_window),
    );
    let running = m.def("running", &ctl.ph_semi | &ctl.ph_sort);
    m.always(|pr| {
        pr.comment("Pipeline: P_{d+1} takes stage d's output; the sender drives P_{first}");
        pr.if_(&running, |pr| {
            pr.load(
                &pipe,
                cat([next_out.clone(), zero(1)]) | (&inj & tx.repeat(k + 1)),
            )
        })
        .else_(|pr| pr.load(&pipe, zero(k + 1)));
        let (pass_r, dir_r) = stage_next(&stage_in, &stage_pass, &stage_dir);
        // Sort: decided <= decided | differ, take <= take (held from the decision on).
        let pass_next = ctl.ph_sort.select(&stage_pass | &differ, pass_r);
        let dir_next = ctl.ph_sort.select(take.clone(), dir_r);
        let cleared = !ctl.s_clear.repeat(k);
        pr.load(&stage_pass, pass_next & &cleared);
        pr.load(&stage_dir, dir_next & &cleared);
        pr.comment("Buffer A; va from the record's first bit (sort) or the arrival (routing)");
        pr.if_(&ctl.load, |pr| {
            pr.load(&a, cat([payload.clone(), dest.clone()]))
        })
        .elif(&a_shift, |pr| {
            pr.load(&a, shift_in_high(&a, deliver.clone()))
        });
        pr.if_(&ctl.c_rxstart, |pr| pr.load(&hit, &deliver));
        pr.if_(&ctl.load, |pr| pr.load(&va, &send))
            .elif(&ctl.ph_sort & &ctl.c_rxstart, |pr| pr.load(&va, !&deliver))
            .elif(&ctl.ph_semi & &ctl.c_last, |pr| pr.load(&va, &hit));
        pr.if_(&ctl.load, |pr| pr.load(&coll, zero(1)))
            .else_(|pr| pr.load(&coll, &coll | &meet));
    });
    m.build()
}
