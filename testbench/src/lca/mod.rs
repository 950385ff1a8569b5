//! The LCA switch under test: hierarchical names of what the co-simulation observes and the
//! switch co-simulation itself (RTL in Verilator against `lcanet_sim::lcan::cycle`).

mod checks;
pub mod cosim;
pub mod names;

pub use cosim::{
    model_options, run_switch_cosim, BuildSpeed, CosimConfig, CosimError, CosimReport,
    InvariantViolation, Verdict,
};
