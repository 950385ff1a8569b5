//! The fast set-up (`docs/protocol.md` §13) co-simulated bit-time by bit-time against the
//! golden model: lone switches (tree, cb, Π tables; every policy) under random legal
//! traffic whose set-up steps are as short as `T = n(P) + 1` — outputs, crosspoints,
//! winners, arbiter state and every commit's outcome compared — and whole networks (tree,
//! cb, Π; R1 and R2 × every policy, each kind meeting two of the six) on random, identity
//! and worst-case permutations. Each network run also checks that the fast network routes
//! in exactly the passes (and top levels) of the sequential golden model for the same
//! stimulus, in fewer bit-times.

use lcanet_hdl::lca_net::{NetSpec, Structure};
use lcanet_sim::lcan::cycle::network::{NetParams, NetworkModel};
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SetupMode, SwitchParams, SwitchTopology};
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::bridge::Optimize;
use lcanet_testbench::lca::{run_switch_cosim, CosimConfig, TableSwitch, Verdict};
use lcanet_testbench::lca_net::{NetBench, NetBuild, PermKind, Stimulus};

const POLICIES: [ArbiterPolicy; 3] = [
    ArbiterPolicy::Fixed,
    ArbiterPolicy::RoundRobin,
    ArbiterPolicy::Random,
];

/// One fast switch run of 4000 bit-times; returns its rejections.
fn switch(params: SwitchParams, level: u8, seed: u64, table: Option<TableSwitch>) -> u64 {
    switch_with(params, SetupMode::Fast, level, seed, table)
}

/// One run of 4000 bit-times with set-up `setup`; returns its rejections.
fn switch_with(
    params: SwitchParams,
    setup: SetupMode,
    level: u8,
    seed: u64,
    table: Option<TableSwitch>,
) -> u64 {
    let params = params.with_setup(setup).unwrap();
    let tag = match setup {
        SetupMode::Chunked(m) => format!("fast{m}"),
        _ => "fast".to_string(),
    };
    let name = format!(
        "{tag}_{}_d{}_u{}_w{}_l{}_{}_lv{level}_s{seed}",
        params.topology, params.d, params.u, params.width, params.levels, params.policy
    );
    let dir = artifact_dir!(name).unwrap();
    let cfg = CosimConfig {
        params,
        level,
        salt_up: (seed as u16) ^ 0x5A5A,
        salt_dn: (seed as u16) ^ 0xA5A5,
        seed,
        bit_times: 4000,
        vcd: None,
        failure_vcd: Some(dir.file("wave.vcd")),
        optimize: Optimize::Quick,
        table,
    };
    let report = run_switch_cosim(&cfg, &dir.file("rtl")).unwrap_or_else(|e| panic!("{name}: {e}"));
    match report.verdict {
        Verdict::Match => {}
        Verdict::Mismatch(m) => panic!("{name}:\n{m:?}"),
        Verdict::Invariant(v) => panic!(
            "{name}: invariant broken at bit-time {}: {} (seed {}, VCD {:?})",
            v.bit_time, v.what, v.seed, v.vcd
        ),
    }
    assert!(
        report.commits > 20,
        "{name}: only {} commits",
        report.commits
    );
    assert!(
        report.grants > 0,
        "{name}: the traffic never reached the arbiters"
    );
    report.rejections
}

/// Every shape with one policy each (every policy met): 4 builds.
#[test]
fn fast_switches_match_the_golden_model() {
    fast_switches(false);
}

/// Every shape × every policy: 12 builds.
/// `cargo test -p lcanet-testbench --test lca_fast_cosim -- --ignored`.
#[test]
#[ignore = "opt-in: every shape × policy (12 builds); the default run covers each shape and each policy once"]
fn fast_switches_every_shape_and_policy() {
    fast_switches(true);
}

fn fast_switches(every: bool) {
    let mut rejections = 0;
    for (i, policy) in POLICIES.into_iter().enumerate() {
        for (j, (d, u, w, topology)) in [
            (2, 1, 1, SwitchTopology::Tree),
            (4, 2, 1, SwitchTopology::Tree),
            (2, 2, 1, SwitchTopology::Cb),
            (4, 4, 2, SwitchTopology::Cb),
        ]
        .into_iter()
        .enumerate()
        {
            if !every && (i + j) % 3 != 0 {
                continue;
            }
            let params = SwitchParams::new(d, u, w, 3, topology, policy).unwrap();
            rejections += switch(
                params,
                ((i + j) % 3) as u8,
                900 + 10 * i as u64 + j as u64,
                None,
            );
        }
    }
    assert!(rejections > 0, "no request was ever rejected");
}

