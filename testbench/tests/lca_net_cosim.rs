//! Whole networks co-simulated against the network golden model: every topology kind ×
//! R1/R2 × every arbiter policy on random, identity and 002's worst-case permutations, one
//! Verilator build per network shared by all its stimuli.

use lcanet_hdl::lca_net::NetSpec;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::lca::BuildSpeed;
use lcanet_testbench::lca_net::{NetBench, PermKind, Stimulus};

/// Builds the network once and runs every permutation kind with `seeds` seeds each.
fn cosim(
    name: &str,
    topo: Topology,
    alg: Algorithm,
    pol: ArbiterPolicy,
    w: usize,
    m: usize,
    seeds: &[u64],
) {
    let spec = NetSpec::new(topo.clone(), alg, pol, w, m).unwrap();
    let dir = artifact_dir!(name.to_string()).unwrap();
    let bench = NetBench::build(spec, &dir.file("rtl"), BuildSpeed::QuickBuild)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    for kind in [PermKind::Random, PermKind::Identity, PermKind::WorstCase] {
        for &seed in seeds {
            let stim = Stimulus::new(&topo, &kind, m, seed).unwrap();
            let vcd = dir.file(&format!("fail_{kind:?}_{seed}.vcd"));
            let r = bench.run(&stim, None, Some(&vcd), None).unwrap();
            assert!(r.matched(), "{name} {kind:?}: {}", r.failure_text());
            eprintln!(
                "{name} {kind:?} seed {seed}: {} passes, {} bit-times, {:.0} bit-times/s",
                r.passes,
                r.bit_times,
                r.simulated as f64 / r.run_seconds
            );
        }
    }
}

#[test]
fn tree_d2_u1_l2_r1_fixed() {
    cosim(
        "tree_d2_u1_l2_r1_fixed",
        Topology::tree(2, 1, Size::Levels(2)).unwrap(),
        Algorithm::R1,
        ArbiterPolicy::Fixed,
        1,
        2,
        &[1, 2],
    );
}
