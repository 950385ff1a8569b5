//! The golden model of the on-chip self-test (`docs/selftest.md`): the same xorshift32
//! generator, the same stimulus sequence as the hardware, each round routed by the
//! network's own golden model (an LCA network's cycle model, the hypercube's cycle model,
//! a MIN's ATAPE timeline), the on-chip checker's verdict, the counters, and the exact
//! text and timing of every UART report line.
//!
//! - [`params`]: the self-test's parameters and their limits; the UART divisor, the
//!   heartbeat's period.
//! - [`dut`]: the network under test ([`Dut`]: LCA network, hypercube, MIN) and what the
//!   shared parts need to know about it.
//! - [`xorshift`]: the generator (Marsaglia's xorshift32, triple 13/17/5).
//! - [`stimulus`]: messages, the in-place Fisher–Yates shuffle, packings and exchange
//!   offsets, draw by draw.
//! - [`rounds`]: one round through the network's golden model and the checker's verdict.
//! - [`line`](mod@line): the counters and the report line's text.
//! - [`predict`](mod@predict): rounds routed, checked and counted; the report lines.
//! - [`timing`]: the clock in which each report line's last byte starts; the heartbeat.

pub mod dut;
pub mod line;
pub mod params;
pub mod predict;
pub mod rounds;
pub mod stimulus;
pub mod timing;
pub mod xorshift;

pub use dut::{Dut, LcaNet, StimulusKind};
pub use line::{ratio_x100, report_line, Counters, LineFormat, Piece};
pub use params::{
    heartbeat_clocks, uart_divisor, SelftestError, SelftestParams, MAX_MIN_M, MAX_MSG_BITS,
};
pub use predict::{predict, Prediction, ReportLine, RoundResult};
pub use stimulus::{Round, StimulusGen};
pub use timing::{line_timing, Clocks, LineTiming};
pub use xorshift::Xorshift32;

#[cfg(test)]
mod tests;
