//! The three unique-path networks of 004 §2: baseline, omega and indirect binary
//! n-cube, with `n = 2^m` inputs and `m` stages of `n/2` 2x2 switches.
//!
//! # Positions and wiring
//! Stage `s` has switches `k = 0..n/2`; switch `k` owns the input and output
//! *positions* `2k` (port 0, "upper") and `2k+1` (port 1, "lower"). A stage
//! permutation `σ_s` maps input positions to output positions (parallel = identity,
//! cross = swap `2k ↔ 2k+1`). The links between stages are the interstage
//! permutations of 004:
//!
//! | network | PE `j` enters stage 0 at | stage `s` output `a` enters stage `s+1` at | eq. |
//! |---|---|---|---|
//! | baseline | `j` | `π_s(a)`: rotate the low `m-s` bits right by one | (2) |
//! | omega | `π₀⁻¹(j)` (the shuffle: rotate all `m` bits left) | `π₀⁻¹(a)` | (3) |
//! | cube | `j` | `τ_s(a)`: swap bit 0 and bit `s+1` | (4) |
//!
//! and stage `m-1` output `a` is PE `a`. So the overall permutations are
//! `σ_{m-1}π_{m-2}…π_0σ_0`, `σ_{m-1}π₀⁻¹…σ_0π₀⁻¹` and `σ_{m-1}τ_{m-2}…τ_0σ_0`, as in 004.
//!
//! # Tag bits
//! A switch's setting only changes bit 0 of a position, and every link is a bit
//! permutation, so the bit a message leaves stage `s` on (upper = 0, lower = 1) ends up
//! as one fixed bit `b(s)` of the output address. Self-routing therefore sends a
//! message for destination `d` out of stage `s` on port `bit b(s) of d`;
//! [`Min::tag_bit`] derives `b(s)` from the wiring (it is not a table), and the tests
//! check exhaustively that tag routing reaches `d` from every input. The result:
//! baseline and omega consume `d_{m-1}, d_{m-2}, …, d_0` (most significant first, as
//! 004 §2 states for the baseline); the cube consumes `d_1, d_2, …, d_{m-1}, d_0`.

use super::MinError;
use std::fmt;

/// The largest `m` (so `n = 2^m` PEs) accepted by the models and the CLI.
///
/// A Latin square has `n² = 2^{2m}` entries: at `m = 12` that is 16.7 M numbers
/// (a ~100 MB JSON document), the practical end for printing squares.
pub const MAX_M: u32 = 12;

/// Which of the three networks of 004.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Network {
    /// Baseline network (004 eq. (2), Fig. 2a).
    Baseline,
    /// Omega network: a perfect shuffle before every stage (004 eq. (3), Fig. 2b).
    Omega,
    /// Indirect binary n-cube network (004 eq. (4), Fig. 2c).
    Cube,
}

impl Network {
    /// All three networks, in the paper's order.
    pub const ALL: [Network; 3] = [Network::Baseline, Network::Omega, Network::Cube];

    /// The lower-case name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Network::Baseline => "baseline",
            Network::Omega => "omega",
            Network::Cube => "cube",
        }
    }
}

impl fmt::Display for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Network {
    type Err = MinError;
    fn from_str(s: &str) -> Result<Self, MinError> {
        match s {
            "baseline" => Ok(Network::Baseline),
            "omega" => Ok(Network::Omega),
            "cube" => Ok(Network::Cube),
            other => Err(MinError::UnknownNetwork(other.to_string())),
        }
    }
}

/// Rotates the `width` low bits of `a` right by one (bits above stay).
fn rotate_low_right(a: usize, width: u32) -> usize {
    if width <= 1 {
        return a;
    }
    let mask = (1usize << width) - 1;
    let low = a & mask;
    let rotated = (low >> 1) | ((low & 1) << (width - 1));
    (a & !mask) | rotated
}

/// 004 eq. (2): the baseline interstage permutation `π_i` on `m`-bit addresses.
pub fn baseline_pi(m: u32, i: u32, a: usize) -> usize {
    rotate_low_right(a, m - i)
}

/// 004 eq. (3): the perfect shuffle `π₀⁻¹`, a one-bit circular left shift of `m` bits.
pub fn shuffle(m: u32, a: usize) -> usize {
    let mask = (1usize << m) - 1;
    ((a << 1) | (a >> (m - 1))) & mask
}

/// 004 eq. (4): the cube interstage permutation `τ_i`, swapping bit 0 and bit `i+1`.
pub fn cube_tau(i: u32, a: usize) -> usize {
    let hi = (a >> (i + 1)) & 1;
    let lo = a & 1;
    if hi == lo {
        a
    } else {
        a ^ 1 ^ (1 << (i + 1))
    }
}

/// A network of the given kind with `n = 2^m` inputs, validated (`1 ≤ m ≤ MAX_M`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Min {
    network: Network,
    m: u32,
}

