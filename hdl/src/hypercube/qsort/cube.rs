//! The pipelined sort-then-pack cube as one Verilog-2005 top
//! (`hypercube_qsort_k{K}_l{L}`, `docs/hypercube.md` §13.3): the controller (`ctrl`) and
//! the `2^k` nodes (`node{x}`), node `x`'s wire `w` (of dimension `d`) read by node
//! `x ^ 2^d`. Its ports are the quadratic cube's (§14.3), with `rx_bit[N*2]`: bit `2x`
//! node `x`'s junction (the sorted record), bit `2x + 1` its delivery register.

use super::controller::controller;
use super::node::{node, strobes};
use super::{wire_dim, wires_per_node};
use crate::hypercube::quad::{BATCH_BITS, BIT_TIME_BITS};
use crate::hypercube::Router;
use crate::netlist::{cat, lit, names, Design, ModuleBuilder, NetlistError, V};
use lcanet_sim::hypercube::qsort::sort_stages;
use lcanet_sim::hypercube::CubeParams;

/// The design of the pipelined sort-then-pack cube of `p`.
pub fn build(p: CubeParams) -> Result<Design, NetlistError> {
    let (k, n, l) = (p.k(), p.n(), p.payload_bits());
    let wpn = wires_per_node(k);
    let top = Router::QuadSort.top_name(p);
    let mut design = Design::new(&top);
    design
        .param("k", k)
        .param("payload_bits", l)
        .param("nodes", n)
        .param("router", Router::QuadSort.name())
        .param("wires_per_node", wpn);
    let node_mod = node(p);
    let ctrl_mod = controller(p);

    let mut m = ModuleBuilder::new(&top);
    let clock = m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let batches = m.input("batches", BATCH_BITS);
    let send = m.input("send", n);
    let dest = m.input("dest", n * k);
    let payload = m.input("payload", n * l);
    let take = m.output("take", 1);
    let rx_bit = m.output("rx_bit", n * 2);
    let rx_valid = m.output("rx_valid", n);
    let rx_payload = m.output("rx_payload", n * l);
    let node_collision = m.output("node_collision", n);
    let collision = m.output("collision", 1);
    let batches_done = m.output("batches_done", BATCH_BITS);
    let done = m.output("done", 1);
    let bit_time = m.output("bit_time", BIT_TIME_BITS);

    m.comment("The controller: the strobes of every pipeline position");
    let (inst, _) = m.instance_of("ctrl", &ctrl_mod);
    let _ = inst
        .pin("clock", &clock)
        .pin("reset", &reset)
        .pin("start", &start)
        .pin("batches", &batches);
    let ctrl = |port: &str, w: usize| V::signal(names::output_net("ctrl", port), w);
    m.assign(&take, ctrl("take", 1));
    m.assign(&done, ctrl("done", 1));
    m.assign(&bit_time, ctrl("bit_time", BIT_TIME_BITS));
    m.assign(&batches_done, ctrl("batches_done", BATCH_BITS));

    m.comment("Links: node x's wire w (of dimension d) is bit x*W + w, read by node x ^ 2^d");
    let dim_out = m.wire("dim_out", n * wpn);
    m.comment("The nodes");
    for x in 0..n {
        let dim_in = cat((0..wpn)
            .rev()
            .map(|w| dim_out.bit((x ^ (1 << wire_dim(k, w))) * wpn + w)));
        let mut inst = m
            .instance(format!("node{x}"), &node_mod)
            .pin("clock", &clock);
        for s in strobes(l) {
            inst = inst.pin(s, ctrl(s, 1));
        }
        let _ = inst
            .pin("j_sel", ctrl("j_sel", k))
            .pin("sclr", ctrl("sclr", sort_stages(k) + k))
            .pin("my_addr", lit(k, x as u64))
            .pin("send", send.bit(x))
            .pin("dest", dest.row(x, k))
            .pin("payload", payload.row(x, l))
            .pin("dim_in", dim_in)
            .pin("dim_out", dim_out.row(x, wpn))
            .pin("rx_bit", rx_bit.row(x, 2))
            .pin("rx_valid", rx_valid.bit(x))
            .pin("rx_payload", rx_payload.row(x, l))
            .pin("collision", node_collision.bit(x));
    }
    m.assign(&collision, node_collision.any());
    design.add_module(node_mod)?;
    design.add_module(ctrl_mod)?;
    design.add_module(m.build())?;
    Ok(design)
}
