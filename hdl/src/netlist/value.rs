//! [`V`]: a word-level value of known width, what block descriptions compute with.
//!
//! A `V` is an [`Expr`] together with its width. Operators check widths as they build
//! (`&`, `|`, `^`, `+`, `-` and comparisons need equal widths, conditions one bit), so a
//! description that elaborates has only well-formed expressions; a mismatch is a bug in the
//! generator and panics with both widths (generation entry points turn that panic into an
//! internal error). Widths are ordinary `usize` values computed from the parameters at
//! elaboration, as in Chisel or Amaranth: `lit(ab, 0)`, `rx.row(x, p1)`, `bt.is(n1 - 1)`.
//!
//! ```
//! use lcanet_hdl::netlist::{cat, lit, V};
//! let a = V::signal("a", 8);
//! let b = V::signal("b", 8);
//! let y = (&a & &b) | cat([a.bits(3, 0), lit(4, 9)]);
//! assert_eq!(y.width(), 8);
//! assert_eq!(y.to_string(), "(a & b) | {a[3:0], 4'd9}");
//! ```

use super::expr::{index_bits, BinaryOp, Expr, UnaryOp};
use std::fmt;
use std::ops::{Add, BitAnd, BitOr, BitXor, Not, Sub};

/// A value of known width.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct V {
    e: Expr,
    w: usize,
    /// For a concatenation: the width of each part, most significant first (so that it can
    /// be sliced later); empty otherwise.
    parts: Vec<usize>,
}

/// A constant of `width` bits (panics if `value` does not fit: a generator bug).
pub fn lit(width: usize, value: u64) -> V {
    assert!(width > 0, "lcanet-hdl bug: a constant of width 0");
    assert!(
        width >= 64 || value >> width == 0,
        "lcanet-hdl bug: constant {value} does not fit in {width} bits"
    );
    V {
        e: Expr::constant(width, value),
        w: width,
        parts: Vec::new(),
    }
}

/// A constant of any width from 64-bit words, least significant first.
pub fn lit_words(width: usize, words: Vec<u64>) -> V {
    let e = Expr::constant_words(width, words);
    assert!(
        e.width(&|_| None).is_ok(),
        "lcanet-hdl bug: constant {e} does not fit in {width} bits"
    );
    V {
        e,
        w: width,
        parts: Vec::new(),
    }
}

/// `width` zero bits.
pub fn zero(width: usize) -> V {
    lit(width, 0)
}

/// A 1-bit constant.
pub fn flag(value: bool) -> V {
    lit(1, u64::from(value))
}

/// A concatenation, most significant part first (`cat([hi, lo])`).
pub fn cat(parts: impl IntoIterator<Item = V>) -> V {
    let parts: Vec<V> = parts.into_iter().collect();
    assert!(!parts.is_empty(), "lcanet-hdl bug: empty concatenation");
    if parts.len() == 1 {
        return parts.into_iter().next().expect("one part");
    }
    let w = parts.iter().map(|p| p.w).sum();
    let mut flat = Vec::with_capacity(parts.len());
    let mut widths = Vec::with_capacity(parts.len());
    for p in parts {
        match p.e {
            Expr::Concat(inner) => {
                flat.extend(inner);
                widths.extend(p.parts);
            }
            e => {
                flat.push(e);
                widths.push(p.w);
            }
        }
    }
    V {
        e: Expr::Concat(flat),
        w,
        parts: widths,
    }
}

/// The OR of equal-width values (`zero(width)` for none).
pub fn or_all(width: usize, values: impl IntoIterator<Item = V>) -> V {
    values
        .into_iter()
        .reduce(|a, b| a | b)
        .unwrap_or_else(|| zero(width))
}

/// The AND of 1-bit values (`1'b1` for none).
pub fn and_all(values: impl IntoIterator<Item = V>) -> V {
    values
        .into_iter()
        .reduce(|a, b| a & b)
        .unwrap_or_else(|| flag(true))
}

/// `default`, or the value of the first arm whose condition holds (a priority mux); an
/// arm of `None` is skipped.
pub fn priority(default: V, arms: impl IntoIterator<Item = Option<(V, V)>>) -> V {
    let arms: Vec<(V, V)> = arms.into_iter().flatten().collect();
    arms.into_iter()
        .rev()
        .fold(default, |els, (c, v)| c.select(v, els))
}

