//! The LCA switch in hardware, word-level, implementing `docs/protocol.md`.
//!
//! - [`layout`]: sizes and field offsets derived from the parameters.
//! - `switch`: the module's ports, step control and assembly; `datapath`: receive and
//!   output registers, crosspoints (`xp_ac`, `xp_ad`, `xp_bc`, `xp_bd`), pass-through,
//!   waiting winners; `commit`: their clocked statements, the commit included; `decoder`:
//!   the route decoder (tree/cb digits, or Π tables from ROM inputs); `up`, `down`: the
//!   contention arbiters (one request per bit-time, in service order); `policy`: fixed,
//!   round-robin or random pointers; `logic`: the shared word-level pieces (cyclic
//!   priority select, encoder, pointer scaling); `up_fast`, `down_fast`: the same
//!   arbiters for the fast set-up (`docs/protocol.md` §13), every request of a step decided
//!   in its commit bit-time.
//! - [`r3`]: the R3 switch (`docs/protocol.md` §12), source-routed set-up, no arbiters.
//! - [`generate`]: the switch as a netlist module and as a design of its own.
//!
//! One module definition serves every level: the level, the salts, the seed and (Π) the
//! route tables are input ports. Parameters fixed at generation: `d`, `u`, `W`, `l`,
//! topology kind, policy. Its ports and observable registers: `docs/protocol.md` §2, §11.

mod commit;
mod datapath;
mod decoder;
mod down;
mod down_fast;
pub mod generate;
pub mod gtkw;
pub mod layout;
mod logic;
mod policy;
pub mod r3;
mod switch;
mod up;
mod up_fast;

pub use generate::faulty_switch_design;
pub use generate::{add_switch, emit_switch, switch_design, switch_module_name, SwitchGenError};
pub use layout::{Layout, TestFault};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_fast;
