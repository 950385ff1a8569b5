//! Emitted LCA networks pass the RTL style check (`lcanet_hdl::style`), `verilator
//! --lint-only -Wall`, compile in Icarus and synthesize in Yosys: tree (with and without
//! label conversion), cb and Π, R1 and R2, every policy, W = 1 and 2, the switches written
//! as instances and as rows; one switch module definition serves every instance (and one
//! rows module every level of a size); per-level switch sizes (002 §2.2): one switch module
//! per switch shape.

use lcanet_hdl::lca_net::{network_design, NetSpec, Structure};
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::tools::{icarus, lint::lint, yosys};
use std::path::PathBuf;

fn check_network(topo: Topology, algorithm: Algorithm, policy: ArbiterPolicy, width: usize) {
    check(topo, algorithm, policy, width, Structure::Instances);
}

fn check(
    topo: Topology,
    algorithm: Algorithm,
    policy: ArbiterPolicy,
    width: usize,
    structure: Structure,
) {
    let spec = NetSpec::new(topo, algorithm, policy, width, 4)
        .unwrap()
        .with_structure(structure);
    let emitted = network_design(&spec).unwrap().emit().unwrap();
    let dir = artifact_dir!(format!("{}_{}", emitted.top, structure.name())).unwrap();
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
    let t = &spec.topo;
    let distinct = |f: &dyn Fn(usize) -> (usize, usize, usize)| {
        (0..t.levels())
            .map(f)
            .collect::<std::collections::BTreeSet<_>>()
            .len()
    };
    let expected = match structure {
        // One switch module per switch shape.
        Structure::Instances => distinct(&|i| (t.d_at(i), t.u_at(i), 0)),
        // One rows module per distinct shape and size of a rows instance (one of a single
        // switch is the switch). Every level is one instance when all levels have one
        // shape; otherwise a run of consecutive levels of one shape is one instance.
        Structure::Rows => {
            let shape = |i: usize| (t.d_at(i), t.u_at(i));
            let mut groups: Vec<(usize, usize, usize)> = Vec::new();
            for i in 0..t.levels() {
                let uniform = (0..t.levels()).all(|j| shape(j) == shape(0));
                match groups.last_mut() {
                    Some(g) if !uniform && (g.0, g.1) == shape(i) => g.2 += t.switch_count(i),
                    _ => groups.push((t.d_at(i), t.u_at(i), t.switch_count(i))),
                }
            }
            groups
                .into_iter()
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        }
    };
    assert_eq!(switches, expected, "{top}: switch module definitions");
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

#[test]
fn network_cb_d2_u2_l3_r1_rr_rows() {
    check(
        Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap(),
        Algorithm::R1,
        ArbiterPolicy::RoundRobin,
        1,
        Structure::Rows,
    );
}

/// T-LCAN(4,2) with `levels` levels as rows, W = 2, R2 random.
fn tree_d4_u2_r2_random_w2_rows(levels: usize) {
    let topo = Topology::tree(4, 2, Size::Levels(levels)).unwrap();
    check(
        topo,
        Algorithm::R2,
        ArbiterPolicy::Random,
        2,
        Structure::Rows,
    );
}

/// The Π network of `text` as rows, R1 fixed.
fn pi_r1_fixed_rows(text: &str) {
    let topo = Topology::from_pi_text(text).unwrap();
    check(
        topo,
        Algorithm::R1,
        ArbiterPolicy::Fixed,
        1,
        Structure::Rows,
    );
}

#[test]
fn network_tree_d4_u2_l2_r2_random_w2_rows() {
    tree_d4_u2_r2_random_w2_rows(2);
}

/// The same with a third level (rows of 4, 2 and 1 switches): Yosys takes about 20 s on
/// it, four times the two-level network.
/// `cargo test -p lcanet-testbench --test lca_net_tools -- --ignored`.
#[test]
#[ignore = "opt-in: ~20 s of Yosys; the default run synthesizes the two-level network"]
fn network_tree_d4_u2_l3_r2_random_w2_rows() {
    tree_d4_u2_r2_random_w2_rows(3);
}

#[test]
fn network_pi_skewed8_r1_fixed_rows() {
    pi_r1_fixed_rows(include_str!("../../docs/examples/skewed8.pi"));
}

/// A Π network of d = 4 switches as rows: Yosys takes about 20 s on it
/// (`lca_net_pi_tools` synthesizes it as instances by default).
/// `cargo test -p lcanet-testbench --test lca_net_tools -- --ignored`.
#[test]
#[ignore = "opt-in: ~20 s of Yosys; the default run synthesizes the d = 2 Π network as rows"]
fn network_pi_irregular16_r1_fixed_rows() {
    pi_r1_fixed_rows(include_str!("../../docs/examples/irregular16.pi"));
}

#[test]
fn network_fat_tree_l3_c2_r1_rr_per_level() {
    // `--topology fat-tree --levels 3 --capacity 2`: d = [2, 4, 4], u = [2, 2, 2].
    check_network(
        Topology::tree_per_level(&[2, 4, 4], &[2, 2, 2]).unwrap(),
        Algorithm::R1,
        ArbiterPolicy::RoundRobin,
        1,
    );
}

#[test]
fn network_cb_d2_u1x1x2_r2_random_rows_per_level() {
    // The CM-5's shape (thin bottom levels under a full top) in small.
    check(
        Topology::complete_bipartite_per_level(&[2, 2, 2], &[1, 1, 2]).unwrap(),
        Algorithm::R2,
        ArbiterPolicy::Random,
        1,
        Structure::Rows,
    );
}

#[test]
fn network_cb_d3x2_u2x3_r3_w2_per_level_conv() {
    check_network(
        Topology::complete_bipartite_per_level(&[3, 2], &[2, 3]).unwrap(),
        Algorithm::R3,
        ArbiterPolicy::Fixed,
        2,
    );
}
