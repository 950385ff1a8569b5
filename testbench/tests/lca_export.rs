//! The exported self-checking test bench of a whole network runs in Icarus Verilog with no
//! Rust and prints PASS; with a mutated expectation (one flipped predicted bit, or two
//! mis-routed connections in the golden model) it prints FAIL.

use lcanet_hdl::lca_net::{NetSpec, Structure};
use lcanet_sim::lcan::cycle::network::Mutation;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::lca_export::export_network;
use lcanet_testbench::tbwriter::{run_testbench, TbOutcome};

fn run(
    spec: &NetSpec,
    dst: &[Option<usize>],
    seed: u64,
    mutation: Option<Mutation>,
    tag: &str,
) -> TbOutcome {
    let dir = artifact_dir!(format!("lca_export_{tag}")).unwrap();
    let ex = export_network(spec, dst, seed, mutation, 3, 100_000, dir.path()).unwrap();
    assert!(!ex.bench.error);
    let out = run_testbench(&ex.testbench).unwrap();
    // The directory is relocatable: run.sh names the design files relative to itself.
    let script = std::fs::read_to_string(dir.file("run.sh")).unwrap();
    assert!(!script.contains(&dir.path().display().to_string()));
    out
}

fn tree_spec(policy: ArbiterPolicy) -> NetSpec {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    NetSpec::new(topo, Algorithm::R1, policy, 1, 4).unwrap()
}

#[test]
fn exported_bench_passes_in_icarus_and_catches_mutations() {
    let spec = tree_spec(ArbiterPolicy::RoundRobin);
    let dst = [Some(2), Some(3), Some(0), Some(1)];
    let good = run(&spec, &dst, 9, None, "good");
    assert!(good.passed(), "{}", good.stdout);
    assert!(good.stdout.contains("PASS"), "{}", good.stdout);

    // One predicted bit flipped: bit 0 of `sent` (output port 6) at bit-time 40.
    let flip = Mutation::FlipOutput {
        port: 6,
        bit: 0,
        bit_time: 40,
    };
    let bad = run(&spec, &dst, 9, Some(flip), "flip");
    assert!(!bad.passed(), "{}", bad.stdout);
    assert!(
        bad.stdout
            .contains("FAIL bit-time 39 signal lcan_tree_d2_u1_l2_w1_m4_r1_rr.sent"),
        "{}",
        bad.stdout
    );

    // Two connections mis-routed in the golden model.
    let swap = Mutation::SwapDestinations { a: 0, b: 1 };
    let bad = run(&spec, &dst, 9, Some(swap), "swap");
    assert!(!bad.passed(), "{}", bad.stdout);
}

/// CB-LCAN with random arbiters, its switches written as rows (one module per level, a
/// `for` loop over the switches with temporaries) — the loop in Icarus.
#[test]
fn exported_bench_passes_for_cb_with_random_arbiters_as_rows() {
    let topo = Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap();
    let spec = NetSpec::new(topo, Algorithm::R1, ArbiterPolicy::Random, 1, 3)
        .unwrap()
        .with_structure(Structure::Rows);
    let dst: Vec<Option<usize>> = [5, 2, 7, 0, 1, 6, 3, 4].iter().map(|&d| Some(d)).collect();
    let out = run(&spec, &dst, 17, None, "cb");
    assert!(out.passed(), "{}", out.stdout);
}

/// R2 networks (the `PROBE` mode in Icarus).
#[test]
fn exported_bench_passes_for_r2() {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let spec = NetSpec::new(topo, Algorithm::R2, ArbiterPolicy::Fixed, 1, 4).unwrap();
    let dst = [Some(2), Some(3), Some(0), Some(1)];
    let out = run(&spec, &dst, 3, None, "r2");
    assert!(out.passed(), "{}", out.stdout);
}

/// R2 on a CB-LCAN with round-robin arbiters (three levels, so the `PROBE` mode runs in
/// switches at every level).
#[test]
fn exported_bench_passes_for_cb_r2() {
    let topo = Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap();
    let spec = NetSpec::new(topo, Algorithm::R2, ArbiterPolicy::RoundRobin, 1, 3).unwrap();
    let dst: Vec<Option<usize>> = [5, 2, 7, 0, 1, 6, 3, 4].iter().map(|&d| Some(d)).collect();
    let out = run(&spec, &dst, 1, None, "cb_r2");
    assert!(out.passed(), "{}", out.stdout);
}
