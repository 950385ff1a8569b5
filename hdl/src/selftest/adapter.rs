//! The interface between the shared self-test top ([`super::top`]) and a family's
//! adapter ([`super::lca`], [`super::cube`], [`super::min`]): what the top gives the
//! adapter ([`Ctx`]: the sequencer state, the message index, the message and destination
//! tables), what the adapter gives back ([`Hooks`]: the network's `done`, the checker's
//! verdicts, the counters' increments), and the helpers the adapters share.

use super::SelftestSpec;
use crate::netlist::{cat, index_bits, lit_words, zero, ModuleBuilder, V};

/// What the shared top gives an adapter.
pub(super) struct Ctx {
    /// The clock.
    pub clock: V,
    /// The sequencer state.
    pub st: V,
    /// The message index (`MSG`) or PE (`CHECK`).
    pub idx: V,
    /// The message table: message `k` at row `k`.
    pub msg: V,
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
pub(super) fn delivered(
    m: &mut ModuleBuilder,
    spec: &SelftestSpec,
    ctx: &Ctx,
    dst: &V,
    valid: &V,
    rmsg: &V,
) -> V {
    let (n, mb) = (valid.width(), rmsg.width() / valid.width());
    let chk_dst = m.def("chk_dst", dst.row_at(&ctx.idx, index_bits(n)));
    let chk_valid = m.def("chk_valid", valid.row_at(&chk_dst, 1));
    let chk_msg = m.def("chk_msg", rmsg.row_at(&chk_dst, mb));
    let want = expect(m, spec, ctx.msg.row_at(&ctx.idx, mb), &ctx.idx);
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
