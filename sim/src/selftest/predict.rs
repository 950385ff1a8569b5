//! What the self-test top must do (`docs/selftest.md` §3–§5): each round's permutation
//! routed by the network's cycle model from its canonical start, the on-chip checker's
//! verdict on the outputs at `done`, the four 32-bit counters after every round, and the
//! text of the report line printed after every `report_every` rounds.

use super::params::SelftestParams;
use super::stimulus::StimulusGen;
use crate::lcan::cycle::network::{NetError, NetParams, NetworkModel};
use crate::lcan::Topology;

/// The self-test's counters (each 32 bits, wrapping), as the hardware's `cnt_*` registers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counters {
    /// Permutations routed and checked.
    pub perms: u32,
    /// Sum of the network's `passes` at `done`.
    pub passes: u32,
    /// Sum of the network's `bit_times` at `done`.
    pub bit_times: u32,
    /// Permutations the checker failed.
    pub errors: u32,
}

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
    /// `perm[p]`: PE `p`'s destination.
    pub perm: Vec<usize>,
    /// The network's `passes` at `done`.
    pub passes: u16,
    /// The network's `bit_times` at `done`.
    pub bit_times: u32,
    /// The checker's verdict: some check failed.
    pub bad: bool,
    /// Generator draws of the round (messages and shuffle).
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

/// `⌊100·passes / perms⌋` modulo 2³² (all ones when `perms` is 0, as the hardware's
/// restoring divider gives).
pub fn ratio_x100(c: &Counters) -> u32 {
    if c.perms == 0 {
        u32::MAX
    } else {
        (u64::from(c.passes) * 100 / u64::from(c.perms)) as u32
    }
}

/// The text of a report line: `PASS` while the error counter is 0, else `FAIL`, then the
/// permutations, the passes per permutation with two decimals (truncated), and the
/// passes, bit-times and errors counters, in decimal without leading zeros.
pub fn report_line(c: &Counters) -> String {
    let status = if c.errors == 0 { "PASS" } else { "FAIL" };
    let q = ratio_x100(c);
    format!(
        "{status} {} perms, {}.{:02} passes/perm, {} passes, {} bit-times, {} errors\r\n",
        c.perms,
        q / 100,
        q % 100,
        c.passes,
        c.bit_times,
        c.errors
    )
}

/// Bit-times the model may spend on one permutation before it is declared hung.
const ROUND_BUDGET: u64 = 1 << 32;

/// Predicts `rounds` rounds of the self-test of the network `topo`/`np` with `params`.
pub fn predict(
    topo: &Topology,
    np: &NetParams,
    params: &SelftestParams,
    rounds: u64,
) -> Result<Prediction, NetError> {
    let mut gen = StimulusGen::new(params.seed, np.n, np.msg_bits);
    let mut c = Counters::default();
    let mut out = Vec::new();
    let mut lines = Vec::new();
    let mut since_report = 0u32;
    for _ in 0..rounds {
        let round = gen.next_round();
        let dst: Vec<Option<usize>> = round.perm.iter().map(|&t| Some(t)).collect();
        let mut net = NetworkModel::new(topo, np, &dst, &round.msgs, u64::from(params.seed))?;
        let run = net.run_to_done(ROUND_BUDGET)?;
        let o = net.outputs();
        // The checker: every PE received and sent, no error, and PE p's destination holds
        // exactly PE p's message (with the fault: PE 0's message with bit 0 inverted).
        let mut bad = o.error || !o.valid.iter().all(|&v| v) || !o.sent.iter().all(|&s| s);
        for (p, &t) in round.perm.iter().enumerate() {
            let expect = round.msgs[p] ^ u64::from(params.fault && p == 0);
            if !o.valid[t] || o.rmsg[t] != expect {
                bad = true;
            }
        }
        c.perms = c.perms.wrapping_add(1);
        c.passes = c.passes.wrapping_add(u32::from(o.passes));
        c.bit_times = c.bit_times.wrapping_add(o.bit_times);
        c.errors = c.errors.wrapping_add(u32::from(bad));
        debug_assert_eq!(u64::from(o.bit_times), run.bit_times);
        out.push(RoundResult {
            perm: round.perm,
            passes: o.passes,
            bit_times: o.bit_times,
            bad,
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
