//! H-permutations (the paper's abstract: "every node sends at most H messages and
//! receives at most H messages") and their split into `H` batches, each a partial
//! permutation that Algorithm 2 routes (`docs/hypercube.md` §14).
//!
//! **The split.** The messages are the edges of a bipartite multigraph (senders on one
//! side, receivers on the other) of degree at most `H`; by König's theorem its edges can
//! be coloured with `H` colours so that no two edges at a vertex share one, and the
//! messages of one colour are a partial permutation. [`HPermutation::batches`] colours
//! them by alternating paths (the colouring R3 uses, `lcan::routing::r3::colour`),
//! deterministically in message order. The host does this split; the cube routes the
//! batches.
//!
//! **File format.** One line per PE, in PE order (blank lines and `#` comments are
//! skipped): the destinations of its messages, whitespace separated, or `-` for none.
//! Every violation names the line, the PE or the destination concerned.

use crate::lcan::routing::r3::colour::edge_colour;
use crate::perm::{PartialPermutation, Permutation};
use rand::Rng;

/// Why a text or a list is not an H-permutation of `0..n`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HPermError {
    /// `H` is 0 or above the limit.
    #[error("H = {h} is out of range: it must satisfy 1 <= H <= {max}")]
    HOutOfRange {
        /// The requested H.
        h: usize,
        /// The largest H accepted.
        max: usize,
    },
    /// The file has the wrong number of PE lines.
    #[error("expected {expected} lines (one per PE), found {found}")]
    WrongLength {
        /// Number of PEs.
        expected: usize,
        /// Lines found.
        found: usize,
    },
    /// A token is not a destination.
    #[error("line {line}: token '{token}' for PE {pe} is not a destination (a non-negative integer, or '-' alone for none)")]
    BadToken {
        /// 1-based line number.
        line: usize,
        /// The PE of the line.
        pe: usize,
        /// The token.
        token: String,
    },
    /// A destination is not in `0..n`.
    #[error("PE {pe}: destination {dst} is out of range 0..{n}")]
    OutOfRange {
        /// The sender.
        pe: usize,
        /// The destination.
        dst: usize,
        /// Number of PEs.
        n: usize,
    },
    /// A PE sends more than H messages.
    #[error("PE {pe} sends {count} messages, more than H = {h}")]
    SendsTooMany {
        /// The sender.
        pe: usize,
        /// Its messages.
        count: usize,
        /// H.
        h: usize,
    },
    /// A PE receives more than H messages.
    #[error("PE {pe} receives {count} messages, more than H = {h}")]
    ReceivesTooMany {
        /// The receiver.
        pe: usize,
        /// Messages sent to it.
        count: usize,
        /// H.
        h: usize,
    },
}

/// Largest `H` accepted (batches are counted in 8 bits by the quadratic cube).
pub const MAX_H: usize = 255;

/// Every message of an H-permutation on `n` PEs: `dests[p]` lists PE `p`'s destinations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HPermutation {
    h: usize,
    dests: Vec<Vec<usize>>,
}

impl HPermutation {
    /// Checks `1 <= h <= MAX_H`, every destination in range, at most `h` messages sent
    /// and received per PE.
    pub fn new(h: usize, dests: Vec<Vec<usize>>) -> Result<Self, HPermError> {
        if !(1..=MAX_H).contains(&h) {
            return Err(HPermError::HOutOfRange { h, max: MAX_H });
        }
        let n = dests.len();
        let mut received = vec![0usize; n];
        for (pe, ds) in dests.iter().enumerate() {
            if ds.len() > h {
                return Err(HPermError::SendsTooMany {
                    pe,
                    count: ds.len(),
                    h,
                });
            }
            for &dst in ds {
                if dst >= n {
                    return Err(HPermError::OutOfRange { pe, dst, n });
                }
                received[dst] += 1;
            }
        }
        if let Some(pe) = received.iter().position(|&c| c > h) {
            return Err(HPermError::ReceivesTooMany {
                pe,
                count: received[pe],
                h,
            });
        }
        Ok(Self { h, dests })
    }

