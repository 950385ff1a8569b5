//! Switch sizes that vary by level on the command line (issue 17 item 1): `--d/--u` lists
//! and the named networks of 002 §2.2 in `info` (the per-level table), `schedule` (the
//! lower bound, R3's one-pass guarantee), `diagram`, `generate network` (one switch module
//! per shape), `info --write-pi` round trips; bad vectors name the level and condition,
//! exit 1, write nothing. (Co-simulation: `testbench/tests/lca_net_perlevel_cosim.rs`.)

mod common;
use common::{json, ok, rejects, scratch};

#[test]
fn info_prints_the_per_level_table_of_every_named_network() {
    let v = json(&["info", "--topology", "cm5", "--n", "256", "--json"]);
    assert_eq!(v["preset"], "cm5");
    assert!(v["d"].is_null() && v["u"].is_null(), "{v}");
    assert_eq!(v["u_per_level"], serde_json::json!([2, 2, 4, 4]));
    assert_eq!(v["switches_per_level"], serde_json::json!([64, 32, 16, 16]));
    // CB-LCAN LCA switches per pair: ∏_{m<h} u_m = 1, 2, 4, 16 (002 Lemma 2 per level).
    let lca: Vec<u64> = v["lca_levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["lca_switches_per_pair"].as_u64().unwrap())
        .collect();
    assert_eq!(lca, vec![1, 2, 4, 16]);
    assert_eq!(v["per_level"][1]["links_up"], 64);
    let text = ok(&["info", "--topology", "fat-tree", "--levels", "4"]);
    assert!(text.starts_with("binary fat-tree (Leiserson; 002 §2.2): T-LCAN(d=[2,4,8,16], u=[2,4,8,8]), l = 4, n = 16"), "{text}");
    assert!(text.contains("    3    16     8           1"), "{text}");
    for (topo, size, want) in [
        (
            "trac",
            "--levels",
            "TRAC network (002 §2.2): CB-LCAN(d=3, u=2), l = 3, n = 27",
        ),
        (
            "baseline",
            "--levels",
            "baseline network with full communication (002 §2.2): CB-LCAN(d=2, u=2), l = 3, n = 8",
        ),
    ] {
        let t = ok(&["info", "--topology", topo, size, "3"]);
        assert!(t.starts_with(want), "{t}");
    }
}

#[test]
fn vectors_schedule_draw_generate_and_round_trip() {
    let dir = scratch("vectors");
    // R3 on a per-level CB-LCAN with u_i ≥ d_i below the top: one pass, guaranteed.
    let v = json(&[
        "schedule",
        "--topology",
        "cb",
        "--d",
        "2,3,2",
        "--u",
        "2,3,1",
        "--perm",
        "worst-case",
        "--algorithm",
        "r3",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(v["pass_count"], 1);
    assert_eq!(v["one_pass_guaranteed"], true);
    assert_eq!(v["d_per_level"], serde_json::json!([2, 3, 2]));
    // The CM-5 shape is not rearrangeable: R1 and its lower bound.
    let v = json(&[
        "schedule",
        "--topology",
        "cm5",
        "--n",
        "64",
        "--perm",
        "worst-case",
        "--seed",
        "2",
        "--json",
    ]);
    assert!(v["pass_count"].as_u64().unwrap() >= v["lower_bound"].as_u64().unwrap());
    assert!(v["lower_bound"].as_u64().unwrap() >= 2, "{v}");
    // Diagram.
    let dot = dir.join("ft.dot");
    ok(&[
        "diagram",
        "--topology",
        "fat-tree",
        "--levels",
        "3",
        "-o",
        dot.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&dot).unwrap();
    assert!(
        text.contains("level 2 switch 0|{<d0>d0|<d1>d1|<d2>d2|<d3>d3|<d4>d4|<d5>d5|<d6>d6|<d7>d7}")
    );
    // --write-pi writes the per-level header; the file reads back as the same network.
    let pi = dir.join("cm5.pi");
    let a = json(&[
        "info",
        "--topology",
        "cm5",
        "--n",
        "64",
        "--json",
        "--write-pi",
        pi.to_str().unwrap(),
    ]);
    let head = std::fs::read_to_string(&pi).unwrap();
    assert!(
        head.contains("lcan d=4,4,4 u=2,2,4 levels=3 n=64"),
        "{head}"
    );
    let b = json(&["info", "--pi", pi.to_str().unwrap(), "--json"]);
    let pairs = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        let rows = v["lca_levels"].as_array().unwrap();
        rows.iter().map(|r| r["ordered_pairs"].clone()).collect()
    };
    assert_eq!(pairs(&a), pairs(&b));
    assert_eq!(a["per_level"], b["per_level"]);
    // generate network: one switch module per shape, the sizes in the names.
    let out = dir.join("net");
    let s = json(&[
        "generate",
        "network",
        "--topology",
        "cm5",
        "--n",
        "64",
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(s["top"], "lcan_cb_d4x4x4_u2x2x4_l3_w1_m8_r1_rr");
    let files: Vec<String> = s["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    let switches: Vec<&String> = files
        .iter()
        .filter(|f| f.starts_with("lca_switch_"))
        .collect();
    assert_eq!(
        switches,
        vec![
            "lca_switch_cb_d4_u2_w1_l3_rr_lv0_1.v",
            "lca_switch_cb_d4_u4_w1_l3_rr_lv2.v"
        ],
        "{files:?}"
    );
}

#[test]
fn bad_vectors_and_presets_name_the_level_and_condition() {
    let dir = scratch("bad");
    let out = dir.join("never");
    let o = out.to_str().unwrap();
    for (args, want) in [
        (
            vec!["info", "--topology", "tree", "--d", "4,6,2", "--u", "4,2,2"],
            "level 1: d_1 = 6 is not a multiple of u_0 = 4 (002 Definition 2, level by level",
        ),
        (
            vec!["info", "--topology", "cb", "--d", "4,99", "--u", "2"],
            "d_1 = 99 is out of range 2..=64 (level 1)",
        ),
        (
            vec!["info", "--topology", "cb", "--d", "4,,2", "--u", "2"],
            "entry 1 (level 1) '' is not a non-negative integer",
        ),
        (
            vec!["info", "--topology", "cb", "--d", "4,4,2", "--u", "2,2"],
            "--u 2,2 has 2 entries but the other vector has 3",
        ),
        (
            vec![
                "info",
                "--topology",
                "cb",
                "--d",
                "4,4",
                "--u",
                "2,2",
                "--n",
                "32",
            ],
            "--n 32 disagrees with --d 4,4 --u 2,2, which give n = 16",
        ),
        (
            vec!["info", "--topology", "cm5", "--n", "100"],
            "--topology cm5: n = 100 is not n = 4^l",
        ),
        (
            vec!["info", "--topology", "cm5", "--n", "64", "--u", "2"],
            "--topology cm5 fixes the network's switch sizes",
        ),
        (
            vec![
                "info",
                "--topology",
                "trac",
                "--levels",
                "2",
                "--capacity",
                "4",
            ],
            "--capacity is only for --topology fat-tree",
        ),
        (
            vec![
                "generate",
                "network",
                "--topology",
                "fat-tree",
                "--levels",
                "5",
                "--capacity",
                "16",
                "-o",
                o,
            ],
            "d_4 = 32 is larger than the supported maximum 16 (level 4)",
        ),
        (
            vec![
                "generate",
                "network",
                "--topology",
                "tree",
                "--d",
                "2,4",
                "--u",
                "2,17",
                "-o",
                o,
            ],
            "u_1 = 17 is larger than the supported maximum 16 (level 1)",
        ),
    ] {
        rejects(&args, &[want]);
    }
    assert!(!out.exists(), "a refused command wrote {}", out.display());
    let pi = dir.join("bad.pi");
    std::fs::write(&pi, "lcan d=4,6 u=4,4 levels=2 n=16\n").unwrap();
    rejects(
        &["info", "--pi", pi.to_str().unwrap()],
        &["level 1: S_1 = S_0·u_0/d_1 = 16/6 is not an integer"],
    );
}
