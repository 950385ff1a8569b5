//! Golden software models for lcanet.
//!
//! Everything the RTL is checked against lives here, written from the papers in
//! `../shared/seeds` and the documents in `docs/`, never from the RTL:
//!
//! - [`lcan`]: LCA networks (T-LCAN, CB-LCAN, general Π), routing algorithms R1/R2
//!   at the level of steps and passes, global-knowledge references, and the
//!   cycle-level (bit-time) models of the LCA switch and whole networks.
//! - [`hypercube`]: Kuszmaul's pipelined bit-serial hypercube routing (seed 001).
//! - [`min`]: self-routing multistage networks and all-to-all personalized
//!   exchange by Latin squares (seed 004).
//! - [`perm`] and [`rng`]: permutations (files, generators) and seeded randomness
//!   shared by all systems.
//!
//! This crate depends on no external tool and spawns no process.
#![warn(missing_docs)]

pub mod hypercube;
pub mod lcan;
pub mod min;
pub mod perm;
pub mod rng;
pub mod selftest;