    /// Parses the line format (module documentation) for `n` PEs and a given `h`.
    pub fn parse(text: &str, n: usize, h: usize) -> Result<Self, HPermError> {
        let mut dests = Vec::with_capacity(n);
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("");
            let tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.is_empty() {
                continue;
            }
            let pe = dests.len();
            if pe >= n {
                return Err(HPermError::WrongLength {
                    expected: n,
                    found: pe
                        + 1
                        + text
                            .lines()
                            .skip(i + 1)
                            .filter(|l| !l.split('#').next().unwrap_or("").trim().is_empty())
                            .count(),
                });
            }
            if tokens == ["-"] {
                dests.push(Vec::new());
                continue;
            }
            let mut ds = Vec::with_capacity(tokens.len());
            for t in tokens {
                let d = t
                    .parse::<usize>()
                    .ok()
                    .filter(|_| t.bytes().all(|b| b.is_ascii_digit()))
                    .ok_or_else(|| HPermError::BadToken {
                        line: i + 1,
                        pe,
                        token: t.chars().take(40).collect(),
                    })?;
                ds.push(d);
            }
            dests.push(ds);
        }
        if dests.len() != n {
            return Err(HPermError::WrongLength {
                expected: n,
                found: dests.len(),
            });
        }
        Self::new(h, dests)
    }

    /// `h` random permutations of `0..n` superposed: every PE sends and receives exactly
    /// `h` messages.
    pub fn random<R: Rng + ?Sized>(n: usize, h: usize, rng: &mut R) -> Result<Self, HPermError> {
        if !(1..=MAX_H).contains(&h) {
            return Err(HPermError::HOutOfRange { h, max: MAX_H });
        }
        let mut dests = vec![Vec::with_capacity(h); n];
        for _ in 0..h {
            let p = Permutation::random(n, rng);
            for (s, d) in dests.iter_mut().enumerate() {
                d.push(p.dst(s));
            }
        }
        Self::new(h, dests)
    }

    /// `H`.
    pub fn h(&self) -> usize {
        self.h
    }

    /// Number of PEs.
    pub fn len(&self) -> usize {
        self.dests.len()
    }

    /// Whether there are no PEs.
    pub fn is_empty(&self) -> bool {
        self.dests.is_empty()
    }

    /// `(sender, destination)` of every message, in PE order then line order.
    pub fn messages(&self) -> Vec<(usize, usize)> {
        self.dests
            .iter()
            .enumerate()
            .flat_map(|(s, ds)| ds.iter().map(move |&d| (s, d)))
            .collect()
    }

    /// The `H` batches: batch `c` holds the messages of colour `c` of a proper edge
    /// colouring. Returns the batches and, per message (in [`Self::messages`] order),
    /// its batch.
    pub fn batches(&self) -> (Vec<PartialPermutation>, Vec<usize>) {
        let n = self.len();
        let msgs = self.messages();
        let edges: Vec<(u32, u32)> = msgs.iter().map(|&(s, d)| (s as u32, d as u32)).collect();
        let colour = edge_colour(n, n, &edges, self.h)
            .expect("degrees were checked against H: a colouring with H colours exists");
        let mut dst = vec![vec![None; n]; self.h];
        for (&(s, d), &c) in msgs.iter().zip(&colour) {
            debug_assert!(dst[c as usize][s].is_none());
            dst[c as usize][s] = Some(d);
        }
        let batches = dst
            .into_iter()
            .map(|d| PartialPermutation::new(d).expect("a proper colouring class is injective"))
            .collect();
        (batches, colour.iter().map(|&c| c as usize).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::seeded;

    #[test]
    fn random_h_permutations_split_into_h_partial_permutations() {
        for (n, h) in [(4, 1), (8, 3), (16, 4), (32, 7)] {
            let hp = HPermutation::random(n, h, &mut seeded(h as u64)).unwrap();
            let (batches, of) = hp.batches();
            assert_eq!(batches.len(), h);
            for (i, &(s, d)) in hp.messages().iter().enumerate() {
                assert_eq!(batches[of[i]].dst(s), Some(d));
            }
            let routed: usize = batches.iter().map(|b| b.senders()).sum();
            assert_eq!(routed, n * h, "every message in exactly one batch");
        }
    }

    #[test]
    fn the_file_format_and_its_errors() {
        let hp = HPermutation::parse("1 2\n- # nothing\n\n0 0\n3\n", 4, 2).unwrap();
        assert_eq!(hp.messages(), vec![(0, 1), (0, 2), (2, 0), (2, 0), (3, 3)]);
        let (b, _) = hp.batches();
        assert_eq!(b.len(), 2);
        let e = |t: &str, h| HPermutation::parse(t, 4, h).unwrap_err().to_string();
        assert!(e("1 2 3\n-\n-\n-\n", 2).contains("PE 0 sends 3 messages, more than H = 2"));
        assert!(e("1\n1\n1\n-\n", 2).contains("PE 1 receives 3 messages, more than H = 2"));
        assert!(e("1\n-\n-\n", 2).contains("expected 4 lines (one per PE), found 3"));
        assert!(e("1\n-\n-\n-\n2\n", 2).contains("expected 4 lines (one per PE), found 5"));
        assert!(e("1\n- 2\n-\n-\n", 2).contains("line 2: token '-' for PE 1"));
        assert!(e("1\n+2\n-\n-\n", 2).contains("token '+2'"));
        assert!(e("1\n9\n-\n-\n", 2).contains("PE 1: destination 9 is out of range 0..4"));
        assert!(e("-\n-\n-\n-\n", 0).contains("1 <= H <= 255"));
    }
}