impl V {
    /// A whole signal of `width` bits (builders return these for the signals they declare).
    pub fn signal(name: impl Into<String>, width: usize) -> V {
        V {
            e: Expr::Signal(name.into()),
            w: width,
            parts: Vec::new(),
        }
    }

    /// Width in bits.
    pub fn width(&self) -> usize {
        self.w
    }

    /// The expression.
    pub fn expr(&self) -> &Expr {
        &self.e
    }

    /// The expression, by value.
    pub fn into_expr(self) -> Expr {
        self.e
    }

    /// The signal's name, if this is a whole signal.
    pub fn name(&self) -> Option<&str> {
        match &self.e {
            Expr::Signal(s) => Some(s),
            _ => None,
        }
    }

    /// The bits of a constant, least significant word first, `width.div_ceil(64)` words;
    /// `None` for anything else.
    fn constant(&self) -> Option<Vec<u64>> {
        match &self.e {
            Expr::Const { words, .. } => Some(
                (0..self.w.div_ceil(64))
                    .map(|i| words.get(i).copied().unwrap_or(0) & word_mask(self.w, i))
                    .collect(),
            ),
            _ => None,
        }
    }

    fn is_zero(&self) -> bool {
        self.constant().is_some_and(|c| c.iter().all(|&x| x == 0))
    }

    fn is_ones(&self) -> bool {
        self.constant()
            .is_some_and(|c| (0..c.len()).all(|i| c[i] == word_mask(self.w, i)))
    }

    /// `op` on two constants, or on a constant that decides the result (`x & 0`, `x | 0`,
    /// `x & ~0`, `x + 0`, `x - 0`, …, and the unsigned comparisons with 0 that cannot fail
    /// or hold, `x >= 0`, `x < 0`, which Verilator's `-Wall` rejects): the description may
    /// combine constants freely, the Verilog shows only what is left.
    fn fold(&self, op: BinaryOp, rhs: &V) -> Option<V> {
        let w = self.w;
        if let (Some(a), Some(b)) = (self.constant(), rhs.constant()) {
            let f: Option<fn(u64, u64) -> u64> = match op {
                BinaryOp::And => Some(|x, y| x & y),
                BinaryOp::Or => Some(|x, y| x | y),
                BinaryOp::Xor => Some(|x, y| x ^ y),
                _ => None,
            };
            if let Some(f) = f {
                return Some(lit_words(
                    w,
                    a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect(),
                ));
            }
        }
        match op {
            BinaryOp::And if self.is_zero() || rhs.is_ones() => Some(self.clone()),
            BinaryOp::And if rhs.is_zero() || self.is_ones() => Some(rhs.clone()),
            BinaryOp::Or | BinaryOp::Xor if self.is_zero() => Some(rhs.clone()),
            BinaryOp::Or | BinaryOp::Xor if rhs.is_zero() => Some(self.clone()),
            BinaryOp::Or if self.is_ones() => Some(self.clone()),
            BinaryOp::Or if rhs.is_ones() => Some(rhs.clone()),
            BinaryOp::Add | BinaryOp::Sub if rhs.is_zero() => Some(self.clone()),
            BinaryOp::Add if self.is_zero() => Some(rhs.clone()),
            BinaryOp::Ge if rhs.is_zero() => Some(flag(true)),
            BinaryOp::Le if self.is_zero() => Some(flag(true)),
            BinaryOp::Lt if rhs.is_zero() => Some(flag(false)),
            BinaryOp::Gt if self.is_zero() => Some(flag(false)),
            _ => None,
        }
    }

    fn bin(self, op: BinaryOp, rhs: V) -> V {
        if !op.is_shift() {
            assert_eq!(
                self.w, rhs.w,
                "lcanet-hdl bug: operands of `{}` and `{}` differ in width",
                self.e, rhs.e
            );
        }
        if let Some(v) = self.fold(op, &rhs) {
            return v;
        }
        let w = if op.is_comparison() { 1 } else { self.w };
        V {
            e: Expr::Binary {
                op,
                lhs: Box::new(self.e),
                rhs: Box::new(rhs.e),
            },
            w,
            parts: Vec::new(),
        }
    }

