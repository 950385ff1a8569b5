//! The MIN/ATAPE adapter (`docs/selftest.md` §4): a round is one ATAPE exchange. `first`
//! is the network's first Latin-square row with the round's offset `c` xor-ed into every
//! entry; the self-test, as the PEs, feeds each frame's payload bits from its message
//! table addressed by the network's `dst` (message `j·n + q` is PE `j`'s to PE `q`) and
//! checks the outputs as they stream out. `done` is `!busy`.
//!
//! Its own frame counters (`fpos`, `fcnt`, from the `start` clock on, as docs/min.md §4
//! times a run) mark the payload positions. At position `m − 1` of every frame it latches
//! `dst` into `dst_rx` (the frame's addressing while its bits arrive) and marks message
//! `(j, dst_j)` in `seen`, and reads each PE's message
//! from its bank; the word read is PE `j`'s `din` at the first payload position and then
//! shifts through `tx_sr`, whose bit 0 is the PE's `din` at the later ones.
//!
//! The `n²` messages of an exchange are in block RAM: PE `j`'s `n` messages (to PE `q` at
//! word `q`) in bank `pe<j>_msgs`, an instance of `<top>_bank` (one write port, written
//! in `MSG`, one registered read port), so that every PE reads its message of the frame
//! in the same clock.
//! What PE `j` sent `m` bit-times ago (the delay line `dl`, zero at tag positions) must be
//! on `dout[dst_rx_j]` now, for every `j`, at every clock of the run; a difference marks
//! message `(j, dst_rx_j)` in `msg_err`. A stage's `conflict` flag is sampled once its
//! first decision of the run shows (`run_bt > 2s`). At `done`: no conflict; in `CHECK`,
//! row `idx` of `seen` is all ones and of `msg_err` all zeros. A duplicate needs no flag of
//! its own: a row gets `n` marks in `n` bits, so a duplicate leaves a hole that `CHECK`
//! sees. `CHECK` reads row 0 and shifts both bitmaps down a row every clock (row `idx` is in
//! row 0 when `idx` is read), so that no `n`-way row multiplexer spans the die
//! (`docs/decisions/fpga-flow.md`); its `n` shifts leave both zero for the next round. Each
//! row has its own copy of the bitmaps' controls (`row<j>_ctl`: latch, shift and compare,
//! registers loading their next value), so that no enable net reaches all `2n²` bits.
//! Counter 1 sums the busy clocks (`run_bt`), counter 2 the messages seen and intact.

use super::adapter::{rows_words, Add2, Ctx, Hooks};
use super::top::{CHECK, START, WAIT0, WAIT1};
use super::{DutSpec, SelftestSpec};
use crate::netlist::{cat, index_bits, lit, lit_words, zero, Module, ModuleBuilder, V};
use lcanet_sim::min::first_row;

