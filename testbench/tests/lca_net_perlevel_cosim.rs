//! Networks whose switch sizes vary by level (002 §2.2, issue 17 item 1) co-simulated
//! against the network golden model, bit-time by bit-time: a binary fat-tree (a per-level
//! T-LCAN), CB-LCANs with per-level sizes (one with a radix-3 digit: label conversion in
//! hardware), a per-level Π file, under R1, R2 and R3, as instances and as rows, and the
//! chunked fast set-up; an injected bug is caught. Opt-in (`#[ignore]`): two more small
//! networks, and the fat-tree and the CM-5 network at n = 1,024:
//! `cargo test --release -p lcanet-testbench --test lca_net_perlevel_cosim -- --ignored`.

use lcanet_hdl::lca_net::{NetSpec, Structure};
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::Topology;
use lcanet_testbench::artifact_dir;
use lcanet_testbench::lca_net::{NetBench, NetBuild, PermKind, Stimulus};

use Algorithm::{R1, R2, R3};
use ArbiterPolicy::{Fixed, Random, RoundRobin};

/// Builds the network once and runs every permutation kind with `seeds`; returns the
/// `(passes, bit-times)` of every run.
#[allow(clippy::too_many_arguments)]
fn cosim(
    name: &str,
    topo: Topology,
    alg: Algorithm,
    pol: ArbiterPolicy,
    w: usize,
    m: usize,
    kinds: &[PermKind],
    seeds: &[u64],
    how: NetBuild,
    structure: Structure,
) -> Vec<(u64, u64)> {
    let spec = NetSpec::new(topo.clone(), alg, pol, w, m)
        .unwrap()
        .with_structure(structure);
    let dir = artifact_dir!(name.to_string()).unwrap();
    let t0 = std::time::Instant::now();
    let bench =
        NetBench::build(spec, &dir.file("rtl"), how).unwrap_or_else(|e| panic!("{name}: {e}"));
    eprintln!("{name}: built in {:.1} s", t0.elapsed().as_secs_f64());
    let mut out = Vec::new();
    for kind in kinds {
        for &seed in seeds {
            let stim = Stimulus::new(&topo, kind, m, seed).unwrap();
            let vcd = dir.file(&format!("fail_{kind:?}_{seed}.vcd"));
            let r = bench.run(&stim, None, Some(&vcd), None).unwrap();
            assert!(r.matched(), "{name} {kind:?}: {}", r.failure_text());
            eprintln!(
                "{name} {kind:?} seed {seed}: {} passes, {} bit-times, {:.0} bit-times/s",
                r.passes,
                r.bit_times,
                r.simulated as f64 / r.run_seconds
            );
            out.push((r.passes, r.bit_times));
        }
    }
    out
}

const ALL: [PermKind; 3] = [PermKind::Random, PermKind::Identity, PermKind::WorstCase];

fn tree(ds: &[usize], us: &[usize]) -> Topology {
    Topology::tree_per_level(ds, us).unwrap()
}

fn cb(ds: &[usize], us: &[usize]) -> Topology {
    Topology::complete_bipartite_per_level(ds, us).unwrap()
}

/// Leiserson's binary fat-tree, n = 8: capacities 2, 4 (d = [2, 4, 8], u = [2, 4, 8]),
/// three distinct switch modules; R1, round-robin, as instances.
#[test]
fn fat_tree_l3_r1_rr() {
    cosim(
        "perlevel_fat_tree_l3_r1_rr",
        tree(&[2, 4, 8], &[2, 4, 8]),
        R1,
        RoundRobin,
        1,
        4,
        &ALL,
        &[1, 2],
        NetBuild::quick(),
        Structure::Instances,
    );
}

/// A CB-LCAN with a radix-3 level (d = [3, 2, 2], u = [2, 2, 2], n = 12: label
/// conversion), R2 with random arbiters, W = 2, as rows: levels 1 and 2 have one shape and
/// are one rows instance (`lvl1_to_2`, `level` a row port).
#[test]
fn cb_d3x2x2_u2_r2_random_w2_rows() {
    cosim(
        "perlevel_cb_d3x2x2_u2_r2_random_w2_rows",
        cb(&[3, 2, 2], &[2, 2, 2]),
        R2,
        Random,
        2,
        5,
        &ALL,
        &[3],
        NetBuild::quick(),
        Structure::Rows,
    );
}

/// A per-level thinning tree (d = [2, 2, 4, 4], u = [1, 2, 2, 2], n = 16) under R3, with
/// its one route field width for every level, as rows (levels 2 and 3 one instance).
#[test]
fn tree_r3_rows() {
    cosim(
        "perlevel_tree_d2x2x4x4_u1x2x2x2_r3_rows",
        tree(&[2, 2, 4, 4], &[1, 2, 2, 2]),
        R3,
        Fixed,
        1,
        4,
        &[PermKind::Random, PermKind::WorstCase],
        &[5],
        NetBuild::quick(),
        Structure::Rows,
    );
}

