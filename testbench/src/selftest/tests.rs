//! The self-test top: lint, Icarus and Yosys clean; co-simulated against the golden model
//! (lines, counters, pins), with and without the injected fault, for an LCA network, the
//! hypercube and a MIN.

use super::SelftestBench;
use crate::artifact_dir;
use crate::tools::{icarus, lint::lint, yosys};
use lcanet_hdl::lca_net::NetSpec;
use lcanet_hdl::selftest::{selftest_emit, DutSpec, SelftestSpec};
use lcanet_sim::hypercube::timing::Algorithm as CubeAlgorithm;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_sim::min::{Min, Network};
use std::path::PathBuf;

/// A 300 kHz clock and 75,000 baud: 4 clocks per UART bit, a heartbeat toggle at most
/// every 75,000 clocks (several per test run).
fn selftest(dut: DutSpec, every: u64, fault: bool) -> SelftestSpec {
    SelftestSpec::new(dut, 0x1234_5678, every, 300_000, 75_000, fault).unwrap()
}

fn spec(topo: Topology, policy: ArbiterPolicy, every: u64, fault: bool) -> SelftestSpec {
    spec_alg(topo, Algorithm::R1, policy, every, fault)
}

fn spec_alg(
    topo: Topology,
    algorithm: Algorithm,
    policy: ArbiterPolicy,
    every: u64,
    fault: bool,
) -> SelftestSpec {
    let net = NetSpec::new(topo, algorithm, policy, 1, 8).unwrap();
    selftest(DutSpec::Lca(Box::new(net)), every, fault)
}

fn cube(k: usize, algorithm: CubeAlgorithm, every: u64, fault: bool) -> SelftestSpec {
    selftest(DutSpec::cube(k, 4, algorithm).unwrap(), every, fault)
}

fn min(network: Network, m: u32, every: u64, fault: bool) -> SelftestSpec {
    let dut = DutSpec::Min {
        min: Min::new(network, m).unwrap(),
        message_bits: 8,
    };
    selftest(dut, every, fault)
}

fn tree(levels: usize) -> Topology {
    Topology::tree(2, 1, Size::Levels(levels)).unwrap()
}

/// One self-test top through the style rules, `verilator --lint-only -Wall`, Icarus and
/// (`synthesize`) Yosys. The tests below take small self-tests of every family; Yosys
/// (`synth`, 20–30 s each on a busy machine) runs on the two LCA tops and the MIN top (the
/// cube's is synthesized and placed by `testbench/tests/fpga_routed.rs`).
fn lint_icarus_yosys(s: SelftestSpec, synthesize: bool) {
    let e = selftest_emit(&s).unwrap();
    let dir = artifact_dir!(format!("tools_{}", e.top)).unwrap();
    e.write_to(dir.path()).unwrap();
    let files: Vec<PathBuf> = e.modules.iter().map(|m| dir.file(&m.name)).collect();
    let issues = lcanet_hdl::style::check_files(
        e.modules
            .iter()
            .map(|m| (m.name.as_str(), m.contents.as_str())),
    );
    assert!(issues.is_empty(), "{issues:?}");
    assert!(e
        .file_list
        .contents
        .contains(&format!("{}.v", s.dut.network_name())));
    lint(&files, &e.top).unwrap_or_else(|err| panic!("lint: {err}"));
    icarus::compile(&files, &e.top, &dir.file("sim.vvp")).unwrap();
    if synthesize {
        let stats = yosys::synth(&files, &e.top).unwrap();
        assert!(stats.cells > 0);
    }
}

// One test per Yosys run, so that the test threads share them.
#[test]
fn lint_icarus_yosys_tree_fixed() {
    lint_icarus_yosys(spec(tree(2), ArbiterPolicy::Fixed, 10, false), true);
}

#[test]
fn lint_icarus_yosys_tree_random_active_low_leds() {
    let s = spec(tree(2), ArbiterPolicy::Random, 10, false).with_active_low_leds(true);
    lint_icarus_yosys(s, true);
}

#[test]
fn lint_icarus_cubes() {
    lint_icarus_yosys(cube(2, CubeAlgorithm::Full, 10, true), false);
    lint_icarus_yosys(cube(2, CubeAlgorithm::Semi, 10, false), false);
}

#[test]
fn lint_icarus_yosys_min() {
    lint_icarus_yosys(min(Network::Cube, 2, 10, true), true);
}

fn cosim(s: SelftestSpec, perms: u64) -> super::SelftestReport {
    let dir = artifact_dir!(format!("cosim_{}_{}", s.top_name(), s.params.fault)).unwrap();
    let bench = SelftestBench::build(s, dir.path()).unwrap();
    let r = bench.run(perms, None).unwrap();
    eprintln!(
        "{} perms, {} clocks, {:.2} s simulation, {:.2} s prediction, {:.1} s build",
        perms, r.clocks, r.run_seconds, r.predict_seconds, bench.build_seconds
    );
    for l in &r.lines {
        eprint!("clock {}: {}", l.clock, l.text);
    }
    r
}

