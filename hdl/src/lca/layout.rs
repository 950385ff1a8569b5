//! Where every field of `docs/protocol.md` §4 sits in the switch's registers, derived once
//! from the parameters so that the generator only sees plain offsets and sizes.
//!
//! Receive registers hold a packet right-aligned (packet bit `i` of a `P`-bit packet at
//! register bit `P − 1 − i`), so a field of width `wd` at packet position `start` occupies
//! register bits `P − start − wd ..`. Because the output registers are right-aligned too,
//! forwarding a field is a copy between equal bit indices.

use lcanet_sim::lcan::cycle::params::clog2;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, PacketFormat, SwitchParams, SwitchTopology};

/// Sizes of one switch parameterization (register bit 0 = LSB).
///
/// Field offsets: in a `P1` packet (or waiting winner) `t` starts at bit 0, `s` at `ab`,
/// `h` at `2ab`, the valid bit is `P1 − 1`. A probe in the same register: `t` at 0, `h` at
/// `ab`, valid at `PR − 1`. In a `P2` register the D-slot is bits `0..P1` (laid out like a
/// `P1` packet) and the S-slot `(v, h, s)` is bits `P1..P2` (`s` at `P1`, `h` at `P1 + ab`,
/// valid at `P2 − 1`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The validated parameters.
    pub params: SwitchParams,
    /// The packet format they imply.
    pub fmt: PacketFormat,
    /// Downers, uppers, link width, levels.
    pub d: usize,
    /// See `d`.
    pub u: usize,
    /// See `d`.
    pub w: usize,
    /// See `d`.
    pub l: usize,
    /// Level-field and address bits.
    pub hb: usize,
    /// See `hb`.
    pub ab: usize,
    /// Bits of a base-`d` digit (`⌈log2 d⌉`) and of a base-`d/u` digit (tree; 0 if `d = u`).
    pub bd: usize,
    /// See `bd`.
    pub bg: usize,
    /// Packet sizes.
    pub p1: usize,
    /// See `p1`.
    pub p2: usize,
    /// See `p1`.
    pub pr: usize,
    /// Output register sizes: `n(P2)·W` for C, `n(P1)·W` for D.
    pub lc: usize,
    /// See `lc`.
    pub ld: usize,
    /// Where a probe starts in the C / D output registers: `len − n(PR)·W` (a packet is
    /// right-aligned within its first `n(P)` bit-times, which are the register's top bits).
    pub off_c: usize,
    /// See `off_c`.
    pub off_d: usize,
    /// Key bits `hb + ab`.
    pub kb: usize,
    /// Requests of the DOWN arbiter: `S(0..u)`, `X(0..d)`, `D(0..u)`.
    pub dn_slots: usize,
    /// PEs of a Π network (table-routed switch), `None` for tree and cb.
    pub pes: Option<usize>,
    /// A deliberate defect, for tests of the verification only (`None` everywhere else).
    pub fault: Option<TestFault>,
}

/// A deliberate defect a test can build into a switch, to show that the verification
/// catches it (`lcanet prove switch --fault`; never set by the generators).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestFault {
    /// The DOWN arbiter treats a down-wire `C(x)` that a crosspoint of an earlier step
    /// drives as free (the "output is free" check at a commit is skipped): P1 fails.
    DrivenOutputFree,
    /// A turning probe's commit closes its up-wire `A(x)` onto `D(0)` as well as onto its
    /// down-wire: P2 fails.
    TurnAlsoUp,
    /// A `REV` bit-time opens every crosspoint: P3 fails (and P6, which also speaks of
    /// crosspoints).
    RevOpens,
    /// The `UP` commit loads a packet into `tx_d` with its last bit 0: P4 fails.
    UpDropsLastBit,
    /// The DOWN arbiter orders claims of one LCA level by link instead of by source
    /// address (the key's `s` field ignored): only the arbiter property P5 fails.
    KeyIgnoresSource,
    /// `ctl_clear` opens the crosspoints but keeps the waiting winners: only P6 fails.
    ClearKeepsWinners,
}

impl Layout {
    /// The layout of `params`.
    pub fn new(params: SwitchParams) -> Self {
        let fmt = params.format();
        let w = params.width;
        let pes = match params.topology {
            SwitchTopology::Table { pes } => Some(pes),
            _ => None,
        };
        Layout {
            d: params.d,
            u: params.u,
            w,
            l: params.levels,
            hb: fmt.hb,
            ab: fmt.ab,
            bd: clog2(params.d),
            bg: clog2(params.d / params.u),
            p1: fmt.p1,
            p2: fmt.p2,
            pr: fmt.pr,
            lc: fmt.n2 * w,
            ld: fmt.n1 * w,
            off_c: fmt.n2 * w - fmt.nr * w,
            off_d: fmt.n1 * w - fmt.nr * w,
            kb: fmt.hb + fmt.ab,
            dn_slots: 2 * params.u + params.d,
            pes,
            fault: None,
            params,
            fmt,
        }
    }

    /// The arbiter policy.
    pub fn policy(&self) -> ArbiterPolicy {
        self.params.policy
    }

    /// Requesters of the UP arbiter (`A(0..d)`) and of the DOWN arbiter (`B(0..u)`, then
    /// `A(0..d)`).
    pub fn requesters(&self) -> (usize, usize) {
        (self.d, self.u + self.d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cb_2_2_with_1024_pes() {
        let p =
            SwitchParams::new(2, 2, 1, 10, SwitchTopology::Cb, ArbiterPolicy::RoundRobin).unwrap();
        let lay = Layout::new(p);
        assert_eq!((lay.hb, lay.ab, lay.bd, lay.bg), (4, 10, 1, 0));
        assert_eq!((lay.p1, lay.p2, lay.pr), (25, 40, 15));
        assert_eq!((lay.lc, lay.ld, lay.off_c, lay.off_d), (40, 25, 25, 10));
        assert_eq!(lay.dn_slots, 6);
        assert_eq!(lay.pes, None);
    }
}
