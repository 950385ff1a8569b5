//! Subcubes of a k-cube (Definition 5) and the resolution of the paper's off-by-one.
//!
//! **Definition 5 (as printed, kept):** for `f` in `0..=k`, an *f-subcube* is a set of
//! nodes whose addresses agree in bits `0..f-1`. There are `2^f` of them, each holding
//! `2^(k-f)` nodes; the 0-subcube is the whole cube, a k-subcube is a single node. The
//! f-subcube containing `x` is `{ (x mod 2^f) + r·2^f : 0 <= r < 2^(k-f) }`: its members are
//! **not contiguous** integers but spaced `2^f` apart, ordered by `r = x >> f`.
//!
//! **Loop `i` of Algorithm 2 works in (i+1)-subcubes.** At the start of loop `i` every
//! message agrees with its destination in bits `0..i-1` (it is in its correct
//! i-subcube, the paper's loop invariant). Step 1 crosses dimension `i`, after which
//! every message agrees with its destination in bits `0..=i`: it is in the correct
//! (i+1)-subcube. The counting argument of step 1 ("at least as many nodes with zero
//! messages as with two") holds in each (i+1)-subcube: the messages in it are exactly
//! those whose destinations lie in it, at most one per node. Steps 2–6 must stay inside
//! (i+1)-subcubes: if they only stayed inside i-subcubes (bits `0..i-1`) a packing could
//! move a message across dimension `i`, which later loops never cross again.
//!
//! So the paper's steps 2–6 "i-subcube" read **(i+1)-subcube** here, `l_{x,i}` is
//! [`lowest`]`(x, i+1)`, and the packing target of a node with 1-based enumeration `E`
//! is [`member`]`(x, i+1, E-1)` = `l_{x,i} + (E-1)·2^(i+1)`, not `l_{x,i} + E`: the
//! enumeration is 1-based (Definition 4) and the subcube's members are spaced
//! `2^(i+1)` apart.

/// Mask of the `f` low bits.
pub fn low_mask(f: usize) -> usize {
    (1usize << f) - 1
}

/// `l_x`: the lowest-numbered node of the f-subcube containing `x` (Definition 6 with
/// the subcube resolved as above: Algorithm 2's `l_{x,i}` is `lowest(x, i + 1)`).
pub fn lowest(x: usize, f: usize) -> usize {
    x & low_mask(f)
}

/// Position of `x` among the members of its f-subcube, in increasing address order.
pub fn rank_in_subcube(x: usize, f: usize) -> usize {
    x >> f
}

/// The member of rank `r` (0-based) of the f-subcube containing `x`.
pub fn member(x: usize, f: usize, r: usize) -> usize {
    lowest(x, f) | (r << f)
}

/// Whether `x` and `y` are in the same f-subcube (agree in bits `0..f-1`).
pub fn same_subcube(x: usize, y: usize, f: usize) -> bool {
    (x ^ y) & low_mask(f) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definition_5_counts() {
        let k = 4;
        for f in 0..=k {
            let mut ids: Vec<usize> = (0..1 << k).map(|x| lowest(x, f)).collect();
            ids.sort();
            ids.dedup();
            assert_eq!(ids.len(), 1 << f, "2^f subcubes");
            for &l in &ids {
                let size = (0..1 << k).filter(|&x| same_subcube(x, l, f)).count();
                assert_eq!(size, 1 << (k - f));
            }
        }
    }

    #[test]
    fn members_are_spaced_and_ordered() {
        // The 2-subcube of 6 in a 4-cube: bits 0..1 = 10b, i.e. {2, 6, 10, 14}.
        let m: Vec<usize> = (0..4).map(|r| member(6, 2, r)).collect();
        assert_eq!(m, vec![2, 6, 10, 14]);
        assert_eq!(rank_in_subcube(10, 2), 2);
        assert_eq!(lowest(14, 2), 2);
    }
}