    fn un(self, op: UnaryOp) -> V {
        if let Some(c) = self.constant() {
            let ones = self.is_ones();
            return match op {
                UnaryOp::Not => lit_words(
                    self.w,
                    (0..c.len()).map(|i| !c[i] & word_mask(self.w, i)).collect(),
                ),
                UnaryOp::Any => flag(c.iter().any(|&x| x != 0)),
                UnaryOp::All => flag(ones),
                UnaryOp::Parity => flag(c.iter().map(|x| x.count_ones()).sum::<u32>() % 2 == 1),
            };
        }
        let w = if op == UnaryOp::Not { self.w } else { 1 };
        V {
            e: Expr::Unary {
                op,
                arg: Box::new(self.e),
            },
            w,
            parts: Vec::new(),
        }
    }

    /// Bits `msb..=lsb`. Works on signals, slices, constants and concatenations of those;
    /// name an operator's result (a wire) before slicing it.
    pub fn bits(&self, msb: usize, lsb: usize) -> V {
        assert!(
            lsb <= msb && msb < self.w,
            "lcanet-hdl bug: bits [{msb}:{lsb}] of `{}`, which is {} bits wide",
            self.e,
            self.w
        );
        if lsb == 0 && msb + 1 == self.w {
            return self.clone();
        }
        slice(self, msb, lsb)
    }

    /// Bit `i`.
    pub fn bit(&self, i: usize) -> V {
        self.bits(i, i)
    }

    /// `[lsb +: width]`.
    pub fn part(&self, lsb: usize, width: usize) -> V {
        assert!(
            width > 0,
            "lcanet-hdl bug: a part of width 0 of `{}`",
            self.e
        );
        self.bits(lsb + width - 1, lsb)
    }

    /// Row `i` of a value made of rows of `width` bits: `[i*width +: width]`.
    pub fn row(&self, i: usize, width: usize) -> V {
        self.part(i * width, width)
    }

    /// The top `width` bits.
    pub fn top(&self, width: usize) -> V {
        self.part(self.w - width, width)
    }

    /// The bottom `width` bits.
    pub fn low(&self, width: usize) -> V {
        self.part(0, width)
    }

    /// Row `index` of a signal made of rows of `width` bits: `signal[index*width +: width]`.
    /// The index is a signal or a slice of one (name a computed index with `def` first:
    /// Verilator widens an expression inside a part-select base) of exactly
    /// `max(1, clog2(rows))` bits. A signal of one row is returned whole.
    pub fn row_at(&self, index: &V, width: usize) -> V {
        let Expr::Signal(name) = &self.e else {
            panic!(
                "lcanet-hdl bug: a computed row of `{}`, which is not a signal",
                self.e
            );
        };
        assert!(
            width > 0 && self.w.is_multiple_of(width) && index.w == index_bits(self.w / width),
            "lcanet-hdl bug: row of {width} bits of `{name}` ({} bits) with a {}-bit index",
            self.w,
            index.w
        );
        assert!(
            matches!(index.e, Expr::Signal(_) | Expr::Slice { .. }),
            "lcanet-hdl bug: the row index `{}` of `{name}` is an expression; name it (a wire) first",
            index.e
        );
        if self.w == width {
            return self.clone();
        }
        V {
            e: Expr::Row {
                signal: name.clone(),
                index: Box::new(index.e.clone()),
                width,
            },
            w: width,
            parts: Vec::new(),
        }
    }

    /// `{count{self}}`.
    pub fn repeat(&self, count: usize) -> V {
        assert!(
            count > 0,
            "lcanet-hdl bug: replication of `{}` zero times",
            self.e
        );
        if count == 1 {
            return self.clone();
        }
        V {
            e: Expr::Repeat {
                count,
                expr: Box::new(self.e.clone()),
            },
            w: count * self.w,
            parts: Vec::new(),
        }
    }

    /// Zero-extended to `width` bits (`width >= self.width()`).
    pub fn zext(&self, width: usize) -> V {
        assert!(
            width >= self.w,
            "lcanet-hdl bug: zero-extending `{}` ({} bits) to {width} bits",
            self.e,
            self.w
        );
        if width == self.w {
            self.clone()
        } else {
            cat([zero(width - self.w), self.clone()])
        }
    }

