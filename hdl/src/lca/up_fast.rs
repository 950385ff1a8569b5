//! The UP arbiter of the **fast set-up** (`docs/protocol.md` §13): the same arbitration as
//! [`super::up`] — same requests, service order, wire order and grants — resolved in one
//! bit-time. The sequential arbiter's one decision per bit-time is unrolled into `d`
//! combinational stages (one per requester, the most there can be): stage `i` reads the
//! outcome of stages `0..i` (`_upf<i>_gnt`, `_upf<i>_rej`, `_upf<i>_ch`, zero for stage 0)
//! where the sequential arbiter reads its working registers, and decides the first pending
//! request from `p` exactly as it would in bit-time `i` of its window. The last stage's
//! outcome is the step outcome, `up_gnt`, `up_rej`, `up_ch` — wires here, valid in the
//! commit bit-time (the window is open only then: `T_UP = n(P1) + 1`) — which the commit
//! uses like the registers. Round-robin's `up_last` is the requester of the last grant of
//! the chain (a wire).

use super::datapath::State;
use super::decoder::Decoder;
use super::layout::Layout;
use super::logic::{first_from, index_of};
use super::policy::PolicyState;
use super::switch::{Ctl, Ports};
use super::up::UpArb;
use crate::netlist::{cat, index_bits, or_all, zero, ModuleBuilder};
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SetupMode};

/// Declares the fast UP arbiter.
pub(super) fn build(
    m: &mut ModuleBuilder,
    lay: &Layout,
    p: &Ports,
    ctl: &Ctl,
    st: &State,
    dec: &Decoder,
) -> UpArb {
    let (d, u) = (lay.d, lay.u);
    m.comment("UP arbiter, fast set-up (docs/protocol.md §13): d decisions in one bit-time");
    let seed = p
        .seed
        .as_ref()
        .map(|(seed16, salt_up, _)| (seed16, salt_up));
    let pol = PolicyState::declare_fast(m, "up", lay.policy(), d, u, seed);
    // Requests of the window: packets not at their LCA level.
    let req = m.def(
        "up_req",
        &st.a_valid & !&st.a_here & ctl.up_window.repeat(d),
    );
    let taken = m.def("_up_taken", st.d_driven.when(&ctl.arb_probe));
    let ok_guard = m.def("_up_guard", ctl.arb_up.repeat(d) | !&st.a_drives);
    let t_rows = matches!(dec, Decoder::Table { .. }).then(|| {
        m.def(
            "_a_dst",
            cat((0..d).rev().map(|x| st.rx_a.part(x * lay.p1, lay.ab))),
        )
    });
    let rr = lay.policy() == ArbiterPolicy::RoundRobin;
    // Chunked (m < d decisions per bit-time): the chain starts from the outcome so far,
    // kept in registers across the window's bit-times; otherwise from nothing.
    let stages = chunk(lay, d);
    let regs = (stages < d).then(|| {
        (
            m.reg("up_gnt_q", d),
            m.reg("up_rej_q", d),
            m.reg("up_ch_q", d * u),
            rr.then(|| m.reg("up_last_q", index_bits(d))),
        )
    });
    let (mut gnt, mut rej, mut ch, mut last) = match &regs {
        Some((g, r, c, l)) => (
            g.clone(),
            r.clone(),
            c.clone(),
            l.clone().unwrap_or_else(|| zero(index_bits(d))),
        ),
        None => (zero(d), zero(d), zero(d * u), zero(index_bits(d))),
    };
    for i in 0..stages {
        let n = |what: &str| format!("_upf{i}_{what}");
        let pend = m.def(n("pend"), &req & !(&gnt | &rej));
        let sel = first_from(m, &n("sel"), &pend, pol.p.as_ref());
        let used = or_all(u, (0..d).map(|x| ch.row(x, u)));
        let free = m.def(n("free"), !(used | &taken));
        let avail = match (dec, &t_rows) {
            (Decoder::Table { .. }, Some(t_rows)) => {
                let idx = m.def(n("idx"), index_of(&sel));
                let h = m.def(n("h"), st.a_lvl.row_at(&idx, lay.hb));
                let t = m.def(n("t"), t_rows.row_at(&idx, lay.ab));
                let allow = dec
                    .up(m, lay, &n("allow"), &h, &t)
                    .expect("a table decoder answers up()");
                m.def(n("avail"), &allow & &free)
            }
            _ => free,
        };
        let pick = first_from(m, &n("pick"), &avail, pol.q.as_ref());
        let ok = avail.any().repeat(d) & &ok_guard;
        let won = m.def(n("won"), &sel & ok);
        let lost = &sel & !&won;
        if rr {
            last = won.any().select(index_of(&won), &last);
        }
        ch = m.def(
            n("ch"),
            &ch | cat((0..d).rev().map(|x| pick.when(&won.bit(x)))),
        );
        gnt = m.def(n("gnt"), &gnt | &won);
        rej = m.def(n("rej"), &rej | lost);
    }
    let gnt = m.def("up_gnt", gnt);
    let rej = m.def("up_rej", rej);
    let ch = m.def("up_ch", ch);
    // The step outcome is there for the co-simulation (docs/protocol.md §7) even where
    // the policy does not read it (fixed pointers read neither, round-robin no rejection).
    m.allow_unread("up_gnt");
    m.allow_unread("up_rej");
    if let Some((gq, rq, cq, lq)) = &regs {
        let (init, commit) = (&p.init, &ctl.commit);
        m.always(|s| {
            s.comment("UP arbiter, chunked: the outcome so far; the commit uses and clears it");
            s.if_(init | commit, |s| {
                s.load(gq, zero(d));
                s.load(rq, zero(d));
                s.load(cq, zero(d * u));
            })
            .else_(|s| {
                s.load(gq, &gnt);
                s.load(rq, &rej);
                s.load(cq, &ch);
            });
            if let Some(lq) = lq {
                s.load(lq, &last);
            }
        });
    }
    pol.drive_last(m, last);
    pol.update(m, &p.init, &ctl.commit, gnt.any(), (&gnt | &rej).any());
    UpArb { ch }
}

/// Stages of the decision chain per bit-time for an arbiter of `slots` requests at most:
/// all of them (fast), or `m` (chunked, `docs/protocol.md` §13).
pub(super) fn chunk(lay: &Layout, slots: usize) -> usize {
    match lay.params.setup {
        SetupMode::Chunked(m) => m.clamp(1, slots),
        _ => slots,
    }
}
