//! Every emitted MIN (three forward networks at m = 1..6, the three reverse ones at
//! m = 1..4; m = 5, 6 for them in the ignored `reverse_networks_at_m5_m6`) follows the RTL style rules
//! (`lcanet_hdl::style::check_files`), lints clean under `verilator --lint-only
//! -Wall`, compiles in Icarus (`-g2005 -Wall`, warnings fail) and synthesizes in Yosys
//! (generic `synth`, hierarchy kept, no latches) with exactly the flip-flops
//! docs/min.md §3 describes: 4 per switch, 2m per ATAPE unit, 3m + 20 in the
//! controller. The iCE40 flow (`synth_ice40`, 15–30 s at m = 6, so only at m = 3 here;
//! larger sizes: the ignored `ice40_luts_and_ffs_per_pe` and `lcanet fpga`) gives the
//! same count. Four module files whatever n (switch, unit, controller, top); instances
//! are named `st<s>_sw<k>`, `pe<j>`, `ctrl`.

use lcanet_hdl::style::check_files;
use lcanet_sim::min::{Min, Network};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::min::emit;
use lcanet_testbench::tools::{icarus, lint::lint, yosys};

fn style_clean(files: &[std::path::PathBuf]) {
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(f).unwrap())
        })
        .collect();
    let issues = check_files(texts.iter().map(|(n, t)| (n.as_str(), t.as_str())));
    assert!(issues.is_empty(), "{issues:?}");
}

fn network(net: Network, sizes: std::ops::RangeInclusive<u32>) {
    for m in sizes {
        let min = Min::new(net, m).unwrap();
        let dir = artifact_dir!(format!("{net}_m{m}")).unwrap();
        let e = emit(&min, 5, &dir.path().join("verilog")).unwrap();
        assert_eq!(e.modules, 4, "{net} m={m}: {} modules", e.modules);
        let top_text = std::fs::read_to_string(e.files.last().unwrap()).unwrap();
        let last = min.switches_per_stage() - 1;
        assert!(top_text.contains(&format!("min_switch_2x2 st{}_sw{last} (", m - 1)));
        assert!(top_text.contains(&format!(" pe{} (", min.n() - 1)));
        assert!(top_text.contains(" ctrl ("));
        style_clean(&e.files);

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

/// 4 per switch (out_q[2], crossed_q, conflict_q), 2m per ATAPE unit (dst_q, tsr),
/// 3m + 20 in the controller (run, drain[4], pos_q[16], frame_q[m], single_q,
/// dec_line[2(m-1)]).
fn expected_ffs(min: &Min) -> u64 {
    let (n, m) = (min.n() as u64, u64::from(min.m()));
    let all = 4 * m * n + 3 * m + 20;
    // At m = 1 a unit's `dst_q` and `tsr` are one bit each, loaded alike and never
    // rotated: always equal, and Yosys merges the two flip-flops, one per unit.
    if m == 1 {
        all - n
    } else {
        all
    }
}

#[test]
fn baseline_lints_compiles_synthesizes() {
    network(Network::Baseline, 1..=6);
}

#[test]
fn omega_lints_compiles_synthesizes() {
    network(Network::Omega, 1..=6);
}

#[test]
fn cube_lints_compiles_synthesizes() {
    network(Network::Cube, 1..=6);
}

// One test per reverse network, so that the test threads share their Yosys runs.
#[test]
fn reverse_baseline_lints_compiles_synthesizes() {
    network(Network::ReverseBaseline, 1..=4);
}

#[test]
fn reverse_omega_lints_compiles_synthesizes() {
    network(Network::ReverseOmega, 1..=4);
}

#[test]
fn reverse_cube_lints_compiles_synthesizes() {
    network(Network::ReverseCube, 1..=4);
}

#[test]
#[ignore = "Yosys and Verilator on the reverse networks at m = 5, 6: -- --ignored"]
fn reverse_networks_at_m5_m6() {
    for net in Network::ALL.into_iter().filter(|n| n.is_reverse()) {
        network(net, 5..=6);
    }
}

/// iCE40 LUTs and flip-flops per PE (whole network / n) for m = 3..8, omega, B = 8:
/// the figures of docs/min.md §8. Minutes of Yosys at m = 8, hence ignored:
/// `cargo test -p lcanet-testbench --test min_tools -- --ignored --nocapture`.
#[test]
#[ignore = "minutes of Yosys (synth_ice40 up to m = 8)"]
fn ice40_luts_and_ffs_per_pe() {
    for m in 3..=8u32 {
        let min = Min::new(Network::Omega, m).unwrap();
        let dir = artifact_dir!(format!("ice40_m{m}")).unwrap();
        let e = emit(&min, 8, &dir.path().join("verilog")).unwrap();
        let ice = yosys::synth_ice40(&e.files, &e.top).unwrap();
        assert_eq!(ice.ffs, expected_ffs(&min), "m={m}: {ice:?}");
        let n = min.n() as f64;
        println!(
            "m = {m}: {} LUTs, {} FFs, {} carries; per PE {:.2} LUTs, {:.2} FFs",
            ice.luts,
            ice.ffs,
            ice.carries,
            ice.luts as f64 / n,
            ice.ffs as f64 / n
        );
    }
}
