//! Sort-then-pack (§VI): route any (partial) permutation by a bitonic sort of the
//! messages on the cube, then one pass of Algorithm 1 that unpacks the sorted messages
//! to their destinations (`docs/hypercube.md` §13).
//!
//! **The dimension order.** Theorem 1's pipeline and the quadratic cube both favour the
//! high dimensions: Algorithm 2 uses dimension `i` in `i + 1` loops. The textbook
//! bitonic sort on a hypercube uses dimension `d` in `k − d` stages (dimension 0 in
//! every one). Mirroring it (dimension `d` plays the role of `k − 1 − d`) makes it use
//! dimension `d` in `d + 1` stages, the paper's "the first dimension once, the second
//! twice": stage (pass) `s = 0..k-1` compare-exchanges across dimensions
//! `k−1−s, k−s, …, k−1`, in increasing order, so that a pass is an ascending pipeline
//! over its dimensions like a routing phase. The mirrored sort orders the nodes by their
//! **bit-reversed** addresses `X = rev(x)`: in stage `s`, the node of rank `X` keeps the
//! larger record iff bit `t` of `X` (the dimension crossed) XOR bit `s + 1` of `X` (a
//! descending block) is 1.
//!
//! **The key.** A node's record is what it streams, first bit most significant: `!va`
//! (empty nodes sort last), then its buffer A from the head: the destination LSB first
//! — the bit-reversed destination, most significant bit first — then the payload. So
//! the sort leaves the `m` messages at ranks `X = 0..m−1` ordered by `rev(dest)`: the
//! map `X → rev(dest)` is increasing, the reverse of a packing in the `X` coordinates,
//! which Algorithm 1 routes without collision when the `X` bits are crossed from the
//! most significant down, i.e. the real dimensions `0, 1, …, k−1`: one ordinary
//! ascending `semi` pass, nothing to pack first (the empty records sorted to the top
//! already packed the messages).
//!
//! **Timing.** Pass `s` has `s + 1` stages; each stage compares the two streams most
//! significant bit first and passes on the smaller or the larger one with one register
//! of delay. The record (`M + 1` bits) is driven at pass cycles `0..=M`, bit `q` reaches
//! the delivery register at `q + s + 2`: the pass lasts `M + s + 3` bit times, the
//! unpack `2k + L + 2`, so a run takes
//! `T = Σ_{s=0}^{k-1} (M + s + 3) + 2k + L + 2 = k(M + 3) + k(k − 1)/2 + 2k + L + 2`.

use super::semi::{route_frames, DimOrder, Frame};
use super::{messages, CubeParams, HypercubeError};
use crate::perm::PartialPermutation;

/// A node's record as it streams: `!va`, then A from its head (`M + 1` bits).
pub fn record(va: bool, a: &[bool]) -> Vec<bool> {
    let mut r = Vec::with_capacity(a.len() + 1);
    r.push(!va);
    r.extend_from_slice(a);
    r
}

/// Whether node `x` keeps the larger record at the stage of pass `s` (of `k`) that
/// crosses dimension `d`.
pub fn keeps_max(k: usize, s: usize, d: usize, x: usize) -> bool {
    let high = x >> d & 1 == 1;
    let descending = s + 1 < k && x >> (k - 2 - s) & 1 == 1;
    high ^ descending
}

/// The dimensions of pass `s` in the order they are crossed: `k−1−s ..= k−1`.
pub fn pass_dims(k: usize, s: usize) -> std::ops::Range<usize> {
    k - 1 - s..k
}

/// Pass `s` of the mirrored bitonic sort on `records` (one per node, compared
/// lexicographically, first bit most significant).
pub fn sort_pass(k: usize, s: usize, records: &mut [Vec<bool>]) {
    sort_pass_by(k, s, records, |r| r.clone());
}

/// Pass `s` on any items, compared by `key`.
pub fn sort_pass_by<T: Clone, K: Ord>(k: usize, s: usize, items: &mut [T], key: impl Fn(&T) -> K) {
    for d in pass_dims(k, s) {
        let prev = items.to_vec();
        for (x, r) in items.iter_mut().enumerate() {
            let (other, mine) = (key(&prev[x ^ (1 << d)]), key(&prev[x]));
            let take_other = if keeps_max(k, s, d, x) {
                other > mine
            } else {
                other < mine
            };
            if take_other {
                r.clone_from(&prev[x ^ (1 << d)]);
            }
        }
    }
}

/// Bit times of pass `s`: `M + s + 3`.
pub fn pass_len(p: CubeParams, s: usize) -> u64 {
    (p.message_bits() + s + 3) as u64
}

/// Bit times of a sort-then-pack run: `k(M + 3) + k(k − 1)/2 + 2k + L + 2`.
pub fn total(p: CubeParams) -> u64 {
    let (k, l, m) = (
        p.k() as u64,
        p.payload_bits() as u64,
        p.message_bits() as u64,
    );
    k * (m + 3) + k * (k - 1) / 2 + 2 * k + l + 2
}

/// The message-level outcome of sort-then-pack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SortOutcome {
    /// After the sort: the source of the message at each node.
    pub sorted: Vec<Option<usize>>,
    /// After the unpack: the source of the message at each node.
    pub placement: Vec<Option<usize>>,
}

