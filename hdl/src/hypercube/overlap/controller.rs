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
    Bounds::of(m, name, f, b).strobes(c, on)
}

/// A routing channel's phase cycles, from its stages `f` and body bits `b`: the last
/// address cycle `f`, the last body cycle `fb`, the receive start `rx` and the last cycle
/// `end`. Every lower bound is written as "after" the cycle before it (`c > f`, not
/// `c >= f + 1`), so that no adder sits in front of a comparison.
struct Bounds {
    f: V,
    fb: V,
    rx: V,
    end: V,
}

impl Bounds {
    /// The bounds of a channel with `f` stages and `b` body bits, as wires `{name}_…`.
    fn of(m: &mut ModuleBuilder, name: &str, f: &V, b: &V) -> Bounds {
        // 2f as a shift, and `f + b` as `2f` when `b` is `f` (channel B), never an adder
        // of a value with itself: it gives iCE40 carry LUTs with one net on two inputs, on
        // which nextpnr-ice40 0.4's routers loop for ever (docs/decisions/fpga-flow.md).
        let f2 = m.def(format!("{name}_f2"), f.shl(1));
        let fb = if b == f {
            f2.clone()
        } else {
            m.def(format!("{name}_fb"), f + b)
        };
        Bounds {
            f: f.clone(),
            fb,
            // 2f + 1, the low bit of 2f being 0.
            rx: m.def(format!("{name}_rx"), &f2 | &lit(CNT_BITS, 1)),
            end: m.def(format!("{name}_end"), &f2 + &b.plus(1)),
        }
    }

    /// The bounds of a channel with a constant `f` stages and `b` body bits (semi's).
    fn constant(f: usize, b: usize) -> Bounds {
        let c9 = |v: usize| lit(CNT_BITS, v as u64);
        Bounds {
            f: c9(f),
            fb: c9(f + b),
            rx: c9(2 * f + 1),
            end: c9(2 * f + b + 1),
        }
    }

    /// The strobes of the channel at phase cycle `c`, gated by `on`.
    fn strobes(&self, c: &V, on: &V) -> Channel {
        Channel {
            start: on & c.is(0),
            addr: on & c.is_not(0) & c.le(&self.f),
            body: on & c.gt(&self.f) & c.le(&self.fb),
            rxstart: on & c.eq(&self.rx),
            rxbody: on & c.gt(&self.rx) & c.le(&self.end),
            window: on & c.gt(&self.f) & c.le(&self.end),
            last: on & c.eq(&self.end),
        }
    }
}

