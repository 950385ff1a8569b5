//! `lcanet prove` as a user runs it (Yosys on the PATH): the smoke slice of the coverage
//! matrix proved (R1/R2 switches of each set-up — sequential, fast, chunked — and each
//! topology — cb, tree, a Π switch with a symbolic route table —, a level count other
//! than 3, the three arbiter policies, an R3 switch, the smallest hypercube node with P3
//! bounded); for every property of both switches and of the hypercube node a
//! deliberately broken block failing it with a counterexample VCD that shows the violated
//! assertion, each searched only a few bit-times past its known counterexample (the
//! default depth costs up to ten times more); a proof that cannot finish reported
//! unproved (never proved); bad input refused. The whole coverage matrix is opt-in
//! (`lcanet prove matrix`, or `cargo test -p lcanet --test cli_prove -- --ignored`).

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

#[test]
fn the_smoke_slice_of_the_matrix_is_proved() {
    let out = lcanet(&["prove", "matrix", "--slice", "smoke", "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let rows = lines(&out.stdout);
    assert_eq!(rows.len(), 7, "{err}");
    for row in &rows {
        if row["variant"] == "cube" {
            cube_row_is_proved_p3_bounded(row);
            continue;
        }
        assert_eq!(row["status"], "proved", "{row}");
        let props: Vec<&str> = row["properties"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["property"].as_str().unwrap())
            .collect();
        let all: &[&str] = if row["variant"] == "r3" {
            &["P1", "P2", "P3", "P4", "P5"]
        } else {
            &["P1", "P2", "P3", "P4", "P5", "P6"]
        };
        assert_eq!(props, all, "{row}");
        for r in row["properties"].as_array().unwrap() {
            assert_eq!(r["status"], "proved", "{r}");
            assert!(r["depth"].as_u64().unwrap() >= 1, "{r}");
            assert!(r["witness_depth"].as_u64().is_some(), "{r}");
            assert!(r["vcd"].is_null(), "{r}");
        }
    }
    let pi = rows
        .iter()
        .find(|r| r["variant"] == "pi")
        .expect("a pi row");
    assert_eq!(pi["rom"], "skewed8 symbolic", "{pi}");
    for v in ["sequential", "levels", "fast", "pi", "r3", "cube"] {
        assert!(rows.iter().any(|r| r["variant"] == v), "no {v} row");
    }
    for p in ["fixed", "round-robin", "random"] {
        assert!(rows.iter().any(|r| r["policy"] == p), "no {p} row");
    }
    for t in ["tree", "cb"] {
        assert!(rows.iter().any(|r| r["topology"] == t), "no {t} row");
    }
}

/// The hypercube node's row (k = 1, L = 1): P1 and P2 proved by induction, P3 proved to
/// its bounded depth (no counterexample from power-up), the witness found.
fn cube_row_is_proved_p3_bounded(row: &Value) {
    assert_eq!(row["status"], "bounded", "{row}");
    assert_eq!(row["shape"], "k=1 L=1", "{row}");
    let props = row["properties"].as_array().unwrap();
    let status: Vec<(&str, &str)> = props
        .iter()
        .map(|r| {
            (
                r["property"].as_str().unwrap(),
                r["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        status,
        [("P1", "proved"), ("P2", "proved"), ("P3", "bounded")],
        "{row}"
    );
    for r in props {
        assert!(r["depth"].as_u64().unwrap() >= 1, "{r}");
        assert!(r["witness_depth"].as_u64().is_some(), "{r}");
    }
    // The bounded depth covers a whole first loop of Algorithm 2 and a whole semi run
    // after it, from power-up: 2·(2k + L + 4) + λ_0 + 4 = 21 bit-times (k = 1, L = 1).
    assert_eq!(props[2]["depth"].as_u64(), Some(21), "{row}");
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

/// Proves `prop` of the block `target` (`switch …` or `r3 …`) built with `fault`, and
/// checks that it fails with a counterexample VCD in which one of `prop`'s assertion wires
/// is 1 and then falls to 0 at the reported time step; returns the VCD's text. `depth`:
/// the counterexample search's bit-times (`--bmc-depth`; `None`: the block's default).
fn fault_fails(target: &[&str], fault: &str, prop: &str, depth: Option<usize>) -> String {
    // Per block: the switch and the R3 switch both have a `driven-output-free`.
    let dir = scratch(&format!("fault-{}-{fault}", target[0]));
    let keep = dir.join("proof");
    let mut a = vec!["prove"];
    a.extend_from_slice(target);
    a.extend_from_slice(&[
        "--property",
        prop,
        "--fault",
        fault,
        "--max-k",
        "1",
        "--json",
    ]);
    a.extend_from_slice(&["--keep", keep.to_str().unwrap()]);
    let depth = depth.map(|n| n.to_string());
    if let Some(n) = &depth {
        a.extend_from_slice(&["--bmc-depth", n]);
    }
    let out = lcanet(&a);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{a:?}: {err}");
    let results = lines(&out.stdout);
    assert_eq!(results.len(), 1);
    let r = &results[0];
    assert_eq!(r["property"], prop);
    assert_eq!(r["status"], "failed", "{a:?}: {r}");
    assert!(r["switch"].as_str().unwrap().ends_with("_fault"), "{r}");
    let vcd = Path::new(r["vcd"].as_str().unwrap()).to_path_buf();
    assert!(vcd.is_file() && vcd.starts_with(&keep), "{}", vcd.display());
    let tag = format!("_{prop}_");
    let violated: Vec<&str> = r["violated"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        !violated.is_empty() && violated.iter().all(|v| v.contains(&tag)),
        "{r}"
    );
    // The VCD shows it: an assertion wire of `prop` falls to 0 at the reported step,
    // after being 1.
    let checks = one_bit_changes(&vcd, |n| n.starts_with("chk_") && n.contains(&tag));
    let at = r["depth"].as_u64().unwrap();
    let fallen: Vec<&String> = checks
        .iter()
        .filter(|(_, ch)| ch.iter().any(|&(t, v)| t == at && v == '0'))
        .map(|(n, _)| n)
        .collect();
    assert!(
        !fallen.is_empty(),
        "no {prop} check falls at step {at}: {checks:?}"
    );
    for n in &fallen {
        assert!(checks[*n].iter().any(|&(t, v)| t < at && v == '1'), "{n}");
    }
    std::fs::read_to_string(&vcd).unwrap()
}

const SWITCH: &[&str] = &["switch", "--d", "2", "--u", "2"];

// The (2, 2) tree switch's faults are searched a few bit-times past the step of a known
// counterexample (measured: `docs/formal.md`), not the default 34.

#[test]
fn a_switch_that_ignores_driven_outputs_fails_p1_with_a_counterexample_vcd() {
    let text = fault_fails(SWITCH, "driven-output-free", "P1", Some(24));
    // …and the crosspoints that break it.
    for sig in ["xp_ac", "xp_bc", "ctl_mode", "sw.c_driven", "sw.dn_pick_c"] {
        assert!(text.contains(&format!(" \\{sig} ")), "{sig} not in the VCD");
    }
}

#[test]
fn a_switch_that_turns_a_probe_onto_two_outputs_fails_p2() {
    fault_fails(SWITCH, "turn-also-up", "P2", Some(12));
}

#[test]
fn a_switch_whose_rev_opens_crosspoints_fails_p3() {
    fault_fails(SWITCH, "rev-opens", "P3", Some(12));
}

#[test]
fn a_switch_that_drops_a_packet_bit_fails_p4() {
    fault_fails(SWITCH, "up-drops-last-bit", "P4", Some(10));
}

#[test]
fn a_down_arbiter_that_ignores_source_addresses_fails_p5() {
    fault_fails(SWITCH, "key-ignores-source", "P5", Some(18));
}

#[test]
fn a_switch_whose_clear_keeps_winners_fails_p6() {
    fault_fails(SWITCH, "clear-keeps-winners", "P6", Some(13));
}

const R3: &[&str] = &["r3", "--d", "2", "--u", "1"];

#[test]
fn every_r3_fault_fails_its_own_property() {
    for (fault, prop) in [
        ("driven-output-free", "P1"),
        ("driving-input-parses", "P2"),
        ("commit-opens", "P3"),
        ("no-fresh-header", "P4"),
        ("highest-wins", "P5"),
    ] {
        fault_fails(R3, fault, prop, None);
    }
}

const CUBE_1: &[&str] = &["cube", "--k", "1", "--payload-bits", "1"];
const CUBE_2: &[&str] = &["cube", "--k", "2", "--payload-bits", "1"];

/// Each fault in the smallest cube in which it fails, searched a step or two past a known
/// counterexample (`docs/formal.md`; the default depth, 21 or 41 bit-times, costs five to
/// ten times more): `head-never-crosses` needs k = 2, a dimension above the one a frame
/// arrives on (at k = 1 every frame is delivered, and P3 holds to 21 bit-times).
#[test]
fn every_hypercube_node_fault_fails_its_own_property() {
    let frames: &[&str] = &["dim_in", "dim_out", "rx_bit", "ph_semi"];
    for (cube, fault, prop, depth, sigs) in [
        (CUBE_1, "link-lost", "P1", 4, frames),
        (
            CUBE_1,
            "collision-not-sticky",
            "P2",
            7,
            &["dim_in", "collision", "load", "ph_semi"],
        ),
        (CUBE_2, "head-never-crosses", "P3", 8, frames),
    ] {
        let text = fault_fails(cube, fault, prop, Some(depth));
        // The trace shows the node's links (or its flag) and the controller's phase.
        for sig in sigs {
            assert!(text.contains(sig), "{fault}: the VCD lacks {sig}");
        }
    }
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
        &["--property P9", "P1 … P6"],
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
    rejects(
        &["prove", "cube", "--k", "0", "--keep", k],
        &["--k 0", "1 <= k <= 12"],
    );
    rejects(
        &["prove", "cube", "--k", "2", "--property", "P4", "--keep", k],
        &["its properties are P1, P2, P3"],
    );
    assert!(!keep.exists(), "a refused run wrote its --keep directory");
}

/// `--shard I/N` takes rows I, I+N, … of what the other flags select (the job array of
/// `docs/formal.md`): the N shards are disjoint and cover the rows; a shard that does not
/// exist is refused.
#[test]
fn shards_partition_the_matrix() {
    let names = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["prove", "matrix", "--list", "--slice", "smoke"];
        args.extend_from_slice(extra);
        let out = lcanet(&args);
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    };
    let all = names(&[]);
    assert!(all.len() >= 6, "{all:?}");
    let mut union = Vec::new();
    for i in 0..3 {
        let mine = names(&["--shard", &format!("{i}/3")]);
        let expected: Vec<String> = all.iter().skip(i).step_by(3).cloned().collect();
        assert_eq!(mine, expected, "shard {i}/3");
        union.extend(mine);
    }
    union.sort();
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(union, sorted, "the shards cover every row once");
    rejects(
        &[
            "prove", "matrix", "--list", "--slice", "smoke", "--shard", "3/3",
        ],
        &["shard 3 does not exist among 3 shards"],
    );
}

/// The whole coverage matrix (`docs/formal.md`: its size and measured cost).
#[test]
#[ignore]
fn the_whole_matrix_is_proved() {
    let out = lcanet(&["prove", "matrix", "--json"]);
    let lines = lines(&out.stdout);
    assert!(!lines.is_empty());
    for l in &lines {
        assert_eq!(l["status"], "proved", "{l}");
    }
    assert_eq!(out.status.code(), Some(0));
}
