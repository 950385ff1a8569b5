//! The cycle-level golden model of a whole LCA network: switches wired per the topology,
//! one PE interface per PE and the controller (`docs/interface.md`).

pub mod params;

pub use params::{NetParamError, NetParams, Phase, MAX_MSG_BITS};
