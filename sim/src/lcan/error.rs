//! Errors of the LCA-network models, and the size limits they enforce.
//!
//! Every message names the condition that failed and, where there is one, the paper
//! statement it comes from, so that a user who typed a bad parameter set learns which
//! rule of 002/003 it breaks.

/// Largest number of PEs of any network (`n ≤ 2^20`).
pub const MAX_PES: usize = 1 << 20;
/// Largest number of switches of any network (all levels together).
pub const MAX_SWITCHES: usize = 1 << 21;
/// Largest `d` and `u`: a switch's wire sets are 64-bit masks in the models.
pub const MAX_PORTS: usize = 64;
/// Largest number of levels.
pub const MAX_LEVELS: usize = 32;
/// Largest `n` of a network read from a Π file (its reachability is tabulated).
pub const MAX_PI_PES: usize = 1024;
/// Largest number of switches of a network read from a Π file.
pub const MAX_PI_SWITCHES: usize = 8192;

/// Why a topology cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TopologyError {
    /// `d` or `u` out of range.
    #[error("{name} = {value} is out of range {min}..={max}")]
    PortsOutOfRange {
        /// `"d"` or `"u"`.
        name: &'static str,
        /// The value given.
        value: usize,
        /// Smallest allowed value.
        min: usize,
        /// Largest allowed value.
        max: usize,
    },
    /// A per-level `d_i` or `u_i` out of range.
    #[error("{name}_{level} = {value} is out of range {min}..={max} (level {level})")]
    PortsOutOfRangeAt {
        /// `"d"` or `"u"`.
        name: &'static str,
        /// The level.
        level: usize,
        /// The value given.
        value: usize,
        /// Smallest allowed value.
        min: usize,
        /// Largest allowed value.
        max: usize,
    },
    /// The per-level vectors have different lengths.
    #[error("the d vector has {d} entries but the u vector has {u}: give one d and one u per level, level 0 (the PEs' level) first")]
    ShapeLengths {
        /// Entries of `d`.
        d: usize,
        /// Entries of `u`.
        u: usize,
    },
    /// A per-level T-LCAN whose `d_level` is not a multiple of `u_{level-1}`.
    #[error("level {level}: d_{level} = {d} is not a multiple of u_{prev} = {u} (002 Definition 2, level by level: the u_{prev} uppers of a level-{prev} switch are one tree edge into its parent's downers, which split into groups of u_{prev})", prev = level - 1)]
    NotMultipleAt {
        /// The parent level.
        level: usize,
        /// `d_level`.
        d: usize,
        /// `u_{level-1}`.
        u: usize,
    },
    /// A per-level switch count `S_level = S_{level-1}·u_{level-1}/d_level` is not an integer.
    #[error("level {level}: S_{level} = S_{prev}·u_{prev}/d_{level} = {num}/{den} is not an integer (002 eq. (1) level by level; Theorem 1)")]
    FractionalSwitchesAt {
        /// The level whose count is fractional.
        level: usize,
        /// `level - 1`.
        prev: usize,
        /// Numerator.
        num: usize,
        /// Denominator.
        den: usize,
    },
    /// T-LCAN with `d` not a multiple of `u`.
    #[error("d = {d} is not a multiple of u = {u} (002 Definition 2; 003 Theorem 1 prints \"u = k·d\", which is an erratum)")]
    NotMultiple {
        /// Downers per switch.
        d: usize,
        /// Uppers per switch.
        u: usize,
    },
    /// The number of levels is out of range.
    #[error("levels = {levels} is out of range 1..={max}")]
    LevelsOutOfRange {
        /// The value given.
        levels: usize,
        /// Largest allowed value.
        max: usize,
    },
    /// `n` does not match the T-LCAN formula.
    #[error(
        "n = {n} is not d·(d/u)^(l-1) = {d}·{k}^(l-1) for any number of levels l (002 Corollary 2)"
    )]
    TreeSize {
        /// The `n` given.
        n: usize,
        /// Downers.
        d: usize,
        /// `d/u`.
        k: usize,
    },
    /// `d = u` in a T-LCAN: `n = d` for every number of levels.
    #[error("a T-LCAN with d = u = {d} has n = d = {d} PEs for every number of levels: give --levels instead of --n")]
    TreeLevelsAmbiguous {
        /// `d` (= `u`).
        d: usize,
    },
    /// `n` does not match the CB-LCAN formula.
    #[error("n = {n} is not d^l = {d}^l for any number of levels l (002 Corollary 1)")]
    CbSize {
        /// The `n` given.
        n: usize,
        /// Downers.
        d: usize,
    },
    /// A switch count `S_i` is not an integer.
    #[error("S_{level} = S_{prev}·u/d = {num}/{den} is not an integer (002 eq. (1); Theorem 1)")]
    FractionalSwitches {
        /// The level whose count is fractional.
        level: usize,
        /// `level - 1`.
        prev: usize,
        /// Numerator.
        num: usize,
        /// Denominator.
        den: usize,
    },
    /// `n` is not a multiple of `d` (`S_0 = n/d`).
    #[error("S_0 = n/d = {n}/{d} is not an integer (every level-0 downer holds one PE)")]
    PesNotMultiple {
        /// PEs.
        n: usize,
        /// Downers.
        d: usize,
    },
    /// The network is larger than the models support.
    #[error("{what} = {value} exceeds the limit {limit}")]
    TooLarge {
        /// What is too large.
        what: &'static str,
        /// Its value (saturated).
        value: usize,
        /// The limit.
        limit: usize,
    },
    /// A Π file is malformed or violates 002 Definition 1.
    #[error("Π file line {line}: {message}")]
    PiFile {
        /// 1-based line number (0: the file as a whole).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// An upper (or downer) between two levels is not connected.
    #[error("unused connector: {what} (002 Definition 1 assumes no unused connectors between consecutive levels)")]
    UnusedConnector {
        /// The connector, e.g. "level 1 switch 3 upper 0".
        what: String,
    },
    /// Two PEs have no path between them.
    #[error("PEs {a} and {b} are not connected: no switch has both below it (002 Definition 1 requires a path between any two PEs)")]
    Disconnected {
        /// One PE.
        a: usize,
        /// Another PE it cannot reach.
        b: usize,
    },
}

/// Saturating product used for size checks.
pub(crate) fn sat_mul(a: usize, b: usize) -> usize {
    a.saturating_mul(b)
}
