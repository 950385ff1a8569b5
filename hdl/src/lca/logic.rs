//! Small word-level building blocks of the switch: the cyclic priority select both arbiters
//! share (`docs/routing.md` §2, "the first … in the cyclic order `p, p+1, …`"), a one-hot
//! to index encoder, the random policy's pointer scaling, and a gate for lanes.

use crate::netlist::{cat, index_bits, lit, zero, ModuleBuilder, V};

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

/// The first set bit of `v` in the cyclic order `p, p+1, …, n−1, 0, …` as a one-hot wire
/// `name` (zero if `v` is zero): the lowest (`x & −x`) of the bits at or above `p`
/// (`_<name>_above`) if there are any, else of all of them. `p = None` is the fixed pointer
/// 0. `v` is a named signal (it is read more than once).
pub(super) fn first_from(m: &mut ModuleBuilder, name: &str, v: &V, p: Option<&V>) -> V {
    let n = v.width();
    let lowest = |x: &V| x & (zero(n) - x);
    match p {
        None if n == 1 => m.def(name, v),
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
