//! The UP arbiter (`docs/protocol.md` §7, `UP` and `PROBE`): requester `r = x` is a packet
//! on `A(x)` not at its LCA level; its one need is an upper from `up(X, c)` (every upper for
//! tree and cb, the `up_rom` row for Π) that is free — in `UP` every upper is free at the
//! start, in `PROBE` one that is not driven — and, in `PROBE`, **[guard]** `A(x)` drives
//! nothing.
//!
//! One request is decided per bit-time of the window (`up_window`), in service order:
//! `up_sel` is the first pending requester from `p`, `up_pick` the first free allowed
//! upper from `q`; `up_ok` says for every requester whether it would be granted now (an
//! allowed upper is free, and the guard holds), so the selection only gates it. The step
//! outcome accumulates in `up_gnt`, `up_rej` and `up_ch` (row `x` = the upper granted to
//! `A(x)`, the layout of `xp_ad`; its columns are the uppers taken so far) until the commit
//! uses and clears them.

use super::datapath::State;
use super::decoder::Decoder;
use super::layout::Layout;
use super::logic::{first_from, index_of};
use super::policy::PolicyState;
use super::switch::{Ctl, Ports};
use crate::netlist::V;
use crate::netlist::{cat, or_all, zero, ModuleBuilder};

/// The UP arbiter's step outcome registers.
pub(super) struct UpArb {
    /// Upper granted to each downer, `d` rows of `u` one-hot bits.
    pub ch: V,
}

/// Declares the UP arbiter and its process statements.
pub(super) fn build(
    m: &mut ModuleBuilder,
    lay: &Layout,
    p: &Ports,
    ctl: &Ctl,
    st: &State,
    dec: &Decoder,
) -> UpArb {
    let (d, u) = (lay.d, lay.u);
    m.comment("UP arbiter (docs/protocol.md §7): requesters A(x), wires: the uppers");
    let gnt = m.reg("up_gnt", d);
    let rej = m.reg("up_rej", d);
    let ch = m.reg("up_ch", d * u);
    let seed = p
        .seed
        .as_ref()
        .map(|(seed16, salt_up, _)| (seed16, salt_up));
    let pol = PolicyState::declare(m, "up", lay.policy(), d, u, seed);
    // Requests not decided yet, in the window: packets not at their LCA level.
    let pend = m.def(
        "up_pend",
        &st.a_valid & !&st.a_here & !(&gnt | &rej) & ctl.up_window.repeat(d),
    );
    let sel = first_from(m, "up_sel", &pend, pol.p.as_ref());
    // The uppers granted in this arbitration (the rows of up_ch) or, in PROBE, driven.
    let used = or_all(u, (0..d).map(|x| ch.row(x, u)));
    let free = m.def("_up_free", !(used | st.d_driven.when(&ctl.arb_probe)));
    let avail = match dec {
        Decoder::Table { .. } => {
            let idx = m.def("_up_idx", index_of(&sel));
            let h = m.def("_up_h", st.a_lvl.row_at(&idx, lay.hb));
            let t_rows = m.def(
                "_a_dst",
                cat((0..d).rev().map(|x| st.rx_a.part(x * lay.p1, lay.ab))),
            );
            let t = m.def("_up_t", t_rows.row_at(&idx, lay.ab));
            let allow = dec
                .up(m, lay, "_up_allow", &h, &t)
                .expect("a table decoder answers up()");
            m.def("_up_avail", &allow & &free)
        }
        Decoder::Digits { .. } | Decoder::Levels { .. } => free,
    };
    let pick = first_from(m, "up_pick", &avail, pol.q.as_ref());
    // Each requester's grant if it were decided now: an upper is free (and, in PROBE,
    // [guard] A(x) drives nothing).
    let ok = m.def(
        "up_ok",
        avail.any().repeat(d) & (ctl.arb_up.repeat(d) | !&st.a_drives),
    );
    let won = m.def("_up_won", &sel & &ok);
    let (init, commit) = (&p.init, &ctl.commit);
    m.always(|s| {
        s.comment(
            "UP arbiter: one request per bit-time in its window; the commit clears the outcome",
        );
        s.if_(init | commit, |s| {
            s.load(&gnt, zero(d));
            s.load(&rej, zero(d));
            s.load(&ch, zero(d * u));
        })
        // Outside the window every request is masked (`up_pend` is 0), so nothing would
        // change: the updates are evaluated in the window only (docs/protocol.md §7).
        .elif(&ctl.up_window, |s| {
            s.load(&gnt, &gnt | &won);
            s.load(&rej, &rej | (&sel & !&ok));
            s.load(&ch, &ch | cat((0..d).rev().map(|x| pick.when(&won.bit(x)))));
            pol.record_grant(s, won.any(), &won);
        });
    });
    pol.update(m, init, commit, gnt.any(), (&gnt | &rej).any());
    UpArb { ch }
}
