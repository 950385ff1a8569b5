//! Small word-level building blocks of the switch: the cyclic order both arbiters share
//! (`docs/routing.md` §2, "the first … in the cyclic order `p, p+1, …`") and the select of
//! the first set bit in an order, a one-hot to index encoder, the random policy's pointer
//! scaling, constant masks, and a gate for lanes.

use crate::netlist::{cat, index_bits, lit, lit_words, zero, ModuleBuilder, V};

/// `v` where `c` holds, else zero; a plain AND for one bit.
pub(super) fn gate(v: &V, c: &V) -> V {
    if v.width() == 1 {
        v & c
    } else {
        v.when(c)
    }
}

/// All ones of `n ≤ 64` bits.
pub(super) fn ones(n: usize) -> V {
    lit(n, if n == 64 { u64::MAX } else { (1 << n) - 1 })
}

/// A constant of `width` bits whose bit `i` is `f(i)` (any width).
pub(super) fn mask(width: usize, f: impl Fn(usize) -> bool) -> V {
    let mut words = vec![0u64; width.div_ceil(64)];
    for i in (0..width).filter(|&i| f(i)) {
        words[i / 64] |= 1 << (i % 64);
    }
    lit_words(width, words)
}

/// The cyclic order `p, p+1, …, R−1, 0, …` over `R` requesters, for items that belong to
/// requesters `of[i]`, as rows of `of.len()` bits (one row per item): bit `j` of row `i`
/// says that item `j`'s requester comes before item `i`'s (never for the same requester).
/// From the thermometer `<name>_from` (requesters `≥ p`; `<name>_items`: items whose
/// requester is `≥ p`, when items are not requesters): row `i` is
/// `from & below(i)` if item `i`'s requester is `≥ p`, else `from | below(i)`, where
/// `below(i)` are the items of requesters `< of[i]`. The rows depend on the pointer only,
/// so a select that reads them (see [`first_in`]) needs no carry chain in its path. With
/// `p = None` (fixed pointer 0) the rows are the constants `below(i)`; a wire `name` is
/// declared when they are not constant.
pub(super) fn cyclic_before(
    m: &mut ModuleBuilder,
    name: &str,
    r: usize,
    of: &[usize],
    p: Option<&V>,
) -> V {
    let n = of.len();
    let below = |i: usize| mask(n, |j| of[j] < of[i]);
    match p {
        Some(p) if r > 1 => {
            let therm = m.def(format!("{name}_from"), ones(r).shl_by(p));
            let from = if of.iter().copied().eq(0..r) {
                therm
            } else {
                m.def(
                    format!("{name}_items"),
                    cat(of.iter().rev().map(|&i| therm.bit(i))),
                )
            };
            m.def(
                name,
                cat((0..n)
                    .rev()
                    .map(|i| from.bit(i).select(&from & below(i), &from | below(i)))),
            )
        }
        _ => cat((0..n).rev().map(below)),
    }
}

/// The first set bit of `v` in an order given as rows of "before" bits (`before(i)`: the
/// positions that come before `i`, e.g. rows of [`cyclic_before`]), one-hot, as a wire
/// `name` (zero if `v` is zero): bit `i` is set if `v[i]` is and no set bit of `v` comes
/// before `i`. `v` is a named signal (it is read more than once).
pub(super) fn first_in(m: &mut ModuleBuilder, name: &str, v: &V, before: impl Fn(usize) -> V) -> V {
    let n = v.width();
    if n == 1 {
        return m.def(name, v);
    }
    let ahead = cat((0..n).rev().map(|i| (before(i) & v).any()));
    m.def(name, v & !ahead)
}

/// The lowest set bit of `v` (one-hot; zero if `v` is zero): a bit with no set bit below
/// it, `v & ~(v << 1 | v << 2 | …)` (no carry chain).
fn lowest(v: &V) -> V {
    let n = v.width();
    match (1..n).map(|k| v.shl(k)).reduce(|a, b| a | b) {
        Some(below) => v & !below,
        None => v.clone(),
    }
}

/// The first set bit of `v` in the cyclic order `p, p+1, …, n−1, 0, …` as a one-hot wire
/// `name` (zero if `v` is zero): the lowest of the bits at or above `p` (`_<name>_above`)
/// if there are any, else of all of them. `p = None` is the fixed pointer 0. `v` is a
/// named signal (it is read more than once).
pub(super) fn first_from(m: &mut ModuleBuilder, name: &str, v: &V, p: Option<&V>) -> V {
    let n = v.width();
    match p {
        _ if n == 1 => m.def(name, v),
        None => m.def(name, lowest(v)),
        Some(p) => {
            let above = m.def(
                format!("_{}_above", name.trim_start_matches('_')),
                v & ones(n).shl_by(p),
            );
            m.def(name, above.any().select(lowest(&above), lowest(v)))
        }
    }
}

/// The index of the set bit of a one-hot value (`index_bits(n)` bits; 0 for zero).
pub(super) fn index_of(onehot: &V) -> V {
    let n = onehot.width();
    cat((0..index_bits(n)).rev().map(|bit| {
        let mask = (0..n)
            .filter(|i| i >> bit & 1 == 1)
            .fold(0u64, |m, i| m | 1 << i);
        (onehot & lit(n, mask)).any()
    }))
}

/// `(byte · m) >> 8` for an 8-bit `byte` and a constant `m ≥ 1`: the random policy's pointer
/// into `0..m` (`docs/routing.md` §2), as a wire `name` of `index_bits(m)` bits. The product
/// is a sum of shifted copies of `byte` (one per set bit of `m`), in `8 + index_bits(m)` bits;
/// its low 8 bits are deliberately unread.
pub(super) fn scale_byte(m: &mut ModuleBuilder, name: &str, byte: &V, mult: usize) -> V {
    let ib = index_bits(mult);
    let pw = 8 + ib;
    let wide = byte.zext(pw);
    let product = (0..usize::BITS as usize)
        .filter(|i| mult >> i & 1 == 1)
        .map(|i| wide.shl(i))
        .reduce(|a, b| a + b)
        .expect("the multiplier is at least 1");
    let product_name = format!("_{name}_product");
    let product = m.def(product_name.as_str(), product);
    // The low 8 bits are the fraction the pointer drops.
    m.allow_unread(product_name);
    m.def(name, product.top(ib))
}

/// `(v + 1) mod m` for an index `v` of `index_bits(m)` bits.
pub(super) fn next_mod(v: &V, m: usize) -> V {
    if m.is_power_of_two() && m > 1 {
        v.plus(1)
    } else {
        v.is((m - 1) as u64).select(zero(v.width()), v.plus(1))
    }
}
