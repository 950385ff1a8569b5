//! Whole LCA networks in hardware (issue 4): the switch fabric wired per a
//! [`Topology`](lcanet_sim::lcan::Topology), the PE interface units and the controller
//! (`docs/interface.md`), assembled so that each distinct block is defined once.
//!
//! - [`spec`]: what to generate ([`NetSpec`]) and the names derived from it.
//! - [`fabric`]: one `lvl<i>_sw<s>` instance of the switch module per switch, wired.
//! - [`pe`]: the PE interface unit; [`controller`]: the controller (rust-hdl blocks).
//! - [`tables`], [`rom`]: Π networks' route tables (from reachability) and the ROM module
//!   of each distinct table.
//! - [`network`]: the whole network; [`design`]: the fabric alone and the artifacts of
//!   `generate network`; [`gtkw`]: the GTKWave save file.

pub mod controller;
pub mod design;
pub mod fabric;
pub mod gtkw;
pub mod network;
pub mod pe;
pub mod rom;
pub mod spec;
pub mod tables;

pub use design::{
    emit_fabric, fabric_design, network_artifacts, network_gtkw, NetArtifacts, NetGenError,
};
pub use network::network_design;
pub use spec::{NetSpec, SpecError};
