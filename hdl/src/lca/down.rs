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
//! One slot is decided per bit-time, in service order `(tier, key, (r − p) mod R, S before
//! D)`: `_dn_first` keeps the pending slots of the first tier and smallest key, `dn_sel` is
//! the first of them in the tie order (requesters from `p`, an S-claim before the D-claim of
//! the same link). The paths of the decision are short: the key comparisons and the tie
//! order depend only on registers that are steady in the window, and every slot's
//! grantability (`dn_ok`: its allowed wires `_dn_avail_*`, decoded for every slot, include
//! a free one, and its guard holds) is computed beside the selection, which only gates it.
//! The outcome accumulates in `dn_gnt`, `dn_rej`, `dn_ch0` (rows `S(k)`, `X(x)`: the
//! up-wire) and `dn_ch1` (rows `X(x)`, `D(k)`: the down-wire).

use super::datapath::State;
use super::decoder::{pick, Decoder};
use super::layout::{Layout, TestFault};
use super::logic::{cyclic_before, first_from, first_in, mask};
use super::policy::PolicyState;
use super::switch::{Ctl, Ports};
use crate::netlist::{cat, zero, ModuleBuilder, V};

/// The DOWN arbiter's step outcome registers.
pub(super) struct DnArb {
    /// Up-wire granted to `S(0..u)`, `X(0..d)`: rows of `d` one-hot bits.
    pub ch0: V,
    /// Down-wire granted to `X(0..d)`, `D(0..u)`: rows of `d` one-hot bits.
    pub ch1: V,
}

