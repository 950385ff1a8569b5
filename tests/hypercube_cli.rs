//! `lcanet generate hypercube` and `lcanet sim hypercube` as a user runs them: a clean
//! run (JSON fields, exact bit times, a VCD), a non-semi-contraction given to `semi`
//! (reported as a collision, non-zero exit), and bad input (k out of range, malformed or
//! non-permutation files): an error naming the condition, exit code 1, nothing written.
//!
//! The co-simulated cubes are the ones `testbench/tests/hypercube_cosim.rs` builds
//! (k = 3, L = 5), so with a warm Verilator cache they cost no build.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join("lcanet-artifacts")
        .join(format!("hypercube_cli__{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn lcanet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lcanet"))
        .args(args)
        .output()
        .expect("lcanet runs")
}

fn text(o: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}\n{}", text(o)))
}

/// Runs `args`, expects exit code 1 and an error on stderr containing `needle`.
fn refused(args: &[&str], needle: &str) {
    let o = lcanet(args);
    assert_eq!(o.status.code(), Some(1), "{args:?}\n{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(needle),
        "{args:?}: want `{needle}`\n{}",
        text(&o)
    );
}

fn write(dir: &Path, name: &str, contents: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p.to_string_lossy().into_owned()
}

fn is_empty_dir(d: &Path) -> bool {
    std::fs::read_dir(d).map_or(true, |mut it| it.next().is_none())
}

#[test]
fn bad_input_names_the_condition_and_writes_nothing() {
    let dir = scratch("bad_input");
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    refused(
        &[
            "generate",
            "hypercube",
            "--k",
            "3",
            "--router",
            "bogus",
            "-o",
            o,
        ],
        "invalid value 'bogus' for '--router",
    );
    for k in ["0", "13"] {
        refused(
            &["generate", "hypercube", "--k", k, "-o", o],
            "1 <= k <= 12",
        );
        refused(
            &["sim", "hypercube", "--k", k, "--seed", "1"],
            "1 <= k <= 12",
        );
    }
    refused(
        &[
            "generate",
            "hypercube",
            "--k",
            "3",
            "--payload-bits",
            "0",
            "-o",
            o,
        ],
        "payload",
    );
    assert!(is_empty_dir(&out), "nothing written into {o}");

    let sim = |file: &str, alg: &str| {
        [
            "sim",
            "hypercube",
            "--k",
            "3",
            "--payload-bits",
            "5",
            "--seed",
            "1",
            "--algorithm",
            alg,
            "--perm",
            file,
        ]
        .map(String::from)
    };
    let run = |file: &str, alg: &str, needle: &str| {
        let args = sim(file, alg);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, needle);
    };
    let malformed = write(&dir, "malformed.txt", "0 1 2 x 4 5 6 7\n");
    run(&malformed, "full", "token 'x' for PE 3");
    let negative = write(&dir, "negative.txt", "0 1 2 -3 4 5 6 7\n");
    run(&negative, "full", "use '-' alone");
    let short = write(&dir, "short.txt", "0 1 2 3\n");
    run(
        &short,
        "full",
        "expected 8 destinations (one per PE), found 4",
    );
    let dup = write(&dir, "dup.txt", "0 1 2 3 4 5 6 6\n");
    run(&dup, "semi", "PE 7 and PE 6 both send to 6");
    let range = write(&dir, "range.txt", "0 1 2 3 4 5 6 8\n");
    run(&range, "full", "destination 8 is out of range 0..8");
    run(
        dir.join("missing.txt").to_str().unwrap(),
        "full",
        "reading the routing file",
    );
    let vcd = dir.join("never.vcd");
    let args = [
        "sim",
        "hypercube",
        "--k",
        "3",
        "--perm",
        &dup,
        "--vcd",
        vcd.to_str().unwrap(),
    ];
    refused(&args, "both send to 6");
    assert!(!vcd.exists());
    // Neither the VCD nor its temporary name was left behind.
    assert!(std::fs::read_dir(&dir).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .contains("vcd")));
}

