//! LCA networks: topology (T-LCAN, CB-LCAN, Π files), paths, routing algorithms R1/R2,
//! global-knowledge references, and cycle-level models.
//!
//! - [`Topology`] (modules `topology`, `build`, `labels`, `reach`, `pi_file`, `paths`):
//!   numbering of `docs/conventions.md`, links, `down(Y, p)`, `up(X, c)`, LCA levels and
//!   switches, label digits, every path of a connection.
//! - [`arbiter`]: the contention arbiter of docs/routing.md §2 (bit-exact for the RTL).
//! - [`routing`]: R1 and R2 simulated step by step, pass by pass (docs/routing.md §3–5).
//! - [`validate`]: the schedule validator, independent of the algorithms.
//! - [`bounds`], [`optimal`], [`pig`]: lower bound, exact minimum passes, path
//!   intersection graph (docs/routing.md §6).
//! - [`workload`]: connection sets (`random`, `identity`, `worst-case`, files).
//! - [`evaluate`], [`trials`]: one routing checked and compared with the references;
//!   many random trials summarized.
//! - [`dot`]: Graphviz drawing like the papers' Figures 3–4.
//! - [`cycle`]: bit-time models of the LCA switch (`docs/protocol.md`), the golden model
//!   of the RTL.
//!
//! Queries take PE, level and switch indices in range (`p < n`, `level < l`, …); an
//! out-of-range index is a programming error and may panic. User input is validated by
//! the constructors, the Π file reader and `perm`.
//!
//! ```
//! use lcanet_sim::lcan::{Topology, Size, routing, validate, bounds};
//! use lcanet_sim::lcan::arbiter::Policy;
//! use lcanet_sim::perm::Permutation;
//!
//! let topo = Topology::tree(4, 2, Size::Levels(3)).unwrap(); // T-LCAN(4,2), n = 16
//! assert_eq!(topo.switches_per_level(), &[4, 2, 1]);
//! assert_eq!(topo.lca_level(13, 8), 1);
//! assert_eq!(topo.down(2, 0, 13), 0b1100); // digit 2 of PE 13 is 1: downers 2 and 3
//! let perm = Permutation::new((0..16).map(|p| (p + 8) % 16).collect()).unwrap().to_partial();
//! let cfg = routing::Config {
//!     algorithm: routing::Algorithm::R1,
//!     policy: Policy::RoundRobin,
//!     conflict: routing::Conflict::Wire,
//!     seed: 1,
//! };
//! let schedule = routing::route(&topo, &perm, &cfg).unwrap();
//! validate::validate(&topo, &perm, &schedule.pass_lists(), cfg.conflict).unwrap();
//! let conns: Vec<_> = perm.pairs().map(|(src, dst)| lcanet_sim::lcan::Connection { src, dst }).collect();
//! assert_eq!(bounds::lower_bound(&topo, &conns, cfg.conflict).value, 4); // 8 leave each half over 2 links
//! assert_eq!(schedule.passes.len(), 4); // 003 Lemma 1: one LCA level, d/u = 2
//! ```

pub mod arbiter;
pub mod bounds;
mod build;
pub mod cycle;
pub mod dot;
mod error;
pub mod evaluate;
mod labels;
pub mod optimal;
mod paths;
mod pi_file;
pub mod pig;
mod reach;
pub mod routing;
mod topology;
pub mod trials;
pub mod validate;
pub mod workload;

#[cfg(test)]
mod tests;

pub use error::{
    TopologyError, MAX_LEVELS, MAX_PES, MAX_PI_PES, MAX_PI_SWITCHES, MAX_PORTS, MAX_SWITCHES,
};
pub use paths::{Connection, Dir, Path, Wire};
pub use topology::{DownEnd, Kind, Size, Topology};
