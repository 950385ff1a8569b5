//! Emitted LCA networks pass `verilator --lint-only -Wall`, compile in Icarus and synthesize
//! in Yosys; one switch module definition serves every instance.

use lcanet_hdl::lca_net::{emit_fabric, NetSpec};
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::tools::{icarus, lint::lint, yosys};
use std::path::PathBuf;

fn check_fabric(topo: Topology, policy: ArbiterPolicy, width: usize) {
    let switches = topo.total_switches();
    let spec = NetSpec::new(topo, Algorithm::R1, policy, width, 8).unwrap();
    let emitted = emit_fabric(&spec).unwrap();
    let dir = artifact_dir!(emitted.top.clone()).unwrap();
    emitted.write_to(dir.path()).unwrap();
    let files: Vec<PathBuf> = emitted.modules.iter().map(|m| dir.file(&m.name)).collect();
    let top = emitted.top.as_str();
    let top_text = &emitted.modules.last().unwrap().contents;
    let insts = top_text.matches(" lvl").count();
    assert!(
        insts >= switches,
        "{top}: {insts} instances for {switches} switches"
    );
    assert_eq!(
        emitted
            .modules
            .iter()
            .filter(|m| m.name.starts_with("lca_switch_") && !m.name.contains("__"))
            .count(),
        1,
        "{top}: one switch definition"
    );
    lint(&files, top).unwrap_or_else(|e| panic!("{top}: lint: {e}"));
    icarus::compile(&files, top, &dir.file("sim.vvp"))
        .unwrap_or_else(|e| panic!("{top}: icarus: {e}"));
    let stats = yosys::synth(&files, top).unwrap_or_else(|e| panic!("{top}: yosys: {e}"));
    assert!(stats.cells > 0, "{top}: no cells");
}

#[test]
fn fabric_tree_d2_u1_l3() {
    check_fabric(
        Topology::tree(2, 1, Size::Levels(3)).unwrap(),
        ArbiterPolicy::Fixed,
        1,
    );
}

#[test]
fn fabric_tree_d4_u2_l2_random_w2() {
    check_fabric(
        Topology::tree(4, 2, Size::Levels(2)).unwrap(),
        ArbiterPolicy::Random,
        2,
    );
}

#[test]
fn fabric_cb_d2_u2_l3_rr() {
    check_fabric(
        Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap(),
        ArbiterPolicy::RoundRobin,
        1,
    );
}
