//! The cycle-level golden model of a whole LCA network (`docs/interface.md`), written from
//! that document and `docs/protocol.md`, never from the RTL.
//!
//! - [`params`]: [`NetParams`], the controller's [`Phase`]s and step lengths.
//! - [`controller`]: phases, `ctl_*` broadcast, counters and flags.
//! - [`pe`]: the PE interface unit.
//! - [`ports`]: top-level ports (one per quantity) and their values as words.
//! - [`r3load`]: an R3 schedule as the load inputs `pass`, `route`, `npass` (R3).
//! - [`model`]: [`NetworkModel`], the composition, one bit-time per `step`.
//! - `fabric`: the switches and their links, clocked only where there is work; `bitset`: the
//!   sets of switches and PEs that have some.
//!
//! Use from a co-simulation:
//!
//! ```
//! use lcanet_sim::lcan::cycle::network::{NetParams, NetworkModel, PortWords};
//! use lcanet_sim::lcan::cycle::ArbiterPolicy;
//! use lcanet_sim::lcan::routing::Algorithm;
//! use lcanet_sim::lcan::{Size, Topology};
//!
//! let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
//! let np = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 2).unwrap();
//! let dst = [Some(2), Some(3), Some(0), Some(1)];
//! let mut model = NetworkModel::new(&topo, &np, &dst, &[0, 1, 2, 3], 7).unwrap();
//! let ports = model.output_ports(); // done, error, phase, passes, …, rmsg
//! let mut vals = PortWords::new(&ports);
//! while !model.outputs().done {
//!     model.output_words(&mut vals); // compare vals.get(i) with the RTL's port ports[i]
//!     model.step().unwrap();
//! }
//! assert_eq!(model.outputs().bit_times, 128);
//! ```

mod bitset;
pub mod controller;
mod fabric;
pub mod model;
pub mod params;
pub mod pe;
pub mod ports;
pub mod r3load;

pub use model::{Mutation, NetError, NetPass, NetRun, NetworkModel};
pub use params::{NetParamError, NetParams, Phase, MAX_MSG_BITS};
pub use ports::{seeded_messages, CanonicalInputs, NetOutputs, PortSpec, PortWords};
pub use r3load::{r3_load, R3Load, R3LoadError};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_fast;
#[cfg(test)]
mod tests_perlevel;
#[cfg(test)]
mod tests_r3;
