//! The switch's registers and the wires derived from them (`docs/protocol.md` §5, §6):
//! receive shift registers `rx_a`, `rx_b`; output registers `tx_c`, `tx_d` (each port is the
//! top `W` bits of its row); the crosspoints `xp_ac`, `xp_ad`, `xp_bc`, `xp_bd` (row =
//! input), which inputs drive and which outputs are driven, and what the pass-through and
//! reverse paths forward; the waiting winners `win`; the packet in `rx_a`. Their clocked
//! statements are in [`super::commit`].

use super::layout::Layout;
use super::logic::gate;
use super::switch::{Ctl, Ports};
use crate::netlist::{cat, or_all, ModuleBuilder, V};

/// Registers and the wires derived from them that the arbiters read.
pub(super) struct State {
    /// Receive registers, `d` rows of `P1` / `u` rows of `P2` bits.
    pub rx_a: V,
    /// See `rx_a`.
    pub rx_b: V,
    /// Output registers, `d` rows of `n(P2)·W` / `u` rows of `n(P1)·W` bits.
    pub tx_c: V,
    /// See `tx_c`.
    pub tx_d: V,
    /// Crosspoints: `xp_ac[x·d + x']`, `xp_ad[x·u + k]`, `xp_bc[k·d + x]`, `xp_bd[k·u + k']`.
    pub xp_ac: V,
    /// See `xp_ac`.
    pub xp_ad: V,
    /// See `xp_ac`.
    pub xp_bc: V,
    /// See `xp_ac`.
    pub xp_bd: V,
    /// Waiting winners, `d` rows laid out like a `P1` packet (valid bit on top).
    pub win: V,
    /// `A(x)` drives an output / `C(x)` is driven / `B(k)` drives / `D(k)` is driven.
    pub a_drives: V,
    /// See `a_drives`.
    pub c_driven: V,
    /// See `a_drives`.
    pub b_drives: V,
    /// See `a_drives`.
    pub d_driven: V,
    /// The packet in `rx_a[x]` (a `P1` packet in `UP`, a probe in `PROBE`): valid bit,
    /// LCA level (`d` rows of `hb` bits), and whether that level is this switch's.
    pub a_valid: V,
    /// See `a_valid`.
    pub a_lvl: V,
    /// See `a_valid`.
    pub a_here: V,
    /// What `PASS` or `REV` forwards to `C(0..d)` / `D(0..u)` this bit-time.
    pub pass_c: V,
    /// See `pass_c`.
    pub pass_d: V,
}

