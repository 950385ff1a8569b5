//! R3 in hardware from the command line (`docs/interface.md` §11): `generate network
//! --algorithm r3` (the top's load ports, the R3 switch, the GTKWave files naming `SRC`),
//! `sim network --algorithm r3` (a match, one pass on CB-LCAN(2,2), the waveform's save file
//! fitting its VCD), `export-tb network --algorithm r3 --run` (Icarus PASS), and a network
//! whose stream does not fit refused naming the condition.

mod common;

use common::{json, lcanet, rejects, scratch};

#[test]
fn generate_network_r3_has_the_load_ports_and_the_r3_switch() {
    let out = scratch("generate_r3");
    let o = out.to_str().unwrap();
    let s = json(&[
        "generate",
        "network",
        "--topology",
        "cb",
        "--d",
        "2",
        "--u",
        "2",
        "--levels",
        "3",
        "--algorithm",
        "r3",
        "-o",
        o,
        "--json",
    ]);
    assert_eq!(s["top"], "lcan_cb_d2_u2_l3_w1_m8_r3", "{s}");
    let ports: Vec<(String, u64)> = s["ports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_u64().unwrap()))
        .collect();
    // n = 8: PB = 3, RB = (2·3 − 1)·2 = 10.
    for want in [("pass", 24), ("route", 80), ("npass", 4)] {
        assert!(
            ports.contains(&(want.0.to_string(), want.1)),
            "{want:?} in {ports:?}"
        );
    }
    assert!(
        !ports.iter().any(|(p, _)| p == "seed"),
        "no arbiter, no seed"
    );
    assert!(out.join("lca_switch_r3_d2_u2_w1.v").exists());
    let phases = std::fs::read_to_string(out.join("lcan_phase.txt")).unwrap();
    assert!(phases.contains("11 SRC"), "{phases}");
    let modes = std::fs::read_to_string(out.join("lca_mode.txt")).unwrap();
    assert!(modes.contains("6 SRC"), "{modes}");
    let gtkw = std::fs::read_to_string(out.join("lcan_cb_d2_u2_l3_w1_m8_r3.gtkw")).unwrap();
    for t in ["ctrl.pk", "route", "lvl0_sw0.sc"] {
        assert!(gtkw.contains(t), "{t} in the save file");
    }
}

#[test]
fn sim_network_r3_matches_in_one_pass_with_waveforms() {
    let dir = scratch("sim_r3");
    let vcd = dir.join("run.vcd");
    let s = json(&[
        "sim",
        "network",
        "--topology",
        "cb",
        "--d",
        "2",
        "--u",
        "2",
        "--levels",
        "3",
        "--algorithm",
        "r3",
        "--seed",
        "5",
        "--vcd",
        vcd.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(s["match"], true, "{s}");
    assert_eq!(s["algorithm"], "r3");
    assert_eq!(s["arbiter"], "none");
    assert_eq!(s["passes"], 1, "{s}");
    // docs/interface.md §11.4: 8l + M + 3 with H = l − 1 (a random permutation of 8).
    let bt = s["bit_times"].as_u64().unwrap();
    assert!(bt <= 8 * 3 + 8 + 3, "{bt}");
    let gtkw = std::path::PathBuf::from(s["gtkw"].as_str().unwrap());
    common::check_gtkw_fits_vcd(&gtkw, &vcd, 50);
    let top = s["top"].as_str().unwrap();
    common::check_named(
        &gtkw,
        &format!("TOP.{top}.ctl_mode[2:0]"),
        "lca_mode.txt",
        6,
        "SRC",
    );
}

#[test]
fn export_tb_network_r3_passes_in_icarus() {
    let dir = scratch("export_r3");
    let s = json(&[
        "export-tb",
        "network",
        "--topology",
        "tree",
        "--d",
        "2",
        "--u",
        "1",
        "--levels",
        "3",
        "--algorithm",
        "r3",
        "--perm",
        "random",
        "--seed",
        "11",
        "-o",
        dir.to_str().unwrap(),
        "--run",
        "--json",
    ]);
    let text = s.to_string();
    assert!(text.contains("PASS"), "{text}");
}

#[test]
fn r3_streams_that_do_not_fit_are_refused() {
    let dir = scratch("refused_r3");
    let o = dir.join("out");
    rejects(
        &[
            "generate",
            "network",
            "--topology",
            "cb",
            "--d",
            "2",
            "--u",
            "2",
            "--levels",
            "12",
            "--algorithm",
            "r3",
            "--width",
            "16",
            "--message-bits",
            "64",
            "-o",
            o.to_str().unwrap(),
        ],
        &["would be 448 bits", "more than the supported 256"],
    );
    assert!(!o.exists(), "nothing written");
    // The clap value list names r3.
    let help = lcanet(&["generate", "network", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("r3"));
}
