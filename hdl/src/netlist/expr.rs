//! Word-level expressions: what an assign drives and computes, what an instance port is
//! connected to, what a register is loaded with.
//!
//! An expression is a whole signal (a port, wire or register of the enclosing module), a
//! static slice `[msb:lsb]` of one, an indexed part `[base*w +: w]` with a computed base,
//! a constant of any width, a concatenation (most significant part first, as in Verilog), a
//! replication, or an operator applied to expressions. Widths follow strict rules (equal
//! operand widths, 1-bit conditions), so that the Verilog lints clean under
//! `verilator -Wall` (no WIDTH warning is ever waived); [`Expr::width`] computes them and
//! says which rule an expression breaks. Builders check widths as they go
//! ([`crate::netlist::V`]); validation checks them again for expressions made by hand.

use std::fmt::{self, Write};

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// Bitwise not, `~a` (same width).
    Not,
    /// AND of every bit, `&a` (1 bit).
    All,
    /// OR of every bit, `|a` (1 bit).
    Any,
    /// XOR of every bit, `^a` (1 bit).
    Parity,
}

/// Binary operators. Both operands have the same width, except for shifts, whose amount
/// may have any width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `a & b`.
    And,
    /// `a | b`.
    Or,
    /// `a ^ b`.
    Xor,
    /// `a + b`, modulo `2^w` (same width: the carry out is dropped).
    Add,
    /// `a - b`, modulo `2^w`.
    Sub,
    /// `a == b` (1 bit).
    Eq,
    /// `a != b` (1 bit).
    Ne,
    /// `a < b`, unsigned (1 bit).
    Lt,
    /// `a <= b`, unsigned (1 bit).
    Le,
    /// `a > b`, unsigned (1 bit).
    Gt,
    /// `a >= b`, unsigned (1 bit).
    Ge,
    /// `a << b`, zeros enter (width of `a`).
    Shl,
    /// `a >> b`, zeros enter (width of `a`).
    Shr,
}

impl BinaryOp {
    fn symbol(self) -> &'static str {
        match self {
            BinaryOp::And => "&",
            BinaryOp::Or => "|",
            BinaryOp::Xor => "^",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
        }
    }

    /// Whether the result is one bit (a comparison).
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }

    /// Whether the right operand is a shift amount (any width).
    pub fn is_shift(self) -> bool {
        matches!(self, BinaryOp::Shl | BinaryOp::Shr)
    }
}

/// A word-level expression over the signals of one module.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A whole port, wire or register.
    Signal(String),
    /// Bits `msb` down to `lsb` of a signal (`msb >= lsb`).
    Slice {
        /// The signal.
        signal: String,
        /// Most significant bit, inclusive.
        msb: usize,
        /// Least significant bit, inclusive.
        lsb: usize,
    },
    /// `signal[index*width +: width]`: row `index` of a signal made of rows of `width`
    /// bits. The index is an expression of exactly `max(1, clog2(rows))` bits; an index
    /// past the last row selects bits outside the signal (`x` in Verilog), so generators
    /// keep it in range.
    Row {
        /// The signal, `rows·width` bits.
        signal: String,
        /// The row, an expression.
        index: Box<Expr>,
        /// Bits per row.
        width: usize,
    },
    /// `memory[index]`: a word of a memory ([`crate::netlist::Item::Memory`], `depth`
    /// words of `width` bits). Read or written only in the clocked process: a word read
    /// into a register is a synchronous read port, which Yosys maps to block RAM. The
    /// index, a signal or a slice of exactly `max(1, clog2(depth))` bits, must stay below
    /// the depth.
    Word {
        /// The memory.
        memory: String,
        /// The word, an expression.
        index: Box<Expr>,
        /// Bits per word.
        width: usize,
    },
    /// `signal[t1*s1 + t2*s2 + … + offset +: width]`: a part at a computed position. Each
    /// term is a loop variable ([`Expr::LoopVar`]) or a signal or slice, times a stride;
    /// this is how a block replicated as rows reads and loads row `j` of its state
    /// ([`crate::netlist::replicate`]).
    Part {
        /// The signal.
        signal: String,
        /// `(index, stride)` terms of the position.
        terms: Vec<(Expr, usize)>,
        /// Constant part of the position.
        offset: usize,
        /// Bits selected.
        width: usize,
    },
    /// The integer variable of an enclosing `for` statement; only inside a [`Expr::Part`]
    /// position.
    LoopVar(String),
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
    /// `{count{expr}}`.
    Repeat {
        /// How many copies, at least 1.
        count: usize,
        /// The replicated expression.
        expr: Box<Expr>,
    },
    /// A unary operator.
    Unary {
        /// Which.
        op: UnaryOp,
        /// The operand.
        arg: Box<Expr>,
    },
    /// A binary operator.
    Binary {
        /// Which.
        op: BinaryOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `cond ? then : els` (`cond` 1 bit, arms of equal width).
    Mux {
        /// The condition.
        cond: Box<Expr>,
        /// Value when `cond` is 1.
        then: Box<Expr>,
        /// Value when `cond` is 0.
        els: Box<Expr>,
    },
}