/// Declares the registers, the derived wires and the output ports' assigns.
pub(super) fn declare(m: &mut ModuleBuilder, lay: &Layout, p: &Ports, ctl: &Ctl) -> State {
    let (d, u, w) = (lay.d, lay.u, lay.w);
    let (p1, pr, ab, hb) = (lay.p1, lay.pr, lay.ab, lay.hb);
    m.comment("Receive registers: after n(P) bit-times packet bit i is register bit P-1-i");
    let rx_a = m.reg("rx_a", d * p1);
    let rx_b = m.reg("rx_b", u * lay.p2);
    m.comment("Output registers; each port is the top W bits of its row");
    let tx_c = m.reg("tx_c", d * lay.lc);
    let tx_d = m.reg("tx_d", u * lay.ld);
    let top = |r: &V, rows: usize, len: usize| cat((0..rows).rev().map(|i| r.row(i, len).top(w)));
    m.assign(&p.c, top(&tx_c, d, lay.lc));
    m.assign(&p.d, top(&tx_d, u, lay.ld));
    m.comment("Crosspoints (row = input): A->C, A->D, B->C, B->D");
    let xp_ac = m.reg("xp_ac", d * d);
    let xp_ad = m.reg("xp_ad", d * u);
    let xp_bc = m.reg("xp_bc", u * d);
    let xp_bd = m.reg("xp_bd", u * u);
    let a_drives = m.def(
        "a_drives",
        cat((0..d)
            .rev()
            .map(|x| cat([xp_ad.row(x, u), xp_ac.row(x, d)]).any())),
    );
    let b_drives = m.def(
        "b_drives",
        cat((0..u)
            .rev()
            .map(|k| cat([xp_bd.row(k, u), xp_bc.row(k, d)]).any())),
    );
    let c_driven = m.def(
        "c_driven",
        or_all(
            d,
            (0..d)
                .map(|x| xp_ac.row(x, d))
                .chain((0..u).map(|k| xp_bc.row(k, d))),
        ),
    );
    let d_driven = m.def(
        "d_driven",
        or_all(
            u,
            (0..d)
                .map(|x| xp_ad.row(x, u))
                .chain((0..u).map(|k| xp_bd.row(k, u))),
        ),
    );
    m.comment("PASS: output o forwards input i if i->o is closed; REV: a closed i->o carries partner(o) to partner(i)");
    let xp = [&xp_ac, &xp_ad, &xp_bc, &xp_bd];
    let pass_c = m.def(
        "pass_c",
        ctl.m_rev.select(
            reverse(&p.a, &p.b, xp[0], xp[1], d, w),
            forward(&p.a, &p.b, xp[0], xp[2], d, u, w),
        ),
    );
    let pass_d = m.def(
        "pass_d",
        ctl.m_rev.select(
            reverse(&p.a, &p.b, xp[2], xp[3], u, w),
            forward(&p.a, &p.b, xp[1], xp[3], d, u, w),
        ),
    );
    m.comment("Waiting winners: a P1 packet per downer (docs/protocol.md §7, UP)");
    let win = m.reg("win", d * p1);
    m.comment("The packet in rx_a: a P1 packet in UP, a probe in PROBE");
    let bits = |f: &dyn Fn(usize) -> V| cat((0..d).rev().map(f));
    let a_valid = m.def(
        "a_valid",
        ctl.arb_probe.select(
            bits(&|x| rx_a.bit(x * p1 + pr - 1)),
            bits(&|x| rx_a.bit(x * p1 + p1 - 1)),
        ),
    );
    let a_lvl = m.def(
        "_a_lvl",
        ctl.arb_probe.select(
            bits(&|x| rx_a.part(x * p1 + ab, hb)),
            bits(&|x| rx_a.part(x * p1 + 2 * ab, hb)),
        ),
    );
    let a_here = m.def("a_here", bits(&|x| a_lvl.row(x, hb).zext(4).eq(&p.level)));
    State {
        rx_a,
        rx_b,
        tx_c,
        tx_d,
        xp_ac,
        xp_ad,
        xp_bc,
        xp_bd,
        win,
        a_drives,
        c_driven,
        b_drives,
        d_driven,
        a_valid,
        a_lvl,
        a_here,
        pass_c,
        pass_d,
    }
}

/// Each bit repeated `w` times: a crosspoint row over outputs as a mask over their lanes.
fn spread(row: V, w: usize) -> V {
    if w == 1 {
        row
    } else {
        let n = row.width();
        cat((0..n).rev().map(|o| row.bit(o).repeat(w)))
    }
}

/// Forward lanes into the outputs of one side: each input's lanes go to every output its
/// crosspoint row closes. `from_a` has `d` rows (inputs `A`) over this side's outputs,
/// `from_b` `u` rows (inputs `B`).
pub(super) fn forward(a: &V, b: &V, from_a: &V, from_b: &V, d: usize, u: usize, w: usize) -> V {
    let outs = from_a.width() / d;
    or_all(
        outs * w,
        (0..d)
            .map(|y| spread(from_a.row(y, outs), w) & a.row(y, w).repeat(outs))
            .chain((0..u).map(|k| spread(from_b.row(k, outs), w) & b.row(k, w).repeat(outs))),
    )
}

/// Reverse lanes into the `outs` outputs of one side: output `o` (the partner of input `o`)
/// takes the lanes of the partner of every output that input `o`'s crosspoint rows close —
/// `to_a` (rows over the `C` outputs, whose partners are `A`) and `to_b` (over `D`: `B`).
pub(super) fn reverse(a: &V, b: &V, to_a: &V, to_b: &V, outs: usize, w: usize) -> V {
    let (da, db) = (to_a.width() / outs, to_b.width() / outs);
    cat((0..outs).rev().map(|o| {
        if w == 1 {
            (to_a.row(o, da) & a).any() | (to_b.row(o, db) & b).any()
        } else {
            or_all(
                w,
                (0..da)
                    .map(|x| gate(&a.row(x, w), &to_a.bit(o * da + x)))
                    .chain((0..db).map(|k| gate(&b.row(k, w), &to_b.bit(o * db + k)))),
            )
        }
    }))
}