/// m = 1, 2, 3 decisions per bit-time, each with its own policy, on the tree, the cb and
/// the Π switch between them: 4 builds.
#[test]
fn chunked_switches_match_the_golden_model() {
    chunked_switches(false);
}

/// Every m × (tree, cb, Π): 9 builds.
/// `cargo test -p lcanet-testbench --test lca_fast_cosim -- --ignored`.
#[test]
#[ignore = "opt-in: every m × switch kind (9 builds); the default run covers each m, policy and kind once"]
fn chunked_switches_every_kind() {
    chunked_switches(true);
}

fn chunked_switches(every: bool) {
    // m = 1, 2, 3 decisions per bit-time (the last ones in the commit bit-time); every
    // policy; tree, cb and a Π switch.
    let mut rejections = 0;
    for (i, policy) in POLICIES.into_iter().enumerate() {
        let m = i + 1;
        for (j, (d, u, topology)) in [(4, 2, SwitchTopology::Tree), (4, 4, SwitchTopology::Cb)]
            .into_iter()
            .enumerate()
        {
            if !every && j != i % 2 {
                continue;
            }
            let params = SwitchParams::new(d, u, 1, 3, topology, policy).unwrap();
            let seed = 970 + 10 * i as u64 + j as u64;
            rejections += switch_with(params, SetupMode::Chunked(m), j as u8, seed, None);
        }
        if !every && i != 2 {
            continue;
        }
        let (params, table) =
            TableSwitch::from_network(SwitchTopology::Cb, 2, 2, 1, 3, policy, 1, 2).unwrap();
        rejections += switch_with(
            params,
            SetupMode::Chunked(m),
            1,
            990 + i as u64,
            Some(table),
        );
    }
    assert!(rejections > 0, "no request was ever rejected");
}

#[test]
fn fast_pi_switches_match_the_golden_model() {
    use SwitchTopology::{Cb, Tree};
    let mut rejections = 0;
    for (i, (kind, d, u, levels, level, sw)) in [
        (Cb, 2, 2, 3, 1, 2),
        (Tree, 6, 2, 2, 0, 2),
        (Cb, 3, 3, 2, 1, 2),
    ]
    .into_iter()
    .enumerate()
    {
        let (params, table) =
            TableSwitch::from_network(kind, d, u, 1, levels, POLICIES[i], level, sw).unwrap();
        rejections += switch(params, level as u8, 950 + i as u64, Some(table));
    }
    assert!(rejections > 0, "no request was ever rejected");
}

/// The sequential golden model's passes (top levels) and bit-times for `stim`.
fn sequential(topo: &Topology, np: &NetParams, stim: &Stimulus) -> (Vec<usize>, u64) {
    let seq = NetParams::new(topo, np.algorithm, np.policy(), np.width(), np.msg_bits).unwrap();
    let mut model =
        NetworkModel::new(topo, &seq, &stim.destinations(), &stim.messages, stim.seed).unwrap();
    let run = model.run_to_done(10_000_000).unwrap();
    (
        run.passes.iter().map(|p| p.top_level).collect(),
        run.bit_times,
    )
}

fn network(name: &str, topo: Topology, alg: Algorithm, pol: ArbiterPolicy, structure: Structure) {
    network_with(name, topo, alg, pol, structure, SetupMode::Fast);
}

