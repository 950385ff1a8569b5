//! Enumeration (Definition 4) by Theorem 2's butterfly recurrences for `t` and `o`, on
//! the whole cube and restricted to every f-subcube (Algorithm 2 needs `E_{C,…}` for
//! every (i+1)-subcube `C`).
//!
//! # The recurrences, with the indices made consistent
//! As printed, rank `j` combines `x` with `x ⊕ 2^j` for `j = 1..k-1`: dimension 0 is
//! never crossed and rank `k-1` would count `2^(k-1)` nodes, not the cube. The proof's
//! own argument (the set counted at rank `j` is the union of two halves that are
//! counted at rank `j-1`, and the "low" half's offsets are unchanged) works when rank `j`
//! crosses **dimension `j-1`**, with `k+1` ranks `0..=k`:
//!
//! ```text
//! t_{0,x} = s(x)                 o_{0,x} = 0
//! t_{j,x} = t_{j-1,x} + t_{j-1,x⊕2^(j-1)}                          (1 <= j <= k)
//! o_{j,x} = o_{j-1,x}                          if bit j-1 of x is 0
//! o_{j,x} = o_{j-1,x} + t_{j-1,x⊕2^(j-1)}      if bit j-1 of x is 1
//! E_S(x)  = o_{k,x} + 1   for x in S
//! ```
//!
//! The set counted by `t_{r,x}` is the block of `2^r` **consecutive** nodes that agree
//! with `x` in bits `r..k-1` (the paper calls it "the (k-r)-subcube containing x", which
//! under Definition 5 would be the nodes agreeing in the *low* bits `0..k-r-1`). The
//! order matters for `o`: offsets count smaller *integers*, and only when the lower
//! half is a block of smaller integers does adding its total give the right offset;
//! combining the high dimensions first (Definition 5's subcubes) is wrong already for
//! `k = 2` (see the tests).
//!
//! # Restriction to f-subcubes
//! The f-subcube containing `x` (bits `0..f-1` fixed) is ordered by `x >> f`, so its
//! enumeration is the same butterfly over dimensions `f..k-1` only. The hardware keeps
//! all `k` ranks and lets ranks `1..=f` (dimensions `0..f-1`) pass `t` and `o` through
//! unchanged; [`butterfly`] does the same.

use serde::Serialize;

/// The values `t_{r,x}` and `o_{r,x}` at every rank `r = 0..=k` of the butterfly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Butterfly {
    /// `t[r][x]`: members of the set counted at rank `r` around `x`.
    pub t: Vec<Vec<usize>>,
    /// `o[r][x]`: members of that set numbered below `x`.
    pub o: Vec<Vec<usize>>,
}

/// Runs the `k + 1` ranks on the characteristic function `s` (length `2^k`); ranks that
/// would cross a dimension below `f` pass their values through (restriction to the
/// f-subcubes; `f = 0` is Theorem 2's enumeration of the whole cube).
///
/// # Panics
/// If `s.len() != 2^k` or `f > k` (programming errors: callers size `s` from the cube).
pub fn butterfly(k: usize, s: &[bool], f: usize) -> Butterfly {
    let n = 1usize << k;
    assert_eq!(s.len(), n, "one membership bit per node");
    assert!(f <= k, "subcube index f = {f} exceeds k = {k}");
    let mut t = vec![s.iter().map(|&b| usize::from(b)).collect::<Vec<_>>()];
    let mut o = vec![vec![0; n]];
    for j in 1..=k {
        let d = j - 1;
        let (tp, op) = (&t[j - 1], &o[j - 1]);
        let (tn, on): (Vec<usize>, Vec<usize>) = (0..n)
            .map(|x| {
                if d < f {
                    (tp[x], op[x])
                } else {
                    let other = tp[x ^ (1 << d)];
                    let high = x >> d & 1 == 1;
                    (tp[x] + other, if high { op[x] + other } else { op[x] })
                }
            })
            .unzip();
        t.push(tn);
        o.push(on);
    }
    Butterfly { t, o }
}

/// `E_S` (Definition 4, 1-based) for `S = { x : s(x) }` on the whole cube.
pub fn enumerate(k: usize, s: &[bool]) -> Vec<Option<usize>> {
    enumerate_subcubes(k, s, 0)
}

