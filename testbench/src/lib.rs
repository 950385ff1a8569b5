//! Tool runners (Verilator, Icarus Verilog, Yosys), the Verilator bridge that lets Rust
//! drive a Verilated model bit-time by bit-time, the harness that compares RTL with a golden
//! model at every bit-time, and a writer of self-checking Verilog test benches.
//!
//! See `docs/testbench.md` for a guide.
#![warn(missing_docs)]

pub mod artifacts;
pub mod bridge;
pub mod fpga;
pub mod harness;
pub mod hex;
pub mod hypercube;
pub mod lca;
pub mod lca_export;
pub mod lca_net;
pub mod min;
pub mod paths;
pub mod selftest;
pub mod tbwriter;
pub mod tools;

pub use artifacts::ArtifactDir;
