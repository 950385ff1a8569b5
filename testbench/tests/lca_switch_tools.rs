//! The emitted LCA switch passes `verilator --lint-only -Wall`, compiles in Icarus and
//! synthesizes in Yosys (`synth_ice40`, which also gives the LUT and flip-flop counts
//! reported for the issue), for every (d, u) of the issue and every arbiter policy.

use lcanet_hdl::lca::emit_switch;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams, SwitchTopology};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::tools::{icarus, lint::lint, yosys};
use std::path::PathBuf;

const POLICIES: [ArbiterPolicy; 3] = [
    ArbiterPolicy::Fixed,
    ArbiterPolicy::RoundRobin,
    ArbiterPolicy::Random,
];

/// T-LCAN where u < d (u | d), CB-LCAN where d = u (a T-LCAN with d = u has one PE group).
fn topology(d: usize, u: usize) -> SwitchTopology {
    if u < d {
        SwitchTopology::Tree
    } else {
        SwitchTopology::Cb
    }
}

fn check_all_tools(d: usize, u: usize) {
    for policy in POLICIES {
        let params = SwitchParams::new(d, u, 1, 3, topology(d, u), policy).unwrap();
        let emitted = emit_switch(params).unwrap();
        let dir = artifact_dir!(format!("{}", emitted.top)).unwrap();
        emitted.write_to(dir.path()).unwrap();
        let files: Vec<PathBuf> = emitted.modules.iter().map(|m| dir.file(&m.name)).collect();
        let top = emitted.top.as_str();
        lint(&files, top).unwrap_or_else(|e| panic!("{top}: lint: {e}"));
        icarus::compile(&files, top, &dir.file("sim.vvp"))
            .unwrap_or_else(|e| panic!("{top}: icarus: {e}"));
        let stats = yosys::synth_ice40(&files, top).unwrap_or_else(|e| panic!("{top}: yosys: {e}"));
        // Synthesis must keep the state: at least the receive registers and the crosspoints
        // that routing can close (B→D never closes, Yosys may drop it).
        let f = params.format();
        let floor = d * f.p1 + u * f.p2 + d * d + 2 * d * u;
        assert!(
            stats.ffs as usize >= floor,
            "{top}: {} flip-flops, expected >= {floor}",
            stats.ffs
        );
        assert!(stats.luts > 0, "{top}: no logic left");
        eprintln!("{top}: {} LUTs, {} flip-flops", stats.luts, stats.ffs);
    }
}

#[test]
fn switch_d2_u1() {
    check_all_tools(2, 1);
}

#[test]
fn switch_d4_u2() {
    check_all_tools(4, 2);
}

#[test]
fn switch_d2_u2() {
    check_all_tools(2, 2);
}

#[test]
fn switch_d3_u3() {
    check_all_tools(3, 3);
}

#[test]
fn switch_d4_u4() {
    check_all_tools(4, 4);
}