impl Channel {
    /// The strobes of two channels whose gates are never on together, as one.
    fn or(self, o: Channel) -> Channel {
        Channel {
            start: self.start | o.start,
            addr: self.addr | o.addr,
            body: self.body | o.body,
            rxstart: self.rxstart | o.rxstart,
            rxbody: self.rxbody | o.rxbody,
            window: self.window | o.window,
            last: self.last | o.last,
        }
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

/// A state the decode reads: the mode, the loop cycle `lc`, that cycle relative to the
/// starts of step 3 (`c2 = lc - P`), step 5 (`c0 = lc - Q`) and step 6 (`cr = lc - R`),
/// and the loop's constants.
struct State<'a> {
    mode: V,
    lc: V,
    c2: V,
    c0: V,
    cr: V,
    lp: &'a Loop,
}

impl<'a> State<'a> {
    /// The state of `mode` at loop cycle `lc` of the loop `lp`, its channels' cycles as
    /// wires `{prefix}c2`, `{prefix}c0`, `{prefix}cr` of `m`.
    fn at(m: &mut ModuleBuilder, prefix: &str, mode: V, lc: V, lp: &'a Loop) -> State<'a> {
        let mut rel = |n: &str, start: &V| m.def(format!("{prefix}{n}"), &lc - start);
        State {
            c2: rel("c2", &lp.p_start),
            c0: rel("c0", &lp.q_start),
            cr: rel("cr", &lp.r_start),
            mode,
            lc,
            lp,
        }
    }
}

/// What the controller decodes from a state: the broadcast strobes and what its own
/// sequencing reads, by name, as wires `{prefix}…` of `m`. Every comparison reads a
/// cycle of the state (`lc`, `c2`, `c0`, `cr`) directly: channel A's three uses (semi,
/// step 3, step 6) are compared each on its own cycle and OR-ed, not multiplexed first.
fn decode(
    m: &mut ModuleBuilder,
    prefix: &str,
    p: CubeParams,
    st: &State,
) -> Vec<(&'static str, V)> {
    let (k, l, msg) = (p.k(), p.payload_bits(), p.message_bits());
    let c9 = |v: usize| lit(CNT_BITS, v as u64);
    let (lc, lp) = (&st.lc, st.lp);
    let semi = m.def(format!("{prefix}semi"), st.mode.is(Mode::Semi as u64));
    let full = m.def(format!("{prefix}full"), st.mode.is(Mode::Full as u64));
    let f9 = &lp.f;
    let enumerating = m.def(format!("{prefix}enumerating"), &full & f9.is_not(0));
    let in2 = m.def(
        format!("{prefix}in2"),
        &enumerating & st.c2.le(&lp.frame_end),
    );
    let in_r = m.def(
        format!("{prefix}in_r"),
        &enumerating & st.cr.le(&lp.frame_end),
    );
    let in0 = m.def(
        format!("{prefix}in0"),
        &enumerating & st.c0.le(&lp.f3.plus(1)),
    );

    m.comment("Channel A: semi (lc, k stages, L body bits), or step 3 (c2) / step 6 (cr) (f, M)");
    let on_r = m.def(format!("{prefix}on_r"), &in_r & !&in2);
    let a_semi = Bounds::constant(k, l).strobes(lc, &semi);
    let a_full = Bounds::of(m, &format!("{prefix}a"), f9, &c9(msg));
    let a = a_semi
        .or(a_full.strobes(&st.c2, &in2))
        .or(a_full.strobes(&st.cr, &on_r));
    m.comment("Channel B: step 5 (f stages, f body bits)");
    let b = channel(m, &format!("{prefix}b"), &st.c0, f9, f9, &in0);
    let is_last = m.def(
        format!("{prefix}is_last"),
        (&semi & &a.last) | (&full & lc.eq(&lp.loop_end)),
    );
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
        // The sequencing's own: the loop's last cycle, the run's last cycle, a run is on,
        // sel's restart in step 5, the diagonal clear's start (step-3 cycle f + M), the
        // enumeration's feed.
        ("is_last", is_last.clone()),
        ("run_ends", &is_last & (&semi | f9.is(0))),
        ("busy", &semi | &full),
        ("sel_restart", &b.addr & st.c0.eq(f9)),
        ("sclr_start", &in2 & st.c2.eq(&f9.plus(msg as u64))),
        ("ewin_feed", &enumerating & lc.lt(&lp.f2)),
    ]
}

/// [`decode`]'s signals as one vector, bit `i` the `i`-th of its list.
fn vector_of(list: Vec<(&'static str, V)>) -> V {
    cat(list.into_iter().rev().map(|(_, v)| v))
}

/// Bit `name` of a vector of decoded signals named `names` (as [`vector_of`] packs them).
fn bit_of(names: &[&str], v: &V, name: &str) -> V {
    let i = names.iter().position(|n| *n == name);
    v.bit(i.unwrap_or_else(|| panic!("lcanet-hdl bug: no decoded signal {name}")))
}

/// The controller of the overlapped `k`-cube with `L`-bit payloads (`hc_ctrl_k{K}_l{L}`).
///
/// Its state runs **one cycle ahead** of the schedule: it is the state the schedule will
/// be in at the next cycle if no input (`reset`, a `start` that loads) arrives in this
/// one, and `pre` is that state's decode, registered. Each [`tap`] then loads the
/// schedule's strobes of the next cycle from `pre`, or from the decode of a load or a
/// reset when one arrives: one small multiplexer in front of each tap's registers and no
/// logic between `pre` and it, so that the controller's only nets across the die are
/// flip-flop to flip-flop.
///
/// The state ahead is kept as what the decode of *its* successor reads: the mode, the
/// loop cycle `lc + 1` (`n_lc`) and that cycle in steps 3, 5 and 6 (`n_c2`, `n_c0`,
/// `n_cr`), each counting on its own, so that no sum sits between a register and a
/// comparison of the decode. At the loop's last cycle the successor is the next loop's
/// cycle 0, whose decode `adv_q` is registered a loop ahead. The loop's constants are
/// registers, the next loop's among them (from `f - 1`, a cycle after `f` changes; a loop
/// lasts at least `M + 1` cycles).
pub fn controller(p: CubeParams) -> Module {
    let (k, msg) = (p.k(), p.message_bits());
    let mut m = ModuleBuilder::new(Router::Overlapped.ctrl_name(p));
    m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let algorithm = m.input("algorithm", 1);
    let done = m.output("done", 1);
    let bit_time = m.output("bit_time", 16);
    let names = decode_names(p);
    let pre_width = names.len();

    m.comment("The schedule's state one cycle ahead, as its successor's decode reads it: the mode, the loop cycle lc + 1 and its cycle in steps 3, 5, 6, the loop's constants (docs/hypercube.md §12), f = k - 1 - i and its sums, this loop's and the next's");
    let mode = m.reg("mode", 2);
    let n_lc = m.reg("n_lc", CNT_BITS);
    let n_c2 = m.reg("n_c2", CNT_BITS);
    let n_c0 = m.reg("n_c0", CNT_BITS);
    let n_cr = m.reg("n_cr", CNT_BITS);
    let cur = Loop::regs(&mut m, "lp");
    let nxt = Loop::regs(&mut m, "nx");
    m.comment("The decode of the state ahead (pre_q) and of the next loop's cycle 0 (adv_q)");
    let pre = m.reg("pre_q", pre_width);
    let adv = m.reg("adv_q", pre_width);
    m.comment("The schedule's own: a run is on, it has ended, its bit time");
    let busy = m.reg("busy", 1);
    let finished = m.reg("finished", 1);
    let bt = m.reg("bt", 16);

    m.comment("Next state of the state ahead: a reset idles it, a load starts it at loop cycle 1");
    let load = m.def("load", &start & !&busy & !&reset);
    let ahead_busy = m.def("ahead_busy", mode.is_not(Mode::Idle as u64));
    let is_last = m.def("ahead_last", bit_of(&names, &pre, "is_last"));
    let ends = m.def("ahead_ends", bit_of(&names, &pre, "run_ends"));
    let advance = m.def("ahead_advance", &is_last & !&ends);
    // Without input the run goes on: to the next loop cycle, the next loop, or its end.
    let g_mode = m.def(
        "g_mode",
        ends.select(lit(2, Mode::Idle as u64), mode.clone()),
    );
    let g_lp = cur.zip3(&nxt, &cur, &mut m, "g", |_, nx, lp| advance.select(nx, lp));
    let first_loop = Loop::of(&lit(CNT_BITS, (k - 1) as u64), msg);
    let mode_next = priority(
        g_mode,
        [
            Some((reset.clone(), lit(2, Mode::Idle as u64))),
            Some((load.clone(), start_mode(&algorithm))),
        ],
    );
    let mode_next = m.def("mode_next", mode_next);
    let lp_next = first_loop.zip3(&g_lp, &g_lp, &mut m, "next", |first, g, _| {
        load.select(first, g)
    });
    // The successor's loop cycle `lc + 1` and its cycle `lc + 1 - start` in a step, as
    // counters: `1 - start` at a reset and at a loop's end (the state ahead at cycle 0),
    // `2 - start` at a load (cycle 1 of the first loop), one more at every cycle of a run.
    let zero9 = zero(CNT_BITS);
    let counters = [
        ("n_lc", &n_lc, &zero9, &zero9),
        ("n_c2", &n_c2, &first_loop.p_start, &g_lp.p_start),
        ("n_c0", &n_c0, &first_loop.q_start, &g_lp.q_start),
        ("n_cr", &n_cr, &first_loop.r_start, &g_lp.r_start),
    ]
    .map(|(name, c, first, goes_on)| {
        let restart = m.def(format!("{name}_restart"), lit(CNT_BITS, 1) - goes_on);
        let next = priority(
            ahead_busy.select(c.plus(1), c.clone()),
            [
                Some((reset.clone(), restart.clone())),
                Some((load.clone(), lit(CNT_BITS, 2) - first)),
                Some((is_last.clone(), restart)),
            ],
        );
        (c, m.def(format!("{name}_next"), next))
    });
    m.comment("Its decode, registered: the schedule's strobes of the next cycle if no input comes");
    let run = State {
        mode: mode.clone(),
        lc: n_lc.clone(),
        c2: n_c2.clone(),
        c0: n_c0.clone(),
        cr: n_cr.clone(),
        lp: &cur,
    };
    let run_dec = vector_of(decode(&mut m, "", p, &run));
    let full = lit(2, Mode::Full as u64);
    let adv_state = State::at(&mut m, "adv_", full, zero(CNT_BITS), &nxt);
    let adv_dec = vector_of(decode(&mut m, "adv_", p, &adv_state));
    m.comment("(the decode of a load's state ahead: constants for each algorithm)");
    let init_lc = m.def("init_lc", lit(CNT_BITS, 1));
    let init = State::at(
        &mut m,
        "init_",
        start_mode(&algorithm),
        init_lc,
        &first_loop,
    );
    let init_dec = vector_of(decode(&mut m, "init_", p, &init));
    let pre_next = priority(
        run_dec,
        [
            Some((reset.clone(), zero(pre_width))),
            Some((load.clone(), init_dec)),
            Some((is_last, ends.select(zero(pre_width), adv.clone()))),
        ],
    );
    let pre_out = m.output("pre", pre_width);
    m.assign(&pre_out, &pre);
    m.assign(&done, &finished);
    m.assign(&bit_time, &bt);
    m.always(|pr| {
        pr.load(&pre, &pre_next);
        pr.load(&adv, &adv_dec);
        pr.load(&mode, &mode_next);
        for (r, v) in &counters {
            pr.load(r, v);
        }
        for ((_, r), (_, v)) in cur.fields().into_iter().zip(lp_next.fields()) {
            pr.load(r, v);
        }
        let after = Loop::of(&cur.f.minus(1), msg);
        for ((_, r), (_, v)) in nxt.fields().into_iter().zip(after.fields()) {
            pr.load(r, v);
        }
        pr.comment("The schedule is on at the next cycle if the state ahead is (no input)");
        pr.if_(&reset | &load, |pr| {
            pr.load(&busy, &load);
            pr.load(&finished, lit(1, 0));
            pr.load(&bt, zero(16));
        })
        .else_(|pr| {
            pr.load(&busy, &ahead_busy);
            pr.if_(&busy, |pr| {
                pr.load(&bt, bt.plus(1));
                pr.if_(!&ahead_busy, |pr| pr.load(&finished, lit(1, 1)));
            });
        });
    });
    m.build()
}

/// The mode a load starts: `Full` for Algorithm 2 (`algorithm` = 1), `Semi` otherwise.
fn start_mode(algorithm: &V) -> V {
    algorithm.select(lit(2, Mode::Full as u64), lit(2, Mode::Semi as u64))
}

/// The names of the decoded signals (the strobes and the sequencing's own), in the order of
/// the controller's `pre`.
pub fn decode_names(p: CubeParams) -> Vec<&'static str> {
    let mut m = ModuleBuilder::new("names");
    let lp = Loop::of(&lit(CNT_BITS, 0), p.message_bits());
    let state = State::at(&mut m, "", lit(2, 0), lit(CNT_BITS, 0), &lp);
    decode(&mut m, "", p, &state)
        .into_iter()
        .map(|(n, _)| n)
        .collect()
}

/// Nodes per [`tap`]: each tap drives the broadcast of its own nodes alone.
pub const NODES_PER_TAP: usize = 8;

/// The broadcast to a group of [`NODES_PER_TAP`] nodes (`tap<g>`, `(* keep *)` copies):
/// the schedule's strobes as registers `q`, loaded with the controller's `pre`, or at a
/// load with the decode of the first cycle of a run (constants, for each `algorithm`), or
/// cleared by a reset; and from them `load`, `done`, the thermometer `low` of the loop
/// (and `low_copies`, a copy of it for each of the group's nodes), `sel`, `sclr` and
/// `ewin` (`docs/hypercube.md` §12), each tap with its own registers.
/// Synthesis would otherwise merge the nodes' decodes of one broadcast register into one
/// cone and fan it out across the die (`docs/decisions/fpga-flow.md`).
pub fn tap(p: CubeParams) -> Module {
    let (k, msg) = (p.k(), p.message_bits());
    let mut m = ModuleBuilder::new(format!("{}_tap", Router::Overlapped.ctrl_name(p)));
    m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let algorithm = m.input("algorithm", 1);
    let names = decode_names(p);
    let pre = m.input("pre", names.len());
    let ctl = Control::outputs(&mut m);
    let sel = m.output("sel", k);
    let low = m.output("low", k);
    let per = NODES_PER_TAP.min(p.n());
    let low_copies = m.output("low_copies", per * k);
    let sclr = m.output("sclr", k);
    let ewin = m.output("ewin", k);
    m.keep_registers();

    m.comment("The strobes of the schedule's first cycle (loop cycle 0 of the first loop)");
    let lc0 = m.def("lc0", zero(CNT_BITS));
    let first_loop = Loop::of(&lit(CNT_BITS, (k - 1) as u64), msg);
    let first = State::at(&mut m, "", start_mode(&algorithm), lc0, &first_loop);
    let init = decode(&mut m, "", p, &first);
    let init_v = m.def("init", vector_of(init));
    m.comment("The schedule's strobes, this cycle (q), and the registers broadcast with them");
    let q = m.reg("q", names.len());
    let low_r = m.reg("low_r", k);
    let sel_r = m.reg("sel_r", k);
    let sclr_r = m.reg("sclr_r", k);
    let ewin_r = m.reg("ewin_r", k);
    let finished = m.reg("finished", 1);
    let b = |n: &str| bit_of(&names, &q, n);
    m.assign(&ctl.load, &start & !b("busy") & !&reset);
    let advance = m.def("advance", b("is_last") & !b("run_ends"));
    m.assign(&ctl.done, &finished);
    for &name in super::control::NAMES {
        let v = match name {
            "load" | "done" => continue,
            // A reset clears at once, in its own cycle.
            "s_clear" | "e_clear" => &reset | b(name),
            _ => b(name),
        };
        m.assign(&V::signal(name, 1), v);
    }
    m.assign(&low, &low_r);
    // A copy of `low` per node (row r for the group's node r), kept apart like the rest:
    // merged, the nodes' decodes of `low` became one cone across the group's nodes.
    let copies = m.reg("low_q", per * k);
    m.assign(&low_copies, &copies);
    let low_next = m.def(
        "low_next",
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
    let (a_start, a_addr, in_r) = (b("c_start"), b("c_addr"), b("ph_rdv"));
    let (b_start, b_addr, b_body) = (b("p0_start"), b("p0_addr"), b("p0_body"));
    m.always(|pr| {
        pr.if_(&reset, |pr| pr.load(&q, zero(names.len())))
            .elif(&ctl.load, |pr| pr.load(&q, &init_v))
            .else_(|pr| pr.load(&q, &pre));
        pr.comment("low: the thermometer of the loop's i (0 in semi)");
        pr.load(&low_r, &low_next);
        pr.load(&copies, low_next.repeat(per));
        pr.comment("sel: the dimension of the address (or, in step 5, body) bit being sent");
        pr.if_((&a_start & !&in_r) | &b_start, |pr| pr.load(&sel_r, &first))
            .elif(&a_start & &in_r, |pr| pr.load(&sel_r, &onehot_top))
            .elif(b("sel_restart"), |pr| pr.load(&sel_r, &first))
            .elif((&a_addr & !&in_r) | &b_addr | &b_body, |pr| {
                pr.load(&sel_r, up(&sel_r))
            })
            .elif(&a_addr & &in_r, |pr| pr.load(&sel_r, down(&sel_r)))
            .else_(|pr| pr.load(&sel_r, zero(k)));
        pr.comment("sclr: stage i+1+j cleared at step-3 cycle f + M + 1 + j");
        pr.if_(b("sclr_start"), |pr| pr.load(&sclr_r, &first))
            .else_(|pr| pr.load(&sclr_r, up(&sclr_r)));
        pr.comment("ewin: wire i+1+j carries the enumeration during loop cycles 1+j..=2f+j");
        pr.load(&ewin_r, up(&ewin_r) | first.when(&b("ewin_feed")));
        pr.comment("done: from the run's last cycle to the next load");
        pr.if_(&reset | &ctl.load, |pr| pr.load(&finished, lit(1, 0)))
            .elif(b("run_ends"), |pr| pr.load(&finished, lit(1, 1)));
    });
    m.build()
}
