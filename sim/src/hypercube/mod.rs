//! Kuszmaul's pipelined bit-serial hypercube routing (seed 001): Algorithm 1,
//! enumeration by the butterfly prefix, and Algorithm 2.
//!
//! Two levels of golden model, both written from the paper and from
//! `docs/hypercube.md` (the bit-level protocol), never from the RTL:
//!
//! - **Algorithm level.** [`subcube`] (Definition 5 and the resolution of the paper's
//!   off-by-one), [`semi`] (Algorithm 1 with a collision check, semi-contractions and
//!   packings), [`enumerate`] (Theorem 2's butterfly recurrences for `t` and `o`, on the
//!   whole cube and restricted to every subcube), [`alg2`] (Algorithm 2 with its
//!   invariants checked at every loop), [`sort`] (sort-then-pack: the mirrored bitonic
//!   sort and the unpacking), [`hperm`] (H-permutations and their split into batches),
//!   [`generate`] (random packings and semi-contractions).
//! - **Bit-time level.** [`timing`] (phase lengths and bit-time accounting of the
//!   protocol, the sequential schedule), [`overlap`] (the overlapped schedule of
//!   Algorithm 2), [`cycle`] (the cycle-level model: every node-facing output at every
//!   bit time, for every algorithm, built by replaying the protocol's frames through the
//!   algorithm-level models), [`quad`] (the quadratic cube: periods, batches, its
//!   cycle-level model) and [`qsort`] (sort-then-pack pipelined on the quadratic cube).
//!
//! # The off-by-one, resolved
//! Definition 5 calls *i-subcube* a set of nodes sharing bits `0..i-1` (there are `2^i`).
//! In loop `i` of Algorithm 2, crossing dimension `i` makes every message agree with
//! its destination in bits `0..=i`: it is then in the correct **(i+1)-subcube**, and
//! steps 2–6 must enumerate, pack and rendezvous inside (i+1)-subcubes (bits `0..=i`
//! fixed). Packing inside the i-subcube as printed could move a message across
//! dimension `i`, which is never crossed again (see [`alg2`], whose tests exhibit such a
//! permutation). The loop invariant "at the beginning of loop `i` every message is in
//! the correct i-subcube" then holds with Definition 5 as printed. In Theorem 2, rank
//! `j ≥ 1` must cross dimension `j-1` (not `j`) and there are `k+1` ranks `0..=k`; the
//! set counted by `t_{r,x}` is the block of `2^r` nodes agreeing with `x` in bits
//! `r..k-1`. Details and arguments: [`subcube`], [`enumerate`] and `docs/hypercube.md`.

pub mod alg2;
pub mod cycle;
pub mod enumerate;
pub mod generate;
pub mod hperm;
pub mod overlap;
pub mod qsort;
pub mod quad;
pub mod semi;
pub mod sort;
pub mod subcube;
pub mod timing;

use serde::Serialize;

/// Largest cube dimension the golden models accept (`2^16` nodes).
pub const MAX_K: usize = 16;
/// Largest payload width, in bits (payloads are carried as `u64`).
pub const MAX_PAYLOAD_BITS: usize = 64;

/// Why a hypercube routing problem was rejected, or (for [`HypercubeError::Bug`]) a
/// violated invariant that points at lcanet itself.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HypercubeError {
    /// `k` is outside `1..=MAX_K`.
    #[error("k = {k} is out of range: the cube dimension must satisfy 1 <= k <= {max}")]
    KOutOfRange {
        /// The requested dimension.
        k: usize,
        /// The largest dimension accepted here.
        max: usize,
    },
    /// The payload width is outside `1..=MAX_PAYLOAD_BITS`.
    #[error("payload width {bits} is out of range: it must satisfy 1 <= payload bits <= {max}")]
    PayloadBitsOutOfRange {
        /// The requested width.
        bits: usize,
        /// The largest width accepted.
        max: usize,
    },
    /// The routing does not have one entry per node.
    #[error("the routing has {found} PEs but a {k}-cube has {n} nodes")]
    SizeMismatch {
        /// Cube dimension.
        k: usize,
        /// Number of nodes, `2^k`.
        n: usize,
        /// Number of PEs in the routing.
        found: usize,
    },
    /// The payload list does not have one entry per node.
    #[error("{found} payloads given for {n} nodes (one per node is required)")]
    PayloadCount {
        /// Number of nodes.
        n: usize,
        /// Number of payloads given.
        found: usize,
    },
    /// A payload does not fit in the payload width.
    #[error("node {node}: payload {payload:#x} does not fit in {bits} bits")]
    PayloadTooWide {
        /// The sending node.
        node: usize,
        /// The payload value.
        payload: u64,
        /// The payload width.
        bits: usize,
    },
    /// An invariant of the paper's algorithms failed: this is a bug in lcanet.
    #[error("internal error (a bug in lcanet, not in your input): {0}")]
    Bug(String),
}

