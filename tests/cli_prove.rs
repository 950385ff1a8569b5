//! `lcanet prove switch` as a user runs it (Yosys on the PATH): the four switch
//! invariants proved for a small representative subset ((2,2) W = 1 tree, (2,1) W = 2 cb),
//! a deliberately broken switch failing P1 with a counterexample VCD that shows the
//! violated assertion and the crosspoints, a proof that cannot finish reported unproved
//! (never proved), and bad input refused. The whole coverage matrix is opt-in
//! (`cargo test -p lcanet --test cli_prove -- --ignored`).

mod common;

use common::{lcanet, rejects, scratch};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// The JSON lines of `out`'s stdout.
fn lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

fn proves_all(args: &[&str]) {
    let mut a = vec!["prove", "switch", "--json"];
    a.extend_from_slice(args);
    let out = lcanet(&a);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{a:?}: {err}");
    let results = lines(&out.stdout);
    let names: Vec<&str> = results
        .iter()
        .map(|r| r["property"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["P1", "P2", "P3", "P4"], "{a:?}");
    for r in &results {
        assert_eq!(r["status"], "proved", "{a:?}: {r}");
        assert!(r["depth"].as_u64().unwrap() >= 1, "{r}");
        assert!(r["seconds"].as_f64().unwrap() >= 0.0, "{r}");
        assert!(r["witness_depth"].as_u64().is_some(), "{r}");
        assert!(r["vcd"].is_null(), "{r}");
    }
}

#[test]
fn every_invariant_is_proved_for_a_2_2_tree_switch_with_w1() {
    proves_all(&["--d", "2", "--u", "2", "--w", "1", "--topology", "tree"]);
}

#[test]
fn every_invariant_is_proved_for_a_2_1_cb_switch_with_w2() {
    proves_all(&["--d", "2", "--u", "1", "--w", "2", "--topology", "cb"]);
}

/// The value changes of the 1-bit variables named `pred` in a VCD: name → (time, value).
fn one_bit_changes(vcd: &Path, pred: impl Fn(&str) -> bool) -> HashMap<String, Vec<(u64, char)>> {
    let text = std::fs::read_to_string(vcd).unwrap();
    let mut ids = HashMap::new();
    for l in text.lines() {
        let t: Vec<&str> = l.split_whitespace().collect();
        if t.len() >= 5 && t[0] == "$var" && t[2] == "1" {
            let name = t[4].trim_start_matches('\\');
            if pred(name) {
                ids.insert(t[3].to_string(), name.to_string());
            }
        }
    }
    let mut out: HashMap<String, Vec<(u64, char)>> = HashMap::new();
    let mut now = 0;
    for l in text.lines() {
        if let Some(t) = l.strip_prefix('#') {
            now = t.trim().parse().unwrap();
        } else if let Some(c) = l.chars().next().filter(|c| matches!(c, '0' | '1')) {
            if let Some(name) = ids.get(l[1..].trim()) {
                out.entry(name.clone()).or_default().push((now, c));
            }
        }
    }
    out
}

#[test]
fn a_switch_that_ignores_driven_outputs_fails_p1_with_a_counterexample_vcd() {
    let dir = scratch("fault");
    let keep = dir.join("proof");
    let out = lcanet(&[
        "prove",
        "switch",
        "--d",
        "2",
        "--u",
        "2",
        "--property",
        "P1",
        "--fault",
        "driven-output-free",
        "--max-k",
        "1",
        "--bmc-depth",
        "30",
        "--keep",
        keep.to_str().unwrap(),
        "--json",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let results = lines(&out.stdout);
    assert_eq!(results.len(), 1);
    let r = &results[0];
    assert_eq!(r["property"], "P1");
    assert_eq!(r["status"], "failed", "{r}");
    assert!(r["switch"].as_str().unwrap().ends_with("_fault"), "{r}");
    let vcd = Path::new(r["vcd"].as_str().unwrap()).to_path_buf();
    assert!(vcd.is_file(), "{}", vcd.display());
    assert!(vcd.starts_with(&keep));
    let violated: Vec<&str> = r["violated"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        !violated.is_empty() && violated.iter().all(|v| v.contains("_P1_")),
        "{r}"
    );
    // The VCD shows it: a P1 assertion wire falls to 0 at the reported step, after being 1.
    let checks = one_bit_changes(&vcd, |n| n.starts_with("chk_") && n.contains("_P1_"));
    let at = r["depth"].as_u64().unwrap();
    let fallen: Vec<&String> = checks
        .iter()
        .filter(|(_, ch)| ch.iter().any(|&(t, v)| t == at && v == '0'))
        .map(|(n, _)| n)
        .collect();
    assert!(
        !fallen.is_empty(),
        "no P1 check falls at step {at}: {checks:?}"
    );
    for n in &fallen {
        assert!(checks[*n].iter().any(|&(t, v)| t < at && v == '1'), "{n}");
    }
    // …and the crosspoints that break it.
    let text = std::fs::read_to_string(&vcd).unwrap();
    for sig in ["xp_ac", "xp_bc", "ctl_mode", "sw.c_driven", "sw.dn_pick_c"] {
        assert!(text.contains(&format!(" \\{sig} ")), "{sig} not in the VCD");
    }
    // The real switch proves P1.
    let ok = lcanet(&[
        "prove",
        "switch",
        "--d",
        "2",
        "--u",
        "2",
        "--property",
        "P1",
    ]);
    assert_eq!(ok.status.code(), Some(0));
}

#[test]
fn a_proof_that_cannot_finish_is_unproved_never_proved() {
    // The broken switch's P1 does not induct, and one bit-time from power-up is too short
    // for a counterexample: neither proved nor failed.
    let dir = scratch("unproved");
    let keep = dir.join("proof");
    let out = lcanet(&[
        "prove",
        "switch",
        "--keep",
        keep.to_str().unwrap(),
        "--d",
        "2",
        "--u",
        "2",
        "--property",
        "P1",
        "--fault",
        "driven-output-free",
        "--max-k",
        "1",
        "--bmc-depth",
        "1",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let r = &lines(&out.stdout)[0];
    assert_eq!(r["status"], "unproved", "{r}");
    let reason = r["reason"].as_str().unwrap();
    assert!(
        reason.contains("induction step fails up to k = 1"),
        "{reason}"
    );
    assert!(
        reason.contains("no counterexample to P1 within 1 bit-times"),
        "{reason}"
    );
    // The failing induction step is kept to look at.
    let trace = Path::new(r["vcd"].as_str().unwrap());
    assert!(trace.starts_with(&keep) && trace.is_file(), "{r}");
}

#[test]
fn bad_parameters_are_refused_naming_the_condition() {
    let dir = scratch("bad");
    let keep = dir.join("never");
    let k = keep.to_str().unwrap();
    rejects(
        &["prove", "switch", "--d", "3", "--u", "2", "--keep", k],
        &["d to be a multiple of u", "d = 3, u = 2"],
    );
    rejects(
        &[
            "prove",
            "switch",
            "--d",
            "2",
            "--u",
            "2",
            "--property",
            "P9",
            "--keep",
            k,
        ],
        &["--property P9", "P1, P2, P3, P4"],
    );
    rejects(
        &[
            "prove", "switch", "--d", "2", "--u", "2", "--max-k", "0", "--keep", k,
        ],
        &["--max-k 0", "between 1 and 64"],
    );
    rejects(
        &[
            "prove",
            "switch",
            "--d",
            "2",
            "--u",
            "2",
            "--timeout",
            "0",
            "--keep",
            k,
        ],
        &["--timeout 0"],
    );
    rejects(
        &["prove", "switch", "--d", "1", "--u", "1"],
        &["d = 1", "at least 2 downers"],
    );
    assert!(!keep.exists(), "a refused run wrote its --keep directory");
}

/// The coverage matrix: every (d, u) with 2 ≤ d ≤ 4, 1 ≤ u ≤ 4, tree (u | d) and cb,
/// W = 1 and 2, fixed policy, P1-P4 (14 minutes on the shared 2-core machine).
#[test]
#[ignore]
fn the_whole_matrix_is_proved() {
    let out = lcanet(&["prove", "matrix", "--policy", "fixed", "--json"]);
    let lines = lines(&out.stdout);
    assert_eq!(lines.len(), 38);
    for l in &lines {
        assert_eq!(l["status"], "proved", "{l}");
    }
    assert_eq!(out.status.code(), Some(0));
}
