//! The logic of Algorithm 2's loop with the overlapped schedule (`docs/hypercube.md`
//! §12), shared by the overlapped node (where the loop `i` changes at run time, `low`
//! from the controller) and the quadratic cube's loop units (§14, where each unit runs
//! one loop for good: the masks are constants and fold away). Also Algorithm 1 (`semi`)
//! for the node, through the same pipeline.
//!
//! The caller declares the ports and passes what the engine reads ([`Spec`]); the
//! engine declares the registers (pipeline, stage states, A, B, E, the enumeration's
//! sums and carries, the flags) and the logic, and returns what the caller drives its
//! outputs with ([`Built`]).

use super::control::Control;
use crate::hypercube::parts::{full_add, shift_in_high, shift_in_low, stage_next, stage_outputs};
use crate::netlist::{cat, zero, ModuleBuilder, V};

/// What the engine reads.
pub(crate) struct Spec<'a> {
    /// Loop dimensions (stages): `k` in the node, `f` in a unit.
    pub w: usize,
    /// Message bits `M`.
    pub msg: usize,
    /// The stages that run (`w` bits).
    pub act: V,
    /// The first stage that runs (`w` bits, one-hot).
    pub first: V,
    /// The injection register of an ascending phase, the delivery register of the
    /// rendezvous (`w + 1` bits, one-hot).
    pub inj: V,
    /// The dimension of the address (or step-5 body) bit being sent (`w` bits).
    pub sel: V,
    /// The diagonal stage clear between steps 3 and 5 (`w` bits).
    pub sclr: V,
    /// The enumeration's window on each wire (`w` bits).
    pub ewin: V,
    /// The node's address bits of the loop dimensions (`w` bits).
    pub my: V,
    /// The loop dimensions' incoming wires (`w` bits).
    pub loop_in: V,
    /// The cross dimension's incoming wire and the node's address bit in it.
    pub cross_in: V,
    /// The node's address bit in the cross dimension.
    pub cross_x: V,
    /// The destination bit in the cross dimension of the message in A.
    pub cross_dest: &'a dyn Fn(&V) -> V,
    /// What A and `va` take in the load cycle.
    pub load_a: V,
    /// See `load_a`.
    pub load_va: V,
    /// Clears the sticky collision flag.
    pub coll_clear: V,
    /// Whether the engine runs Algorithm 1 too (`ctl.ph_semi` is a port).
    pub semi: bool,
}

/// What the engine gives back.
pub(crate) struct Built {
    /// Buffer A.
    pub a: V,
    /// A holds a message.
    pub va: V,
    /// The delivery register.
    pub deliver: V,
    /// The sticky collision flag.
    pub coll: V,
    /// The loop dimensions' outgoing wires (`w` bits).
    pub loop_out: V,
    /// The cross dimension's outgoing wire.
    pub x_tx: V,
}

