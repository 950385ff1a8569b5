//! Every emitted MIN (three networks, m = 1..6) lints clean under `verilator
//! --lint-only -Wall`, compiles in Icarus (`-g2005 -Wall`, warnings fail) and
//! synthesizes in Yosys (generic `synth`, hierarchy kept, no latches) with exactly the
//! flip-flops docs/min.md §3 describes: 4 per switch, 2m per ATAPE unit, 3m + 20 in the
//! controller. The iCE40 flow (`synth_ice40`,
//! 15–30 s at m = 6, so only at m = 3 here; larger sizes: scripts/fpga) gives the same
//! count. Each distinct block is one module file; instances are named `st<s>_sw<k>`,
//! `pe<j>`, `ctrl`.

use lcanet_sim::min::{Min, Network};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::min::emit;
use lcanet_testbench::tools::{icarus, lint::lint, yosys};

fn network(net: Network) {
    for m in 1..=6u32 {
        let min = Min::new(net, m).unwrap();
        let dir = artifact_dir!(format!("{net}_m{m}")).unwrap();
        let e = emit(&min, 5, &dir.path().join("verilog")).unwrap();
        // Switch, OR, unit, controller, top (flip-flops are written inside them), however
        // many instances.
        assert_eq!(e.modules, 5, "{net} m={m}: {} modules", e.modules);
        let top_text = std::fs::read_to_string(e.files.last().unwrap()).unwrap();
        let last = min.switches_per_stage() - 1;
        assert!(top_text.contains(&format!("min_switch_2x2 st{}_sw{last} (", m - 1)));
        assert!(top_text.contains(&format!("pe{} (", min.n() - 1)));

        lint(&e.files, &e.top).unwrap_or_else(|err| panic!("{net} m={m}: {err}"));
        icarus::compile(&e.files, &e.top, &dir.file("net.vvp"))
            .unwrap_or_else(|err| panic!("{net} m={m}: {err}"));
        let expected = expected_ffs(&min);
        let stats = yosys::synth(&e.files, &e.top).unwrap();
        let ffs: u64 = stats
            .by_type
            .iter()
            .filter(|(t, _)| t.contains("DFF"))
            .map(|(_, k)| k)
            .sum();
        assert_eq!(ffs, expected, "{net} m={m}: {stats:?}");
        assert_eq!(stats.count_prefix("$_DLATCH"), 0, "{net} m={m}: latches");
        if m == 3 {
            let ice = yosys::synth_ice40(&e.files, &e.top).unwrap();
            assert_eq!(ice.ffs, expected, "{net} m={m}: {ice:?}");
            assert!(ice.luts > 0);
        }
    }
}

/// 4 per switch (out0, out1, crossed, conflict), 2m per ATAPE unit (dst, tag register),
/// 3m + 20 in the controller (run, drain[4], pos[16], frame[m], single, dec delay line).
/// Generic `synth` keeps the hierarchy, so nothing merges across modules; a flattening
/// flow (`synth_ice40`) merges the tag register with `dst` at m = 1, where it never
/// rotates (n FFs fewer).
fn expected_ffs(min: &Min) -> u64 {
    let (n, m) = (min.n() as u64, u64::from(min.m()));
    let all = 4 * m * n + 3 * m + 20;
    // At m = 1 a unit's `dst` and `tsr` are one bit each, loaded alike and rotated by 0:
    // always equal, and Yosys merges the two flip-flops (it sees them since flops are
    // written inside their module rather than as DFF instances), one per unit.
    if m == 1 {
        all - n
    } else {
        all
    }
}

#[test]
fn baseline_lints_compiles_synthesizes() {
    network(Network::Baseline);
}

#[test]
fn omega_lints_compiles_synthesizes() {
    network(Network::Omega);
}

#[test]
fn cube_lints_compiles_synthesizes() {
    network(Network::Cube);
}
