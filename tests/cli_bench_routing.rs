//! `lcanet bench routing`: the `--quick` sweep runs, its JSON lines parse and hold the
//! expected records with consistent figures, the SVG plots are (re)generated with a series
//! per algorithm and network, labelled axes and the bounds drawn, results do not depend on
//! the thread count, and bad flags are rejected with the condition named and nothing
//! written.

mod common;

use common::lcanet;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A path `lcanet-bench-routing-<name>-<pid>` in the temporary directory that does not
/// exist (so that a test can check that nothing was written there).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "lcanet-bench-routing-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn quick(out: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "bench",
        "routing",
        "--quick",
        "--seed",
        "5",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = lcanet(&args);
    assert!(
        o.status.success(),
        "exit {:?}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("one JSON document on stdout")
}

fn records(out: &Path) -> Vec<Value> {
    std::fs::read_to_string(out.join("routing.jsonl"))
        .expect("routing.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

fn f(v: &Value, stat: &str, field: &str) -> f64 {
    v[stat][field]
        .as_f64()
        .unwrap_or_else(|| panic!("{stat}.{field} in {v}"))
}

#[test]
fn quick_sweep_writes_records_and_plots() {
    let out = scratch("quick");
    // Stale plots are replaced.
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("passes_over_lb_tree.svg"), "stale").unwrap();
    let summary = quick(&out, &[]);
    assert_eq!(summary["seed"], 5);
    let recs = records(&out);
    // --quick: T(2,1) n = 16, 32, 64; T(4,2) n = 16, 32, 64; CB(2,2) n = 16, 32, 64;
    // × every algorithm (r1, r2, and any added to the sweep) × random, identity,
    // transpose, worst-case.
    let algorithms: Vec<&str> = summary["algorithms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(algorithms.starts_with(&["r1", "r2"]), "{algorithms:?}");
    let workloads = [
        ("random", 3),
        ("identity", 1),
        ("transpose", 1),
        ("worst-case", 2),
    ];
    assert_eq!(recs.len(), 9 * algorithms.len() * workloads.len());
    assert_eq!(summary["records"], recs.len());
    for net in ["T(2,1)", "T(4,2)", "CB(2,2)"] {
        for n in [16, 32, 64] {
            for &alg in &algorithms {
                for (w, samples) in workloads {
                    let r = recs
                        .iter()
                        .find(|r| {
                            r["network"] == net
                                && r["n"] == n
                                && r["algorithm"] == alg
                                && r["workload"] == w
                        })
                        .unwrap_or_else(|| panic!("record {net} n={n} {alg} {w}"));
                    let ctx = format!("{net} n={n} {alg} {w}");
                    assert_eq!(r["samples"], samples, "{ctx}");
                    assert_eq!(r["passes"]["count"], samples, "{ctx}");
                    assert!(f(r, "passes", "min") >= f(r, "lower_bound", "min"), "{ctx}");
                    assert!(f(r, "passes_over_lower_bound", "min") >= 1.0, "{ctx}");
                    if r["bit_times"].is_null() {
                        // An algorithm the hardware does not run yet: it says why.
                        assert!(
                            alg != "r1" && alg != "r2",
                            "{ctx}: R1 and R2 have bit-times"
                        );
                        assert!(r["bit_times_unavailable"].is_string(), "{ctx}");
                    } else {
                        assert!(r["bit_times_unavailable"].is_null(), "{ctx}");
                        let (bt, bound) = (f(r, "bit_times", "min"), f(r, "bit_time_bound", "min"));
                        assert!(bt >= bound, "{ctx}");
                        let setup = f(r, "setup_bit_times", "max");
                        assert!(setup < f(r, "bit_times", "max"), "{ctx}");
                    }
                    assert!(r["worst_sample_seed"].as_u64().is_some(), "{ctx}");
                    if n <= 32 {
                        assert_eq!(r["optimal_known"], samples, "{ctx}: optimum at n ≤ 32");
                        assert!(f(r, "passes_over_optimal", "min") >= 1.0, "{ctx}");
                        assert!(
                            f(r, "optimal", "min") >= f(r, "lower_bound", "min"),
                            "{ctx}"
                        );
                    } else {
                        assert!(r["passes_over_optimal"].is_null(), "{ctx}");
                    }
                    if w == "identity" {
                        assert_eq!(f(r, "passes", "max"), 1.0, "{ctx}: identity is one pass");
                    }
                    if w == "worst-case" && net == "T(2,1)" {
                        // Half of the PEs send across the root's single link each way.
                        assert_eq!(f(r, "lower_bound", "min"), (n / 2) as f64, "{ctx}");
                    }
                }
            }
        }
    }
    let files: Vec<&str> = summary["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for kind in ["tree", "cb"] {
        for plot in ["passes_over_lb", "passes", "bit_times"] {
            let name = format!("{plot}_{kind}.svg");
            assert!(files.contains(&name.as_str()), "{name} listed");
            let svg = std::fs::read_to_string(out.join(&name)).unwrap();
            assert!(
                svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
                "{name}"
            );
            assert!(
                svg.contains(">n (PEs, log2)</text>"),
                "{name}: x axis label"
            );
            assert!(svg.contains("class=\"label\""), "{name}: y axis label");
            assert!(
                svg.contains(">16</text>") && svg.contains(">64</text>"),
                "{name}: ticks"
            );
            let nets: &[&str] = if kind == "tree" {
                &["T(2,1)", "T(4,2)"]
            } else {
                &["CB(2,2)"]
            };
            for net in nets {
                for alg in ["R1", "R2"] {
                    let s = format!("<g class=\"series\" data-name=\"{alg} {net}\">");
                    assert!(svg.contains(&s), "{name}: series {alg} {net}");
                    assert_eq!(svg.matches(&s).count(), 1, "{name}: one series {alg} {net}");
                }
            }
            assert!(svg.contains("<g class=\"bound\""), "{name}: bounds drawn");
            let points = svg.matches("<polyline").count();
            assert!(points > nets.len() * 2, "{name}: lines drawn");
        }
    }
    let ratio = std::fs::read_to_string(out.join("passes_over_lb_tree.svg")).unwrap();
    assert!(ratio.contains("data-name=\"lower bound (ratio 1)\""));
    assert!(ratio.contains(">passes ÷ lower bound</text>"));
    let bits = std::fs::read_to_string(out.join("bit_times_cb.svg")).unwrap();
    assert!(bits.contains("data-name=\"bound R1 CB(2,2)\""));
    let passes = std::fs::read_to_string(out.join("passes_cb.svg")).unwrap();
    assert!(passes.contains("data-name=\"lower bound CB(2,2)\""));
    assert!(passes.contains("data-name=\"reference: log2 n\""));
    // No temporary files left behind.
    for e in std::fs::read_dir(&out).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().to_string();
        assert!(!name.ends_with(".tmp"), "{name}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn results_are_the_same_on_one_thread_and_restricted_flags_restrict() {
    let a = scratch("jobs1");
    let b = scratch("jobs2");
    let flags = [
        "--topology",
        "cb",
        "--du",
        "2:2,4:4",
        "--n-max",
        "16",
        "--algorithms",
        "r1",
        "--perms",
        "4",
        "--worst",
        "0",
        "--arbiter",
        "random",
    ];
    let mut one = flags.to_vec();
    one.extend(["--jobs", "1"]);
    let mut two = flags.to_vec();
    two.extend(["--jobs", "2"]);
    let sa = quick(&a, &one);
    quick(&b, &two);
    let ta = std::fs::read_to_string(a.join("routing.jsonl")).unwrap();
    assert_eq!(
        ta,
        std::fs::read_to_string(b.join("routing.jsonl")).unwrap()
    );
    let recs = records(&a);
    // --n-min 16 (default) .. 16: CB(2,2) and CB(4,4) with n = 16; r1; random, identity,
    // transpose (--worst 0).
    assert_eq!(recs.len(), 2 * 3, "{ta}");
    assert!(recs.iter().all(|r| r["algorithm"] == "r1" && r["n"] == 16));
    assert!(recs.iter().all(|r| r["arbiter"] == "random"));
    assert_eq!(sa["workloads"][0], serde_json::json!(["random", 4]));
    assert!(
        !a.join("passes_tree.svg").exists(),
        "no tree plots without tree networks"
    );
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

#[test]
fn bad_flags_are_rejected_naming_the_condition_and_write_nothing() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--perms", "0"],
            "--perms 0: at least one random permutation",
        ),
        (
            &["--n-min", "64", "--n-max", "16"],
            "need 1 ≤ n-min ≤ n-max",
        ),
        (
            &["--topology", "tree", "--du", "3:2"],
            "a T-LCAN needs u to divide d",
        ),
        (&["--topology", "tree", "--du", "2:2"], "d > u"),
        (&["--du", "4x2"], "'4x2' is not D:U"),
        (&["--du", "1:1"], "an LCA switch needs d ≥ 2"),
        (
            &["--algorithms", "r9"],
            "unknown algorithm 'r9' (known: r1, r2",
        ),
        (&["--topology", "mesh"], "invalid value 'mesh'"),
        (&["--jobs", "0"], "--jobs 0"),
        (
            &["--jobs", "1000000"],
            "--jobs 1000000: above the limit of 1024 worker threads",
        ),
        (
            &["--n-max", "16385"],
            "--n-max 16385: above the limit of 16384 PEs",
        ),
        (
            &["--perms", "100001"],
            "--perms 100001: above the limit of 100000 samples",
        ),
        (
            &["--worst", "18446744073709551615"],
            "--worst 18446744073709551615: above the limit",
        ),
        (
            &["--message-bits", "0"],
            "message bits = 0: must be between 1 and 64",
        ),
        (
            &[
                "--topology",
                "cb",
                "--du",
                "4:2",
                "--n-min",
                "17",
                "--n-max",
                "63",
            ],
            "CB-LCAN(d=4, u=2) has no size in --n-min 17 .. --n-max 63",
        ),
    ];
    for (i, (extra, needle)) in cases.iter().enumerate() {
        let out = scratch(&format!("bad{i}"));
        let mut args = vec!["bench", "routing", "--quick", "--seed", "1", "--out"];
        let o = out.to_str().unwrap().to_string();
        args.push(&o);
        args.extend_from_slice(extra);
        let r = lcanet(&args);
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(!r.status.success(), "{extra:?} must fail");
        assert!(
            err.contains(needle),
            "{extra:?}: expected '{needle}' in:\n{err}"
        );
        assert!(!err.contains("panicked"), "{extra:?}: {err}");
        assert!(!out.exists(), "{extra:?}: nothing written");
    }
    let r = lcanet(&["bench", "routing", "--quick"]);
    assert!(!r.status.success());
    assert!(String::from_utf8_lossy(&r.stderr).contains("--out <DIR>"));
}

#[test]
fn pareto_synthesizes_the_switches_and_marks_the_front() {
    let out = scratch("pareto");
    let s = quick(
        &out,
        &[
            "--pareto",
            "--topology",
            "tree",
            "--du",
            "2:1,4:2",
            "--n-max",
            "16",
        ],
    );
    let points: Vec<Value> = std::fs::read_to_string(out.join("pareto.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(points.len(), 2 * 3, "T(2,1), T(4,2) at n = 16 × r1, r2, r3");
    for p in &points {
        // R3 is priced with its own arbiter-free switch, R1/R2 with the arbitrated one.
        let module = p["switch_module"].as_str().unwrap();
        assert_eq!(
            module.starts_with("lca_switch_r3_"),
            p["algorithm"] == "r3",
            "{p}"
        );
        assert!(p["switch_luts"].as_u64().unwrap() > 0, "{p}");
        assert!(p["switch_ffs"].as_u64().unwrap() > 0, "{p}");
        assert_eq!(
            p["fabric_luts"].as_u64().unwrap(),
            p["switch_luts"].as_u64().unwrap() * p["switches"].as_u64().unwrap()
        );
    }
    let front = s["pareto_front"].as_array().unwrap();
    assert!(!front.is_empty());
    let svg = std::fs::read_to_string(out.join("pareto_n16.svg")).unwrap();
    assert!(svg.contains("data-name=\"Pareto front\""));
    assert!(svg.contains("(front)"));
    let _ = std::fs::remove_dir_all(&out);
}