#[test]
fn a_non_semi_contraction_under_semi_is_reported_as_a_collision() {
    let dir = scratch("collision");
    // 0 -> 0 and 1 -> 4: |4 - 0| > 1 - 0, and the frames meet at node 0 after dimension 0.
    let f = write(&dir, "expand.txt", "0 4 - - - - 7 3\n");
    let args = [
        "sim",
        "hypercube",
        "--k",
        "3",
        "--payload-bits",
        "5",
        "--seed",
        "1",
        "--algorithm",
        "semi",
        "--perm",
        &f,
        "--json",
    ];
    let o = lcanet(&args);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "messages collided (2 collision(s), the first: collision at node 0 after dimension 0"
        ) && err.contains("3 of 4 messages not delivered exactly once")
            && err.contains("not a semi-contraction: PEs 0 and 1"),
        "{}",
        text(&o)
    );
    let j = json(&o);
    assert_eq!(j["match"], true, "the RTL reproduces the collision");
    assert_eq!(j["collision"], true);
    assert_eq!(j["semi_contraction"], false);
    assert_eq!(j["delivered_exactly_once"], false);
    // The second: 6 -> 7 crosses into node 7, which 7 -> 3 keeps after dimension 0.
    assert_eq!(j["collisions"].as_array().unwrap().len(), 2);

    // A non-semi-contraction whose frames never meet is delivered (with a warning).
    let ok = write(&dir, "lucky.txt", "0 3 - -\n");
    let o = lcanet(&[
        "sim",
        "hypercube",
        "--k",
        "2",
        "--payload-bits",
        "5",
        "--seed",
        "1",
        "--algorithm",
        "semi",
        "--perm",
        &ok,
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["semi_contraction"], false);
    assert_eq!(j["collision"], false);
    assert_eq!(j["delivered_exactly_once"], true);
    assert!(String::from_utf8_lossy(&o.stderr).contains("warning: not a semi-contraction"));

    // The same routing under Algorithm 2 is delivered: overlapped schedule (M = 8:
    // loops of f = 2, 1, 0 dimensions, max(2f, M - f) + 6f + 2M + 5 and M + 1 bit times),
    // and the paper's sequential one, k(14k + 3L + 9).
    let mut args = args;
    args[9] = "full";
    let o = lcanet(&args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["collision"], false);
    assert_eq!(j["delivered_exactly_once"], true);
    assert_eq!(j["algorithm"], "full");
    assert_eq!(j["router"], "overlapped");
    assert_eq!(j["bit_times"], (6 + 12 + 16 + 5) + (7 + 6 + 16 + 5) + 9);
    let mut seq: Vec<&str> = args.to_vec();
    seq.extend(["--router", "sequential"]);
    let o = lcanet(&seq);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["algorithm"], "full-sequential");
    assert_eq!(j["delivered_exactly_once"], true);
    assert_eq!(j["bit_times"], 3 * (14 * 3 + 3 * 5 + 9));
}

