//! The emitted k-cube co-simulated in Verilator against the cycle-level golden model,
//! every output vector at every bit time, for k = 1..6: semi-contractions, packings and
//! the identity (Algorithm 1), a non-semi-contraction (collision), random and partial
//! permutations, the identity, the bit reversal and the transpose (Algorithm 2 under the
//! overlapped and the sequential schedule, and sort-then-pack, each on k = 1..6), a reset
//! mid-run, and a wrong expectation (the comparison
//! fails at the right bit time and node). Every run's bit times are checked against the
//! closed forms of `docs/hypercube.md`. The 1024-node cube is opt-in (`--ignored`).
//!
//! The RTL's bit-serial enumerations are observable through the packings they steer: in
//! steps 3 and 5 of every loop a frame arrives at the node its enumeration value names,
//! bit by bit on `rx_bit`, so a wrong count is a mismatch at the bit time it arrives. The
//! sets enumerated (nodes holding two messages, nodes holding none) are those of random
//! permutations; `lcanet-sim`'s `enumerate` tests check the butterfly on random sets
//! directly.

use lcanet_hdl::hypercube::Router;
use lcanet_sim::hypercube::generate::{
    bit_reversal, random_packing, random_semi_contraction, transpose,
};
use lcanet_sim::hypercube::timing::Algorithm;
use lcanet_sim::perm::{PartialPermutation, Permutation};
use lcanet_sim::rng::{derive, seeded};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::hypercube::cosim::{cosim, cosim_against, CosimOptions};
use rand::Rng;

fn payloads(n: usize, l: usize, seed: u64) -> Vec<u64> {
    let mut rng = seeded(derive(seed, "payload"));
    (0..n).map(|_| rng.gen_range(0..1u64 << l)).collect()
}

/// The closed forms of `docs/hypercube.md`, written out here from the document (not
/// taken from the model).
fn closed_form(alg: Algorithm, k: usize, l: usize) -> u64 {
    let m = k + l;
    (match alg {
        Algorithm::Semi => 2 * k + l + 2,
        Algorithm::FullSequential => k * (14 * k + 3 * l + 9),
        Algorithm::Full => {
            (m + 1)
                + (1..k)
                    .map(|f| (2 * f).max(m - f) + 6 * f + 2 * m + 5)
                    .sum::<usize>()
        }
        Algorithm::Sort => k * (m + 3) + k * (k - 1) / 2 + 2 * k + l + 2,
    }) as u64
}