/// Why an expression has no width.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WidthError {
    /// A name that is not a signal of the module.
    #[error("`{0}` is not a port, wire or register of the module")]
    Unknown(String),
    /// A slice outside its signal or reversed.
    #[error("slice `{signal}[{msb}:{lsb}]` {}", if msb < lsb { "has msb < lsb".to_owned() } else { format!("lies outside `{signal}`, which is {width} bits wide") })]
    BadSlice {
        /// The signal.
        signal: String,
        /// Slice msb.
        msb: usize,
        /// Slice lsb.
        lsb: usize,
        /// Signal width.
        width: usize,
    },
    /// A row selection whose rows do not divide the signal or whose index has the wrong width.
    #[error("row select of `{signal}` ({width} bits) in rows of {row} bits with a {index}-bit index: {reason}")]
    BadRow {
        /// The signal.
        signal: String,
        /// Its width.
        width: usize,
        /// Row width.
        row: usize,
        /// Index width.
        index: usize,
        /// The rule broken.
        reason: &'static str,
    },
    /// A constant of width 0 or whose value does not fit.
    #[error("constant `{text}` does not fit in {width} bits")]
    BadConst {
        /// The constant as written.
        text: String,
        /// Its declared width.
        width: usize,
    },
    /// An empty concatenation or zero replication.
    #[error("empty concatenation or replication")]
    Empty,
    /// Operands of different widths.
    #[error("operands of `{op}` are {lhs} and {rhs} bits wide; they must be equal")]
    Operands {
        /// The operator.
        op: &'static str,
        /// Left width.
        lhs: usize,
        /// Right width.
        rhs: usize,
    },
    /// A condition wider than one bit.
    #[error("the condition of `?:` is {0} bits wide; it must be 1 bit")]
    Condition(usize),
    /// A computed part with a position term that is not a loop variable, signal or slice.
    #[error("part of `{signal}`: a position term must be a loop variable, a signal or a slice")]
    BadPart {
        /// The signal.
        signal: String,
    },
    /// A loop variable outside a part's position.
    #[error("loop variable `{0}` used as a value (it may only position a part)")]
    LoopVar(String),
}

/// `max(1, ⌈log2 n⌉)`: bits of an index that names `n` things.
pub fn index_bits(n: usize) -> usize {
    let mut b = 1;
    while (1usize << b) < n {
        b += 1;
    }
    b
}

impl Expr {
    /// A whole signal.
    pub fn sig(name: impl Into<String>) -> Expr {
        Expr::Signal(name.into())
    }

    /// Bits `msb..=lsb` of a signal.
    pub fn slice(name: impl Into<String>, msb: usize, lsb: usize) -> Expr {
        Expr::Slice {
            signal: name.into(),
            msb,
            lsb,
        }
    }

    /// One bit of a signal.
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