impl Min {
    /// Validates `m` and builds the network.
    pub fn new(network: Network, m: u32) -> Result<Self, MinError> {
        if m == 0 || m > MAX_M {
            return Err(MinError::StagesOutOfRange { m, max: MAX_M });
        }
        Ok(Self { network, m })
    }

    /// Which network.
    pub fn network(&self) -> Network {
        self.network
    }

    /// Number of stages `m = log2 n`.
    pub fn m(&self) -> u32 {
        self.m
    }

    /// Number of inputs (PEs) `n = 2^m`.
    pub fn n(&self) -> usize {
        1 << self.m
    }

    /// Number of switches per stage, `n/2`.
    pub fn switches_per_stage(&self) -> usize {
        self.n() / 2
    }

    /// The stage-0 input position of PE `pe`.
    pub fn entry(&self, pe: usize) -> usize {
        match self.network {
            Network::Omega => shuffle(self.m, pe),
            Network::Baseline | Network::Cube => pe,
        }
    }

    /// Where output position `a` of stage `stage` goes: the input position of stage
    /// `stage + 1`, or the PE number after the last stage.
    pub fn link(&self, stage: u32, a: usize) -> usize {
        if stage + 1 == self.m {
            return a;
        }
        match self.network {
            Network::Baseline => baseline_pi(self.m, stage, a),
            Network::Omega => shuffle(self.m, a),
            Network::Cube => cube_tau(stage, a),
        }
    }

    /// The destination bit `b(stage)` that stage `stage` consumes: a message for `d`
    /// leaves stage `stage` on port `(d >> b(stage)) & 1`.
    ///
    /// Derived from the wiring: follow output position 1 and output position 0 of
    /// `stage` through the remaining links; they differ in exactly bit `b(stage)`.
    pub fn tag_bit(&self, stage: u32) -> u32 {
        let follow = |mut a: usize| {
            a = self.link(stage, a);
            for s in stage + 1..self.m {
                a = self.link(s, a);
            }
            a
        };
        let diff = follow(1) ^ follow(0);
        debug_assert!(diff.is_power_of_two(), "links must be bit permutations");
        diff.trailing_zeros()
    }

    /// `b(s)` for every stage, stage 0 first.
    pub fn tag_bits(&self) -> Vec<u32> {
        (0..self.m).map(|s| self.tag_bit(s)).collect()
    }

    /// The routing tag of destination `dst`: bit `s` of the result is the port
    /// (0 upper, 1 lower) a message for `dst` takes out of stage `s`.
    pub fn tag(&self, dst: usize) -> usize {
        (0..self.m).fold(0, |acc, s| acc | (((dst >> self.tag_bit(s)) & 1) << s))
    }
}

impl fmt::Display for Min {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} network, m = {} (n = {})",
            self.network,
            self.m,
            self.n()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interstage_permutations_match_the_paper_examples() {
        // 004 §2: π0 = (0 4 1 5 2 6 3 7), π1 = (0 2 1 3 4 6 5 7) for n = 8.
        let pi0: Vec<usize> = (0..8).map(|a| baseline_pi(3, 0, a)).collect();
        let pi1: Vec<usize> = (0..8).map(|a| baseline_pi(3, 1, a)).collect();
        assert_eq!(pi0, vec![0, 4, 1, 5, 2, 6, 3, 7]);
        assert_eq!(pi1, vec![0, 2, 1, 3, 4, 6, 5, 7]);
        // π0⁻¹ is the inverse of π0 (eq. (3)).
        for a in 0..8 {
            assert_eq!(shuffle(3, baseline_pi(3, 0, a)), a);
        }
        // τ_0 swaps bits 0 and 1: 1 (001) -> 2 (010).
        assert_eq!(cube_tau(0, 1), 2);
        assert_eq!(cube_tau(1, 1), 4);
        assert_eq!(cube_tau(1, 5), 5);
    }

    #[test]
    fn tag_bits_are_as_documented() {
        for m in 1..=8 {
            let msb_first: Vec<u32> = (0..m).rev().collect();
            assert_eq!(
                Min::new(Network::Baseline, m).unwrap().tag_bits(),
                msb_first
            );
            assert_eq!(Min::new(Network::Omega, m).unwrap().tag_bits(), msb_first);
            let cube: Vec<u32> = (0..m).map(|s| (s + 1) % m).collect();
            assert_eq!(Min::new(Network::Cube, m).unwrap().tag_bits(), cube);
        }
    }

    #[test]
    fn m_is_validated() {
        assert!(matches!(
            Min::new(Network::Omega, 0),
            Err(MinError::StagesOutOfRange { m: 0, .. })
        ));
        assert!(Min::new(Network::Omega, MAX_M + 1)
            .unwrap_err()
            .to_string()
            .contains("1 ≤ m ≤ 12"));
        assert!(Min::new(Network::Cube, MAX_M).is_ok());
        assert!("banyan".parse::<Network>().is_err());
        assert_eq!("cube".parse::<Network>().unwrap(), Network::Cube);
    }
}