    /// `self == other`.
    pub fn eq(&self, other: &V) -> V {
        self.clone().bin(BinaryOp::Eq, other.clone())
    }

    /// `self != other`.
    pub fn ne(&self, other: &V) -> V {
        self.clone().bin(BinaryOp::Ne, other.clone())
    }

    /// `self < other`, unsigned.
    pub fn lt(&self, other: &V) -> V {
        self.clone().bin(BinaryOp::Lt, other.clone())
    }

    /// `self <= other`, unsigned.
    pub fn le(&self, other: &V) -> V {
        self.clone().bin(BinaryOp::Le, other.clone())
    }

    /// `self > other`, unsigned.
    pub fn gt(&self, other: &V) -> V {
        self.clone().bin(BinaryOp::Gt, other.clone())
    }

    /// `self >= other`, unsigned.
    pub fn ge(&self, other: &V) -> V {
        self.clone().bin(BinaryOp::Ge, other.clone())
    }

    /// `self == k` (a constant of this width).
    pub fn is(&self, k: u64) -> V {
        self.eq(&lit(self.w, k))
    }

    /// `self != k`.
    pub fn is_not(&self, k: u64) -> V {
        self.ne(&lit(self.w, k))
    }

    /// `self + k`, modulo `2^width`.
    pub fn plus(&self, k: u64) -> V {
        self.clone() + lit(self.w, k)
    }

    /// `self - k`, modulo `2^width`.
    pub fn minus(&self, k: u64) -> V {
        self.clone() - lit(self.w, k)
    }

    /// OR of every bit (`|self`); a 1-bit value is returned as it is.
    pub fn any(&self) -> V {
        if self.w == 1 {
            self.clone()
        } else {
            self.clone().un(UnaryOp::Any)
        }
    }

    /// AND of every bit (`&self`).
    pub fn all(&self) -> V {
        if self.w == 1 {
            self.clone()
        } else {
            self.clone().un(UnaryOp::All)
        }
    }

    /// XOR of every bit (`^self`).
    pub fn parity(&self) -> V {
        if self.w == 1 {
            self.clone()
        } else {
            self.clone().un(UnaryOp::Parity)
        }
    }

    /// `self ? then : els` (`self` is 1 bit).
    pub fn select(&self, then: impl Into<V>, els: impl Into<V>) -> V {
        let (then, els) = (then.into(), els.into());
        assert_eq!(
            self.w, 1,
            "lcanet-hdl bug: the condition `{}` is {} bits wide",
            self.e, self.w
        );
        assert_eq!(
            then.w, els.w,
            "lcanet-hdl bug: arms `{}` and `{}` of `?:` differ in width",
            then.e, els.e
        );
        if let Some(c) = self.constant() {
            return if c[0] & 1 == 1 { then } else { els };
        }
        if then == els {
            return then;
        }
        V {
            w: then.w,
            e: Expr::Mux {
                cond: Box::new(self.e.clone()),
                then: Box::new(then.e),
                els: Box::new(els.e),
            },
            parts: Vec::new(),
        }
    }

    /// `self` where `cond` holds, zero elsewhere (`cond ? self : 0`; `{w{cond}} & self`).
    pub fn when(&self, cond: &V) -> V {
        cond.select(self.clone(), zero(self.w))
    }

    /// `self << n`, zeros enter, same width.
    pub fn shl(&self, n: usize) -> V {
        self.clone()
            .bin(BinaryOp::Shl, lit(index_bits(n + 1), n as u64))
    }

    /// `self >> n`, zeros enter, same width.
    pub fn shr(&self, n: usize) -> V {
        self.clone()
            .bin(BinaryOp::Shr, lit(index_bits(n + 1), n as u64))
    }

    /// `self << amount`.
    pub fn shl_by(&self, amount: &V) -> V {
        self.clone().bin(BinaryOp::Shl, amount.clone())
    }

    /// `self >> amount`.
    pub fn shr_by(&self, amount: &V) -> V {
        self.clone().bin(BinaryOp::Shr, amount.clone())
    }
}

