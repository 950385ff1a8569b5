//! The bit-time formulas of `docs/hypercube.md` (§6, §12.3, §13.1, §13.3, §14.2),
//! written out here from the document, asserted exactly against the golden models for
//! k = 2..8 on every router: a random permutation, the identity, the bit reversal and
//! the transpose on the flat cubes; random H-permutations with H = k (so H = 8 on the
//! 256-node cube) and the structured permutations as successive batches on the batched
//! cubes. Besides the totals, each run must deliver every message, and the model's own
//! last event (the last cross's start, the last delivery's last bit) must sit where
//! the formula puts the end.

use lcanet_sim::hypercube::cycle::{simulate, CycleTrace};
use lcanet_sim::hypercube::generate::{bit_reversal, transpose};
use lcanet_sim::hypercube::hperm::HPermutation;
use lcanet_sim::hypercube::qsort::simulate_qsort;
use lcanet_sim::hypercube::quad::{simulate_quad, QuadTrace};
use lcanet_sim::hypercube::timing::{Algorithm, Phase};
use lcanet_sim::hypercube::CubeParams;
use lcanet_sim::perm::{PartialPermutation, Permutation};
use lcanet_sim::rng::seeded;

const L: usize = 8;

fn workloads(k: usize) -> Vec<(&'static str, Permutation)> {
    let n = 1 << k;
    vec![
        ("random", Permutation::random(n, &mut seeded(k as u64))),
        ("identity", Permutation::identity(n)),
        ("bit-reversal", bit_reversal(k)),
        ("transpose", transpose(k)),
    ]
}

/// `λ_f` of the overlapped schedule (§12.3): loop with `f` dimensions, `f ≥ 1`.
fn lambda(m: usize, f: usize) -> usize {
    (2 * f).max(m - f) + 6 * f + 2 * m + 5
}

/// One permutation's bit times on a flat cube (§6, §12.3, §13.1).
fn flat_total(alg: Algorithm, k: usize, l: usize) -> u64 {
    let m = k + l;
    (match alg {
        Algorithm::FullSequential => k * (14 * k + 3 * l + 9),
        Algorithm::Full => (m + 1) + (1..k).map(|f| lambda(m, f)).sum::<usize>(),
        Algorithm::Sort => k * (m + 3) + k * (k - 1) / 2 + 2 * k + l + 2,
        Algorithm::Semi => 2 * k + l + 2,
    }) as u64
}

fn payloads(n: usize, salt: u64) -> Vec<u64> {
    (0..n as u64).map(|x| (x * 37 + salt) % (1 << L)).collect()
}

fn delivered(tr: &CycleTrace, r: &PartialPermutation, pay: &[u64]) -> bool {
    r.pairs().all(|(s, d)| tr.placement[d] == Some((d, pay[s])))
        && tr.placement.iter().flatten().count() == r.senders()
}

#[test]
fn flat_cubes_take_their_closed_forms() {
    for k in 2..=8 {
        let m = (k + L) as u64;
        let p = CubeParams::new(k, L).unwrap();
        for (name, perm) in workloads(k) {
            let r = perm.to_partial();
            let pay = payloads(1 << k, k as u64);
            for alg in [Algorithm::Full, Algorithm::FullSequential, Algorithm::Sort] {
                let tr = simulate(p, alg, &r, &pay).unwrap();
                let what = format!("k = {k}, {name}, {alg:?}");
                assert_eq!(tr.total, flat_total(alg, k, L), "{what}");
                assert!(delivered(&tr, &r, &pay), "{what}");
                assert_eq!(tr.collisions().count(), 0, "{what}");
                let last = tr.phases.last().unwrap();
                match alg {
                    // The run ends with the last loop's cross (M + 1 bit times) ...
                    Algorithm::Full => {
                        assert_eq!(last.phase, Phase::Cross, "{what}");
                        assert_eq!(last.start + m, tr.total, "{what}");
                    }
                    // ... or, sequentially, the last loop's rendezvous (2k + M + 2).
                    Algorithm::FullSequential => {
                        assert_eq!(last.phase, Phase::Rendezvous, "{what}");
                        assert_eq!(last.start + 2 * k as u64 + m + 1, tr.total, "{what}");
                    }
                    // The unpacking's last payload bit reaches its delivery register in
                    // the last bit time.
                    _ => {
                        let end = tr.deliveries.iter().flatten();
                        let end = end.map(|d| d.start + d.bits.len() as u64 - 1).max();
                        assert_eq!(end, Some(tr.total), "{what}");
                    }
                }
            }
        }
    }
}

