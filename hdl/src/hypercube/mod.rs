//! Kuszmaul's pipelined bit-serial hypercube router (seed 001) as word-level RTL
//! (`docs/hypercube.md`), one family of node routers per [`Router`]:
//!
//! - [`overlap`] (the default): Algorithm 1 and Algorithm 2 with the overlapped schedule
//!   (§12) — the node router (pipeline registers, the `k` routing stages, the serial
//!   adders of the pipelined butterfly enumeration, buffers A, B and E, the flags of
//!   Algorithm 2) and the controller that runs its activities side by side;
//! - [`sequential`]: the same algorithms with the paper's sequential schedule (§5–§6);
//! - [`sort`]: Algorithm 1, and sort-then-pack (§13): a pipelined bitonic sort, then one
//!   Algorithm 1 pass that unpacks;
//! - [`quad`]: the quadratic cube (§14), Algorithm 2 on pipelined batches, `k` loop units
//!   per node (its own top, with a batch interface);
//! - [`qsort`]: sort-then-pack pipelined on the quadratic cube (§13.3), one batch every
//!   `M + 1` bit times (the quadratic cube's batch interface);
//!
//! each a node module, a controller that broadcasts strobes decoded once, and the whole
//! [`cube`] around them ([`parts`]: the pieces the node routers share).
//!
//! Every multi-bit quantity is one vector: the pipeline registers `P_0..P_k` are `p[k:0]`,
//! the stage states two `k`-bit vectors, the adders' sums and carries one `k`-bit vector
//! each, A and B `M`-bit shift registers. Links between nodes are one `N·k`-bit vector of
//! the top (`dim_out`, node `x`'s link in dimension `d` at bit `x·k + d`).

pub mod cube;
pub mod gtkw;
pub mod overlap;
pub mod parts;
pub mod qsort;
pub mod quad;
pub mod sequential;
pub mod sort;

use lcanet_sim::hypercube::timing::Algorithm;
use lcanet_sim::hypercube::{CubeParams, HypercubeError};
use serde::Serialize;

/// The node routers lcanet generates: which algorithms a cube runs and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Router {
    /// Algorithm 1, and Algorithm 2 with the overlapped schedule (the default).
    Overlapped,
    /// Algorithm 1, and Algorithm 2 with the paper's sequential schedule.
    Sequential,
    /// Algorithm 1, and sort-then-pack.
    Sort,
    /// The quadratic cube: Algorithm 2 (overlapped) on pipelined batches.
    Quadratic,
    /// Sort-then-pack pipelined on the quadratic cube (one more wire per dimension).
    #[serde(rename = "quadratic-sort")]
    QuadSort,
}

impl Router {
    /// Every router, in the order reports list them.
    pub const ALL: [Router; 5] = [
        Router::Overlapped,
        Router::Sequential,
        Router::Sort,
        Router::Quadratic,
        Router::QuadSort,
    ];

    /// The routers whose top is the one of §9 (all but the quadratic cube).
    pub const FLAT: [Router; 3] = [Router::Overlapped, Router::Sequential, Router::Sort];

