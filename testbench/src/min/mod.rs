//! Co-simulation of the self-routing MINs with ATAPE (seed 004): emit a network, build it
//! with the Verilator bridge, drive it with the golden timeline's stimulus and compare
//! every top-level output and every switch's setting and conflict flag at every
//! bit-time (docs/min.md §4, §7), word-level and allocation-free per bit-time.
//!
//! - [`emit()`]: the network's Verilog files.
//! - [`cosim`]: one run (ATAPE or a single permutation) against `Timeline`, with the
//!   delivery check and measurements.

pub mod cosim;
pub mod emit;

pub use cosim::{run, CosimError, CosimOptions, CosimReport, Fault, Session};
pub use emit::{emit, EmittedMin};