/// `E_{C ∩ S}` for every f-subcube `C` at once: for `x` in `S`, 1 + the number of
/// members of `S` in the f-subcube of `x` with a smaller address.
pub fn enumerate_subcubes(k: usize, s: &[bool], f: usize) -> Vec<Option<usize>> {
    let b = butterfly(k, s, f);
    (0..s.len()).map(|x| s[x].then(|| b.o[k][x] + 1)).collect()
}

/// The same numbers by direct counting (the reference for tests).
pub fn enumerate_direct(k: usize, s: &[bool], f: usize) -> Vec<Option<usize>> {
    let n = 1usize << k;
    (0..n)
        .map(|x| {
            s[x].then(|| {
                1 + (0..x)
                    .filter(|&y| s[y] && super::subcube::same_subcube(x, y, f))
                    .count()
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::seeded;
    use proptest::prelude::*;
    use rand::Rng;

    #[test]
    fn whole_cube_small_example() {
        // S = {1, 2, 5, 7} in a 3-cube.
        let s = [false, true, true, false, false, true, false, true];
        let e = enumerate(3, &s);
        assert_eq!(
            e,
            vec![None, Some(1), Some(2), None, None, Some(3), None, Some(4)]
        );
        let b = butterfly(3, &s, 0);
        assert!(b.t[3].iter().all(|&t| t == 4), "the last rank knows |S|");
    }

    #[test]
    fn random_sets_equal_direct_count() {
        let mut rng = seeded(5);
        for k in 1..=6 {
            for _ in 0..20 {
                let s: Vec<bool> = (0..1 << k).map(|_| rng.gen_bool(0.5)).collect();
                for f in 0..=k {
                    assert_eq!(
                        enumerate_subcubes(k, &s, f),
                        enumerate_direct(k, &s, f),
                        "k={k} f={f} s={s:?}"
                    );
                }
            }
        }
    }

    /// The recurrences exactly as printed: ranks 0..k-1, rank j crosses dimension j.
    fn literal_theorem2(k: usize, s: &[bool]) -> Vec<Option<usize>> {
        let n = 1 << k;
        let mut t: Vec<usize> = s.iter().map(|&b| usize::from(b)).collect();
        let mut o = vec![0; n];
        for j in 1..k {
            let tp = t.clone();
            for x in 0..n {
                let y = x ^ (1 << j);
                t[x] = tp[x] + tp[y];
                if x > y {
                    o[x] += tp[y];
                }
            }
        }
        (0..n).map(|x| s[x].then(|| o[x] + 1)).collect()
    }

    /// Definition 5's subcubes combined high dimension first (the printed "(k-r)-subcube").
    fn high_first(k: usize, s: &[bool]) -> Vec<Option<usize>> {
        let n = 1 << k;
        let mut t: Vec<usize> = s.iter().map(|&b| usize::from(b)).collect();
        let mut o = vec![0; n];
        for d in (0..k).rev() {
            let tp = t.clone();
            for x in 0..n {
                let y = x ^ (1 << d);
                t[x] = tp[x] + tp[y];
                if x > y {
                    o[x] += tp[y];
                }
            }
        }
        (0..n).map(|x| s[x].then(|| o[x] + 1)).collect()
    }

    #[test]
    fn the_printed_indices_do_not_enumerate() {
        // Nodes 0 and 1 differ only in dimension 0, which the printed ranks never cross.
        let s = [true, true, false, false];
        assert_eq!(enumerate(2, &s), vec![Some(1), Some(2), None, None]);
        assert_eq!(literal_theorem2(2, &s), vec![Some(1), Some(1), None, None]);
        // High-first combination: S = {1, 2}: node 2 is counted before node 1.
        let s = [false, true, true, false];
        assert_eq!(enumerate(2, &s), vec![None, Some(1), Some(2), None]);
        assert_eq!(high_first(2, &s), vec![None, Some(2), Some(1), None]);
    }

    proptest! {
        #[test]
        fn enumeration_matches_direct_count(k in 1usize..=6, f in 0usize..=6, seed: u64) {
            let f = f.min(k);
            let mut rng = seeded(seed);
            let p = rng.gen_range(0.0..=1.0);
            let s: Vec<bool> = (0..1 << k).map(|_| rng.gen_bool(p)).collect();
            prop_assert_eq!(enumerate_subcubes(k, &s, f), enumerate_direct(k, &s, f));
        }
    }
}
