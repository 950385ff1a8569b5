//! Sort-then-pack on the quadratic cube (`docs/hypercube.md` §13.3): the mirrored bitonic
//! sort of [`super::sort`] fully pipelined — each of its `k(k+1)/2` compare-exchanges a
//! stage of its own with a wire of its own (dimension `d` is used by `d + 1` of them:
//! the quadratic cube), followed by the unpacking's `k` routing stages (one more wire
//! per dimension) — so that a batch's records stream through every stage once, back to
//! back with the next batch's: one batch every `M + 1` bit times.
//!
//! Timing, with batch `b` taken at `t_b = b·(M + 1)` (its record: `!va`, then the
//! destination LSB first, then the payload): record bit `q` is in the pipeline register
//! of sort stage `i` at `t_b + 2 + q + i`, so the sorted record passes the junction
//! register (after the `S = k(k+1)/2` sort stages) at `t_b + 2 + S + q`; the junction
//! turns it into a frame (start bit = valid, address = destination ⊕ own address,
//! payload) injected into the unpacking's pipeline, whose delivery register holds the
//! start bit at `t_b + S + 2k + 3` and payload bit `p` at `t_b + S + 2k + 4 + p`:
//!
//! ```text
//! period     M + 1
//! result     visible from t_b + S + 2k + L + 4     latency S + 2k + L + 4
//! H batches  T = (H − 1)(M + 1) + S + 2k + L + 3
//! ```

use super::cycle::bits;
use super::cycle::steps::{frame, route_phase, xb};
use super::cycle::{mark_collision, Delivery, PhaseRecord};
use super::quad::{check_batches, QuadTrace};
use super::semi::DimOrder;
use super::sort::{record, sort_pass_by};
use super::timing::Phase;
use super::{CubeParams, HypercubeError};
use crate::perm::PartialPermutation;

/// Sort stages: `S = k(k+1)/2`.
pub fn sort_stages(k: usize) -> usize {
    k * (k + 1) / 2
}

/// The period: `M + 1`.
pub fn period(p: CubeParams) -> u64 {
    (p.message_bits() + 1) as u64
}

/// Bit time from which batch `b`'s result is on the outputs:
/// `b·(M + 1) + S + 2k + L + 4`.
pub fn result_time(p: CubeParams, b: usize) -> u64 {
    b as u64 * period(p) + latency(p)
}

/// From a batch's load cycle to its result: `S + 2k + L + 4`.
pub fn latency(p: CubeParams) -> u64 {
    (sort_stages(p.k()) + 2 * p.k() + p.payload_bits() + 4) as u64
}

/// Bit times of a run of `h` batches: `T = (H − 1)(M + 1) + S + 2k + L + 3`.
pub fn total(p: CubeParams, h: usize) -> u64 {
    result_time(p, h - 1) - 1
}

