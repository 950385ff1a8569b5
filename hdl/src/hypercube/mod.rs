//! Kuszmaul's pipelined bit-serial hypercube router (seed 001) as rust-hdl blocks:
//! the routing [`stage::Stage`], the bit-serial [`adder::SerialAdder`] of the
//! enumeration, the [`node::Node`] router and the [`controller::Controller`] of
//! `docs/hypercube.md`.

pub mod adder;
pub mod any;
pub mod control;
pub mod controller;
pub mod cube;
pub mod node;
pub mod stage;

#[cfg(test)]
mod rhdl_sim;

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
