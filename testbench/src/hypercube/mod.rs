//! Kuszmaul's hypercube router (seed 001): the emitted k-cube co-simulated in Verilator
//! against the cycle-level golden model of `lcanet-sim` ([`cosim`]), and the tool checks
//! of its Verilog (tests in `testbench/tests/hypercube_*.rs`).

pub mod cosim;