    /// The width of the expression, given the width of each signal; `Err` names the first
    /// rule broken.
    pub fn width(&self, width_of: &dyn Fn(&str) -> Option<usize>) -> Result<usize, WidthError> {
        let sig = |s: &str| width_of(s).ok_or_else(|| WidthError::Unknown(s.to_owned()));
        match self {
            Expr::Signal(s) => sig(s),
            Expr::Slice { signal, msb, lsb } => {
                let width = sig(signal)?;
                if msb < lsb || *msb >= width {
                    return Err(WidthError::BadSlice {
                        signal: signal.clone(),
                        msb: *msb,
                        lsb: *lsb,
                        width,
                    });
                }
                Ok(msb - lsb + 1)
            }
            Expr::Row {
                signal,
                index,
                width: row,
            } => {
                let width = sig(signal)?;
                let iw = index.width(width_of)?;
                let bad = |reason| WidthError::BadRow {
                    signal: signal.clone(),
                    width,
                    row: *row,
                    index: iw,
                    reason,
                };
                if *row == 0 || !width.is_multiple_of(*row) {
                    return Err(bad("the rows must divide the signal"));
                }
                if iw != index_bits(width / row) {
                    return Err(bad("the index must have exactly max(1, clog2(rows)) bits"));
                }
                if width == *row {
                    return Err(bad("a signal of one row is read whole, not indexed"));
                }
                if !matches!(**index, Expr::Signal(_) | Expr::Slice { .. }) {
                    return Err(bad(
                        "the index must be a signal or a slice (Verilator widens an expression in a part-select base)",
                    ));
                }
                Ok(*row)
            }
            Expr::Word {
                memory,
                index,
                width: word,
            } => {
                let width = sig(memory)?;
                let iw = index.width(width_of)?;
                let bad = |reason| WidthError::BadRow {
                    signal: memory.clone(),
                    width,
                    row: *word,
                    index: iw,
                    reason,
                };
                if *word == 0 || !width.is_multiple_of(*word) || width / word < 2 {
                    return Err(bad("a memory has at least two words of its width"));
                }
                if iw != index_bits(width / word) {
                    return Err(bad("the index must have exactly max(1, clog2(depth)) bits"));
                }
                if !matches!(**index, Expr::Signal(_) | Expr::Slice { .. }) {
                    return Err(bad("the index must be a signal or a slice"));
                }
                Ok(*word)
            }
            Expr::Part {
                signal,
                terms,
                width,
                ..
            } => {
                sig(signal)?;
                for (t, _) in terms {
                    match t {
                        Expr::LoopVar(_) => {}
                        Expr::Signal(_) | Expr::Slice { .. } => {
                            t.width(width_of)?;
                        }
                        _ => {
                            return Err(WidthError::BadPart {
                                signal: signal.clone(),
                            })
                        }
                    }
                }
                if *width == 0 {
                    return Err(WidthError::Empty);
                }
                Ok(*width)
            }
            Expr::LoopVar(v) => Err(WidthError::LoopVar(v.clone())),
            Expr::Const { width, words } => {
                if *width == 0 || significant_bits(words) > *width {
                    return Err(WidthError::BadConst {
                        text: self.to_string(),
                        width: *width,
                    });
                }
                Ok(*width)
            }
            Expr::Concat(parts) => {
                if parts.is_empty() {
                    return Err(WidthError::Empty);
                }
                parts.iter().map(|p| p.width(width_of)).sum()
            }
            Expr::Repeat { count, expr } => {
                if *count == 0 {
                    return Err(WidthError::Empty);
                }
                Ok(count * expr.width(width_of)?)
            }
            Expr::Unary { op, arg } => {
                let w = arg.width(width_of)?;
                Ok(if *op == UnaryOp::Not { w } else { 1 })
            }
            Expr::Binary { op, lhs, rhs } => {
                let (l, r) = (lhs.width(width_of)?, rhs.width(width_of)?);
                if op.is_shift() {
                    return Ok(l);
                }
                if l != r {
                    return Err(WidthError::Operands {
                        op: op.symbol(),
                        lhs: l,
                        rhs: r,
                    });
                }
                Ok(if op.is_comparison() { 1 } else { l })
            }
            Expr::Mux { cond, then, els } => {
                let c = cond.width(width_of)?;
                if c != 1 {
                    return Err(WidthError::Condition(c));
                }
                let (a, b) = (then.width(width_of)?, els.width(width_of)?);
                if a != b {
                    return Err(WidthError::Operands {
                        op: "?:",
                        lhs: a,
                        rhs: b,
                    });
                }
                Ok(a)
            }
        }
    }

