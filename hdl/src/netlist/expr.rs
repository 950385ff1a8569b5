//! Expressions of structural modules: what an instance port is connected to and what the
//! two sides of a continuous assign are.
//!
//! An expression is a whole signal (a net or a port of the enclosing module), a slice
//! `[msb:lsb]` of one, a constant of any width, or a concatenation (most significant part
//! first, as in Verilog). Widths are checked by validation, not here.

use std::fmt::{self, Write};

/// An expression over the signals (ports and nets) of one structural module.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A whole net or port.
    Signal(String),
    /// Bits `msb` down to `lsb` of a net or port (`msb >= lsb`).
    Slice {
        /// The net or port.
        signal: String,
        /// Most significant bit, inclusive.
        msb: usize,
        /// Least significant bit, inclusive.
        lsb: usize,
    },
    /// A constant: `width` bits of `words` (64-bit words, least significant first; bits
    /// above `width` must be zero).
    Const {
        /// Width in bits, at least 1.
        width: usize,
        /// The value, least significant word first.
        words: Vec<u64>,
    },
    /// A concatenation, most significant part first (`{a, b}` has `b` in the low bits).
    Concat(Vec<Expr>),
}

impl Expr {
    /// A whole net or port.
    pub fn sig(name: impl Into<String>) -> Expr {
        Expr::Signal(name.into())
    }

    /// Bits `msb..=lsb` of a net or port.
    pub fn slice(name: impl Into<String>, msb: usize, lsb: usize) -> Expr {
        Expr::Slice {
            signal: name.into(),
            msb,
            lsb,
        }
    }

    /// One bit of a net or port.
    pub fn bit(name: impl Into<String>, index: usize) -> Expr {
        Expr::slice(name, index, index)
    }

    /// A constant of `width` bits holding `value` (validation rejects values that do not fit).
    pub fn constant(width: usize, value: u64) -> Expr {
        Expr::Const {
            width,
            words: vec![value],
        }
    }

    /// A constant of any width from 64-bit words, least significant first.
    pub fn constant_words(width: usize, words: Vec<u64>) -> Expr {
        Expr::Const { width, words }
    }

    /// `width` zero bits.
    pub fn zeros(width: usize) -> Expr {
        Expr::constant(width, 0)
    }

    /// A concatenation, most significant part first.
    pub fn concat(parts: impl IntoIterator<Item = Expr>) -> Expr {
        Expr::Concat(parts.into_iter().collect())
    }

    /// Calls `f` on the name of every signal the expression mentions, in order.
    pub fn for_each_signal<'a>(&'a self, f: &mut impl FnMut(&'a str)) {
        match self {
            Expr::Signal(s) | Expr::Slice { signal: s, .. } => f(s),
            Expr::Const { .. } => {}
            Expr::Concat(parts) => parts.iter().for_each(|p| p.for_each_signal(f)),
        }
    }

    /// Whether the expression could be driven: nets, ports, their slices, and
    /// concatenations made only of those.
    pub fn is_lvalue(&self) -> bool {
        match self {
            Expr::Signal(_) | Expr::Slice { .. } => true,
            Expr::Const { .. } => false,
            Expr::Concat(parts) => !parts.is_empty() && parts.iter().all(Expr::is_lvalue),
        }
    }

    /// Writes the expression as Verilog. `width_of` gives the declared width of a signal;
    /// a slice of a 1-bit signal (declared without a range) is written as the bare name.
    pub fn write_verilog(&self, out: &mut String, width_of: &dyn Fn(&str) -> Option<usize>) {
        match self {
            Expr::Signal(s) => out.push_str(s),
            Expr::Slice { signal, msb, lsb } => {
                out.push_str(signal);
                if width_of(signal) != Some(1) {
                    if msb == lsb {
                        let _ = write!(out, "[{msb}]");
                    } else {
                        let _ = write!(out, "[{msb}:{lsb}]");
                    }
                }
            }
            Expr::Const { width, words } => write_constant(out, *width, words),
            Expr::Concat(parts) => {
                out.push('{');
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    p.write_verilog(out, width_of);
                }
                out.push('}');
            }
        }
    }
}

/// Bit `i` of a little-endian word vector.
pub(crate) fn word_bit(words: &[u64], i: usize) -> bool {
    words.get(i / 64).is_some_and(|w| (w >> (i % 64)) & 1 == 1)
}

/// The index of the highest set bit plus one (0 for zero).
pub(crate) fn significant_bits(words: &[u64]) -> usize {
    words
        .iter()
        .enumerate()
        .rev()
        .find(|(_, w)| **w != 0)
        .map_or(0, |(i, w)| i * 64 + 64 - w.leading_zeros() as usize)
}

/// `W'b...` for up to 8 bits, `W'h...` above, with every digit written. A value too wide
/// for `width` (rejected by validation) is written in full so that messages show it.
fn write_constant(out: &mut String, width: usize, words: &[u64]) {
    let digits = width.max(significant_bits(words));
    if width <= 8 {
        let _ = write!(out, "{width}'b");
        for i in (0..digits).rev() {
            out.push(if word_bit(words, i) { '1' } else { '0' });
        }
    } else {
        let _ = write!(out, "{width}'h");
        for d in (0..digits.div_ceil(4)).rev() {
            let nibble = (0..4).fold(0u32, |acc, k| {
                let i = d * 4 + k;
                acc | (u32::from(i < digits && word_bit(words, i)) << k)
            });
            out.push(char::from_digit(nibble, 16).unwrap_or('0'));
        }
    }
}

impl fmt::Display for Expr {
    /// Verilog-like text for messages; slices are always written with their range.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_verilog(&mut s, &|_| None);
        f.write_str(&s)
    }
}

impl From<&str> for Expr {
    fn from(name: &str) -> Expr {
        Expr::sig(name)
    }
}

impl From<String> for Expr {
    fn from(name: String) -> Expr {
        Expr::Signal(name)
    }
}

impl From<&String> for Expr {
    fn from(name: &String) -> Expr {
        Expr::sig(name.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(e: &Expr) -> String {
        let mut s = String::new();
        e.write_verilog(&mut s, &|n| if n == "one" { Some(1) } else { Some(8) });
        s
    }

    #[test]
    fn writes_verilog() {
        assert_eq!(v(&Expr::bit("one", 0)), "one");
        assert_eq!(v(&Expr::bit("bus", 3)), "bus[3]");
        assert_eq!(v(&Expr::slice("bus", 7, 4)), "bus[7:4]");
        assert_eq!(v(&Expr::constant(3, 5)), "3'b101");
        assert_eq!(v(&Expr::constant(10, 0x2a5)), "10'h2a5");
        assert_eq!(
            v(&Expr::constant_words(68, vec![1, 0xf])),
            "68'hf0000000000000001"
        );
        let c = Expr::concat([Expr::sig("one"), Expr::constant(1, 0)]);
        assert_eq!(v(&c), "{one, 1'b0}");
        assert!(!c.is_lvalue() && Expr::concat([Expr::sig("a")]).is_lvalue());
    }

    #[test]
    fn counts_significant_bits() {
        assert_eq!(significant_bits(&[]), 0);
        assert_eq!(significant_bits(&[0, 0]), 0);
        assert_eq!(significant_bits(&[5]), 3);
        assert_eq!(significant_bits(&[0, 1]), 65);
    }
}
