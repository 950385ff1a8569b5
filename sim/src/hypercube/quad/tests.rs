//! The quadratic cube's model against Algorithm 2 and its own timing formulas.

use super::*;
use crate::hypercube::alg2::route_full;
use crate::hypercube::hperm::HPermutation;
use crate::hypercube::overlap::loop_timing;
use crate::rng::seeded;
use rand::Rng;

fn run(k: usize, h: usize, seed: u64) -> (QuadTrace, Vec<PartialPermutation>, Vec<Vec<u64>>) {
    let p = CubeParams::new(k, 6).unwrap();
    let mut rng = seeded(seed);
    let hp = HPermutation::random(p.n(), h, &mut rng).unwrap();
    let (batches, _) = hp.batches();
    let payloads: Vec<Vec<u64>> = batches
        .iter()
        .map(|b| {
            (0..p.n())
                .map(|x| {
                    if b.dst(x).is_some() {
                        rng.gen_range(0..64)
                    } else {
                        0
                    }
                })
                .collect()
        })
        .collect();
    (
        simulate_quad(p, &batches, &payloads).unwrap(),
        batches,
        payloads,
    )
}

#[test]
fn every_batch_is_delivered_as_algorithm_2_delivers_it() {
    for k in 1..=5 {
        for h in [1, 3] {
            let (tr, batches, payloads) = run(k, h, 10 * k as u64 + h as u64);
            assert!(tr.collisions().next().is_none());
            for (b, (r, pay)) in batches.iter().zip(&payloads).enumerate() {
                let alg = route_full(tr.params, r, pay).unwrap();
                let want: Vec<Option<(usize, u64)>> = alg
                    .placement
                    .iter()
                    .map(|m| m.map(|m| (m.dest, m.payload)))
                    .collect();
                assert_eq!(tr.placements[b], want, "k = {k}, batch {b}");
            }
        }
    }
}

#[test]
fn the_period_latency_and_total_formulas() {
    for k in 1..=10 {
        for l in [1, 8, 64] {
            let p = CubeParams::new(k, l).unwrap();
            let m = (k + l) as u64;
            let tp = period(p);
            // The longest loop is unit 0's (f = k - 1), plus the load cycle.
            let longest = (0..k).map(|i| loop_timing(p, i).len).max().unwrap();
            assert_eq!(tp, if k == 1 { m + 3 } else { longest + 1 });
            assert!(tp >= m + 3, "room for the latch after the last cross");
            assert_eq!(latency(p), (k as u64 - 1) * tp + m + 3);
            for h in [1, 2, 7] {
                assert_eq!(total(p, h), (h + k - 2) as u64 * tp + m + 2);
            }
        }
    }
}

#[test]
fn a_unit_runs_its_loop_at_the_overlapped_schedules_cycles() {
    // Batch 1's loop j starts at period 1 + j, cycle 1: its step-3 frames arrive at
    // P + 2f + 1 loop cycles later.
    let (tr, batches, _) = run(4, 2, 3);
    let p = tr.params;
    let rec = &tr.phases[1];
    for j in 0..p.k() - 1 {
        let lt = loop_timing(p, j);
        let t0 = (1 + j) as u64 * tr.period + 1;
        let pack2 = rec
            .iter()
            .find(|r| r.dim == Some(j) && r.phase == crate::hypercube::timing::Phase::PackDoubles)
            .unwrap();
        assert_eq!(pack2.start, t0 + lt.pack2);
    }
    assert_eq!(batches.len(), 2);
    assert_eq!(tr.batches_done(result_time(p, 1) - 1), 1);
    assert_eq!(tr.batches_done(result_time(p, 1)), 2);
    assert!(tr.take(tr.period) && !tr.take(2 * tr.period) && !tr.take(1));
}
