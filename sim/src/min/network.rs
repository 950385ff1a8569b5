//! The unique-path networks of 004 §2: baseline, omega and indirect binary n-cube, and
//! their reverse networks (004 §1 names "the reverse networks of these networks" among
//! the class; §2 defines only the forward three), with `n = 2^m` inputs and `m` stages
//! of `n/2` 2x2 switches.
//!
//! # Positions and wiring
//! Stage `s` has switches `k = 0..n/2`; switch `k` owns the input and output
//! *positions* `2k` (port 0, "upper") and `2k+1` (port 1, "lower"). A stage
//! permutation `σ_s` maps input positions to output positions (parallel = identity,
//! cross = swap `2k ↔ 2k+1`). The links between stages are the interstage
//! permutations of 004:
//!
//! | network | PE `j` enters stage 0 at | stage `s` output `a` enters stage `s+1` at | after stage `m-1`, output `a` is PE | eq. |
//! |---|---|---|---|---|
//! | baseline | `j` | `π_s(a)`: rotate the low `m-s` bits right by one | `a` | (2) |
//! | omega | `π₀⁻¹(j)` (the shuffle: rotate all `m` bits left) | `π₀⁻¹(a)` | `a` | (3) |
//! | cube | `j` | `τ_s(a)`: swap bit 0 and bit `s+1` | `a` | (4) |
//! | reverse baseline | `j` | `π_{m-2-s}⁻¹(a)`: rotate the low `s+2` bits left by one | `a` | |
//! | reverse omega | `j` | `π₀(a)` (the unshuffle: rotate all `m` bits right) | `π₀(a)` | |
//! | reverse cube | `j` | `τ_{m-2-s}(a)`: swap bit 0 and bit `m-1-s` | `a` | |
//!
//! So the overall permutations are `σ_{m-1}π_{m-2}…π_0σ_0`, `σ_{m-1}π₀⁻¹…σ_0π₀⁻¹` and
//! `σ_{m-1}τ_{m-2}…τ_0σ_0`, as in 004.
//!
//! **Reverse networks.** The reverse of a network is the same network read from its
//! outputs to its inputs: its stage `s` is the forward stage `m-1-s` (same switches,
//! same positions), its link after stage `s` is the inverse of the forward link after
//! stage `m-2-s`, it enters where the forward network leaves and leaves through the
//! inverse of the forward entry. Overall: reverse baseline `σ_{m-1}π_0⁻¹σ_{m-2}…π_{m-2}⁻¹σ_0`,
//! reverse omega `π₀σ_{m-1}π₀…π₀σ_0`, reverse cube `σ_{m-1}τ_0σ_{m-2}…τ_{m-2}σ_0`
//! (`τ_i` is an involution). With mirrored settings (stage `s` ↔ stage `m-1-s`) a reverse
//! network realizes exactly the inverses of the forward network's permutations (a test
//! checks it for random settings).
//!
//! # Tag bits
//! A switch's setting only changes bit 0 of a position, and every link is a bit
//! permutation, so the bit a message leaves stage `s` on (upper = 0, lower = 1) ends up
//! as one fixed bit `b(s)` of the output address. Self-routing therefore sends a
//! message for destination `d` out of stage `s` on port `bit b(s) of d`;
//! [`Min::tag_bit`] derives `b(s)` from the wiring (it is not a table), and the tests
//! check exhaustively that tag routing reaches `d` from every input. The result:
//! baseline, omega, reverse baseline and reverse cube consume `d_{m-1}, d_{m-2}, …, d_0`
//! (most significant first, as 004 §2 states for the baseline); the cube consumes
//! `d_1, d_2, …, d_{m-1}, d_0`; the reverse omega `d_0, d_1, …, d_{m-1}`.

use super::MinError;
use std::fmt;

/// The largest `m` (so `n = 2^m` PEs) accepted by the models and the CLI.
///
/// A Latin square has `n² = 2^{2m}` entries: at `m = 12` that is 16.7 M numbers
/// (a ~100 MB JSON document), the practical end for printing squares.
pub const MAX_M: u32 = 12;

