//! The stimulus sequence (`docs/selftest.md` §2). A **permutation round** (LCA networks,
//! the hypercube): `n` messages (PE `k`'s is the low `M` bits of the `k`-th draw), then an
//! in-place Fisher–Yates shuffle of the destination table `perm` (PE `p` sends to
//! `perm[p]`), which starts as the identity at power-up and is never reset: each round
//! shuffles the previous round's permutation. An **exchange round** (MIN/ATAPE): `n²`
//! messages (message `j·n + q`, from PE `j` to PE `q`, is the low `B` bits of draw
//! `j·n + q`), then one draw whose low `m` bits are the round's row offset `c`. A
//! **packing round** (the hypercube's Algorithm 1): `n` draws, each giving PE `k`'s
//! message (low `L` bits) and whether it sends (bit 31); sender `k` goes to `s + r_k`,
//! `r_k` the number of senders below `k`, and the interval's start `s ∈ 0..=n−c` (`c`
//! senders) is drawn like a shuffle step, with rejection.
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
    /// `perm[p]`: PE `p`'s destination (permutation rounds); its rank among the senders
    /// (packing rounds: the destination is `offset + perm[p]`).
    pub perm: Vec<usize>,
    /// `send[p]`: PE `p` sends (packing rounds; empty otherwise: everyone sends).
    pub send: Vec<bool>,
    /// The row offset `c` (exchange rounds), the interval's start (packing rounds); 0
    /// otherwise.
    pub offset: usize,
    /// Generator draws this round took (messages, then shuffle or offset).
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

    /// The low `M` bits of a draw.
    fn mask(&self) -> u64 {
        if self.msg_bits >= 64 {
            u64::MAX
        } else {
            (1u64 << self.msg_bits) - 1
        }
    }

    /// `count` messages, one draw each.
    fn messages(&mut self, count: usize) -> Vec<u64> {
        let mask = self.mask();
        (0..count)
            .map(|_| u64::from(self.rng.draw()) & mask)
            .collect()
    }

    /// The next permutation round.
    pub fn next_round(&mut self) -> Round {
        let n = self.perm.len();
        let msgs = self.messages(n);
        let mut draws = n as u64;
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
            send: Vec::new(),
            offset: 0,
            draws,
        }
    }

    /// The next packing round.
    pub fn next_packing(&mut self) -> Round {
        let n = self.perm.len();
        let mask = self.mask();
        let (mut msgs, mut send, mut perm) = (Vec::new(), Vec::new(), Vec::new());
        let mut count = 0;
        for _ in 0..n {
            let r = self.rng.draw();
            msgs.push(u64::from(r) & mask);
            perm.push(count);
            send.push(r >> 31 == 1);
            count += usize::from(r >> 31 == 1);
        }
        let mut draws = n as u64;
        let room = (n - count) as u32;
        let offset = loop {
            draws += 1;
            let j = self.rng.draw() & smear(room);
            if j <= room {
                break j as usize;
            }
        };
        Round {
            msgs,
            perm,
            send,
            offset,
            draws,
        }
    }

    /// The next exchange round on `n = 2^m` PEs (`perm` is left alone).
    pub fn next_exchange(&mut self, m: u32) -> Round {
        let n = 1usize << m;
        let msgs = self.messages(n * n);
        let offset = self.rng.draw() as usize & (n - 1);
        Round {
            msgs,
            perm: Vec::new(),
            send: Vec::new(),
            offset,
            draws: (n * n) as u64 + 1,
        }
    }
}
