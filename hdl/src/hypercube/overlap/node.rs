//! The node router of the overlapped k-cube (`docs/hypercube.md` §12), one module for
//! every node (`hc_node_k{K}_l{L}`; the node's address on the constant input `my_addr`).
//!
//! The quantities of the sequential node (§2) — `p[k:0]`, `stage_pass`, `stage_dir`,
//! `a`, `b`, `e`, the enumeration's `t`, `ct`, `o`, `co`, the flags — plus `keep` (the
//! node keeps its own message in the cross), built by the engine (`engine.rs`) that the
//! quadratic cube's loop units share. What changes is *where* loop `i` works, from the
//! broadcast thermometer `low`:
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
use super::engine::{build, Spec};
use crate::hypercube::parts::{first_above, top_of};
use crate::hypercube::Router;
use crate::netlist::{cat, Module, ModuleBuilder, V};
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

    m.comment("Where loop i works: act = dimensions above i, first = i+1, dimi = i");
    let act = m.def("act", !&low);
    let first = m.def("first", first_above(&low));
    let dimi = m.def("dimi", top_of(&low));
    // The injection register (P_{i+1}; P_0 in semi; P_k after the last dimension).
    let inj = m.def("inj", cat([low.bit(k - 1), first.clone()]));
    let cross_in = (&dimi & &dim_in).any();
    let cross_x = (&dimi & &my_addr).any();
    let dimi_a = dimi.clone();
    let cross_dest = move |a: &V| (&dimi_a & a.low(k)).any();
    let e = build(
        &mut m,
        &ctl,
        Spec {
            w: k,
            msg,
            act,
            first,
            inj,
            sel,
            sclr,
            ewin,
            my: my_addr,
            loop_in: dim_in,
            cross_in,
            cross_x,
            cross_dest: &cross_dest,
            load_a: cat([payload, dest]),
            load_va: send,
            coll_clear: ctl.load.clone(),
            semi: true,
        },
    );

    m.comment("Links and outputs");
    m.assign(&dim_out, &e.loop_out | (&dimi & e.x_tx.repeat(k)));
    m.assign(&rx_bit, &e.deliver);
    m.assign(&rx_valid, &ctl.done & &e.va);
    m.assign(&rx_payload, e.a.top(l) & rx_valid.repeat(l));
    m.assign(&collision, &e.coll);
    m.build()
}
