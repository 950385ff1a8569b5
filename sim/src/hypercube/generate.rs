//! Random routings for Algorithm 1: packings (Definition 2) and semi-contractions
//! (Definition 3), reproducible from a seeded generator; and the structured permutations
//! the tests route on every router (bit reversal, transpose).
//!
//! A semi-contraction is built as a random walk over the senders in address order:
//! by the triangle inequality, `|f(s_{i+1}) - f(s_i)| <= s_{i+1} - s_i` for consecutive
//! senders is enough (see [`super::semi::check_semi_contraction`]). Each step picks a
//! destination uniformly among the unused nodes within reach; if the walk gets stuck it
//! restarts, and after many restarts the last sender is dropped (the result is then a
//! semi-contraction on fewer senders, never an invalid one).

use crate::perm::{PartialPermutation, Permutation};
use rand::seq::{IteratorRandom, SliceRandom};
use rand::Rng;

/// A uniformly random subset of `0..n` of size `m`, sorted.
fn random_subset<R: Rng + ?Sized>(n: usize, m: usize, rng: &mut R) -> Vec<usize> {
    let mut s = (0..n).choose_multiple(rng, m);
    s.sort_unstable();
    s
}

/// A random packing on `2^k` nodes: a random number of senders, a random subset of
/// them, mapped in order onto a random interval.
pub fn random_packing<R: Rng + ?Sized>(k: usize, rng: &mut R) -> PartialPermutation {
    let n = 1usize << k;
    let m = rng.gen_range(1..=n);
    let srcs = random_subset(n, m, rng);
    let start = rng.gen_range(0..=n - m);
    let mut dst = vec![None; n];
    for (r, &s) in srcs.iter().enumerate() {
        dst[s] = Some(start + r);
    }
    PartialPermutation::new(dst).expect("a packing is injective")
}

/// A random semi-contraction on `2^k` nodes (see the module documentation).
pub fn random_semi_contraction<R: Rng + ?Sized>(k: usize, rng: &mut R) -> PartialPermutation {
    let n = 1usize << k;
    let m = rng.gen_range(1..=n);
    let mut srcs = random_subset(n, m, rng);
    loop {
        for _attempt in 0..64 {
            if let Some(dst) = walk(n, &srcs, rng) {
                let mut full = vec![None; n];
                for (&s, d) in srcs.iter().zip(dst) {
                    full[s] = Some(d);
                }
                return PartialPermutation::new(full).expect("the walk never reuses a node");
            }
        }
        srcs.pop();
    }
}

/// The bit reversal of `2^k` nodes: node `x` sends to `x` with its `k` address bits
/// reversed.
pub fn bit_reversal(k: usize) -> Permutation {
    let dst = (0..1usize << k)
        .map(|x| (0..k).fold(0, |acc, i| acc | ((x >> i) & 1) << (k - 1 - i)))
        .collect();
    Permutation::new(dst).expect("reversing the address bits is a bijection")
}

/// The transpose of `2^k` nodes seen as an `r × c` matrix in row-major order, `r =
/// 2^⌊k/2⌋`, `c = 2^⌈k/2⌉`: node `i·c + j` sends to `j·r + i` (for even `k`, the high
/// and low halves of the address swapped).
pub fn transpose(k: usize) -> Permutation {
    let (rb, cb) = (k / 2, k - k / 2);
    let dst = (0..1usize << k)
        .map(|x| ((x & ((1 << cb) - 1)) << rb) | (x >> cb))
        .collect();
    Permutation::new(dst).expect("the transpose of a matrix is a bijection")
}

/// Random `bits`-bit payloads for `n` PEs, pairwise distinct when `2^bits >= n` (so that
/// a delivered payload identifies its message).
pub fn random_payloads<R: Rng + ?Sized>(n: usize, bits: usize, rng: &mut R) -> Vec<u64> {
    let max = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    if bits < 64 && (n as u64) <= max + 1 {
        let mut seen = std::collections::HashSet::with_capacity(n);
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let v = rng.gen_range(0..=max);
            if seen.insert(v) {
                out.push(v);
            }
        }
        out
    } else {
        (0..n).map(|_| rng.gen_range(0..=max)).collect()
    }
}

fn walk<R: Rng + ?Sized>(n: usize, srcs: &[usize], rng: &mut R) -> Option<Vec<usize>> {
    let mut used = vec![false; n];
    let mut out: Vec<usize> = Vec::with_capacity(srcs.len());
    for (i, &s) in srcs.iter().enumerate() {
        let d = if i == 0 {
            rng.gen_range(0..n)
        } else {
            let reach = s - srcs[i - 1];
            let prev = out[i - 1];
            let lo = prev.saturating_sub(reach);
            let hi = (prev + reach).min(n - 1);
            let cands: Vec<usize> = (lo..=hi).filter(|&v| !used[v]).collect();
            *cands.choose(rng)?
        };
        used[d] = true;
        out.push(d);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hypercube::semi::{check_semi_contraction, is_packing, route_semi};
    use crate::rng::seeded;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn packings_are_packings_and_route_cleanly(k in 1usize..=6, seed: u64) {
            let r = random_packing(k, &mut seeded(seed));
            prop_assert!(is_packing(&r));
            prop_assert!(check_semi_contraction(&r).is_ok());
            prop_assert!(route_semi(k, &r).unwrap().delivers(&r));
        }

        #[test]
        fn semi_contractions_are_and_route_cleanly(k in 1usize..=6, seed: u64) {
            let r = random_semi_contraction(k, &mut seeded(seed));
            prop_assert!(r.senders() >= 1);
            prop_assert!(check_semi_contraction(&r).is_ok(), "{:?}", r);
            let out = route_semi(k, &r).unwrap();
            prop_assert!(out.delivers(&r), "{:?} {:?}", r, out.collisions);
        }
    }

    #[test]
    fn payloads_fit_and_are_distinct_when_possible() {
        let p = random_payloads(64, 6, &mut seeded(3));
        let mut q = p.clone();
        q.sort_unstable();
        q.dedup();
        assert_eq!(q.len(), 64);
        assert!(p.iter().all(|&v| v < 64));
        assert!(random_payloads(16, 2, &mut seeded(3))
            .iter()
            .all(|&v| v < 4));
        assert_eq!(random_payloads(3, 64, &mut seeded(1)).len(), 3);
    }

    #[test]
    fn generators_are_reproducible_and_not_only_packings() {
        assert_eq!(
            random_semi_contraction(5, &mut seeded(1)),
            random_semi_contraction(5, &mut seeded(1))
        );
        let non_packing = (0..50)
            .filter(|&s| !is_packing(&random_semi_contraction(4, &mut seeded(s))))
            .count();
        assert!(
            non_packing > 25,
            "only {non_packing} of 50 are not packings"
        );
    }

    #[test]
    fn bit_reversal_and_transpose_by_example() {
        assert_eq!(bit_reversal(3).as_slice(), &[0, 4, 2, 6, 1, 5, 3, 7]);
        // k = 4: a 4 x 4 matrix; node 1 (row 0, column 1) goes to 4 (row 1, column 0).
        let t = transpose(4);
        assert_eq!((t.dst(1), t.dst(4), t.dst(6), t.dst(15)), (4, 1, 9, 15));
        // k = 3: a 2 x 4 matrix, node i·4 + j to j·2 + i.
        assert_eq!(transpose(3).as_slice(), &[0, 2, 4, 6, 1, 3, 5, 7]);
        assert_eq!(bit_reversal(1).as_slice(), &[0, 1]);
        assert_eq!(transpose(1).as_slice(), &[0, 1]);
    }
}
