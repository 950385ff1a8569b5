//! The bit-serial frame and the description of one run (docs/min.md §2–4).
//!
//! A frame is `F = m + B` bit-times on one wire: positions `0..m` carry the routing
//! tag (position `s` is the destination bit stage `s` consumes, [`Min::tag_bit`]),
//! positions `m..F` carry the `B` payload bits, payload bit 0 first. An idle wire
//! carries 0. Frames follow each other with no gap.
//!
//! Payloads are pseudo-random and reproducible: bit `k` of the message from PE `src`
//! to PE `dst` is a fixed function of the run's seed ([`Payloads`]), so a payload of
//! any size needs no table.

use super::{Min, MinError};
use crate::perm::Permutation;
use crate::rng::{derive, splitmix64};

/// The largest payload length `B` in bits (the hardware's position counter is 16 bits
/// wide, and `F = m + B` must fit it).
pub const MAX_MESSAGE_BITS: u32 = 4096;

/// Frame layout: `m` tag bits then `B` payload bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct FrameFormat {
    /// Tag bits, one per stage.
    pub m: u32,
    /// Payload bits `B`.
    pub message_bits: u32,
}

impl FrameFormat {
    /// Validates `1 ≤ B ≤ MAX_MESSAGE_BITS`.
    pub fn new(min: &Min, message_bits: u32) -> Result<Self, MinError> {
        if message_bits == 0 || message_bits > MAX_MESSAGE_BITS {
            return Err(MinError::MessageBitsOutOfRange {
                bits: message_bits,
                max: MAX_MESSAGE_BITS,
            });
        }
        Ok(Self {
            m: min.m(),
            message_bits,
        })
    }

    /// Frame length `F = m + B` in bit-times.
    pub fn len(&self) -> usize {
        (self.m + self.message_bits) as usize
    }

    /// Never true: a frame has at least one tag bit and one payload bit.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Bit at `pos` of the frame carrying `payload` to `dst` on `min`.
    pub fn bit(&self, min: &Min, dst: usize, pos: usize, payload: impl Fn(usize) -> bool) -> bool {
        if pos < self.m as usize {
            (dst >> min.tag_bit(pos as u32)) & 1 == 1
        } else {
            payload(pos - self.m as usize)
        }
    }
}

/// The reproducible payloads of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Payloads {
    key: u64,
    n: usize,
    bits: u32,
}

impl Payloads {
    /// Payloads of `bits` bits between `n` PEs, derived from `seed`.
    pub fn new(seed: u64, n: usize, bits: u32) -> Self {
        Self {
            key: derive(seed, "min-payload"),
            n,
            bits,
        }
    }

    /// Payload length in bits.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// 64-bit word `w` of the message `src → dst`.
    pub fn word(&self, src: usize, dst: usize, w: usize) -> u64 {
        let words = self.bits.div_ceil(64) as u64;
        let index = ((src * self.n + dst) as u64) * words + w as u64;
        splitmix64(self.key ^ splitmix64(index))
    }

    /// Bit `k` of the message `src → dst`.
    pub fn bit(&self, src: usize, dst: usize, k: usize) -> bool {
        (self.word(src, dst, k / 64) >> (k % 64)) & 1 == 1
    }

    /// The whole message `src → dst`, bit 0 first.
    pub fn message(&self, src: usize, dst: usize) -> Vec<bool> {
        (0..self.bits as usize)
            .map(|k| self.bit(src, dst, k))
            .collect()
    }
}

/// How many frames a run sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Frames {
    /// `n` frames: algorithm ATAPE, frame `i` = row `i` of the Latin square.
    Atape,
    /// One frame: the single permutation given as the first row.
    Single,
}

/// Everything that determines a run: network, frame format, first row (each PE's
/// first destination, loaded at start), frames, payload seed and start bit-time.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The network.
    pub min: Min,
    /// The frame layout.
    pub format: FrameFormat,
    /// `first.dst(j)` is PE `j`'s destination in frame 0.
    pub first: Permutation,
    /// ATAPE (`n` frames) or a single permutation.
    pub frames: Frames,
    /// Seed of the payloads.
    pub seed: u64,
    /// The bit-time at which `start` is asserted (reset is asserted before it).
    pub t_start: u64,
}

impl RunConfig {
    /// ATAPE on `min` with the network's own Latin square (first row `π`, `I` or `τ`).
    pub fn atape(min: Min, message_bits: u32, seed: u64) -> Result<Self, MinError> {
        Ok(Self {
            format: FrameFormat::new(&min, message_bits)?,
            first: super::first_row(&min),
            min,
            frames: Frames::Atape,
            seed,
            t_start: 1,
        })
    }

    /// One frame carrying the permutation `perm`.
    pub fn single(
        min: Min,
        perm: Permutation,
        message_bits: u32,
        seed: u64,
    ) -> Result<Self, MinError> {
        if perm.len() != min.n() {
            return Err(MinError::WrongSize {
                what: "the permutation",
                found: perm.len(),
                n: min.n(),
            });
        }
        Ok(Self {
            format: FrameFormat::new(&min, message_bits)?,
            first: perm,
            min,
            frames: Frames::Single,
            seed,
            t_start: 1,
        })
    }

    /// Number of frames `N` (n or 1).
    pub fn frame_count(&self) -> usize {
        match self.frames {
            Frames::Atape => self.min.n(),
            Frames::Single => 1,
        }
    }

    /// The payloads of this run.
    pub fn payloads(&self) -> Payloads {
        Payloads::new(self.seed, self.min.n(), self.format.message_bits)
    }

    /// `t0`: the bit-time frame 0, position 0 enters the network.
    pub fn t0(&self) -> u64 {
        self.t_start + 1
    }

    /// Bit-times from the first frame bit entering to the last leaving:
    /// `N·F + m` (the protocol has no idle bit-time).
    pub fn exchange_bit_times(&self) -> u64 {
        (self.frame_count() * self.format.len()) as u64 + u64::from(self.min.m())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::min::Network;

    #[test]
    fn payloads_are_reproducible_and_distinct() {
        let p = Payloads::new(5, 8, 100);
        assert_eq!(p.message(1, 2), Payloads::new(5, 8, 100).message(1, 2));
        assert_ne!(p.message(1, 2), p.message(2, 1));
        assert_ne!(p.message(1, 2), Payloads::new(6, 8, 100).message(1, 2));
        assert_eq!(p.message(3, 3).len(), 100);
    }

    #[test]
    fn formats_are_validated() {
        let min = Min::new(Network::Omega, 3).unwrap();
        assert_eq!(FrameFormat::new(&min, 8).unwrap().len(), 11);
        assert!(FrameFormat::new(&min, 0).is_err());
        assert!(FrameFormat::new(&min, MAX_MESSAGE_BITS + 1)
            .unwrap_err()
            .to_string()
            .contains("1 ≤ bits ≤ 4096"));
        let bad = RunConfig::single(min, Permutation::identity(4), 8, 1);
        assert!(bad.unwrap_err().to_string().contains("n = 8"));
    }
}