/// T-LCAN(2,1) n = 16, R1, fixed arbiters: 1,000 permutations, a line every 250; every
/// line, counter and pin as predicted, 0 errors (about 15 s in a debug build once the model
/// is cached).
#[test]
fn tree16_thousand_permutations_match_the_golden_model() {
    let r = cosim(spec(tree(4), ArbiterPolicy::Fixed, 250, false), 1000);
    assert!(r.matched(), "{:?}", r.failure);
    assert_eq!(r.lines.len(), 4);
    let last = &r.lines[3];
    assert!(last.text.starts_with("PASS 1000 perms, "), "{}", last.text);
    assert!(last.text.ends_with(" 0 errors\r\n"));
    assert_eq!(last.counters.as_ref().unwrap().errors(), 0);
    assert!(last.counters.as_ref().unwrap().values[1] >= 1000);
    assert_eq!(last.leds[..2], [true, false]);
    // The heartbeat blinks (a toggle every 75,000 clocks or so) and the bench checked it.
    let hb: Vec<bool> = r.expected_timing.iter().map(|t| t.heartbeat).collect();
    assert!(hb.contains(&true) && hb.contains(&false), "{hb:?}");
}

/// The 4-cube (16 nodes, L = 4): 1,000 random full permutations by Algorithm 2, a line
/// every 250; lines, counters and pins as the golden model predicts, 16,000 messages
/// delivered, 0 errors.
#[test]
fn cube4_thousand_permutations_match_the_golden_model() {
    let r = cosim(cube(4, CubeAlgorithm::Full, 250, false), 1000);
    assert!(r.matched(), "{:?}", r.failure);
    assert_eq!(r.lines.len(), 4);
    let last = &r.lines[3];
    assert!(last.text.starts_with("PASS 1000 perms, "), "{}", last.text);
    assert_eq!(last.counters.as_ref().unwrap().values[2], 16_000);
    assert_eq!(last.counters.as_ref().unwrap().errors(), 0);
    assert_eq!(last.leds[..2], [true, false]);
}

/// The omega network with m = 3 (8 PEs, B = 8): 1,000 ATAPE exchanges (8,000 frames,
/// 64,000 messages), 0 errors, as predicted.
#[test]
fn omega8_thousand_exchanges_match_the_golden_model() {
    let r = cosim(min(Network::Omega, 3, 250, false), 1000);
    assert!(r.matched(), "{:?}", r.failure);
    assert_eq!(r.lines.len(), 4);
    let last = &r.lines[3];
    assert!(
        last.text.starts_with("PASS 1000 exchanges, "),
        "{}",
        last.text
    );
    assert_eq!(last.counters.as_ref().unwrap().values[2], 64_000);
    assert_eq!(last.counters.as_ref().unwrap().errors(), 0);
}

/// The injected fault in the cube and the MIN: every round fails, PE 0's messages are
/// not counted, `led_fail` is on — and the golden model predicted exactly that.
#[test]
fn injected_fault_fails_the_cube_and_the_min() {
    let r = cosim(cube(2, CubeAlgorithm::Full, 5, true), 10);
    assert!(r.matched(), "{:?}", r.failure);
    assert!(
        r.lines[1].text.starts_with("FAIL 10 perms, "),
        "{}",
        r.lines[1].text
    );
    assert_eq!(r.lines[1].counters.as_ref().unwrap().values[2], 10 * 3);
    assert!(r.lines[1].text.ends_with(", 10 errors\r\n"));
    assert_eq!(r.lines[1].leds[..2], [false, true]);
    let r = cosim(min(Network::Baseline, 2, 5, true), 10);
    assert!(r.matched(), "{:?}", r.failure);
    assert!(
        r.lines[1].text.starts_with("FAIL 10 exchanges, "),
        "{}",
        r.lines[1].text
    );
    assert_eq!(r.lines[1].counters.as_ref().unwrap().values[2], 10 * 12);
    assert_eq!(r.lines[1].leds[..2], [false, true]);
}

/// The injected fault: the on-chip checker fails every permutation, `led_fail` is on,
/// the lines say FAIL with errors > 0 — and the golden model predicted exactly that.
#[test]
fn injected_fault_is_reported() {
    let r = cosim(spec(tree(4), ArbiterPolicy::Fixed, 5, true), 10);
    assert!(r.matched(), "{:?}", r.failure);
    assert_eq!(r.lines.len(), 2);
    assert!(
        r.lines[0].text.starts_with("FAIL 5 perms, "),
        "{}",
        r.lines[0].text
    );
    assert!(r.lines[1].text.ends_with(", 10 errors\r\n"));
    assert_eq!(r.lines[1].leds[..2], [false, true]);
}

