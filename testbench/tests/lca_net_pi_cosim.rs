//! Π-file networks (table-driven route decoders, `docs/protocol.md` §1) co-simulated against
//! the network golden model: two irregular networks (`docs/examples/irregular16.pi`,
//! `docs/examples/skewed8.pi`, neither a tree nor a CB-LCAN) × R1/R2 × every arbiter policy
//! (each network meets both algorithms and all three policies), on random permutations and
//! the identity. The bench compares every output every bit-time, every crosspoint at each
//! set-up end, and the pass-level result against `routing::route`. One Verilator build per
//! network and generation parameters, shared by all its stimuli.

use lcanet_hdl::lca_net::{NetSpec, Structure};
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::Topology;
use lcanet_testbench::artifact_dir;
use lcanet_testbench::lca_net::{NetBench, NetBuild, PermKind, Stimulus};

const IRREGULAR16: &str = include_str!("../../docs/examples/irregular16.pi");
const SKEWED8: &str = include_str!("../../docs/examples/skewed8.pi");

fn pi(text: &str) -> Topology {
    Topology::from_pi_text(text).unwrap()
}

/// Builds the network once; runs the identity and a random permutation per seed. Names
/// ending in `_rows` write the switches as rows (one module per level), the others as
/// instances.
fn cosim(name: &str, topo: Topology, alg: Algorithm, pol: ArbiterPolicy, seeds: &[u64]) {
    let m = 4;
    let structure = if name.ends_with("_rows") {
        Structure::Rows
    } else {
        Structure::Instances
    };
    let spec = NetSpec::new(topo.clone(), alg, pol, 1, m)
        .unwrap()
        .with_structure(structure);
    let dir = artifact_dir!(name.to_string()).unwrap();
    let bench = NetBench::build(spec, &dir.file("rtl"), NetBuild::quick())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut runs = vec![(PermKind::Identity, seeds[0])];
    runs.extend(seeds.iter().map(|&s| (PermKind::Random, s)));
    let mut multi_pass = false;
    for (kind, seed) in runs {
        let stim = Stimulus::new(&topo, &kind, m, seed).unwrap();
        let vcd = dir.file(&format!("fail_{kind:?}_{seed}.vcd"));
        let r = bench.run(&stim, None, Some(&vcd), None).unwrap();
        assert!(r.matched(), "{name} {kind:?}: {}", r.failure_text());
        multi_pass |= r.passes > 1;
        eprintln!(
            "{name} {kind:?} seed {seed}: {} passes (H = {:?}), {} bit-times",
            r.passes, r.top_levels, r.bit_times
        );
    }
    assert!(
        multi_pass,
        "{name}: no stimulus needed a second pass (contention untested)"
    );
}

use Algorithm::{R1, R2};
use ArbiterPolicy::{Fixed, Random, RoundRobin};

#[test]
fn pi_irregular16_r1_fixed() {
    cosim(
        "pi_irregular16_r1_fixed",
        pi(IRREGULAR16),
        R1,
        Fixed,
        &[1, 2],
    );
}

#[test]
fn pi_irregular16_r1_random_rows() {
    cosim(
        "pi_irregular16_r1_random_rows",
        pi(IRREGULAR16),
        R1,
        Random,
        &[3, 4],
    );
}

#[test]
fn pi_irregular16_r2_rr() {
    cosim(
        "pi_irregular16_r2_rr",
        pi(IRREGULAR16),
        R2,
        RoundRobin,
        &[5, 6],
    );
}

#[test]
fn pi_skewed8_r1_rr() {
    cosim("pi_skewed8_r1_rr", pi(SKEWED8), R1, RoundRobin, &[7, 8, 9]);
}

#[test]
fn pi_skewed8_r2_fixed_rows() {
    cosim(
        "pi_skewed8_r2_fixed_rows",
        pi(SKEWED8),
        R2,
        Fixed,
        &[10, 11, 12],
    );
}

#[test]
fn pi_skewed8_r2_random() {
    cosim(
        "pi_skewed8_r2_random",
        pi(SKEWED8),
        R2,
        Random,
        &[13, 14, 15, 16, 17, 18],
    );
}