/// Which of the six networks: the three of 004 §2 and their reverses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Network {
    /// Baseline network (004 eq. (2), Fig. 2a).
    Baseline,
    /// Omega network: a perfect shuffle before every stage (004 eq. (3), Fig. 2b).
    Omega,
    /// Indirect binary n-cube network (004 eq. (4), Fig. 2c).
    Cube,
    /// The baseline network read backwards: links `π_{m-2}⁻¹ … π_0⁻¹`.
    ReverseBaseline,
    /// The omega network read backwards: an unshuffle after every stage.
    ReverseOmega,
    /// The indirect binary n-cube read backwards: links `τ_{m-2} … τ_0`.
    ReverseCube,
}

impl Network {
    /// All six networks: the paper's three, then their reverses.
    pub const ALL: [Network; 6] = [
        Network::Baseline,
        Network::Omega,
        Network::Cube,
        Network::ReverseBaseline,
        Network::ReverseOmega,
        Network::ReverseCube,
    ];

    /// The three networks of 004 §2, in the paper's order.
    pub const FORWARD: [Network; 3] = [Network::Baseline, Network::Omega, Network::Cube];

    /// The name used on the command line and in JSON: `baseline`, …, `reverse-cube`.
    pub fn name(self) -> &'static str {
        match self {
            Network::Baseline => "baseline",
            Network::Omega => "omega",
            Network::Cube => "cube",
            Network::ReverseBaseline => "reverse-baseline",
            Network::ReverseOmega => "reverse-omega",
            Network::ReverseCube => "reverse-cube",
        }
    }

    /// The name as a Verilog identifier part: `reverse_omega` (no `-`).
    pub fn ident(self) -> String {
        self.name().replace('-', "_")
    }

    /// The mirror image: baseline ↔ reverse baseline, and so on.
    pub fn reverse(self) -> Network {
        match self {
            Network::Baseline => Network::ReverseBaseline,
            Network::Omega => Network::ReverseOmega,
            Network::Cube => Network::ReverseCube,
            Network::ReverseBaseline => Network::Baseline,
            Network::ReverseOmega => Network::Omega,
            Network::ReverseCube => Network::Cube,
        }
    }

    /// True for the three reverse networks.
    pub fn is_reverse(self) -> bool {
        matches!(
            self,
            Network::ReverseBaseline | Network::ReverseOmega | Network::ReverseCube
        )
    }
}

impl fmt::Display for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Network {
    type Err = MinError;
    /// The names of [`Network::name`], any case, `_` or a space for `-`; `indirect-cube`
    /// and `indirect-binary-cube` (and their reverses) for the cube.
    fn from_str(s: &str) -> Result<Self, MinError> {
        let key = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        let (reverse, base) = match key.strip_prefix("reverse-") {
            Some(rest) => (true, rest),
            None => (false, key.as_str()),
        };
        let net = match base {
            "baseline" => Network::Baseline,
            "omega" => Network::Omega,
            "cube" | "indirect-cube" | "indirect-binary-cube" => Network::Cube,
            _ => return Err(MinError::UnknownNetwork(s.to_string())),
        };
        Ok(if reverse { net.reverse() } else { net })
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

/// The unshuffle `π₀`, a one-bit circular right shift of `m` bits (inverse of [`shuffle`]).
pub fn unshuffle(m: u32, a: usize) -> usize {
    rotate_low_right(a, m)
}

/// `π_i⁻¹`: rotate the low `m-i` bits of `a` left by one (inverse of [`baseline_pi`]).
pub fn baseline_pi_inverse(m: u32, i: u32, a: usize) -> usize {
    let width = m - i;
    if width <= 1 {
        return a;
    }
    let mask = (1usize << width) - 1;
    let low = a & mask;
    let rotated = ((low << 1) | (low >> (width - 1))) & mask;
    (a & !mask) | rotated
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
            _ => pe,
        }
    }

