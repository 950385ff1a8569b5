//! Random legal traffic through one switch in every mode: the emitted Verilog (Verilator)
//! matches the cycle-level golden model at every bit-time — the outputs `c` and `d`, the
//! step counter, the crosspoint vectors, the arbiter state, the waiting winners, and every
//! commit's arbitration outcome — and never breaks the crosspoint invariants or grants and
//! rejects the same request. Tree, cb and Π (table-routed) switches, every policy, `W = 1`
//! and `W > 1`. A failure names the bit-time, the signal, the parameters and the seed, and
//! keeps a VCD (the failing run repeated on a traced build: a passing one needs none).

use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams, SwitchTopology};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::bridge::Optimize;
use lcanet_testbench::lca::{run_switch_cosim, CosimConfig, TableSwitch, Verdict};

/// Bit-times per run: about fifteen R1/R2 passes on the largest switch.
const BIT_TIMES: u64 = 4000;

const POLICIES: [ArbiterPolicy; 3] = [
    ArbiterPolicy::Fixed,
    ArbiterPolicy::RoundRobin,
    ArbiterPolicy::Random,
];

/// One run; returns its rejections.
fn cosim(params: SwitchParams, level: u8, seed: u64, table: Option<TableSwitch>) -> u64 {
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
    report.rejections
}

/// Every policy, each at a different level of a 3-level network; some request must have
/// been rejected.
fn all_policies(d: usize, u: usize, width: usize, topology: SwitchTopology, seed: u64) {
    let mut rejections = 0;
    for (i, policy) in POLICIES.into_iter().enumerate() {
        let params = SwitchParams::new(d, u, width, 3, topology, policy).unwrap();
        rejections += cosim(params, i as u8, seed + i as u64, None);
    }
    assert!(rejections > 0, "no request was ever rejected");
}

#[test]
fn cosim_d2_u1_tree() {
    all_policies(2, 1, 1, SwitchTopology::Tree, 101);
}

#[test]
fn cosim_d4_u2_tree() {
    all_policies(4, 2, 1, SwitchTopology::Tree, 201);
}

#[test]
fn cosim_d2_u2_cb() {
    all_policies(2, 2, 1, SwitchTopology::Cb, 301);
}

#[test]
fn cosim_d3_u3_cb() {
    all_policies(3, 3, 1, SwitchTopology::Cb, 401);
}

#[test]
fn cosim_d4_u4_cb() {
    all_policies(4, 4, 1, SwitchTopology::Cb, 501);
}

#[test]
fn cosim_wide_links() {
    // W = 3 with four levels (packets not a multiple of W), W = 4 on a tree.
    let params =
        SwitchParams::new(3, 2, 3, 4, SwitchTopology::Cb, ArbiterPolicy::RoundRobin).unwrap();
    cosim(params, 2, 601, None);
    all_policies(4, 2, 4, SwitchTopology::Tree, 611);
}

#[test]
fn cosim_pi_tables() {
    // Switches of T- and CB-LCANs read as Π files: the route decoder reads the ROM inputs.
    // CB-LCAN(2,2), CB-LCAN(4,2): addresses are PE numbers; CB-LCAN(3,3) (n = 9) and
    // T-LCAN(6,2) (n = 18): label digits, some of them beyond n − 1 (an empty route). Every
    // policy; W = 2 for two of them.
    use SwitchTopology::{Cb, Tree};
    let cases = [
        (Cb, 2, 2, 1, 3, 0, 3),
        (Cb, 4, 2, 1, 3, 1, 2),
        (Cb, 2, 2, 2, 3, 2, 1),
        (Cb, 3, 3, 1, 2, 1, 2),
        (Tree, 6, 2, 2, 2, 0, 2),
        (Tree, 6, 2, 1, 2, 1, 0),
    ];
    let mut rejections = 0;
    for (i, (kind, d, u, width, levels, level, switch)) in cases.into_iter().enumerate() {
        let policy = POLICIES[i % 3];
        let (params, table) =
            TableSwitch::from_network(kind, d, u, width, levels, policy, level, switch).unwrap();
        rejections += cosim(params, level as u8, 701 + i as u64, Some(table));
    }
    assert!(rejections > 0, "no request was ever rejected");
}
