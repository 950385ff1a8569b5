//! The UP arbiter of the **fast set-up** (`docs/protocol.md` §12): the same arbitration as
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
use lcanet_sim::lcan::cycle::ArbiterPolicy;

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
    m.comment("UP arbiter, fast set-up (docs/protocol.md §12): d decisions in one bit-time");
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
    let (mut gnt, mut rej, mut ch) = (zero(d), zero(d), zero(d * u));
    let rr = lay.policy() == ArbiterPolicy::RoundRobin;
    let mut last = zero(index_bits(d));
    for i in 0..d {
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
    pol.drive_last(m, last);
    pol.update(m, &p.init, &ctl.commit, gnt.any(), (&gnt | &rej).any());
    UpArb { ch }
}
