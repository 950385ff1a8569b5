//! The DOWN arbiter (`docs/protocol.md` §7, `DOWN` and `PROBE`). Slots `S(k)`, `X(x)`,
//! `D(k)` are numbered `k`, `u + x`, `u + d + k`; requesters `k` (`B(k)`) and `u + x`
//! (`A(x)`). Wires are the downers, in two classes: up-wires `A(x)` (class 0, needed by
//! `S` and `X`) and down-wires `C(x)` (class 1, needed by `X` and `D`).
//!
//! - `DOWN`: `S(k)` is a valid S-slot on `B(k)` (needs an up-wire towards its source;
//!   **[guard]** `D(k)` not driven), `D(k)` a valid D-slot (a down-wire towards its
//!   destination; **[guard]** `B(k)` drives nothing), `X(x)` the waiting winner `win[x]`
//!   when `ctl_level = level` (tier 1: after every claim; both wires). Claims are served by
//!   key `(l−1−h, s)`, compared as `{~h, s}`.
//! - `PROBE`: `X(x)` is a probe turning on `A(x)` (up-wire `A(x)` itself and a down-wire),
//!   `D(k)` a probe on `B(k)` (a down-wire; **[guard]** `B(k)` drives nothing); keys 0.
//!
//! Service order `(tier, key, (r − p) mod R, S before D)`: `dn_first` keeps the pending
//! slots of the first tier and smallest key, `dn_rsel` the first of their requesters from
//! `p`, `dn_sel` the slot (an S-claim before the D-claim of the same link). One slot is
//! decided per bit-time; only its addresses are decoded. The outcome accumulates in
//! `dn_gnt`, `dn_rej`, `dn_ch0` (rows `S(k)`, `X(x)`: the up-wire) and `dn_ch1` (rows
//! `X(x)`, `D(k)`: the down-wire).

use super::datapath::State;
use super::decoder::Decoder;
use super::layout::Layout;
use super::logic::{cyclic_before, first_in, first_in_rows, mask};
use super::policy::PolicyState;
use super::switch::{Ctl, Ports};
use crate::netlist::{cat, or_all, zero, ModuleBuilder, V};

/// The DOWN arbiter's step outcome registers.
pub(super) struct DnArb {
    /// Up-wire granted to `S(0..u)`, `X(0..d)`: rows of `d` one-hot bits.
    pub ch0: V,
    /// Down-wire granted to `X(0..d)`, `D(0..u)`: rows of `d` one-hot bits.
    pub ch1: V,
}

/// Each bit of `v` repeated `w` times (a slot's flag over its row of wires).
fn spread(v: &V, w: usize) -> V {
    cat((0..v.width()).rev().map(|i| v.bit(i).repeat(w)))
}

