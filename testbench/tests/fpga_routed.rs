//! The placed design itself, simulated (`lcanet fpga --check-routed`): the smallest
//! self-test of each family (an LCA network, the hypercube, a MIN) placed and routed on an
//! iCE40 and on an ECP5 part, its routed netlist run from power-up for 100 rounds, every
//! UART line, LED and line time equal to the golden prediction; with the LUT behind
//! `uart_tx` inverted, the same check fails (on each device family; the LUT is in the
//! self-test's UART, the same for every family). The LCA network on the iCE40 is placed
//! and checked through the command line by `tests/fpga_flow.rs` (the same network at
//! 12 MHz: one placement instead of two). ECP5 needs `scripts/setup --ecp5`
//! (`scripts/test` runs it).

use lcanet_hdl::lca_net::NetSpec;
use lcanet_hdl::selftest::{selftest_emit, DutSpec, SelftestSpec};
use lcanet_sim::hypercube::timing::Algorithm as CubeAlgorithm;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_sim::min::{Min, Network};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::fpga::device::Device;
use lcanet_testbench::fpga::flow::{self, FlowSpec};
use lcanet_testbench::fpga::routed;
use lcanet_testbench::paths::workspace_root;

/// 300 kHz and 75,000 baud (4 clocks per UART bit) so that lines are short; a line per
/// 25 rounds.
fn selftest(dut: DutSpec) -> SelftestSpec {
    SelftestSpec::new(dut, 0x2545_f491, 25, 300_000, 75_000, false).unwrap()
}

fn lca() -> SelftestSpec {
    let topo = Topology::tree(2, 1, Size::Levels(1)).unwrap();
    let net = NetSpec::new(topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 2).unwrap();
    selftest(DutSpec::Lca(Box::new(net)))
}

fn cube() -> SelftestSpec {
    selftest(DutSpec::cube(1, 2, CubeAlgorithm::Full).unwrap())
}

fn min() -> SelftestSpec {
    selftest(DutSpec::Min {
        min: Min::new(Network::Omega, 1).unwrap(),
        message_bits: 2,
    })
}

/// Places `spec` on `device` with `pins`, then checks its routed netlist for 100 rounds,
/// and (`fault`) checks that the netlist with the fault planted fails on its first line
/// (simulated for that line's rounds only).
fn placed_netlist_matches(spec: SelftestSpec, device: &str, pins: &str, fault: bool) {
    let e = selftest_emit(&spec).unwrap();
    let dir = artifact_dir!(format!("routed_{device}_{}", e.top)).unwrap();
    let rtl = dir.path().join("rtl");
    let files = e.write_to(&rtl).unwrap();
    let device = Device::by_name(device).unwrap();
    let out = dir.path().join("fpga");
    let summary = flow::run(&FlowSpec {
        files: files
            .into_iter()
            .filter(|f| f.extension().is_some_and(|x| x == "v"))
            .collect(),
        top: e.top.clone(),
        device,
        package: device.package(None).unwrap(),
        pins: Some(workspace_root().join(pins)),
        ioring: false,
        freq_mhz: 12.0,
        knobs: Default::default(),
        out: out.clone(),
        progress: &|_| {},
    })
    .unwrap_or_else(|err| panic!("{} on {}: {err}", e.top, device.part));
    assert_eq!(summary.io, 5, "clock, uart_tx and three LEDs");
    assert!(summary.bitstream.is_file());
    let r = routed::check(&spec, 100, &summary, &out, false).unwrap();
    assert!(
        r.matched(),
        "{} placed on {}: {}",
        e.top,
        device.part,
        r.failure.unwrap()
    );
    assert_eq!(r.lines.len(), 4);
    assert!(
        r.lines.iter().all(|l| l.text.starts_with("PASS ")),
        "{:?}",
        r.lines
    );
    if fault {
        let every = u64::from(spec.params.report_every);
        let r = routed::check(&spec, every, &summary, &out, true).unwrap();
        let why = r
            .failure
            .expect("the netlist with uart_tx's LUT inverted must fail");
        assert!(why.contains("line 1") || why.contains("UART"), "{why}");
    }
}

const HX8K: &str = "constraints/ice40/selftest-hx8k.pcf";
const ULX3S: &str = "constraints/ecp5/selftest-ulx3s.lpf";

#[test]
fn lca_network_placed_on_ecp5() {
    placed_netlist_matches(lca(), "ecp5-25k", ULX3S, true);
}

#[test]
fn hypercube_placed_on_ice40() {
    placed_netlist_matches(cube(), "hx8k", HX8K, false);
}

#[test]
fn hypercube_placed_on_ecp5() {
    placed_netlist_matches(cube(), "ecp5-25k", ULX3S, false);
}

#[test]
fn min_placed_on_ice40() {
    placed_netlist_matches(min(), "hx8k", HX8K, true);
}

#[test]
fn min_placed_on_ecp5() {
    placed_netlist_matches(min(), "ecp5-25k", ULX3S, false);
}
