//! A whole k-cube as one Verilog-2005 top (`docs/hypercube.md` §9): `2^k` node routers
//! (`node{x}`, one module for all) and the controller (`ctrl`), wired as a hypercube, for
//! the [`Router`]s that share this top (the overlapped, the sequential and the sort one).
//! Every node input that the controller has as an output (the strobes, `sel`, `low`, …)
//! is connected to the controller's wire of that name; in the overlapped cube, to the
//! wire of that name of its group's tap (`tap<g>`, one per
//! [`NODES_PER_TAP`](overlap::controller::NODES_PER_TAP) nodes, loaded from the
//! controller's `pre`).
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
    // The overlapped cube's nodes read a tap per group; the others' the controller.
    let tap_mod = (router == Router::Overlapped).then(|| overlap::controller::tap(p));
    let source = tap_mod.as_ref().unwrap_or(&ctrl_mod);
    // The broadcast: every output of the source the node has as an input.
    let broadcast: Vec<(String, usize)> = source
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
    // Node x's broadcast: the controller's, or its group's tap's.
    let per_tap = overlap::controller::NODES_PER_TAP.min(n);
    let source_of = |x: usize| match &tap_mod {
        Some(_) => format!("tap{}", x / per_tap),
        None => "ctrl".to_string(),
    };
    if let Some(t) = &tap_mod {
        m.comment(format!(
            "The broadcast: tap<g> drives nodes {per_tap}g..{per_tap}g+{}",
            per_tap - 1
        ));
        for g in 0..n / per_tap {
            // The nodes read `low_copies` (a copy each), the formal harness `low`.
            m.allow_unread(names::output_net(&format!("tap{g}"), "low"));
            let (inst, _) = m.instance_of(format!("tap{g}"), t);
            let mut inst = inst
                .pin("clock", &clock)
                .pin("reset", &reset)
                .pin("start", &start)
                .pin("algorithm", &algorithm);
            for port in t.ports.iter().filter(|q| q.direction == Direction::Input) {
                if let Some(c) = ctrl_mod.port(&port.name) {
                    if c.direction == Direction::Output {
                        inst = inst.pin(port.name.as_str(), ctrl_out(&port.name, c.width));
                    }
                }
            }
        }
    }

    m.comment("Links: node x's dimension-d wire is bit x*k + d, read by node x ^ 2^d");
    let dim_out = m.wire("dim_out", n * k);
    m.comment("The nodes");
    for x in 0..n {
        let dim_in = cat((0..k).rev().map(|d| dim_out.bit((x ^ (1 << d)) * k + d)));
        let mut inst = m
            .instance(format!("node{x}"), &node_mod)
            .pin("clock", &clock);
        for (name, width) in &broadcast {
            let net = names::output_net(&source_of(x), name);
            inst = match (&tap_mod, name.as_str()) {
                // The node's own copy of the loop thermometer, row x of its tap's copies.
                (Some(_), "low") => {
                    let copies = names::output_net(&source_of(x), "low_copies");
                    inst.pin("low", V::signal(copies, per_tap * k).row(x % per_tap, k))
                }
                _ => inst.pin(name.as_str(), V::signal(net, *width)),
            };
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
    if let Some(t) = tap_mod {
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
                "hc_ctrl_k3_l4_tap.v",
                "hc_node_k3_l4.v",
                "hypercube_k3_l4.v"
            ]
        );
        let top = &emitted.modules[3].contents;
        assert_eq!(top.matches("hc_node_k3_l4 node").count(), 8);
        // The 8 nodes share one tap, loaded from the controller's decode ahead.
        assert_eq!(top.matches("hc_ctrl_k3_l4_tap tap").count(), 1);
        assert!(top.contains(".pre(ctrl_pre)"), "{top}");
        assert!(top.contains(".low(tap0_low)"), "{top}");
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
    fn a_5_cube_has_a_tap_per_8_nodes_each_driving_its_own() {
        let (design, _) = cube_design(5, 2).unwrap();
        let emitted = design.emit().unwrap();
        let top = &emitted.modules[3].contents;
        assert_eq!(top.matches("hc_ctrl_k5_l2_tap tap").count(), 4, "{top}");
        let node = |x: usize| {
            let at = &top[top.find(&format!("node{x} (")).unwrap()..];
            at[..at.find(");").unwrap()].to_string()
        };
        assert!(node(7).contains(".c_addr(tap0_c_addr)"), "{}", node(7));
        assert!(node(8).contains(".c_addr(tap1_c_addr)"), "{}", node(8));
        assert!(node(31).contains(".sel(tap3_sel)"), "{}", node(31));
        assert!(top.contains("assign done = ctrl_done;"), "{top}");
        // Synthesis must not merge the taps back into one.
        let tap = &emitted.modules[1].contents;
        assert!(tap.contains("(* keep *)"), "{tap}");
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