    /// Where output position `a` of stage `stage` goes: the input position of stage
    /// `stage + 1`, or the PE number after the last stage (`a` itself, except for the
    /// reverse omega, whose last unshuffle is after its last stage).
    pub fn link(&self, stage: u32, a: usize) -> usize {
        let m = self.m;
        if stage + 1 == m {
            return match self.network {
                Network::ReverseOmega => unshuffle(m, a),
                _ => a,
            };
        }
        match self.network {
            Network::Baseline => baseline_pi(m, stage, a),
            Network::Omega => shuffle(m, a),
            Network::Cube => cube_tau(stage, a),
            Network::ReverseBaseline => baseline_pi_inverse(m, m - 2 - stage, a),
            Network::ReverseOmega => unshuffle(m, a),
            Network::ReverseCube => cube_tau(m - 2 - stage, a),
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
            let lsb_first: Vec<u32> = (0..m).collect();
            let tags = |net| Min::new(net, m).unwrap().tag_bits();
            assert_eq!(tags(Network::Baseline), msb_first);
            assert_eq!(tags(Network::Omega), msb_first);
            let cube: Vec<u32> = (0..m).map(|s| (s + 1) % m).collect();
            assert_eq!(tags(Network::Cube), cube);
            assert_eq!(tags(Network::ReverseBaseline), msb_first);
            assert_eq!(tags(Network::ReverseOmega), lsb_first);
            assert_eq!(tags(Network::ReverseCube), msb_first);
        }
    }

    #[test]
    fn reverse_links_are_the_inverse_forward_links_in_reverse_order() {
        for net in Network::FORWARD {
            for m in 1..=7 {
                let (fwd, rev) = (
                    Min::new(net, m).unwrap(),
                    Min::new(net.reverse(), m).unwrap(),
                );
                for a in 0..fwd.n() {
                    // Enter where the forward network leaves, leave through its entry⁻¹.
                    assert_eq!(rev.entry(fwd.link(m - 1, a)), a, "{net} m={m}");
                    assert_eq!(fwd.entry(rev.link(m - 1, a)), a, "{net} m={m}");
                    for s in 0..m - 1 {
                        assert_eq!(rev.link(s, fwd.link(m - 2 - s, a)), a, "{net} m={m} s={s}");
                    }
                }
            }
        }
        // π_i⁻¹ inverts π_i; the unshuffle inverts the shuffle.
        for i in 0..4 {
            for a in 0..32 {
                assert_eq!(baseline_pi_inverse(5, i, baseline_pi(5, i, a)), a);
            }
        }
        assert!((0..64).all(|a| unshuffle(6, shuffle(6, a)) == a));
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

    #[test]
    fn names_parse_back_with_the_spellings_a_user_would_try() {
        for net in Network::ALL {
            assert_eq!(net.name().parse::<Network>().unwrap(), net);
            assert_eq!(net.reverse().reverse(), net);
            assert_ne!(net.is_reverse(), net.reverse().is_reverse());
            assert!(!net.ident().contains('-'));
            let json = serde_json::to_string(&net).unwrap();
            assert_eq!(json, format!("\"{}\"", net.name()));
        }
        for (text, net) in [
            ("Reverse_Omega", Network::ReverseOmega),
            ("reverse baseline", Network::ReverseBaseline),
            ("indirect-binary-cube", Network::Cube),
            ("reverse-indirect-cube", Network::ReverseCube),
            (" OMEGA ", Network::Omega),
        ] {
            assert_eq!(text.parse::<Network>().unwrap(), net, "{text:?}");
        }
        for bad in [
            "",
            "reverse",
            "reverse-",
            "reverse-reverse-omega",
            "omega2",
            "benes",
        ] {
            let err = bad.parse::<Network>().unwrap_err().to_string();
            assert!(
                err.contains("reverse-baseline, reverse-omega or reverse-cube"),
                "{err}"
            );
        }
    }
}
