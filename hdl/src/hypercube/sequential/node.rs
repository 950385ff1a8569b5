//! The sequential node router of a k-cube (`docs/hypercube.md` §2–§5), one module for
//! every node (`hc_seq_node_k{K}_l{L}`; the node's address comes in on the constant input `my_addr`,
//! everything time-dependent from the controller's [`Control`] strobes).
//!
//! Quantities, each one vector:
//! - `p[k:0]`: the pipeline registers `P_0..P_k`;
//! - `stage_pass[k-1:0]`, `stage_dir[k-1:0]`: the states of the `k` routing stages (§3.2),
//!   stage `d` at bit `d`: `(pass, dir)` = 00 IDLE, 01 HEAD (start bit seen), 10
//!   PASS-STAY, 11 PASS-CROSS;
//! - `a[M-1:0]`, `b[M-1:0]`: the message buffers, shift registers with the head at bit 0
//!   (`a[k-1:0]` the destination, `a[M-1:k]` the payload); `e[k-1:0]`: register E;
//! - the enumeration (§4), rank `d+1` crossing dimension `d`: `t[k-1:0]` = `T_0..T_{k-1}`
//!   (`t[0]` the injected membership bit, `t[d]` the registered sum of the count adder
//!   of rank `d`), `ct[k-2:0]` their carries, `o[k-1:0]` = `O_1..O_k` (the offset adders'
//!   sums) and `co[k-1:0]` their carries: `2k − 1` serial adders;
//! - flags `va`, `vb` (A, B hold a message), `xing`, `incoming` (step 1), `hit` (a frame
//!   arrived), `coll` (sticky collision).
//!
//! The outgoing link wire of dimension `d` is bit `d` of `dim_out`; the neighbour's is bit
//! `d` of `dim_in`. Nothing that drives `dim_out` reads `dim_in` combinationally.

use super::control::Control;
use crate::hypercube::parts::{shift_in_high, shift_in_low};
use crate::hypercube::Router;
use crate::netlist::{cat, zero, Module, ModuleBuilder};
use lcanet_sim::hypercube::CubeParams;

