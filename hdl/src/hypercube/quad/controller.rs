//! The quadratic cube's controller (`hc_quad_ctrl_k{K}_l{L}`, `docs/hypercube.md`
//! §14.2): periods and batches. `start` (while idle, with `batches >= 1`) is the first
//! load cycle; from then on the period cycle `pc` counts `0 .. T_p − 1`. Every `pc = 0`
//! is a load cycle: `load` (every unit takes its hand-off), `take` (unit 0 takes the PEs'
//! batch, while batches remain) and `live` shifts one unit on (`live[j]`: unit `j` holds a
//! batch this period; the sequencers run a unit's loop only then). `latch` (the last
//! unit's cross is over: `pc = M + 2` while `live[k−1]`) loads every node's output
//! register and counts a finished batch; after the last one the controller is idle and
//! `done` stays high until the next start.

use super::{BATCH_BITS, BIT_TIME_BITS};
use crate::hypercube::overlap::controller::CNT_BITS;
use crate::hypercube::parts::shift_in_low;
use crate::hypercube::Router;
use crate::netlist::{lit, zero, Module, ModuleBuilder};
use lcanet_sim::hypercube::quad::period;
use lcanet_sim::hypercube::CubeParams;

/// The controller of the quadratic `k`-cube with `L`-bit payloads.
pub fn controller(p: CubeParams) -> Module {
    let k = p.k();
    let tp = period(p);
    let latch_pc = p.message_bits() as u64 + 2;
    let mut m = ModuleBuilder::new(Router::Quadratic.ctrl_name(p));
    m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let batches = m.input("batches", BATCH_BITS);
    let pc_out = m.output("pc", CNT_BITS);
    let live_out = m.output("live", k);
    let load = m.output("load", 1);
    let clear = m.output("clear", 1);
    let take = m.output("take", 1);
    let latch = m.output("latch", 1);
    let done = m.output("done", 1);
    let bit_time = m.output("bit_time", BIT_TIME_BITS);
    let batches_done = m.output("batches_done", BATCH_BITS);

    m.comment("State: running, period cycle, the units holding a batch, batch counts");
    let run = m.reg("run", 1);
    let pc = m.reg("pc_r", CNT_BITS);
    let live = m.reg("live_r", k);
    let left = m.reg("left", BATCH_BITS);
    let total = m.reg("total", BATCH_BITS);
    let ndone = m.reg("ndone", BATCH_BITS);
    let finished = m.reg("finished", 1);
    let bt = m.reg("bt", BIT_TIME_BITS);

    m.comment("The start cycle is period 0's load cycle");
    let starting = m.def("starting", &start & !&run & !&reset & batches.is_not(0));
    let period_load = m.def("period_load", &run & pc.is(0));
    m.assign(&load, &starting | &period_load);
    m.assign(&clear, &starting);
    let taking = m.def("taking", &starting | (&period_load & left.is_not(0)));
    m.assign(&take, &taking);
    let latching = m.def("latching", &run & live.bit(k - 1) & pc.is(latch_pc));
    m.assign(&latch, &latching);
    let last = m.def("last", &latching & ndone.plus(1).eq(&total));
    m.assign(&pc_out, &pc);
    m.assign(&live_out, &live);
    m.assign(&done, &finished);
    m.assign(&bit_time, &bt);
    m.assign(&batches_done, &ndone);

    m.always(|pr| {
        pr.if_(&reset, |pr| {
            pr.load(&run, zero(1));
            pr.load(&finished, zero(1));
            pr.load(&live, zero(k));
            pr.load(&bt, zero(BIT_TIME_BITS));
            pr.load(&ndone, zero(BATCH_BITS));
            pr.load(&pc, zero(CNT_BITS));
        })
        .elif(&starting, |pr| {
            pr.load(&run, lit(1, 1));
            pr.load(&finished, zero(1));
            pr.load(&pc, lit(CNT_BITS, 1));
            pr.load(&live, lit(k, 1));
            pr.load(&left, batches.minus(1));
            pr.load(&total, &batches);
            pr.load(&ndone, zero(BATCH_BITS));
            pr.load(&bt, zero(BIT_TIME_BITS));
        })
        .elif(&run, |pr| {
            pr.load(&bt, bt.plus(1));
            pr.if_(pc.is(tp - 1), |pr| pr.load(&pc, zero(CNT_BITS)))
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
                pr.load(&live, zero(k));
            });
        });
    });
    m.build()
}