/// Builds the engine into `m`.
pub(crate) fn build(m: &mut ModuleBuilder, ctl: &Control, s: Spec) -> Built {
    let (w, msg) = (s.w, s.msg);
    m.comment("Pipeline registers P_0..P_w and the routing stages");
    let pipe = m.reg("p", w + 1);
    let stage_pass = m.reg("stage_pass", w);
    let stage_dir = m.reg("stage_dir", w);
    m.comment("Message buffers A, B (head at bit 0) and register E (aligned with dimensions)");
    let a = m.reg("a", msg);
    let b = m.reg("b", msg);
    let e = m.reg("e", w);
    m.comment("Enumeration: T, O and the adders' carries, one rank per dimension");
    let t = m.reg("t", w);
    let ct = (w > 1).then(|| m.reg("ct", w - 1));
    let o = m.reg("o", w);
    let co = m.reg("co", w);
    m.comment("Flags");
    let va = m.reg("va", 1);
    let vb = m.reg("vb", 1);
    let xing = m.reg("xing", 1);
    let incoming = m.reg("incoming", 1);
    let keep = m.reg("keep", 1);
    let hit = m.reg("hit", 1);
    let coll = m.reg("coll", 1);
    let (act, first, inj, sel, ewin) = (&s.act, &s.first, &s.inj, &s.sel, &s.ewin);

    let cur_x = m.def("cur_x", (sel & &s.my).any());
    let cur_ex = m.def("cur_ex", (sel & (&e ^ &s.my)).any());

    m.comment("Stages (docs/hypercube.md §3.2) of the dimensions the loop uses");
    let routing = m.def("routing", &ctl.fwd | &ctl.bwd);
    let stage_in = m.def(
        "stage_in",
        ((pipe.low(w) & ctl.fwd.repeat(w)) | (pipe.top(w) & ctl.bwd.repeat(w))) & act,
    );
    let (stay, cross_out) = stage_outputs(m, &stage_in, &stage_pass, &stage_dir);
    let wire = m.def("link_in", &s.loop_in & act & !ewin);
    let arrive = m.def("arrive", (&stay & act) | &wire);
    let meet = m.def("meet", &routing & (&stay & &wire).any());
    let deliver = m.def(
        "deliver",
        (&ctl.fwd & pipe.bit(w)) | (&ctl.bwd & (&pipe & inj).any()),
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
    let cur_dest = m.def("cur_dest", (s.cross_dest)(&a));
    let cur_win = m.def("cur_win", s.cross_in.clone());
    let cur_xi = m.def("cur_xi", s.cross_x.clone());
    let go = m.def("go", &va & (&cur_dest ^ &cur_xi));
    let keeps = m.def("keeps", &va & !&go);
    let x_tx = m.def(
        "x_tx",
        &ctl.ph_cross & ctl.x_decide.select(&go, &xing & a.bit(0)),
    );

    m.comment("Enumeration (docs/hypercube.md §12): two values, doubles then empties");
    // The neighbour's T: only inside the enumeration's window (a frame may follow it).
    let u = m.def("u", &s.loop_in & ewin);
    let o_in = m.def("o_in", shift_in_low(&o, zero(1)));
    let o_b = m.def("o_b", &u & &s.my);
    let (o_sum, o_carry) = full_add(&o_in, &o_b, &co);
    let o_sum = m.def("o_sum", o_sum);
    let o_carry = m.def("o_carry", o_carry);
    let member = m.def(
        "member",
        (&ctl.e_inj2 & &keeps & &cur_win) | (&ctl.e_inj0 & !&va),
    );
    let t_adders = ct.as_ref().map(|ct| {
        let (sum, c) = full_add(&t.low(w - 1), &u.low(w - 1), ct);
        (ct.clone(), m.def("t_sum", sum), m.def("t_carry", c))
    });
    let run = m.def("enum_run", &ctl.enum_on & !&ctl.e_clear);
    // T of a rank <= T of the rank below + its neighbour's; the first rank takes the
    // membership bit injected.
    let t_next = match &t_adders {
        Some((_, sum, _)) => m.def(
            "t_next",
            (cat([sum.clone(), zero(1)]) & act & !first) | (first & member.repeat(w)),
        ),
        None => m.def("t_next", first & member.repeat(w)),
    };
    let cap = m.def("cap", (&ctl.e_cap2 & &va & &vb) | (&ctl.e_cap0 & !&va));
    let loop_out = m.def("loop_out", &cross_out | (&t & ewin));

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
    let e_in = m.def("e_in", (&ctl.p0_rxbody & &deliver) | (&cap & o.bit(w - 1)));

    m.always(|pr| {
        pr.comment("Pipeline: each register takes the OR of its stay input and its wire");
        pr.if_(&ctl.fwd, |pr| {
            pr.load(
                &pipe,
                cat([arrive.clone(), zero(1)]) | (inj & tx.repeat(w + 1)),
            )
        })
        .elif(&ctl.bwd, |pr| {
            pr.load(&pipe, cat([tx.clone(), arrive.clone()]))
        })
        .else_(|pr| pr.load(&pipe, zero(w + 1)));
        let (pass_next, dir_next) = stage_next(&stage_in, &stage_pass, &stage_dir);
        let cleared = !(ctl.s_clear.repeat(w) | &s.sclr);
        pr.load(&stage_pass, pass_next & &cleared);
        pr.load(&stage_dir, dir_next & &cleared);
        pr.comment("Enumeration: sums held at 0 outside enumerations, all cleared at the end");
        pr.load(&o, o_sum.when(&run));
        pr.load(&t, t_next.when(&run));
        pr.if_(&ctl.e_clear, |pr| {
            pr.load(&co, zero(w));
            if let Some((ct, _, _)) = &t_adders {
                pr.load(ct, zero(w - 1));
            }
        })
        .elif(&ctl.enum_on, |pr| {
            pr.load(&co, &o_carry);
            if let Some((ct, _, carry)) = &t_adders {
                pr.load(ct, carry);
            }
        });
        pr.comment("Buffers");
        pr.if_(&ctl.load, |pr| pr.load(&a, &s.load_a))
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
            pr.load(&va, &s.load_va);
            pr.load(&vb, zero(1));
        })
        .elif(&ctl.x_decide, |pr| {
            pr.load(&va, &keeps | &cur_win);
            pr.load(&vb, &keeps & &cur_win);
        })
        .elif(&ctl.c_last, |pr| {
            let rest = |pr: &mut crate::netlist::Proc| {
                pr.if_(&ctl.ph_pack2, |pr| pr.load(&vb, &hit))
                    .elif(&ctl.ph_rdv, |pr| {
                        pr.load(&va, &va | &hit);
                        pr.load(&vb, zero(1));
                    });
            };
            if s.semi {
                pr.if_(&ctl.ph_semi, |pr| pr.load(&va, &hit)).else_(rest);
            } else {
                rest(pr);
            }
        });
        pr.if_(&s.coll_clear, |pr| pr.load(&coll, zero(1)))
            .else_(|pr| pr.load(&coll, &coll | &meet));
    });
    Built {
        a,
        va,
        deliver,
        coll,
        loop_out,
        x_tx,
    }
}
