//! The overlapped cube's controller (`docs/hypercube.md` §12): one loop counter `lc`,
//! from which the strobes of every activity of loop `i` are decoded at the loop cycles of
//! [`lcanet_sim::hypercube::overlap`] — the cross (`0..=M`), the enumeration
//! (`0..=3f`), routing channel A (step 3 from `P = max(2f, M − f)`, step 6 from `R`) and
//! routing channel B (step 5 from `Q`), with `f = k − 1 − i` held in `lp_f`. A channel's
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
use crate::netlist::{cat, lit, priority, zero, Module, ModuleBuilder, V};
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
    // 2f as a shift, and `f + b` as `2f` when `b` is `f` (channel B), never an adder of a
    // value with itself: it gives iCE40 carry LUTs with one net on two inputs, on which
    // nextpnr-ice40 0.4's routers loop for ever (docs/decisions/fpga-flow.md).
    let f2 = m.def(format!("{name}_f2"), f.shl(1));
    let fb = if b == f {
        f2.clone()
    } else {
        m.def(format!("{name}_fb"), f + b)
    };
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

/// The loop's constants, functions of `f = k - 1 - i` alone (`docs/hypercube.md` §12).
struct Loop {
    f: V,
    f2: V,
    f3: V,
    p_start: V,
    q_start: V,
    r_start: V,
    loop_end: V,
    frame_end: V,
}

impl Loop {
    /// The constants of the loop with `f` (9 bits) and `M`-bit messages, as expressions.
    fn of(f: &V, msg: usize) -> Loop {
        let c9 = |v: usize| lit(CNT_BITS, v as u64);
        let f2 = f.shl(1); // not `f + f`: see `channel`
        let f3 = &f2 + f;
        let m_minus_f = c9(msg) - f;
        let p_start = f2.ge(&m_minus_f).select(&f2, &m_minus_f);
        let q_start = &p_start + &f.plus(msg as u64 + 1);
        let r_start = &q_start + &f3.plus(2);
        let loop_end = f
            .is_not(0)
            .select(&r_start + &f2.plus(msg as u64 + 1), c9(msg));
        let frame_end = f2.plus(msg as u64 + 1);
        Loop {
            f: f.clone(),
            f2,
            f3,
            p_start,
            q_start,
            r_start,
            loop_end,
            frame_end,
        }
    }

