//! R3 networks (`docs/interface.md` §11: the schedule loaded at start, source-routed set-up
//! through R3 switches, `docs/protocol.md` §12) co-simulated against the network golden
//! model bit-time by bit-time: every output port every bit-time, every crosspoint vector at
//! each pass's set-up end, the pass-level result against `routing::route(.., R3)`, and every
//! connection delivered exactly once with its message (against the permutation). Every
//! topology kind: T-LCAN, CB-LCAN, Π file; instances and rows; W = 1 and 2. CB(2,2) n = 256
//! and n = 1,024 are opt-in (`#[ignore]`).

use lcanet_hdl::lca_net::{NetSpec, Structure};
use lcanet_sim::lcan::cycle::network::Mutation;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::lca_net::{NetBench, NetBuild, PermKind, Stimulus};

const IRREGULAR16: &str = include_str!("../../docs/examples/irregular16.pi");

/// Builds the R3 network once and runs `kinds` × `seeds`; returns (passes, bit-times) of
/// every run.
fn cosim(
    name: &str,
    topo: Topology,
    w: usize,
    m: usize,
    kinds: &[PermKind],
    seeds: &[u64],
    structure: Structure,
) -> Vec<(u64, u64)> {
    let spec = NetSpec::new(topo.clone(), Algorithm::R3, ArbiterPolicy::Fixed, w, m)
        .unwrap()
        .with_structure(structure);
    let dir = artifact_dir!(name.to_string()).unwrap();
    let bench = NetBench::build(spec, &dir.file("rtl"), NetBuild::quick())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut out = Vec::new();
    for kind in kinds {
        for &seed in seeds {
            let stim = Stimulus::new(&topo, kind, m, seed).unwrap();
            let vcd = dir.file(&format!("fail_{kind:?}_{seed}.vcd"));
            let r = bench.run(&stim, None, Some(&vcd), None).unwrap();
            assert!(r.matched(), "{name} {kind:?}: {}", r.failure_text());
            eprintln!(
                "{name} {kind:?} seed {seed}: {} passes (H = {:?}), {} bit-times",
                r.passes, r.top_levels, r.bit_times
            );
            out.push((r.passes, r.bit_times));
        }
    }
    out
}

const ALL: [PermKind; 3] = [PermKind::Random, PermKind::Identity, PermKind::WorstCase];

#[test]
fn r3_tree_d2_u1_l3() {
    let runs = cosim(
        "r3_tree_d2_u1_l3",
        Topology::tree(2, 1, Size::Levels(3)).unwrap(),
        1,
        4,
        &ALL,
        &[1, 2],
        Structure::Instances,
    );
    assert!(runs.iter().any(|&(p, _)| p > 1), "several passes exercised");
}

#[test]
fn r3_tree_d4_u2_l2_w2_rows() {
    cosim(
        "r3_tree_d4_u2_l2_w2_rows",
        Topology::tree(4, 2, Size::Levels(2)).unwrap(),
        2,
        5,
        &ALL,
        &[3],
        Structure::Rows,
    );
}

#[test]
fn r3_cb_d2_u2_l3_one_pass() {
    let runs = cosim(
        "r3_cb_d2_u2_l3",
        Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap(),
        1,
        8,
        &ALL,
        &[4, 5],
        Structure::Instances,
    );
    assert!(runs.iter().all(|&(p, _)| p == 1), "CB(2,2): one pass");
}

#[test]
fn r3_cb_d3_u2_l2_rows() {
    // u < d: several passes; radix 3 (label conversion in hardware), f = 3.
    cosim(
        "r3_cb_d3_u2_l2_rows",
        Topology::complete_bipartite(3, 2, Size::Levels(2)).unwrap(),
        1,
        4,
        &ALL,
        &[6],
        Structure::Rows,
    );
}

#[test]
fn r3_pi_irregular16() {
    cosim(
        "r3_pi_irregular16",
        Topology::from_pi_text(IRREGULAR16).unwrap(),
        1,
        4,
        &[PermKind::Random, PermKind::Identity],
        &[7, 8],
        Structure::Instances,
    );
}

/// The co-simulation catches an injected bug in an R3 run (a flipped output bit, two
/// destinations swapped).
#[test]
fn r3_injected_bugs_are_caught() {
    let topo = Topology::complete_bipartite(2, 2, Size::Levels(2)).unwrap();
    let spec = NetSpec::new(topo.clone(), Algorithm::R3, ArbiterPolicy::Fixed, 1, 4).unwrap();
    let dir = artifact_dir!("r3_injected".to_string()).unwrap();
    let bench = NetBench::build(spec, &dir.file("rtl"), NetBuild::quick()).unwrap();
    let stim = Stimulus::new(&topo, &PermKind::Random, 4, 9).unwrap();
    for mutation in [
        Mutation::FlipOutput {
            port: 4,
            bit: 0,
            bit_time: 20,
        },
        Mutation::SwapDestinations { a: 0, b: 1 },
    ] {
        let r = bench
            .run(&stim, None, None, Some(mutation.clone()))
            .unwrap();
        assert!(!r.matched(), "{mutation:?} was not caught");
    }
}

/// CB-LCAN(2,2) n = 256: one pass, 75 bit-times (docs/interface.md §11.4). Opt-in.
#[test]
#[ignore]
fn r3_cb_d2_u2_n256() {
    let runs = cosim(
        "r3_cb_d2_u2_n256",
        Topology::complete_bipartite(2, 2, Size::Levels(8)).unwrap(),
        1,
        8,
        &[PermKind::Random],
        &[1, 2, 3],
        Structure::Rows,
    );
    assert!(runs.iter().all(|&r| r == (1, 75)), "{runs:?}");
}

/// CB-LCAN(2,2) n = 1,024: one pass, 8·10 + 8 + 3 = 91 bit-times. Opt-in.
#[test]
#[ignore]
fn r3_cb_d2_u2_n1024() {
    let runs = cosim(
        "r3_cb_d2_u2_n1024",
        Topology::complete_bipartite(2, 2, Size::Levels(10)).unwrap(),
        1,
        8,
        &[PermKind::Random],
        &[1],
        Structure::Rows,
    );
    assert!(runs.iter().all(|&r| r == (1, 91)), "{runs:?}");
}