/// Routes `batches` (payloads `payloads[b][src]`) by the pipelined sort-then-pack.
/// `rx_bit` has two columns per node: 0 the junction (the sorted record), 1 the
/// unpacking's delivery register.
pub fn simulate_qsort(
    params: CubeParams,
    batches: &[PartialPermutation],
    payloads: &[Vec<u64>],
) -> Result<QuadTrace, HypercubeError> {
    check_batches(batches, payloads)?;
    let (k, n) = (params.k(), params.n());
    let s = sort_stages(k) as u64;
    let mut tr = QuadTrace {
        params,
        batches: batches.len(),
        period: period(params),
        total: total(params, batches.len()),
        deliveries: vec![vec![Vec::new(); 2]; n],
        collision_at: vec![None; n],
        placements: Vec::with_capacity(batches.len()),
        result_times: (0..batches.len()).map(|b| result_time(params, b)).collect(),
        phases: Vec::with_capacity(batches.len()),
    };
    for (b, (routing, pay)) in batches.iter().zip(payloads).enumerate() {
        super::messages(params, routing, pay)?;
        let tb = b as u64 * tr.period;
        // The record as the node streams it, with its source.
        let mut recs: Vec<(Vec<bool>, usize)> = (0..n)
            .map(|x| {
                let mut a = bits(routing.dst(x).unwrap_or(0), k);
                a.extend((0..params.payload_bits()).map(|j| pay[x] >> j & 1 == 1));
                (record(routing.dst(x).is_some(), &a), x)
            })
            .collect();
        for pass in 0..k {
            sort_pass_by(k, pass, &mut recs, |r| r.0.clone());
        }
        let mut sorted_moves = Vec::new();
        for (x, (rec, src)) in recs.iter().enumerate() {
            tr.deliveries[x][0].push(Delivery {
                start: tb + 2 + s,
                bits: rec.clone(),
                sources: vec![*src],
            });
            if *src != x {
                sorted_moves.push((*src, x));
            }
        }
        sorted_moves.sort_unstable();
        // The junction: a valid record becomes a frame (address: destination ⊕ own).
        let frames = recs
            .iter()
            .enumerate()
            .map(|(x, (rec, _))| {
                let addr = (0..k).map(|d| rec[1 + d] ^ xb(x, d)).collect();
                (!rec[0]).then(|| frame(x, addr, rec[1 + k..].to_vec()))
            })
            .collect();
        let out = route_phase(k, DimOrder::Ascending, frames, tb + 2 + s, k, 0);
        for (y, d) in &out.deliveries {
            tr.deliveries[*y][1].push(d.clone());
        }
        for (at, c) in &out.collisions {
            mark_collision(&mut tr.collision_at, c.node, *at);
        }
        let value = |b: &[bool]| b.iter().rev().fold(0u64, |acc, &x| acc << 1 | u64::from(x));
        tr.placements.push(
            out.arrivals
                .iter()
                .enumerate()
                .map(|(y, f)| f.as_ref().map(|f| (y, value(&f.body))))
                .collect(),
        );
        tr.phases.push(vec![
            PhaseRecord {
                phase: Phase::SortPass,
                dim: None,
                start: tb,
                moves: sorted_moves,
                collisions: Vec::new(),
            },
            PhaseRecord {
                phase: Phase::Semi,
                dim: None,
                start: tb + 2 + s,
                moves: out.moves.clone(),
                collisions: out.collisions.iter().map(|(_, c)| c.clone()).collect(),
            },
        ]);
    }
    Ok(tr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hypercube::hperm::HPermutation;
    use crate::rng::seeded;

    #[test]
    fn every_batch_is_sorted_and_delivered() {
        for k in 1..=6 {
            let p = CubeParams::new(k, 5).unwrap();
            let hp = HPermutation::random(p.n(), 3, &mut seeded(k as u64)).unwrap();
            let (batches, _) = hp.batches();
            let pays: Vec<Vec<u64>> = batches
                .iter()
                .map(|r| {
                    (0..p.n())
                        .map(|x| (x as u64 * 7 + 3) % 32 * u64::from(r.dst(x).is_some()))
                        .collect()
                })
                .collect();
            let tr = simulate_qsort(p, &batches, &pays).unwrap();
            assert!(tr.collisions().next().is_none(), "k = {k}");
            for (b, r) in batches.iter().enumerate() {
                for (s, d) in r.pairs() {
                    assert_eq!(tr.placements[b][d], Some((d, pays[b][s])), "k = {k}");
                }
                assert_eq!(tr.placements[b].iter().flatten().count(), r.senders());
            }
        }
    }

    #[test]
    fn timing() {
        let p = CubeParams::new(10, 8).unwrap();
        assert_eq!(sort_stages(10), 55);
        assert_eq!(period(p), 19);
        assert_eq!(latency(p), 55 + 20 + 8 + 4);
        assert_eq!(total(p, 4), 3 * 19 + 55 + 20 + 8 + 3);
    }
}
