//! The route decoder (`docs/protocol.md` §1): for an address, the mask of downers that
//! lead to it from this switch — `down(Y, p)` of `docs/routing.md` §1 — and, in a Π
//! network, the mask of uppers `up(X, c)` for a packet of LCA level `h` towards `t`.
//!
//! Two variants, chosen at generation:
//! - **digits** (tree, cb): digit `level` of the address selects one downer (cb, and tree
//!   level 0) or the `u` downers of a group (tree levels ≥ 1); `up` is every upper, so the
//!   switch does not ask. An illegal digit (≥ its radix) or a level `≥ l` selects nothing.
//! - **table** (Π): rows of the switch's ROM, which arrives on the inputs `tab_dn`
//!   (`down_rom[t]` at `t·d`) and `tab_up` (`up_rom[h][t]` at `(h·n + t)·u`), selected by
//!   the address (and `h`); an address `≥ n` or an `h ≥ l` selects nothing. The ROM is a
//!   module of its own beside each switch, so the switch stays one definition.
//!
//! The arbiters decide one request per bit-time, so the switch decodes only the addresses
//! of the request being decided (two per arbiter), not those of every request.

use super::layout::Layout;
use super::logic::gate;
use crate::netlist::{cat, index_bits, lit, or_all, zero, ModuleBuilder, V};

/// The decoder of one switch, with the per-level wires it shares between addresses.
pub(super) enum Decoder {
    /// Tree and cb: label digits.
    Digits {
        /// T-LCAN (groups of `u` downers above level 0).
        tree: bool,
        /// `level < l` (`None`: always, `l = 16`).
        lvl_ok: Option<V>,
        /// Rows of equal digits: cb `l` (all of them), tree `l − 1` (the group digits above
        /// digit 0; 0 if there are none, `l = 1` or `d = u`).
        rows: usize,
        /// The row of the switch's digit, if there is more than one row.
        idx: Option<V>,
        /// tree: `level == 0`.
        lvl0: Option<V>,
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
    /// Declares the decoder's per-level wires (digits) or takes the ROM inputs (Π).
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
        let l = lay.l;
        let tree = lay.params.topology == lcanet_sim::lcan::cycle::SwitchTopology::Tree;
        m.comment(
            "Route decoder (docs/protocol.md §1): digit `level` of an address chooses downers",
        );
        // A tree with one level has only digit 0: the level check is `level == 0`.
        let lvl_ok =
            (l < 16 && !(tree && l == 1)).then(|| m.def("_lvl_ok", level.lt(&lit(4, l as u64))));
        if !tree {
            let idx = (l > 1).then(|| row_index(m, "_digit_idx", level, l, lvl_ok.as_ref()));
            return Decoder::Digits {
                tree,
                lvl_ok,
                rows: l,
                idx,
                lvl0: None,
            };
        }
        let lvl0 = m.def("_lvl0", level.is(0));
        // Group digits j = 1..l-1 are rows j-1 of the address above digit 0.
        let rows = if lay.bg > 0 { l - 1 } else { 0 };
        let idx = (rows > 1).then(|| {
            let above = level.low(index_bits(rows)).minus(1);
            if 1 << index_bits(rows) == rows {
                m.def("_group_idx", above)
            } else {
                let ok = match &lvl_ok {
                    Some(ok) => ok & !&lvl0,
                    None => !&lvl0,
                };
                m.def("_group_idx", ok.select(above, zero(index_bits(rows))))
            }
        });
        Decoder::Digits {
            tree,
            lvl_ok,
            rows,
            idx,
            lvl0: Some(lvl0),
        }
    }

    /// `down(Y, addr)` as a `d`-bit value; `addr` is a named signal of `ab` bits, and `name`
    /// prefixes the wires the decoder needs on the way.
    pub(super) fn down(&self, m: &mut ModuleBuilder, lay: &Layout, name: &str, addr: &V) -> V {
        let (d, u, bd, bg) = (lay.d, lay.u, lay.bd, lay.bg);
        match self {
            Decoder::Table { tab_dn, n, .. } => {
                let ok = (1 << lay.ab != *n).then(|| addr.lt(&lit(lay.ab, *n as u64)));
                let idx = row_index(m, &format!("_{name}_row"), addr, *n, ok.as_ref());
                let row = tab_dn.row_at(&idx, d);
                ok.map_or(row.clone(), |ok| gate(&row, &ok))
            }
            Decoder::Digits {
                tree: false,
                lvl_ok,
                idx,
                ..
            } => {
                let digit = match idx {
                    Some(idx) => addr.row_at(idx, bd),
                    None => addr.clone(),
                };
                let one = lit(d, 1).shl_by(&digit);
                lvl_ok.as_ref().map_or(one.clone(), |ok| gate(&one, ok))
            }
            Decoder::Digits {
                tree: true,
                lvl_ok,
                rows,
                idx,
                lvl0,
            } => {
                let lvl0 = lvl0.as_ref().expect("a tree decoder knows level 0");
                let one = lit(d, 1).shl_by(&addr.low(bd));
                // Group digit: the u downers g·u .. g·u + u − 1 (every downer if d = u).
                let groups = if *rows == 0 {
                    lit(d, (1 << d) - 1)
                } else {
                    let hi = addr.bits(lay.ab - 1, bd);
                    let g = match idx {
                        Some(idx) => {
                            let hi = m.def(format!("_{name}_hi"), hi);
                            m.def(format!("_{name}_group"), hi.row_at(idx, bg))
                        }
                        None => m.def(format!("_{name}_group"), hi),
                    };
                    cat((0..d / u).rev().map(|gi| g.is(gi as u64).repeat(u)))
                };
                let groups = match lvl_ok {
                    // Levels 1..l exist only if l > 1.
                    _ if lay.l == 1 => zero(d),
                    Some(ok) => gate(&groups, ok),
                    None => groups,
                };
                lvl0.select(one, groups)
            }
        }
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

/// The OR of `(value, condition)` pairs of equal width: a one-hot multiplexer.
pub(super) fn pick(width: usize, pairs: impl IntoIterator<Item = (V, V)>) -> V {
    or_all(width, pairs.into_iter().map(|(v, c)| gate(&v, &c)))
}