/// Instantiates the MIN as `net` and returns the checker's view of it.
pub(super) fn attach(
    m: &mut ModuleBuilder,
    spec: &SelftestSpec,
    net_top: &Module,
    ctx: &Ctx,
) -> Hooks {
    let DutSpec::Min { min, message_bits } = &spec.dut else {
        unreachable!("the MIN adapter gets a MIN")
    };
    let (w, n, b) = (min.m() as usize, min.n(), *message_bits as usize);
    let f = w + b;
    let fw = index_bits(f);
    let offset = ctx.offset.as_ref().expect("an exchange has an offset");
    let first = first_row(min);
    let first_c = lit_words(n * w, rows_words(w, (0..n).map(|j| first.dst(j) as u64)));

    m.comment("The PEs' side of the exchange: frame position and number from start on");
    let run = m.reg("run", 1);
    let fpos = m.reg("fpos", fw);
    let fcnt = m.reg("fcnt", w);
    let run_bt = m.reg("run_bt", 16);
    let pay = m.def("pay", run.clone() & fpos.ge(&lit(fw, w as u64)));
    // `latch` (run and frame position m − 1) is a register loaded with its next-state
    // value: it enables the 4,096-bit `seen` at m = 6, a die-wide net that must start at a
    // flip-flop. The next state follows the process below (the `run` block last).
    let latch = m.reg("latch", 1);
    let wrap = fpos.is(f as u64 - 1);
    let starts = ctx.st.is(START);
    let fpos_next = run.select(
        wrap.select(zero(fw), fpos.plus(1)),
        starts.select(zero(fw), fpos.clone()),
    );
    let run_next = (run.clone() & wrap.clone() & fcnt.is(n as u64 - 1))
        .select(lit(1, 0), starts.select(lit(1, 1), run.clone()));
    let latch_next = m.def("latch_next", run_next & fpos_next.is(w as u64 - 1));
    let tx_sr = m.reg("tx_sr", n * b);
    let first_pay = m.def("first_pay", run.clone() & fpos.is(w as u64));
    let dst_rx = m.reg("dst_rx", n * w);
    let dl = m.reg("dl", n * w);
    let seen = m.reg("seen", n * n);
    let msg_err = m.reg("msg_err", n * n);
    let conflict_seen = m.reg("conflict_seen", 1);

    let net_dout = m.wire("net_dout", n);
    let net_busy = m.wire("net_busy", 1);
    let done = m.def("net_done", !net_busy.clone());
    m.comment("Each row of the bitmaps has its own copy of their controls (row<j>_ctl), each");
    m.comment("loading the next value: latch, CHECK (shift a row) and WAIT0/WAIT1 (compare)");
    let check_next = m.def(
        "check_next",
        (ctx.st.is(WAIT1) & done.clone()) | (ctx.st.is(CHECK) & !ctx.idx.is(n as u64 - 1)),
    );
    let cmp_next = m.def(
        "cmp_next",
        ctx.st.is(START) | ctx.st.is(WAIT0) | (ctx.st.is(WAIT1) & !done.clone()),
    );
    let rowctl = rowctl_module(&format!("{}_rowctl", spec.top_name()));
    let row_ctl: Vec<[V; 3]> = (0..n)
        .map(|j| {
            let ctl = ["latch", "shift", "cmp"].map(|k| m.wire(format!("row{j}_{k}"), 1));
            let _ = m
                .instance(format!("row{j}_ctl"), &rowctl)
                .pin("clock", &ctx.clock)
                .pin("latch_next", &latch_next)
                .pin("shift_next", &check_next)
                .pin("cmp_next", &cmp_next)
                .pin("latch", &ctl[0])
                .pin("shift", &ctl[1])
                .pin("cmp", &ctl[2]);
            ctl
        })
        .collect();
    let net_dst = m.wire("net_dst", n * w);
    let net_conflict = m.wire("net_conflict", w);
    let first_in = m.def("first_row", first_c ^ offset.repeat(n));
    m.comment("PE j's messages, to PE q at word q of bank j: written in MSG, read at latch");
    let bank = bank_module(&format!("{}_bank", spec.top_name()), w, b);
    let msg_q = m.wire("msg_q", n * b);
    let bank_sel = ctx.idx.bits(2 * w - 1, w);
    let waddr = ctx.idx.bits(w - 1, 0);
    for j in 0..n {
        let _ = m
            .instance(format!("pe{j}_msgs"), &bank)
            .pin("clock", &ctx.clock)
            .pin("we", ctx.st.is(super::top::MSG) & bank_sel.is(j as u64))
            .pin("waddr", &waddr)
            .pin("wdata", &ctx.draw)
            .pin("re", &latch)
            .pin("raddr", net_dst.row(j, w))
            .pin("rdata", msg_q.row(j, b));
    }
    let bit0 = |v: &V| cat((0..n).rev().map(|j| v.bit(j * b)));
    let din = m.def(
        "din",
        first_pay.select(bit0(&msg_q), bit0(&tx_sr)) & pay.repeat(n),
    );
    let _ = m
        .instance("net", net_top)
        .pin("clock", &ctx.clock)
        .pin("reset", lit(1, 0))
        .pin("start", ctx.st.is(START))
        .pin("single", lit(1, 0))
        .pin("first", &first_in)
        .pin("din", &din)
        .pin("dout", &net_dout)
        .pin("dst", &net_dst)
        .pin("busy", &net_busy)
        .open("sending")
        .open("frame")
        .open("pos")
        .pin("conflict", &net_conflict)
        .open("sw_crossed")
        .open("sw_conflict");

    let keep = lit_words(n * b, rows_words(b, (0..n).map(|_| (1u64 << (b - 1)) - 1)));
    m.comment("What PE j sent m bit-times ago must be on dout[dst_rx_j] now");
    let sent_then = dl.top(n);
    m.comment("Row j: the one-hot destination of PE j's message now (hot) and arriving (hot_rx)");
    let one = lit(n, 1);
    let hot = m.def(
        "hot",
        cat((0..n).rev().map(|j| one.shl_by(&net_dst.row(j, w)))),
    );
    let hot_rx = m.def(
        "hot_rx",
        cat((0..n).rev().map(|j| one.shl_by(&dst_rx.row(j, w)))),
    );
    let got = cat((0..n).rev().map(|j| net_dout.row_at(&dst_rx.row(j, w), 1)));
    let want = if spec.params.fault {
        m.comment(
            "TEST-ONLY FAULT (--inject-fault): PE 0's expected payload bit 0 inverted in every frame",
        );
        let b0 = m.reg("b0_dl", w);
        let first_bit = run.clone() & fpos.is(w as u64);
        m.always(|p| {
            let next = if w > 1 {
                cat([b0.bits(w - 2, 0), first_bit.clone()])
            } else {
                first_bit.clone()
            };
            p.load(&b0, next);
        });
        let flip = if n > 1 {
            cat([zero(n - 1), b0.bit(w - 1)])
        } else {
            b0.bit(w - 1)
        };
        m.def("chk_want", sent_then ^ flip)
    } else {
        m.def("chk_want", sent_then)
    };
    let mis = m.def("chk_mis", got ^ want);
    let cmp_on = m.def("cmp_on", ctx.st.is(WAIT0) | ctx.st.is(WAIT1));
    m.comment("Stage s's conflict flag shows this run's decisions once run_bt > 2s");
    let armed = m.def(
        "armed",
        cat((0..w).rev().map(|s| run_bt.gt(&lit(16, 2 * s as u64)))),
    );

    m.always(|p| {
        p.load(&latch, &latch_next);
        p.load(
            &dl,
            if w > 1 {
                cat([dl.low(n * (w - 1)), din.clone()])
            } else {
                din.clone()
            },
        );
        p.if_(ctx.st.is(START), |p| {
            p.load(&run, lit(1, 1));
            p.load(&fpos, zero(fw));
            p.load(&fcnt, zero(w));
            p.load(&run_bt, zero(16));
            p.load(&conflict_seen, lit(1, 0));
        });
        p.if_(run.clone(), |p| {
            p.if_(fpos.is(f as u64 - 1), |p| {
                p.load(&fpos, zero(fw));
                p.load(&fcnt, fcnt.plus(1));
                p.if_(fcnt.is(n as u64 - 1), |p| p.load(&run, lit(1, 0)));
            })
            .else_(|p| p.load(&fpos, fpos.plus(1)));
        });
        p.if_(latch.clone(), |p| {
            p.load(&dst_rx, net_dst.clone());
        })
        .elif(first_pay.clone(), |p| {
            p.load(&tx_sr, msg_q.shr(1) & keep.clone());
        })
        .elif(pay.clone(), |p| {
            p.load(&tx_sr, tx_sr.shr(1) & keep.clone());
        });
        p.if_(cmp_on.clone() & net_busy.clone(), |p| {
            p.load(&run_bt, run_bt.plus(1));
            p.if_((net_conflict.clone() & armed.clone()).any(), |p| {
                p.load(&conflict_seen, lit(1, 1))
            });
        });
        p.comment("Row j of the bitmaps, on its own controls. CHECK reads row 0 and shifts row");
        p.comment("idx + 1 into it for the next clock, zeros into the top: all zero at TALLY");
        for (j, [latch_j, shift_j, cmp_j]) in row_ctl.iter().enumerate() {
            let (seen_j, err_j) = (seen.row(j, n), msg_err.row(j, n));
            let above = |v: &V| if j + 1 < n { v.row(j + 1, n) } else { zero(n) };
            p.if_(shift_j.clone(), |p| p.load(&seen_j, above(&seen)))
                .elif(latch_j.clone(), |p| {
                    p.load(&seen_j, seen_j.clone() | hot.row(j, n))
                });
            p.if_(shift_j.clone(), |p| p.load(&err_j, above(&msg_err)))
                .elif(cmp_j.clone(), |p| {
                    p.load(
                        &err_j,
                        err_j.clone() | (hot_rx.row(j, n) & mis.bit(j).repeat(n)),
                    )
                });
        }
    });

    m.comment("Checker: at done, no conflict; in CHECK, PE idx's row all seen and intact");
    m.comment("(n marks in n bits: a duplicate leaves a hole in its row)");
    m.comment("(row 0 of the bitmaps, shifted one row per CHECK clock)");
    let good = m.def("chk_good", seen.row(0, n) & !msg_err.row(0, n));
    let cw = index_bits(n + 1);
    let count = m.def(
        "chk_count",
        (0..n).fold(zero(cw), |acc, j| acc + good.bit(j).zext(cw)),
    );
    let chk_ok = m.def("chk_ok", good.all());
    let all_ok = m.def("all_ok", !conflict_seen.clone());
    Hooks {
        done,
        all_ok,
        chk_ok,
        add1: run_bt.zext(32),
        add2: Add2::Check(count),
        modules: vec![bank, rowctl],
    }
}

