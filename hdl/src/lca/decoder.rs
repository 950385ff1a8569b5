//! The route decoder (`docs/protocol.md` §1): for an address, the mask of downers that
//! lead to it from this switch — `down(Y, p)` of `docs/routing.md` §1 — and, in a Π
//! network, the mask of uppers `up(X, c)` for a packet of LCA level `h` towards `t`.
//!
//! Three variants, chosen at generation:
//! - **digits** (tree, cb): digit `level` of the address selects one downer (cb, and tree
//!   level 0) or the `u` downers of a group (tree levels ≥ 1); `up` is every upper, so the
//!   switch does not ask. An illegal digit (≥ its radix) or a level `≥ l` selects nothing.
//! - **levels** (tree, cb whose switch sizes vary by level, `docs/protocol.md` §1): the
//!   same decode written once per level the switch serves, each at its digit's fixed
//!   position, radix and (tree) group size `u_{j-1}`, selected by `level`; a level the
//!   switch does not serve selects nothing.
//! - **table** (Π): rows of the switch's ROM, which arrives on the inputs `tab_dn`
//!   (`down_rom[t]` at `t·d`) and `tab_up` (`up_rom[h][t]` at `(h·n + t)·u`), selected by
//!   the address (and `h`); an address `≥ n` or an `h ≥ l` selects nothing. The ROM is a
//!   module of its own beside each switch, so the switch stays one definition.
//!
//! The digit decoder decodes the addresses of every request of the DOWN arbiter at once
//! (one shift of all of them by the digit's position, `_digit_at`, then a one-hot or group
//! decode per request), so that the masks are ready, from registers, while the arbiter
//! selects the request to decide. A Π switch decodes only the decided request's addresses
//! (a ROM row per address would be as large as the table).

use super::layout::Layout;
use super::logic::gate;
use crate::netlist::{cat, index_bits, lit, or_all, zero, ModuleBuilder, V};

/// The decoder of one switch, with the per-level wires it shares between addresses.
pub(super) enum Decoder {
    /// Tree and cb: label digits.
    Digits {
        /// T-LCAN (groups of `u` downers above level 0).
        tree: bool,
        /// `_lvl_ok`: `level < l` (`None`: always, `l = 16`).
        lvl_ok: Option<V>,
        /// tree: `_lvl0`, `level = 0`.
        lvl0: Option<V>,
        /// Where the switch's digit starts in an address, if that depends on the level
        /// (`_digit_at`: `level·bd` for cb; `bd + (level − 1)·bg` for tree, the group digit).
        at: Option<V>,
    },
    /// Tree and cb with per-level switch sizes: per served level `j`, the flag
    /// `_lvl<j>` (`level = j`).
    Levels {
        /// T-LCAN.
        tree: bool,
        /// `(j, _lvl<j>)` for every level `j` the switch serves.
        served: Vec<(usize, V)>,
    },
    /// Π: the ROM rows.
    Table {
        /// `down_rom`.
        tab_dn: V,
        /// `up_rom`.
        tab_up: V,
        /// PEs.
        n: usize,
    },
}

/// `index` narrowed to `index_bits(rows)` bits, forced to 0 when `ok` is false unless every
/// value of that width is a row (so that a computed row never lies outside its signal).
/// The index is a signal: `index` itself or a wire `name` (Verilator wants a plain signal
/// as a computed row's index).
fn row_index(m: &mut ModuleBuilder, name: &str, index: &V, rows: usize, ok: Option<&V>) -> V {
    let ib = index_bits(rows);
    let narrow = index.low(ib);
    match ok {
        Some(ok) if 1 << ib != rows => m.def(name, ok.select(&narrow, zero(ib))),
        _ if narrow.name().is_some() => narrow,
        _ => m.def(name, narrow),
    }
}

