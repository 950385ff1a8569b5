//! The overlapped cube's controller (`docs/hypercube.md` §12): one loop counter `lc`,
//! from which the strobes of every activity of loop `i` are decoded at the loop cycles of
//! [`lcanet_sim::hypercube::overlap`] — the cross (`0..=M`), the enumeration
//! (`0..=3f`), routing channel A (step 3 from `P = max(2f, M − f)`, step 6 from `R`) and
//! routing channel B (step 5 from `Q`), with `f = k − 1 − i` held in `lp_f`. A channel's
//! own cycle is `lc` minus its start, 9-bit arithmetic that wraps far above any bound
//! while `lc` is below the start, so that one comparison tells both "started" and
//! "within". In `semi` channel A runs Algorithm 1 from `lc = 0` over all `k` stages.
//!
//! Broadcast besides the strobes of [`super::control::Control`] (each node's [`tap`]
//! registers them from their next values): `low` (thermometer of `i`, 0 in `semi`),
//! `sel` (one-hot of the dimension whose address or address bit is being sent), `sclr`
//! (the diagonal stage clear between the frames of steps 3 and 5: stage `i+1+j` is
//! cleared at step-3 cycle `f + M + 1 + j`, as step 3's tail leaves it) and `ewin` (the
//! wires still carrying the enumeration, bit `i+1+j` during loop cycles `1+j..=2f+j`,
//! which the pipelines must not take for frames).

use super::control::NAMES;
use crate::hypercube::parts::{down, first_above, shift_in_low, up};
use crate::hypercube::Router;
use crate::netlist::{cat, flag, lit, priority, zero, Module, ModuleBuilder, V};
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
    // 2f as a shift, not `f + f`: an adder of a value with itself gives iCE40 carry LUTs
    // with one net on two inputs, on which nextpnr-ice40 0.4's routers loop for ever
    // (docs/decisions/fpga-flow.md).
    let f2 = m.def(format!("{name}_f2"), f.shl(1));
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

/// The loop cycle a [`decode`] reads: the loop's first (0), or the signal's. The first
/// cycle's comparisons are folded here: Verilator `-Wall` rejects `0 <= x` and `0 > x` as
/// constant (UNSIGNED).
#[derive(Clone, Copy)]
enum Cycle<'a> {
    First,
    At(&'a V),
}

impl Cycle<'_> {
    fn value(self) -> V {
        match self {
            Cycle::First => zero(CNT_BITS),
            Cycle::At(lc) => lc.clone(),
        }
    }
    fn eq(self, x: &V) -> V {
        match self {
            Cycle::First => x.is(0),
            Cycle::At(lc) => lc.eq(x),
        }
    }
    fn le(self, x: &V) -> V {
        match self {
            Cycle::First => flag(true),
            Cycle::At(lc) => lc.le(x),
        }
    }
    fn lt(self, x: &V) -> V {
        match self {
            Cycle::First => x.is_not(0),
            Cycle::At(lc) => lc.lt(x),
        }
    }
    fn gt(self, x: &V) -> V {
        match self {
            Cycle::First => flag(false),
            Cycle::At(lc) => lc.gt(x),
        }
    }
}

