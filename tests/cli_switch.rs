//! `lcanet generate switch` and `lcanet sim switch` as a user runs them: the files and the
//! JSON summary of a generated switch (one module, vector ports), a short co-simulation that
//! matches, and bad parameters rejected with the violated condition, exit code 1 and
//! nothing written.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn lcanet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lcanet"))
        .args(args)
        .env("LCANET_CACHE_DIR", cache())
        .output()
        .expect("run lcanet")
}

/// The shared Verilator cache if the environment names one, else one under the target dir.
fn cache() -> PathBuf {
    std::env::var_os("LCANET_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("lcanet-cache"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_switch_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn generate_switch_writes_one_module_with_vector_ports_and_a_summary() {
    let dir = scratch("generate");
    let out_dir = dir.join("rtl");
    let out = lcanet(&[
        "generate",
        "switch",
        "--d",
        "4",
        "--u",
        "2",
        "--width",
        "2",
        "--topology",
        "tree",
        "--arbiter",
        "random",
        "-o",
        out_dir.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let top = "lca_switch_tree_d4_u2_w2_l3_random";
    assert_eq!(v["top"], top);
    assert_eq!(v["format"]["t_up"], 6 + 4 + 1); // n(P1) = ⌈11/2⌉, d = 4, commit
    let ports: Vec<(String, usize)> = serde_json::from_value(v["ports"].clone()).unwrap();
    let want: Vec<(String, usize)> = [
        ("clock", 1),
        ("a", 8),
        ("b", 4),
        ("level", 4),
        ("ctl_init", 1),
        ("ctl_mode", 3),
        ("ctl_last", 1),
        ("ctl_clear", 1),
        ("ctl_level", 4),
        ("seed16", 16),
        ("salt_up", 16),
        ("salt_dn", 16),
        ("c", 8),
        ("d", 4),
    ]
    .into_iter()
    .map(|(n, w)| (n.to_string(), w))
    .collect();
    assert_eq!(ports, want);
    for f in [
        format!("{top}.v"),
        format!("{top}.f"),
        format!("{top}.json"),
    ] {
        assert!(out_dir.join(&f).is_file(), "{f} missing");
    }
    let text = std::fs::read_to_string(out_dir.join(format!("{top}.v"))).unwrap();
    assert_eq!(
        text.matches("\nmodule ").count(),
        1,
        "one module definition"
    );
    assert_eq!(text.matches("always @(posedge clock)").count(), 1);
}

#[test]
fn sim_switch_matches_and_reports_json() {
    let out = lcanet(&[
        "sim",
        "switch",
        "--d",
        "2",
        "--u",
        "2",
        "--topology",
        "cb",
        "--arbiter",
        "round-robin",
        "--cycles",
        "2000",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["match"], true);
    assert_eq!(v["bit_times"], 2000);
    assert_eq!(v["seed"], 3);
    assert_eq!(v["top"], "lca_switch_cb_d2_u2_w1_l3_rr");
    assert!(v["commits"].as_u64().unwrap() > 10);
    assert!(v["failure"].is_null());
}

#[test]
fn bad_parameters_are_rejected_naming_the_condition() {
    let dir = scratch("bad");
    let out_dir = dir.join("rtl");
    for (args, needle) in [
        (
            vec!["--d", "4", "--u", "3", "--topology", "tree"],
            "d to be a multiple of u",
        ),
        (vec!["--d", "1", "--u", "1"], "at least 2 downers"),
        (
            vec!["--d", "17", "--u", "1"],
            "larger than the supported maximum 16",
        ),
    ] {
        let mut full = vec!["generate", "switch"];
        full.extend(args.iter());
        full.extend(["-o", out_dir.to_str().unwrap()]);
        let out = lcanet(&full);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!out_dir.exists(), "{args:?} wrote files");
    }
    let out = lcanet(&[
        "sim", "switch", "--d", "2", "--u", "1", "--levels", "2", "--level", "2", "--cycles", "10",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--level 2 must be below --levels 2"));
}