/// The slot served first among the pending ones (`docs/protocol.md` §7: tier, key, then
/// `(r − p) mod R`, then S before D), as the one-hot wire `dn_sel`.
fn select(
    m: &mut ModuleBuilder,
    lay: &Layout,
    ctl: &Ctl,
    st: &State,
    pend: &V,
    p: Option<&V>,
) -> V {
    let (d, u, n) = (lay.d, lay.u, lay.dn_slots);
    let (p1, p2, ab, hb, kb) = (lay.p1, lay.p2, lay.ab, lay.hb, lay.kb);
    let rx_b_row = |k: usize| st.rx_b.row(k, p2);
    // Claim keys {~h, s} (l−1−h, then s; smallest first), claims S(0..u) then D(0..u).
    let claim_key = |k: usize, s_slot: bool| {
        let (h_at, s_at) = if s_slot { (p1 + ab, p1) } else { (2 * ab, ab) };
        let s = if lay.fault == Some(TestFault::KeyIgnoresSource) {
            zero(ab)
        } else {
            rx_b_row(k).part(s_at, ab)
        };
        cat([!rx_b_row(k).part(h_at, hb), s])
    };
    let key = m.def(
        "_dn_key",
        cat((0..u)
            .rev()
            .map(|k| claim_key(k, false))
            .chain((0..u).rev().map(|k| claim_key(k, true)))),
    );
    // Row c: the claims whose key is smaller than claim c's.
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
    // DOWN: the pending claims of the smallest key; the waiting winners (tier 1) only if
    // no claim is pending.
    let claims = m.def(
        "_dn_claims",
        cat([pend.bits(n - 1, u + d), pend.bits(u - 1, 0)]),
    );
    let beaten = cat((0..c).rev().map(|i| (lt.row(i, c) & &claims).any()));
    let out = cat([
        beaten.bits(c - 1, u),
        claims.any().repeat(d),
        beaten.bits(u - 1, 0),
    ]);
    let first = m.def("_dn_first", pend & !out.when(&ctl.arb_down));
    // The tie order: requesters from p (B(k) = k for S(k) and D(k), A(x) = u + x), then
    // S(k) before D(k).
    let of: Vec<usize> = (0..n)
        .map(|s| if s < u + d { s } else { s - u - d })
        .collect();
    let order = cyclic_before(m, "_dn_p_order", u + d, &of, p);
    first_in(m, "dn_sel", &first, |i| {
        let before = order.row(i, n);
        if i >= u + d {
            before | mask(n, |j| j == i - u - d)
        } else {
            before
        }
    })
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
    let s_req = per_k(&|k| rx_b_row(k).bit(p2 - 1)) & ctl.arb_down.repeat(u);
    let d_req = ctl.arb_down.select(
        per_k(&|k| rx_b_row(k).bit(p1 - 1)),
        per_k(&|k| rx_b_row(k).bit(pr - 1)) & ctl.arb_probe.repeat(u),
    );
    let win_valid = cat((0..d).rev().map(|x| st.win.bit(x * p1 + p1 - 1)));
    let x_req = (win_valid & ctl.serve_win.repeat(d))
        | (&st.a_valid & &st.a_here & ctl.arb_probe.repeat(d));
    // Requests not decided yet, in the window; the one decided now.
    let pend = m.def(
        "dn_pend",
        cat([d_req, x_req, s_req]) & !(&gnt | &rej) & ctl.dn_window.repeat(n),
    );
    let sel = select(m, lay, ctl, st, &pend, pol.p.as_ref());
    let (sel0, sel1) = (sel.bits(u + d - 1, 0), sel.bits(n - 1, u));
    // The wires each slot may take: up-wires towards the source of S(k), X(x) (in PROBE,
    // A(x) itself), down-wires towards the destination of X(x), D(k); those not taken.
    let win_row = |x: usize| st.win.row(x, p1);
    let srcs = cat((0..d)
        .rev()
        .map(|x| win_row(x).part(ab, ab))
        .chain((0..u).rev().map(|k| rx_b_row(k).part(p1, ab))));
    let dst_x = |x: usize| {
        ctl.arb_probe
            .select(st.rx_a.part(x * p1, ab), win_row(x).part(0, ab))
    };
    let dsts = m.def(
        "_dn_dsts",
        cat((0..u)
            .rev()
            .map(|k| rx_b_row(k).part(0, ab))
            .chain((0..d).rev().map(dst_x))),
    );
    let down_src = dec.down_rows(m, lay, "_dn_down_a", "dn_src", &srcs, &sel0);
    let down_dst = dec.down_rows(m, lay, "_dn_down_c", "dn_dst", &dsts, &sel1);
    let own = mask((u + d) * d, |i| i >= u * d && (i - u * d) / d == i % d);
    let want0 = m.def("_dn_want_a", ctl.arb_probe.select(own, down_src));
    // Wires taken: driven, or granted in this arbitration (dn_used_a, dn_used_c).
    let free0 = m.def("_dn_free_a", !(&st.a_drives | &used0));
    let free1 = if lay.fault == Some(TestFault::DrivenOutputFree) {
        m.def("_dn_free_c", !&used1 | (&st.c_driven & !&st.c_driven))
    } else {
        m.def("_dn_free_c", !(&st.c_driven | &used1))
    };
    let per_row = |v: &V, rows: usize, free: &V| cat((0..rows).rev().map(|r| v.row(r, d) & free));
    let avail0 = m.def("_dn_avail_a", per_row(&want0, u + d, &free0));
    let avail1 = m.def("_dn_avail_c", per_row(&down_dst, d + u, &free1));
    // Each slot's grant if it were decided now: a free allowed wire for each need, and
    // the guards.
    let any = |v: &V, rows: usize| cat((0..rows).rev().map(|r| v.row(r, d).any()));
    let ok = m.def(
        "dn_ok",
        cat([
            any(&avail1, d + u).bits(d + u - 1, d) & !&st.b_drives,
            any(&avail0, u + d).bits(u + d - 1, u) & any(&avail1, d + u).bits(d - 1, 0),
            any(&avail0, u + d).bits(u - 1, 0) & !&st.d_driven,
        ]),
    );
    let won = m.def("_dn_won", &sel & &ok);
    // The wires the decided slot takes: the first of its free allowed wires from q (a
    // route decoder's mask is at most one downer for cb, and for tree with u = 1).
    let single = dec.single_downer(lay);
    let mut take = |name: &str, avail: &V, sel: &V| {
        let rows = sel.width();
        let mine = pick(d, (0..rows).map(|r| (avail.row(r, d), sel.bit(r))));
        if single {
            m.def(name, mine)
        } else {
            let mine = m.def(format!("_{name}_from"), mine);
            first_from(m, name, &mine, pol.q.as_ref())
        }
    };
    let pick0 = take("dn_pick_a", &avail0, &sel0);
    let pick1 = take("dn_pick_c", &avail1, &sel1);
    if single {
        if let Some(q) = pol.q.as_ref().and_then(V::name) {
            // The wire is its own (the order from q is not needed; q is still the policy's
            // state).
            m.allow_unread(q.to_string());
        }
    }
    let rows_of = |w: &V, won: V| cat((0..won.width()).rev().map(|r| w.when(&won.bit(r))));
    let (won0, won1) = (won.bits(u + d - 1, 0), won.bits(n - 1, u));
    // The requester granted: B(k) for S(k) or D(k), A(x) for X(x).
    let requester = cat([
        won.bits(u + d - 1, u),
        won.bits(u - 1, 0) | won.bits(n - 1, u + d),
    ]);
    let (init, commit) = (&p.init, &ctl.commit);
    m.always(|s| {
        s.comment(
            "DOWN arbiter: one request per bit-time in its window; the commit clears the outcome",
        );
        s.if_(init | commit, |s| {
            s.load(&gnt, zero(n));
            s.load(&rej, zero(n));
            s.load(&ch0, zero((u + d) * d));
            s.load(&ch1, zero((d + u) * d));
            s.load(&used0, zero(d));
            s.load(&used1, zero(d));
        })
        // Outside the window every slot is masked (`dn_pend` is 0): updates in the window only.
        .elif(&ctl.dn_window, |s| {
            s.load(&gnt, &gnt | &won);
            s.load(&rej, &rej | (&sel & !&ok));
            s.load(&ch0, &ch0 | rows_of(&pick0, won0.clone()));
            s.load(&ch1, &ch1 | rows_of(&pick1, won1.clone()));
            s.load(&used0, &used0 | pick0.when(&won0.any()));
            s.load(&used1, &used1 | pick1.when(&won1.any()));
            pol.record_grant(s, won.any(), &requester);
        });
    });
    pol.update(m, init, commit, gnt.any(), (&gnt | &rej).any());
    DnArb { ch0, ch1 }
}
