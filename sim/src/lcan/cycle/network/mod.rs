//! The cycle-level golden model of a whole LCA network (`docs/interface.md`), written from
//! that document and `docs/protocol.md`, never from the RTL.
//!
//! - [`params`]: [`NetParams`], the controller's [`Phase`]s and step lengths.
//! - [`controller`]: phases, `ctl_*` broadcast, counters and flags.
//! - [`pe`]: the PE interface unit.
//! - [`ports`]: top-level port names and values (one wire per bit).
//! - [`model`]: [`NetworkModel`], the composition, one bit-time per `step`.
//!
//! Use from a co-simulation:
//!
//! ```
//! use lcanet_sim::lcan::cycle::network::{NetParams, NetworkModel};
//! use lcanet_sim::lcan::cycle::ArbiterPolicy;
//! use lcanet_sim::lcan::routing::Algorithm;
//! use lcanet_sim::lcan::{Size, Topology};
//!
//! let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
//! let np = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 2).unwrap();
//! let dst = [Some(2), Some(3), Some(0), Some(1)];
//! let mut model = NetworkModel::new(&topo, &np, &dst, &[0, 1, 2, 3], 7).unwrap();
//! let (names, mut vals) = (model.output_names(), Vec::new());
//! while !model.outputs().done {
//!     model.output_values(&mut vals); // compare with the RTL's ports `names[i]`
//!     model.step().unwrap();
//! }
//! assert_eq!(model.outputs().bit_times, 128);
//! # let _ = names;
//! ```

pub mod controller;
pub mod model;
pub mod params;
pub mod pe;
pub mod ports;

pub use model::{Mutation, NetError, NetPass, NetRun, NetworkModel};
pub use params::{NetParamError, NetParams, Phase, MAX_MSG_BITS};
pub use ports::{seeded_messages, NetOutputs};

#[cfg(test)]
mod tests;
