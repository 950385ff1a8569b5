//! Kuszmaul's hypercube router (seed 001): the emitted k-cube co-simulated in Verilator
//! against the cycle-level golden model of `lcanet-sim` ([`cosim`]), and the tool checks
//! of its Verilog (tests in `testbench/tests/hypercube_*.rs`); [`alone`]: the golden model
//! and the Verilated cube each on its own (for `lcanet bench cosim --k`); [`quad`]: the
//! quadratic cube's batches co-simulated.

pub mod alone;
pub mod cosim;
pub mod quad;
