//! Bit-time accounting of the protocol of `docs/hypercube.md` §4–§6: phase lengths,
//! the sequential controller's schedule, and the closed forms of every algorithm (the
//! overlapped schedule of Algorithm 2 is [`super::overlap`], sort-then-pack
//! [`super::sort`]).
//!
//! Times are **bit times** (clock cycles) counted from the cycle in which `start` is
//! sampled, `t = 0` (the load cycle). The first phase begins at `t = 1`; a phase of
//! length `len` occupies phase cycles `c = 0..len-1`. After the last phase `done` rises
//! and the `bit_time` output holds the number of phase cycles, [`total_bit_times`]:
//!
//! - `semi`: one routing phase, `2k + L + 2 = k + (k + L) + 2` bit times: `k` stages of
//!   pipeline, a message of `k + L` bits (relative address, payload), plus 2 (start bit
//!   and injection register);
//! - `full-sequential` (the paper's schedule, every phase after the other, every loop
//!   through all `k` dimensions): `k` loops of six phases, `k·(14k + 3L + 9)` bit times:
//!   `14` in front of `k²` for a fixed payload, `17` when `L = k`;
//! - `full` (the overlapped schedule, [`super::overlap::total`]) and `sort`
//!   ([`super::sort::total`]).

use super::semi::DimOrder;
use super::CubeParams;
use serde::Serialize;

/// Which algorithm a cube runs (and, for Algorithm 2, with which schedule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// Algorithm 1 on the given routing (a semi-contraction or packing).
    Semi,
    /// Algorithm 2 on any (partial) permutation, overlapped schedule
    /// (`docs/hypercube.md` §12): phases overlap where the data allow, loop `i` only
    /// walks dimensions `i+1..k-1`.
    Full,
    /// Algorithm 2 with the paper's sequential schedule: six phases one after the
    /// other, every loop through all `k` dimensions (`docs/hypercube.md` §5–§6).
    FullSequential,
    /// Sort-then-pack (§VI): a pipelined bitonic sort on the cube, then the sorted
    /// messages unpacked to their destinations (`docs/hypercube.md` §13).
    Sort,
}

impl Algorithm {
    /// Every algorithm, in the order reports list them.
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Semi,
        Algorithm::Full,
        Algorithm::FullSequential,
        Algorithm::Sort,
    ];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Semi => "semi",
            Algorithm::Full => "full",
            Algorithm::FullSequential => "full-sequential",
            Algorithm::Sort => "sort",
        }
    }

    /// Whether it routes any (partial) permutation (all but Algorithm 1).
    pub fn routes_any_permutation(self) -> bool {
        self != Algorithm::Semi
    }
}

/// The controller's phases (`docs/hypercube.md` §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Phase {
    /// Algorithm 1 on the PEs' messages (routing, ascending).
    Semi,
    /// Algorithm 2 step 1: cross dimension `i`.
    Cross,
    /// Step 2: enumerate double nodes.
    EnumDoubles,
    /// Step 3: pack the B messages of double nodes (routing, ascending).
    PackDoubles,
    /// Step 4: enumerate empty nodes.
    EnumEmpties,
    /// Step 5: empty nodes send their addresses (routing, ascending).
    PackEmpties,
    /// Step 6: rendezvous (routing, descending).
    Rendezvous,
    /// A pass of the bitonic sort of sort-then-pack (its index in the record's `dim`).
    SortPass,
}

/// The six phases of one loop of Algorithm 2, in order.
pub const LOOP_PHASES: [Phase; 6] = [
    Phase::Cross,
    Phase::EnumDoubles,
    Phase::PackDoubles,
    Phase::EnumEmpties,
    Phase::PackEmpties,
    Phase::Rendezvous,
];

/// Length of a routing phase whose frames carry `body` bits after the address.
pub fn routing_len(k: usize, body: usize) -> u64 {
    (2 * k + body + 2) as u64
}

/// Phase cycle at which the delivery register holds a frame's start bit (`2k + 1`);
/// body bit `p` follows at `2k + 2 + p`.
pub fn delivery_start(k: usize) -> u64 {
    (2 * k + 1) as u64
}