/// Batches and payloads: `k` random permutations superposed (an H-permutation, H = k,
/// split into H batches), or the structured permutations one batch each.
fn batch_sets(k: usize) -> Vec<(String, Vec<PartialPermutation>)> {
    let n = 1 << k;
    let hp = HPermutation::random(n, k, &mut seeded(100 + k as u64)).unwrap();
    let (random, _) = hp.batches();
    let structured = workloads(k).into_iter().map(|(_, p)| p.to_partial());
    vec![
        (format!("random H = {k}"), random),
        (
            "identity, bit reversal, transpose".into(),
            structured.skip(1).collect(),
        ),
    ]
}

fn batch_payloads(b: &[PartialPermutation]) -> Vec<Vec<u64>> {
    b.iter()
        .enumerate()
        .map(|(i, r)| {
            let all = payloads(r.len(), i as u64);
            (0..r.len())
                .map(|x| if r.dst(x).is_some() { all[x] } else { 0 })
                .collect()
        })
        .collect()
}

/// Every batch delivered, every result at `b·period + latency`, and `T` one less than
/// the last result: the last of H batches completes `latency + (H − 1)·period` bit times
/// after the first batch's load cycle.
fn check_batched(
    tr: &QuadTrace,
    b: &[PartialPermutation],
    pay: &[Vec<u64>],
    period: u64,
    latency: u64,
    what: &str,
) {
    let h = b.len();
    assert_eq!(tr.period, period, "{what}");
    assert_eq!(tr.collisions().count(), 0, "{what}");
    for (i, r) in b.iter().enumerate() {
        assert_eq!(
            tr.result_times[i],
            i as u64 * period + latency,
            "{what}, batch {i}"
        );
        for (s, d) in r.pairs() {
            assert_eq!(
                tr.placements[i][d],
                Some((d, pay[i][s])),
                "{what}, batch {i}"
            );
        }
        assert_eq!(
            tr.placements[i].iter().flatten().count(),
            r.senders(),
            "{what}"
        );
    }
    assert_eq!(tr.total + 1, latency + (h as u64 - 1) * period, "{what}");
}

#[test]
fn the_quadratic_cube_takes_its_period_and_latency() {
    for k in 2..=8 {
        let m = (k + L) as u64;
        let p = CubeParams::new(k, L).unwrap();
        // §14.2: T_p = 1 + λ_{k−1}, latency (k − 1)·T_p + M + 3.
        let period = 1 + lambda(k + L, k - 1) as u64;
        let latency = (k as u64 - 1) * period + m + 3;
        for (name, b) in batch_sets(k) {
            let pay = batch_payloads(&b);
            let tr = simulate_quad(p, &b, &pay).unwrap();
            let what = format!("quadratic k = {k}, {name}");
            check_batched(&tr, &b, &pay, period, latency, &what);
            // Each batch's last loop is its cross: its result is latched the cycle after
            // the cross's last bit (start + M), visible one later.
            for (i, ph) in tr.phases.iter().enumerate() {
                let last = ph.last().unwrap();
                assert_eq!(last.phase, Phase::Cross, "{what}");
                assert_eq!(last.start + m + 2, tr.result_times[i], "{what}, batch {i}");
            }
        }
    }
}

#[test]
fn sort_then_pack_on_the_quadratic_cube_takes_its_period_and_latency() {
    for k in 2..=8 {
        let p = CubeParams::new(k, L).unwrap();
        // §13.3: one batch every M + 1, latency S + 2k + L + 4 with S = k(k+1)/2.
        let period = (k + L + 1) as u64;
        let latency = (k * (k + 1) / 2 + 2 * k + L + 4) as u64;
        for (name, b) in batch_sets(k) {
            let pay = batch_payloads(&b);
            let tr = simulate_qsort(p, &b, &pay).unwrap();
            let what = format!("quadratic-sort k = {k}, {name}");
            check_batched(&tr, &b, &pay, period, latency, &what);
            // The unpacking's last payload bit is in a delivery register the bit time
            // before its batch's result is visible.
            let ends: Vec<u64> = tr
                .deliveries
                .iter()
                .flatten()
                .flatten()
                .map(|d| d.start + d.bits.len() as u64 - 1)
                .collect();
            for (i, &rt) in tr.result_times.iter().enumerate() {
                let last = ends.iter().filter(|&&e| e < rt).max();
                assert_eq!(last, Some(&(rt - 1)), "{what}, batch {i}");
            }
            assert_eq!(ends.iter().max(), Some(&tr.total), "{what}");
        }
    }
}