impl Decoder {
    /// Declares the decoder's per-level wire (digits) or takes the ROM inputs (Π).
    pub(super) fn new(
        m: &mut ModuleBuilder,
        lay: &Layout,
        level: &V,
        tables: Option<(&V, &V)>,
    ) -> Decoder {
        if let (Some(n), Some((tab_dn, tab_up))) = (lay.pes, tables) {
            return Decoder::Table {
                tab_dn: tab_dn.clone(),
                tab_up: tab_up.clone(),
                n,
            };
        }
        let (l, bd, bg) = (lay.l, lay.bd, lay.bg);
        let tree = lay.params.topology == lcanet_sim::lcan::cycle::SwitchTopology::Tree;
        if lay.params.shapes.is_some() {
            m.comment(
                "Route decoder (docs/protocol.md §1, per-level sizes): digit `level` of an \
                 address chooses downers, decoded at each level this switch serves",
            );
            let served = (0..l)
                .filter(|&j| lay.params.serves(j))
                .map(|j| (j, m.def(format!("_lvl{j}"), level.is(j as u64))))
                .collect();
            return Decoder::Levels { tree, served };
        }
        m.comment(
            "Route decoder (docs/protocol.md §1): digit `level` of an address chooses downers",
        );
        // A tree with one level has only digit 0: the level check is `level == 0`.
        let lvl_ok =
            (l < 16 && !(tree && l == 1)).then(|| m.def("_lvl_ok", level.lt(&lit(4, l as u64))));
        let lvl0 = tree.then(|| m.def("_lvl0", level.is(0)));
        // The digit's position, in bits enough to index an address (a level ≥ l may alias
        // a legal position: its masks are gated by _lvl_ok).
        let w = index_bits(lay.ab);
        let lv = if w > 4 { level.zext(w) } else { level.low(w) };
        let at = if tree {
            // Group digits j = 1..l−1 (if there is more than one).
            (bg > 0 && l > 2).then(|| m.def("_digit_at", times(&lv.minus(1), bg).plus(bd as u64)))
        } else {
            (l > 1).then(|| m.def("_digit_at", times(&lv, bd)))
        };
        Decoder::Digits {
            tree,
            lvl_ok,
            lvl0,
            at,
        }
    }

    /// `down(Y, ·)` of every row of `addrs` (`rows` rows of `ab` bits: the address each
    /// request of an arbiter needs a wire towards), as a wire `name` of `rows` rows of `d`
    /// bits. Digits: every row is decoded, so the masks are ready while the arbiter selects.
    /// Π: only the row `sel` (one-hot over the rows) selects is decoded, through the wire
    /// `addr_name`, and its mask stands in every row (only the selected row's is used, so
    /// every row's grant, `dn_ok`, is right for the selected row).
    pub(super) fn down_rows(
        &self,
        m: &mut ModuleBuilder,
        lay: &Layout,
        name: &str,
        addr_name: &str,
        addrs: &V,
        sel: &V,
    ) -> V {
        let (d, u, ab, bd, bg) = (lay.d, lay.u, lay.ab, lay.bd, lay.bg);
        let rows = sel.width();
        let addr = |r: usize| addrs.row(r, ab);
        let base = name.trim_start_matches('_');
        // The field of `w` bits at the switch's digit of every row: the rows shifted by
        // the digit's position (one shift for all rows), or a fixed part.
        let mut field = |at: &Option<V>, fixed: usize, w: usize| -> Vec<V> {
            match at {
                Some(at) => {
                    let shifted = format!("_{base}_digits");
                    let v = m.def(shifted.as_str(), addrs.shr_by(at));
                    // Only each row's low `w` bits are the digit.
                    m.allow_unread(shifted);
                    (0..rows).map(|r| v.part(r * ab, w)).collect()
                }
                None => (0..rows).map(|r| addr(r).part(fixed, w)).collect(),
            }
        };
        match self {
            Decoder::Levels { tree, served } => {
                // Per row, the OR over served levels j of (level = j) & decode of digit j.
                // The addresses' other digits are other levels' business: read through an
                // alias whose unread bits are allowed (as the uniform decoder's shift).
                let digits = format!("_{base}_digits");
                let all = m.def(digits.as_str(), addrs.clone());
                m.allow_unread(digits);
                let addr = |r: usize| all.row(r, ab);
                let fmt = &lay.fmt;
                let decode = |r: usize, j: usize| -> V {
                    let (off, wj, radix) = fmt.digits[j];
                    let g = lay.params.group(j);
                    if *tree && j > 0 {
                        // Group `gi` of `g` downers for digit value `gi` (every downer when
                        // the radix is 1: the digit has no bits).
                        if wj == 0 {
                            return lit(d, (1 << d) - 1);
                        }
                        let digit = addr(r).part(off, wj);
                        cat((0..radix).rev().map(|gi| digit.is(gi as u64).repeat(g)))
                    } else {
                        lit(d, 1).shl_by(&addr(r).part(off, wj))
                    }
                };
                let rows_v = cat((0..rows)
                    .rev()
                    .map(|r| or_all(d, served.iter().map(|(j, on)| gate(&decode(r, *j), on)))));
                m.def(name, rows_v)
            }
            Decoder::Table { .. } => {
                let a = m.def(
                    addr_name,
                    pick(ab, (0..rows).map(|r| (addr(r), sel.bit(r)))),
                );
                let mask = self.down(m, lay, addr_name, &a);
                m.def(name, mask.repeat(rows))
            }
            Decoder::Digits {
                tree: false,
                lvl_ok,
                at,
                ..
            } => {
                // cb: the single downer `digit_level` (none for a level ≥ l).
                let digits = field(at, 0, bd);
                let one = cat(digits.iter().rev().map(|g| lit(d, 1).shl_by(g)));
                m.def(name, lvl_ok.as_ref().map_or(one.clone(), |ok| one.when(ok)))
            }
            Decoder::Digits {
                tree: true,
                lvl_ok,
                lvl0,
                at,
            } => {
                // tree: level 0 reads digit 0 (one downer); level j ≥ 1 the base-d/u digit
                // j, whose group of u downers g·u .. g·u + u − 1 it chooses (every downer if
                // d = u); none for a level ≥ l.
                let lvl0 = lvl0.as_ref().expect("a tree decoder knows level 0");
                let one = cat((0..rows).rev().map(|r| lit(d, 1).shl_by(&addr(r).low(bd))));
                let groups = if lay.l == 1 {
                    zero(rows * d)
                } else {
                    let all = if bg == 0 {
                        lit(d, (1 << d) - 1).repeat(rows)
                    } else {
                        let g = field(at, bd, bg);
                        cat(g.iter().rev().flat_map(|g| {
                            (0..d / u).rev().map(move |gi| g.is(gi as u64).repeat(u))
                        }))
                    };
                    lvl_ok.as_ref().map_or(all.clone(), |ok| all.when(ok))
                };
                m.def(name, lvl0.select(one, groups))
            }
        }
    }