    /// Calls `f` on the name of every signal the expression mentions, in order.
    pub fn for_each_signal<'a>(&'a self, f: &mut impl FnMut(&'a str)) {
        match self {
            Expr::Signal(s) | Expr::Slice { signal: s, .. } => f(s),
            Expr::Row { signal, index, .. }
            | Expr::Word {
                memory: signal,
                index,
                ..
            } => {
                f(signal);
                index.for_each_signal(f);
            }
            Expr::Part { signal, terms, .. } => {
                f(signal);
                terms.iter().for_each(|(t, _)| t.for_each_signal(f));
            }
            Expr::Const { .. } | Expr::LoopVar(_) => {}
            Expr::Concat(parts) => parts.iter().for_each(|p| p.for_each_signal(f)),
            Expr::Repeat { expr, .. } | Expr::Unary { arg: expr, .. } => expr.for_each_signal(f),
            Expr::Binary { lhs, rhs, .. } => {
                lhs.for_each_signal(f);
                rhs.for_each_signal(f);
            }
            Expr::Mux { cond, then, els } => {
                cond.for_each_signal(f);
                then.for_each_signal(f);
                els.for_each_signal(f);
            }
        }
    }

    /// Whether the expression could be driven by an assign or an instance output: signals,
    /// static slices, and concatenations made only of those.
    pub fn is_lvalue(&self) -> bool {
        match self {
            Expr::Signal(_) | Expr::Slice { .. } => true,
            Expr::Concat(parts) => !parts.is_empty() && parts.iter().all(Expr::is_lvalue),
            _ => false,
        }
    }

    /// Whether the expression can be the target of a register load (`<=`): an lvalue or a
    /// row selection.
    pub fn is_register_target(&self) -> bool {
        matches!(
            self,
            Expr::Row { .. } | Expr::Part { .. } | Expr::Word { .. }
        ) || self.is_lvalue()
    }

    /// Writes the expression as Verilog. `width_of` gives the declared width of a signal;
    /// a slice of a 1-bit signal (declared without a range) is written as the bare name.
    pub fn write_verilog(&self, out: &mut String, width_of: &dyn Fn(&str) -> Option<usize>) {
        self.write(out, width_of, true);
    }

    fn write(&self, out: &mut String, width_of: &dyn Fn(&str) -> Option<usize>, top: bool) {
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
            Expr::Row {
                signal,
                index,
                width,
            } => {
                out.push_str(signal);
                out.push('[');
                if *width == 1 {
                    index.write(out, width_of, true);
                } else {
                    index.write(out, width_of, false);
                    let _ = write!(out, "*{width} +: {width}");
                }
                out.push(']');
            }
            Expr::Word { memory, index, .. } => {
                out.push_str(memory);
                out.push('[');
                index.write(out, width_of, true);
                out.push(']');
            }
            Expr::Part {
                signal,
                terms,
                offset,
                width,
            } => {
                out.push_str(signal);
                out.push('[');
                let mut first = true;
                for (t, stride) in terms {
                    if !first {
                        out.push_str(" + ");
                    }
                    first = false;
                    t.write(out, width_of, false);
                    // A signal term is written `x*1` too: the product is as wide as the
                    // integer terms it is added to (no WIDTHEXPAND).
                    if *stride != 1 || !matches!(t, Expr::LoopVar(_)) {
                        let _ = write!(out, "*{stride}");
                    }
                }
                if *offset != 0 || first {
                    if !first {
                        out.push_str(" + ");
                    }
                    let _ = write!(out, "{offset}");
                }
                let _ = write!(out, " +: {width}]");
            }
            Expr::LoopVar(v) => out.push_str(v),
            Expr::Const { width, words } => write_constant(out, *width, words),
            Expr::Concat(parts) => {
                out.push('{');
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    p.write(out, width_of, true);
                }
                out.push('}');
            }
            Expr::Repeat { count, expr } => {
                let _ = write!(out, "{{{count}{{");
                expr.write(out, width_of, true);
                out.push_str("}}");
            }
            Expr::Unary { op, arg } => {
                out.push(match op {
                    UnaryOp::Not => '~',
                    UnaryOp::All => '&',
                    UnaryOp::Any => '|',
                    UnaryOp::Parity => '^',
                });
                arg.write(out, width_of, false);
            }
            Expr::Binary { op, lhs, rhs } => {
                if !top {
                    out.push('(');
                }
                lhs.write(out, width_of, same_assoc(*op, lhs));
                let _ = write!(out, " {} ", op.symbol());
                match &**rhs {
                    // A constant shift amount reads best as a plain number: `a << 1`.
                    Expr::Const { words, .. } if op.is_shift() => {
                        let _ = write!(out, "{}", words.first().copied().unwrap_or(0));
                    }
                    _ => rhs.write(out, width_of, same_assoc(*op, rhs)),
                }
                if !top {
                    out.push(')');
                }
            }
            Expr::Mux { cond, then, els } => {
                if !top {
                    out.push('(');
                }
                cond.write(out, width_of, false);
                out.push_str(" ? ");
                then.write(out, width_of, false);
                out.push_str(" : ");
                // `a ? b : c ? d : e` chains read as an if-else ladder.
                els.write(out, width_of, matches!(**els, Expr::Mux { .. }));
                if !top {
                    out.push(')');
                }
            }
        }
    }
}

