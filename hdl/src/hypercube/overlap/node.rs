//! The node router of the overlapped k-cube (`docs/hypercube.md` §12), one module for
//! every node (`hc_node_k{K}_l{L}`; the node's address on the constant input `my_addr`).
//!
//! The quantities of the sequential node (§2) — `p[k:0]`, `stage_pass`, `stage_dir`,
//! `a`, `b`, `e`, the enumeration's `t`, `ct`, `o`, `co`, the flags — plus `keep` (the
//! node keeps its own message in the cross). What changes is *where* loop `i` works,
//! from the broadcast thermometer `low`:
//! - only the stages of the dimensions `d > i` (`act = ~low`) run; a routing phase
//!   injects into the pipeline register of the first of them (`P_{i+1}`, `P_0` in
//!   `semi`), and the rendezvous delivers there; the enumeration injects at `T_{i+1}`;
//! - register E is **aligned with the dimensions**: it shifts in from its top end, so
//!   after `f` shifts `E[d]` holds the bit for dimension `d`, and every address bit is
//!   `E[d] ⊕ x_d` of the dimension `sel` points at (no shifting to read it);
//! - the cross of dimension `i` (`top_of(low)`) has its own wire and flags and runs
//!   while the enumeration and step 3 use the wires above `i`; `va`/`vb` take their
//!   post-cross values at the decision (cycle 0), where the doubles are injected into the
//!   enumeration;
//! - a wire carries the enumeration's `T_d` exactly inside the window `ewin[d]` (the
//!   adders take it only there) and frames outside it (the pipelines take it only
//!   there); stage `d` is also cleared by `sclr[d]`, which lets step 5's frames follow
//!   step 3's.

use super::control::Control;
use crate::hypercube::parts::{
    first_above, full_add, shift_in_high, shift_in_low, stage_next, stage_outputs, top_of,
};
use crate::hypercube::Router;
use crate::netlist::{cat, zero, Module, ModuleBuilder};
use lcanet_sim::hypercube::CubeParams;

