//! Synthesizable hardware for lcanet and the backend that turns it into Verilog-2005.
//!
//! - Leaf blocks (the LCA switch, PE interfaces, controllers, hypercube node routers,
//!   2x2 self-routing switches) are described with rust-hdl.
//! - Whole networks are assembled as a small structural netlist (blocks, instances,
//!   nets) and printed by one emitter that defines each distinct block once, with
//!   readable instance names, after validation.
//!
//! This crate spawns no process; tool runners live in `lcanet-testbench`.
#![warn(missing_docs)]

pub mod hypercube;
pub mod lca;
pub mod lca_net;
pub mod min;
pub mod netlist;
pub mod rusthdl;