    /// Whether every route mask this decoder produces has at most one downer (cb, and a
    /// tree whose child groups are single links), so the arbiter needs no order from `q`.
    pub(super) fn single_downer(&self, lay: &Layout) -> bool {
        let cb = lay.params.topology == lcanet_sim::lcan::cycle::SwitchTopology::Cb;
        match self {
            Decoder::Digits { .. } => cb || lay.u == 1,
            Decoder::Levels { served, .. } => {
                cb || served.iter().all(|&(j, _)| lay.params.group(j) == 1)
            }
            Decoder::Table { .. } => false,
        }
    }

    /// Π: `down(Y, addr)` as a `d`-bit value; `addr` is a named signal of `ab` bits, and
    /// `name` prefixes the wires the decoder needs on the way.
    fn down(&self, m: &mut ModuleBuilder, lay: &Layout, name: &str, addr: &V) -> V {
        let Decoder::Table { tab_dn, n, .. } = self else {
            unreachable!("the digit decoder decodes rows (down_rows)");
        };
        let ok = (1 << lay.ab != *n).then(|| addr.lt(&lit(lay.ab, *n as u64)));
        let idx = row_index(m, &format!("_{name}_row"), addr, *n, ok.as_ref());
        let row = tab_dn.row_at(&idx, lay.d);
        ok.map_or(row.clone(), |ok| gate(&row, &ok))
    }

    /// Π only: `up(X, c)` for a packet of LCA level `h` (`hb` bits) towards `t` (`ab` bits),
    /// as a `u`-bit wire `name`; `None` for tree and cb (every upper).
    pub(super) fn up(
        &self,
        m: &mut ModuleBuilder,
        lay: &Layout,
        name: &str,
        h: &V,
        t: &V,
    ) -> Option<V> {
        let Decoder::Table { tab_up, n, .. } = self else {
            return None;
        };
        let (l, u, n) = (lay.l, lay.u, *n);
        let h_ok = (1 << lay.hb != l).then(|| h.lt(&lit(lay.hb, l as u64)));
        let t_ok = (1 << lay.ab != n).then(|| t.lt(&lit(lay.ab, n as u64)));
        // One level: the table is one row, read whole (an index would be unread).
        let rows = if l == 1 {
            tab_up.clone()
        } else {
            let h_idx = row_index(m, &format!("_{name}_level_row"), h, l, h_ok.as_ref());
            m.def(format!("_{name}_rows"), tab_up.row_at(&h_idx, n * u))
        };
        let t_idx = row_index(m, &format!("_{name}_dst_row"), t, n, t_ok.as_ref());
        let row = rows.row_at(&t_idx, u);
        let oks: Vec<V> = h_ok.into_iter().chain(t_ok).collect();
        Some(m.def(
            name,
            if oks.is_empty() {
                row
            } else {
                let ok = oks.into_iter().reduce(|a, b| a & b).expect("non-empty");
                gate(&row, &ok)
            },
        ))
    }
}

/// `v · k` for a constant `k ≥ 1`, in the width of `v` (a sum of shifted copies).
fn times(v: &V, k: usize) -> V {
    (0..usize::BITS as usize)
        .filter(|i| k >> i & 1 == 1)
        .map(|i| if i == 0 { v.clone() } else { v.shl(i) })
        .reduce(|a, b| a + b)
        .expect("k is at least 1")
}

/// The OR of `(value, condition)` pairs of equal width: a one-hot multiplexer.
pub(super) fn pick(width: usize, pairs: impl IntoIterator<Item = (V, V)>) -> V {
    or_all(width, pairs.into_iter().map(|(v, c)| gate(&v, &c)))
}
