//! The arbiter policy state (`docs/routing.md` §2, `docs/protocol.md` §5 and §7): the
//! pointers `(p, q)` an arbitration uses — fixed 0, round-robin registers, or drawn from a
//! 16-bit Galois LFSR — and their update at the commit.
//!
//! Round-robin keeps `<arb>_p`, `<arb>_q` (indices) and `<arb>_last`, the requester of the
//! arbitration's last grant: after an arbitration with a grant `p ← (last + 1) mod R` and
//! `q ← (q + 1) mod Wn`. Random keeps `<arb>_lfsr` `L` and derives `<arb>_p =
//! ((L & 0xFF)·R) >> 8`, `<arb>_q = ((L >> 8)·Wn) >> 8`; one Galois step after every
//! arbitration with a request; `L₀ = seed16 ^ salt`, 1 if that is zero.

use super::logic::{index_of, next_mod, scale_byte};
use crate::netlist::{index_bits, lit, zero, ModuleBuilder, Proc, V};
use lcanet_sim::lcan::cycle::arbiter::LFSR_TAPS;
use lcanet_sim::lcan::cycle::ArbiterPolicy;

/// The policy registers of one arbiter.
enum Regs {
    Fixed,
    RoundRobin { p: V, q: V, last: V },
    Random { lfsr: V, seed: V },
}

/// One arbiter's pointers and policy registers.
pub(super) struct PolicyState {
    /// `p`, the requester served first (`None`: fixed at 0).
    pub p: Option<V>,
    /// `q`, the wire tried first (`None`: fixed at 0).
    pub q: Option<V>,
    regs: Regs,
    requesters: usize,
    wires: usize,
}

impl PolicyState {
    /// Declares the state of arbiter `arb` (`up`, `dn`) with `requesters` requesters over
    /// `wires` wires; `seed` is `(seed16, salt)` for the random policy.
    pub(super) fn declare(
        m: &mut ModuleBuilder,
        arb: &str,
        policy: ArbiterPolicy,
        requesters: usize,
        wires: usize,
        seed: Option<(&V, &V)>,
    ) -> PolicyState {
        Self::declare_with(m, arb, policy, requesters, wires, seed, false)
    }

    /// [`PolicyState::declare`] for the fast set-up (`docs/protocol.md` §13): the whole
    /// arbitration happens in the commit bit-time, so round-robin's `<arb>_last` is a wire
    /// (the requester of the arbitration's last grant), driven with
    /// [`PolicyState::drive_last`], instead of a register.
    pub(super) fn declare_fast(
        m: &mut ModuleBuilder,
        arb: &str,
        policy: ArbiterPolicy,
        requesters: usize,
        wires: usize,
        seed: Option<(&V, &V)>,
    ) -> PolicyState {
        Self::declare_with(m, arb, policy, requesters, wires, seed, true)
    }

    fn declare_with(
        m: &mut ModuleBuilder,
        arb: &str,
        policy: ArbiterPolicy,
        requesters: usize,
        wires: usize,
        seed: Option<(&V, &V)>,
        fast: bool,
    ) -> PolicyState {
        let (ir, iw) = (index_bits(requesters), index_bits(wires));
        let (p, q, regs) = match policy {
            ArbiterPolicy::Fixed => (None, None, Regs::Fixed),
            ArbiterPolicy::RoundRobin => {
                let p = m.reg(format!("{arb}_p"), ir);
                let q = m.reg(format!("{arb}_q"), iw);
                let last = if fast {
                    m.wire(format!("{arb}_last"), ir)
                } else {
                    m.reg(format!("{arb}_last"), ir)
                };
                (
                    Some(p.clone()),
                    Some(q.clone()),
                    Regs::RoundRobin { p, q, last },
                )
            }
            ArbiterPolicy::Random => {
                let (seed16, salt) = seed.expect("the random policy has seed16 and a salt");
                let lfsr = m.reg(format!("{arb}_lfsr"), 16);
                let seed = m.def(format!("_{arb}_lfsr_seed"), seed16 ^ salt);
                let p = scale_byte(m, &format!("{arb}_p"), &lfsr.low(8), requesters);
                let q = scale_byte(m, &format!("{arb}_q"), &lfsr.top(8), wires);
                // A pointer into one wire is always 0: the order does not read it.
                if wires == 1 {
                    m.allow_unread(format!("{arb}_q"));
                }
                (Some(p), Some(q), Regs::Random { lfsr, seed })
            }
        };
        PolicyState {
            p,
            q,
            regs,
            requesters,
            wires,
        }
    }

    /// When `granted`: remember the requester of the grant (round-robin only), given as a
    /// one-hot vector over the requesters.
    pub(super) fn record_grant(&self, s: &mut Proc, granted: V, requester: &V) {
        if let Regs::RoundRobin { last, .. } = &self.regs {
            s.if_(granted, |s| s.load(last, index_of(requester)));
        }
    }

    /// Fast set-up, round-robin: drives the wire `<arb>_last` with `last` (an index); a
    /// no-op for the other policies.
    pub(super) fn drive_last(&self, m: &mut ModuleBuilder, last: V) {
        if let Regs::RoundRobin { last: wire, .. } = &self.regs {
            m.assign(wire, last);
        }
    }

    /// The policy update: reset at `init`; at `commit`, after an arbitration that `granted`
    /// something (round-robin) or had any request, `requested` (random).
    pub(super) fn update(
        &self,
        m: &mut ModuleBuilder,
        init: &V,
        commit: &V,
        granted: V,
        requested: V,
    ) {
        let (r, wn) = (self.requesters, self.wires);
        m.always(|s| match &self.regs {
            Regs::Fixed => {}
            Regs::RoundRobin { p, q, last } => {
                s.if_(init, |s| {
                    s.load(p, zero(p.width()));
                    s.load(q, zero(q.width()));
                })
                .elif(commit & &granted, |s| {
                    s.load(p, next_mod(last, r));
                    s.load(q, next_mod(q, wn));
                });
            }
            Regs::Random { lfsr, seed } => {
                s.if_(init, |s| s.load(lfsr, seed.is(0).select(lit(16, 1), seed)))
                    .elif(commit & &requested, |s| {
                        let taps = lit(16, u64::from(LFSR_TAPS)).when(&lfsr.bit(0));
                        s.load(lfsr, lfsr.shr(1) ^ taps);
                    });
            }
        });
    }
}