/// The service order `(tier, key, (r − p) mod R, S before D)` over the slots, as the wire
/// `_dn_before`: row `i` holds the slots served before slot `i`. It depends on the keys,
/// the mode and `p` only, so it is ready while the pending requests are computed.
fn service_order(m: &mut ModuleBuilder, lay: &Layout, ctl: &Ctl, st: &State, p: Option<&V>) -> V {
    let (d, u, n) = (lay.d, lay.u, lay.dn_slots);
    let (p1, p2, ab, hb, kb) = (lay.p1, lay.p2, lay.ab, lay.hb, lay.kb);
    let rx_b_row = |k: usize| st.rx_b.row(k, p2);
    // Requesters in the cyclic order from p: B(k) = k, A(x) = u + x.
    let cyc = cyclic_before(m, "_dn_p", u + d, p);
    // A vector over requesters (or over claims S(0..u), D(0..u)) as one over slots.
    let req_slots = |r: V| cat([r.low(u), r.bits(u + d - 1, u), r.low(u)]);
    let claim_slots = |c: V| cat([c.bits(2 * u - 1, u), zero(d), c.low(u)]);
    let claims = mask(n, |s| s < u || s >= u + d);
    let xs = mask(n, |s| (u..u + d).contains(&s));
    // S(k) before D(k) (same requester).
    let same = |i: usize| mask(n, |j| i >= u + d && j == i - u - d);
    // Claim keys {~h, s} (l−1−h, then s; smallest first), S(0..u) then D(0..u).
    let claim_key = |k: usize, s_slot: bool| {
        let (h_at, s_at) = if s_slot { (p1 + ab, p1) } else { (2 * ab, ab) };
        cat([!rx_b_row(k).part(h_at, hb), rx_b_row(k).part(s_at, ab)])
    };
    let key = m.def(
        "_dn_key",
        cat((0..u)
            .rev()
            .map(|k| claim_key(k, false))
            .chain((0..u).rev().map(|k| claim_key(k, true)))),
    );
    // Row i: the claims whose key is smaller than claim i's.
    let c = 2 * u;
    let lt = m.def(
        "_dn_key_lt",
        cat((0..c).rev().flat_map(|i| {
            let key = key.clone();
            (0..c).rev().map(move |j| {
                if i == j {
                    zero(1)
                } else {
                    key.row(j, kb).lt(&key.row(i, kb))
                }
            })
        })),
    );
    let rows = (0..n).rev().map(|i| {
        let r_i = if i < u + d { i } else { i - u - d };
        let cyc_i = req_slots(cyc.row(r_i, u + d));
        let probe = &cyc_i | same(i);
        let down = if (u..u + d).contains(&i) {
            // X(x): tier 1, after every claim.
            &claims | (&xs & &cyc_i)
        } else {
            let ci = if i < u { i } else { i - d };
            let smaller = claim_slots(lt.row(ci, c));
            let larger = claim_slots(cat((0..c).rev().map(|j| lt.bit(j * c + ci))));
            smaller | (!larger & &claims & (&cyc_i | same(i)))
        };
        ctl.m_down.select(down, probe)
    });
    m.def("_dn_before", cat(rows))
}

