//! Self-routing multistage networks (baseline, omega, indirect binary n-cube and their
//! reverses) and optimal all-to-all personalized exchange by Latin squares (seed 004).
//!
//! - [`network`]: the six networks, their interstage permutations (004 eqs. (2)–(4) and
//!   their inverses) and the destination bit each stage consumes.
//! - [`route`]: switch settings, tag routing, the admissibility check naming the switch
//!   of each conflict, and what the hardware does with any permutation.
//! - [`latin`]: Table 2 (`BuildBasicList`, `BuildLatinSquare`) and each network's first
//!   row; the squares `L1`, `L2`, `L3` of eq. (15).
//! - [`mod@psi`]: the first construction (§4.1): the set `Ψ` of eq. (8) and Theorem 1's
//!   square from any first row and any order of `Ψ` (= any first column).
//! - [`frame`]: the bit-serial frame and the run parameters of docs/min.md.
//! - [`timeline`]: the cycle-level golden model: every network output, switch setting
//!   and conflict flag at every bit-time, in closed form from the Latin square and the
//!   routing model (the oracle the RTL is compared with).
//! - [`ports`]: the timeline's values as the words of the RTL's top-level ports
//!   (allocation-free per bit-time), and the delivery check in streaming form.
//! - [`hw`]: a bit-time step model of the protocol's registers (controller, ATAPE
//!   units, switches), used to check that the protocol of docs/min.md does what
//!   [`timeline`] says for any stimulus.

pub mod frame;
pub mod hw;
pub mod latin;
pub mod network;
pub mod ports;
pub mod psi;
pub mod route;
pub mod timeline;

pub use frame::{FrameFormat, Payloads, RunConfig};
pub use latin::{build_basic_list, build_latin_square, first_row, latin_square, LatinSquare};
pub use network::{Min, Network, MAX_M};
pub use ports::{DeliveryCheck, ExpectedPorts, InputPorts};
pub use psi::{psi, psi_order, psi_square, table2_elements, PsiElement, PsiOrder};
pub use route::{Admissibility, Conflict, Hop, SwitchSettings, Transit};
pub use timeline::{BitTime, Timeline};

/// Why a network, square or run description is not acceptable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MinError {
    /// `m` is outside `1..=MAX_M`.
    #[error("m = {m} is out of range: need 1 ≤ m ≤ {max} (n = 2^m PEs)")]
    StagesOutOfRange {
        /// The requested number of stages.
        m: u32,
        /// The largest accepted `m`.
        max: u32,
    },
    /// The network name is not one of the six.
    #[error(
        "unknown network '{0}': expected baseline, omega, cube (indirect binary n-cube), \
         reverse-baseline, reverse-omega or reverse-cube"
    )]
    UnknownNetwork(String),
    /// A Latin square's first row must have `2^m` entries.
    #[error("a Latin square by Table 2 needs n = 2^m ≥ 2 entries, got n = {n}")]
    NotPowerOfTwo {
        /// The length given.
        n: usize,
    },
    /// A matrix is not a Latin square.
    #[error("not a Latin square: {what} repeats an entry or misses one")]
    NotLatin {
        /// The offending row or column.
        what: String,
    },
    /// A list given as the elements of `Ψ` is not `Ψ` (004 eq. (8)).
    #[error("not the set Ψ of 004 eq. (8): {reason}")]
    NotPsi {
        /// What is wrong with it.
        reason: String,
    },
    /// A first column for the Ψ construction is not acceptable.
    #[error("invalid first column: {reason} (it must be a permutation of 0..n starting with row 0's first entry)")]
    BadFirstColumn {
        /// What is wrong with it.
        reason: String,
    },
    /// The message length is outside the supported range.
    #[error("message length {bits} bits is out of range: need 1 ≤ bits ≤ {max}")]
    MessageBitsOutOfRange {
        /// The requested payload length.
        bits: u32,
        /// The largest accepted payload length.
        max: u32,
    },
    /// A permutation or first row does not have `n` entries.
    #[error("{what} has {found} entries but the network has n = {n} PEs")]
    WrongSize {
        /// What was given.
        what: &'static str,
        /// Its length.
        found: usize,
        /// The number of PEs.
        n: usize,
    },
}
