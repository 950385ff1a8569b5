//! Hardware of the self-routing MINs and algorithm ATAPE (seed 004), as specified in
//! `docs/min.md` §3: the 2x2 bit-serial switch, the per-PE ATAPE unit, the controller
//! and a stage's conflict OR. They are rust-hdl blocks; whole networks are assembled
//! from them with the netlist.

pub mod control;
pub mod reduce;
pub mod switch;
pub mod unit;

pub use control::AtapeController;
pub use reduce::AnyOf;
pub use switch::MinSwitch;
pub use unit::AtapeUnit;

#[cfg(test)]
mod sim_tests;
