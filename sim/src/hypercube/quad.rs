//! The quadratic hypercube (§IV) with pipelined batches (`docs/hypercube.md` §14): the
//! timing of its periods and batches, and its cycle-level golden model.
//!
//! Every node has `k` **loop units**; unit `j` runs loop `j` of Algorithm 2 with the
//! overlapped schedule (§12) on its own wires — one across dimension `j` for the cross,
//! one across each of the dimensions `j+1..k-1` — so dimension `d` has `d + 1` wires,
//! one per unit `0..=d`: the quadratic cube. Time runs in **periods** of
//! `T_p = 1 + λ_{k−1}` bit times (the longest loop, unit 0's, plus one load cycle;
//! `M + 3` for `k = 1`, whose period needs a cycle after the cross for the output
//! latch). In period `p`, cycle 0 is the load cycle: unit 0 takes batch `p` from the PEs
//! (while batches remain) and every unit `j >= 1` takes unit `j − 1`'s buffer A and
//! `va`; then unit `j` runs loop `j` from period cycle 1 on (loop cycle `lc` at period
//! cycle `1 + lc`) if it holds a batch. So batch `b` is in unit `j` during period
//! `b + j`, and its result — each node's buffer A after unit `k − 1`'s cross — is latched
//! into the node's output register at period cycle `M + 2` of period `b + k − 1`:
//!
//! ```text
//! batch b taken at          t = b·T_p
//! result visible from       t = (b + k − 1)·T_p + M + 3      latency (k − 1)·T_p + M + 3
//! one batch completes every T_p bit times
//! H batches end at          T = (H + k − 2)·T_p + M + 2      (done from T + 1)
//! ```
//!
//! The model replays each batch through the loops with
//! [`cycle::overlapped::run_loop`](super::cycle::overlapped) at the bit times its unit
//! runs them: the per-unit timing is that of the overlapped schedule, only the start of
//! each loop moves.

pub mod ports;

use super::cycle::overlapped::run_loop;
use super::cycle::{load, mark_collision, value, Delivery, PhaseRecord};
use super::hperm::MAX_H;
use super::overlap::loop_len;
use super::{CubeParams, HypercubeError};
use crate::perm::PartialPermutation;
use serde::Serialize;

/// The period `T_p`: `1 + λ_{k−1}` (`M + 3` for `k = 1`).
pub fn period(p: CubeParams) -> u64 {
    let m = p.message_bits() as u64;
    if p.k() == 1 {
        m + 3
    } else {
        1 + loop_len(p, p.k() - 1)
    }
}

/// Bit time at which batch `b` is taken from the PEs: `b·T_p`.
pub fn take_time(p: CubeParams, b: usize) -> u64 {
    b as u64 * period(p)
}

/// Bit time from which batch `b`'s result is on the outputs:
/// `(b + k − 1)·T_p + M + 3`.
pub fn result_time(p: CubeParams, b: usize) -> u64 {
    (b + p.k() - 1) as u64 * period(p) + p.message_bits() as u64 + 3
}

/// Bit times from a batch's load cycle to its result on the outputs:
/// `(k − 1)·T_p + M + 3`.
pub fn latency(p: CubeParams) -> u64 {
    result_time(p, 0)
}

/// Bit times of a run of `h` batches: `T = (H + k − 2)·T_p + M + 2` (the last result is
/// latched at `T`; `done` and `bit_time = T` from `T + 1`).
pub fn total(p: CubeParams, h: usize) -> u64 {
    result_time(p, h - 1) - 1
}

/// What the quadratic cube does with a run of batches, bit time by bit time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QuadTrace {
    /// Parameters.
    pub params: CubeParams,
    /// Number of batches.
    pub batches: usize,
    /// `T_p`.
    pub period: u64,
    /// `T`: the last batch's result is latched in this bit time.
    pub total: u64,
    /// `deliveries[x][j]`: the frames through node `x`'s unit `j`'s delivery register
    /// (column `j` of the top's `rx_bit`, whose rows have one bit per column).
    pub deliveries: Vec<Vec<Vec<Delivery>>>,
    /// Per node, the first bit time at which its collision flag reads 1.
    pub collision_at: Vec<Option<u64>>,
    /// Per batch: each node's `(destination field, payload)` after the last loop.
    pub placements: Vec<Vec<Option<(usize, u64)>>>,
    /// Per batch: the bit time from which its result is on the outputs.
    pub result_times: Vec<u64>,
    /// Per batch, per loop: what moved (phase records of the overlapped schedule).
    pub phases: Vec<Vec<PhaseRecord>>,
}

impl QuadTrace {
    /// Every collision of the run.
    pub fn collisions(&self) -> impl Iterator<Item = &super::semi::Collision> {
        self.phases
            .iter()
            .flatten()
            .flat_map(|p| p.collisions.iter())
    }

    /// Batches whose result is on the outputs at bit time `t`.
    pub fn batches_done(&self, t: u64) -> usize {
        self.result_times.iter().filter(|&&r| r <= t).count()
    }

    /// Bits per node in `rx_bit`.
    pub fn columns(&self) -> usize {
        self.deliveries.first().map_or(0, Vec::len)
    }

    /// Whether a batch is taken from the PEs at bit time `t`.
    pub fn take(&self, t: u64) -> bool {
        t.is_multiple_of(self.period) && ((t / self.period) as usize) < self.batches
    }
}

/// Routes `batches` (payloads `payloads[b][src]`) through the quadratic cube.
pub fn simulate_quad(
    params: CubeParams,
    batches: &[PartialPermutation],
    payloads: &[Vec<u64>],
) -> Result<QuadTrace, HypercubeError> {
    check_batches(batches, payloads)?;
    let (k, n) = (params.k(), params.n());
    let tp = period(params);
    let mut tr = QuadTrace {
        params,
        batches: batches.len(),
        period: tp,
        total: total(params, batches.len()),
        deliveries: vec![vec![Vec::new(); k]; n],
        collision_at: vec![None; n],
        placements: Vec::with_capacity(batches.len()),
        result_times: (0..batches.len()).map(|b| result_time(params, b)).collect(),
        phases: Vec::with_capacity(batches.len()),
    };
    for (b, (routing, pay)) in batches.iter().zip(payloads).enumerate() {
        let mut st = load(params, routing, pay)?;
        let mut records = Vec::new();
        for j in 0..k {
            let t = (b + j) as u64 * tp + 1;
            let run = run_loop(&mut st, params, j, t);
            for r in &run.routed {
                for (y, d) in &r.deliveries {
                    tr.deliveries[*y][j].push(d.clone());
                }
                for (at, c) in &r.collisions {
                    mark_collision(&mut tr.collision_at, c.node, *at);
                }
            }
            records.extend(run.records);
        }
        tr.placements.push(
            st.iter()
                .map(|s| s.va.then(|| (value(&s.a[..k]) as usize, value(&s.a[k..]))))
                .collect(),
        );
        tr.phases.push(records);
    }
    Ok(tr)
}

/// `1..=MAX_H` batches, one payload list each.
pub(crate) fn check_batches(
    batches: &[PartialPermutation],
    payloads: &[Vec<u64>],
) -> Result<(), HypercubeError> {
    if batches.is_empty() || batches.len() > MAX_H || payloads.len() != batches.len() {
        return Err(HypercubeError::Bug(format!(
            "a batched cube runs 1..={MAX_H} batches with one payload list each ({} batches, {} payload lists)",
            batches.len(),
            payloads.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