    /// The name on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Router::Overlapped => "overlapped",
            Router::Sequential => "sequential",
            Router::Sort => "sort",
            Router::Quadratic => "quadratic",
            Router::QuadSort => "quadratic-sort",
        }
    }

    /// What the top's `algorithm = 1` runs (`algorithm = 0` is Algorithm 1); for the
    /// quadratic cube, what each batch goes through.
    pub fn algorithm(self) -> Algorithm {
        match self {
            Router::Overlapped | Router::Quadratic => Algorithm::Full,
            Router::QuadSort => Algorithm::Sort,
            Router::Sequential => Algorithm::FullSequential,
            Router::Sort => Algorithm::Sort,
        }
    }

    /// The router that runs `alg` (Algorithm 1 runs on the default one).
    pub fn for_algorithm(alg: Algorithm) -> Router {
        match alg {
            Algorithm::Semi | Algorithm::Full => Router::Overlapped,
            Algorithm::FullSequential => Router::Sequential,
            Algorithm::Sort => Router::Sort,
        }
    }

    /// Whether the router's cube runs `alg` (the batched cubes run their permutation
    /// routing only).
    pub fn runs(self, alg: Algorithm) -> bool {
        (alg == Algorithm::Semi && !self.is_batched()) || alg == self.algorithm()
    }

    /// Whether the cube is the quadratic one (Algorithm 2 on batches).
    pub fn is_quadratic(self) -> bool {
        self == Router::Quadratic
    }

    /// Whether the cube takes batches (the quadratic cube and the pipelined sort).
    pub fn is_batched(self) -> bool {
        matches!(self, Router::Quadratic | Router::QuadSort)
    }

    fn prefix(self) -> &'static str {
        match self {
            Router::Overlapped => "",
            Router::Sequential => "seq_",
            Router::Sort => "sort_",
            Router::Quadratic => "quad_",
            Router::QuadSort => "qsort_",
        }
    }

    /// Name of the node module: `hc_node_k{K}_l{L}` (`hc_seq_node_…`, …).
    pub fn node_name(self, p: CubeParams) -> String {
        format!("hc_{}node_k{}_l{}", self.prefix(), p.k(), p.payload_bits())
    }

    /// Name of the controller module: `hc_ctrl_k{K}_l{L}` (`hc_seq_ctrl_…`, …).
    pub fn ctrl_name(self, p: CubeParams) -> String {
        format!("hc_{}ctrl_k{}_l{}", self.prefix(), p.k(), p.payload_bits())
    }

    /// Message-buffer bits of one node: A and B (`M` bits each) and E (`k` bits); the
    /// sort router has A alone.
    pub fn buffer_bits_per_node(self, p: CubeParams) -> usize {
        match self {
            Router::Overlapped | Router::Sequential => p.buffer_bits_per_node(),
            Router::Sort => p.message_bits(),
            // Every unit's A, B, E (the last unit has A alone) and the output register.
            Router::Quadratic => {
                let (k, m) = (p.k(), p.message_bits());
                (k - 1) * 2 * m + k * (k - 1) / 2 + m + p.payload_bits() + 1
            }
            // The injection buffer A and `inv`; the arriving payload (L − 1) and the
            // output register (L + 1).
            Router::QuadSort => p.message_bits() + 1 + 2 * p.payload_bits(),
        }
    }

    /// Flip-flops of one node router, as Yosys counts them in its module
    /// (`docs/hypercube.md` §7, §12): buffers, pipeline, stage states, the enumeration's
    /// sums and carries, and the flags (the overlapped node has one more, `keep`).
    pub fn flip_flops_per_node(self, p: CubeParams) -> usize {
        let (k, l) = (p.k(), p.payload_bits());
        match self {
            Router::Overlapped => 2 * l + 10 * k + 7,
            Router::Sequential => 2 * l + 10 * k + 6,
            // A, P_0..P_k, the stage states, va, hit, coll.
            Router::Sort => l + 4 * k + 4,
            // Units with f = 1..k-1 dimensions: 2M + 8f + 7 each (the overlapped node's
            // 2M + 8k + 7 with k -> f); the last unit M + 4; the output register L + 1.
            Router::Quadratic => {
                let m = p.message_bits();
                (k - 1) * (2 * m + 7) + 4 * k * (k - 1) + m + 4 + l + 1
            }
            // A, inv; r[0..S], the sort stages' states (2S); jv, f[0..k], the routing
            // stages' states (2k); hit, cp (L − 1), ov, op (L), coll; S = k(k+1)/2:
            // 3S + 4k + 3L + 6.
            Router::QuadSort => {
                let s = k * (k + 1) / 2;
                3 * s + 4 * k + 3 * l + 6
            }
        }
    }

    /// Name of the top module: `hypercube_k{K}_l{L}` (`hypercube_seq_…`, …).
    pub fn top_name(self, p: CubeParams) -> String {
        format!(
            "hypercube_{}k{}_l{}",
            self.prefix(),
            p.k(),
            p.payload_bits()
        )
    }
}

