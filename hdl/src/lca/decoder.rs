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
        /// `_level_1h`: bit `j` iff `level = j`, for the levels `0..l` of the network (all
        /// zero for a level `≥ l`): which digit of an address this switch reads.
        level_1h: V,
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
        let tree = lay.params.topology == lcanet_sim::lcan::cycle::SwitchTopology::Tree;
        m.comment(
            "Route decoder (docs/protocol.md §1): digit `level` of an address chooses downers",
        );
        let level_1h = m.def(
            "_level_1h",
            cat((0..lay.l).rev().map(|j| level.is(j as u64))),
        );
        Decoder::Digits { tree, level_1h }
    }

    /// `down(Y, ·)` of every row of `addrs` (`rows` rows of `ab` bits: the address each
    /// request of an arbiter needs a wire towards), as a wire `name` of `rows` rows of `d`
    /// bits. Digits: every row is decoded, so the masks are ready while the arbiter selects.
    /// Π: only the row `sel` (one-hot over the rows) selects is decoded, through the wire
    /// `addr_name`, and its mask stands in every row (only the selected row's is used).
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
        // The field at `lsb` (`w` bits) of every row, selected by the level one-hot over
        // `levels` (level `first + j` reads the field at `lsb(j)`).
        let field =
            |level_1h: &V, levels: std::ops::Range<usize>, lsb: &dyn Fn(usize) -> usize, w| {
                or_all(
                    rows * w,
                    levels.map(|j| {
                        cat((0..rows).rev().map(|r| addr(r).part(lsb(j), w))).when(&level_1h.bit(j))
                    }),
                )
            };
        match self {
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
                level_1h,
            } => {
                // cb: the single downer `digit_level` (none for a level ≥ l).
                let digits = m.def(
                    format!("_{}_digit", name.trim_start_matches('_')),
                    field(level_1h, 0..lay.l, &|j| j * bd, bd),
                );
                let one = cat((0..rows)
                    .rev()
                    .map(|r| lit(d, 1).shl_by(&digits.row(r, bd))));
                m.def(name, one.when(&level_1h.any()))
            }
            Decoder::Digits {
                tree: true,
                level_1h,
            } => {
                // tree: level 0 reads digit 0 (one downer); level j ≥ 1 the base-d/u digit
                // j, whose group of u downers g·u .. g·u + u − 1 it chooses (every downer if
                // d = u); none for a level ≥ l.
                let lvl0 = level_1h.bit(0);
                let one = cat((0..rows).rev().map(|r| lit(d, 1).shl_by(&addr(r).low(bd))));
                let groups = if lay.l == 1 {
                    zero(rows * d)
                } else {
                    let up_ok = level_1h.bits(lay.l - 1, 1).any();
                    let all = if bg == 0 {
                        lit(d, (1 << d) - 1).repeat(rows)
                    } else {
                        let g = m.def(
                            format!("_{}_group", name.trim_start_matches('_')),
                            field(level_1h, 1..lay.l, &|j| bd + (j - 1) * bg, bg),
                        );
                        cat((0..rows).rev().flat_map(|r| {
                            let g = g.row(r, bg);
                            (0..d / u).rev().map(move |gi| g.is(gi as u64).repeat(u))
                        }))
                    };
                    all.when(&up_ok)
                };
                m.def(name, lvl0.select(one, groups))
            }
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

/// The OR of `(value, condition)` pairs of equal width: a one-hot multiplexer.
pub(super) fn pick(width: usize, pairs: impl IntoIterator<Item = (V, V)>) -> V {
    or_all(width, pairs.into_iter().map(|(v, c)| gate(&v, &c)))
}
