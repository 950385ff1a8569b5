//! `--setup fast` (`docs/protocol.md` §13) as a user runs it: `generate switch` names the
//! module and gives the shorter step lengths (the default summary is unchanged), `sim
//! switch` and `sim network` match the golden model, the fast network routes in the
//! sequential one's passes in fewer bit-times, `export-tb network` passes under Icarus,
//! and a bad `--setup` is rejected with exit code 1.

mod common;

use common::{json, rejects, scratch};

#[test]
fn generate_switch_fast_names_the_module_and_shortens_the_steps() {
    let dir = scratch("gen");
    let out = dir.to_str().unwrap();
    let base = [
        "generate",
        "switch",
        "--d",
        "2",
        "--u",
        "2",
        "--topology",
        "cb",
    ];
    let with = |extra: &[&str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(extra);
        a.extend_from_slice(&["-o", out, "--json"]);
        json(&a)
    };
    let seq = with(&[]);
    let fast = with(&["--setup", "fast"]);
    assert_eq!(seq["top"], "lca_switch_cb_d2_u2_w1_l3_rr");
    assert_eq!(fast["top"], "lca_switch_cb_d2_u2_w1_l3_rr_fast");
    assert!(seq["params"].get("setup").is_none(), "{}", seq["params"]);
    assert_eq!(fast["params"]["setup"], "fast");
    // l = 3: P1 = 1 + 2 + 2·3 = 9, P2 = 2 + 4 + 9 = 15, PR = 1 + 2 + 3 = 6 bits.
    let steps = |v: &serde_json::Value| {
        let f = &v["format"];
        (f["t_up"].clone(), f["t_down"].clone(), f["t_probe"].clone())
    };
    assert_eq!(steps(&seq), (12.into(), 22.into(), 11.into()));
    assert_eq!(steps(&fast), (10.into(), 16.into(), 7.into()));
    let text = std::fs::read_to_string(dir.join("lca_switch_cb_d2_u2_w1_l3_rr_fast.v")).unwrap();
    assert!(text.contains("setup"), "the header names the option");
}

#[test]
fn sim_switch_fast_matches() {
    let v = json(&[
        "sim",
        "switch",
        "--d",
        "4",
        "--u",
        "2",
        "--arbiter",
        "random",
        "--setup",
        "fast",
        "--cycles",
        "3000",
        "--seed",
        "4",
        "--json",
    ]);
    assert_eq!(v["match"], true, "{v}");
    assert_eq!(v["top"], "lca_switch_tree_d4_u2_w1_l3_random_fast");
}

#[test]
fn sim_network_fast_routes_the_same_passes_in_fewer_bit_times() {
    for alg in ["r1", "r2"] {
        let run = |setup: &str| {
            json(&[
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
                alg,
                "--arbiter",
                "round-robin",
                "--perm",
                "worst-case",
                "--seed",
                "9",
                "--setup",
                setup,
                "--json",
            ])
        };
        let (seq, fast) = (run("sequential"), run("fast"));
        assert_eq!(seq["match"], true, "{seq}");
        assert_eq!(fast["match"], true, "{fast}");
        assert_eq!(fast["passes"], seq["passes"], "{alg}");
        assert_eq!(fast["top_levels"], seq["top_levels"], "{alg}");
        assert_eq!(
            fast["delivered_per_pass"], seq["delivered_per_pass"],
            "{alg}"
        );
        let (s, f) = (
            seq["bit_times"].as_u64().unwrap(),
            fast["bit_times"].as_u64().unwrap(),
        );
        assert!(f < s, "{alg}: fast {f} vs sequential {s}");
    }
}

#[test]
fn export_tb_network_fast_passes_under_icarus() {
    let dir = scratch("tb");
    let v = json(&[
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
        "r1",
        "--arbiter",
        "fixed",
        "--setup",
        "fast",
        "--seed",
        "2",
        "-o",
        dir.to_str().unwrap(),
        "--run",
        "--json",
    ]);
    assert_eq!(v["top"], "lcan_tree_d2_u1_l3_w1_m8_r1_fixed_fast", "{v}");
    assert_eq!(v["icarus"], "PASS", "{v}");
}

#[test]
fn a_bad_setup_is_rejected() {
    rejects(
        &[
            "generate",
            "switch",
            "--d",
            "2",
            "--u",
            "1",
            "--setup",
            "instant",
            "-o",
            "/nonexistent",
        ],
        &["--setup"],
    );
}

#[test]
fn decisions_per_bit_time() {
    // Two decisions per bit-time on CB(2,2), l = 3: K = 0 (UP), ⌈6/2⌉ − 1 = 2 (DOWN),
    // ⌈4/2⌉ − 1 = 1 (PROBE).
    let dir = scratch("decisions");
    let v = json(&[
        "generate",
        "switch",
        "--d",
        "2",
        "--u",
        "2",
        "--topology",
        "cb",
        "--setup",
        "fast",
        "--decisions",
        "2",
        "-o",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["top"], "lca_switch_cb_d2_u2_w1_l3_rr_fast2");
    assert_eq!(v["params"]["setup"]["chunked"], 2, "{}", v["params"]);
    let f = &v["format"];
    assert_eq!(
        (f["t_up"].clone(), f["t_down"].clone(), f["t_probe"].clone()),
        (10.into(), 18.into(), 8.into())
    );
    let sim = json(&[
        "sim",
        "switch",
        "--d",
        "4",
        "--u",
        "4",
        "--topology",
        "cb",
        "--setup",
        "fast",
        "--decisions",
        "3",
        "--cycles",
        "3000",
        "--seed",
        "5",
        "--json",
    ]);
    assert_eq!(sim["match"], true, "{sim}");
    rejects(
        &[
            "generate",
            "switch",
            "--d",
            "2",
            "--u",
            "1",
            "--decisions",
            "2",
            "-o",
            "/nonexistent",
        ],
        &["--decisions needs --setup fast"],
    );
    rejects(
        &[
            "generate",
            "switch",
            "--d",
            "2",
            "--u",
            "1",
            "--setup",
            "fast",
            "--decisions",
            "0",
            "-o",
            "/nonexistent",
        ],
        &["decisions per bit-time = 0"],
    );
}