/// The identity, the bit reversal and the transpose of `2^k` nodes, named.
fn structured(k: usize) -> [(&'static str, PartialPermutation); 3] {
    [
        ("identity", Permutation::identity(1 << k).to_partial()),
        ("bitrev", bit_reversal(k).to_partial()),
        ("transpose", transpose(k).to_partial()),
    ]
}

/// A permutation routing on `router`'s cube: the structured permutations (same build as
/// the random ones of the same `k`, so only the simulations are added).
fn run_structured(k: usize, alg: Algorithm, router: Router) {
    for (i, (name, r)) in structured(k).iter().enumerate() {
        let name = format!("{}_{name}_k{k}", router.name());
        run_opts(&name, k, 5, alg, r, 600 + i as u64, None, Some(router));
    }
}

fn run(name: &str, k: usize, l: usize, alg: Algorithm, r: &PartialPermutation, seed: u64) {
    run_opts(name, k, l, alg, r, seed, None, None);
}

#[allow(clippy::too_many_arguments)]
fn run_opts(
    name: &str,
    k: usize,
    l: usize,
    alg: Algorithm,
    r: &PartialPermutation,
    seed: u64,
    abort: Option<u64>,
    router: Option<Router>,
) {
    let dir = artifact_dir!(name).unwrap();
    let pay = payloads(1 << k, l, seed);
    let opts = CosimOptions {
        verilog_dir: dir.path().join("verilog"),
        vcd: None,
        vcd_on_mismatch: Some(dir.file("wave.vcd")),
        seed: Some(seed),
        abort_first_run_after: abort,
        router,
        ..CosimOptions::default()
    };
    let rep = cosim(k, l, alg, r, &pay, &opts).unwrap();
    if let Some(m) = &rep.mismatch {
        let node = rep.mismatch_node.as_ref().map(|d| d.to_string());
        panic!(
            "{name}: {m}\n  {}\n  routing: {r:?}",
            node.unwrap_or_default()
        );
    }
    // docs/hypercube.md §6, §12, §13, read from the RTL's bit_time counter once done.
    assert_eq!(rep.bit_times, closed_form(alg, k, l), "{name}");
    assert_eq!(rep.bit_times, rep.trace.total, "{name}");
    let clean = rep.trace.collisions().next().is_none();
    assert_eq!(rep.delivers(r, &pay), clean, "{name}: {:?}", rep.delivered);
}

#[test]
fn semi_contractions_and_packings() {
    // k = 6 shares its Verilator build with random_permutations_by_algorithm_2.
    for k in 1..=6 {
        let l = 5;
        for s in 0..2 {
            let seed = 10 * k as u64 + s;
            let r = random_semi_contraction(k, &mut seeded(seed));
            run(&format!("semi_k{k}_{s}"), k, l, Algorithm::Semi, &r, seed);
            let r = random_packing(k, &mut seeded(seed + 1000));
            run(&format!("pack_k{k}_{s}"), k, l, Algorithm::Semi, &r, seed);
        }
    }
}

#[test]
fn a_non_semi_contraction_reports_its_collision() {
    // 0 -> 0 and 1 -> 4 meet at node 0 after dimension 0.
    let r = PartialPermutation::parse("0 4 - - - - 7 3", 8).unwrap();
    let dir = artifact_dir!("collision").unwrap();
    let pay = payloads(8, 5, 1);
    let opts = CosimOptions {
        verilog_dir: dir.path().join("verilog"),
        vcd: None,
        vcd_on_mismatch: Some(dir.file("wave.vcd")),
        seed: Some(1),
        abort_first_run_after: None,
        ..CosimOptions::default()
    };
    let rep = cosim(3, 5, Algorithm::Semi, &r, &pay, &opts).unwrap();
    assert!(rep.matched(), "{}", rep.mismatch.unwrap());
    let c = rep
        .trace
        .collisions()
        .next()
        .expect("the model predicts a collision");
    assert_eq!((c.node, c.dim), (0, 0));
    assert!(!rep.delivers(&r, &pay));
}

#[test]
fn random_permutations_by_algorithm_2() {
    for k in 1..=6 {
        let seed = 100 + k as u64;
        let mut rng = seeded(seed);
        let n = 1 << k;
        let perm = Permutation::random(n, &mut rng);
        run(
            &format!("full_k{k}"),
            k,
            5,
            Algorithm::Full,
            &perm.to_partial(),
            seed,
        );
        if k == 4 {
            let dst = (0..n)
                .map(|s| rng.gen_bool(0.5).then(|| perm.dst(s)))
                .collect();
            let r = PartialPermutation::new(dst).unwrap();
            run("full_k4_partial", k, 5, Algorithm::Full, &r, seed);
        }
        if k >= 2 {
            run_structured(k, Algorithm::Full, Router::Overlapped);
        }
    }
}

#[test]
fn the_sequential_router_runs_both_algorithms() {
    for k in 1..=3 {
        let seed = 300 + k as u64;
        let mut rng = seeded(seed);
        let perm = Permutation::random(1 << k, &mut rng);
        let name = format!("full_sequential_k{k}");
        run(
            &name,
            k,
            5,
            Algorithm::FullSequential,
            &perm.to_partial(),
            seed,
        );
        let dst = (0..1 << k)
            .map(|s| rng.gen_bool(0.5).then(|| perm.dst(s)))
            .collect();
        let r = PartialPermutation::new(dst).unwrap();
        let name = format!("full_sequential_k{k}_partial");
        run(&name, k, 5, Algorithm::FullSequential, &r, seed);
        let r = random_semi_contraction(k, &mut seeded(seed));
        let name = format!("semi_sequential_k{k}");
        let router = Some(Router::Sequential);
        run_opts(&name, k, 5, Algorithm::Semi, &r, seed, None, router);
        if k >= 2 {
            run_structured(k, Algorithm::FullSequential, Router::Sequential);
        }
    }
}

#[test]
fn sort_then_pack() {
    // Every pass's records reach each node's delivery register (rx_bit) bit by bit, so
    // the compare-exchanges are checked at every stage they end in, not only by the
    // final placement.
    for k in 1..=3 {
        let seed = 400 + k as u64;
        let mut rng = seeded(seed);
        let n = 1 << k;
        let perm = Permutation::random(n, &mut rng);
        run(
            &format!("sort_k{k}"),
            k,
            5,
            Algorithm::Sort,
            &perm.to_partial(),
            seed,
        );
        if k >= 2 {
            let dst = (0..n)
                .map(|s| rng.gen_bool(0.5).then(|| perm.dst(s)))
                .collect();
            let r = PartialPermutation::new(dst).unwrap();
            run(
                &format!("sort_k{k}_partial"),
                k,
                5,
                Algorithm::Sort,
                &r,
                seed,
            );
            run_structured(k, Algorithm::Sort, Router::Sort);
        }
    }
    let r = random_semi_contraction(4, &mut seeded(9));
    run_opts(
        "semi_sort_k4",
        4,
        5,
        Algorithm::Semi,
        &r,
        9,
        None,
        Some(Router::Sort),
    );
}

#[test]
fn reset_in_the_middle_of_a_run_then_a_clean_run() {
    let perm = Permutation::random(8, &mut seeded(7)).to_partial();
    let alg = Algorithm::Full;
    run_opts("reset_mid_run", 3, 5, alg, &perm, 7, Some(60), None);
    // In the middle of loop 0 (P = max(4, 6) = 6: step 3 runs from t = 7).
    run_opts("reset_mid_pack", 3, 5, alg, &perm, 7, Some(12), None);
}

#[test]
fn a_wrong_expectation_is_reported_with_its_bit_time_node_and_vcd() {
    // The RTL routes payloads `pay`; the expectation is the model's trace of the same
    // routing with node 5's payload changed in bit 2. Semi on a 3-cube: node 5's frame
    // reaches its destination's delivery register with the start bit at phase cycle
    // 2k + 1 = 7 (t = 8), payload bit 2 at t = 8 + 1 + 2 = 11.
    let (k, l) = (3, 5);
    let r = random_semi_contraction(k, &mut seeded(4));
    let pay = payloads(8, l, 4);
    let dest = r.dst(5).expect("node 5 sends in this routing");
    let mut wrong = pay.clone();
    wrong[5] ^= 0b100;
    let p = lcanet_sim::hypercube::CubeParams::new(k, l).unwrap();
    let trace = lcanet_sim::hypercube::cycle::simulate(p, Algorithm::Semi, &r, &wrong).unwrap();
    let dir = artifact_dir!("wrong_expectation").unwrap();
    let opts = CosimOptions {
        verilog_dir: dir.path().join("verilog"),
        vcd_on_mismatch: Some(dir.file("wave.vcd")),
        seed: Some(4),
        ..CosimOptions::default()
    };
    let rep = cosim_against(trace, &r, &pay, &opts).unwrap();
    let m = rep
        .mismatch
        .expect("the comparison catches the wrong payload bit");
    assert_eq!(m.bit_time, 11, "{m}");
    assert_eq!(m.signal, "hypercube_k3_l5.rx_bit", "{m}");
    let node = rep.mismatch_node.expect("a per-node vector names its node");
    assert_eq!((node.port, node.node), ("rx_bit", dest), "{node}");
    let vcd = m.vcd.expect("the traced rerun keeps a VCD");
    let text = std::fs::read_to_string(vcd).unwrap();
    assert!(text.contains("node5") && text.contains("rx_bit"));
}

#[test]
fn the_identity_under_both_algorithms() {
    // Every node keeps its message: Algorithm 1 sends every frame to itself (no dimension
    // crossed), Algorithm 2 crosses nothing, enumerates no doubles and packs nothing.
    for k in 1..=6 {
        let n = 1 << k;
        let id = PartialPermutation::new((0..n).map(Some).collect()).unwrap();
        let seed = 200 + k as u64;
        run(
            &format!("identity_semi_k{k}"),
            k,
            5,
            Algorithm::Semi,
            &id,
            seed,
        );
        run(
            &format!("identity_full_k{k}"),
            k,
            5,
            Algorithm::Full,
            &id,
            seed,
        );
    }
}

/// The 1024-node cube, a random permutation under each router's permutation routing
/// (Algorithm 2 overlapped and sequential, sort-then-pack), each checked against its
/// closed form (a cold build takes one to three minutes per cube on a 2-core machine;
/// `lcanet bench hypercube --k 2..10` builds the same cubes). Opt-in:
/// `cargo test --release -p lcanet-testbench --test hypercube_cosim -- --ignored`.
#[test]
#[ignore = "builds three 1024-node cubes (minutes each, cold)"]
fn a_random_permutation_on_the_1024_node_cube() {
    let k = 10;
    let perm = Permutation::random(1 << k, &mut seeded(1)).to_partial();
    for alg in [Algorithm::Full, Algorithm::FullSequential, Algorithm::Sort] {
        run(&format!("{}_k10", alg.name()), k, 8, alg, &perm, 1);
    }
}

/// The sequential router on k = 4..6: a random permutation and the structured ones each
/// (k = 1..3 in `the_sequential_router_runs_both_algorithms`).
#[test]
fn sequential_router_k4_to_6() {
    larger_cubes(Algorithm::FullSequential, Router::Sequential);
}

/// Sort-then-pack on k = 4..6: a random permutation and the structured ones each (k =
/// 1..3 in `sort_then_pack`).
#[test]
fn sort_router_k4_to_6() {
    larger_cubes(Algorithm::Sort, Router::Sort);
}

fn larger_cubes(alg: Algorithm, router: Router) {
    for k in 4..=6 {
        let seed = 800 + k as u64;
        let perm = Permutation::random(1 << k, &mut seeded(seed)).to_partial();
        let name = format!("{}_random_k{k}", router.name());
        run_opts(&name, k, 5, alg, &perm, seed, None, Some(router));
        run_structured(k, alg, router);
    }
}