/// Bits `msb..=lsb` of a value that Verilog can slice (a signal, a slice, a constant) or
/// that is made of such parts (a concatenation, a replication).
/// The valid bits of word `i` of a `width`-bit constant.
fn word_mask(width: usize, i: usize) -> u64 {
    let bits = width.saturating_sub(64 * i).min(64);
    if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn slice(v: &V, msb: usize, lsb: usize) -> V {
    let width = msb - lsb + 1;
    let plain = |e: Expr| V {
        e,
        w: width,
        parts: Vec::new(),
    };
    match &v.e {
        Expr::Signal(s) => plain(Expr::slice(s.clone(), msb, lsb)),
        Expr::Slice {
            signal, lsb: base, ..
        } => plain(Expr::slice(signal.clone(), base + msb, base + lsb)),
        Expr::Const { words, .. } => {
            let mut out = vec![0u64; width.div_ceil(64)];
            for i in 0..width {
                if super::expr::word_bit(words, lsb + i) {
                    out[i / 64] |= 1 << (i % 64);
                }
            }
            plain(Expr::constant_words(width, out))
        }
        Expr::Repeat { count, expr } => {
            let one = V {
                e: (**expr).clone(),
                w: v.w / count,
                parts: Vec::new(),
            };
            slice(&cat(std::iter::repeat_n(one, *count)), msb, lsb)
        }
        Expr::Concat(parts) => {
            // Parts are most significant first; walk from the bottom.
            let mut picked = Vec::new();
            let mut base = 0;
            for (p, &pw) in parts.iter().zip(&v.parts).rev() {
                let (lo, hi) = (base, base + pw - 1);
                if hi >= lsb && lo <= msb {
                    let part = V {
                        e: p.clone(),
                        w: pw,
                        parts: Vec::new(),
                    };
                    picked.push(part.bits(msb.min(hi) - lo, lsb.max(lo) - lo));
                }
                base += pw;
            }
            picked.reverse();
            cat(picked)
        }
        other => panic!(
            "lcanet-hdl bug: bits [{msb}:{lsb}] of `{other}`: name the value (a wire) before slicing it"
        ),
    }
}

impl fmt::Display for V {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.e.fmt(f)
    }
}

impl From<V> for Expr {
    fn from(v: V) -> Expr {
        v.e
    }
}

impl From<&V> for Expr {
    fn from(v: &V) -> Expr {
        v.e.clone()
    }
}

impl From<&V> for V {
    fn from(v: &V) -> V {
        v.clone()
    }
}

impl From<bool> for V {
    fn from(b: bool) -> V {
        flag(b)
    }
}

macro_rules! binop {
    ($tr:ident, $method:ident, $op:expr) => {
        impl $tr<V> for V {
            type Output = V;
            fn $method(self, rhs: V) -> V {
                self.bin($op, rhs)
            }
        }
        impl $tr<&V> for V {
            type Output = V;
            fn $method(self, rhs: &V) -> V {
                self.bin($op, rhs.clone())
            }
        }
        impl $tr<V> for &V {
            type Output = V;
            fn $method(self, rhs: V) -> V {
                self.clone().bin($op, rhs)
            }
        }
        impl $tr<&V> for &V {
            type Output = V;
            fn $method(self, rhs: &V) -> V {
                self.clone().bin($op, rhs.clone())
            }
        }
    };
}

binop!(BitAnd, bitand, BinaryOp::And);
binop!(BitOr, bitor, BinaryOp::Or);
binop!(BitXor, bitxor, BinaryOp::Xor);
binop!(Add, add, BinaryOp::Add);
binop!(Sub, sub, BinaryOp::Sub);

impl Not for V {
    type Output = V;
    fn not(self) -> V {
        self.un(UnaryOp::Not)
    }
}