#[cfg(test)]
#[test]
fn json_names_are_the_command_line_names() {
    for r in Router::ALL {
        assert_eq!(serde_json::to_value(r).unwrap(), r.name());
    }
}

impl std::fmt::Display for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Largest cube the generator emits: `2^12 = 4096` nodes.
pub const MAX_HW_K: usize = 12;

/// Why a cube cannot be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HwParamError {
    /// The payload width is outside the golden model's range.
    #[error(transparent)]
    Params(#[from] HypercubeError),
    /// `k` is outside what the generator emits.
    #[error("k = {k} is out of range for the generator: it emits cubes with 1 <= k <= {max} ({} nodes at most)", 1usize << max)]
    KOutOfRange {
        /// The requested dimension.
        k: usize,
        /// The largest dimension generated.
        max: usize,
    },
}

/// Validated parameters of a generated cube. Within these ranges the sequential
/// controller's longest phase, `3k + L + 2 <= 102` cycles, fits its 8-bit phase counter,
/// the overlapped controller's longest loop (288 cycles) its 9-bit loop counter, and the
/// longest run, `k(14k + 3L + 9) <= 4428` bit times, the 16-bit `bit_time` counter.
pub fn hw_params(k: usize, payload_bits: usize) -> Result<CubeParams, HwParamError> {
    if !(1..=MAX_HW_K).contains(&k) {
        return Err(HwParamError::KOutOfRange { k, max: MAX_HW_K });
    }
    Ok(CubeParams::new(k, payload_bits)?)
}

/// Name of the default router's node module: `hc_node_k{K}_l{L}`.
pub fn node_name(p: CubeParams) -> String {
    Router::Overlapped.node_name(p)
}

/// Name of the default router's controller module: `hc_ctrl_k{K}_l{L}`.
pub fn ctrl_name(p: CubeParams) -> String {
    Router::Overlapped.ctrl_name(p)
}

/// Name of the default router's top module: `hypercube_k{K}_l{L}`.
pub fn top_name(p: CubeParams) -> String {
    Router::Overlapped.top_name(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lcanet_sim::hypercube::timing::{total_bit_times, Phase, LOOP_PHASES};
    use lcanet_sim::hypercube::MAX_PAYLOAD_BITS;

    #[test]
    fn counters_fit_over_the_whole_range() {
        let p = hw_params(MAX_HW_K, MAX_PAYLOAD_BITS).unwrap();
        let longest = LOOP_PHASES
            .iter()
            .chain([&Phase::Semi])
            .map(|ph| ph.len(p))
            .max();
        assert_eq!(longest, Some(102));
        assert!(total_bit_times(p, Algorithm::FullSequential) < 1 << 16);
        // The overlapped controller's loop counter (9 bits): the longest loop, and the
        // channel counters `lc − start` that wrap below their start.
        let lt = lcanet_sim::hypercube::overlap::loop_timing(p, 0);
        assert_eq!(lt.len, 288);
        assert!(lt.len <= 1 << overlap::controller::CNT_BITS);
        assert!((1 << overlap::controller::CNT_BITS) - lt.rdv > lt.len - lt.rdv);
        for alg in Algorithm::ALL {
            for k in 1..=MAX_HW_K {
                for l in [1, MAX_PAYLOAD_BITS] {
                    let p = hw_params(k, l).unwrap();
                    assert!(total_bit_times(p, alg) < 1 << 16, "{alg:?} k = {k}");
                }
            }
        }
    }

    #[test]
    fn errors_name_the_condition() {
        let e = hw_params(13, 8).unwrap_err();
        assert!(e.to_string().contains("1 <= k <= 12"), "{e}");
        let e = hw_params(0, 8).unwrap_err();
        assert!(e.to_string().contains("1 <= k <= 12"), "{e}");
        let e = hw_params(3, 0).unwrap_err();
        assert!(e.to_string().contains("payload"), "{e}");
    }
}
