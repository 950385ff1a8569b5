//! Tool runners (Verilator, Icarus Verilog, Yosys), the Verilator bridge that lets Rust
//! drive a Verilated model bit-time by bit-time, and the harness that compares RTL with
//! the golden models of `lcanet-sim` at every bit-time.
#![warn(missing_docs)]
