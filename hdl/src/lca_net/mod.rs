//! Whole LCA networks in hardware, word-level (`docs/interface.md`, `docs/network-rtl.md`):
//! the switch fabric wired per a [`Topology`](lcanet_sim::lcan::Topology) through
//! level-wide link vectors, the PE interface units and the controller, assembled so that
//! each distinct block is defined once.
//!
//! - [`spec`]: what to generate ([`NetSpec`]) and the names derived from it.
//! - [`pe`]: the PE interface unit; [`controller`]: the controller; [`controller_r3`]: the
//!   R3 controller (`docs/interface.md` §11).
//! - [`fabric`]: one `lvl<i>_sw<j>` instance of the switch module per switch, wired.
//! - [`tables`], [`rom`]: Π networks' route tables (from reachability) and the ROM module
//!   of each distinct table.
//! - [`network`]: the whole network; [`design`]: errors and the artifacts of
//!   `generate network`; [`gtkw`]: the GTKWave save file and its translate filters.

pub mod controller;
pub mod controller_r3;
pub mod design;
pub mod fabric;
pub mod gtkw;
pub mod network;
pub mod pe;
pub mod rom;
pub mod spec;
pub mod tables;
pub mod tap;

pub use design::{network_artifacts, NetArtifacts, NetGenError};
pub use gtkw::{network_gtkw, GtkwFiles};
pub use network::network_design;
pub use spec::{NetSpec, SpecError, Structure};

#[cfg(test)]
mod tests;
