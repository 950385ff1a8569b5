//! A whole k-cube as one Verilog-2005 top (`docs/hypercube.md` §9): `2^k` node routers
//! (`node{x}`, one module for all) and the controller (`ctrl`), wired as a hypercube, for
//! the [`Router`]s that share this top (the overlapped and the sequential one). Every
//! node input that the controller has as an output (the strobes, `sel`, `low`, …) is
//! connected to the controller's wire of that name.
//!
//! Top ports are one vector per quantity, node `x` at row `x`: `send[N]`, `dest[N·k]`
//! (`[x*k +: k]`), `payload[N·L]` in; `rx_bit[N]`, `rx_valid[N]`, `rx_payload[N·L]`,
//! `node_collision[N]` out; and `clock`, `reset`, `start`, `algorithm`, `done`,
//! `collision`, `bit_time[15:0]`. The links are the vector `dim_out[N·k]`: node `x`
//! drives `dim_out[x*k +: k]` (its dimension-`d` wire at bit `x·k + d`) and reads bit
//! `(x ^ 2^d)·k + d` as its `dim_in[d]`.

use super::{hw_params, overlap, qsort, quad, sequential, sort, HwParamError, Router};
use crate::netlist::{
    cat, elaborate, lit, names, Design, Direction, Module, ModuleBuilder, NetlistError,
    ValidationErrors, V,
};
use lcanet_sim::hypercube::CubeParams;

