//! What the self-test top must do (`docs/selftest.md` §3–§5): each round's stimulus
//! routed by the network's golden model ([`rounds`](super::rounds)), the on-chip
//! checker's verdict, the four 32-bit counters after every round, and the text of the
//! report line printed after every `report_every` rounds.

use super::dut::{Dut, StimulusKind};
use super::line::{report_line, Counters};
use super::params::{SelftestError, SelftestParams};
use super::rounds::route;
use super::stimulus::StimulusGen;

/// One report line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ReportLine {
    /// The counters it prints.
    pub counters: Counters,
    /// Its text, `\r\n` included.
    pub text: String,
}

/// One round as the model saw it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RoundResult {
    /// `perm[p]`: PE `p`'s destination (permutation rounds), its rank among the senders
    /// (packings); empty for exchanges.
    pub perm: Vec<usize>,
    /// Row offset (exchanges), the interval's start (packings), else 0.
    pub offset: usize,
    /// The network's bit-times (its `start` to its first `done` clock, minus one).
    pub bit_times: u32,
    /// What the round added to counters 1 and 2.
    pub add: [u32; 2],
    /// The checker's verdict: some check failed.
    pub bad: bool,
    /// Generator draws of the round (messages, then shuffle, offset or start).
    pub draws: u64,
}

/// The prediction for a number of rounds.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Prediction {
    /// Every round.
    pub rounds: Vec<RoundResult>,
    /// Counters after the last round.
    pub counters: Counters,
    /// The report lines printed within these rounds.
    pub lines: Vec<ReportLine>,
}

/// Predicts `rounds` rounds of the self-test of `dut` with `params`.
pub fn predict(
    dut: &Dut,
    params: &SelftestParams,
    rounds: u64,
) -> Result<Prediction, SelftestError> {
    let n = dut.pes();
    let mut gen = StimulusGen::new(params.seed, n, dut.msg_bits());
    let mut c = Counters::new(dut.line());
    let mut out = Vec::new();
    let mut lines = Vec::new();
    let mut since_report = 0u32;
    for _ in 0..rounds {
        let round = match dut.stimulus() {
            StimulusKind::Shuffle => gen.next_round(),
            StimulusKind::Packing => gen.next_packing(),
            StimulusKind::Exchange => gen.next_exchange(n.trailing_zeros()),
        };
        let o = route(dut, &round, params)?;
        c.tally(o.add, o.bad);
        out.push(RoundResult {
            perm: round.perm,
            offset: round.offset,
            bit_times: o.bit_times,
            add: o.add,
            bad: o.bad,
            draws: round.draws,
        });
        since_report += 1;
        if since_report == params.report_every {
            since_report = 0;
            lines.push(ReportLine {
                counters: c,
                text: report_line(&c),
            });
        }
    }
    Ok(Prediction {
        rounds: out,
        counters: c,
        lines,
    })
}