/// Phase cycle from which a node's collision flag reads 1 when two frames meet there
/// after the dimension switched at step `j` of the order (`3 + 2j`).
pub fn collision_visible(j: usize) -> u64 {
    (3 + 2 * j) as u64
}

impl Phase {
    /// Bits after the address in this phase's frames (routing phases only).
    pub fn body_bits(self, p: CubeParams) -> Option<usize> {
        match self {
            Phase::Semi => Some(p.payload_bits()),
            Phase::PackDoubles | Phase::Rendezvous => Some(p.message_bits()),
            Phase::PackEmpties => Some(p.k()),
            _ => None,
        }
    }

    /// Dimension order of a routing phase.
    pub fn order(self) -> Option<DimOrder> {
        match self {
            Phase::Semi | Phase::PackDoubles | Phase::PackEmpties => Some(DimOrder::Ascending),
            Phase::Rendezvous => Some(DimOrder::Descending),
            _ => None,
        }
    }

    /// Number of bit times the phase lasts in the sequential controller (for
    /// [`Phase::SortPass`], the longest pass, `s = k − 1`: pass `s` lasts
    /// [`super::sort::pass_len`]).
    pub fn len(self, p: CubeParams) -> u64 {
        match self {
            Phase::Cross => (p.message_bits() + 1) as u64,
            Phase::EnumDoubles | Phase::EnumEmpties => (2 * p.k() + 1) as u64,
            Phase::SortPass => super::sort::pass_len(p, p.k() - 1),
            _ => routing_len(p.k(), self.body_bits(p).unwrap_or(0)),
        }
    }
}

/// A phase placed in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ScheduledPhase {
    /// Which phase.
    pub phase: Phase,
    /// The loop (dimension `i`) of Algorithm 2, `None` for `semi`.
    pub dim: Option<usize>,
    /// Bit time `t` of its phase cycle 0.
    pub start: u64,
    /// Its length.
    pub len: u64,
}

/// Every phase of a run of the sequential controller (`semi` when `alg` is
/// [`Algorithm::Semi`], the six phases of every loop otherwise), in order.
pub fn schedule(p: CubeParams, alg: Algorithm) -> Vec<ScheduledPhase> {
    let phases: Vec<(Phase, Option<usize>)> = match alg {
        Algorithm::Semi => vec![(Phase::Semi, None)],
        _ => (0..p.k())
            .flat_map(|i| LOOP_PHASES.iter().map(move |&ph| (ph, Some(i))))
            .collect(),
    };
    let mut t = 1;
    phases
        .into_iter()
        .map(|(phase, dim)| {
            let len = phase.len(p);
            let s = ScheduledPhase {
                phase,
                dim,
                start: t,
                len,
            };
            t += len;
            s
        })
        .collect()
}

/// Bit times of a run (the `bit_time` output once `done` is high).
pub fn total_bit_times(p: CubeParams, alg: Algorithm) -> u64 {
    let (k, l) = (p.k() as u64, p.payload_bits() as u64);
    match alg {
        Algorithm::Semi => 2 * k + l + 2,
        Algorithm::FullSequential => k * (14 * k + 3 * l + 9),
        Algorithm::Full => super::overlap::total(p),
        Algorithm::Sort => super::sort::total(p),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_forms_match_the_schedule() {
        for k in 1..=10 {
            for l in [1, 4, 8, 32] {
                let p = CubeParams::new(k, l).unwrap();
                for alg in [Algorithm::Semi, Algorithm::FullSequential] {
                    let s = schedule(p, alg);
                    let last = s.last().unwrap();
                    assert_eq!(last.start + last.len - 1, total_bit_times(p, alg));
                }
            }
        }
        let p = CubeParams::new(3, 8).unwrap();
        assert_eq!(total_bit_times(p, Algorithm::Semi), 3 + (3 + 8) + 2);
        // Per loop: (M+1) + (2k+1) + (2k+M+2) + (2k+1) + (3k+2) + (2k+M+2) = 3M + 11k + 9.
        let m = 11;
        assert_eq!(
            total_bit_times(p, Algorithm::FullSequential),
            3 * (3 * m + 33 + 9)
        );
    }
}
