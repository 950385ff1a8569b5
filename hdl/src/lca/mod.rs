//! The LCA switch in hardware (rust-hdl), implementing `docs/protocol.md`.
//!
//! - [`layout`]: sizes and field offsets derived from the parameters.
//! - [`control`]: the step counter and mode decode; [`shift`]: receive and output registers.
//! - [`decoder`]: the route decoder (tree/cb digits, or Π tables from a ROM); [`keys`]: claim-key comparison.
//! - [`arbiter`]: the contention arbiter (fixed, round-robin, random LFSR).
//! - [`xbar`]: the crosspoint matrix (`xp_ac`, `xp_ad`, `xp_bc`, `xp_bd`) and datapaths.
//! - [`switch`]: the switch itself, [`LcaSwitch`]; [`generate`]: it as a netlist design.
//!
//! One module definition serves every level: the level, the salts and the seed are input
//! ports. Parameters fixed at generation: `d`, `u`, `W`, `l`, topology kind, policy.

pub mod arbiter;
pub mod control;
pub mod decoder;
pub mod generate;
pub mod keys;
pub mod layout;
pub mod shift;
pub mod switch;
pub mod xbar;

pub use generate::{emit_switch, switch_design, switch_module_name, SwitchGenError};
pub use layout::Layout;
pub use switch::LcaSwitch;
