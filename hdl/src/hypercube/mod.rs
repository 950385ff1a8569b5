//! Kuszmaul's pipelined bit-serial hypercube router (seed 001) as word-level RTL
//! (`docs/hypercube.md`): the [`node`] router (pipeline registers, the `k` routing
//! stages, the serial adders of the pipelined butterfly enumeration, buffers A, B and E,
//! the flags of Algorithm 2), the [`controller`] that sequences the phases and broadcasts
//! the [`control`] strobes, and the whole [`cube`].
//!
//! Every multi-bit quantity is one vector: the pipeline registers `P_0..P_k` are `p[k:0]`,
//! the stage states two `k`-bit vectors, the adders' sums and carries one `k`-bit vector
//! each, A and B `M`-bit shift registers, the controller's phase a 3-bit code. Links
//! between nodes are one `N·k`-bit vector of the top (`dim_out`, node `x`'s link in
//! dimension `d` at bit `x·k + d`).

pub mod control;
pub mod controller;
pub mod cube;
pub mod gtkw;
pub mod node;

use lcanet_sim::hypercube::{CubeParams, HypercubeError};

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

/// Validated parameters of a generated cube. Within these ranges the longest phase,
/// `3k + L + 2 <= 102` cycles, fits the controller's 8-bit phase counter and the
/// longest run, `k(14k + 3L + 9) <= 4428` bit times, its 16-bit `bit_time` counter.
pub fn hw_params(k: usize, payload_bits: usize) -> Result<CubeParams, HwParamError> {
    if !(1..=MAX_HW_K).contains(&k) {
        return Err(HwParamError::KOutOfRange { k, max: MAX_HW_K });
    }
    Ok(CubeParams::new(k, payload_bits)?)
}

/// Name of the node module: `hc_node_k{K}_l{L}`.
pub fn node_name(p: CubeParams) -> String {
    format!("hc_node_k{}_l{}", p.k(), p.payload_bits())
}

/// Name of the controller module: `hc_ctrl_k{K}_l{L}`.
pub fn ctrl_name(p: CubeParams) -> String {
    format!("hc_ctrl_k{}_l{}", p.k(), p.payload_bits())
}

/// Name of the top module: `hypercube_k{K}_l{L}`.
pub fn top_name(p: CubeParams) -> String {
    format!("hypercube_k{}_l{}", p.k(), p.payload_bits())
}

#[cfg(test)]
mod tests {
    use super::*;
    use lcanet_sim::hypercube::timing::{total_bit_times, Algorithm, Phase, LOOP_PHASES};
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
        assert!(total_bit_times(p, Algorithm::Full) < 1 << 16);
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
