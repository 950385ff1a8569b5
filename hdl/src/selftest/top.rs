//! The self-test top (`docs/selftest.md` §2–§4), the parts every family shares: the
//! stimulus generator (xorshift32 `rng`, the message table `msg_r`, the destination
//! table `perm` shuffled in place by Fisher–Yates with rejection, or a packing's ranks and
//! senders, or an exchange's row offset), the sequencer that starts the network and waits
//! for `done`, the checker's verdict `bad`, the 32-bit counters `cnt_*`, the LEDs, the
//! heartbeat and the report block `rep`. The network (`net`) and what the checker reads
//! back come from the family's adapter ([`super::lca`], [`super::cube`], [`super::min`]).
//!
//! Sequencer states (`st`): 0 `MSG` (one message per draw), 1 `SHUF` (shuffle until step
//! `i = 1` is accepted; a packing's start, with rejection; an exchange's offset, one
//! draw), 2 `START` (the network's `start` is 1), 3 `WAIT0` (until `done` is 0), 4
//! `WAIT1` (until `done` is 1), 5 `CHECK` (n clocks), 6 `TALLY` (counters), 7 `PRINT`
//! (until the report line is out).

use super::adapter::{load_row, read_row, rows_words, Add2, Ctx};
use super::SelftestSpec;
use crate::netlist::{cat, index_bits, lit, zero, Module, ModuleBuilder, V};
use lcanet_sim::selftest::StimulusKind;

/// State codes of the sequencer.
pub const MSG: u64 = 0;
/// See [`MSG`].
pub const SHUF: u64 = 1;
/// See [`MSG`].
pub const START: u64 = 2;
/// See [`MSG`].
pub const WAIT0: u64 = 3;
/// See [`MSG`].
pub const WAIT1: u64 = 4;
/// See [`MSG`].
pub const CHECK: u64 = 5;
/// See [`MSG`].
pub const TALLY: u64 = 6;
/// See [`MSG`].
pub const PRINT: u64 = 7;

/// xorshift32's next state as three named wires (`docs/selftest.md` §2).
fn xorshift_next(m: &mut ModuleBuilder, rng: &V) -> V {
    let a = m.def("rng_a", rng.clone() ^ rng.shl(13));
    let b = m.def("rng_b", a.clone() ^ a.shr(17));
    m.def("rng_next", b.clone() ^ b.shl(5))
}

/// `i` with every bit below its highest set bit set.
fn smear(m: &mut ModuleBuilder, i: &V) -> V {
    let w = i.width();
    let mut s = i.clone();
    let mut k = 1;
    while k < w {
        s = m.def(format!("fy_smear{k}"), s.clone() | s.shr(k));
        k <<= 1;
    }
    s
}

