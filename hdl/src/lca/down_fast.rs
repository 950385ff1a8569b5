//! The DOWN arbiter of the **fast set-up** (`docs/protocol.md` §13): the same arbitration
//! as [`super::down`] — same slots, service order `(tier, key, (r − p) mod R, S before D)`,
//! wire order from `q`, guards and grants — resolved in one bit-time. The sequential
//! arbiter's one decision per bit-time is unrolled into `2u + d` combinational stages (one
//! per slot, the most there can be): stage `i` reads the outcome of stages `0..i`
//! (`_dnf<i>_gnt`, `_rej`, `_ch0`, `_ch1`, `_used_a`, `_used_c`; zero for stage 0) where the
//! sequential arbiter reads its working registers, and decides the slot it would decide in
//! bit-time `i` of its window. What depends only on the packets and the pointers — the
//! claim keys and their pairwise comparison, the tie order from `p`, the route masks of the
//! digit decoder — is computed once and shared by the stages; a Π switch decodes each
//! stage's decided slot through its ROM rows. The last stage's outcome is the step outcome,
//! `dn_gnt`, `dn_rej`, `dn_ch0`, `dn_ch1` — wires, valid in the commit bit-time (the only
//! bit-time of the window: `T_DOWN = n(P2) + 1`, `T_PROBE = n(PR) + 1`). Round-robin's
//! `dn_last` is the requester of the chain's last grant (a wire).

use super::datapath::State;
use super::decoder::{pick, Decoder};
use super::down::DnArb;
use super::layout::{Layout, TestFault};
use super::logic::{cyclic_before, first_from, first_in, index_of, mask};
use super::policy::PolicyState;
use super::switch::{Ctl, Ports};
use crate::netlist::{cat, index_bits, zero, ModuleBuilder, V};
use lcanet_sim::lcan::cycle::ArbiterPolicy;

/// What the stages share: the requests of the window, the key order, the tie order.
struct Shared {
    /// Every slot's request (`S(0..u)`, `X(0..d)`, `D(0..u)`), in the window.
    req: V,
    /// Row `c` (claims `D(0..u)` then `S(0..u)`): the claims whose key is smaller.
    lt: V,
    /// Rows of the tie order (see `logic::cyclic_before`).
    order: V,
}

fn shared(m: &mut ModuleBuilder, lay: &Layout, ctl: &Ctl, st: &State, p: Option<&V>) -> Shared {
    let (d, u, n) = (lay.d, lay.u, lay.dn_slots);
    let (p1, p2, pr, ab, hb, kb) = (lay.p1, lay.p2, lay.pr, lay.ab, lay.hb, lay.kb);
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
    let req = m.def(
        "dn_req",
        cat([d_req, x_req, s_req]) & ctl.dn_window.repeat(n),
    );
    // Claim keys {~h, s} (l−1−h, then s; smallest first), claims D(0..u) then S(0..u).
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
    let of: Vec<usize> = (0..n)
        .map(|s| if s < u + d { s } else { s - u - d })
        .collect();
    let order = cyclic_before(m, "_dn_p_order", u + d, &of, p);
    Shared { req, lt, order }
}

/// The slot stage `i` decides among the pending ones `pend` (as `down::select`).
fn select(m: &mut ModuleBuilder, lay: &Layout, ctl: &Ctl, sh: &Shared, pend: &V, i: usize) -> V {
    let (d, u, n) = (lay.d, lay.u, lay.dn_slots);
    let c = 2 * u;
    let claims = m.def(
        format!("_dnf{i}_claims"),
        cat([pend.bits(n - 1, u + d), pend.bits(u - 1, 0)]),
    );
    let beaten = cat((0..c).rev().map(|r| (sh.lt.row(r, c) & &claims).any()));
    let out = cat([
        beaten.bits(c - 1, u),
        claims.any().repeat(d),
        beaten.bits(u - 1, 0),
    ]);
    let first = m.def(format!("_dnf{i}_first"), pend & !out.when(&ctl.arb_down));
    first_in(m, &format!("_dnf{i}_sel"), &first, |s| {
        let before = sh.order.row(s, n);
        if s >= u + d {
            before | mask(n, |j| j == s - u - d)
        } else {
            before
        }
    })
}