/// A row's copy of the bitmaps' controls, each a register loading the next value (`keep`:
/// one copy per row, so that no enable net spans the die).
fn rowctl_module(name: &str) -> Module {
    let mut m = ModuleBuilder::new(name);
    m.clock();
    let pairs = ["latch", "shift", "cmp"].map(|k| {
        let d = m.input(format!("{k}_next"), 1);
        (d, m.output(k, 1))
    });
    let q = ["latch", "shift", "cmp"].map(|k| m.reg(format!("{k}_q"), 1));
    m.keep_registers();
    m.always(|p| {
        for ((d, _), q) in pairs.iter().zip(&q) {
            p.load(q, d);
        }
    });
    for ((_, o), q) in pairs.iter().zip(&q) {
        m.assign(o, q);
    }
    m.build()
}

/// A bank of `2^w` messages of `b` bits: one write port (`we`, `waddr`, `wdata`), one
/// registered read port (`re`, `raddr`, `rdata`); block RAM.
fn bank_module(name: &str, w: usize, b: usize) -> Module {
    let mut m = ModuleBuilder::new(name);
    let clock = m.clock();
    let we = m.input("we", 1);
    let waddr = m.input("waddr", w);
    let wdata = m.input("wdata", b);
    let re = m.input("re", 1);
    let raddr = m.input("raddr", w);
    let rdata = m.output("rdata", b);
    let _ = clock;
    let mem = m.memory("mem", b, 1 << w);
    let q = m.reg("q", b);
    m.assign(&rdata, &q);
    m.always(|p| {
        p.if_(we, |p| p.load(&mem.word(&waddr), wdata.clone()));
        p.if_(re, |p| p.load(&q, mem.word(&raddr)));
    });
    m.build()
}
