//! `lcanet generate network` / `sim network` input checking: bad input names the violated
//! condition, exits non-zero and writes nothing; a good small network writes the Verilog, the
//! `.gtkw` file and the JSON summary; hierarchical and composed `sim network` builds match.

use std::process::Command;

fn lcanet(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_lcanet"))
        .args(args)
        .output()
        .expect("lcanet runs")
}

#[test]
fn bad_network_parameters_are_rejected_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("net");
    let o = out.to_str().unwrap();
    for (args, want) in [
        (
            vec![
                "--topology",
                "tree",
                "--d",
                "6",
                "--u",
                "4",
                "--levels",
                "2",
            ],
            "d = 6 is not a multiple of u = 4",
        ),
        (
            vec![
                "--topology",
                "cb",
                "--d",
                "2",
                "--u",
                "2",
                "--levels",
                "2",
                "--message-bits",
                "0",
            ],
            "message bits = 0",
        ),
        (
            vec![
                "--topology",
                "tree",
                "--d",
                "2",
                "--u",
                "1",
                "--levels",
                "2",
                "--width",
                "0",
            ],
            "width = 0",
        ),
    ] {
        let mut full = vec!["generate", "network"];
        full.extend(args.iter().copied());
        full.extend(["-o", o]);
        let r = lcanet(&full);
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(!r.status.success(), "{args:?} succeeded");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    // A Π file beyond the switch RTL (d ≤ 16): refused with the condition.
    let pi = dir.path().join("wide.pi");
    std::fs::write(&pi, "lcan d=32 u=1 levels=1 n=32\n").unwrap();
    let r = lcanet(&["generate", "network", "--pi", pi.to_str().unwrap(), "-o", o]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        !r.status.success() && err.contains("d = 32 is larger than the supported maximum 16"),
        "{err}"
    );
    assert!(!out.exists());
}

/// `--pi FILE` alone generates a Π network: one switch module, a ROM module per distinct
/// table, and the PE and switch instances of the top.
#[test]
fn generate_network_from_a_pi_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("net");
    let pi = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/examples/skewed8.pi");
    let r = lcanet(&[
        "generate",
        "network",
        "--pi",
        pi,
        "--json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let s: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(s["top"].as_str().unwrap(), "lcan_file_d2_u2_l3_w1_m8_r1_rr");
    assert_eq!(s["switches"], 12);
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let count = |p: &str| names.iter().filter(|n| n.starts_with(p)).count();
    assert_eq!(count("lca_switch_pi8_d2_u2_w1_l3_rr.v"), 1, "{names:?}");
    assert!(count("lca_rom_pi8_d2_u2_l3_") >= 2, "{names:?}");
    let top = std::fs::read_to_string(out.join("lcan_file_d2_u2_l3_w1_m8_r1_rr.v")).unwrap();
    assert!(top.contains("lvl2_sw3_rom"), "no ROM instance for lvl2_sw3");
}

#[test]
fn generate_network_writes_verilog_gtkw_and_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("net");
    let r = lcanet(&[
        "generate",
        "network",
        "--topology",
        "tree",
        "--d",
        "2",
        "--u",
        "1",
        "--levels",
        "2",
        "--json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let s: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let top = s["top"].as_str().unwrap();
    assert_eq!(top, "lcan_tree_d2_u1_l2_w1_m8_r1_rr");
    assert_eq!(s["switches"], 3);
    assert!(s["bytes_per_switch"].as_f64().unwrap() > 0.0);
    for f in [
        format!("{top}.v"),
        format!("{top}.f"),
        format!("{top}.gtkw"),
        format!("{top}.json"),
    ] {
        assert!(out.join(&f).exists(), "{f} missing");
    }
    let gtkw = std::fs::read_to_string(out.join(format!("{top}.gtkw"))).unwrap();
    assert!(
        gtkw.contains("-controller") && gtkw.contains("lvl1_sw0"),
        "{gtkw}"
    );
}

#[test]
fn sim_network_hierarchical_build_matches_and_names_its_blocks() {
    let r = lcanet(&[
        "sim",
        "network",
        "--topology",
        "tree",
        "--d",
        "2",
        "--u",
        "1",
        "--levels",
        "2",
        "--perm",
        "worst-case",
        "--seed",
        "5",
        "--model",
        "hierarchical",
        "--json",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let s: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(s["match"], true, "{s}");
    assert_eq!(s["model"], "hierarchical", "{s}");
    let blocks: Vec<&str> = s["hierarchical_blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap())
        .collect();
    assert_eq!(
        blocks,
        [
            "lca_switch_tree_d2_u1_w1_l2_rr",
            "lcan_tree_d2_u1_l2_w1_m8_r1_rr_pe"
        ],
        "{s}"
    );
    assert!(s["compared_values"].as_u64().unwrap() > 0, "{s}");
    assert!(s["vcd"].is_null(), "no VCD unless asked: {s}");
}

#[test]
fn sim_network_defaults_to_a_composed_model_and_refuses_one_with_a_vcd() {
    let net = [
        "sim",
        "network",
        "--topology",
        "tree",
        "--d",
        "4",
        "--u",
        "2",
        "--levels",
        "2",
        "--algorithm",
        "r2",
        "--perm",
        "random",
        "--seed",
        "9",
    ];
    let mut args = net.to_vec();
    args.push("--json");
    let r = lcanet(&args);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let s: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(s["match"], true, "{s}");
    assert_eq!(s["model"], "composed", "{s}");
    assert!(
        s["hierarchical_blocks"].as_array().unwrap().is_empty(),
        "{s}"
    );
    assert!(s["compared_values"].as_u64().unwrap() > 0, "{s}");

    let dir = tempfile::tempdir().unwrap();
    let vcd = dir.path().join("w.vcd");
    let mut args = net.to_vec();
    args.extend(["--model", "composed", "--vcd", vcd.to_str().unwrap()]);
    let r = lcanet(&args);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("--model composed writes no VCD"), "{err}");
    assert!(!vcd.exists(), "nothing written");
}
