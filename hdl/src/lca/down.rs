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
use super::decoder::{pick, Decoder};
use super::layout::Layout;
use super::logic::{first_from, gate};
use super::policy::PolicyState;
use super::switch::{Ctl, Ports};
use crate::netlist::{cat, lit, or_all, zero, ModuleBuilder, V};

/// The DOWN arbiter's step outcome registers.
pub(super) struct DnArb {
    /// Up-wire granted to `S(0..u)`, `X(0..d)`: rows of `d` one-hot bits.
    pub ch0: V,
    /// Down-wire granted to `X(0..d)`, `D(0..u)`: rows of `d` one-hot bits.
    pub ch1: V,
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
    let (p1, p2, pr, ab, hb) = (lay.p1, lay.p2, lay.pr, lay.ab, lay.hb);
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
    // Requests not decided yet, in the window.
    let pend = m.def(
        "dn_pend",
        cat([d_req, x_req, s_req]) & !(&gnt | &rej) & ctl.dn_window.repeat(n),
    );
    // Tier: in DOWN the waiting winners X come after every claim.
    let claims = &pend & lit(n, ((1 << n) - 1) ^ (((1 << d) - 1) << u));
    let cand = m.def(
        "_dn_cand",
        (&ctl.m_down & claims.any()).select(&claims, &pend),
    );
    // Keys of the claims S(0..u), D(0..u): {~h, s}, smallest first (DOWN only). Every pair
    // is compared at once (a short path; a running minimum would be fewer comparators but a
    // long chain): a claim is beaten if a candidate claim has a smaller key.
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
    let kb = lay.kb;
    let claims = cat([cand.bits(n - 1, u + d), cand.bits(u - 1, 0)]);
    let beaten = m.def(
        "_dn_beaten",
        cat((0..2 * u).rev().map(|i| {
            or_all(
                1,
                (0..2 * u)
                    .filter(|&j| j != i)
                    .map(|j| claims.bit(j) & key.row(j, kb).lt(&key.row(i, kb))),
            )
        })),
    );
    let beaten_slots = cat([beaten.bits(2 * u - 1, u), zero(d), beaten.bits(u - 1, 0)]);
    let first = m.def("_dn_first", &cand & !beaten_slots.when(&ctl.m_down));
    let (f_s, f_x, f_d) = (
        first.bits(u - 1, 0),
        first.bits(u + d - 1, u),
        first.bits(n - 1, u + d),
    );
    let rq = m.def("_dn_rq", cat([f_x.clone(), &f_s | &f_d]));
    let rsel = first_from(m, "_dn_rsel", &rq, pol.p.as_ref());
    let r_k = rsel.bits(u - 1, 0);
    let sel = m.def(
        "dn_sel",
        cat([
            &f_d & &r_k & !&f_s,
            &f_x & rsel.bits(u + d - 1, u),
            &f_s & &r_k,
        ]),
    );
    let (sel_s, sel_x, sel_d) = (
        sel.bits(u - 1, 0),
        sel.bits(u + d - 1, u),
        sel.bits(n - 1, u + d),
    );
    // The selected slot's needs and addresses.
    let need0 = sel.bits(u + d - 1, 0).any();
    let need1 = sel.bits(n - 1, u).any();
    let win_row = |x: usize| st.win.row(x, p1);
    let src = m.def(
        "dn_src",
        pick(
            ab,
            (0..u)
                .map(|k| (rx_b_row(k).part(p1, ab), sel_s.bit(k)))
                .chain((0..d).map(|x| (win_row(x).part(ab, ab), sel_x.bit(x)))),
        ),
    );
    let dst_x = |x: usize| {
        ctl.m_probe
            .select(st.rx_a.part(x * p1, ab), win_row(x).part(0, ab))
    };
    let dst = m.def(
        "dn_dst",
        pick(
            ab,
            (0..d)
                .map(|x| (dst_x(x), sel_x.bit(x)))
                .chain((0..u).map(|k| (rx_b_row(k).part(0, ab), sel_d.bit(k)))),
        ),
    );
    let down_src = dec.down(m, lay, "dn_src", &src);
    let down_dst = dec.down(m, lay, "dn_dst", &dst);
    let avail0 = m.def(
        "_dn_avail_a",
        ctl.m_probe.select(&sel_x, &down_src) & !(&st.a_drives | &used0),
    );
    let avail1 = m.def("_dn_avail_c", &down_dst & !(&st.c_driven | &used1));
    let pick0 = first_from(m, "dn_pick_a", &avail0, pol.q.as_ref());
    let pick1 = first_from(m, "dn_pick_c", &avail1, pol.q.as_ref());
    let guard = !(&sel_s & &st.d_driven).any() & !(&sel_d & &st.b_drives).any();
    let ok = m.def(
        "dn_ok",
        guard & (!&need0 | pick0.any()) & (!&need1 | pick1.any()),
    );
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
        .elif(sel.any(), |s| {
            s.if_(&ok, |s| {
                s.load(&gnt, &gnt | &sel);
                let rows = |slots: std::ops::Range<usize>, w: &V| {
                    cat(slots.rev().map(|i| gate(w, &sel.bit(i))))
                };
                s.load(&ch0, &ch0 | rows(0..u + d, &pick0));
                s.load(&ch1, &ch1 | rows(u..n, &pick1));
                s.load(&used0, &used0 | pick0.when(&need0));
                s.load(&used1, &used1 | pick1.when(&need1));
                pol.record_grant(s, &rsel);
            })
            .else_(|s| s.load(&rej, &rej | &sel));
        });
    });
    pol.update(m, init, commit, gnt.any(), (&gnt | &rej).any());
    DnArb { ch0, ch1 }
}