/// A fault planted in the network itself, not in the checker: miswired links (the MIN's
/// outputs to PEs 0 and 1 swapped; node 0 of the 2-cube hearing its dimension-0 and
/// dimension-1 neighbours swapped). The on-chip checker prints FAIL lines and lights
/// `led_fail`, where the golden model of the intact network predicts PASS, so the bench
/// reports the difference on line 1. (Swapping the two inputs of one 2x2 switch is no
/// such fault: each message still leaves on the output its tag asks for, and ATAPE's
/// frames have no conflict in which the ports' priority would show.)
#[test]
#[ignore = "two more Verilator builds (10-20 s each on a busy machine)"]
fn a_miswired_network_fails_its_self_test() {
    let cases = [
        (
            min(Network::Cube, 2, 5, false),
            "cube_atape_m2_b8.v",
            "assign dout = st1_out;",
            "assign dout = {st1_out[3:2], st1_out[0], st1_out[1]};",
        ),
        (
            cube(2, CubeAlgorithm::Full, 5, false),
            "hypercube_k2_l4.v",
            ".dim_in({dim_out[5], dim_out[2]})",
            ".dim_in({dim_out[2], dim_out[5]})",
        ),
    ];
    for (s, file, from, to) in cases {
        let top = s.top_name();
        let dir = artifact_dir!(format!("miswired_{top}")).unwrap();
        let bench = SelftestBench::build_with(s, dir.path(), |e| {
            let f = e.modules.iter_mut().find(|f| f.name == file).unwrap();
            assert!(f.contents.contains(from), "{file} lacks {from}");
            f.contents = f.contents.replace(from, to);
        })
        .unwrap();
        let r = bench.run(10, None).unwrap();
        let got = &r.lines[0];
        assert!(got.text.starts_with("FAIL 5 "), "{top}: {}", got.text);
        assert_eq!(got.leds[..2], [false, true], "{top}");
        assert!(r.expected[0].starts_with("PASS 5 "), "{top}");
        let f = r.failure.expect("the intact network's prediction differs");
        assert!(f.starts_with("line 1: the RTL printed \"FAIL 5 "), "{f}");
    }
}

/// The bench catches a difference: the faulty RTL against a fault-free prediction fails
/// on the first line, naming both texts.
#[test]
fn bench_catches_a_wrong_prediction() {
    let s = spec(tree(4), ArbiterPolicy::Fixed, 5, true);
    let dir = artifact_dir!("wrong_prediction").unwrap();
    let mut bench = SelftestBench::build(s, dir.path()).unwrap();
    bench.spec.params.fault = false;
    let r = bench.run(10, None).unwrap();
    let f = r.failure.expect("the fault-free prediction differs");
    assert!(
        f.starts_with("line 1: the RTL printed \"FAIL 5 perms, "),
        "{f}"
    );
    assert!(
        f.contains("the golden model predicts \"PASS 5 perms, "),
        "{f}"
    );
    assert_eq!(r.lines.len(), 1);
}

/// 1,000 permutations on CB-LCAN(2,2) n = 16 (R1, round-robin) and on T-LCAN(2,1) n = 16
/// (R2, random arbiters seeded from the xorshift32 seed); 1,000 packings on the 4-cube
/// (Algorithm 1); 1,000 exchanges on the baseline and cube MINs with m = 3 and on the
/// omega network with m = 4 — opt-in: six more Verilator builds.
#[test]
#[ignore = "six more Verilator builds (up to a minute each when not cached)"]
fn thousand_rounds_more_networks() {
    let cb = Topology::complete_bipartite(2, 2, Size::Pes(16)).unwrap();
    let cases = [
        spec_alg(cb, Algorithm::R1, ArbiterPolicy::RoundRobin, 250, false),
        spec_alg(tree(4), Algorithm::R2, ArbiterPolicy::Random, 250, false),
        cube(4, CubeAlgorithm::Semi, 250, false),
        min(Network::Baseline, 3, 250, false),
        min(Network::Cube, 3, 250, false),
        min(Network::Omega, 4, 250, false),
    ];
    for s in cases {
        let top = s.top_name();
        let r = cosim(s, 1000);
        assert!(r.matched(), "{top}: {:?}", r.failure);
        assert_eq!(r.lines.len(), 4);
        assert!(r.lines[3].text.starts_with("PASS 1000 "), "{top}");
        assert!(r.lines[3].text.ends_with(" 0 errors\r\n"), "{top}");
    }
}