/// Why the cube could not be built.
#[derive(Debug, thiserror::Error)]
pub enum CubeError {
    /// Bad parameters.
    #[error(transparent)]
    Params(#[from] HwParamError),
    /// The netlist was rejected, or elaboration failed (a bug in lcanet's generator).
    #[error(transparent)]
    Netlist(#[from] NetlistError),
    /// The netlist fails validation (a bug in lcanet's wiring).
    #[error("internal error (a bug in lcanet): {0}")]
    Validation(#[from] ValidationErrors),
}

/// The netlist of a whole cube of the default router with `k` dimensions and
/// `payload_bits`-bit payloads.
pub fn cube_design(k: usize, payload_bits: usize) -> Result<(Design, CubeParams), CubeError> {
    router_design(Router::Overlapped, k, payload_bits)
}

/// The netlist of a whole cube of `router`.
pub fn router_design(
    router: Router,
    k: usize,
    payload_bits: usize,
) -> Result<(Design, CubeParams), CubeError> {
    let p = hw_params(k, payload_bits)?;
    let design = elaborate(&format!("the {k}-cube ({router})"), || build(router, p))??;
    design.validate()?;
    Ok((design, p))
}

/// The node and controller modules of a router of [`Router::FLAT`] (the quadratic
/// cube's node is [`quad::node::node`]).
///
/// # Panics
/// For [`Router::Quadratic`] (a programming error: its top is [`quad::cube`]).
pub fn blocks(router: Router, p: CubeParams) -> (Module, Module) {
    match router {
        Router::Quadratic | Router::QuadSort => {
            panic!("the batched cubes have their own tops (quad::cube, qsort::cube)")
        }
        Router::Overlapped => (overlap::node::node(p), overlap::controller::controller(p)),
        Router::Sequential => (
            sequential::node::node(p),
            sequential::controller::controller(p),
        ),
        Router::Sort => (sort::node::node(p), sort::controller::controller(p)),
    }
}

fn build(router: Router, p: CubeParams) -> Result<Design, NetlistError> {
    match router {
        Router::Quadratic => return quad::cube::build(p),
        Router::QuadSort => return qsort::cube::build(p),
        _ => {}
    }
    let (k, n, l) = (p.k(), p.n(), p.payload_bits());
    let top = router.top_name(p);
    let mut design = Design::new(&top);
    design
        .param("k", k)
        .param("payload_bits", l)
        .param("nodes", n)
        .param("router", router.name());
    let (node_mod, ctrl_mod) = blocks(router, p);
    // The broadcast: every controller output the node has as an input.
    let broadcast: Vec<(String, usize)> = ctrl_mod
        .ports
        .iter()
        .filter(|c| c.direction == Direction::Output)
        .filter(|c| {
            node_mod
                .port(&c.name)
                .is_some_and(|n| n.direction == Direction::Input)
        })
        .map(|c| (c.name.clone(), c.width))
        .collect();

    let mut m = ModuleBuilder::new(&top);
    let clock = m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let algorithm = m.input("algorithm", 1);
    let send = m.input("send", n);
    let dest = m.input("dest", n * k);
    let payload = m.input("payload", n * l);
    let rx_bit = m.output("rx_bit", n);
    let rx_valid = m.output("rx_valid", n);
    let rx_payload = m.output("rx_payload", n * l);
    let node_collision = m.output("node_collision", n);
    let done = m.output("done", 1);
    let collision = m.output("collision", 1);
    let bit_time = m.output("bit_time", 16);

    m.comment("The controller");
    let (inst, _) = m.instance_of("ctrl", &ctrl_mod);
    let _ = inst
        .pin("clock", &clock)
        .pin("reset", &reset)
        .pin("start", &start)
        .pin("algorithm", &algorithm);
    // `instance_of` declared the wire `ctrl_<port>` for every output of the controller.
    let ctrl_out = |port: &str, width: usize| V::signal(names::output_net("ctrl", port), width);
    m.assign(&done, ctrl_out("done", 1));
    m.assign(&bit_time, ctrl_out("bit_time", 16));

    m.comment("Links: node x's dimension-d wire is bit x*k + d, read by node x ^ 2^d");
    let dim_out = m.wire("dim_out", n * k);
    let low_tap = (router == Router::Overlapped).then(|| overlap::controller::low_tap(p));
    m.comment(match low_tap {
        Some(_) => "The nodes, each with its copy of the loop thermometer (node<x>_tap)",
        None => "The nodes",
    });
    for x in 0..n {
        let low = low_tap.as_ref().map(|t| {
            let tap = format!("node{x}_tap");
            let (inst, _) = m.instance_of(&tap, t);
            let _ = inst
                .pin("clock", &clock)
                .pin("low_next", ctrl_out("low_next", k));
            V::signal(names::output_net(&tap, "low"), k)
        });
        let dim_in = cat((0..k).rev().map(|d| dim_out.bit((x ^ (1 << d)) * k + d)));
        let mut inst = m
            .instance(format!("node{x}"), &node_mod)
            .pin("clock", &clock);
        for (name, width) in &broadcast {
            inst = inst.pin(name.as_str(), ctrl_out(name, *width));
        }
        if let Some(low) = &low {
            inst = inst.pin("low", low);
        }
        let _ = inst
            .pin("my_addr", lit(k, x as u64))
            .pin("send", send.bit(x))
            .pin("dest", dest.row(x, k))
            .pin("payload", payload.row(x, l))
            .pin("dim_in", dim_in)
            .pin("dim_out", dim_out.row(x, k))
            .pin("rx_bit", rx_bit.bit(x))
            .pin("rx_valid", rx_valid.bit(x))
            .pin("rx_payload", rx_payload.row(x, l))
            .pin("collision", node_collision.bit(x));
    }
    m.assign(&collision, node_collision.any());

    design.add_module(node_mod)?;
    design.add_module(ctrl_mod)?;
    if let Some(t) = low_tap {
        design.add_module(t)?;
    }
    design.add_module(m.build())?;
    Ok(design)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_3_cube_validates_and_defines_each_block_once() {
        let (design, p) = cube_design(3, 4).unwrap();
        let emitted = design.emit().unwrap();
        assert_eq!(emitted.top, super::super::top_name(p));
        let names: Vec<&str> = emitted.modules.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "hc_ctrl_k3_l4.v",
                "hc_ctrl_k3_l4_low_tap.v",
                "hc_node_k3_l4.v",
                "hypercube_k3_l4.v"
            ]
        );
        let top = &emitted.modules[3].contents;
        assert_eq!(top.matches("hc_node_k3_l4 node").count(), 8);
        // Each node reads its own copy of the loop thermometer.
        assert_eq!(top.matches("hc_ctrl_k3_l4_low_tap node").count(), 8);
        assert!(top.contains(".low(node5_tap_low)"), "{top}");
        // Node 1 hears node 5 on dimension 2 (bit 5*3 + 2), node 3 on dimension 1 (bit
        // 3*3 + 1) and node 0 on dimension 0.
        let node1 = &top[top.find("node1 (").unwrap()..];
        let node1 = &node1[..node1.find(");").unwrap()];
        assert!(
            node1.contains(".dim_in({dim_out[17], dim_out[10], dim_out[0]})"),
            "{node1}"
        );
        assert!(node1.contains(".dim_out(dim_out[5:3])"), "{node1}");
        assert!(node1.contains(".my_addr(3'd1)"), "{node1}");
    }

    #[test]
    fn every_router_validates() {
        for router in Router::ALL {
            for (k, l) in [(1, 1), (2, 3), (4, 8)] {
                let (design, p) = router_design(router, k, l).unwrap();
                let emitted = design.emit().unwrap();
                assert_eq!(emitted.top, router.top_name(p));
            }
        }
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(matches!(cube_design(13, 8), Err(CubeError::Params(_))));
        assert!(matches!(cube_design(3, 0), Err(CubeError::Params(_))));
    }
}
