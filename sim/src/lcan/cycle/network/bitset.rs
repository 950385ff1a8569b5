//! A set of small indices (switches, PEs) as bits of words: what the network model's fast
//! paths keep of who has work in a bit-time (`fabric.rs`, `model.rs`).

/// A set of indices below the size it was made for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct BitSet(Vec<u64>);

impl BitSet {
    /// The empty set of indices below `n`.
    pub(super) fn new(n: usize) -> Self {
        BitSet(vec![0; n.div_ceil(64)])
    }

    /// Puts `i` in the set or takes it out.
    pub(super) fn put(&mut self, i: usize, member: bool) {
        let m = 1u64 << (i % 64);
        if member {
            self.0[i / 64] |= m;
        } else {
            self.0[i / 64] &= !m;
        }
    }

    /// This set becomes `other` (of the same size).
    pub(super) fn copy_from(&mut self, other: &BitSet) {
        self.0.copy_from_slice(&other.0);
    }

    /// Adds the members of `other` (of the same size).
    pub(super) fn union_with(&mut self, other: &BitSet) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    /// Every index of the words (also those beyond the size: callers stop there).
    pub(super) fn fill(&mut self) {
        self.0.fill(u64::MAX);
    }

    /// The members, in increasing order.
    pub(super) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0
            .iter()
            .enumerate()
            .flat_map(|(i, &w)| Bits(w).map(move |b| i * 64 + b))
    }
}

/// The set bits of a word, lowest first.
struct Bits(u64);

impl Iterator for Bits {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let b = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            b
        })
    }
}