/// Routes `routing` by sort-then-pack at the level of messages, checking that the sort
/// orders the messages by bit-reversed destination at the ranks `X = 0..m−1` and that
/// the unpacking never collides (a failure is a bug: [`HypercubeError::Bug`]).
pub fn route_sort(
    params: CubeParams,
    routing: &PartialPermutation,
) -> Result<SortOutcome, HypercubeError> {
    let k = params.k();
    let n = params.n();
    messages(params, routing, &vec![0; n])?;
    // Key: (!valid, rev(dest)); the source index breaks no tie (destinations differ).
    let rev = |v: usize| v.reverse_bits() >> (usize::BITS as usize - k);
    let mut recs: Vec<(Vec<bool>, Option<usize>)> = (0..n)
        .map(|x| {
            let d = routing.dst(x);
            let key = record(d.is_some(), &super::cycle::bits(d.unwrap_or(0), k));
            (key, d.map(|_| x))
        })
        .collect();
    for s in 0..k {
        sort_pass_by(k, s, &mut recs, |r| r.0.clone());
    }
    let sorted: Vec<Option<usize>> = recs.iter().map(|r| r.1).collect();
    let m = routing.senders();
    for r in 0..n {
        let src = sorted[rev(r)];
        if (r < m) != src.is_some() {
            return Err(HypercubeError::Bug(format!(
                "sort: rank {r} (node {}) holds {src:?} with {m} messages",
                rev(r)
            )));
        }
        if r > 0 && r < m {
            let prev = routing
                .dst(sorted[rev(r - 1)].expect("checked"))
                .expect("sender");
            let here = routing.dst(src.expect("checked")).expect("sender");
            if rev(prev) >= rev(here) {
                return Err(HypercubeError::Bug(format!(
                    "sort: ranks {} and {r} are out of order",
                    r - 1
                )));
            }
        }
    }
    let frames = (0..n)
        .map(|x| {
            sorted[x].map(|src| {
                let dest = routing.dst(src).expect("a sender");
                Frame::routed(k, DimOrder::Ascending, x, dest, vec![])
            })
        })
        .collect();
    let out = route_frames(k, DimOrder::Ascending, frames);
    if let Some(c) = out.collisions.first() {
        return Err(HypercubeError::Bug(format!(
            "sort: the unpacking collides: {c}"
        )));
    }
    let placement = out
        .arrivals
        .iter()
        .map(|f| f.as_ref().map(|f| sorted[f.sources[0]].expect("a message")))
        .collect();
    Ok(SortOutcome { sorted, placement })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perm::Permutation;
    use crate::rng::seeded;
    use proptest::prelude::*;
    use rand::Rng;

    #[test]
    fn dimension_d_is_used_d_plus_1_times() {
        for k in 1..=10 {
            for d in 0..k {
                let uses = (0..k).filter(|&s| pass_dims(k, s).contains(&d)).count();
                assert_eq!(uses, d + 1, "k = {k}, d = {d}");
            }
        }
    }

    #[test]
    fn the_mirrored_network_sorts_by_bit_reversed_rank() {
        let mut rng = seeded(3);
        for k in 1..=7 {
            let n = 1usize << k;
            for _ in 0..10 {
                let mut recs: Vec<Vec<bool>> = (0..n)
                    .map(|_| (0..6).map(|_| rng.gen_bool(0.5)).collect())
                    .collect();
                let mut want = recs.clone();
                want.sort();
                for s in 0..k {
                    sort_pass(k, s, &mut recs);
                }
                let rev = |v: usize| v.reverse_bits() >> (usize::BITS as usize - k);
                let got: Vec<Vec<bool>> = (0..n).map(|r| recs[rev(r)].clone()).collect();
                assert_eq!(got, want, "k = {k}");
            }
        }
    }

    #[test]
    fn the_unmirrored_order_would_sort_by_address_but_use_dimension_0_most() {
        // The textbook order (pass s crosses s, s-1, ..., 0) uses dimension 0 k times:
        // the mirror is what makes the sort fit the quadratic cube.
        let k = 4;
        let textbook_uses_dim0 = (0..k).filter(|&s| (0..=s).contains(&0)).count();
        assert_eq!(textbook_uses_dim0, k);
        assert_eq!((0..k).filter(|&s| pass_dims(k, s).contains(&0)).count(), 1);
    }

    #[test]
    fn totals() {
        let p = CubeParams::new(5, 8).unwrap();
        // Passes 16..=20 (M = 13), unpack 2k + L + 2 = 20.
        assert_eq!(total(p), 16 + 17 + 18 + 19 + 20 + 20);
        for k in 1..=12 {
            for l in [1, 8, 64] {
                let p = CubeParams::new(k, l).unwrap();
                let sum: u64 = (0..k).map(|s| pass_len(p, s)).sum::<u64>() + (2 * k + l + 2) as u64;
                assert_eq!(total(p), sum);
            }
        }
    }

    proptest! {
        #[test]
        fn routes_any_partial_permutation(k in 1usize..=7, seed: u64, density in 0.0f64..=1.0) {
            let mut rng = seeded(seed);
            let n = 1 << k;
            let perm = Permutation::random(n, &mut rng);
            let dst = (0..n).map(|s| rng.gen_bool(density).then(|| perm.dst(s))).collect();
            let r = PartialPermutation::new(dst).unwrap();
            let out = route_sort(CubeParams::new(k, 8).unwrap(), &r).unwrap();
            for (s, d) in r.pairs() {
                prop_assert_eq!(out.placement[d], Some(s));
            }
            prop_assert_eq!(out.placement.iter().flatten().count(), r.senders());
        }
    }
}
