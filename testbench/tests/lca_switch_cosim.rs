//! Random legal traffic through one switch in every mode: the emitted Verilog (Verilator)
//! matches the cycle-level golden model at every bit-time — outputs, crosspoints, arbiter
//! state, waiting winners, and every commit's arbitration outcome — and never breaks the
//! crosspoint invariants or grants and rejects the same request. A failure names the
//! bit-time, the signal, the parameters and the seed, and keeps the VCD.

use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams, SwitchTopology};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::lca::{run_switch_cosim, BuildSpeed, CosimConfig, Verdict};

/// Bit-times per run: about fifteen R1/R2 passes on the largest switch.
const BIT_TIMES: u64 = 4000;

fn cosim(params: SwitchParams, level: u8, seed: u64) {
    let name = format!(
        "{}_d{}_u{}_w{}_l{}_{}_lv{level}_s{seed}",
        params.topology, params.d, params.u, params.width, params.levels, params.policy
    );
    let dir = artifact_dir!(name).unwrap();
    let cfg = CosimConfig {
        params,
        level,
        salt_up: (seed as u16) ^ 0x5A5A,
        salt_dn: (seed as u16) ^ 0xA5A5,
        seed,
        bit_times: BIT_TIMES,
        vcd: Some(dir.file("wave.vcd")),
        build: BuildSpeed::QuickBuild,
    };
    let report = run_switch_cosim(&cfg, &dir.file("rtl")).unwrap_or_else(|e| panic!("{name}: {e}"));
    match report.verdict {
        Verdict::Match => {}
        Verdict::Mismatch(m) => panic!("{name}:\n{m}"),
        Verdict::Invariant(v) => panic!(
            "{name}: invariant broken at bit-time {}: {} (seed {}, VCD {:?})",
            v.bit_time, v.what, v.seed, v.vcd
        ),
    }
    assert_eq!(report.bit_times, BIT_TIMES);
    assert!(
        report.commits > 20,
        "{name}: only {} commits",
        report.commits
    );
    assert!(
        report.grants > 0,
        "{name}: the traffic never reached the arbiters"
    );
}

/// Every policy, each at a different level of a 3-level network.
fn all_policies(d: usize, u: usize, topology: SwitchTopology, seed: u64) {
    let policies = [
        ArbiterPolicy::Fixed,
        ArbiterPolicy::RoundRobin,
        ArbiterPolicy::Random,
    ];
    for (i, policy) in policies.into_iter().enumerate() {
        let params = SwitchParams::new(d, u, 1, 3, topology, policy).unwrap();
        cosim(params, i as u8, seed + i as u64);
    }
}

#[test]
fn cosim_d2_u1_tree() {
    all_policies(2, 1, SwitchTopology::Tree, 101);
}

#[test]
fn cosim_d4_u2_tree() {
    all_policies(4, 2, SwitchTopology::Tree, 201);
}

#[test]
fn cosim_d2_u2_cb() {
    all_policies(2, 2, SwitchTopology::Cb, 301);
}

#[test]
fn cosim_d3_u3_cb() {
    all_policies(3, 3, SwitchTopology::Cb, 401);
}

#[test]
fn cosim_d4_u4_cb() {
    all_policies(4, 4, SwitchTopology::Cb, 501);
}

#[test]
fn cosim_wide_links_and_four_levels() {
    let params =
        SwitchParams::new(3, 2, 3, 4, SwitchTopology::Cb, ArbiterPolicy::RoundRobin).unwrap();
    cosim(params, 2, 601);
}
