//! The MIN subcommands as a user runs them (`lcanet latin`, `generate min`, `sim min`,
//! `sim ataape`): JSON fields of docs/min.md, the reverse networks and the Ψ
//! construction, and bad input (invalid `m`, unknown network, malformed permutation files,
//! bad `--message-bits`, bad `--method`/`--order`/`--first-column`) rejected with a message naming
//! the condition, exit code 1 (README: 1 = error), and nothing written; the GTKWave save
//! file of `generate min` and, beside the VCD, of `sim ataape --vcd`.

mod common;
use common::{lcanet, rejects, scratch};

use std::path::Path;

#[test]
fn latin_json_is_l2_of_eq_15_for_omega_m3() {
    let out = lcanet(&["latin", "--network", "omega", "--m", "3", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["n"], 8);
    let rows: Vec<Vec<usize>> = serde_json::from_value(v["rows"].clone()).unwrap();
    assert_eq!(rows[0], [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(rows[4], [6, 7, 4, 5, 2, 3, 0, 1]);
    assert_eq!(rows[7], [4, 5, 6, 7, 0, 1, 2, 3]);
    assert_eq!(v["settings"][5], "φ1φ1φ1");
}

#[test]
fn latin_psi_gives_table2s_rows_in_the_order_asked_for() {
    let json = |extra: &[&str]| {
        let mut args = vec!["latin", "--network", "reverse-cube", "--m", "3", "--json"];
        args.extend(extra);
        let out = lcanet(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let rows = |v: &serde_json::Value| -> Vec<Vec<usize>> {
        serde_json::from_value(v["rows"].clone()).unwrap()
    };
    let table2 = json(&[]);
    assert_eq!(table2["method"], "table2");
    // The reverse cube starts from τ⁻¹, the one-bit right rotation.
    assert_eq!(rows(&table2)[0], [0, 4, 1, 5, 2, 6, 3, 7]);
    assert_eq!(table2["psi"][3], "φ2");
    let eq8 = json(&["--method", "psi"]);
    assert_eq!(eq8["order"], "eq8");
    assert_eq!(eq8["psi"][7], "φ3φ2φ1");
    let (mut a, mut b) = (rows(&table2), rows(&eq8));
    assert_ne!(a, b, "a different order of the same rows");
    a.sort();
    b.sort();
    assert_eq!(a, b);
    let col = json(&["--method", "psi", "--first-column", "0,7,6,5,4,3,2,1"]);
    assert_eq!(col["order"], "first-column");
    let col_rows = rows(&col);
    assert_eq!(
        col_rows.iter().map(|r| r[0]).collect::<Vec<_>>(),
        [0, 7, 6, 5, 4, 3, 2, 1]
    );
    let random = json(&["--method", "psi", "--order", "random", "--seed", "9"]);
    assert_eq!(random["seed"], 9);
    assert_eq!(
        rows(&random),
        rows(&json(&[
            "--method", "psi", "--order", "random", "--seed", "9"
        ]))
    );
    // In Table 2's order the Ψ construction is Table 2's square.
    assert_eq!(
        rows(&json(&["--method", "psi", "--order", "table2"])),
        rows(&table2)
    );
}

#[test]
fn latin_rejects_bad_psi_options() {
    let base = ["latin", "--network", "omega", "--m", "2"];
    let with = |extra: &[&'static str]| {
        let mut v = base.to_vec();
        v.extend(extra);
        v
    };
    rejects(
        &with(&["--order", "random"]),
        &["--order and --first-column choose the order of Ψ: they need --method psi"],
    );
    rejects(
        &with(&["--method", "psi", "--first-column", "0,1,2"]),
        &["invalid first column: it has 3 entries, need n = 4"],
    );
    rejects(
        &with(&["--method", "psi", "--first-column", "0,1,1,3"]),
        &["entry 2 repeats 1"],
    );
    rejects(
        &with(&["--method", "psi", "--first-column", "2,1,0,3"]),
        &["starts with 2, but row 0 (the network's first row) starts with 0"],
    );
    rejects(
        &with(&["--method", "psi", "--first-column", "0,1,-2,3"]),
        &["entry 2 (\"-2\") is not a non-negative integer"],
    );
    rejects(
        &with(&[
            "--method",
            "psi",
            "--first-column",
            "0,1,2,99999999999999999999999",
        ]),
        &["is not a non-negative integer"],
    );
    rejects(
        &with(&[
            "--method",
            "psi",
            "--order",
            "eq8",
            "--first-column",
            "0,1,2,3",
        ]),
        &["cannot be used with"],
    );
    rejects(
        &with(&["--method", "latin"]),
        &["invalid value 'latin' for '--method"],
    );
    rejects(
        &with(&["--method", "psi", "--order", "gray"]),
        &["invalid value 'gray' for '--order"],
    );
}

#[test]
fn reverse_omega_generates_and_co_simulates() {
    let dir = scratch("reverse_omega");
    let out = dir.join("romega3");
    let o = lcanet(&[
        "generate",
        "min",
        "--network",
        "reverse-omega",
        "--m",
        "3",
        "--message-bits",
        "5",
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["network"], "reverse-omega");
    assert_eq!(v["top"], "reverse_omega_atape_m3_b5");
    // Least significant destination bit first: tap 0, rotate left by m - 1 = right by 1.
    assert_eq!(v["tag_bits"], serde_json::json!([0, 1, 2]));
    assert_eq!(
        (v["tag_tap"].as_u64(), v["tag_rotation"].as_u64()),
        (Some(0), Some(2))
    );
    assert!(out.join("atape_unit_m3_tap0_rot2.v").is_file());
    let top = std::fs::read_to_string(out.join("reverse_omega_atape_m3_b5.v")).unwrap();
    assert!(top.contains("unshuffle"), "{top}");
    let o = lcanet(&[
        "sim",
        "ataape",
        "--network",
        "Reverse_Omega",
        "--m",
        "2",
        "--message-bits",
        "3",
        "--seed",
        "5",
        "--work-dir",
        dir.join("work").to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["match"].as_bool(), v["network"].as_str()),
        (Some(true), Some("reverse-omega"))
    );
    assert_eq!(
        (v["bit_times"].as_u64(), v["messages_checked"].as_u64()),
        (Some(22), Some(16))
    );
}

#[test]
fn invalid_m_is_rejected_naming_the_range() {
    for m in ["0", "13"] {
        rejects(
            &["latin", "--network", "cube", "--m", m],
            &[&format!("m = {m} is out of range"), "1 ≤ m ≤ 12"],
        );
    }
    // Not a number at all: clap's message, still exit code 1.
    rejects(
        &["latin", "--network", "cube", "--m", "abc"],
        &["invalid value 'abc' for '--m"],
    );
    let dir = scratch("bad_m");
    let out = dir.join("out");
    rejects(
        &[
            "generate",
            "min",
            "--network",
            "omega",
            "--m",
            "0",
            "-o",
            out.to_str().unwrap(),
        ],
        &["1 ≤ m ≤ 12"],
    );
    assert!(!out.exists(), "generate min created {}", out.display());
}

#[test]
fn unknown_network_is_rejected_naming_the_choices() {
    for cmd in [
        &["latin"][..],
        &["generate", "min", "-o", "unused_dir"],
        &["sim", "ataape"],
        &["sim", "min", "--perm", "identity"],
    ] {
        let mut args = cmd.to_vec();
        args.extend(["--network", "butterfly", "--m", "3"]);
        rejects(
            &args,
            &[
                "unknown network 'butterfly'",
                "baseline, omega, cube (indirect binary n-cube), reverse-baseline, reverse-omega or reverse-cube",
            ],
        );
    }
    assert!(!Path::new("unused_dir").exists());
}

#[test]
fn bad_message_bits_write_nothing() {
    let dir = scratch("bad_bits");
    let out = dir.join("out");
    for bits in ["0", "4097"] {
        rejects(
            &[
                "generate",
                "min",
                "--network",
                "cube",
                "--m",
                "2",
                "--message-bits",
                bits,
                "-o",
                out.to_str().unwrap(),
            ],
            &["--message-bits", "1 ≤ bits ≤ 4096"],
        );
        assert!(!out.exists());
        for sim in [
            &["sim", "ataape"][..],
            &["sim", "min", "--perm", "identity"],
        ] {
            let mut args = sim.to_vec();
            args.extend(["--network", "cube", "--m", "2", "--message-bits", bits]);
            args.extend(["--seed", "1", "--work-dir", out.to_str().unwrap()]);
            rejects(&args, &["--message-bits", "1 ≤ bits ≤ 4096"]);
            assert!(!out.exists());
        }
    }
}

#[test]
fn malformed_permutation_files_are_rejected_before_anything_runs() {
    let dir = scratch("bad_perm");
    let work = dir.join("work");
    let cases = [
        (
            "short",
            "0 1 2\n",
            "expected 4 destinations (one per PE), found 3",
        ),
        (
            "long",
            "0 1 2 3 0\n",
            "expected 4 destinations (one per PE), found 5",
        ),
        ("range", "0 1 2 4\n", "destination 4 is out of range 0..4"),
        ("dup", "0 1 1 3\n", "both send to 1"),
        (
            "token",
            "0 1 x 3\n",
            "token 'x' for PE 2 is not a non-negative integer",
        ),
        (
            "silent",
            "0 - 2 3\n",
            "every PE must send in a full permutation",
        ),
        ("empty", "", "found 0"),
    ];
    for (name, text, needle) in cases {
        let file = dir.join(format!("{name}.perm"));
        std::fs::write(&file, text).unwrap();
        rejects(
            &[
                "sim",
                "min",
                "--network",
                "baseline",
                "--m",
                "2",
                "--perm",
                file.to_str().unwrap(),
                "--work-dir",
                work.to_str().unwrap(),
            ],
            &[
                &format!(
                    "{} is not a permutation of the network's 4 PEs",
                    file.display()
                ),
                needle,
            ],
        );
        assert!(!work.exists(), "{name}: the work directory was created");
    }
    let missing = dir.join("missing.perm");
    rejects(
        &[
            "sim",
            "min",
            "--network",
            "baseline",
            "--m",
            "2",
            "--perm",
            missing.to_str().unwrap(),
        ],
        &["reading permutation file", "missing.perm"],
    );
}

#[test]
fn generate_min_writes_the_network_and_its_summary() {
    let dir = scratch("generate");
    let out = dir.join("omega3");
    let o = lcanet(&[
        "generate",
        "min",
        "--network",
        "omega",
        "--m",
        "3",
        "--message-bits",
        "5",
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let on_disk: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(v, on_disk);
    assert_eq!(v["top"], "omega_atape_m3_b5");
    assert_eq!(v["switches"], 12);
    assert_eq!(v["tag_bits"], serde_json::json!([2, 1, 0]));
    assert_eq!(v["atape_bit_times"], 8 * (3 + 5) + 3);
    // Switch, ATAPE unit, controller, top: one definition each.
    assert_eq!(v["modules"], 4);
    let names: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    for name in [
        "min_switch_2x2.v",
        "atape_unit_m3_tap2_rot1.v",
        "atape_ctrl_m3_f8.v",
        "omega_atape_m3_b5.v",
    ] {
        assert!(names.contains(&name), "{names:?}");
    }
    for f in v["files"].as_array().unwrap() {
        assert!(Path::new(f.as_str().unwrap()).is_file(), "{f}");
    }
    let gtkw = out.join("omega_atape_m3_b5.gtkw");
    assert_eq!(v["gtkw"], gtkw.to_str().unwrap());
    let text = std::fs::read_to_string(&gtkw).unwrap();
    for t in [
        "sw_crossed[11:0]",
        "st2_out[7:0]",
        "st2_sw3.crossed",
        "ctrl.dec[2:0]",
    ] {
        assert!(
            text.contains(&format!("TOP.omega_atape_m3_b5.{t}\n")),
            "{t}:\n{text}"
        );
    }
    assert!(
        common::gtkw_filters(&text).is_empty(),
        "no phase code, no filter"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn sim_ataape_json_reports_an_exact_run() {
    let dir = scratch("sim_ataape");
    let work = dir.join("work");
    let o = lcanet(&[
        "sim",
        "ataape",
        "--network",
        "cube",
        "--m",
        "2",
        "--message-bits",
        "3",
        "--seed",
        "5",
        "--work-dir",
        work.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["match"], true, "{v}");
    assert_eq!(v["seed"], 5);
    assert_eq!(v["top"], "cube_atape_m2_b3");
    // n·F + m = 4·5 + 2 bit-times, no conflict, n² messages.
    assert_eq!(v["bit_times"], 22);
    assert_eq!(v["bound"], 22);
    assert_eq!(v["conflicts"], 0);
    assert_eq!(v["messages_checked"], 16);
    assert!(v["bit_times_per_second"].as_f64().unwrap() > 0.0);
    assert!(work.join("cube_atape_m2_b3.f").is_file());
    assert!(v["vcd"].is_null() && v["gtkw"].is_null(), "{v}");
}

/// `--vcd` writes the save file beside the VCD, every trace a signal of the VCD; the text
/// report says how to open both.
#[test]
fn sim_ataape_writes_a_save_file_that_fits_its_vcd() {
    let dir = scratch("sim_ataape_vcd");
    let vcd = dir.join("atape.vcd");
    let o = lcanet(&[
        "sim",
        "ataape",
        "--network",
        "baseline",
        "--m",
        "2",
        "--message-bits",
        "2",
        "--seed",
        "4",
        "--work-dir",
        dir.join("work").to_str().unwrap(),
        "--vcd",
        vcd.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let gtkw = std::fs::canonicalize(&dir).unwrap().join("atape.gtkw");
    let stdout = String::from_utf8_lossy(&o.stdout);
    let want = format!("waveforms: gtkwave {} {}", vcd.display(), gtkw.display());
    assert!(stdout.contains(&want), "{stdout}");
    let text = common::check_gtkw_fits_vcd(&gtkw, &vcd, 30);
    assert!(
        text.contains("TOP.baseline_atape_m2_b2.sw_conflict[3:0]\n"),
        "{text}"
    );
}

#[test]
fn sim_min_json_reports_predicted_conflicts() {
    let dir = scratch("sim_min");
    // Baseline m = 2: bit reversal is its Latin square's first row (admissible); in the
    // identity PEs 0 and 1 share switch 0 of stage 0 and both want the upper output
    // (destination bit 1 is 0 for 0 and 1).
    let reversal = dir.join("reversal.perm");
    std::fs::write(&reversal, "0 2 1 3\n").unwrap();
    let identity = dir.join("identity.perm");
    std::fs::write(&identity, "0 1 2 3\n").unwrap();
    for (file, admissible) in [(&reversal, true), (&identity, false)] {
        let o = lcanet(&[
            "sim",
            "min",
            "--network",
            "baseline",
            "--m",
            "2",
            "--perm",
            file.to_str().unwrap(),
            "--seed",
            "1",
            "--work-dir",
            dir.join("work").to_str().unwrap(),
            "--json",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["match"], true, "{v}");
        assert_eq!(v["admissible"], admissible, "{v}");
        assert_eq!(v["frames"], 1);
        assert_eq!(v["conflicts"], v["expected_conflicts"]);
        assert_eq!(v["conflicts"] == 0, admissible, "{v}");
        assert_eq!(v["flagged"].as_array().unwrap().is_empty(), admissible);
    }
}