/// Declares the fast DOWN arbiter.
pub(super) fn build(
    m: &mut ModuleBuilder,
    lay: &Layout,
    p: &Ports,
    ctl: &Ctl,
    st: &State,
    dec: &Decoder,
) -> DnArb {
    let (d, u, n) = (lay.d, lay.u, lay.dn_slots);
    let (p1, p2, ab) = (lay.p1, lay.p2, lay.ab);
    m.comment("DOWN arbiter, fast set-up (docs/protocol.md §13): 2u + d decisions in one bit-time");
    let seed = p
        .seed
        .as_ref()
        .map(|(seed16, _, salt_dn)| (seed16, salt_dn));
    let pol = PolicyState::declare_fast(m, "dn", lay.policy(), u + d, d, seed);
    let sh = shared(m, lay, ctl, st, pol.p.as_ref());
    // The addresses each slot needs a wire towards (as in down.rs).
    let rx_b_row = |k: usize| st.rx_b.row(k, p2);
    let win_row = |x: usize| st.win.row(x, p1);
    let srcs = m.def(
        "_dn_srcs",
        cat((0..d)
            .rev()
            .map(|x| win_row(x).part(ab, ab))
            .chain((0..u).rev().map(|k| rx_b_row(k).part(p1, ab)))),
    );
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
    let own = mask((u + d) * d, |i| i >= u * d && (i - u * d) / d == i % d);
    let table = matches!(dec, Decoder::Table { .. });
    // Digits: every row's masks decoded once (they do not depend on the decision).
    let digit_masks = (!table).then(|| {
        let a = dec.down_rows(m, lay, "_dn_down_a", "dn_src", &srcs, &zero(u + d));
        let c = dec.down_rows(m, lay, "_dn_down_c", "dn_dst", &dsts, &zero(d + u));
        let want0 = m.def("_dn_want_a", ctl.arb_probe.select(&own, a));
        (want0, c)
    });
    let single = dec.single_downer(lay);
    if single {
        if let Some(q) = pol.q.as_ref().and_then(V::name) {
            // The wire is its own (the order from q is not needed; q is still the policy's
            // state).
            m.allow_unread(q.to_string());
        }
    }
    let rr = lay.policy() == ArbiterPolicy::RoundRobin;
    // Chunked (m < 2u + d decisions per bit-time): the chain starts from the outcome so
    // far, kept in registers across the window's bit-times; otherwise from nothing.
    let stages = super::up_fast::chunk(lay, n);
    let chunked = stages < n;
    let regs = chunked.then(|| {
        [
            m.reg("dn_gnt_q", n),
            m.reg("dn_rej_q", n),
            m.reg("dn_ch0_q", (u + d) * d),
            m.reg("dn_ch1_q", (d + u) * d),
            m.reg("dn_used_a_q", d),
            m.reg("dn_used_c_q", d),
        ]
    });
    let last_q = (chunked && rr).then(|| m.reg("dn_last_q", index_bits(u + d)));
    let [mut gnt, mut rej, mut ch0, mut ch1, mut used0, mut used1] = match &regs {
        Some(r) => r.clone(),
        None => [
            zero(n),
            zero(n),
            zero((u + d) * d),
            zero((d + u) * d),
            zero(d),
            zero(d),
        ],
    };
    let mut last = last_q.clone().unwrap_or_else(|| zero(index_bits(u + d)));
    for i in 0..stages {
        let nm = |what: &str| format!("_dnf{i}_{what}");
        let pend = m.def(nm("pend"), &sh.req & !(&gnt | &rej));
        let sel = select(m, lay, ctl, &sh, &pend, i);
        let (sel0, sel1) = (sel.bits(u + d - 1, 0), sel.bits(n - 1, u));
        let (want0, down_dst) = match &digit_masks {
            Some((w, c)) => (w.clone(), c.clone()),
            None => {
                let a = dec.down_rows(m, lay, &nm("down_a"), &nm("src"), &srcs, &sel0);
                let c = dec.down_rows(m, lay, &nm("down_c"), &nm("dst"), &dsts, &sel1);
                (m.def(nm("want_a"), ctl.arb_probe.select(&own, a)), c)
            }
        };
        let free0 = m.def(nm("free_a"), !(&st.a_drives | &used0));
        let free1 = m.def(nm("free_c"), !(&st.c_driven | &used1));
        let per_row =
            |v: &V, rows: usize, free: &V| cat((0..rows).rev().map(|r| v.row(r, d) & free));
        let avail0 = m.def(nm("avail_a"), per_row(&want0, u + d, &free0));
        let avail1 = m.def(nm("avail_c"), per_row(&down_dst, d + u, &free1));
        let any = |v: &V, rows: usize| cat((0..rows).rev().map(|r| v.row(r, d).any()));
        let ok = cat([
            any(&avail1, d + u).bits(d + u - 1, d) & !&st.b_drives,
            any(&avail0, u + d).bits(u + d - 1, u) & any(&avail1, d + u).bits(d - 1, 0),
            any(&avail0, u + d).bits(u - 1, 0) & !&st.d_driven,
        ]);
        let won = m.def(nm("won"), &sel & ok);
        let mut take = |what: &str, avail: &V, sel: &V| {
            let rows = sel.width();
            let mine = pick(d, (0..rows).map(|r| (avail.row(r, d), sel.bit(r))));
            if single {
                m.def(nm(what), mine)
            } else {
                let mine = m.def(nm(&format!("{what}_from")), mine);
                first_from(m, &nm(what), &mine, pol.q.as_ref())
            }
        };
        let pick0 = take("pick_a", &avail0, &sel0);
        let pick1 = take("pick_c", &avail1, &sel1);
        let rows_of = |w: &V, won: V| cat((0..won.width()).rev().map(|r| w.when(&won.bit(r))));
        let (won0, won1) = (won.bits(u + d - 1, 0), won.bits(n - 1, u));
        if rr {
            // The requester granted: B(k) for S(k) or D(k), A(x) for X(x).
            let requester = cat([
                won.bits(u + d - 1, u),
                won.bits(u - 1, 0) | won.bits(n - 1, u + d),
            ]);
            last = won.any().select(index_of(&requester), &last);
        }
        ch0 = m.def(nm("ch0"), &ch0 | rows_of(&pick0, won0.clone()));
        ch1 = m.def(nm("ch1"), &ch1 | rows_of(&pick1, won1.clone()));
        if i + 1 < stages || chunked {
            used0 = m.def(nm("used_a"), &used0 | pick0.when(&won0.any()));
            used1 = m.def(nm("used_c"), &used1 | pick1.when(&won1.any()));
        }
        gnt = m.def(nm("gnt"), &gnt | &won);
        rej = m.def(nm("rej"), &rej | (&sel & !&won));
    }
    let gnt = m.def("dn_gnt", gnt);
    let rej = m.def("dn_rej", rej);
    let ch0 = m.def("dn_ch0", ch0);
    let ch1 = m.def("dn_ch1", ch1);
    // The step outcome is there for the co-simulation (docs/protocol.md §7) even where
    // the policy does not read it (fixed pointers read neither, round-robin no rejection).
    m.allow_unread("dn_gnt");
    m.allow_unread("dn_rej");
    if let Some(q) = &regs {
        let (init, commit) = (&p.init, &ctl.commit);
        let now = [&gnt, &rej, &ch0, &ch1, &used0, &used1];
        m.always(|s| {
            s.comment("DOWN arbiter, chunked: the outcome so far; the commit uses and clears it");
            s.if_(init | commit, |s| {
                for r in q {
                    s.load(r, zero(r.width()));
                }
            })
            .else_(|s| {
                for (r, v) in q.iter().zip(now) {
                    s.load(r, v);
                }
            });
            if let Some(lq) = &last_q {
                s.load(lq, &last);
            }
        });
    }
    pol.drive_last(m, last);
    pol.update(m, &p.init, &ctl.commit, gnt.any(), (&gnt | &rej).any());
    DnArb { ch0, ch1 }
}
