//! The overlapped cube's controller (`docs/hypercube.md` §12): one loop counter `lc`,
//! from which the strobes of every activity of loop `i` are decoded at the loop cycles of
//! [`lcanet_sim::hypercube::overlap`] — the cross (`0..=M`), the enumeration
//! (`0..=3f`), routing channel A (step 3 from `P = max(2f, M − f)`, step 6 from `R`) and
//! routing channel B (step 5 from `Q`), with `f = k − 1 − i` held in `f_r`. A channel's
//! own cycle is `lc` minus its start, 9-bit arithmetic that wraps far above any bound
//! while `lc` is below the start, so that one comparison tells both "started" and
//! "within". In `semi` channel A runs Algorithm 1 from `lc = 0` over all `k` stages.
//!
//! Broadcast besides the [`Control`] strobes: `low` (thermometer of `i`, 0 in `semi`),
//! `sel` (one-hot of the dimension whose address or address bit is being sent), `sclr`
//! (the diagonal stage clear between the frames of steps 3 and 5: stage `i+1+j` is
//! cleared at step-3 cycle `f + M + 1 + j`, as step 3's tail leaves it) and `ewin` (the
//! wires still carrying the enumeration, bit `i+1+j` during loop cycles `1+j..=2f+j`,
//! which the pipelines must not take for frames).

use super::control::Control;
use crate::hypercube::parts::{down, first_above, shift_in_low, up};
use crate::hypercube::Router;
use crate::netlist::{lit, zero, Module, ModuleBuilder, V};
use lcanet_sim::hypercube::CubeParams;

/// Width of the loop counter and of every loop-cycle constant.
pub const CNT_BITS: usize = 9;

/// Codes of the controller's `mode` register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum Mode {
    /// No run in progress.
    Idle = 0,
    /// Algorithm 1.
    Semi = 1,
    /// Algorithm 2, loop by loop.
    Full = 2,
}

/// A routing channel's strobes, from its cycle `c`, its stages `f` and body bits `b`.
pub(crate) struct Channel {
    pub(crate) start: V,
    pub(crate) addr: V,
    pub(crate) body: V,
    pub(crate) rxstart: V,
    pub(crate) rxbody: V,
    pub(crate) window: V,
    pub(crate) last: V,
}

/// The strobes of a routing channel whose phase cycle is `c` (with `f` stages and `b`
/// body bits, `docs/hypercube.md` §3.4), gated by `on`; its sums are wires `{name}_…`.
pub(crate) fn channel(m: &mut ModuleBuilder, name: &str, c: &V, f: &V, b: &V, on: &V) -> Channel {
    let one = lit(CNT_BITS, 1);
    let fb = m.def(format!("{name}_fb"), f + b);
    let f2 = m.def(format!("{name}_f2"), f + f);
    let rx = m.def(format!("{name}_rx"), &f2 + &one);
    let end = m.def(format!("{name}_end"), &f2 + &b.plus(1));
    let within = |lo: &V, hi: &V| c.ge(lo) & c.le(hi);
    let body_lo = f.plus(1);
    Channel {
        start: on & c.is(0),
        addr: on & within(&one, f),
        body: on & within(&body_lo, &fb),
        rxstart: on & c.eq(&rx),
        rxbody: on & within(&rx.plus(1), &end),
        window: on & within(&body_lo, &end),
        last: on & c.eq(&end),
    }
}