impl Not for &V {
    type Output = V;
    fn not(self) -> V {
        self.clone().un(UnaryOp::Not)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_through_concatenations_and_constants() {
        let a = V::signal("a", 8);
        let b = V::signal("b", 4);
        let c = cat([a.clone(), b.clone(), lit(4, 0b1010)]);
        assert_eq!(c.width(), 16);
        assert_eq!(c.bits(3, 0).to_string(), "4'd10");
        assert_eq!(c.bits(5, 2).to_string(), "{b[1:0], 2'd2}");
        assert_eq!(c.bits(15, 8).to_string(), "a");
        assert_eq!(c.bits(9, 9).to_string(), "a[1]");
        assert_eq!(a.bits(5, 2).bits(1, 0).to_string(), "a[3:2]");
        assert_eq!(b.repeat(2).bits(5, 2).to_string(), "{b[1:0], b[3:2]}");
    }

    #[test]
    fn operators_keep_widths() {
        let a = V::signal("a", 8);
        let s = V::signal("s", 1);
        assert_eq!((&a + &a).width(), 8);
        assert_eq!(a.is(3).width(), 1);
        assert_eq!(a.any().to_string(), "|a");
        assert_eq!(s.select(&a, zero(8)).to_string(), "s ? a : 8'd0");
        assert_eq!(a.shl(1).to_string(), "a << 1");
        assert_eq!(a.zext(10).to_string(), "{2'd0, a}");
        assert_eq!(or_all(3, []).to_string(), "3'd0");
    }

    #[test]
    fn constants_fold() {
        let x = V::signal("x", 4);
        let c = |v| lit(4, v);
        assert_eq!((c(0) | c(1)).to_string(), "4'd1");
        assert_eq!((c(9) & c(3)).to_string(), "4'd1");
        assert_eq!((c(0) & &x).to_string(), "4'd0");
        assert_eq!((c(0) | &x).to_string(), "x");
        assert_eq!((&x & c(15)).to_string(), "x");
        assert_eq!((&x | c(15)).to_string(), "4'd15");
        assert_eq!((&x ^ c(0)).to_string(), "x");
        assert_eq!((&x & c(6)).to_string(), "x & 4'd6");
        assert_eq!((&x - c(0)).to_string(), "x");
        assert_eq!((c(0) + &x).to_string(), "x");
        assert_eq!(x.ge(&c(0)).to_string(), "1'b1");
        assert_eq!(c(0).le(&x).to_string(), "1'b1");
        assert_eq!(x.lt(&c(0)).to_string(), "1'b0");
        assert_eq!(c(0).gt(&x).to_string(), "1'b0");
        assert_eq!(x.gt(&c(0)).to_string(), "x > 4'd0");
        assert_eq!((!c(5)).to_string(), "4'd10");
        assert_eq!((c(0) & &x).any().to_string(), "1'b0");
        assert_eq!(c(15).all().to_string(), "1'b1");
        assert_eq!(c(7).parity().to_string(), "1'b1");
        assert_eq!(flag(true).select(x.clone(), c(0)).to_string(), "x");
        assert_eq!(
            V::signal("s", 1).select(x.clone(), x.clone()).to_string(),
            "x"
        );
        let wide = lit_words(70, vec![u64::MAX, 0x3f]);
        assert!((!wide).is_zero());
        let y = V::signal("y", 70);
        assert_eq!((y & lit_words(70, vec![u64::MAX, 0x3f])).to_string(), "y");
    }

    #[test]
    #[should_panic(expected = "differ in width")]
    fn width_mismatches_are_bugs() {
        let _ = V::signal("a", 8) & V::signal("b", 4);
    }
}

/// A memory of a module being built ([`crate::netlist::ModuleBuilder::memory`]): `depth`
/// words of `width` bits, named only a word at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mem {
    name: String,
    width: usize,
    depth: usize,
}

impl Mem {
    pub(crate) fn new(name: String, width: usize, depth: usize) -> Self {
        Mem { name, width, depth }
    }

    /// Bits per word.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Words.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Word `index`, `memory[index]`: read it into a register, or load it, in the clocked
    /// process. The index is a signal or a slice of one, of exactly `max(1, clog2(depth))`
    /// bits.
    pub fn word(&self, index: &V) -> V {
        assert!(
            index.w == index_bits(self.depth) && matches!(index.e, Expr::Signal(_) | Expr::Slice { .. }),
            "lcanet-hdl bug: word of memory `{}` ({} words) at `{}` ({} bits; a signal or slice of {} bits needed)",
            self.name,
            self.depth,
            index.e,
            index.w,
            index_bits(self.depth)
        );
        V {
            e: Expr::Word {
                memory: self.name.clone(),
                index: Box::new(index.e.clone()),
                width: self.width,
            },
            w: self.width,
            parts: Vec::new(),
        }
    }
}
