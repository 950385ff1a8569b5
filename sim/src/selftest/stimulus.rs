//! The stimulus sequence (`docs/selftest.md` §2): per round, `n` messages (PE `k`'s is the
//! low `M` bits of the `k`-th draw), then an in-place Fisher–Yates shuffle of the
//! destination table `perm` (PE `p` sends to `perm[p]`), which starts as the identity at
//! power-up and is never reset: each round shuffles the previous round's permutation.
//!
//! Shuffle step `i = n−1, …, 1`: draw `r`, `j = r & smear(i)` (`smear(i)`: every bit at or
//! below `i`'s highest set bit); if `j ≤ i` swap `perm[i]` and `perm[j]` and go on with
//! `i − 1`, otherwise reject (keep `i`, draw again). Every `j ∈ 0..=i` is equally likely, so
//! every permutation is (up to the generator's quality).

use super::xorshift::Xorshift32;

/// One round's stimulus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// `msgs[p]`: PE `p`'s message.
    pub msgs: Vec<u64>,
    /// `perm[p]`: PE `p`'s destination.
    pub perm: Vec<usize>,
    /// Generator draws this round took (`n` for the messages + shuffle draws).
    pub draws: u64,
}

/// `x` with every bit below its highest set bit set.
pub fn smear(x: u32) -> u32 {
    let mut s = x;
    let mut k = 1;
    while k < 32 {
        s |= s >> k;
        k <<= 1;
    }
    s
}

/// The generator of rounds: the xorshift32 state and the destination table.
#[derive(Debug, Clone)]
pub struct StimulusGen {
    rng: Xorshift32,
    perm: Vec<usize>,
    msg_bits: usize,
}

impl StimulusGen {
    /// The power-up state: the generator at `seed`, `perm` the identity on `n` PEs.
    pub fn new(seed: u32, n: usize, msg_bits: usize) -> Self {
        StimulusGen {
            rng: Xorshift32::new(seed),
            perm: (0..n).collect(),
            msg_bits,
        }
    }

    /// The next round.
    pub fn next_round(&mut self) -> Round {
        let n = self.perm.len();
        let mask = if self.msg_bits >= 64 {
            u64::MAX
        } else {
            (1u64 << self.msg_bits) - 1
        };
        let mut draws = 0u64;
        let mut msgs = Vec::with_capacity(n);
        for _ in 0..n {
            msgs.push(u64::from(self.rng.draw()) & mask);
            draws += 1;
        }
        let mut i = n - 1;
        while i >= 1 {
            let r = self.rng.draw();
            draws += 1;
            let j = (r & smear(i as u32)) as usize;
            if j <= i {
                self.perm.swap(i, j);
                i -= 1;
            }
        }
        Round {
            msgs,
            perm: self.perm.clone(),
            draws,
        }
    }
}
