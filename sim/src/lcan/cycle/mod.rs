//! Cycle-level (bit-time) golden models of LCA hardware, written from `docs/protocol.md` and
//! `docs/routing.md`, never from the RTL.
//!
//! - [`params`]: switch parameters, widths, step lengths; [`route`]: the digit decoder.
//! - [`bits`]: receive/output registers and the packet layout inside them.
//! - [`arbiter`]: the contention arbiter, bit-exact (`docs/routing.md` §2).
//! - [`xpoint`]: the crosspoint matrix, pass-through and reverse datapaths.
//! - [`switch`] (+ `commit`): the switch model, one bit-time per [`SwitchModel::clock`];
//!   [`types`]: its boundary (modes, control, outcomes, protocol errors).
//! - [`src_mode`]: the R3 switch's source-routed set-up (`SRC`, `docs/protocol.md` §12).
//! - `step_clock`: the bit-time within the step and the step's mode, which every switch of
//!   a network counts alike.
//! - [`traffic`]: seeded random legal traffic for a lone switch, in every mode.
//!
//! Composition: every switch output is a register, so a network model computes all outputs
//! ([`SwitchModel::outputs`]), routes them to the neighbours' inputs, then clocks every
//! switch with the same broadcast [`Control`].

pub mod arbiter;
pub mod bits;
mod commit;
pub mod network;
pub mod params;
pub mod route;
pub mod src_mode;
mod step_clock;
pub mod switch;
pub mod traffic;
pub mod types;
pub mod xpoint;

pub use arbiter::Arbiter;
pub use params::SetupMode;
pub use params::{ArbiterPolicy, PacketFormat, ParamError, SwitchParams, SwitchTopology};
pub use switch::SwitchModel;
pub use types::{Claim, Control, Mode, ProtocolError, SlotOutcome, StepOutcome, SwitchConsts};
pub use xpoint::{Crosspoints, Group};

#[cfg(test)]
mod tests;
