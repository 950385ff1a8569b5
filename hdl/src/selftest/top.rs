//! The self-test top (`docs/selftest.md` §2–§4): the generated network as the instance
//! `net`, a stimulus generator (xorshift32 `rng`, messages `msg_r`, destination table `perm`
//! shuffled in place by Fisher–Yates with rejection, one draw per clock), the sequencer that
//! starts the network and waits for `done`, the checker (one PE per clock: `valid` and
//! `rmsg` at `perm[p]` equal PE `p`'s message), the 32-bit counters `cnt_*`, the LEDs and
//! the report block `rep`.
//!
//! Sequencer states (`st`): 0 `MSG` (n clocks: one message per draw; in the first round
//! after power-up also `perm[idx] <= idx`, the identity), 1 `SHUF` (until step
//! `i = 1` is accepted), 2 `START` (the network's `start` is 1), 3 `WAIT0` (until `done` is
//! 0), 4 `WAIT1` (until `done` is 1), 5 `CHECK` (n clocks), 6 `TALLY` (counters), 7 `PRINT`
//! (until the report line is out).

use super::SelftestSpec;
use crate::netlist::{cat, index_bits, lit, lit_words, zero, Module, ModuleBuilder, V};

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

/// `n` one bits.
fn ones(n: usize) -> V {
    let words = (0..n.div_ceil(64))
        .map(|i| {
            if n - 64 * i >= 64 {
                u64::MAX
            } else {
                (1u64 << (n - 64 * i)) - 1
            }
        })
        .collect();
    lit_words(n, words)
}

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

