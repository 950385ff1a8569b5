//! Fixed-capacity bit registers for the receive and output registers of the switch model
//! (`docs/protocol.md` §5), and the packet field layout inside them.
//!
//! Register bit 0 is the least significant. Shifting in a bit-time moves every bit up by
//! `W` and puts the lanes at the bottom (lane `W−1`, the earlier bit, highest), so after
//! `n(P)` bit-times a right-aligned packet's bit `i` sits at register bit `P − 1 − i`.

/// Largest register the model needs: `n(P2)·W ≤ 202 + 15` bits.
pub const REG_CAPACITY: usize = 256;

/// A register of `len ≤ 256` bits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BitReg {
    words: [u64; 4],
    len: usize,
}

impl BitReg {
    /// An all-zero register of `len` bits.
    pub fn new(len: usize) -> Self {
        assert!(
            len <= REG_CAPACITY,
            "BitReg of {len} bits exceeds the capacity (bug)"
        );
        BitReg { words: [0; 4], len }
    }

    /// Its size in bits.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has zero bits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bit `i`.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        i < self.len && (self.words[i / 64] >> (i % 64)) & 1 == 1
    }

    /// Sets bit `i` (ignored beyond the register's size).
    #[inline]
    pub fn set(&mut self, i: usize, v: bool) {
        if i >= self.len {
            return;
        }
        let m = 1u64 << (i % 64);
        if v {
            self.words[i / 64] |= m;
        } else {
            self.words[i / 64] &= !m;
        }
    }

    /// All bits to zero.
    pub fn clear(&mut self) {
        self.words = [0; 4];
    }

    /// Whether every bit is zero.
    #[inline]
    pub fn is_zero(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// `reg ← (reg << w) | lanes`, keeping `len` bits.
    #[inline]
    pub fn shift_in(&mut self, lanes: u64, w: usize) {
        let lanes = lanes & mask(w);
        if self.len <= 64 {
            // One word (every packet register of a network up to n = 2^21 with W = 1).
            let shifted = if w >= 64 { 0 } else { self.words[0] << w };
            self.words[0] = (shifted | lanes) & mask(self.len);
            return;
        }
        let nw = self.len.div_ceil(64);
        if lanes == 0 && self.words[..nw].iter().all(|&x| x == 0) {
            return;
        }
        let mut carry = lanes;
        for word in self.words[..nw].iter_mut() {
            let out = if w == 64 { *word } else { *word >> (64 - w) };
            *word = if w == 64 { carry } else { (*word << w) | carry };
            carry = out;
        }
        self.truncate();
    }

    /// The top `w` bits as lanes (bit `w−1` = register bit `len−1`).
    #[inline]
    pub fn top(&self, w: usize) -> u64 {
        if self.len >= w {
            self.bits(self.len - w, w)
        } else if self.len == 0 {
            0
        } else {
            self.bits(0, self.len) << (w - self.len)
        }
    }

    /// Bits `lo .. lo + width` (`width ≤ 64`, inside the register) as a value.
    #[inline]
    fn bits(&self, lo: usize, width: usize) -> u64 {
        let (i, s) = (lo / 64, lo % 64);
        let mut v = self.words[i] >> s;
        if s + width > 64 {
            v |= self.words[i + 1] << (64 - s);
        }
        v & mask(width)
    }

    fn truncate(&mut self) {
        for i in 0..4 {
            let lo = i * 64;
            if self.len <= lo {
                self.words[i] = 0;
            } else if self.len < lo + 64 {
                self.words[i] &= mask(self.len - lo);
            }
        }
    }
}

#[inline]
fn mask(w: usize) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// A packet of `P` bits, bit 0 first, built field by field (MSB first within a field).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PacketBits {
    bits: Vec<bool>,
}

impl PacketBits {
    /// An empty packet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `width` bits of `value`, most significant first.
    pub fn push(&mut self, value: u64, width: usize) -> &mut Self {
        for m in (0..width).rev() {
            self.bits.push((value >> m) & 1 == 1);
        }
        self
    }

    /// Number of bits.
    pub fn len(&self) -> usize {
        self.bits.len()
    }

    /// Whether there are no bits.
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// Bit `i` (0 = first sent).
    pub fn bit(&self, i: usize) -> bool {
        self.bits[i]
    }

    /// The bit-time lanes of this packet sent right-aligned in `n(P)` bit-times of `w` lanes
    /// (`docs/protocol.md` §4).
    pub fn lanes(&self, w: usize) -> Vec<u64> {
        let n = self.bits.len().div_ceil(w);
        let pad = n * w - self.bits.len();
        (0..n)
            .map(|t| {
                let mut v = 0;
                for lane in 0..w {
                    let pos = t * w + (w - 1 - lane);
                    if pos >= pad && self.bits[pos - pad] {
                        v |= 1 << lane;
                    }
                }
                v
            })
            .collect()
    }

    /// Loads this packet right-aligned into the top `n(P)·w` bits of an output register.
    pub fn load_into(&self, reg: &mut BitReg, w: usize) {
        reg.clear();
        let n = self.bits.len().div_ceil(w);
        let pad = n * w - self.bits.len();
        for (i, &b) in self.bits.iter().enumerate() {
            reg.set(reg.len() - 1 - pad - i, b);
        }
    }
}

/// Reads the field at packet positions `start .. start + width` of a `p`-bit packet that was
/// received into `reg` (bit `i` at register bit `p − 1 − i`), most significant first.
pub fn field(reg: &BitReg, p: usize, start: usize, width: usize) -> u64 {
    let mut v = 0;
    for m in 0..width {
        v = (v << 1) | u64::from(reg.get(p - 1 - (start + m)));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifting_lanes_in_reproduces_the_packet() {
        for w in 1..=5 {
            let mut pkt = PacketBits::new();
            pkt.push(1, 1).push(0b10, 2).push(0b1_1010_1101, 9);
            let mut reg = BitReg::new(pkt.len());
            for lanes in pkt.lanes(w) {
                reg.shift_in(lanes, w);
            }
            for i in 0..pkt.len() {
                assert_eq!(reg.get(pkt.len() - 1 - i), pkt.bit(i), "w={w} bit {i}");
            }
            assert_eq!(field(&reg, 12, 1, 2), 0b10);
            assert_eq!(field(&reg, 12, 3, 9), 0b1_1010_1101);
        }
    }

    #[test]
    fn output_register_sends_the_same_lanes() {
        for w in 1..=4 {
            let mut pkt = PacketBits::new();
            pkt.push(0b1011_0111, 8).push(1, 1);
            let n = pkt.len().div_ceil(w);
            let mut reg = BitReg::new((n + 1) * w);
            pkt.load_into(&mut reg, w);
            let sent: Vec<u64> = (0..n)
                .map(|_| {
                    let v = reg.top(w);
                    reg.shift_in(0, w);
                    v
                })
                .collect();
            assert_eq!(sent, pkt.lanes(w), "w={w}");
            assert!(reg.is_zero());
        }
    }

    #[test]
    fn wide_registers_carry_across_words() {
        let mut reg = BitReg::new(200);
        reg.set(63, true);
        reg.set(199, true);
        reg.shift_in(0b11, 2);
        assert!(reg.get(65) && reg.get(0) && reg.get(1));
        assert!(!reg.get(199), "bit 199 shifted out");
        assert_eq!(reg.top(3), 0);
    }
}
