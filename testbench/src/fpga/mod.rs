//! The open FPGA flow (`lcanet fpga`, `docs/selftest.md` §7): Yosys, nextpnr and the
//! bitstream packers for iCE40 and ECP5 parts, and the routed-netlist simulation of a
//! self-test top.
//!
//! - [`device`]: the parts (capacity, packages and their bonded IOs) and boards (pin files).
//! - [`flow`]: one synthesis → place and route → bitstream run, with its summary.
//! - [`ioring`]: the 3-pin wrapper that measures a bare design out of context.
//! - [`routed`]: the placed design, turned back into Verilog and simulated against the
//!   self-test's golden prediction.

pub mod device;
pub mod flow;
pub mod ioring;
pub mod routed;

use crate::tools::ToolError;

/// Why a flow run failed.
#[derive(Debug, thiserror::Error)]
pub enum FpgaError {
    /// A tool is missing, or could not be run, or its output not read.
    #[error(transparent)]
    Tool(#[from] ToolError),
    /// A step of the flow failed.
    #[error("{what} failed: {error}")]
    Step {
        /// The step.
        what: &'static str,
        /// The tool's failure.
        error: Box<ToolError>,
    },
    /// The design cannot go through the flow as asked (it does not fit, has too many IOs,
    /// uses what the simulation does not model, …); the text names the condition.
    #[error("{0}")]
    Design(String),
}
