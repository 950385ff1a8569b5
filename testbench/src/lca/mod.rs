//! The LCA switch under test: the names of what the co-simulation observes, the golden
//! model's state as word-level values, and the switch co-simulation itself (RTL in
//! Verilator against `lcanet_sim::lcan::cycle`), tree, cb and Π.

mod checks;
pub mod cosim;
pub mod expect;
pub mod names;
pub mod table;

pub use cosim::{
    run_switch_cosim, CosimConfig, CosimError, CosimReport, InvariantViolation, Verdict,
};
pub use names::model_options;
pub use table::TableSwitch;
