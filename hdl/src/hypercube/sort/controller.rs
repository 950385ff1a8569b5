//! The sort cube's controller (`docs/hypercube.md` §13): in `semi` one routing phase; in
//! `sort` the passes `s = 0..k-1` (pass `s` lasts `M + s + 3` cycles, its dimensions
//! `k−1−s..k−1` given by the thermometer `low` of the dimensions below them, which
//! shrinks by one each pass) and then the unpacking, a routing phase over all `k`
//! dimensions.
//!
//! State: `mode` (`idle`, `semi`, `sort`), the phase cycle `cnt` (8 bits; the longest
//! phase, pass `k−1`, lasts `M + k + 2 <= 90`), the pass index `s_r`, `low_r`, the
//! address selector `sel_r`, `finished`, `bt`.

use super::control::Control;
use crate::hypercube::parts::{down, up};
use crate::hypercube::Router;
use crate::netlist::{index_bits, lit, zero, Module, ModuleBuilder};
use lcanet_sim::hypercube::CubeParams;

/// Width of the phase counter.
pub const CNT_BITS: usize = 8;

/// Codes of the controller's `mode` register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum Mode {
    /// No run in progress.
    Idle = 0,
    /// Algorithm 1 alone, or (after the passes) the unpacking.
    Semi = 1,
    /// The passes of the sort.
    Sort = 2,
}

/// The controller of the sort `k`-cube with `L`-bit payloads (`hc_sort_ctrl_k{K}_l{L}`).
pub fn controller(p: CubeParams) -> Module {
    let (k, l, msg) = (p.k(), p.payload_bits(), p.message_bits());
    let c8 = |v: usize| lit(CNT_BITS, v as u64);
    let sw = index_bits(k);
    let mut m = ModuleBuilder::new(Router::Sort.ctrl_name(p));
    m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let algorithm = m.input("algorithm", 1);
    let ctl = Control::outputs(&mut m);
    let sel = m.output("sel", k);
    let low = m.output("low", k);
    let bit_time = m.output("bit_time", 16);

    m.comment("State: mode, phase cycle, pass index, its thermometer, address selector, run");
    let mode = m.reg("mode", 2);
    let cnt = m.reg("cnt", CNT_BITS);
    let s_r = m.reg("s_r", sw);
    let low_r = m.reg("low_r", k);
    let sel_r = m.reg("sel_r", k);
    let finished = m.reg("finished", 1);
    let bt = m.reg("bt", 16);

    m.comment("Mode decode; pass s: record bits 0..=M driven, bit q in P_k at q + s + 2");
    let busy = m.def("busy", mode.is_not(Mode::Idle as u64));
    let semi = m.def("semi", mode.is(Mode::Semi as u64));
    let sort = m.def("sort", mode.is(Mode::Sort as u64));
    let s8 = m.def("s8", s_r.zext(CNT_BITS));
    let pass_last = m.def("pass_last", s8.plus(msg as u64 + 2));
    let at = |v: usize| cnt.is(v as u64);
    let within = |lo: usize, hi: usize| cnt.ge(&c8(lo)) & cnt.le(&c8(hi));
    let route_last = 2 * k + l + 1;
    m.assign(&ctl.load, &start & !&busy & !&reset);
    m.assign(&ctl.done, &finished);
    m.assign(&ctl.ph_semi, &semi);
    m.assign(&ctl.ph_sort, &sort);
    m.assign(&ctl.c_start, &busy & at(0));
    m.assign(&ctl.c_addr, &semi & within(1, k));
    m.assign(
        &ctl.c_body,
        (&semi & within(k + 1, k + l)) | (&sort & within(1, msg)),
    );
    m.assign(
        &ctl.c_rxstart,
        (&semi & at(2 * k + 1)) | (&sort & cnt.eq(&s8.plus(2))),
    );
    let is_last = m.def(
        "is_last",
        (&semi & at(route_last)) | (&sort & cnt.eq(&pass_last)),
    );
    m.assign(
        &ctl.c_window,
        (&semi & within(k + 1, route_last)) | (&sort & cnt.ge(&c8(1)) & cnt.le(&pass_last)),
    );
    m.assign(&ctl.c_last, &is_last);
    m.assign(&ctl.s_clear, &reset | &is_last);
    m.assign(&bit_time, &bt);
    m.assign(&low, &low_r);
    m.assign(&sel, &sel_r);

    // Pass 0 works in dimension k-1 alone: low = dimensions 0..k-2.
    let low0 = lit(k, (1u64 << (k - 1)) - 1);
    m.always(|pr| {
        pr.comment("sel: the dimension whose address bit is sent (routing phases)");
        pr.if_(&semi & at(0), |pr| pr.load(&sel_r, lit(k, 1)))
            .elif(&semi & within(1, k), |pr| pr.load(&sel_r, up(&sel_r)))
            .else_(|pr| pr.load(&sel_r, zero(k)));
        pr.comment("Sequencing");
        pr.if_(&reset, |pr| {
            pr.load(&mode, lit(2, Mode::Idle as u64));
            pr.load(&finished, lit(1, 0));
            pr.load(&bt, zero(16));
            pr.load(&cnt, zero(CNT_BITS));
        })
        .elif(&ctl.load, |pr| {
            pr.load(
                &mode,
                algorithm.select(lit(2, Mode::Sort as u64), lit(2, Mode::Semi as u64)),
            );
            pr.load(&finished, lit(1, 0));
            pr.load(&bt, zero(16));
            pr.load(&cnt, zero(CNT_BITS));
            pr.load(&s_r, zero(sw));
            pr.load(&low_r, algorithm.select(low0.clone(), zero(k)));
        })
        .elif(&busy, |pr| {
            pr.load(&bt, bt.plus(1));
            pr.if_(&is_last, |pr| {
                pr.load(&cnt, zero(CNT_BITS));
                pr.if_(&semi, |pr| {
                    pr.load(&mode, lit(2, Mode::Idle as u64));
                    pr.load(&finished, lit(1, 1));
                })
                .elif(s_r.is((k - 1) as u64), |pr| {
                    pr.comment("Sorted: unpack by Algorithm 1 over every dimension");
                    pr.load(&mode, lit(2, Mode::Semi as u64));
                    pr.load(&low_r, zero(k));
                })
                .else_(|pr| {
                    pr.load(&s_r, s_r.plus(1));
                    pr.load(&low_r, down(&low_r));
                });
            })
            .else_(|pr| pr.load(&cnt, cnt.plus(1)));
        });
    });
    m.build()
}
