//! The pipelined sort-then-pack cube's controller (`hc_qsort_ctrl_k{K}_l{L}`,
//! `docs/hypercube.md` §13.3). Batches are taken every period `T = M + 1` from the start
//! cycle on; a batch's bit `q` is at pipeline position `Δ` (cycles after its load cycle)
//! at a fixed phase, so every strobe is "the period cycle `pc` is `Δ mod T`, and the
//! batch taken `Δ div T` periods ago is real" — `live` records, period by period, which
//! of the last periods took a batch. Strobes (each for one position or a span of them):
//! `i_first` (`Δ = 1`, the record's first bit into the pipeline), `i_body` (`2..=M+1`),
//! `j_first` (`S + 2`, the first bit at the junction), `j_sel` (a one-hot shift of it over
//! the destination bits), `j_pay` (the payload at the junction), `d_start`, `d_last`,
//! `d_shift` (the delivery register: start bit; the last payload bit, when the result
//! is latched; the payload bits before it); `sclr` marks, position by position, the cycle in which a record's last
//! bit leaves a stage (a shift register fed when the last bit enters the pipeline).

use super::super::quad::{BATCH_BITS, BIT_TIME_BITS};
use crate::hypercube::overlap::controller::CNT_BITS;
use crate::hypercube::parts::shift_in_low;
use crate::hypercube::Router;
use crate::netlist::{cat, lit, or_all, zero, Module, ModuleBuilder, V};
use lcanet_sim::hypercube::qsort::{period, sort_stages};
use lcanet_sim::hypercube::CubeParams;

