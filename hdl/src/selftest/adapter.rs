//! The interface between the shared self-test top ([`super::top`]) and a family's
//! adapter ([`super::lca`], [`super::cube`], [`super::min`]): what the top gives the
//! adapter ([`Ctx`]: the sequencer state, the message index, the message and destination
//! tables), what the adapter gives back ([`Hooks`]: the network's `done`, the checker's
//! verdicts, the counters' increments), and the helpers the adapters share.

use super::top::{CHECK, START, WAIT1};
use super::SelftestSpec;
use crate::netlist::{cat, index_bits, lit, lit_words, zero, ModuleBuilder, Proc, V};

/// What the shared top gives an adapter.
pub(super) struct Ctx {
    /// The clock.
    pub clock: V,
    /// The sequencer state.
    pub st: V,
    /// The message index (`MSG`) or PE (`CHECK`).
    pub idx: V,
    /// The message table of a permutation or packing: message `k` at row `k`.
    pub msg: Option<V>,
    /// In `MSG`: the draw's message (message `idx`).
    pub draw: V,
    /// The destination table (permutations) or senders' ranks (packings).
    pub perm: Option<V>,
    /// The senders (packings).
    pub send: Option<V>,
    /// The packing's senders, counted during `MSG`.
    pub count: Option<V>,
    /// A packing's start, an exchange's row offset.
    pub offset: Option<V>,
}

/// How counter 2 grows.
pub(super) enum Add2 {
    /// By this 32-bit value at `TALLY`.
    Tally(V),
    /// By this value (at most 32 bits) in every `CHECK` clock.
    Check(V),
}

/// What an adapter gives the shared top.
pub(super) struct Hooks {
    /// The network's `done` (1 between runs).
    pub done: V,
    /// Everything checked at the first `done` clock passed.
    pub all_ok: V,
    /// In `CHECK`, PE `idx`'s checks passed.
    pub chk_ok: V,
    /// Added to counter 1 at `TALLY` (32 bits).
    pub add1: V,
    /// How counter 2 grows.
    pub add2: Add2,
    /// Modules the adapter instantiates besides the network (defined once each).
    pub modules: Vec<crate::netlist::Module>,
}

/// The network's `start`: the sequencer's `START` two clocks later (`start_q`), since the
/// last Fisher–Yates swap of the round is written at the end of the clock after `START`
/// (`super::top`): the network latches the final table. Two clocks per round
/// (`lcanet_sim::selftest::Dut::start_delay`).
pub(super) fn start_q(m: &mut ModuleBuilder, ctx: &Ctx) -> V {
    let start_d = m.reg("start_d", 1);
    let start_q = m.reg("start_q", 1);
    let starts = ctx.st.is(START);
    m.always(|p| {
        p.load(&start_d, starts);
        p.load(&start_q, &start_d);
    });
    start_q
}