/// The controller of the overlapped `k`-cube with `L`-bit payloads (`hc_ctrl_k{K}_l{L}`).
pub fn controller(p: CubeParams) -> Module {
    let (k, l, msg) = (p.k(), p.payload_bits(), p.message_bits());
    let c9 = |v: usize| lit(CNT_BITS, v as u64);
    let fw = crate::netlist::index_bits(k);
    let mut m = ModuleBuilder::new(Router::Overlapped.ctrl_name(p));
    m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let algorithm = m.input("algorithm", 1);
    let ctl = Control::outputs(&mut m);
    let sel = m.output("sel", k);
    let low = m.output("low", k);
    let sclr = m.output("sclr", k);
    let ewin = m.output("ewin", k);
    let bit_time = m.output("bit_time", 16);

    m.comment("State: mode, loop cycle, f = k - 1 - i, loop thermometer, broadcast vectors");
    let mode = m.reg("mode", 2);
    let lc = m.reg("lc", CNT_BITS);
    let f_r = m.reg("f_r", fw);
    let low_r = m.reg("low_r", k);
    let sel_r = m.reg("sel_r", k);
    let sclr_r = m.reg("sclr_r", k);
    let ewin_r = m.reg("ewin_r", k);
    let finished = m.reg("finished", 1);
    let bt = m.reg("bt", 16);

    m.comment("Mode decode and the loop's constants (docs/hypercube.md §12)");
    let busy = m.def("busy", mode.is_not(Mode::Idle as u64));
    let semi = m.def("semi", mode.is(Mode::Semi as u64));
    let full = m.def("full", mode.is(Mode::Full as u64));
    let f9 = m.def("f9", f_r.zext(CNT_BITS));
    let loops_left = m.def("loops_left", f_r.is_not(0));
    let f2 = m.def("f2", &f9 + &f9);
    let f3 = m.def("f3", &f2 + &f9);
    let m_minus_f = m.def("m_minus_f", c9(msg) - &f9);
    let p_start = m.def("p_start", f2.ge(&m_minus_f).select(&f2, &m_minus_f));
    let q_start = m.def("q_start", &p_start + &f9.plus(msg as u64 + 1));
    let r_start = m.def("r_start", &q_start + &f3.plus(2));
    let loop_end = m.def(
        "loop_end",
        loops_left.select(&r_start + &f2.plus(msg as u64 + 1), c9(msg)),
    );
    let c2 = m.def("c2", &lc - &p_start);
    let c0 = m.def("c0", &lc - &q_start);
    let cr = m.def("cr", &lc - &r_start);
    let frame_end = m.def("frame_end", f2.plus(msg as u64 + 1));
    let in2 = m.def("in2", &full & &loops_left & c2.le(&frame_end));
    let in_r = m.def("in_r", &full & &loops_left & cr.le(&frame_end));
    let in0 = m.def("in0", &full & &loops_left & c0.le(&f3.plus(1)));

    m.comment("Channel A: semi (lc, k stages, L body bits) or step 3 / step 6 (f, M)");
    let ca = m.def("ca", semi.select(&lc, in2.select(&c2, &cr)));
    let fa = m.def("fa", semi.select(c9(k), f9.clone()));
    let ba = m.def("ba", semi.select(c9(l), c9(msg)));
    let on_a = m.def("on_a", &semi | &in2 | &in_r);
    let a = channel(&mut m, "a", &ca, &fa, &ba, &on_a);
    m.comment("Channel B: step 5 (f stages, f body bits)");
    let b = channel(&mut m, "b", &c0, &f9, &f9, &in0);

    m.comment("Strobes (docs/hypercube.md §12)");
    m.assign(&ctl.load, &start & !&busy & !&reset);
    m.assign(&ctl.done, &finished);
    m.assign(&ctl.ph_semi, &semi);
    m.assign(&ctl.ph_pack2, &in2);
    m.assign(&ctl.ph_pack0, &in0);
    m.assign(&ctl.ph_rdv, &in_r);
    m.assign(&ctl.fwd, &semi | &in2 | &in0);
    m.assign(&ctl.bwd, &in_r);
    m.assign(&ctl.c_start, &a.start);
    m.assign(&ctl.c_addr, &a.addr);
    m.assign(&ctl.c_body, &a.body);
    m.assign(&ctl.c_rxstart, &a.rxstart);
    m.assign(&ctl.c_rxbody, &a.rxbody);
    m.assign(&ctl.c_window, &a.window);
    m.assign(&ctl.c_last, &a.last);
    m.assign(&ctl.p0_start, &b.start);
    m.assign(&ctl.p0_addr, &b.addr);
    m.assign(&ctl.p0_body, &b.body);
    m.assign(&ctl.p0_rxstart, &b.rxstart);
    m.assign(&ctl.p0_rxbody, &b.rxbody);
    let s_clear = &reset | (&a.last & (&semi | &in_r)) | &b.last;
    m.assign(&ctl.s_clear, s_clear);
    let enumerating = m.def("enumerating", &full & &loops_left);
    m.assign(&ctl.enum_on, &enumerating & lc.le(&f3));
    m.assign(&ctl.e_inj2, &enumerating & lc.is(0));
    m.assign(&ctl.e_inj0, &enumerating & lc.eq(&f9));
    m.assign(&ctl.e_cap2, &enumerating & lc.gt(&f9) & lc.le(&f2));
    m.assign(&ctl.e_cap0, &enumerating & lc.gt(&f2) & lc.le(&f3));
    m.assign(&ctl.e_clear, &reset | (&enumerating & lc.eq(&f3)));
    m.assign(&ctl.ph_cross, &full & lc.le(&c9(msg)));
    m.assign(&ctl.x_decide, &full & lc.is(0));
    m.assign(&ctl.x_shift, &full & lc.ge(&c9(1)) & lc.le(&c9(msg)));
    m.assign(&bit_time, &bt);
    m.assign(&low, &low_r);
    m.assign(&sel, &sel_r);
    m.assign(&sclr, &sclr_r);
    m.assign(&ewin, &ewin_r);

    let first = m.def("first", first_above(&low_r));
    let onehot_top = lit(k, 1 << (k - 1));
    let is_last = m.def("is_last", (&semi & &a.last) | (&full & lc.eq(&loop_end)));
    m.always(|pr| {
        pr.comment("sel: the dimension of the address (or, in step 5, body) bit being sent");
        pr.if_((&a.start & !&in_r) | &b.start, |pr| pr.load(&sel_r, &first))
            .elif(&a.start & &in_r, |pr| pr.load(&sel_r, &onehot_top))
            .elif(&b.addr & c0.eq(&f9), |pr| pr.load(&sel_r, &first))
            .elif((&a.addr & !&in_r) | &b.addr | &b.body, |pr| {
                pr.load(&sel_r, up(&sel_r))
            })
            .elif(&a.addr & &in_r, |pr| pr.load(&sel_r, down(&sel_r)))
            .else_(|pr| pr.load(&sel_r, zero(k)));
        pr.comment("sclr: stage i+1+j cleared at step-3 cycle f + M + 1 + j");
        pr.if_(&in2 & c2.eq(&f9.plus(msg as u64)), |pr| {
            pr.load(&sclr_r, &first)
        })
        .else_(|pr| pr.load(&sclr_r, up(&sclr_r)));
        pr.comment("ewin: wire i+1+j carries the enumeration during loop cycles 1+j..=2f+j");
        let feed = &enumerating & lc.lt(&f2);
        pr.load(&ewin_r, up(&ewin_r) | first.when(&feed));
        pr.comment("Sequencing");
        pr.if_(&reset, |pr| {
            pr.load(&mode, lit(2, Mode::Idle as u64));
            pr.load(&finished, lit(1, 0));
            pr.load(&bt, zero(16));
            pr.load(&lc, zero(CNT_BITS));
        })
        .elif(&ctl.load, |pr| {
            pr.load(
                &mode,
                algorithm.select(lit(2, Mode::Full as u64), lit(2, Mode::Semi as u64)),
            );
            pr.load(&finished, lit(1, 0));
            pr.load(&bt, zero(16));
            pr.load(&lc, zero(CNT_BITS));
            pr.load(&low_r, algorithm.select(lit(k, 1), zero(k)));
            pr.load(&f_r, lit(fw, (k - 1) as u64));
        })
        .elif(&busy, |pr| {
            pr.load(&bt, bt.plus(1));
            pr.if_(&is_last, |pr| {
                pr.load(&lc, zero(CNT_BITS));
                pr.if_(&semi | !&loops_left, |pr| {
                    pr.load(&mode, lit(2, Mode::Idle as u64));
                    pr.load(&finished, lit(1, 1));
                })
                .else_(|pr| {
                    pr.comment("Next loop: i + 1 joins the thermometer, f decreases");
                    pr.load(&low_r, shift_in_low(&low_r, lit(1, 1)));
                    pr.load(&f_r, f_r.minus(1));
                });
            })
            .else_(|pr| pr.load(&lc, lc.plus(1)));
        });
    });
    m.build()
}