#[test]
fn clean_runs_report_exact_bit_times_and_write_a_vcd() {
    let dir = scratch("clean");
    let o = lcanet(&[
        "sim",
        "hypercube",
        "--k",
        "3",
        "--payload-bits",
        "5",
        "--seed",
        "7",
        "--algorithm",
        "semi",
        "--perm",
        "random",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["match"], true);
    assert_eq!(j["semi_contraction"], true);
    assert_eq!(j["delivered_exactly_once"], true);
    assert_eq!(j["collision"], false);
    // docs/hypercube.md §6: k + (k + L) + 2.
    assert_eq!(j["bit_times"], 3 + (3 + 5) + 2);
    assert_eq!(j["expected_bit_times"], j["bit_times"]);
    // A, B (k + L bits each) and E (k bits).
    assert_eq!(j["buffer_bits_per_node"], 2 * (3 + 5) + 3);
    assert_eq!(j["seed"], 7);

    // A traced 1-cube (small to build): the VCD is complete and in place.
    let vcd = dir.join("k1.vcd");
    let o = lcanet(&[
        "sim",
        "hypercube",
        "--k",
        "1",
        "--payload-bits",
        "2",
        "--seed",
        "3",
        "--vcd",
        vcd.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("RTL matches the golden model"), "{stdout}");
    let v = std::fs::read_to_string(&vcd).unwrap();
    assert!(v.contains("$enddefinitions") && v.contains("node1"), "VCD");
    // Beside the VCD: its GTKWave save file and phase filter; no temporary left.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["hc_mode.txt", "k1.gtkw", "k1.vcd"],
        "no temporary left"
    );

    let out = dir.join("rtl");
    let o = lcanet(&[
        "generate",
        "hypercube",
        "--k",
        "2",
        "--payload-bits",
        "3",
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["top"], "hypercube_k2_l3");
    assert_eq!(j["bit_times_semi"], 2 * 2 + 3 + 2);
    // M = 5: the loop of f = 1 (P = max(2, 4)), then the cross alone.
    assert_eq!(j["bit_times_full"], (4 + 6 + 10 + 5) + 6);
    assert_eq!(j["router"], "overlapped");
    for f in j["files"].as_array().unwrap() {
        assert!(out.join(f.as_str().unwrap()).is_file(), "{f}");
    }
    assert!(out.join("hypercube_k2_l3.f").is_file());
}

#[test]
fn bench_hypercube_measures_every_router_against_its_closed_form() {
    let dir = scratch("bench");
    let out = dir.join("out");
    let o = lcanet(&[
        "bench",
        "hypercube",
        "--k",
        "1..2",
        "--payload-bits",
        "5",
        "--seed",
        "5",
        "--batches",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["all_matched"], true);
    let records = j["records"].as_array().unwrap();
    assert_eq!(records.len(), 2 * 5, "k = 1, 2 × five routers");
    for r in records {
        assert_eq!(r["match"], true, "{r}");
        assert_eq!(r["delivered_exactly_once"], true, "{r}");
        assert_eq!(r["rtl_bit_times"], r["formula_bit_times"], "{r}");
    }
    // k = 2, L = 5 (M = 7; the cubes of hypercube_cosim.rs, so no new build): sequential
    // 2(28 + 15 + 9), overlapped (6 + 6 + 14 + 5) + 8, sort (10 + 11) + (2·2 + 5 + 2).
    let at = |k: u64, router: &str| {
        records
            .iter()
            .find(|r| r["k"] == k && r["router"] == router)
            .unwrap()["rtl_bit_times"]
            .clone()
    };
    assert_eq!(at(2, "sequential"), 2 * (28 + 15 + 9));
    assert_eq!(at(2, "overlapped"), 31 + 8);
    assert_eq!(at(2, "sort"), 21 + 11);
    // The quadratic cube, two batches: (2 + 2 − 2)·T_p + M + 2 with T_p = 1 + 31.
    assert_eq!(at(2, "quadratic"), 2 * 32 + 9);
    let q = &records
        .iter()
        .find(|r| r["k"] == 2 && r["router"] == "quadratic")
        .unwrap()["quadratic"];
    assert_eq!(q["measured_periods"], serde_json::json!([32]), "{q}");
    assert_eq!(q["measured_latencies"], serde_json::json!([42, 42]), "{q}");
    // Sort-then-pack pipelined: one batch every M + 1 = 8, latency S + 2k + L + 4 = 16
    // (S = 3), two batches end at 8 + 16 - 1.
    assert_eq!(at(2, "quadratic-sort"), 8 + 15);
    for f in ["bit_times.svg", "hypercube.json"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    let svg = std::fs::read_to_string(out.join("bit_times.svg")).unwrap();
    assert!(svg.contains("data-name=\"sort (RTL)\""), "{svg}");

    // Bad input: refused before any work, nothing written.
    let bad = dir.join("bad");
    let b = bad.to_str().unwrap();
    refused(
        &["bench", "hypercube", "--k", "3..2", "--out", b],
        "not a range of cube dimensions",
    );
    refused(
        &["bench", "hypercube", "--k", "2..13", "--out", b],
        "1 <= A <= B <= 12",
    );
    refused(
        &["bench", "hypercube", "--cosim-max-k", "13", "--out", b],
        "cosim-max-k <= 12",
    );
    refused(
        &["bench", "hypercube", "--batches", "0", "--out", b],
        "1 <= batches <= 255",
    );
    refused(
        &["bench", "hypercube", "--routers", "quad", "--out", b],
        "invalid value 'quad' for '--routers",
    );
    assert!(!bad.exists(), "nothing written");
}

#[test]
fn the_quadratic_cube_routes_an_h_permutation_in_batches() {
    let dir = scratch("quadratic");
    // PE 0 sends two messages and PE 0 receives two: H = 2 (the file's largest count),
    // so two batches.
    let f = write(&dir, "h.txt", "1 2\n-\n0 0\n3\n");
    let args = [
        "sim",
        "hypercube",
        "--k",
        "2",
        "--payload-bits",
        "5",
        "--router",
        "quadratic",
        "--perm",
        &f,
        "--seed",
        "3",
        "--json",
    ];
    let o = lcanet(&args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["match"], true, "{j}");
    assert_eq!(j["h"], 2);
    assert_eq!(j["messages"], 5);
    assert_eq!(j["delivered_exactly_once"], true);
    // k = 2, L = 5, M = 7: λ_1 = max(2, 6) + 6 + 14 + 5 = 31, T_p = 32; latency
    // (k − 1)·T_p + M + 3 = 42; two batches end at (2 + 2 − 2)·32 + 7 + 2 = 73.
    assert_eq!(j["period"], 32);
    assert_eq!(j["measured_periods"], serde_json::json!([32]));
    assert_eq!(j["latency"], 42);
    assert_eq!(j["measured_latencies"], serde_json::json!([42, 42]));
    assert_eq!(j["bit_times"], 73);
    assert_eq!(j["expected_bit_times"], 73);

    refused(
        &[
            "sim",
            "hypercube",
            "--k",
            "2",
            "--router",
            "quadratic",
            "--h",
            "0",
        ],
        "1 <= H <= 255",
    );
    refused(
        &[
            "sim",
            "hypercube",
            "--k",
            "2",
            "--router",
            "quadratic",
            "--h",
            "256",
        ],
        "1 <= H <= 255",
    );
    refused(
        &[
            "sim",
            "hypercube",
            "--k",
            "2",
            "--router",
            "quadratic",
            "--algorithm",
            "semi",
        ],
        "routes batches of permutations only",
    );
    refused(
        &["sim", "hypercube", "--k", "2", "--h", "2"],
        "--h 2 applies to --router quadratic and quadratic-sort only",
    );
    let bad = write(&dir, "bad.txt", "1 1 1\n-\n-\n-\n");
    refused(
        &[
            "sim",
            "hypercube",
            "--k",
            "2",
            "--router",
            "quadratic",
            "--h",
            "2",
            "--perm",
            &bad,
        ],
        "PE 0 sends 3 messages, more than H = 2",
    );
    let bad = write(&dir, "short.txt", "1\n-\n");
    refused(
        &[
            "sim",
            "hypercube",
            "--k",
            "2",
            "--router",
            "quadratic",
            "--perm",
            &bad,
        ],
        "expected 4 lines (one per PE), found 2",
    );

    let out = dir.join("rtl");
    let o = lcanet(&[
        "generate",
        "hypercube",
        "--k",
        "2",
        "--payload-bits",
        "5",
        "--router",
        "quadratic",
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["top"], "hypercube_quad_k2_l5");
    assert_eq!(
        (j["period"].clone(), j["latency"].clone()),
        (32.into(), 42.into())
    );
    assert!(j["bit_times_semi"].is_null());
    for f in j["files"].as_array().unwrap() {
        assert!(out.join(f.as_str().unwrap()).is_file(), "{f}");
    }
}