    fn fields(&self) -> [(&'static str, &V); 8] {
        [
            ("f", &self.f),
            ("f2", &self.f2),
            ("f3", &self.f3),
            ("p_start", &self.p_start),
            ("q_start", &self.q_start),
            ("r_start", &self.r_start),
            ("loop_end", &self.loop_end),
            ("frame_end", &self.frame_end),
        ]
    }

    /// The loop built field by field from `g(index, name)`, in [`Loop::fields`]' order.
    fn build(mut g: impl FnMut(usize, &'static str) -> V) -> Loop {
        Loop {
            f: g(0, "f"),
            f2: g(1, "f2"),
            f3: g(2, "f3"),
            p_start: g(3, "p_start"),
            q_start: g(4, "q_start"),
            r_start: g(5, "r_start"),
            loop_end: g(6, "loop_end"),
            frame_end: g(7, "frame_end"),
        }
    }

    /// Registers `{prefix}_{field}` holding a loop's constants.
    fn regs(m: &mut ModuleBuilder, prefix: &str) -> Loop {
        Loop::build(|_, n| m.reg(format!("{prefix}_{n}"), CNT_BITS))
    }

    /// Wires `{prefix}_{field}` equal to `pick(field of self, field of a, field of b)`.
    fn zip3(
        &self,
        a: &Loop,
        b: &Loop,
        m: &mut ModuleBuilder,
        prefix: &str,
        pick: impl Fn(&V, &V, &V) -> V,
    ) -> Loop {
        let (x, y, z) = (self.fields(), a.fields(), b.fields());
        Loop::build(|i, n| m.def(format!("{prefix}_{n}"), pick(x[i].1, y[i].1, z[i].1)))
    }
}

/// What the controller decodes from a state (mode, loop cycle, loop constants): the
/// broadcast strobes and what its own sequencing reads, by name, as wires of `m`.
fn decode(
    m: &mut ModuleBuilder,
    p: CubeParams,
    mode: &V,
    lc: &V,
    lp: &Loop,
) -> Vec<(&'static str, V)> {
    let (k, l, msg) = (p.k(), p.payload_bits(), p.message_bits());
    let c9 = |v: usize| lit(CNT_BITS, v as u64);
    let semi = m.def("semi", mode.is(Mode::Semi as u64));
    let full = m.def("full", mode.is(Mode::Full as u64));
    let f9 = &lp.f;
    let enumerating = m.def("enumerating", &full & f9.is_not(0));
    let c2 = m.def("c2", lc - &lp.p_start);
    let c0 = m.def("c0", lc - &lp.q_start);
    let cr = m.def("cr", lc - &lp.r_start);
    let in2 = m.def("in2", &enumerating & c2.le(&lp.frame_end));
    let in_r = m.def("in_r", &enumerating & cr.le(&lp.frame_end));
    let in0 = m.def("in0", &enumerating & c0.le(&lp.f3.plus(1)));

    m.comment("Channel A: semi (lc, k stages, L body bits) or step 3 / step 6 (f, M)");
    let ca = m.def("ca", semi.select(lc, in2.select(&c2, &cr)));
    let fa = m.def("fa", semi.select(c9(k), f9.clone()));
    let ba = m.def("ba", semi.select(c9(l), c9(msg)));
    let on_a = m.def("on_a", &semi | &in2 | &in_r);
    let a = channel(m, "a", &ca, &fa, &ba, &on_a);
    m.comment("Channel B: step 5 (f stages, f body bits)");
    let b = channel(m, "b", &c0, f9, f9, &in0);
    vec![
        ("ph_semi", semi.clone()),
        ("ph_pack2", in2.clone()),
        ("ph_pack0", in0.clone()),
        ("ph_rdv", in_r.clone()),
        ("fwd", &semi | &in2 | &in0),
        ("bwd", in_r.clone()),
        ("c_start", a.start.clone()),
        ("c_addr", a.addr.clone()),
        ("c_body", a.body),
        ("c_rxstart", a.rxstart),
        ("c_rxbody", a.rxbody),
        ("c_window", a.window),
        ("c_last", a.last.clone()),
        ("p0_start", b.start),
        ("p0_addr", b.addr.clone()),
        ("p0_body", b.body),
        ("p0_rxstart", b.rxstart),
        ("p0_rxbody", b.rxbody),
        ("s_clear", (&a.last & (&semi | &in_r)) | &b.last),
        ("enum_on", &enumerating & lc.le(&lp.f3)),
        ("e_inj2", &enumerating & lc.is(0)),
        ("e_inj0", &enumerating & lc.eq(f9)),
        ("e_cap2", &enumerating & lc.gt(f9) & lc.le(&lp.f2)),
        ("e_cap0", &enumerating & lc.gt(&lp.f2) & lc.le(&lp.f3)),
        ("e_clear", &enumerating & lc.eq(&lp.f3)),
        ("ph_cross", &full & lc.le(&c9(msg))),
        ("x_decide", &full & lc.is(0)),
        ("x_shift", &full & lc.ge(&c9(1)) & lc.le(&c9(msg))),
        // The controller's own: the loop's last cycle, sel's restart in step 5, the
        // diagonal clear's start (step-3 cycle f + M), the enumeration's feed.
        ("is_last", (&semi & &a.last) | (&full & lc.eq(&lp.loop_end))),
        ("sel_restart", &b.addr & c0.eq(f9)),
        ("sclr_start", &in2 & c2.eq(&f9.plus(msg as u64))),
        ("ewin_feed", &enumerating & lc.lt(&lp.f2)),
    ]
}

/// The controller of the overlapped `k`-cube with `L`-bit payloads (`hc_ctrl_k{K}_l{L}`).
///
/// Its decode is registered: the next state (`mode_next`, `lc_next`, the next loop's
/// constants) is explicit and every strobe's register loads its value in that state, so
/// that the nodes see the same strobes in the same cycle as from a combinational decode
/// of the state, but straight from flip-flops. The loop's constants are registers too,
/// the next loop's among them (from `f - 1`, a cycle after `f` changes; a loop lasts at
/// least `M + 1` cycles), so that no sum sits in front of the decode.
pub fn controller(p: CubeParams) -> Module {
    let (k, msg) = (p.k(), p.message_bits());
    let mut m = ModuleBuilder::new(Router::Overlapped.ctrl_name(p));
    m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let algorithm = m.input("algorithm", 1);
    let ctl = Control::outputs(&mut m);
    let sel = m.output("sel", k);
    let low_next = m.output("low_next", k);
    let sclr = m.output("sclr", k);
    let ewin = m.output("ewin", k);
    let bit_time = m.output("bit_time", 16);

    m.comment("State: mode, loop cycle, loop thermometer, broadcast vectors");
    let mode = m.reg("mode", 2);
    let lc = m.reg("lc", CNT_BITS);
    let low_r = m.reg("low_r", k);
    let sel_r = m.reg("sel_r", k);
    let sclr_r = m.reg("sclr_r", k);
    let ewin_r = m.reg("ewin_r", k);
    let finished = m.reg("finished", 1);
    let bt = m.reg("bt", 16);
    m.comment("The loop's constants (docs/hypercube.md §12), f = k - 1 - i and its sums, this loop's and the next's");
    let cur = Loop::regs(&mut m, "lp");
    let nxt = Loop::regs(&mut m, "nx");

    m.comment("Next state");
    let busy = m.def("busy", mode.is_not(Mode::Idle as u64));
    let semi_now = mode.is(Mode::Semi as u64);
    let loops_left = m.def("loops_left", cur.f.is_not(0));
    // The loop's last cycle, decoded and registered with the rest (below).
    let is_last = m.reg("is_last_q", 1);
    m.assign(&ctl.load, &start & !&busy & !&reset);
    let ends = m.def("run_ends", &busy & &is_last & (&semi_now | !&loops_left));
    let advance = m.def("advance", &busy & &is_last & !&semi_now & &loops_left);
    let mode_next = priority(
        mode.clone(),
        [
            Some((reset.clone(), lit(2, Mode::Idle as u64))),
            Some((
                ctl.load.clone(),
                algorithm.select(lit(2, Mode::Full as u64), lit(2, Mode::Semi as u64)),
            )),
            Some((ends.clone(), lit(2, Mode::Idle as u64))),
        ],
    );
    let mode_next = m.def("mode_next", mode_next);
    let restart = &reset | &ctl.load | (&busy & &is_last);
    let lc_next = m.def(
        "lc_next",
        restart.select(zero(CNT_BITS), busy.select(lc.plus(1), lc.clone())),
    );
    let first_loop = Loop::of(&lit(CNT_BITS, (k - 1) as u64), msg);
    let lp_next = first_loop.zip3(&nxt, &cur, &mut m, "next", |first, nx, lp| {
        ctl.load.select(first, advance.select(nx, lp))
    });

    m.comment("The registered decode, of the next state");
    let mut decoded = decode(&mut m, p, &mode_next, &lc_next, &lp_next);
    let at = |d: &[(&str, V)], n: &str| d.iter().position(|(x, _)| *x == n);
    let is_last_next = decoded.remove(at(&decoded, "is_last").expect("decoded")).1;
    // One bit per other signal of `decode`, in its order.
    let dec = m.reg("dec_q", decoded.len());
    let q = |n: &str| dec.bit(at(&decoded, n).expect("a decoded signal"));
    let dec_next = cat(decoded.iter().rev().map(|(_, v)| v.clone()));

    m.comment("Strobes (docs/hypercube.md §12)");
    m.assign(&ctl.done, &finished);
    for &name in super::control::NAMES {
        let v = match name {
            "load" | "done" => continue,
            // A reset clears at once, in its own cycle.
            "s_clear" | "e_clear" => &reset | q(name),
            _ => q(name),
        };
        m.assign(&V::signal(name, 1), v);
    }
    m.assign(&bit_time, &bt);
    m.comment("The loop thermometer's next value, to each node's copy (low_tap)");
    m.assign(
        &low_next,
        priority(
            low_r.clone(),
            [
                Some((ctl.load.clone(), algorithm.select(lit(k, 1), zero(k)))),
                Some((&advance & !&reset, shift_in_low(&low_r, lit(1, 1)))),
            ],
        ),
    );
    m.assign(&sel, &sel_r);
    m.assign(&sclr, &sclr_r);
    m.assign(&ewin, &ewin_r);

    let first = m.def("first", first_above(&low_r));
    let onehot_top = lit(k, 1 << (k - 1));
    let (a_start, a_addr, in_r) = (q("c_start"), q("c_addr"), q("ph_rdv"));
    let (b_start, b_addr, b_body) = (q("p0_start"), q("p0_addr"), q("p0_body"));
    m.always(|pr| {
        pr.load(&dec, &dec_next);
        pr.load(&low_r, &low_next);
        pr.load(&is_last, &is_last_next);
        pr.load(&mode, &mode_next);
        pr.load(&lc, &lc_next);
        for ((_, r), (_, v)) in cur.fields().into_iter().zip(lp_next.fields()) {
            pr.load(r, v);
        }
        let after = Loop::of(&cur.f.minus(1), msg);
        for ((_, r), (_, v)) in nxt.fields().into_iter().zip(after.fields()) {
            pr.load(r, v);
        }
        pr.comment("sel: the dimension of the address (or, in step 5, body) bit being sent");
        pr.if_((&a_start & !&in_r) | &b_start, |pr| pr.load(&sel_r, &first))
            .elif(&a_start & &in_r, |pr| pr.load(&sel_r, &onehot_top))
            .elif(q("sel_restart"), |pr| pr.load(&sel_r, &first))
            .elif((&a_addr & !&in_r) | &b_addr | &b_body, |pr| {
                pr.load(&sel_r, up(&sel_r))
            })
            .elif(&a_addr & &in_r, |pr| pr.load(&sel_r, down(&sel_r)))
            .else_(|pr| pr.load(&sel_r, zero(k)));
        pr.comment("sclr: stage i+1+j cleared at step-3 cycle f + M + 1 + j");
        pr.if_(q("sclr_start"), |pr| pr.load(&sclr_r, &first))
            .else_(|pr| pr.load(&sclr_r, up(&sclr_r)));
        pr.comment("ewin: wire i+1+j carries the enumeration during loop cycles 1+j..=2f+j");
        pr.load(&ewin_r, up(&ewin_r) | first.when(&q("ewin_feed")));
        pr.comment("Sequencing");
        pr.if_(&reset, |pr| {
            pr.load(&finished, lit(1, 0));
            pr.load(&bt, zero(16));
        })
        .elif(&ctl.load, |pr| {
            pr.load(&finished, lit(1, 0));
            pr.load(&bt, zero(16));
        })
        .elif(&busy, |pr| {
            pr.load(&bt, bt.plus(1));
            pr.if_(&ends, |pr| pr.load(&finished, lit(1, 1)));
        });
    });
    m.build()
}

/// The copy of the loop thermometer beside each node (`node<x>_tap`): a register loaded
/// with the controller's `low_next`, `(* keep *)` so that each node decodes `first`,
/// `dimi` and `act` from its own copy (synthesis would otherwise merge the nodes' decodes
/// into one cone and fan it out across the die; `docs/decisions/fpga-flow.md`).
pub fn low_tap(p: CubeParams) -> Module {
    let k = p.k();
    let mut m = ModuleBuilder::new(format!("{}_low_tap", Router::Overlapped.ctrl_name(p)));
    m.clock();
    let low_next = m.input("low_next", k);
    let low = m.output("low", k);
    let low_q = m.reg("low_q", k);
    m.keep_registers();
    m.always(|p| p.load(&low_q, &low_next));
    m.assign(&low, &low_q);
    m.build()
}
