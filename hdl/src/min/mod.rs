//! Hardware of the self-routing MINs and algorithm ATAPE (seed 004), as specified in
//! `docs/min.md` §3: the 2x2 bit-serial switch, the per-PE ATAPE unit, the controller
//! and a stage's conflict OR (rust-hdl blocks), and whole networks assembled from them
//! with the netlist ([`network`]).

pub mod control;
pub mod network;
pub mod reduce;
pub mod switch;
pub mod unit;

pub use control::AtapeController;
pub use network::{build, MinRtl, MinRtlError};
pub use reduce::AnyOf;
pub use switch::MinSwitch;
pub use unit::AtapeUnit;

#[cfg(test)]
mod sim_tests;
