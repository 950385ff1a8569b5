//! `lcanet generate switch` and `lcanet sim switch` as a user runs them: the files and the
//! JSON summary of a generated switch (one module, vector ports, a GTKWave save file), a
//! short co-simulation that matches, its VCD with a save file beside it that fits, and bad
//! parameters rejected with the violated condition, exit code 1 and nothing written.

mod common;

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
        format!("{top}.gtkw"),
        "lca_mode.txt".to_string(),
        format!("{top}.json"),
    ] {
        assert!(out_dir.join(&f).is_file(), "{f} missing");
        assert!(
            v["files"].as_array().unwrap().contains(&f.clone().into()),
            "{f}: {v}"
        );
    }
    assert_eq!(v["gtkw"], format!("{top}.gtkw"));
    let gtkw = out_dir.join(format!("{top}.gtkw"));
    common::check_named(
        &gtkw,
        &format!("TOP.{top}.ctl_mode[2:0]"),
        "lca_mode.txt",
        3,
        "PROBE",
    );
    // The random policy's LFSRs and seed are shown; packets are vectors, not bits.
    let text = std::fs::read_to_string(&gtkw).unwrap();
    for t in [
        "up_lfsr[15:0]",
        "dn_lfsr[15:0]",
        "seed16[15:0]",
        "rx_a[43:0]",
        "xp_ac[15:0]",
    ] {
        assert!(text.contains(&format!("TOP.{top}.{t}\n")), "{t}:\n{text}");
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
    assert!(v["vcd"].is_null() && v["gtkw"].is_null(), "{v}");
}

/// `--vcd` writes the save file beside the VCD: every trace a signal of the VCD, the mode
/// by name, the VCD as its dump file; the text report says how to open both.
#[test]
fn sim_switch_writes_a_save_file_beside_its_vcd() {
    let dir = scratch("vcd");
    let vcd = dir.join("run.vcd");
    let args = [
        "sim",
        "switch",
        "--d",
        "4",
        "--u",
        "2",
        "--arbiter",
        "random",
        "--cycles",
        "300",
        "--seed",
        "7",
        "--vcd",
        vcd.to_str().unwrap(),
    ];
    let out = lcanet(&[&args[..], &["--json"]].concat());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["match"], true, "{v}");
    let gtkw = PathBuf::from(v["gtkw"].as_str().unwrap());
    assert_eq!(gtkw, std::fs::canonicalize(&dir).unwrap().join("run.gtkw"));
    let text = common::check_gtkw_fits_vcd(&gtkw, &vcd, 50);
    assert!(
        text.contains(&format!("[dumpfile] \"{}\"", vcd.display())),
        "{text}"
    );
    let top = v["top"].as_str().unwrap();
    common::check_named(
        &gtkw,
        &format!("TOP.{top}.ctl_mode[2:0]"),
        "lca_mode.txt",
        1,
        "UP",
    );
    // The text report (the model is cached now) names both files.
    let out = lcanet(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    let want = format!("waveforms: gtkwave {} {}", vcd.display(), gtkw.display());
    assert!(text.contains(&want), "{text}");
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
    let vcd = dir.join("run.vcd");
    let out = lcanet(&[
        "sim",
        "switch",
        "--d",
        "2",
        "--u",
        "1",
        "--levels",
        "2",
        "--level",
        "2",
        "--cycles",
        "10",
        "--vcd",
        vcd.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--level 2 must be below --levels 2"));
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "a refused run wrote {left:?}");
}