/// The top module (`net` is the network top `net_top`, `rep` the report block `report`)
/// and the modules its adapter instantiates besides the network.
pub fn top_module(spec: &SelftestSpec, net_top: &Module, report: &Module) -> (Module, Vec<Module>) {
    let dut = &spec.golden;
    let (n, mb, msgs, kind) = (dut.pes(), dut.msg_bits(), dut.messages(), dut.stimulus());
    let ab = index_bits(n);
    let iw = index_bits(msgs);
    let mut m = ModuleBuilder::new(spec.top_name());
    let clock = m.clock();
    let led_pass = m.output("led_pass", 1);
    let led_fail = m.output("led_fail", 1);
    let heartbeat = m.output("heartbeat", 1);
    let uart_tx = m.output("uart_tx", 1);

    m.comment("Stimulus generator and sequencer");
    let rng = m.reg_init("rng", 32, u64::from(spec.params.seed));
    let st = m.reg("st", 3);
    let idx = m.reg("idx", iw);
    // Permutations and packings keep their n messages in a shift register; an exchange's
    // n² go to block RAM in the MIN adapter (one bank per sending PE).
    let msg_r = (kind != StimulusKind::Exchange).then(|| m.reg("msg_r", msgs * mb));
    let perm = match kind {
        StimulusKind::Shuffle => {
            m.comment("Destination table, the identity at power-up");
            Some(m.reg_init_words("perm", n * ab, rows_words(ab, 0..n as u64)))
        }
        StimulusKind::Packing => Some(m.reg("perm", n * ab)),
        StimulusKind::Exchange => None,
    };
    let send = (kind == StimulusKind::Packing).then(|| m.reg("send_r", n));
    let count = (kind == StimulusKind::Packing).then(|| m.reg("pk_count", ab + 1));
    let offset = match kind {
        StimulusKind::Shuffle => None,
        StimulusKind::Packing => Some(m.reg("offset", ab + 1)),
        StimulusKind::Exchange => Some(m.reg("offset", ab)),
    };
    m.comment("Checker and counters");
    let bad = m.reg("bad", 1);
    let keys = dut.line().keys();
    let cnt: Vec<V> = keys.iter().map(|k| m.reg(format!("cnt_{k}"), 32)).collect();
    let rep_cnt = m.reg("rep_cnt", 32);
    let pass_q = m.reg_init("pass_q", 1, 1);
    let go = m.reg("go", 1);
    m.comment("Heartbeat: toggles in the first TALLY at least heartbeat_clocks clocks after the last toggle");
    let hw = index_bits(spec.heartbeat as usize + 1);
    let hb = m.reg("hb", 1);
    let hb_cnt = m.reg("hb_cnt", hw);
    let hb_due = m.def("hb_due", hb_cnt.is(spec.heartbeat));

    let rng_next = xorshift_next(&mut m, &rng);
    // Fisher–Yates step `i = idx`, or a packing's start in 0..=n−count: draw until
    // `j = rng & smear(limit)` is at most the limit.
    let limit = match (&count, kind) {
        (Some(c), _) => Some(m.def("pk_room", lit(ab + 1, n as u64) - c.clone())),
        (None, StimulusKind::Shuffle) => Some(idx.clone()),
        _ => None,
    };
    let fy = limit.map(|lim| {
        let mask = smear(&mut m, &lim);
        let j = m.def("fy_j", rng.low(lim.width()) & mask);
        let ok = m.def("fy_ok", j.le(&lim));
        (j, ok)
    });
    if let (Some(perm), StimulusKind::Shuffle, Some((j, ok))) = (&perm, kind, &fy) {
        // A step accepted in one clock (the draw: `idx` → `smear` → `fy_j` → `fy_ok`)
        // reads its rows `perm[i]`, `perm[j]` into flip-flops in the next (`fy_vi`,
        // `fy_vj`) and writes them swapped in the one after. On the 85F at 128 PEs the
        // draw, the 128-way reads and the writes were each a path across the die
        // (docs/decisions/fpga-flow.md). The draw reads no row, so the permutations are
        // the sequential algorithm's. A read sees the write still pending from the step
        // before through `fy_fwd_*`: only that step's row `j` can be read again, since
        // `i` falls by one per step and a step's `j` is at most its `i`.
        m.comment("Fisher–Yates: draw, read (forwarding the pending write), swap");
        let iq = m.reg("fy_iq", ab);
        let jq = m.reg("fy_jq", ab);
        let okq = m.reg("fy_okq", 1);
        let wi = m.reg("fy_wi", ab);
        let wj = m.reg("fy_wj", ab);
        let wok = m.reg("fy_wok", 1);
        let vi = m.reg("fy_vi", ab);
        let vj = m.reg("fy_vj", ab);
        let pi = read_row(&mut m, "perm_i", perm, &iq, ab);
        let pj = read_row(&mut m, "perm_j", perm, &jq, ab);
        let fwd_i = m.def("fy_fwd_i", (wok.clone() & iq.eq(&wj)).select(&vi, &pi));
        let fwd_j = m.def("fy_fwd_j", (wok.clone() & jq.eq(&wj)).select(&vi, &pj));
        let accept = st.is(SHUF) & ok.clone();
        m.always(|p| {
            p.load(&iq, &idx);
            p.load(&jq, j.clone());
            p.load(&okq, accept);
            p.load(&wi, &iq);
            p.load(&wj, &jq);
            p.load(&wok, &okq);
            p.load(&vi, &fwd_i);
            p.load(&vj, &fwd_j);
            p.if_(wok.clone(), |p| {
                load_row(p, perm, &wi, &vj);
                load_row(p, perm, &wj, &vi);
            });
        });
    }

    m.comment("The network under test");
    let ctx = Ctx {
        clock: clock.clone(),
        st: st.clone(),
        idx: idx.clone(),
        msg: msg_r.clone(),
        draw: rng.low(mb),
        perm: perm.clone(),
        send: send.clone(),
        count: count.clone(),
        offset: offset.clone(),
    };
    let hooks = match &spec.dut {
        super::DutSpec::Lca(_) => super::lca::attach(&mut m, spec, net_top, &ctx),
        super::DutSpec::Cube { .. } => super::cube::attach(&mut m, spec, net_top, &ctx),
        super::DutSpec::Min { .. } => super::min::attach(&mut m, spec, net_top, &ctx),
    };

    m.comment("Report block: one line per report_every rounds");
    let busy = m.wire("rep_busy", 1);
    {
        let mut b = m
            .instance("rep", report)
            .pin("clock", &clock)
            .pin("go", &go);
        for (k, c) in keys.iter().zip(&cnt) {
            b = b.pin(k.as_str(), c);
        }
        let _ = b.pin("busy", &busy).pin("tx", &uart_tx);
    }

    let (lp, lf) = if spec.active_low_leds {
        (!pass_q.clone(), pass_q.clone())
    } else {
        (pass_q.clone(), !pass_q.clone())
    };
    m.assign(&led_pass, lp);
    m.assign(&led_fail, lf);
    m.assign(&heartbeat, &hb);

    // The network's end-of-run verdict of the `done` clock, read in the first `CHECK`
    // clock from a flip-flop (on the 85F the cube's 128-way `rx_valid` reduction into
    // `bad` was a path across the die).
    let all_ok_q = m.reg("all_ok_q", 1);
    m.always(|p| p.load(&all_ok_q, &hooks.all_ok));
    let last_msg = lit(iw, msgs as u64 - 1);
    let last_pe = lit(iw, n as u64 - 1);
    let every = u64::from(spec.params.report_every) - 1;
    m.always(|p| {
        p.if_(!hb_due.clone(), |p| p.load(&hb_cnt, hb_cnt.plus(1)));
        p.case(&st, |c| {
            c.arm(&[MSG], |p| {
                p.load(&rng, rng_next.clone());
                if let Some(msg_r) = &msg_r {
                    let shifted = if msgs * mb > mb {
                        cat([rng.low(mb), msg_r.bits(msgs * mb - 1, mb)])
                    } else {
                        rng.low(mb)
                    };
                    p.load(msg_r, shifted);
                }
                if let (Some(perm), Some(send), Some(count)) = (&perm, &send, &count) {
                    load_row(p, perm, &idx, &count.low(ab));
                    p.load(send, cat([rng.bit(31), send.bits(n - 1, 1)]));
                    p.load(count, count.clone() + rng.bit(31).zext(ab + 1));
                }
                p.if_(idx.eq(&last_msg), |p| p.load(&st, lit(3, SHUF)))
                    .else_(|p| p.load(&idx, idx.plus(1)));
            });
            c.arm(&[SHUF], |p| {
                p.load(&rng, rng_next.clone());
                match (kind, &fy, &offset) {
                    (StimulusKind::Shuffle, Some((_, ok)), _) => {
                        p.if_(ok.clone(), |p| {
                            p.if_(idx.is(1), |p| p.load(&st, lit(3, START)))
                                .else_(|p| p.load(&idx, idx.minus(1)));
                        });
                    }
                    (StimulusKind::Packing, Some((j, ok)), Some(off)) => {
                        p.if_(ok.clone(), |p| {
                            p.load(off, j.clone());
                            p.load(&st, lit(3, START));
                        });
                    }
                    (StimulusKind::Exchange, _, Some(off)) => {
                        p.load(off, rng.low(ab));
                        p.load(&st, lit(3, START));
                    }
                    _ => unreachable!("every stimulus kind has its registers"),
                }
            });
            c.arm(&[START], |p| p.load(&st, lit(3, WAIT0)));
            c.arm(&[WAIT0], |p| {
                p.if_(!hooks.done.clone(), |p| p.load(&st, lit(3, WAIT1)));
            });
            c.arm(&[WAIT1], |p| {
                p.if_(hooks.done.clone(), |p| {
                    p.load(&st, lit(3, CHECK));
                    p.load(&idx, zero(iw));
                    p.load(&bad, lit(1, 0));
                });
            });
            c.arm(&[CHECK], |p| {
                p.if_(
                    !hooks.chk_ok.clone() | (idx.is(0) & !all_ok_q.clone()),
                    |p| p.load(&bad, lit(1, 1)),
                );
                if let Add2::Check(v) = &hooks.add2 {
                    p.load(&cnt[2], cnt[2].clone() + v.zext(32));
                }
                p.if_(idx.eq(&last_pe), |p| p.load(&st, lit(3, TALLY)))
                    .else_(|p| p.load(&idx, idx.plus(1)));
            });
            c.arm(&[TALLY], |p| {
                p.load(&cnt[0], cnt[0].plus(1));
                p.load(&cnt[1], cnt[1].clone() + hooks.add1.clone());
                if let Add2::Tally(v) = &hooks.add2 {
                    p.load(&cnt[2], cnt[2].clone() + v.clone());
                }
                p.load(&cnt[3], cnt[3].clone() + bad.zext(32));
                p.if_(hb_due.clone(), |p| {
                    p.load(&hb, !hb.clone());
                    p.load(&hb_cnt, zero(hw));
                });
                p.if_(bad.clone(), |p| p.load(&pass_q, lit(1, 0)));
                p.load(&idx, zero(iw));
                if let Some(count) = &count {
                    p.load(count, zero(ab + 1));
                }
                p.if_(rep_cnt.is(every), |p| {
                    p.load(&rep_cnt, zero(32));
                    p.load(&go, lit(1, 1));
                    p.load(&st, lit(3, PRINT));
                })
                .else_(|p| {
                    p.load(&rep_cnt, rep_cnt.plus(1));
                    p.load(&st, lit(3, MSG));
                });
            });
            c.default(|p| {
                p.load(&go, lit(1, 0));
                p.if_(!go.clone() & !busy.clone(), |p| p.load(&st, lit(3, MSG)));
            });
        });
    });
    (m.build(), hooks.modules)
}
