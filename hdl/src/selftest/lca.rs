//! The LCA-network adapter (`docs/selftest.md` §4): a round drives the destination
//! table `perm` and the messages into the network's `dst` and `msg`, with every PE active;
//! `done` is the network's; at `done` every PE must have received and sent with no
//! `error`, and in `CHECK` PE `idx`'s destination `perm[idx]` must hold PE `idx`'s
//! message. Counter 1 sums the network's `passes`, counter 2 its `bit_times`.

use super::adapter::{delivered, ones, start_q, Add2, Ctx, Hooks};
use super::{DutSpec, SelftestSpec};
use crate::netlist::{index_bits, lit, Module, ModuleBuilder};

/// Instantiates the network as `net` and returns the checker's view of it.
pub(super) fn attach(
    m: &mut ModuleBuilder,
    spec: &SelftestSpec,
    net_top: &Module,
    ctx: &Ctx,
) -> Hooks {
    let DutSpec::Lca(net) = &spec.dut else {
        unreachable!("the LCA adapter gets an LCA network")
    };
    let np = &net.net;
    let (n, ab, mb) = (np.n, np.abin, np.msg_bits);
    assert_eq!(ab, index_bits(n), "lcanet-hdl bug: AB = {ab} for n = {n}");
    let perm = ctx.perm.as_ref().expect("a permutation round has a table");
    m.comment("The network's start, a clock after START");
    let start = start_q(m, ctx);
    let net_done = m.wire("net_done", 1);
    let net_error = m.wire("net_error", 1);
    let net_passes = m.wire("net_passes", 16);
    let net_bits = m.wire("net_bits", 32);
    let net_valid = m.wire("net_valid", n);
    let net_rmsg = m.wire("net_rmsg", n * mb);
    let net_sent = m.wire("net_sent", n);
    {
        let mut b = m
            .instance("net", net_top)
            .pin("clock", &ctx.clock)
            .pin("reset", lit(1, 0))
            .pin("start", &start)
            .pin("act", ones(n))
            .pin("dst", perm)
            .pin("msg", ctx.msg.as_ref().expect("a permutation has messages"));
        if net.random() {
            // The network model's seed16 of the run seed (docs/interface.md §7): every
            // round is the model's canonical run with the xorshift32 seed.
            let s16 = lcanet_sim::lcan::arbiter::seed16(u64::from(spec.params.seed));
            b = b.pin("seed", lit(16, u64::from(s16)));
        }
        let _ = b
            .pin("done", &net_done)
            .pin("error", &net_error)
            .open("phase")
            .pin("passes", &net_passes)
            .pin("bit_times", &net_bits)
            .pin("valid", &net_valid)
            .pin("rmsg", &net_rmsg)
            .pin("sent", &net_sent);
    }

    m.comment("Checker: PE idx's destination perm[idx] holds PE idx's message");
    let chk_ok = delivered(m, spec, ctx, perm, (&net_valid, &net_rmsg, &net_done));
    let all_ok = m.def(
        "all_ok",
        net_valid.all() & net_sent.all() & !net_error.clone(),
    );
    Hooks {
        done: net_done,
        all_ok,
        chk_ok,
        add1: net_passes.zext(32),
        add2: Add2::Tally(net_bits),
        modules: Vec::new(),
    }
}
