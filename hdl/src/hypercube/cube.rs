//! A whole k-cube as one Verilog-2005 top (`docs/hypercube.md` §9): `2^k` node routers
//! (`node{x}`), the controller (`ctrl`) and the OR of the collision flags
//! (`any_collision`), wired as a hypercube: output `dim_out_d` of `node{x}` drives input
//! `dim_in_d` of `node{x ^ 2^d}`.
//!
//! Modules: `hc_node_k{K}_l{L}` (one definition for every node, its address on constant
//! pins), `hc_ctrl_k{K}_l{L}`, `hc_any_n{N}`, the shared children (one stage, one serial
//! adder, one DFF), and the top `hypercube_k{K}_l{L}`.

use super::any::AnyOf;
use super::controller::Controller;
use super::node::Node;
use super::{hw_params, HwParamError};
use crate::netlist::{Design, Direction, Expr, ModuleBuilder, NetlistError, ValidationErrors};
use crate::rusthdl::{add_block, ImportError};
use lcanet_sim::hypercube::CubeParams;

/// Why the cube could not be built.
#[derive(Debug, thiserror::Error)]
pub enum CubeError {
    /// Bad parameters.
    #[error(transparent)]
    Params(#[from] HwParamError),
    /// A block could not be imported (a bug in lcanet's blocks).
    #[error("internal error (a bug in lcanet): {0}")]
    Import(#[from] ImportError),
    /// The netlist was rejected (a bug in lcanet's wiring).
    #[error("internal error (a bug in lcanet): {0}")]
    Netlist(#[from] NetlistError),
    /// The netlist fails validation (a bug in lcanet's wiring).
    #[error("internal error (a bug in lcanet): {0}")]
    Validation(#[from] ValidationErrors),
    /// A block port the wiring does not know (a bug in lcanet).
    #[error("internal error (a bug in lcanet): module `{module}` has a port `{port}` the cube does not wire")]
    UnknownPort {
        /// The module.
        module: String,
        /// The port.
        port: String,
    },
}

/// Name of the top module of a cube.
pub fn top_name(p: CubeParams) -> String {
    format!("hypercube_k{}_l{}", p.k(), p.payload_bits())
}

/// Name of the top-level port `what` of node `x` (`n13_rx_payload`).
pub fn node_port(x: usize, what: &str) -> String {
    format!("n{x}_{what}")
}

/// The netlist of a whole cube with `k` dimensions and `payload_bits`-bit payloads.
pub fn cube_design(k: usize, payload_bits: usize) -> Result<(Design, CubeParams), CubeError> {
    let p = hw_params(k, payload_bits)?;
    let (n, l) = (p.n(), p.payload_bits());
    let top = top_name(p);
    let mut design = Design::new(&top);
    design
        .param("k", k)
        .param("payload_bits", l)
        .param("nodes", n);
    let node_mod = add_block(
        &mut design,
        &format!("hc_node_k{k}_l{l}"),
        &mut Node::new(k, l),
    )?;
    let ctrl_mod = add_block(
        &mut design,
        &format!("hc_ctrl_k{k}_l{l}"),
        &mut Controller::new(k, l),
    )?;
    let any_mod = add_block(&mut design, &format!("hc_any_n{n}"), &mut AnyOf::new(n))?;
    let node = design.module(&node_mod).expect("just added").clone();
    let ctrl = design.module(&ctrl_mod).expect("just added").clone();

    let mut m = ModuleBuilder::new(&top);
    m.input("clock", 1)
        .input("reset", 1)
        .input("start", 1)
        .input("algorithm", 1);
    for x in 0..n {
        m.input(node_port(x, "send"), 1)
            .input(node_port(x, "dest"), k)
            .input(node_port(x, "payload"), l);
    }
    for x in 0..n {
        m.output(node_port(x, "rx_bit"), 1)
            .output(node_port(x, "rx_valid"), 1)
            .output(node_port(x, "rx_payload"), l)
            .output(node_port(x, "collision"), 1);
    }
    m.output("done", 1)
        .output("collision", 1)
        .output("bit_time", 16);

    // The controller: every output becomes a net `ctrl_<port>`.
    m.instance_of("ctrl", &ctrl)
        .pin("clock", "clock")
        .pin("reset", "reset")
        .pin("start", "start")
        .pin("algorithm", "algorithm");
    m.assign("done", "ctrl_done");
    m.assign("bit_time", "ctrl_bit_time");
    // The links.
    for x in 0..n {
        for d in 0..k {
            m.net(format!("node{x}_dim_out_{d}"), 1);
        }
        m.net(format!("node{x}_collision"), 1);
    }
    for x in 0..n {
        let mut inst = m.instance(format!("node{x}"), &node.name);
        for port in &node.ports {
            let name = port.name.as_str();
            let indexed = |prefix: &str| {
                name.strip_prefix(prefix)
                    .and_then(|s| s.parse::<usize>().ok())
            };
            let expr: Expr = if name == "clock" {
                "clock".into()
            } else if let Some(s) = name.strip_prefix("ctl_") {
                format!("ctrl_{s}").into()
            } else if name.starts_with("sel_") || name.starts_with("low_") {
                format!("ctrl_{name}").into()
            } else if let Some(d) = indexed("my_addr_") {
                Expr::constant(1, (x >> d & 1) as u64)
            } else if name == "send" {
                node_port(x, "send").into()
            } else if let Some(d) = indexed("dest_") {
                Expr::bit(node_port(x, "dest"), d)
            } else if let Some(j) = indexed("payload_") {
                Expr::bit(node_port(x, "payload"), j)
            } else if let Some(d) = indexed("dim_in_") {
                format!("node{}_dim_out_{d}", x ^ (1 << d)).into()
            } else if let Some(d) = indexed("dim_out_") {
                format!("node{x}_dim_out_{d}").into()
            } else if let Some(j) = indexed("rx_payload_") {
                Expr::bit(node_port(x, "rx_payload"), j)
            } else if name == "rx_bit" || name == "rx_valid" {
                node_port(x, name).into()
            } else if name == "collision" && port.direction == Direction::Output {
                format!("node{x}_collision").into()
            } else {
                return Err(CubeError::UnknownPort {
                    module: node.name.clone(),
                    port: name.to_owned(),
                });
            };
            inst = inst.pin(name, expr);
        }
        m.assign(node_port(x, "collision"), format!("node{x}_collision"));
    }
    let mut any = m.instance("any_collision", &any_mod);
    for x in 0..n {
        any = any.pin(format!("inputs_{x}"), format!("node{x}_collision"));
    }
    any.pin("any", "collision");
    design.add_module(m.build())?;
    design.validate()?;
    Ok((design, p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_3_cube_validates_and_defines_each_block_once() {
        let (design, p) = cube_design(3, 4).unwrap();
        let emitted = design.emit().unwrap();
        assert_eq!(emitted.top, top_name(p));
        let names: Vec<&str> = emitted.modules.iter().map(|f| f.name.as_str()).collect();
        // Node, controller, OR, top, and the shared children: one stage, one serial adder
        // (flip-flops are written inside their parents, see `rusthdl::flops`).
        assert_eq!(names.len(), 6, "{names:?}");
        assert_eq!(names.iter().filter(|n| n.contains("__stage")).count(), 1);
        let top = emitted
            .modules
            .iter()
            .find(|f| f.name == "hypercube_k3_l4.v")
            .unwrap();
        assert_eq!(top.contents.matches("hc_node_k3_l4 node").count(), 8);
        // Node 1 hears node 5 on dimension 2.
        let node1 = &top.contents[top.contents.find("node1 (").unwrap()..];
        assert!(node1[..node1.find(");").unwrap()].contains("(node5_dim_out_2)"));
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(matches!(cube_design(13, 8), Err(CubeError::Params(_))));
        assert!(matches!(cube_design(3, 0), Err(CubeError::Params(_))));
    }
}
