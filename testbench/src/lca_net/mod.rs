//! Co-simulation of whole LCA networks (`docs/interface.md` §8): the emitted network in
//! Verilator against the network golden model (`lcanet_sim::lcan::cycle::network`), driven
//! bit-time by bit-time through the canonical run and compared word by word.
//!
//! - [`bench`](mod@bench): build one Verilated model of a network and run many stimuli on it (the
//!   network is generic over the permutation: destinations and messages are inputs).
//! - [`run`]: one stimulus: every top-level output port every bit-time, every crosspoint
//!   vector at the end of every set-up, then the pass-level and delivery checks; the time
//!   spent in the RTL, the golden model and the comparison.
//! - [`stimulus`]: permutations (random, identity, 002's worst case, a file) and messages.
//! - [`alone`]: the golden model alone and the Verilated model alone (for `bench cosim`).

pub mod alone;
pub mod bench;
pub mod run;
pub mod stimulus;

pub use alone::Timed;
pub use bench::{model_options, NetBench, NetBuild, NetCosimError, ProgressFn, PROGRESS_EVERY};
pub use run::{NetReport, NetTiming, NetVerdict};
pub use stimulus::{PermKind, Stimulus};