/// `n` one bits.
pub(super) fn ones(n: usize) -> V {
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

/// `rows` values of `width` bits as 64-bit words, row `i` at bit `i·width`.
pub(super) fn rows_words(width: usize, rows: impl IntoIterator<Item = u64>) -> Vec<u64> {
    let mut words = Vec::new();
    for (i, v) in rows.into_iter().enumerate() {
        for b in 0..width {
            let at = i * width + b;
            if words.len() <= at / 64 {
                words.resize(at / 64 + 1, 0);
            }
            words[at / 64] |= ((v >> b) & 1) << (at % 64);
        }
    }
    words
}

/// In `CHECK`: PE `idx`'s destination (row `idx` of `dst`) holds a valid (`valid`) message
/// (row of `rmsg`) equal to PE `idx`'s own (with the fault, bit 0 of PE 0's inverted).
///
/// Everything the verdict compares comes from flip-flops, read ahead: the destination two
/// clocks ahead into `chk_dst` (in the first `done` clock of `WAIT1` the next is PE 1's),
/// what the network holds there a clock ahead into `chk_valid`, `chk_msg`, and PE `idx`'s
/// own message a clock ahead into `chk_own`. Each read is one multiplexer from flip-flops
/// into a flip-flop, indexed by a register alone (`chk_i1`, `chk_i2`: `idx + 1`, `idx + 2`
/// in `CHECK`, counting with `idx`; the rows read before `CHECK` are chosen after the
/// read): on the 85F the multiplexers indexed by `idx` (and by `idx + 2` through its
/// adder, then by `done` through the index's select), and the network's outputs read
/// through one into the counter of intact messages, crossed the die
/// (`docs/decisions/fpga-flow.md`). `done` is the network's.
pub(super) fn delivered(
    m: &mut ModuleBuilder,
    spec: &SelftestSpec,
    ctx: &Ctx,
    dst: &V,
    (valid, rmsg, done): (&V, &V, &V),
) -> V {
    let (n, mb) = (valid.width(), rmsg.width() / valid.width());
    let (ab, iw) = (index_bits(n), ctx.idx.width());
    let (i1, i2) = (m.reg("chk_i1", iw), m.reg("chk_i2", iw));
    let checking = m.def("chk_first", ctx.st.is(WAIT1) & done.clone());
    m.always(|p| {
        p.if_(&checking, |p| {
            p.load(&i1, lit(iw, 1));
            p.load(&i2, lit(iw, 1).plus(1)); // (2 does not fit a 1-bit index, n = 2)
        })
        .elif(ctx.st.is(CHECK), |p| {
            p.load(&i1, i1.plus(1));
            p.load(&i2, i2.plus(1));
        });
    });
    let chk_dst = m.reg("chk_dst", ab);
    // Each read is indexed by its register alone; the rows read before `CHECK` (1 in the
    // first `done` clock of `WAIT1`, else 0) are chosen after it, so that `done`, the
    // network's, does not reach the index of a `n`-way multiplexer.
    let dst_i2 = read_row(m, "chk_dst_i2", dst, &i2, ab);
    let before = checking.select(dst.row(1, ab), dst.row(0, ab));
    let dst_next = m.def("chk_dst_next", ctx.st.is(CHECK).select(&dst_i2, before));
    let chk_valid = m.reg("chk_valid", 1);
    let valid_next = m.def("chk_valid_next", valid.row_at(&chk_dst, 1));
    let chk_msg = m.reg("chk_msg", mb);
    let msg_next = read_row(m, "chk_msg_next", rmsg, &chk_dst, mb);
    let table = ctx
        .msg
        .as_ref()
        .expect("a permutation or packing has a message table");
    let chk_own = m.reg("chk_own", mb);
    let own_i1 = read_row(m, "chk_own_i1", table, &i1, mb);
    let own_next = m.def(
        "chk_own_next",
        ctx.st.is(CHECK).select(&own_i1, table.row(0, mb)),
    );
    m.always(|p| {
        p.load(&chk_dst, &dst_next);
        p.load(&chk_valid, &valid_next);
        p.load(&chk_msg, &msg_next);
        p.load(&chk_own, &own_next);
    });
    let want = expect(m, spec, chk_own, &ctx.idx);
    m.def("chk_delivered", chk_valid & chk_msg.eq(&want))
}

/// PE `p`'s expected message `own`: with the test-only fault, bit 0 of PE 0's inverted.
fn expect(m: &mut ModuleBuilder, spec: &SelftestSpec, own: V, idx: &V) -> V {
    if !spec.params.fault {
        return m.def("chk_expect", own);
    }
    m.comment("TEST-ONLY FAULT (--inject-fault): PE 0's expected message has bit 0 inverted");
    let mb = own.width();
    let flip = if mb == 1 {
        idx.is(0)
    } else {
        cat([zero(mb - 1), idx.is(0)])
    };
    m.def("chk_expect", own ^ flip)
}

/// `table[index] <= value` for a table of rows of `value`'s width, written as a `case` on
/// the index with one arm per row: each row's write enable is a comparison with a
/// constant. (`table[index*w +: w] <= value` with `w` not a power of two makes Yosys
/// multiply the index and shift a mask and the value across the whole table: a
/// multiplier and a barrel shifter as wide as the table, per write port.)
pub(super) fn load_row(p: &mut Proc, table: &V, index: &V, value: &V) {
    let w = value.width();
    let rows = table.width() / w;
    p.case(index, |c| {
        for r in 0..rows {
            c.arm(&[r as u64], |p| p.load(&table.row(r, w), value.clone()));
        }
    });
}

/// `table[index]` for a table of rows of `w` bits, as the wire `name`. A row width that is
/// not a power of two is read from a copy of the table whose rows are zero-extended to
/// one (`<name>_pad`): the row's offset is then the index shifted, not multiplied, and
/// Yosys builds a multiplexer tree instead of a multiplier and a shifter.
pub(super) fn read_row(m: &mut ModuleBuilder, name: &str, table: &V, index: &V, w: usize) -> V {
    if w.is_power_of_two() || table.width() == w {
        return m.def(name, table.row_at(index, w));
    }
    let (p, rows) = (w.next_power_of_two(), table.width() / w);
    let pad = m.def(
        format!("{name}_pad"),
        cat((0..rows).rev().map(|r| table.row(r, w).zext(p))),
    );
    m.allow_unread(format!("{name}_pad"));
    let word = m.def(format!("{name}_word"), pad.row_at(index, p));
    m.allow_unread(format!("{name}_word"));
    m.def(name, word.low(w))
}
