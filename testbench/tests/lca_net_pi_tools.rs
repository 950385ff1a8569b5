//! Π-file networks with the table-driven route decoder: the emitted Verilog passes
//! `verilator --lint-only -Wall`, compiles in Icarus and synthesizes in Yosys, with one
//! switch module and one ROM module per distinct table; the exported self-checking Icarus
//! bench passes (R1 and R2) and catches a mis-routed connection.

use lcanet_hdl::lca_net::{network_design, NetSpec};
use lcanet_sim::lcan::cycle::network::Mutation;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::Topology;
use lcanet_testbench::artifact_dir;
use lcanet_testbench::lca_export::export_network;
use lcanet_testbench::tbwriter::{run_testbench, TbOutcome};
use lcanet_testbench::tools::{icarus, lint::lint, yosys};
use std::path::PathBuf;

const IRREGULAR16: &str = include_str!("../../docs/examples/irregular16.pi");
const SKEWED8: &str = include_str!("../../docs/examples/skewed8.pi");

fn spec(text: &str, alg: Algorithm, pol: ArbiterPolicy) -> NetSpec {
    NetSpec::new(Topology::from_pi_text(text).unwrap(), alg, pol, 1, 4).unwrap()
}

#[test]
fn pi_network_lints_compiles_and_synthesizes() {
    let spec = spec(IRREGULAR16, Algorithm::R2, ArbiterPolicy::Random);
    let design = network_design(&spec).unwrap();
    let emitted = design.emit().unwrap();
    let names: Vec<&str> = emitted.modules.iter().map(|m| m.name.as_str()).collect();
    let count = |prefix: &str| names.iter().filter(|n| n.starts_with(prefix)).count();
    assert_eq!(
        count("lca_switch_pi16_d4_u2_w1_l3_random.v"),
        1,
        "{names:?}"
    );
    // Seven switches, seven distinct tables (every switch reaches a different PE set).
    assert_eq!(count("lca_rom_pi16_d4_u2_l3_"), 7, "{names:?}");
    let dir = artifact_dir!(emitted.top.clone()).unwrap();
    emitted.write_to(dir.path()).unwrap();
    let files: Vec<PathBuf> = emitted.modules.iter().map(|m| dir.file(&m.name)).collect();
    let top = emitted.top.as_str();
    lint(&files, top).unwrap_or_else(|e| panic!("{top}: lint: {e}"));
    icarus::compile(&files, top, &dir.file("sim.vvp"))
        .unwrap_or_else(|e| panic!("{top}: icarus: {e}"));
    let stats = yosys::synth(&files, top).unwrap_or_else(|e| panic!("{top}: yosys: {e}"));
    assert!(stats.cells > 0, "{top}: no cells");
}

fn export(spec: &NetSpec, seed: u64, mutation: Option<Mutation>, tag: &str) -> TbOutcome {
    let dir = artifact_dir!(format!("lca_export_pi_{tag}")).unwrap();
    let dst: Vec<Option<usize>> = [6, 2, 7, 0, 1, 5, 3, 4].iter().map(|&d| Some(d)).collect();
    let ex = export_network(spec, &dst, seed, mutation, 3, 100_000, dir.path()).unwrap();
    assert!(!ex.bench.error);
    run_testbench(&ex.testbench).unwrap()
}

#[test]
fn exported_pi_bench_passes_in_icarus_and_catches_a_misroute() {
    let spec = spec(SKEWED8, Algorithm::R1, ArbiterPolicy::RoundRobin);
    let good = export(&spec, 5, None, "r1");
    assert!(
        good.passed() && good.stdout.contains("PASS"),
        "{}",
        good.stdout
    );
    let swap = Mutation::SwapDestinations { a: 0, b: 2 };
    let bad = export(&spec, 5, Some(swap), "r1_swap");
    assert!(!bad.passed(), "{}", bad.stdout);
}

#[test]
fn exported_pi_bench_passes_for_r2() {
    let spec = spec(SKEWED8, Algorithm::R2, ArbiterPolicy::Fixed);
    let out = export(&spec, 5, None, "r2");
    assert!(out.passed(), "{}", out.stdout);
}
