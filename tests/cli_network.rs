//! `lcanet generate network` / `sim network` input checking: bad input names the violated
//! condition, exits non-zero and writes nothing; a good small network writes the Verilog, the
//! `.gtkw` file (with its translate filters) and the JSON summary; `sim network` matches and
//! reports where its time went.

mod common;
use common::lcanet;

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
        gtkw.contains("-controller")
            && gtkw.contains("TOP.lcan_tree_d2_u1_l2_w1_m8_r1_rr.lvl1_sw0.xp_ac[3:0]"),
        "{gtkw}"
    );
    // Vectors, not bits: one port per quantity, PE p at [p*w +: w].
    let ports: Vec<(String, u64)> = s["ports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_u64().unwrap()))
        .collect();
    assert!(ports.contains(&("dst".to_string(), 8)), "{ports:?}");
    assert!(ports.contains(&("rmsg".to_string(), 32)), "{ports:?}");
    assert!(ports.contains(&("phase".to_string(), 4)), "{ports:?}");
    assert!(!gtkw.contains("_0\n"), "{gtkw}");
    assert!(out.join("lcan_phase.txt").exists() && out.join("lca_mode.txt").exists());
}

/// A small network co-simulates with a match; the JSON report splits the loop's time into
/// RTL, golden model and comparison; `--vcd` writes the waveform and a `.gtkw` whose
/// translate filters sit beside it.
#[test]
fn sim_network_matches_reports_time_and_writes_waveforms() {
    let dir = tempfile::tempdir().unwrap();
    let vcd = dir.path().join("run.vcd");
    let r = lcanet(&[
        "sim",
        "network",
        "--topology",
        "cb",
        "--d",
        "2",
        "--u",
        "2",
        "--levels",
        "2",
        "--seed",
        "3",
        "--vcd",
        vcd.to_str().unwrap(),
        "--json",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let s: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(s["match"], true, "{s}");
    assert_eq!(s["seed"], 3, "{s}");
    for k in ["rtl", "golden", "compare", "run", "build"] {
        assert!(s["seconds"][k].as_f64().unwrap() >= 0.0, "{k}: {s}");
    }
    assert!(
        s["compared_values"].as_u64().unwrap() > 8 * s["simulated_bit_times"].as_u64().unwrap()
    );
    assert!(std::fs::metadata(&vcd).unwrap().len() > 0);
    let gtkw_path = std::path::PathBuf::from(s["gtkw"].as_str().unwrap());
    assert_eq!(
        gtkw_path,
        std::path::absolute(vcd.with_extension("gtkw")).unwrap(),
        "the save file sits beside the VCD"
    );
    let gtkw = std::fs::read_to_string(&gtkw_path).unwrap();
    let filter = gtkw_path.with_file_name("lcan_phase.txt");
    assert!(gtkw.contains(&format!("^1 {}", filter.display())), "{gtkw}");
    assert!(std::fs::read_to_string(&filter).unwrap().contains("4 UP"));
    assert!(
        gtkw.contains(&format!("[dumpfile] \"{}\"", vcd.display())),
        "{gtkw}"
    );
    // Every trace of the save file is a signal of the VCD (path and range).
    common::check_gtkw_fits_vcd(&gtkw_path, &vcd, 50);
    let top = s["top"].as_str().unwrap();
    common::check_named(
        &gtkw_path,
        // The broadcast as the first switch's tap decodes it.
        &format!("TOP.{top}.lvl0_sw0_tap_ctl_mode[2:0]"),
        "lca_mode.txt",
        5,
        "REV",
    );
}

/// `--threads 2` builds a model of two threads (Verilator's `--threads`) that matches the
/// golden model as the single-threaded one does and says so; `--threads 0` is refused.
#[test]
fn sim_network_runs_a_two_thread_model_and_refuses_zero_threads() {
    let net = [
        "sim",
        "network",
        "--topology",
        "cb",
        "--d",
        "2",
        "--u",
        "2",
        "--levels",
        "2",
        "--seed",
        "5",
        "--json",
    ];
    let zero = lcanet(&[&net[..], &["--threads", "0"]].concat());
    assert!(!zero.status.success());
    assert!(
        String::from_utf8_lossy(&zero.stderr).contains("--threads"),
        "{}",
        String::from_utf8_lossy(&zero.stderr)
    );
    let r = lcanet(&[&net[..], &["--threads", "2"]].concat());
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let s: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(s["match"], true, "{s}");
    assert_eq!(s["threads"], 2, "{s}");
}