/// Declares the DOWN arbiter and its process statements.
pub(super) fn build(
    m: &mut ModuleBuilder,
    lay: &Layout,
    p: &Ports,
    ctl: &Ctl,
    st: &State,
    dec: &Decoder,
) -> DnArb {
    let (d, u, n) = (lay.d, lay.u, lay.dn_slots);
    let (p1, p2, pr, ab) = (lay.p1, lay.p2, lay.pr, lay.ab);
    m.comment("DOWN arbiter (docs/protocol.md §7): slots S(k), X(x), D(k); wires: the downers");
    let gnt = m.reg("dn_gnt", n);
    let rej = m.reg("dn_rej", n);
    let ch0 = m.reg("dn_ch0", (u + d) * d);
    let ch1 = m.reg("dn_ch1", (d + u) * d);
    let used0 = m.reg("dn_used_a", d);
    let used1 = m.reg("dn_used_c", d);
    let seed = p
        .seed
        .as_ref()
        .map(|(seed16, _, salt_dn)| (seed16, salt_dn));
    let pol = PolicyState::declare(m, "dn", lay.policy(), u + d, d, seed);
    // Requests.
    let rx_b_row = |k: usize| st.rx_b.row(k, p2);
    let per_k = |f: &dyn Fn(usize) -> V| cat((0..u).rev().map(f));
    let s_req = per_k(&|k| rx_b_row(k).bit(p2 - 1)) & ctl.m_down.repeat(u);
    let d_req = ctl.m_down.select(
        per_k(&|k| rx_b_row(k).bit(p1 - 1)),
        per_k(&|k| rx_b_row(k).bit(pr - 1)) & ctl.m_probe.repeat(u),
    );
    let win_valid = cat((0..d).rev().map(|x| st.win.bit(x * p1 + p1 - 1)));
    let x_req =
        (win_valid & ctl.serve_win.repeat(d)) | (&st.a_valid & &st.a_here & ctl.m_probe.repeat(d));
    // Requests not decided yet, in the window; the first of them in service order.
    let pend = m.def(
        "dn_pend",
        cat([d_req, x_req, s_req]) & !(&gnt | &rej) & ctl.dn_window.repeat(n),
    );
    let before = service_order(m, lay, ctl, st, pol.p.as_ref());
    let sel = first_in(m, "dn_sel", &pend, &before);
    // The wires each slot may take: up-wires towards the source of S(k), X(x) (in PROBE,
    // A(x) itself), down-wires towards the destination of X(x), D(k).
    let win_row = |x: usize| st.win.row(x, p1);
    let srcs = cat((0..d)
        .rev()
        .map(|x| win_row(x).part(ab, ab))
        .chain((0..u).rev().map(|k| rx_b_row(k).part(p1, ab))));
    let dst_x = |x: usize| {
        ctl.m_probe
            .select(st.rx_a.part(x * p1, ab), win_row(x).part(0, ab))
    };
    let dsts = m.def(
        "_dn_dsts",
        cat((0..u)
            .rev()
            .map(|k| rx_b_row(k).part(0, ab))
            .chain((0..d).rev().map(dst_x))),
    );
    let (sel0, sel1) = (sel.bits(u + d - 1, 0), sel.bits(n - 1, u));
    let down_src = dec.down_rows(m, lay, "_dn_down_a", "dn_src", &srcs, &sel0);
    let down_dst = dec.down_rows(m, lay, "_dn_down_c", "dn_dst", &dsts, &sel1);
    let own = mask((u + d) * d, |i| i >= u * d && (i - u * d) / d == i % d);
    let free0 = !(&st.a_drives | &used0);
    let free1 = !(&st.c_driven | &used1);
    let avail0 = m.def(
        "_dn_avail_a",
        ctl.m_probe.select(own, down_src) & free0.repeat(u + d),
    );
    let avail1 = m.def("_dn_avail_c", down_dst & free1.repeat(d + u));
    // Each slot's grant if it were decided now: its wires (the first free allowed one from
    // q for each need) and the guards.
    let q_before = cyclic_before(m, "_dn_q", d, pol.q.as_ref());
    let pick0 = first_in_rows(m, "dn_pick_a", &avail0, u + d, &q_before);
    let pick1 = first_in_rows(m, "dn_pick_c", &avail1, d + u, &q_before);
    let any = |v: &V, rows: usize| cat((0..rows).rev().map(|r| v.row(r, d).any()));
    let any0 = m.def("_dn_found_a", any(&avail0, u + d));
    let any1 = m.def("_dn_found_c", any(&avail1, d + u));
    let ok = m.def(
        "dn_ok",
        cat([
            any1.bits(d + u - 1, d) & !&st.b_drives,
            any0.bits(u + d - 1, u) & any1.bits(d - 1, 0),
            any0.bits(u - 1, 0) & !&st.d_driven,
        ]),
    );
    let won = m.def("_dn_won", &sel & &ok);
    let take0 = m.def("_dn_take_a", &pick0 & spread(&won.bits(u + d - 1, 0), d));
    let take1 = m.def("_dn_take_c", &pick1 & spread(&won.bits(n - 1, u), d));
    let rows_or = |v: &V, rows: usize| or_all(d, (0..rows).map(|r| v.row(r, d)));
    // The requester granted: B(k) for S(k) or D(k), A(x) for X(x).
    let requester = cat([
        won.bits(u + d - 1, u),
        won.bits(u - 1, 0) | won.bits(n - 1, u + d),
    ]);
    let (init, commit) = (&p.init, &ctl.commit);
    m.always(|s| {
        s.comment("DOWN arbiter: one request per bit-time; the commit clears the outcome");
        s.if_(init | commit, |s| {
            s.load(&gnt, zero(n));
            s.load(&rej, zero(n));
            s.load(&ch0, zero((u + d) * d));
            s.load(&ch1, zero((d + u) * d));
            s.load(&used0, zero(d));
            s.load(&used1, zero(d));
        })
        .else_(|s| {
            s.load(&gnt, &gnt | &won);
            s.load(&rej, &rej | (&sel & !&ok));
            s.load(&ch0, &ch0 | &take0);
            s.load(&ch1, &ch1 | &take1);
            s.load(&used0, &used0 | rows_or(&take0, u + d));
            s.load(&used1, &used1 | rows_or(&take1, d + u));
            pol.record_grant(s, won.any(), &requester);
        });
    });
    pol.update(m, init, commit, gnt.any(), (&gnt | &rej).any());
    DnArb { ch0, ch1 }
}