fn network_with(
    name: &str,
    topo: Topology,
    alg: Algorithm,
    pol: ArbiterPolicy,
    structure: Structure,
    setup: SetupMode,
) {
    let m = 4;
    let spec = NetSpec::new(topo.clone(), alg, pol, 1, m)
        .unwrap()
        .with_setup(setup)
        .unwrap()
        .with_structure(structure);
    assert!(spec.network_name().contains("_fast"));
    let np = spec.net.clone();
    let dir = artifact_dir!(format!("fast_{name}")).unwrap();
    let bench = NetBench::build(spec, &dir.file("rtl"), NetBuild::quick())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut kinds = vec![
        (PermKind::Identity, 1),
        (PermKind::Random, 1),
        (PermKind::Random, 2),
    ];
    if topo.kind() != lcanet_sim::lcan::Kind::File {
        kinds.push((PermKind::WorstCase, 3));
    }
    let mut multi_pass = false;
    for (kind, seed) in kinds {
        let stim = Stimulus::new(&topo, &kind, m, seed).unwrap();
        let vcd = dir.file(&format!("fail_{kind:?}_{seed}.vcd"));
        let r = bench.run(&stim, None, Some(&vcd), None).unwrap();
        assert!(r.matched(), "{name} {kind:?}: {}", r.failure_text());
        let (tops, seq_bits) = sequential(&topo, &np, &stim);
        assert_eq!(
            r.top_levels, tops,
            "{name} {kind:?}: the sequential set-up's passes"
        );
        assert_eq!(
            r.bit_times as usize,
            np.total_bit_times(&tops),
            "{name} {kind:?}"
        );
        assert!(
            r.bit_times < seq_bits,
            "{name} {kind:?}: {} vs {seq_bits}",
            r.bit_times
        );
        multi_pass |= r.passes > 1;
        eprintln!(
            "{name} {kind:?} seed {seed}: {} passes, {} bit-times (sequential {seq_bits})",
            r.passes, r.bit_times
        );
    }
    assert!(
        multi_pass,
        "{name}: no stimulus needed a second pass (contention untested)"
    );
}

fn tree(d: usize, u: usize, l: usize) -> Topology {
    Topology::tree(d, u, Size::Levels(l)).unwrap()
}

fn cb(d: usize, u: usize, l: usize) -> Topology {
    Topology::complete_bipartite(d, u, Size::Levels(l)).unwrap()
}

fn pi(text: &str) -> Topology {
    Topology::from_pi_text(text).unwrap()
}

use Algorithm::{R1, R2};
use ArbiterPolicy::{Fixed, Random, RoundRobin};

#[test]
fn fast_tree_d2_u1_l3_r1_fixed() {
    network(
        "tree_d2_u1_l3_r1_fixed",
        tree(2, 1, 3),
        R1,
        Fixed,
        Structure::Instances,
    );
}

#[test]
fn fast_tree_d4_u2_l2_r2_random_rows() {
    network(
        "tree_d4_u2_l2_r2_random",
        tree(4, 2, 2),
        R2,
        Random,
        Structure::Rows,
    );
}

#[test]
fn fast_cb_d2_u2_l3_r1_random() {
    network(
        "cb_d2_u2_l3_r1_random",
        cb(2, 2, 3),
        R1,
        Random,
        Structure::Instances,
    );
}

#[test]
#[ignore = "opt-in: the default run keeps one network per kind and set-up (each network is a Verilator build of its own; scripts/test is kept short)"]
fn fast_cb_d3_u3_l2_r2_rr_rows() {
    network(
        "cb_d3_u3_l2_r2_rr",
        cb(3, 3, 2),
        R2,
        RoundRobin,
        Structure::Rows,
    );
}

#[test]
fn fast_pi_skewed8_r1_rr() {
    let t = pi(include_str!("../../docs/examples/skewed8.pi"));
    network("pi_skewed8_r1_rr", t, R1, RoundRobin, Structure::Instances);
}

#[test]
#[ignore = "opt-in: the default run keeps one network per kind and set-up (each network is a Verilator build of its own; scripts/test is kept short)"]
fn fast_pi_irregular16_r2_fixed_rows() {
    let t = pi(include_str!("../../docs/examples/irregular16.pi"));
    network("pi_irregular16_r2_fixed", t, R2, Fixed, Structure::Rows);
}

#[test]
fn chunked2_cb_d2_u2_l3_r1_rr() {
    let (t, s) = (cb(2, 2, 3), SetupMode::Chunked(2));
    network_with(
        "cb_d2_u2_l3_r1_rr_c2",
        t,
        R1,
        RoundRobin,
        Structure::Instances,
        s,
    );
}

#[test]
#[ignore = "opt-in: the default run keeps one network per kind and set-up (each network is a Verilator build of its own; scripts/test is kept short)"]
fn chunked3_tree_d4_u2_l2_r2_fixed() {
    let (t, s) = (tree(4, 2, 2), SetupMode::Chunked(3));
    network_with(
        "tree_d4_u2_l2_r2_fixed_c3",
        t,
        R2,
        Fixed,
        Structure::Instances,
        s,
    );
}
