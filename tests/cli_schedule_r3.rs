//! `lcanet schedule --algorithm r3`: the human report (one pass on CB(2,2), the lower bound
//! and the optimum), the JSON document (every pass's paths, valid, no set-up steps), the
//! trials summary, `--help`, and bad input (exit 1, the violated condition, no stdout).

mod common;
use common::{json, ok, rejects, scratch};

#[test]
fn cb22_human_report_is_one_pass_with_bound_and_optimum() {
    let out = ok(&[
        "schedule",
        "--topology",
        "cb",
        "--d",
        "2",
        "--u",
        "2",
        "--n",
        "16",
        "--perm",
        "worst-case",
        "--algorithm",
        "r3",
        "--seed",
        "5",
    ]);
    assert!(out.contains("algorithm r3"), "{out}");
    assert!(
        out.contains("pass   1: set-up off-line (H = 3),  16 delivered"),
        "{out}"
    );
    assert!(!out.contains("pass   2:"), "{out}");
    assert!(
        out.contains("passes: 1   set-up steps: computed off-line   lower bound: 1"),
        "{out}"
    );
    assert!(out.contains("one pass for every permutation"), "{out}");
    assert!(out.contains("optimal: 1 —"), "{out}");
    assert!(
        out.contains("schedule checked by the validator: valid"),
        "{out}"
    );
}

#[test]
fn tree_json_has_every_connection_once_and_reaches_the_optimum() {
    let v = json(&[
        "schedule",
        "--topology",
        "tree",
        "--d",
        "2",
        "--u",
        "1",
        "--n",
        "16",
        "--algorithm",
        "r3",
        "--seed",
        "9",
        "--json",
    ]);
    assert_eq!(v["algorithm"], "r3");
    assert_eq!(v["valid"], true);
    assert_eq!(v["one_pass_guaranteed"], false);
    assert_eq!(v["steps"], 0);
    let passes = v["passes"].as_array().unwrap();
    assert_eq!(v["pass_count"].as_u64().unwrap() as usize, passes.len());
    let lb = v["lower_bound"].as_u64().unwrap() as usize;
    assert!(passes.len() >= lb);
    // The optimum is computed (n ≤ 32) and R3 reaches it on this permutation.
    assert_eq!(v["optimal"].as_u64().unwrap() as usize, passes.len());
    let mut srcs: Vec<u64> = passes
        .iter()
        .flat_map(|p| p.as_array().unwrap())
        .map(|c| {
            let h = c["lca_level"].as_u64().unwrap() as usize;
            assert_eq!(c["wires"].as_array().unwrap().len(), 2 * h);
            c["src"].as_u64().unwrap()
        })
        .collect();
    srcs.sort_unstable();
    assert_eq!(srcs, (0..16).collect::<Vec<u64>>());
}

#[test]
fn crosspoints_and_a_partial_permutation_file() {
    let dir = scratch("file");
    let f = dir.join("p.perm");
    std::fs::write(&f, "# 8 PEs\n7\n-\n5\n-\n0\n2\n-\n1\n").unwrap();
    let v = json(&[
        "schedule",
        "--topology",
        "cb",
        "--d",
        "2",
        "--u",
        "2",
        "--levels",
        "3",
        "--perm",
        f.to_str().unwrap(),
        "--algorithm",
        "r3",
        "--crosspoints",
        "--json",
    ]);
    assert_eq!(v["connections"], 5);
    assert_eq!(v["pass_count"], 1);
    let xp = v["crosspoints"][0].as_array().unwrap();
    // Every routed connection closes one crosspoint per switch it visits.
    let closed: usize = xp
        .iter()
        .map(|s| s["closed"].as_array().unwrap().len())
        .sum();
    let visits: usize = v["passes"][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["wires"].as_array().unwrap().len() + 1)
        .sum();
    assert_eq!(closed, visits);
}

