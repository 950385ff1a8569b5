//! The quadratic cube as one Verilog-2005 top (`hypercube_quad_k{K}_l{L}`,
//! `docs/hypercube.md` §14.3): the controller (`ctrl`), one sequencer per unit index
//! (`seq{j}`), and the `2^k` nodes (`node{x}`), wired as a quadratic hypercube: node `x`
//! drives its `k(k+1)/2` wires `dim_out[x*W +: W]`, and its wire `w` (of dimension `d`)
//! reads the same wire of node `x ^ 2^d`.
//!
//! Ports: `clock`, `reset`, `start`, `batches[7:0]` (sampled at start); the batch being
//! taken: `send[N]`, `dest[N*k]`, `payload[N*L]` (sampled in the cycles `take` is high);
//! `take`; the results: `rx_valid[N]`, `rx_payload[N*L]` (the last finished batch, held),
//! `rx_bit[N*k]` (node `x`'s unit `j` at bit `x*k + j`), `node_collision[N]`,
//! `collision`, `batches_done[7:0]`, `done`, `bit_time[19:0]`.

use super::control::{loop_names, CROSS, VECTORS};
use super::controller::controller;
use super::node::node;
use super::seq::sequencer;
use super::{f_of, loop_bits, loop_offset, wire_dim, wires_per_node, BATCH_BITS, BIT_TIME_BITS};
use crate::hypercube::overlap::controller::CNT_BITS;
use crate::hypercube::Router;
use crate::netlist::{cat, lit, names, Design, ModuleBuilder, NetlistError, V};
use lcanet_sim::hypercube::CubeParams;

/// The design of the quadratic cube of `p`.
pub fn build(p: CubeParams) -> Result<Design, NetlistError> {
    let (k, n, l) = (p.k(), p.n(), p.payload_bits());
    let wpn = wires_per_node(p);
    let top = Router::Quadratic.top_name(p);
    let mut design = Design::new(&top);
    design
        .param("k", k)
        .param("payload_bits", l)
        .param("nodes", n)
        .param("router", Router::Quadratic.name())
        .param("wires_per_node", wpn);
    let (node_mod, units) = node(p);
    let ctrl_mod = controller(p);
    let seqs: Vec<_> = (0..k).map(|j| sequencer(p, j)).collect();

    let mut m = ModuleBuilder::new(&top);
    let clock = m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let batches = m.input("batches", BATCH_BITS);
    let send = m.input("send", n);
    let dest = m.input("dest", n * k);
    let payload = m.input("payload", n * l);
    let take = m.output("take", 1);
    let rx_bit = m.output("rx_bit", n * k);
    let rx_valid = m.output("rx_valid", n);
    let rx_payload = m.output("rx_payload", n * l);
    let node_collision = m.output("node_collision", n);
    let collision = m.output("collision", 1);
    let batches_done = m.output("batches_done", BATCH_BITS);
    let done = m.output("done", 1);
    let bit_time = m.output("bit_time", BIT_TIME_BITS);

    m.comment("The controller: periods, batches, hand-offs, the output latch");
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
    let live = ctrl("live", k);

    m.comment("One sequencer per unit index: the strobes of loop j from the period cycle");
    for (j, sm) in seqs.iter().enumerate() {
        let (inst, _) = m.instance_of(format!("seq{j}"), sm);
        let mut inst = inst
            .pin("pc", ctrl("pc", CNT_BITS))
            .pin("live", live.bit(j));
        if f_of(p, j) > 0 {
            inst = inst.pin("clock", &clock).pin("reset", &reset);
        }
        let _ = inst;
    }
    let seq_out =
        |j: usize, port: &str, w: usize| V::signal(names::output_net(&format!("seq{j}"), port), w);
    // Strobe vectors, bit j from seq{j}.
    let strobe = |name: &str, units: usize| cat((0..units).rev().map(|j| seq_out(j, name, 1)));
    let cross: Vec<(&str, V)> = CROSS.iter().map(|&s| (s, strobe(s, k))).collect();
    let loops: Vec<(&str, V)> = if k > 1 {
        loop_names()
            .into_iter()
            .map(|s| (s, strobe(s, k - 1)))
            .collect()
    } else {
        Vec::new()
    };
    let vectors: Vec<(&str, V)> = if k > 1 {
        VECTORS
            .iter()
            .map(|&s| {
                let parts = (0..k - 1).rev().map(|j| seq_out(j, s, f_of(p, j)));
                let v = cat(parts);
                debug_assert_eq!(v.width(), loop_bits(p));
                debug_assert_eq!(loop_offset(p, 0), 0);
                (s, v)
            })
            .collect()
    } else {
        Vec::new()
    };

    m.comment("Links: node x's wire w (of dimension d) is bit x*W + w, read by node x ^ 2^d");
    let dim_out = m.wire("dim_out", n * wpn);
    m.comment("The nodes");
    for x in 0..n {
        let dim_in = cat((0..wpn)
            .rev()
            .map(|w| dim_out.bit((x ^ (1 << wire_dim(p, w))) * wpn + w)));
        let mut inst = m
            .instance(format!("node{x}"), &node_mod)
            .pin("clock", &clock)
            .pin("load", ctrl("load", 1))
            .pin("clear", ctrl("clear", 1))
            .pin("take", &take)
            .pin("latch", ctrl("latch", 1));
        for (s, v) in cross.iter().chain(&loops).chain(&vectors) {
            inst = inst.pin(*s, v.clone());
        }
        let _ = inst
            .pin("my_addr", lit(k, x as u64))
            .pin("send", send.bit(x))
            .pin("dest", dest.row(x, k))
            .pin("payload", payload.row(x, l))
            .pin("dim_in", dim_in)
            .pin("dim_out", dim_out.row(x, wpn))
            .pin("rx_bit", rx_bit.row(x, k))
            .pin("rx_valid", rx_valid.bit(x))
            .pin("rx_payload", rx_payload.row(x, l))
            .pin("collision", node_collision.bit(x));
    }
    m.assign(&collision, node_collision.any());

    for u in units {
        design.add_module(u)?;
    }
    design.add_module(node_mod)?;
    for s in seqs {
        design.add_module(s)?;
    }
    design.add_module(ctrl_mod)?;
    design.add_module(m.build())?;
    Ok(design)
}