/// Operands of an associative bitwise operator that use the same operator need no
/// parentheses: `a | b | c`.
fn same_assoc(op: BinaryOp, e: &Expr) -> bool {
    matches!(
        op,
        BinaryOp::And | BinaryOp::Or | BinaryOp::Xor | BinaryOp::Add
    ) && matches!(e, Expr::Binary { op: o, .. } if *o == op)
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

/// The widest literal written as one number; wider constants are written as a
/// replication of zeros or a concatenation of parts (Verilator refuses literals over
/// 65,536 bits, and the long lines help no reader).
const MAX_LITERAL_BITS: usize = 1024;

/// `1'b0`/`1'b1` for one bit, `W'dN` up to 32 bits, `W'h…` above, every hex digit written.
/// A value too wide for `width` (rejected by validation) is written in full so that
/// messages show it.
fn write_constant(out: &mut String, width: usize, words: &[u64]) {
    let significant = significant_bits(words);
    if width > MAX_LITERAL_BITS && significant <= width {
        if significant == 0 {
            // Replications of at most 8,192 bits (Verilator's --replication-limit).
            const REPLICATION: usize = 8192;
            if width <= REPLICATION {
                let _ = write!(out, "{{{width}{{1'b0}}}}");
                return;
            }
            out.push('{');
            let mut left = width;
            while left > 0 {
                let part = left.min(REPLICATION);
                let _ = write!(out, "{{{part}{{1'b0}}}}");
                left -= part;
                if left > 0 {
                    out.push_str(", ");
                }
            }
            out.push('}');
            return;
        }
        // Most significant part first.
        out.push('{');
        let mut hi = width;
        while hi > 0 {
            let lo = hi.saturating_sub(MAX_LITERAL_BITS);
            let part: Vec<u64> = (0..(hi - lo).div_ceil(64))
                .map(|k| {
                    (0..64)
                        .filter(|&b| lo + k * 64 + b < hi && word_bit(words, lo + k * 64 + b))
                        .fold(0u64, |acc, b| acc | 1 << b)
                })
                .collect();
            write_constant(out, hi - lo, &part);
            if lo > 0 {
                out.push_str(", ");
            }
            hi = lo;
        }
        out.push('}');
        return;
    }
    let digits = width.max(significant);
    if digits == 1 {
        let _ = write!(out, "{width}'b{}", u8::from(word_bit(words, 0)));
    } else if digits <= 32 {
        let _ = write!(out, "{width}'d{}", words.first().copied().unwrap_or(0));
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

    fn widths(n: &str) -> Option<usize> {
        match n {
            "one" => Some(1),
            "idx" => Some(2),
            "rows" => Some(12),
            "bus" | "x" => Some(8),
            _ => None,
        }
    }

    fn v(e: &Expr) -> String {
        let mut s = String::new();
        e.write_verilog(&mut s, &widths);
        s
    }

    fn bin(op: BinaryOp, a: Expr, b: Expr) -> Expr {
        Expr::Binary {
            op,
            lhs: Box::new(a),
            rhs: Box::new(b),
        }
    }

    #[test]
    fn writes_verilog() {
        assert_eq!(v(&Expr::bit("one", 0)), "one");
        assert_eq!(v(&Expr::bit("bus", 3)), "bus[3]");
        assert_eq!(v(&Expr::slice("bus", 7, 4)), "bus[7:4]");
        assert_eq!(v(&Expr::constant(1, 1)), "1'b1");
        assert_eq!(v(&Expr::constant(3, 5)), "3'd5");
        assert_eq!(v(&Expr::constant(10, 0x2a5)), "10'd677");
        assert_eq!(
            v(&Expr::constant_words(68, vec![1, 0xf])),
            "68'hf0000000000000001"
        );
        let c = Expr::concat([Expr::sig("one"), Expr::constant(1, 0)]);
        assert_eq!(v(&c), "{one, 1'b0}");
        assert!(!c.is_lvalue() && Expr::concat([Expr::sig("a")]).is_lvalue());
        let row = Expr::Row {
            signal: "rows".into(),
            index: Box::new(Expr::sig("idx")),
            width: 4,
        };
        assert_eq!(v(&row), "rows[idx*4 +: 4]");
        let or3 = bin(
            BinaryOp::Or,
            bin(BinaryOp::Or, "x".into(), "bus".into()),
            bin(BinaryOp::And, "x".into(), "bus".into()),
        );
        assert_eq!(v(&or3), "x | bus | (x & bus)");
        let mux = Expr::Mux {
            cond: Box::new("one".into()),
            then: Box::new("x".into()),
            els: Box::new(Expr::Mux {
                cond: Box::new(bin(BinaryOp::Eq, "x".into(), Expr::constant(8, 3))),
                then: Box::new("bus".into()),
                els: Box::new(Expr::zeros(8)),
            }),
        };
        assert_eq!(v(&mux), "one ? x : (x == 8'd3) ? bus : 8'd0");
    }

    #[test]
    fn computes_widths_and_names_the_rule_broken() {
        let w = |e: &Expr| e.width(&widths);
        assert_eq!(w(&bin(BinaryOp::Add, "x".into(), "bus".into())), Ok(8));
        assert_eq!(w(&bin(BinaryOp::Lt, "x".into(), "bus".into())), Ok(1));
        assert_eq!(w(&bin(BinaryOp::Shl, "x".into(), "idx".into())), Ok(8));
        assert!(matches!(
            w(&bin(BinaryOp::And, "x".into(), "one".into())),
            Err(WidthError::Operands { .. })
        ));
        let row = |index: Expr, width| Expr::Row {
            signal: "rows".into(),
            index: Box::new(index),
            width,
        };
        assert_eq!(w(&row("idx".into(), 4)), Ok(4));
        assert!(matches!(
            w(&row("idx".into(), 5)),
            Err(WidthError::BadRow { .. })
        ));
        assert!(matches!(
            w(&row("x".into(), 4)),
            Err(WidthError::BadRow { .. })
        ));
        assert!(matches!(
            w(&Expr::constant(2, 4)),
            Err(WidthError::BadConst { .. })
        ));
        assert!(matches!(w(&"nope".into()), Err(WidthError::Unknown(_))));
    }

    #[test]
    fn wide_constants_are_replications_or_concatenations() {
        assert_eq!(v(&Expr::zeros(5000)), "{5000{1'b0}}");
        assert_eq!(
            v(&Expr::zeros(20000)),
            "{{8192{1'b0}}, {8192{1'b0}}, {3616{1'b0}}}"
        );
        let mut words = vec![0u64; 2000usize.div_ceil(64)];
        words[0] = 1;
        let text = v(&Expr::constant_words(2000, words));
        assert!(text.starts_with("{1024'h0"), "{text}");
        assert!(text.contains(", 976'h0"), "{text}");
        assert!(text.ends_with("01}"), "{text}");
    }

    #[test]
    fn counts_bits() {
        assert_eq!(significant_bits(&[]), 0);
        assert_eq!(significant_bits(&[0, 0]), 0);
        assert_eq!(significant_bits(&[5]), 3);
        assert_eq!(significant_bits(&[0, 1]), 65);
        assert_eq!([1, 2, 3, 4, 5, 8, 9].map(index_bits), [1, 1, 2, 2, 3, 3, 4]);
    }
}