#[test]
fn trials_json_summarises_ratios() {
    let v = json(&[
        "schedule",
        "--topology",
        "cb",
        "--d",
        "4",
        "--u",
        "2",
        "--n",
        "64",
        "--algorithm",
        "r3",
        "--trials",
        "5",
        "--seed",
        "2",
        "--json",
    ]);
    assert_eq!(v["algorithm"], "r3");
    assert_eq!(v["trials"], 5);
    let q = &v["passes_over_lower_bound"];
    assert!(q["min"].as_f64().unwrap() >= 1.0);
    assert_eq!(v["steps"]["max"].as_f64().unwrap(), 0.0);
}

#[test]
fn help_teaches_r3() {
    let out = ok(&["schedule", "--help"]);
    for needle in [
        "r3",
        "global knowledge",
        "exactly 1 pass",
        "never needs more passes than R1",
        "--algorithm r3",
    ] {
        assert!(out.contains(needle), "--help lacks {needle:?}: {out}");
    }
}

#[test]
fn bad_input_is_rejected() {
    rejects(
        &[
            "schedule",
            "--topology",
            "cb",
            "--d",
            "2",
            "--u",
            "2",
            "--n",
            "8",
            "--algorithm",
            "r4",
        ],
        &["invalid value 'r4'", "r3"],
    );
    rejects(
        &[
            "schedule",
            "--topology",
            "cb",
            "--d",
            "2",
            "--u",
            "2",
            "--n",
            "12",
            "--algorithm",
            "r3",
        ],
        &["n = 12 is not d^l"],
    );
    let dir = scratch("bad");
    let f = dir.join("short.perm");
    std::fs::write(&f, "1\n0\n").unwrap();
    rejects(
        &[
            "schedule",
            "--topology",
            "tree",
            "--d",
            "2",
            "--u",
            "1",
            "--n",
            "8",
            "--perm",
            f.to_str().unwrap(),
            "--algorithm",
            "r3",
        ],
        &[
            "short.perm",
            "expected 8 destinations (one per PE), found 2",
        ],
    );
    let f = dir.join("twice.perm");
    std::fs::write(&f, "1\n1\n2\n3\n4\n5\n6\n7\n").unwrap();
    rejects(
        &[
            "schedule",
            "--topology",
            "tree",
            "--d",
            "2",
            "--u",
            "1",
            "--n",
            "8",
            "--perm",
            f.to_str().unwrap(),
            "--algorithm",
            "r3",
        ],
        &["twice.perm", "both send to 1 (a permutation is one-to-one)"],
    );
}

#[test]
fn sizes_and_trial_counts_past_the_limits_are_refused() {
    // n = 2^15 > 16,384: refused before any routing (the hostile-input run found it unbounded).
    rejects(
        &[
            "schedule",
            "--topology",
            "tree",
            "--d",
            "2",
            "--u",
            "1",
            "--levels",
            "15",
            "--perm",
            "random",
            "--seed",
            "1",
        ],
        &["n = 32768", "16384"],
    );
    rejects(
        &[
            "schedule",
            "--topology",
            "cb",
            "--d",
            "2",
            "--u",
            "2",
            "--levels",
            "3",
            "--perm",
            "random",
            "--trials",
            "100001",
        ],
        &["--trials", "100000", "100001"],
    );
    rejects(
        &[
            "schedule",
            "--topology",
            "cb",
            "--d",
            "2",
            "--u",
            "2",
            "--levels",
            "3",
            "--perm",
            "random",
            "--trials",
            "0",
        ],
        &["--trials", "got 0"],
    );
    // The largest accepted size still routes (CB(2,2) n = 16,384 in one R3 pass).
    let v = json(&[
        "schedule",
        "--topology",
        "cb",
        "--d",
        "2",
        "--u",
        "2",
        "--levels",
        "14",
        "--perm",
        "random",
        "--seed",
        "1",
        "--algorithm",
        "r3",
        "--json",
    ]);
    assert_eq!(v["n"], 16384, "{v}");
    assert_eq!(v["pass_count"], 1, "{v}");
}
