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

pub mod arbiter;
pub mod bounds;
mod build;
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