/// What the controller decodes from a state (mode, loop cycle, loop constants): the
/// broadcast strobes and what its own sequencing reads, by name, as wires of `m`.
fn decode(
    m: &mut ModuleBuilder,
    p: CubeParams,
    pre: &str,
    mode: &V,
    lc: Cycle,
    lp: &Loop,
) -> Vec<(&'static str, V)> {
    let (k, l, msg) = (p.k(), p.payload_bits(), p.message_bits());
    let c9 = |v: usize| lit(CNT_BITS, v as u64);
    let semi = m.def(format!("{pre}_semi"), mode.is(Mode::Semi as u64));
    let full = m.def(format!("{pre}_full"), mode.is(Mode::Full as u64));
    let f9 = &lp.f;
    let enumerating = m.def(format!("{pre}_enumerating"), &full & f9.is_not(0));
    let c2 = m.def(format!("{pre}_c2"), lc.value() - &lp.p_start);
    let c0 = m.def(format!("{pre}_c0"), lc.value() - &lp.q_start);
    let cr = m.def(format!("{pre}_cr"), lc.value() - &lp.r_start);
    let in2 = m.def(format!("{pre}_in2"), &enumerating & c2.le(&lp.frame_end));
    let in_r = m.def(format!("{pre}_in_r"), &enumerating & cr.le(&lp.frame_end));
    let in0 = m.def(format!("{pre}_in0"), &enumerating & c0.le(&lp.f3.plus(1)));

    m.comment(format!(
        "{pre}: channel A, semi (lc, k stages, L body bits) or step 3 / step 6 (f, M)"
    ));
    let ca = m.def(
        format!("{pre}_ca"),
        semi.select(lc.value(), in2.select(&c2, &cr)),
    );
    let fa = m.def(format!("{pre}_fa"), semi.select(c9(k), f9.clone()));
    let ba = m.def(format!("{pre}_ba"), semi.select(c9(l), c9(msg)));
    let on_a = m.def(format!("{pre}_on_a"), &semi | &in2 | &in_r);
    let a = channel(m, &format!("{pre}_a"), &ca, &fa, &ba, &on_a);
    m.comment(format!("{pre}: channel B, step 5 (f stages, f body bits)"));
    let b = channel(m, &format!("{pre}_b"), &c0, f9, f9, &in0);
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
        ("e_inj2", &enumerating & lc.eq(&zero(CNT_BITS))),
        ("e_inj0", &enumerating & lc.eq(f9)),
        ("e_cap2", &enumerating & lc.gt(f9) & lc.le(&lp.f2)),
        ("e_cap0", &enumerating & lc.gt(&lp.f2) & lc.le(&lp.f3)),
        ("e_clear", &enumerating & lc.eq(&lp.f3)),
        ("ph_cross", &full & lc.le(&c9(msg))),
        ("x_decide", &full & lc.eq(&zero(CNT_BITS))),
        ("x_shift", &full & lc.gt(&zero(CNT_BITS)) & lc.le(&c9(msg))),
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
/// least `M + 1` cycles), so that no sum sits in front of the decode; and the next state
/// is decoded once per source (load, advance, a cycle within the loop), chosen after, so
/// that `load` is not in front of the decode either.
pub fn controller(p: CubeParams) -> Module {
    let (k, msg) = (p.k(), p.message_bits());
    let mut m = ModuleBuilder::new(Router::Overlapped.ctrl_name(p));
    m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let algorithm = m.input("algorithm", 1);
    let load = m.output("load", 1);
    let done = m.output("done", 1);
    let strobes_next = m.output("strobes_next", strobes().len());
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
    m.assign(&load, &start & !&busy & !&reset);
    let ends = m.def("run_ends", &busy & &is_last & (&semi_now | !&loops_left));
    let advance = m.def("advance", &busy & &is_last & !&semi_now & &loops_left);
    let mode_next = priority(
        mode.clone(),
        [
            Some((reset.clone(), lit(2, Mode::Idle as u64))),
            Some((
                load.clone(),
                algorithm.select(lit(2, Mode::Full as u64), lit(2, Mode::Semi as u64)),
            )),
            Some((ends.clone(), lit(2, Mode::Idle as u64))),
        ],
    );
    let mode_next = m.def("mode_next", mode_next);
    let restart = &reset | &load | (&busy & &is_last);
    let lc_next = m.def(
        "lc_next",
        restart.select(zero(CNT_BITS), busy.select(lc.plus(1), lc.clone())),
    );
    let first_loop = Loop::of(&lit(CNT_BITS, (k - 1) as u64), msg);
    let lp_next = first_loop.zip3(&nxt, &cur, &mut m, "next", |first, nx, lp| {
        load.select(first, advance.select(nx, lp))
    });

    // The next state's decode, one per source of the next state, chosen after the sums:
    // a load (`ld`: the first loop from cycle 0), an advance (`adv`: the next loop's
    // constants from cycle 0), a cycle within the loop (`run`). A reset or the run's end
    // decodes to all zeros (mode `Idle`). Decoding `mode_next`, `lc_next`, `lp_next`
    // instead put `load` in front of three carry chains in series, the 7-cube's critical
    // path on the 85F (docs/decisions/fpga-flow.md).
    m.comment("The registered decode of the next state, by its source");
    let mode_ld = algorithm.select(lit(2, Mode::Full as u64), lit(2, Mode::Semi as u64));
    let lc_run = m.def("lc_run", busy.select(lc.plus(1), lc.clone()));
    let sources = [
        decode(&mut m, p, "ld", &mode_ld, Cycle::First, &first_loop),
        decode(&mut m, p, "adv", &mode, Cycle::First, &nxt),
        decode(&mut m, p, "run", &mode, Cycle::At(&lc_run), &cur),
    ];
    // One bit per signal of `decode` but `is_last` (registered on its own), in its order.
    let names: Vec<&str> = sources[0]
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| *n != "is_last")
        .collect();
    let [ld, adv, run] = sources.map(|d| {
        let last = d
            .iter()
            .find(|(n, _)| *n == "is_last")
            .expect("decoded")
            .1
            .clone();
        let rest = cat(d
            .into_iter()
            .rev()
            .filter(|(n, _)| *n != "is_last")
            .map(|(_, v)| v));
        (last, rest)
    });
    let pick = |sel: fn(&(V, V)) -> &V, w: usize| {
        priority(
            sel(&run).clone(),
            [
                Some((reset.clone(), zero(w))),
                Some((load.clone(), sel(&ld).clone())),
                Some((advance.clone(), sel(&adv).clone())),
                Some((ends.clone(), zero(w))),
            ],
        )
    };
    let is_last_next = m.def("is_last_next", pick(|x| &x.0, 1));
    let dec_next = m.def("dec_next", pick(|x| &x.1, names.len()));
    let bit = |n: &str| dec_next.bit(names.iter().position(|x| x == &n).expect("decoded"));

    m.comment("Strobes (docs/hypercube.md §12): their next values, to each node's tap");
    m.assign(&done, &finished);
    m.assign(&strobes_next, cat(strobes().into_iter().rev().map(bit)));
    // The controller's own copies of the strobes it reads.
    let dec = m.reg("dec_q", OWN.len());
    let q = |n: &str| dec.bit(OWN.iter().position(|x| x == &n).expect("an own strobe"));
    let dec_next = cat(OWN.iter().rev().map(|n| bit(n)));
    m.assign(&bit_time, &bt);
    m.comment("The loop thermometer's next value, to each node's tap");
    m.assign(
        &low_next,
        priority(
            low_r.clone(),
            [
                Some((load.clone(), algorithm.select(lit(k, 1), zero(k)))),
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
        .elif(&load, |pr| {
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

/// The registers beside each node (`node<x>_tap`): the loop thermometer `low` loaded from
/// the controller's `low_next`, and every strobe of [`strobes`] loaded from its next value
/// (`strobes_next`), so that the node reads them in the cycle the controller's own
/// registers would hold them. `(* keep *)`: each node decodes from its own copies. From
/// one register per strobe the 85F's placer fanned each out across the die to 128 nodes,
/// and synthesis merged the nodes' decodes of the broadcast into one cone shared by all
/// (`docs/decisions/fpga-flow.md`). `s_clear` and `e_clear` are also 1 in a reset's own
/// cycle.
pub fn tap(p: CubeParams) -> Module {
    let k = p.k();
    let mut m = ModuleBuilder::new(format!("{}_tap", Router::Overlapped.ctrl_name(p)));
    m.clock();
    let reset = m.input("reset", 1);
    let low_next = m.input("low_next", k);
    let strobes_next = m.input("strobes_next", strobes().len());
    let low = m.output("low", k);
    let low_q = m.reg("low_q", k);
    let strobes_q = m.reg("strobes_q", strobes().len());
    m.keep_registers();
    m.always(|p| {
        p.load(&low_q, &low_next);
        p.load(&strobes_q, &strobes_next);
    });
    m.assign(&low, &low_q);
    for (i, name) in strobes().into_iter().enumerate() {
        let out = m.output(name, 1);
        let v = match name {
            "s_clear" | "e_clear" => &reset | strobes_q.bit(i),
            _ => strobes_q.bit(i),
        };
        m.assign(&out, v);
    }
    m.build()
}

/// The strobes a node's tap registers, in `strobes_next`'s bit order: every broadcast
/// signal of [`NAMES`] but `load` (from `start`, in its own cycle) and `done`.
pub fn strobes() -> Vec<&'static str> {
    NAMES
        .iter()
        .copied()
        .filter(|n| !matches!(*n, "load" | "done"))
        .collect()
}

/// What the controller reads of its own decode (for `sel`, `sclr`, `ewin`), registered
/// in `dec_q` in this bit order.
const OWN: [&str; 9] = [
    "c_start",
    "c_addr",
    "ph_rdv",
    "p0_start",
    "p0_addr",
    "p0_body",
    "sel_restart",
    "sclr_start",
    "ewin_feed",
];