/// Parameters of a k-cube of bit-serial routers: dimension `k` and payload width `L`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CubeParams {
    k: usize,
    payload_bits: usize,
}

impl CubeParams {
    /// Validates `1 <= k <= MAX_K` and `1 <= payload_bits <= MAX_PAYLOAD_BITS`.
    pub fn new(k: usize, payload_bits: usize) -> Result<Self, HypercubeError> {
        if !(1..=MAX_K).contains(&k) {
            return Err(HypercubeError::KOutOfRange { k, max: MAX_K });
        }
        if !(1..=MAX_PAYLOAD_BITS).contains(&payload_bits) {
            return Err(HypercubeError::PayloadBitsOutOfRange {
                bits: payload_bits,
                max: MAX_PAYLOAD_BITS,
            });
        }
        Ok(Self { k, payload_bits })
    }

    /// Cube dimension `k`.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Number of nodes `N = 2^k`.
    pub fn n(&self) -> usize {
        1 << self.k
    }

    /// Payload width `L` in bits.
    pub fn payload_bits(&self) -> usize {
        self.payload_bits
    }

    /// Length `M = k + L` of a stored message (destination, then payload).
    pub fn message_bits(&self) -> usize {
        self.k + self.payload_bits
    }

    /// Message buffer bits per node: buffers A and B (`M` bits each) and the
    /// enumeration/rendezvous register E (`k` bits) — `O(k)` for `L = O(k)`.
    pub fn buffer_bits_per_node(&self) -> usize {
        2 * self.message_bits() + self.k
    }
}

/// A message: where it started, where it goes, and its payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Message {
    /// The node that sent it (the PE's own address).
    pub src: usize,
    /// Its destination node.
    pub dest: usize,
    /// Its payload (`L` bits).
    pub payload: u64,
}

/// Builds the per-node messages of `routing` with `payloads[src]`, checking sizes and
/// payload widths.
pub fn messages(
    params: CubeParams,
    routing: &crate::perm::PartialPermutation,
    payloads: &[u64],
) -> Result<Vec<Option<Message>>, HypercubeError> {
    let n = params.n();
    if routing.len() != n {
        return Err(HypercubeError::SizeMismatch {
            k: params.k(),
            n,
            found: routing.len(),
        });
    }
    if payloads.len() != n {
        return Err(HypercubeError::PayloadCount {
            n,
            found: payloads.len(),
        });
    }
    let bits = params.payload_bits();
    (0..n)
        .map(|src| {
            let Some(dest) = routing.dst(src) else {
                return Ok(None);
            };
            let payload = payloads[src];
            if bits < 64 && payload >> bits != 0 {
                return Err(HypercubeError::PayloadTooWide {
                    node: src,
                    payload,
                    bits,
                });
            }
            Ok(Some(Message { src, dest, payload }))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_are_validated() {
        assert!(CubeParams::new(0, 8).is_err());
        assert!(CubeParams::new(MAX_K + 1, 8).is_err());
        assert!(CubeParams::new(3, 0).is_err());
        assert!(CubeParams::new(3, 65).is_err());
        let p = CubeParams::new(3, 8).unwrap();
        assert_eq!(
            (p.n(), p.message_bits(), p.buffer_bits_per_node()),
            (8, 11, 25)
        );
        let e = CubeParams::new(17, 8).unwrap_err();
        assert!(e.to_string().contains("1 <= k <= 16"));
    }

    #[test]
    fn messages_check_sizes_and_widths() {
        let p = CubeParams::new(2, 4).unwrap();
        let r = crate::perm::PartialPermutation::parse("1 - 0 3", 4).unwrap();
        let m = messages(p, &r, &[1, 2, 3, 4]).unwrap();
        assert_eq!(m[1], None);
        assert_eq!(
            m[2],
            Some(Message {
                src: 2,
                dest: 0,
                payload: 3
            })
        );
        let e = messages(p, &r, &[1, 2, 16, 4]).unwrap_err();
        assert!(e
            .to_string()
            .contains("node 2: payload 0x10 does not fit in 4 bits"));
        assert!(messages(p, &r, &[1, 2]).is_err());
        let r8 = crate::perm::PartialPermutation::parse("0 1 2 3 4 5 6 7", 8).unwrap();
        assert!(matches!(
            messages(p, &r8, &[0; 8]),
            Err(HypercubeError::SizeMismatch { .. })
        ));
    }
}
