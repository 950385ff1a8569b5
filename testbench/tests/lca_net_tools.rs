//! Emitted LCA networks pass the RTL style check (`lcanet_hdl::style`), `verilator
//! --lint-only -Wall`, compile in Icarus and synthesize in Yosys: tree (with and without
//! label conversion), cb and Π, R1 and R2, every policy, W = 1 and 2; one switch module
//! definition serves every instance.

use lcanet_hdl::lca_net::{network_design, NetSpec};
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::tools::{icarus, lint::lint, yosys};
use std::path::PathBuf;

fn check_network(topo: Topology, algorithm: Algorithm, policy: ArbiterPolicy, width: usize) {
    let spec = NetSpec::new(topo, algorithm, policy, width, 4).unwrap();
    let emitted = network_design(&spec).unwrap().emit().unwrap();
    let dir = artifact_dir!(emitted.top.clone()).unwrap();
    emitted.write_to(dir.path()).unwrap();
    let files: Vec<PathBuf> = emitted.modules.iter().map(|m| dir.file(&m.name)).collect();
    let top = emitted.top.as_str();
    let issues = lcanet_hdl::style::check_files(
        emitted
            .modules
            .iter()
            .map(|m| (m.name.as_str(), m.contents.as_str())),
    );
    assert!(issues.is_empty(), "{top}: {issues:?}");
    let switches = emitted
        .modules
        .iter()
        .filter(|m| m.name.starts_with("lca_switch_"))
        .count();
    assert_eq!(switches, 1, "{top}: one switch module definition");
    lint(&files, top).unwrap_or_else(|e| panic!("{top}: lint: {e}"));
    icarus::compile(&files, top, &dir.file("sim.vvp"))
        .unwrap_or_else(|e| panic!("{top}: icarus: {e}"));
    let stats = yosys::synth(&files, top).unwrap_or_else(|e| panic!("{top}: yosys: {e}"));
    assert!(stats.cells > 0, "{top}: no cells");
}

#[test]
fn network_tree_d2_u1_l2_r1_fixed() {
    check_network(
        Topology::tree(2, 1, Size::Levels(2)).unwrap(),
        Algorithm::R1,
        ArbiterPolicy::Fixed,
        1,
    );
}

#[test]
fn network_cb_d3_u3_l2_r2_random_conv() {
    check_network(
        Topology::complete_bipartite(3, 3, Size::Levels(2)).unwrap(),
        Algorithm::R2,
        ArbiterPolicy::Random,
        1,
    );
}

#[test]
fn network_tree_d4_u2_l2_r1_rr_w2() {
    check_network(
        Topology::tree(4, 2, Size::Levels(2)).unwrap(),
        Algorithm::R1,
        ArbiterPolicy::RoundRobin,
        2,
    );
}

#[test]
fn network_tree_d3_u1_l2_r1_random_conv() {
    check_network(
        Topology::tree(3, 1, Size::Levels(2)).unwrap(),
        Algorithm::R1,
        ArbiterPolicy::Random,
        1,
    );
}

#[test]
fn network_pi_skewed8_r2_fixed_w2() {
    let text = include_str!("../../docs/examples/skewed8.pi");
    check_network(
        Topology::from_pi_text(text).unwrap(),
        Algorithm::R2,
        ArbiterPolicy::Fixed,
        2,
    );
}
