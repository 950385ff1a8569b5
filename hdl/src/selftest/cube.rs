//! The hypercube adapter (`docs/selftest.md` §4): a round drives the cube's `dest` and
//! `payload` (`algorithm` = 1, every node sends a random full permutation: Algorithm 2;
//! or `algorithm` = 0, the senders of a random packing go to `offset + rank`: Algorithm
//! 1); `done` is the cube's. At `done` no node may flag a collision (and with `full`
//! every node holds a message); in `CHECK`, PE `idx`'s destination must hold PE `idx`'s
//! payload (if it sent), and node `idx` must hold a message exactly when it is a
//! destination. Counter 1 sums the cube's `bit_time`, counter 2 the messages checked.

use super::adapter::{delivered, ones, start_q, Add2, Ctx, Hooks};
use super::{DutSpec, SelftestSpec};
use crate::netlist::{cat, index_bits, lit, Module, ModuleBuilder};

/// Instantiates the cube as `net` and returns the checker's view of it.
pub(super) fn attach(
    m: &mut ModuleBuilder,
    spec: &SelftestSpec,
    net_top: &Module,
    ctx: &Ctx,
) -> Hooks {
    let DutSpec::Cube { params, algorithm } = &spec.dut else {
        unreachable!("the cube adapter gets a cube")
    };
    let (k, n, l) = (params.k(), params.n(), params.payload_bits());
    assert_eq!(k, index_bits(n), "lcanet-hdl bug: k = {k} for n = {n}");
    // Algorithm 2 or sort-then-pack (the router's `algorithm = 1`), or Algorithm 1.
    let full = algorithm.routes_any_permutation();
    let perm = ctx.perm.as_ref().expect("a round has a destination table");
    let dest = if full {
        perm.clone()
    } else {
        let off = ctx.offset.as_ref().expect("a packing has a start").low(k);
        m.comment("A packing: sender p goes to offset + (senders below p)");
        m.def(
            "dest",
            cat((0..n).rev().map(|x| perm.row(x, k) + off.clone())),
        )
    };
    let send = if full {
        ones(n)
    } else {
        ctx.send.clone().expect("a packing has senders")
    };
    m.comment("The cube's start, a clock after START");
    let start = start_q(m, ctx);
    let net_done = m.wire("net_done", 1);
    let net_collision = m.wire("net_collision", 1);
    let net_bits = m.wire("net_bit_time", 16);
    let net_valid = m.wire("net_rx_valid", n);
    let net_payload = m.wire("net_rx_payload", n * l);
    let _ = m
        .instance("net", net_top)
        .pin("clock", &ctx.clock)
        .pin("reset", lit(1, 0))
        .pin("start", &start)
        .pin("algorithm", lit(1, u64::from(full)))
        .pin("send", send)
        .pin("dest", &dest)
        .pin("payload", ctx.msg.as_ref().expect("a round has messages"))
        .open("rx_bit")
        .pin("rx_valid", &net_valid)
        .pin("rx_payload", &net_payload)
        .open("node_collision")
        .pin("done", &net_done)
        .pin("collision", &net_collision)
        .pin("bit_time", &net_bits);

    m.comment("Checker: PE idx's destination holds PE idx's payload");
    let delivered = delivered(m, spec, ctx, &dest, (&net_valid, &net_payload, &net_done));
    let (chk_ok, counted, all_ok) = if full {
        let all_ok = m.def("all_ok", net_valid.all() & !net_collision.clone());
        (delivered.clone(), delivered, all_ok)
    } else {
        m.comment("Node idx holds a message exactly when it lies in the packing's interval");
        let (off, count) = (
            ctx.offset.clone().expect("a packing has a start"),
            ctx.count.clone().expect("a packing counts its senders"),
        );
        let at = ctx.idx.zext(k + 1);
        let inside = m.def(
            "chk_inside",
            at.ge(&off) & at.lt(&(off.clone() + count.clone())),
        );
        let sender = m.def("chk_sender", ctx.send.as_ref().unwrap().row_at(&ctx.idx, 1));
        let holds = net_valid.row_at(&ctx.idx, 1);
        let ok = m.def(
            "chk_ok",
            (!sender.clone() | delivered.clone()) & holds.eq(&inside),
        );
        let counted = m.def("chk_counted", sender & delivered);
        let all_ok = m.def("all_ok", !net_collision.clone());
        (ok, counted, all_ok)
    };
    Hooks {
        done: net_done,
        all_ok,
        chk_ok,
        add1: net_bits.zext(32),
        add2: Add2::Check(counted),
        modules: Vec::new(),
    }
}
