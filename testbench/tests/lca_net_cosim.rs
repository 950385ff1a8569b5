//! Whole networks co-simulated against the network golden model: every topology kind ×
//! R1/R2 × every arbiter policy on random, identity and 002's worst-case permutations, one
//! Verilator build per network shared by all its stimuli. Half of the networks are written
//! with their switches as instances, half as rows (`Structure`), so each kind, algorithm and
//! policy meets both.

use lcanet_hdl::lca_net::{NetSpec, Structure};
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::lca_net::{NetBench, NetBuild, PermKind, Stimulus};

/// Builds the network once (its switches written as `structure`) and runs every
/// permutation kind with `seeds` seeds each.
#[allow(clippy::too_many_arguments)]
fn cosim(
    name: &str,
    topo: Topology,
    alg: Algorithm,
    pol: ArbiterPolicy,
    w: usize,
    m: usize,
    seeds: &[u64],
    structure: Structure,
) {
    let spec = NetSpec::new(topo.clone(), alg, pol, w, m)
        .unwrap()
        .with_structure(structure);
    let dir = artifact_dir!(name.to_string()).unwrap();
    let bench = NetBench::build(spec, &dir.file("rtl"), NetBuild::quick())
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

use Algorithm::{R1, R2};
use ArbiterPolicy::{Fixed, Random, RoundRobin};

fn tree(d: usize, u: usize, l: usize) -> Topology {
    Topology::tree(d, u, Size::Levels(l)).unwrap()
}

fn cb(d: usize, u: usize, l: usize) -> Topology {
    Topology::complete_bipartite(d, u, Size::Levels(l)).unwrap()
}

// T-LCAN: (2,1,3) n = 8 and (4,2,2) n = 8 (d > 2, u > 1); CB-LCAN: (2,2,3) n = 8 and
// (3,3,2) n = 9 (d > 2, u > 1, label conversion in hardware: radix 3). Each kind × algorithm
// × policy once, the two parameter sets of a kind alternating, so each kind, algorithm and
// policy meets both; one network has W = 2.

#[test]
fn tree_d2_u1_l3_r1_fixed() {
    cosim(
        "tree_d2_u1_l3_r1_fixed",
        tree(2, 1, 3),
        R1,
        Fixed,
        1,
        4,
        &[1, 2],
        Structure::Instances,
    );
}

#[test]
fn tree_d4_u2_l2_r1_rr_rows() {
    cosim(
        "tree_d4_u2_l2_r1_rr_rows",
        tree(4, 2, 2),
        R1,
        RoundRobin,
        1,
        4,
        &[3, 4],
        Structure::Rows,
    );
}

#[test]
fn tree_d2_u1_l3_r1_random() {
    cosim(
        "tree_d2_u1_l3_r1_random",
        tree(2, 1, 3),
        R1,
        Random,
        1,
        4,
        &[5, 6],
        Structure::Instances,
    );
}

#[test]
fn tree_d4_u2_l2_r2_fixed() {
    cosim(
        "tree_d4_u2_l2_r2_fixed",
        tree(4, 2, 2),
        R2,
        Fixed,
        1,
        4,
        &[7, 8],
        Structure::Instances,
    );
}

#[test]
fn tree_d2_u1_l3_r2_rr_w2_rows() {
    cosim(
        "tree_d2_u1_l3_r2_rr_w2_rows",
        tree(2, 1, 3),
        R2,
        RoundRobin,
        2,
        5,
        &[9, 10],
        Structure::Rows,
    );
}

#[test]
fn tree_d4_u2_l2_r2_random_rows() {
    cosim(
        "tree_d4_u2_l2_r2_random_rows",
        tree(4, 2, 2),
        R2,
        Random,
        1,
        4,
        &[11, 12],
        Structure::Rows,
    );
}

#[test]
fn cb_d2_u2_l3_r1_fixed() {
    cosim(
        "cb_d2_u2_l3_r1_fixed",
        cb(2, 2, 3),
        R1,
        Fixed,
        1,
        4,
        &[13, 14],
        Structure::Instances,
    );
}

#[test]
fn cb_d3_u3_l2_r1_rr_rows() {
    cosim(
        "cb_d3_u3_l2_r1_rr_rows",
        cb(3, 3, 2),
        R1,
        RoundRobin,
        1,
        3,
        &[15, 16],
        Structure::Rows,
    );
}

#[test]
fn cb_d2_u2_l3_r1_random_rows() {
    cosim(
        "cb_d2_u2_l3_r1_random_rows",
        cb(2, 2, 3),
        R1,
        Random,
        1,
        4,
        &[17, 18],
        Structure::Rows,
    );
}

#[test]
fn cb_d3_u3_l2_r2_fixed() {
    cosim(
        "cb_d3_u3_l2_r2_fixed",
        cb(3, 3, 2),
        R2,
        Fixed,
        1,
        3,
        &[19, 20],
        Structure::Instances,
    );
}

#[test]
fn cb_d2_u2_l3_r2_rr() {
    cosim(
        "cb_d2_u2_l3_r2_rr",
        cb(2, 2, 3),
        R2,
        RoundRobin,
        1,
        4,
        &[21, 22],
        Structure::Instances,
    );
}

#[test]
fn cb_d3_u3_l2_r2_random_rows() {
    cosim(
        "cb_d3_u3_l2_r2_random_rows",
        cb(3, 3, 2),
        R2,
        Random,
        1,
        3,
        &[23, 24],
        Structure::Rows,
    );
}

/// The PE interfaces written as rows (issue 35): with `Structure::Rows` the network's PEs
/// are one instance `pe` of the PE module replicated as `n` rows, its outputs computed in a
/// combinational loop (`hot` bit-major = `pe_hot`), and every output and crosspoint matches
/// the golden model at every bit-time — here with `n = 9` (a range check that is logic),
/// label conversion (radix 3) and `W = 2` (an acknowledgement on either lane).
#[test]
fn cb_d3_u3_l2_r2_fixed_w2_pe_rows() {
    let spec = NetSpec::new(cb(3, 3, 2), R2, Fixed, 2, 3)
        .unwrap()
        .with_structure(Structure::Rows);
    let design = lcanet_hdl::lca_net::network_design(&spec).unwrap();
    let top = design.module(design.top()).unwrap();
    let pes: Vec<(&str, &str)> = top
        .body
        .instances()
        .filter(|i| i.module.contains("_pe"))
        .map(|i| (i.name.as_str(), i.module.as_str()))
        .collect();
    let rows = format!("{}_x9", spec.pe_module_name());
    assert_eq!(pes, vec![("pe", rows.as_str())]);
    cosim(
        "cb_d3_u3_l2_r2_fixed_w2_pe_rows",
        cb(3, 3, 2),
        R2,
        Fixed,
        2,
        3,
        &[23, 24],
        Structure::Rows,
    );
}

/// An injected bug in the golden model is caught, at the right bit-time and signal, with the
/// VCD kept.
#[test]
fn injected_bugs_are_caught() {
    use lcanet_sim::lcan::cycle::network::Mutation;
    use lcanet_testbench::lca_net::NetVerdict;
    let topo = tree(2, 1, 3);
    let spec = NetSpec::new(topo.clone(), R1, Fixed, 1, 4).unwrap();
    let dir = artifact_dir!("injected_bugs").unwrap();
    let bench = NetBench::build(spec, &dir.file("rtl"), NetBuild::quick()).unwrap();
    let stim = Stimulus::new(&topo, &PermKind::Random, 4, 1).unwrap();
    let ports = lcanet_sim::lcan::cycle::network::NetworkModel::new(
        &topo,
        &bench.spec.net,
        &stim.destinations(),
        &stim.messages,
        1,
    )
    .unwrap()
    .output_ports();
    let port = ports.iter().position(|p| p.name == "valid").unwrap();
    let flip = Mutation::FlipOutput {
        port,
        bit: 2,
        bit_time: 20,
    };
    let vcd = dir.file("flip.vcd");
    let r = bench.run(&stim, None, Some(&vcd), Some(flip)).unwrap();
    match &r.verdict {
        NetVerdict::Mismatch(m) => {
            assert_eq!(m.bit_time, 20, "{m}");
            assert!(m.signal.contains(".valid"), "{m}");
            assert!(m.signal.ends_with("(first differing PE: 2)"), "{m}");
            assert_eq!(m.vcd.as_deref(), Some(vcd.as_path()), "{m}");
            assert!(vcd.exists());
        }
        other => panic!("flipped output not caught: {other:?}"),
    }
    let swap = Mutation::SwapDestinations { a: 0, b: 1 };
    let r = bench.run(&stim, None, None, Some(swap)).unwrap();
    assert!(
        matches!(r.verdict, NetVerdict::Mismatch(_)),
        "swapped destinations not caught: {:?}",
        r.verdict
    );
}