/// The node router of the overlapped `k`-cube with `L`-bit payloads.
pub fn node(p: CubeParams) -> Module {
    let (k, l, msg) = (p.k(), p.payload_bits(), p.message_bits());
    let mut m = ModuleBuilder::new(Router::Overlapped.node_name(p));
    m.clock();
    let ctl = Control::inputs(&mut m);
    let sel = m.input("sel", k);
    let low = m.input("low", k);
    let sclr = m.input("sclr", k);
    let ewin = m.input("ewin", k);
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

    m.comment("Pipeline registers P_0..P_k and the routing stages");
    let pipe = m.reg("p", k + 1);
    let stage_pass = m.reg("stage_pass", k);
    let stage_dir = m.reg("stage_dir", k);
    m.comment("Message buffers A, B (head at bit 0) and register E (aligned with dimensions)");
    let a = m.reg("a", msg);
    let b = m.reg("b", msg);
    let e = m.reg("e", k);
    m.comment("Enumeration: T_0..T_{k-1}, O_1..O_k and the adders' carries");
    let t = m.reg("t", k);
    let ct = (k > 1).then(|| m.reg("ct", k - 1));
    let o = m.reg("o", k);
    let co = m.reg("co", k);
    m.comment("Flags");
    let va = m.reg("va", 1);
    let vb = m.reg("vb", 1);
    let xing = m.reg("xing", 1);
    let incoming = m.reg("incoming", 1);
    let keep = m.reg("keep", 1);
    let hit = m.reg("hit", 1);
    let coll = m.reg("coll", 1);

    m.comment("Where loop i works: act = dimensions above i, first = i+1, dimi = i");
    let act = m.def("act", !&low);
    let first = m.def("first", first_above(&low));
    let dimi = m.def("dimi", top_of(&low));
    // The injection register (P_{i+1}; P_0 in semi; P_k after the last dimension).
    let inj = m.def("inj", cat([low.bit(k - 1), first.clone()]));
    let cur_x = m.def("cur_x", (&sel & &my_addr).any());
    let cur_ex = m.def("cur_ex", (&sel & (&e ^ &my_addr)).any());

    m.comment("Stages (docs/hypercube.md §3.2) of the dimensions above i");
    let routing = m.def("routing", &ctl.fwd | &ctl.bwd);
    let stage_in = m.def(
        "stage_in",
        ((pipe.low(k) & ctl.fwd.repeat(k)) | (pipe.top(k) & ctl.bwd.repeat(k))) & &act,
    );
    let (stay, cross_out) = stage_outputs(&mut m, &stage_in, &stage_pass, &stage_dir);
    let wire = m.def("link_in", &dim_in & &act & !&ewin);
    let arrive = m.def("arrive", (&stay & &act) | &wire);
    let meet = m.def("meet", &routing & (&stay & &wire).any());
    let deliver = m.def(
        "deliver",
        (&ctl.fwd & pipe.bit(k)) | (&ctl.bwd & (&pipe & &inj).any()),
    );

    m.comment("Senders: channel A (semi, step 3, step 6) and channel B (step 5)");
    let send_a = m.def(
        "send_a",
        (&ctl.ph_semi & &va) | (&ctl.ph_pack2 & &va & &vb) | (&ctl.ph_rdv & &vb),
    );
    let addr_a = m.def(
        "addr_a",
        ctl.ph_semi.select(a.bit(0) ^ &cur_x, cur_ex.clone()),
    );
    let body_a = m.def("body_a", ctl.ph_semi.select(a.bit(0), b.bit(0)));
    let send_b = m.def("send_b", &ctl.ph_pack0 & !&va);
    let tx = m.def(
        "tx",
        (&send_a & (&ctl.c_start | (&ctl.c_addr & &addr_a) | (&ctl.c_body & &body_a)))
            | (&send_b & (&ctl.p0_start | (&ctl.p0_addr & &cur_ex) | (&ctl.p0_body & &cur_x))),
    );

    m.comment("Step 1: cross dimension i (its own wire, beside the other activities)");
    let cur_dest = m.def("cur_dest", (&dimi & a.low(k)).any());
    let cur_xi = m.def("cur_xi", (&dimi & &my_addr).any());
    let cur_win = m.def("cur_win", (&dimi & &dim_in).any());
    let go = m.def("go", &va & (&cur_dest ^ &cur_xi));
    let keeps = m.def("keeps", &va & !&go);
    let x_tx = m.def(
        "x_tx",
        &ctl.ph_cross & ctl.x_decide.select(&go, &xing & a.bit(0)),
    );

    m.comment("Enumeration (docs/hypercube.md §12): two values, doubles then empties");
    // The neighbour's T: only inside the enumeration's window (a frame may follow it).
    let u = m.def("u", &dim_in & &ewin);
    let o_in = m.def("o_in", shift_in_low(&o, zero(1)));
    let o_b = m.def("o_b", &u & &my_addr);
    let (o_sum, o_carry) = full_add(&o_in, &o_b, &co);
    let o_sum = m.def("o_sum", o_sum);
    let o_carry = m.def("o_carry", o_carry);
    let member = m.def(
        "member",
        (&ctl.e_inj2 & &keeps & &cur_win) | (&ctl.e_inj0 & !&va),
    );
    let t_adders = ct.as_ref().map(|ct| {
        let (s, c) = full_add(&t.low(k - 1), &u.low(k - 1), ct);
        (ct.clone(), m.def("t_sum", s), m.def("t_carry", c))
    });
    let run = m.def("enum_run", &ctl.enum_on & !&ctl.e_clear);
    // T_{d+1} <= T_d + u_d above i+1; T_{i+1} <= the membership bit injected.
    let t_next = match &t_adders {
        Some((_, s, _)) => m.def(
            "t_next",
            (cat([s.clone(), zero(1)]) & &act & !&first) | (&first & member.repeat(k)),
        ),
        None => m.def("t_next", &first & member.repeat(k)),
    };
    let cap = m.def("cap", (&ctl.e_cap2 & &va & &vb) | (&ctl.e_cap0 & !&va));

    m.comment("Links and outputs");
    m.assign(
        &dim_out,
        &cross_out | (&t & &ewin) | (&dimi & x_tx.repeat(k)),
    );
    m.assign(&rx_bit, &deliver);
    m.assign(&rx_valid, &ctl.done & &va);
    m.assign(&rx_payload, a.top(l) & rx_valid.repeat(l));
    m.assign(&collision, &coll);

    m.comment("Buffer shifts");
    let x_shift = &ctl.x_shift;
    let a_shift = m.def(
        "a_shift",
        (&ctl.ph_semi & (&ctl.c_addr | &ctl.c_window))
            | (&ctl.ph_rdv & &ctl.c_rxbody & &hit)
            | (x_shift & (&xing | (&incoming & !&keep))),
    );
    let a_in = m.def(
        "a_in",
        ((&ctl.ph_semi | &ctl.ph_rdv) & &deliver) | (x_shift & &incoming & !&keep & &cur_win),
    );
    let b_shift = m.def(
        "b_shift",
        (&ctl.ph_pack2 & &ctl.c_window)
            | (&ctl.ph_rdv & &ctl.c_body)
            | (x_shift & &incoming & &keep),
    );
    let b_in = m.def("b_in", (&ctl.ph_pack2 & &deliver) | (x_shift & &cur_win));
    let e_shift = m.def("e_shift", &cap | &ctl.p0_rxbody);
    let e_in = m.def("e_in", (&ctl.p0_rxbody & &deliver) | (&cap & o.bit(k - 1)));

    m.always(|pr| {
        pr.comment("Pipeline: each register takes the OR of its stay input and its wire");
        pr.if_(&ctl.fwd, |pr| {
            pr.load(
                &pipe,
                cat([arrive.clone(), zero(1)]) | (&inj & tx.repeat(k + 1)),
            )
        })
        .elif(&ctl.bwd, |pr| {
            pr.load(&pipe, cat([tx.clone(), arrive.clone()]))
        })
        .else_(|pr| pr.load(&pipe, zero(k + 1)));
        let (pass_next, dir_next) = stage_next(&stage_in, &stage_pass, &stage_dir);
        let cleared = !(ctl.s_clear.repeat(k) | &sclr);
        pr.load(&stage_pass, pass_next & &cleared);
        pr.load(&stage_dir, dir_next & &cleared);
        pr.comment("Enumeration: sums held at 0 outside enumerations, all cleared at the end");
        pr.load(&o, o_sum.when(&run));
        pr.load(&t, t_next.when(&run));
        pr.if_(&ctl.e_clear, |pr| {
            pr.load(&co, zero(k));
            if let Some((ct, _, _)) = &t_adders {
                pr.load(ct, zero(k - 1));
            }
        })
        .elif(&ctl.enum_on, |pr| {
            pr.load(&co, &o_carry);
            if let Some((ct, _, carry)) = &t_adders {
                pr.load(ct, carry);
            }
        });
        pr.comment("Buffers");
        pr.if_(&ctl.load, |pr| {
            pr.load(&a, cat([payload.clone(), dest.clone()]))
        })
        .elif(&a_shift, |pr| pr.load(&a, shift_in_high(&a, a_in.clone())));
        pr.if_(&b_shift, |pr| pr.load(&b, shift_in_high(&b, b_in.clone())));
        pr.if_(&e_shift, |pr| pr.load(&e, shift_in_high(&e, e_in.clone())));
        pr.comment("Flags");
        pr.if_(&ctl.x_decide, |pr| {
            pr.load(&xing, &go);
            pr.load(&incoming, &cur_win);
            pr.load(&keep, &keeps);
        });
        pr.if_(&ctl.c_rxstart | &ctl.p0_rxstart, |pr| {
            pr.load(&hit, &deliver)
        });
        pr.if_(&ctl.load, |pr| {
            pr.load(&va, &send);
            pr.load(&vb, zero(1));
        })
        .elif(&ctl.x_decide, |pr| {
            pr.load(&va, &keeps | &cur_win);
            pr.load(&vb, &keeps & &cur_win);
        })
        .elif(&ctl.c_last, |pr| {
            pr.if_(&ctl.ph_semi, |pr| pr.load(&va, &hit))
                .elif(&ctl.ph_pack2, |pr| pr.load(&vb, &hit))
                .elif(&ctl.ph_rdv, |pr| {
                    pr.load(&va, &va | &hit);
                    pr.load(&vb, zero(1));
                });
        });
        pr.if_(&ctl.load, |pr| pr.load(&coll, zero(1)))
            .else_(|pr| pr.load(&coll, &coll | &meet));
    });
    m.build()
}