/// The controller of the pipelined sort-then-pack `k`-cube with `L`-bit payloads.
pub fn controller(p: CubeParams) -> Module {
    let (k, l, msg) = (p.k(), p.payload_bits(), p.message_bits());
    let s = sort_stages(k);
    let t = period(p);
    let (s64, k64, l64, m64) = (s as u64, k as u64, l as u64, msg as u64);
    // The positions the strobes look at (`at` single ones, `span` ranges), and so the
    // periods `live` must remember: position Δ looks at the batch taken Δ div T periods
    // ago (one fewer in the load cycle, when `live` has not shifted yet).
    let singles = [
        1,
        s64 + 2,
        s64 + 2 * k64 + 3,
        s64 + 2 * k64 + l64 + 3,
        m64 + 1,
    ];
    let spans = [
        (2, m64 + 1),
        (s64 + k64 + 3, s64 + 2 + m64),
        (s64 + 2 * k64 + 4, s64 + 2 * k64 + l64 + 2),
    ];
    let index = |d: u64| {
        let (a, c) = (d / t, d % t);
        if c == 0 {
            a.saturating_sub(1)
        } else {
            a
        }
    };
    let depth = 1 + singles
        .iter()
        .copied()
        .chain(spans.iter().flat_map(|&(lo, hi)| lo..=hi))
        .map(index)
        .max()
        .unwrap_or(0) as usize;
    let mut m = ModuleBuilder::new(Router::QuadSort.ctrl_name(p));
    m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let batches = m.input("batches", BATCH_BITS);
    let names = super::node::strobes(l);
    let outs: Vec<V> = names.iter().map(|n| m.output(*n, 1)).collect();
    let j_sel = m.output("j_sel", k);
    let sclr = m.output("sclr", s + k);
    let take = m.output("take", 1);
    let done = m.output("done", 1);
    let bit_time = m.output("bit_time", BIT_TIME_BITS);
    let batches_done = m.output("batches_done", BATCH_BITS);

    m.comment("State: running, period cycle, periods that took a batch, counts, markers");
    let run = m.reg("run", 1);
    let pc = m.reg("pc_r", CNT_BITS);
    let live = m.reg("live_r", depth);
    let left = m.reg("left", BATCH_BITS);
    let total = m.reg("total", BATCH_BITS);
    let ndone = m.reg("ndone", BATCH_BITS);
    let finished = m.reg("finished", 1);
    let bt = m.reg("bt", BIT_TIME_BITS);
    let j_sel_r = m.reg("j_sel_r", k);
    let mk = m.reg("mk", s + k + 1);

    let starting = m.def("starting", &start & !&run & !&reset & batches.is_not(0));
    let period_load = m.def("period_load", &run & pc.is(0));
    let taking = m.def("taking", &starting | (&period_load & left.is_not(0)));
    // The batch taken `a` periods before the current one is real: in the load cycle
    // (pc = 0) `live` has not shifted yet, and a = 0 is the batch being taken.
    let real = |a: usize, at_zero: bool| -> V {
        if at_zero {
            if a == 0 {
                taking.clone()
            } else {
                live.bit(a - 1)
            }
        } else {
            live.bit(a)
        }
    };
    let at = |delta: u64| -> V {
        let (a, c) = ((delta / t) as usize, delta % t);
        pc.is(c) & real(a, c == 0)
    };
    let span = |lo: u64, hi: u64| -> V {
        let mut terms = Vec::new();
        let mut d = lo;
        while d <= hi {
            let a = d / t;
            let end = hi.min((a + 1) * t - 1);
            let (c1, c2) = (d % t, end % t);
            if c1 == 0 {
                terms.push(pc.is(0) & real(a as usize, true));
            }
            let from = c1.max(1);
            if from <= c2 {
                let range = pc.ge(&lit(CNT_BITS, from)) & pc.le(&lit(CNT_BITS, c2));
                terms.push(range & live.bit(a as usize));
            }
            d = end + 1;
        }
        or_all(1, terms)
    };
    let d_last = at(s64 + 2 * k64 + l64 + 3);
    let latching = m.def("latching", &run & d_last.clone());
    let strobes = [
        &starting | &period_load,
        starting.clone(),
        at(1),
        span(2, m64 + 1),
        at(s64 + 2),
        span(s64 + k64 + 3, s64 + 2 + m64),
        at(s64 + 2 * k64 + 3),
        d_last,
        span(s64 + 2 * k64 + 4, s64 + 2 * k64 + l64 + 2),
    ];
    for (o, v) in outs.iter().zip(strobes) {
        m.assign(o, v);
    }
    let j_first = outs[4].clone();
    let last = m.def("last", &latching & ndone.plus(1).eq(&total));
    m.assign(&take, &taking);
    m.assign(&done, &finished);
    m.assign(&bit_time, &bt);
    m.assign(&batches_done, &ndone);
    m.assign(&j_sel, &j_sel_r);
    // Stage i clears at mk[i] (sort), routing stage j at mk[S + 1 + j].
    m.assign(&sclr, cat([mk.bits(s + k, s + 1), mk.low(s)]));
    let last_in = at(m64 + 1);

    m.always(|pr| {
        pr.load(&j_sel_r, shift_in_low(&j_sel_r, j_first.clone()));
        pr.load(&mk, shift_in_low(&mk, last_in.clone()));
        pr.if_(&reset, |pr| {
            pr.load(&run, zero(1));
            pr.load(&finished, zero(1));
            pr.load(&live, zero(depth));
            pr.load(&bt, zero(BIT_TIME_BITS));
            pr.load(&ndone, zero(BATCH_BITS));
            pr.load(&pc, zero(CNT_BITS));
        })
        .elif(&starting, |pr| {
            pr.load(&run, lit(1, 1));
            pr.load(&finished, zero(1));
            pr.load(&pc, lit(CNT_BITS, 1));
            pr.load(&live, lit(depth, 1));
            pr.load(&left, batches.minus(1));
            pr.load(&total, &batches);
            pr.load(&ndone, zero(BATCH_BITS));
            pr.load(&bt, zero(BIT_TIME_BITS));
        })
        .elif(&run, |pr| {
            pr.load(&bt, bt.plus(1));
            pr.if_(pc.is(t - 1), |pr| pr.load(&pc, zero(CNT_BITS)))
                .else_(|pr| pr.load(&pc, pc.plus(1)));
            pr.if_(&period_load, |pr| {
                pr.load(&live, shift_in_low(&live, taking.clone()));
                pr.if_(left.is_not(0), |pr| pr.load(&left, left.minus(1)));
            });
            pr.if_(&latching, |pr| pr.load(&ndone, ndone.plus(1)));
            pr.if_(&last, |pr| {
                pr.comment("The last batch's result is out: idle, done");
                pr.load(&run, zero(1));
                pr.load(&finished, lit(1, 1));
                pr.load(&live, zero(depth));
            });
        });
    });
    m.build()
}
