//! The routing functions the arbiters' choices are checked against, written from
//! `docs/protocol.md` §1 and `docs/routing.md` §2 — not from the RTL's decoder:
//!
//! - `down(Y, addr)`: the downers of this switch (level `f_level`) whose subtree holds PE
//!   `addr`. Tree and cb: label digit `level` of the address (cb: digit `j` is the `bd`-bit
//!   field `j`; tree: digit 0 the `bd`-bit field at 0, digit `j ≥ 1` the `bg`-bit field at
//!   `bd + (j − 1)·bg`), one downer (cb, tree level 0) or the `u` downers `g·u …` of group
//!   `g` (tree levels ≥ 1); an illegal digit or a level `≥ l` selects none. Π: row `addr`
//!   of `down_rom` (`tab_dn`), none for `addr ≥ n`.
//! - `up(X, (h, t))`: every upper (tree, cb); Π: `up_rom[h][t]` (`tab_up`), none for
//!   `h ≥ l` or `t ≥ n`.
//! - the first wire of a mask in the cyclic order `q, q+1, …` (one-hot).

use crate::formal::text::{or_of, sl};
use crate::lca::Layout;
use lcanet_sim::lcan::cycle::SwitchTopology;

/// `down(Y, addr)` (`d` bits) of the `ab`-bit wire `addr`.
pub(super) fn down(lay: &Layout, addr: &str) -> String {
    let (d, u, bd, bg) = (lay.d, lay.u, lay.bd, lay.bg);
    // Downer x iff the digit (of `bits` bits) is x: none for an illegal digit.
    let onehot = |digit: String, bits: usize| {
        let bits: Vec<String> = (0..d)
            .rev()
            .map(|x| format!("({digit} == {bits}'d{x})"))
            .collect();
        format!("{{{}}}", bits.join(", "))
    };
    match lay.params.topology {
        SwitchTopology::Table { pes } => {
            let terms: Vec<String> = (0..pes)
                .map(|t| {
                    format!(
                        "(({addr} == {}'d{t}) ? {} : {d}'d0)",
                        lay.ab,
                        sl("tab_dn", t * d, d)
                    )
                })
                .collect();
            or_of(&terms, d)
        }
        SwitchTopology::Cb => {
            let terms: Vec<String> = (0..lay.l)
                .map(|j| {
                    format!(
                        "((f_level == 4'd{j}) ? {} : {d}'d0)",
                        onehot(sl(addr, j * bd, bd), bd)
                    )
                })
                .collect();
            or_of(&terms, d)
        }
        SwitchTopology::Tree => {
            let terms: Vec<String> = (0..lay.l)
                .map(|j| {
                    let mask = if j == 0 {
                        onehot(sl(addr, 0, bd), bd)
                    } else if bg == 0 {
                        format!("{d}'d{}", (1u64 << d) - 1)
                    } else {
                        let g = sl(addr, bd + (j - 1) * bg, bg);
                        let bits: Vec<String> = (0..d)
                            .rev()
                            .map(|x| format!("({g} == {bg}'d{})", x / u))
                            .collect();
                        format!("{{{}}}", bits.join(", "))
                    };
                    format!("((f_level == 4'd{j}) ? {mask} : {d}'d0)")
                })
                .collect();
            or_of(&terms, d)
        }
    }
}

/// `up(X, c)` (`u` bits) of a packet of LCA level `h` (`hb`-bit wire) towards `t`.
pub(super) fn up(lay: &Layout, h: &str, t: &str) -> String {
    let u = lay.u;
    match lay.params.topology {
        SwitchTopology::Table { pes } => {
            let mut terms = Vec::new();
            for hh in 0..lay.l {
                for tt in 0..pes {
                    terms.push(format!(
                        "(({h} == {}'d{hh} && {t} == {}'d{tt}) ? {} : {u}'d0)",
                        lay.hb,
                        lay.ab,
                        sl("tab_up", (hh * pes + tt) * u, u)
                    ));
                }
            }
            or_of(&terms, u)
        }
        _ => format!("{u}'d{}", (1u64 << u) - 1),
    }
}

/// The first set bit of the `w`-bit wire `mask` in the cyclic order `q, q+1, …, q−1`, as a
/// one-hot value (zero if `mask` is); `q` is `None` for the fixed pointer 0.
pub(super) fn first_from(mask: &str, w: usize, q: Option<&str>) -> String {
    // The first set bit in the order starting at `v`.
    let from = |v: usize| {
        let bits: Vec<String> = (0..w)
            .rev()
            .map(|i| {
                // The positions before i in the order v, v+1, …
                let before: Vec<String> = (0..w)
                    .map(|j| (v + j) % w)
                    .take_while(|&p| p != i)
                    .map(|p| format!("{mask}[{p}]"))
                    .collect();
                if before.is_empty() {
                    format!("{mask}[{i}]")
                } else {
                    format!("({mask}[{i}] & !({}))", before.join(" | "))
                }
            })
            .collect();
        format!("{{{}}}", bits.join(", "))
    };
    match q {
        Some(q) if w > 1 => {
            let qb = crate::netlist::index_bits(w);
            let terms: Vec<String> = (0..w)
                .map(|v| format!("(({q} == {qb}'d{v}) ? {} : {w}'d0)", from(v)))
                .collect();
            or_of(&terms, w)
        }
        _ => from(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cyclic_order_starts_at_q() {
        assert_eq!(first_from("m", 1, Some("q")), "{m[0]}");
        assert_eq!(
            first_from("m", 3, None),
            "{(m[2] & !(m[0] | m[1])), (m[1] & !(m[0])), m[0]}"
        );
        let s = first_from("m", 2, Some("q"));
        assert!(s.contains("(q == 1'd1) ? {m[1], (m[0] & !(m[1]))}"), "{s}");
    }
}