/// The top module (`net` is the network top `net_top`, `rep` the report block `report`).
pub fn top_module(spec: &SelftestSpec, net_top: &Module, report: &Module) -> Module {
    let np = &spec.net.net;
    let (n, ab, mb) = (np.n, np.abin, np.msg_bits);
    assert_eq!(ab, index_bits(n), "lcanet-hdl bug: AB = {ab} for n = {n}");
    let mut m = ModuleBuilder::new(spec.top_name());
    let clock = m.clock();
    let led_pass = m.output("led_pass", 1);
    let led_fail = m.output("led_fail", 1);
    let heartbeat = m.output("heartbeat", 1);
    let uart_tx = m.output("uart_tx", 1);

    m.comment("Stimulus generator and sequencer");
    let rng = m.reg_init("rng", 32, u64::from(spec.params.seed));
    let st = m.reg("st", 3);
    let idx = m.reg("idx", ab);
    let msg_r = m.reg("msg_r", n * mb);
    let perm = m.reg("perm", n * ab);
    m.comment("Checker and counters");
    let bad = m.reg("bad", 1);
    let cnt_perms = m.reg("cnt_perms", 32);
    let cnt_passes = m.reg("cnt_passes", 32);
    let cnt_bits = m.reg("cnt_bits", 32);
    let cnt_errors = m.reg("cnt_errors", 32);
    let rep_cnt = m.reg("rep_cnt", 32);
    let hb = m.reg("hb", 1);
    let pass_q = m.reg_init("pass_q", 1, 1);
    let go = m.reg("go", 1);
    let fresh = m.reg_init("fresh", 1, 1);

    let rng_next = xorshift_next(&mut m, &rng);
    let fy_mask = smear(&mut m, &idx);
    let fy_j = m.def("fy_j", rng.low(ab) & fy_mask);
    let fy_ok = m.def("fy_ok", fy_j.le(&idx));
    let perm_i = m.def("perm_i", perm.row_at(&idx, ab));
    let perm_j = m.def("perm_j", perm.row_at(&fy_j, ab));

    m.comment("The network under test");
    let net_done = m.wire("net_done", 1);
    let net_error = m.wire("net_error", 1);
    let net_passes = m.wire("net_passes", 16);
    let net_bits = m.wire("net_bits", 32);
    let net_valid = m.wire("net_valid", n);
    let net_rmsg = m.wire("net_rmsg", n * mb);
    let net_sent = m.wire("net_sent", n);
    {
        let mut b = m
            .instance("net", net_top)
            .pin("clock", &clock)
            .pin("reset", lit(1, 0))
            .pin("start", st.is(START))
            .pin("act", ones(n))
            .pin("dst", &perm)
            .pin("msg", &msg_r);
        if spec.net.random() {
            b = b.pin("seed", lit(16, u64::from(spec.arbiter_seed16())));
        }
        let _ = b
            .pin("done", &net_done)
            .pin("error", &net_error)
            .open("phase")
            .pin("passes", &net_passes)
            .pin("bit_times", &net_bits)
            .pin("valid", &net_valid)
            .pin("rmsg", &net_rmsg)
            .pin("sent", &net_sent);
    }

    m.comment("Checker: PE idx's destination perm[idx] holds PE idx's message");
    let chk_valid = m.def("chk_valid", net_valid.row_at(&perm_i, 1));
    let chk_rmsg = m.def("chk_rmsg", net_rmsg.row_at(&perm_i, mb));
    let own = msg_r.row_at(&idx, mb);
    let expect = if spec.params.fault {
        m.comment("TEST-ONLY FAULT (--inject-fault): PE 0's expected message has bit 0 inverted");
        let flip = if mb == 1 {
            idx.is(0)
        } else {
            cat([zero(mb - 1), idx.is(0)])
        };
        m.def("chk_expect", own ^ flip)
    } else {
        m.def("chk_expect", own)
    };
    let chk_ok = m.def("chk_ok", chk_valid & chk_rmsg.eq(&expect));
    let all_ok = m.def(
        "all_ok",
        net_valid.all() & net_sent.all() & !net_error.clone(),
    );

    m.comment("Report block: one line per report_every permutations");
    let busy = m.wire("rep_busy", 1);
    let _ = m
        .instance("rep", report)
        .pin("clock", &clock)
        .pin("go", &go)
        .pin("perms", &cnt_perms)
        .pin("passes", &cnt_passes)
        .pin("bit_times", &cnt_bits)
        .pin("errors", &cnt_errors)
        .pin("busy", &busy)
        .pin("tx", &uart_tx);

    let (lp, lf) = if spec.active_low_leds {
        (!pass_q.clone(), pass_q.clone())
    } else {
        (pass_q.clone(), !pass_q.clone())
    };
    m.assign(&led_pass, lp);
    m.assign(&led_fail, lf);
    m.assign(&heartbeat, &hb);

    let last = lit(ab, n as u64 - 1);
    let every = u64::from(spec.params.report_every) - 1;
    m.always(|p| {
        p.case(&st, |c| {
            c.arm(&[MSG], |p| {
                p.load(&rng, rng_next.clone());
                p.load(&msg_r, cat([rng.low(mb), msg_r.bits(n * mb - 1, mb)]));
                p.if_(fresh.clone(), |p| {
                    p.load(&perm.row_at(&idx, ab), idx.clone())
                });
                p.if_(idx.eq(&last), |p| {
                    p.load(&st, lit(3, SHUF));
                    p.load(&fresh, lit(1, 0));
                })
                .else_(|p| p.load(&idx, idx.plus(1)));
            });
            c.arm(&[SHUF], |p| {
                p.load(&rng, rng_next.clone());
                p.if_(fy_ok.clone(), |p| {
                    p.load(&perm.row_at(&idx, ab), perm_j.clone());
                    p.load(&perm.row_at(&fy_j, ab), perm_i.clone());
                    p.if_(idx.is(1), |p| p.load(&st, lit(3, START)))
                        .else_(|p| p.load(&idx, idx.minus(1)));
                });
            });
            c.arm(&[START], |p| p.load(&st, lit(3, WAIT0)));
            c.arm(&[WAIT0], |p| {
                p.if_(!net_done.clone(), |p| p.load(&st, lit(3, WAIT1)));
            });
            c.arm(&[WAIT1], |p| {
                p.if_(net_done.clone(), |p| {
                    p.load(&st, lit(3, CHECK));
                    p.load(&idx, zero(ab));
                    p.load(&bad, !all_ok.clone());
                });
            });
            c.arm(&[CHECK], |p| {
                p.if_(!chk_ok.clone(), |p| p.load(&bad, lit(1, 1)));
                p.if_(idx.eq(&last), |p| p.load(&st, lit(3, TALLY)))
                    .else_(|p| p.load(&idx, idx.plus(1)));
            });
            c.arm(&[TALLY], |p| {
                p.load(&cnt_perms, cnt_perms.plus(1));
                p.load(&cnt_passes, cnt_passes.clone() + net_passes.zext(32));
                p.load(&cnt_bits, cnt_bits.clone() + net_bits.clone());
                p.load(&cnt_errors, cnt_errors.clone() + bad.zext(32));
                p.load(&hb, !hb.clone());
                p.if_(bad.clone(), |p| p.load(&pass_q, lit(1, 0)));
                p.load(&idx, zero(ab));
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
    m.build()
}
