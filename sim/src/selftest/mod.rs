//! The golden model of the on-chip self-test (`docs/selftest.md`): the same xorshift32
//! generator, the same message and permutation sequence as the hardware, each permutation
//! routed by the network's cycle model (`crate::lcan::cycle::network`), the on-chip
//! checker's verdict, the counters, and the exact text of every UART report line.
//!
//! - [`params`]: the self-test's parameters and their limits; the UART divisor.
//! - [`xorshift`]: the generator (Marsaglia's xorshift32, triple 13/17/5).
//! - [`stimulus`]: messages and the in-place Fisher–Yates shuffle, draw by draw.
//! - [`predict`](mod@predict): permutations routed, checked and counted; the report lines.
//! - [`timing`]: the clock in which each report line's last byte starts.

pub mod params;
pub mod predict;
pub mod stimulus;
pub mod timing;
pub mod xorshift;

pub use params::{uart_divisor, SelftestError, SelftestParams, MAX_MSG_BITS};
pub use predict::{predict, report_line, Counters, Prediction, ReportLine, RoundResult};
pub use stimulus::{Round, StimulusGen};
pub use timing::line_clocks;
pub use xorshift::Xorshift32;

#[cfg(test)]
mod tests;