/// The node router of a `k`-cube with `L`-bit payloads.
pub fn node(p: CubeParams) -> Module {
    let (k, l, msg) = (p.k(), p.payload_bits(), p.message_bits());
    let mut m = ModuleBuilder::new(Router::Sequential.node_name(p));
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

    m.comment("Pipeline registers P_0..P_k and the routing stages");
    let pipe = m.reg("p", k + 1);
    let stage_pass = m.reg("stage_pass", k);
    let stage_dir = m.reg("stage_dir", k);
    m.comment("Message buffers A, B (head at bit 0) and register E");
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
    let hit = m.reg("hit", 1);
    let coll = m.reg("coll", 1);

    m.comment("Bits of the dimension selected by sel (one-hot)");
    let cur_x = m.def("cur_x", (&sel & &my_addr).any());
    let cur_low = m.def("cur_low", (&sel & &low).any());
    let cur_dest = m.def("cur_dest", (&sel & a.low(k)).any());
    let cur_win = m.def("cur_win", (&sel & &dim_in).any());

    m.comment("Stages (docs/hypercube.md §3.2): stage d reads P_d ascending, P_{d+1} descending");
    let stage_in = m.def(
        "stage_in",
        (pipe.low(k) & ctl.fwd.repeat(k)) | (pipe.top(k) & ctl.bwd.repeat(k)),
    );
    let stay = m.def(
        "stay",
        (&stage_pass ^ &stage_dir) & (&stage_in ^ &stage_dir),
    );
    let cross_out = m.def("cross_out", &stage_in & &stage_dir);
    let arrive = m.def("arrive", &stay | &dim_in);
    let meet = m.def("meet", (&ctl.fwd | &ctl.bwd) & (&stay & &dim_in).any());
    let deliver = m.def(
        "deliver",
        (&ctl.fwd & pipe.bit(k)) | (&ctl.bwd & pipe.bit(0)),
    );

    m.comment("Sender: start bit, address bits, body bits");
    let sending = m.def(
        "sending",
        (&ctl.ph_semi & &va)
            | (&ctl.ph_pack2 & &va & &vb)
            | (&ctl.ph_pack0 & !&va)
            | (&ctl.ph_rdv & &vb),
    );
    let e_addr = e.bit(0) ^ &cur_x;
    let addr_bit = m.def(
        "addr_bit",
        (&ctl.ph_semi & (a.bit(0) ^ &cur_x))
            | ((&ctl.ph_pack2 | &ctl.ph_pack0) & !&cur_low & &e_addr)
            | (&ctl.ph_rdv & &e_addr),
    );
    let body_bit = m.def(
        "body_bit",
        (&ctl.ph_semi & a.bit(0))
            | (&ctl.ph_pack0 & &cur_x)
            | ((&ctl.ph_pack2 | &ctl.ph_rdv) & b.bit(0)),
    );
    let tx = m.def(
        "tx",
        &sending & (&ctl.c_start | (&ctl.c_addr & &addr_bit) | (&ctl.c_body & &body_bit)),
    );

    m.comment("Step 1: cross dimension i");
    let go = m.def("go", &va & (&cur_dest ^ &cur_x));
    let keep = m.def("keep", &va & !&xing);
    let x_tx = m.def(
        "x_tx",
        &ctl.ph_cross & ctl.x_decide.select(&go, &xing & a.bit(0)),
    );
    let x_shift = m.def("x_shift", &ctl.ph_cross & !&ctl.x_decide);

    m.comment("Enumeration (docs/hypercube.md §4): serial adders, LSB first");
    let o_in = m.def("o_in", shift_in_low(&o, zero(1)));
    let o_b = m.def("o_b", &dim_in & !&low & &my_addr);
    let o_sum = m.def("o_sum", &o_in ^ &o_b ^ &co);
    let o_carry = m.def("o_carry", (&o_in & &o_b) | (&o_in & &co) | (&o_b & &co));
    let t_adders = ct.as_ref().map(|ct| {
        let t_in = t.low(k - 1);
        let t_b = m.def("t_b", dim_in.low(k - 1) & !low.low(k - 1));
        let t_sum = m.def("t_sum", &t_in ^ &t_b ^ ct);
        let t_carry = m.def("t_carry", (&t_in & &t_b) | (&t_in & ct) | (&t_b & ct));
        (ct.clone(), t_sum, t_carry)
    });
    let enum_run = m.def("enum_run", &ctl.enum_on & !&ctl.clear);
    let member = ctl.ph_enum2.select(&va & &vb, !&va);

    m.comment("Links and outputs");
    m.assign(
        &dim_out,
        &cross_out | (&t & ctl.enum_on.repeat(k)) | (&sel & x_tx.repeat(k)),
    );
    m.assign(&rx_bit, &deliver);
    m.assign(&rx_valid, &ctl.done & &va);
    m.assign(&rx_payload, a.top(l) & rx_valid.repeat(l));
    m.assign(&collision, &coll);

    m.comment("Buffer shifts");
    let a_shift = m.def(
        "a_shift",
        (&ctl.ph_semi & (&ctl.c_addr | &ctl.c_window))
            | (&ctl.ph_rdv & &ctl.c_rxbody & &hit)
            | (&x_shift & (&xing | (&incoming & !&keep))),
    );
    let a_in = m.def(
        "a_in",
        ((&ctl.ph_semi | &ctl.ph_rdv) & &deliver) | (&ctl.ph_cross & &incoming & !&keep & &cur_win),
    );
    let b_shift = m.def(
        "b_shift",
        (&ctl.ph_pack2 & &ctl.c_window)
            | (&ctl.ph_rdv & &ctl.c_body)
            | (&x_shift & &incoming & &keep),
    );
    let b_in = m.def(
        "b_in",
        (&ctl.ph_pack2 & &deliver) | (&ctl.ph_cross & &cur_win),
    );
    let e_shift = m.def(
        "e_shift",
        &ctl.e_capture
            | ((&ctl.ph_pack2 | &ctl.ph_pack0) & &ctl.c_addr & !&cur_low)
            | (&ctl.ph_pack0 & &ctl.c_rxbody)
            | (&ctl.ph_rdv & &ctl.c_addr),
    );
    let e_in = m.def(
        "e_in",
        (&ctl.ph_pack0 & &deliver) | (&ctl.enum_on & o.bit(k - 1)),
    );

    m.always(|pr| {
        pr.comment("Pipeline: each register takes the OR of its stay input and its wire");
        pr.if_(&ctl.fwd, |pr| {
            pr.load(&pipe, cat([arrive.clone(), tx.clone()]))
        })
        .elif(&ctl.bwd, |pr| {
            pr.load(&pipe, cat([tx.clone(), arrive.clone()]))
        })
        .else_(|pr| pr.load(&pipe, zero(k + 1)));
        pr.if_(&ctl.clear, |pr| {
            pr.load(&stage_pass, zero(k));
            pr.load(&stage_dir, zero(k));
        })
        .else_(|pr| {
            pr.load(&stage_pass, &stage_pass | &stage_dir);
            pr.load(
                &stage_dir,
                (&stage_pass & &stage_dir) | (!&stage_pass & &stage_in),
            );
        });
        pr.comment("Enumeration: sums held at 0 outside enumerations, all cleared at the end");
        pr.load(&o, o_sum.when(&enum_run));
        let t_hi = t_adders.as_ref().map(|(_, s, _)| s.when(&enum_run));
        let t0 = &ctl.e_inject & &member;
        pr.load(&t, cat(t_hi.into_iter().chain([t0])));
        pr.if_(&ctl.clear, |pr| {
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
        });
        pr.if_(&ctl.c_rxstart, |pr| pr.load(&hit, &deliver));
        pr.if_(&ctl.load, |pr| {
            pr.load(&va, &send);
            pr.load(&vb, zero(1));
        })
        .elif(&ctl.last, |pr| {
            pr.if_(&ctl.ph_semi, |pr| pr.load(&va, &hit))
                .elif(&ctl.ph_pack2, |pr| pr.load(&vb, &hit))
                .elif(&ctl.ph_rdv, |pr| {
                    pr.load(&va, &va | &hit);
                    pr.load(&vb, zero(1));
                })
                .elif(&ctl.ph_cross, |pr| {
                    pr.load(&va, &keep | &incoming);
                    pr.load(&vb, &keep & &incoming);
                });
        });
        pr.if_(&ctl.load, |pr| pr.load(&coll, zero(1)))
            .else_(|pr| pr.load(&coll, &coll | &meet));
    });
    m.build()
}