/// Opt-in (two more builds): the CM-5's shape in small (d = [2, 2, 2], u = [1, 1, 2]: thin
/// bottom levels under a full top), R1 with fixed priority; and a CB-LCAN with u_i ≥ d_i
/// below the top under R3, one pass on every permutation in hardware too.
#[test]
#[ignore]
fn cb_thin_bottom_r1_fixed_and_cb_r3_one_pass() {
    cosim(
        "perlevel_cb_d2_u1x1x2_r1_fixed",
        cb(&[2, 2, 2], &[1, 1, 2]),
        R1,
        Fixed,
        1,
        3,
        &ALL,
        &[4],
        NetBuild::quick(),
        Structure::Instances,
    );
    let runs = cosim(
        "perlevel_cb_d2x2x2_u2x2x1_r3",
        cb(&[2, 2, 2], &[2, 2, 1]),
        R3,
        Fixed,
        1,
        4,
        &[PermKind::Random, PermKind::WorstCase],
        &[7],
        NetBuild::quick(),
        Structure::Instances,
    );
    assert!(runs.iter().all(|&(p, _)| p == 1), "{runs:?}");
}

/// A per-level Π file (the ROM module of every switch has its level's shape), R2,
/// round-robin.
#[test]
fn pi_per_level_r2_rr() {
    let t = cb(&[2, 2, 2], &[2, 2, 1]);
    let pi = Topology::from_pi_text(&t.to_pi_text()).unwrap();
    cosim(
        "perlevel_pi_d2_u2x2x1_r2_rr",
        pi,
        R2,
        RoundRobin,
        1,
        4,
        &[PermKind::Random, PermKind::WorstCase],
        &[6],
        NetBuild::quick(),
        Structure::Instances,
    );
}

/// The fast set-up with two decisions per bit-time: the levels' arbitration windows differ
/// (`K = ⌈slots/M⌉ − 1` per switch shape) and a step lasts the longest; same grants.
#[test]
fn fat_tree_l3_r1_fast2() {
    use lcanet_sim::lcan::cycle::SetupMode;
    let topo = tree(&[2, 4, 8], &[2, 4, 8]);
    let spec = NetSpec::new(topo.clone(), R1, RoundRobin, 1, 4)
        .unwrap()
        .with_setup(SetupMode::Chunked(2))
        .unwrap();
    let dir = artifact_dir!("perlevel_fat_tree_l3_r1_fast2").unwrap();
    let bench = NetBench::build(spec, &dir.file("rtl"), NetBuild::quick()).unwrap();
    for kind in [PermKind::Random, PermKind::WorstCase] {
        let stim = Stimulus::new(&topo, &kind, 4, 8).unwrap();
        let r = bench
            .run(&stim, None, Some(&dir.file("fail.vcd")), None)
            .unwrap();
        assert!(r.matched(), "{kind:?}: {}", r.failure_text());
    }
}

/// An injected bug in the golden model of a per-level network is caught (the network of
/// `fat_tree_l3_r1_rr`: its build is cached).
#[test]
fn injected_bug_is_caught_on_a_per_level_network() {
    use lcanet_sim::lcan::cycle::network::Mutation;
    use lcanet_testbench::lca_net::NetVerdict;
    let topo = tree(&[2, 4, 8], &[2, 4, 8]);
    let spec = NetSpec::new(topo.clone(), R1, RoundRobin, 1, 4).unwrap();
    let dir = artifact_dir!("perlevel_injected_bug").unwrap();
    let bench = NetBench::build(spec, &dir.file("rtl"), NetBuild::quick()).unwrap();
    let stim = Stimulus::new(&topo, &PermKind::Random, 4, 1).unwrap();
    let r = bench
        .run(
            &stim,
            None,
            None,
            Some(Mutation::SwapDestinations { a: 0, b: 5 }),
        )
        .unwrap();
    assert!(
        matches!(r.verdict, NetVerdict::Mismatch(_)),
        "swapped destinations not caught: {:?}",
        r.verdict
    );
}

/// n = 1,024, opt-in: Leiserson's fat-tree (`--topology fat-tree --levels 10`, capacities
/// 2, 4, 8, 8, …: 1,023 switches of three shapes) and the CM-5 network (`--topology cm5 --n
/// 1024`: 576 switches of two shapes), R1, round-robin, as rows, one random permutation.
#[test]
#[ignore]
fn fat_tree_and_cm5_n1024() {
    let (ds, us) = (
        [2, 4, 8, 16, 16, 16, 16, 16, 16, 16],
        [2, 4, 8, 8, 8, 8, 8, 8, 8, 8],
    );
    cosim(
        "perlevel_fat_tree_n1024_r1_rr",
        tree(&ds, &us),
        R1,
        RoundRobin,
        1,
        8,
        &[PermKind::Random],
        &[1],
        NetBuild::auto(false),
        Structure::Rows,
    );
    cosim(
        "perlevel_cm5_n1024_r1_rr",
        cb(&[4; 5], &[2, 2, 4, 4, 4]),
        R1,
        RoundRobin,
        1,
        8,
        &[PermKind::Random],
        &[1],
        NetBuild::auto(false),
        Structure::Rows,
    );
}
