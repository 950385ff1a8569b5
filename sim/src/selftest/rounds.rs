//! One round through the network's own golden model, and the on-chip checker's verdict
//! on what that model says arrives (`docs/selftest.md` §4): for an LCA network its cycle
//! model ([`NetworkModel`]), for the hypercube its cycle model ([`simulate`]), for a MIN
//! the ATAPE timeline ([`Timeline`]: each frame's Latin-square row and what
//! [`Min::transit`](crate::min::Min::transit) delivers). The bit-times come from the
//! same models, so a change to a network's schedule changes the prediction with it.

use super::dut::Dut;
use super::params::{SelftestError, SelftestParams};
use super::stimulus::Round;
use crate::hypercube::cycle::simulate;
use crate::lcan::cycle::network::NetworkModel;
use crate::min::frame::{FrameFormat, Frames};
use crate::min::{first_row, RunConfig, Timeline};
use crate::perm::{PartialPermutation, Permutation};

/// What one round gives the counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Clocks from the network's `start` to its first `done` clock, minus one (the
    /// network's bit-times).
    pub bit_times: u32,
    /// What the round adds to counters 1 and 2.
    pub add: [u32; 2],
    /// The checker's verdict: some check failed.
    pub bad: bool,
}

/// Bit-times an LCA network model may spend on one permutation before it is declared hung.
const ROUND_BUDGET: u64 = 1 << 32;

fn model<E: std::fmt::Display>(e: E) -> SelftestError {
    SelftestError::Model(e.to_string())
}

/// The expected message of PE `p`: its own, or with the fault, bit 0 of PE 0's inverted.
fn expect(msg: u64, p: usize, sp: &SelftestParams) -> u64 {
    msg ^ u64::from(sp.fault && p == 0)
}

/// Routes `round` through the golden model of `dut` and applies the checker.
pub fn route(dut: &Dut, round: &Round, sp: &SelftestParams) -> Result<Outcome, SelftestError> {
    match dut {
        Dut::Lca(l) => {
            let (topo, np) = (&l.topo, &l.np);
            let dst: Vec<Option<usize>> = round.perm.iter().map(|&t| Some(t)).collect();
            let mut net = NetworkModel::new(topo, np, &dst, &round.msgs, u64::from(sp.seed))
                .map_err(model)?;
            net.run_to_done(ROUND_BUDGET).map_err(model)?;
            let o = net.outputs();
            // Every PE received and sent, no error, and PE p's destination holds PE p's
            // message.
            let mut bad = o.error || !o.valid.iter().all(|&v| v) || !o.sent.iter().all(|&s| s);
            for (p, &t) in round.perm.iter().enumerate() {
                bad |= !o.valid[t] || o.rmsg[t] != expect(round.msgs[p], p, sp);
            }
            Ok(Outcome {
                bit_times: o.bit_times,
                add: [u32::from(o.passes), o.bit_times],
                bad,
            })
        }
        Dut::Cube { params, algorithm } => {
            let n = params.n();
            let dest: Vec<Option<usize>> = (0..n)
                .map(|p| {
                    if algorithm.routes_any_permutation() {
                        Some(round.perm[p])
                    } else {
                        round.send[p].then(|| round.offset + round.perm[p])
                    }
                })
                .collect();
            let routing = PartialPermutation::new(dest.clone()).map_err(model)?;
            let trace = simulate(*params, *algorithm, &routing, &round.msgs).map_err(model)?;
            // What the checker sees from the first `done` bit-time on.
            let t = trace.total + 1;
            let g = trace.global(t);
            let mut bad = g.collision;
            let mut messages = 0u32;
            for (p, d) in dest.iter().enumerate() {
                if let Some(d) = *d {
                    let got = trace.node(t, d);
                    let ok = got.rx_valid && got.rx_payload == expect(round.msgs[p], p, sp);
                    bad |= !ok;
                    messages += u32::from(ok);
                }
                // Nothing arrives where nothing was sent (every PE is a destination in
                // `full`; in `semi` exactly the interval).
                let addressed = algorithm.routes_any_permutation() || dest.contains(&Some(p));
                bad |= trace.node(t, p).rx_valid != addressed;
            }
            let bit_times = g.bit_time as u32;
            Ok(Outcome {
                bit_times,
                add: [bit_times, messages],
                bad,
            })
        }
        Dut::Min { min, message_bits } => {
            let n = min.n();
            let first = first_row(min);
            let shifted: Vec<usize> = (0..n).map(|j| first.dst(j) ^ round.offset).collect();
            let cfg = RunConfig {
                min: *min,
                format: FrameFormat::new(min, *message_bits).map_err(model)?,
                first: Permutation::new(shifted).map_err(model)?,
                frames: Frames::Atape,
                seed: 0,
                t_start: 1,
            };
            let tl = Timeline::new(cfg.clone());
            let msg = |j: usize, q: usize| round.msgs[j * n + q];
            let (mut seen, mut err) = (vec![false; n * n], vec![false; n * n]);
            let (mut dup, mut conflict) = (false, false);
            for i in 0..n {
                let (row, tr) = (tl.row(i), tl.transit(i));
                conflict |= tr.conflict.iter().flatten().any(|&c| c);
                for j in 0..n {
                    let q = row.dst(j);
                    dup |= seen[j * n + q];
                    seen[j * n + q] = true;
                    // The checker compares PE q's output with what j sent it; the timeline
                    // says the payload of `arrivals[q]` arrives there.
                    let src = tr.arrivals[q];
                    err[j * n + q] |= msg(src, row.dst(src)) != expect(msg(j, q), j, sp);
                }
            }
            let ok = |i: usize| seen[i] && !err[i];
            let messages = (0..n * n).filter(|&i| ok(i)).count() as u32;
            let bad = dup || conflict || messages != (n * n) as u32;
            let bit_times = cfg.exchange_bit_times() as u32;
            Ok(Outcome {
                bit_times,
                add: [bit_times, messages],
                bad,
            })
        }
    }
}
