//! `lcanet bench all-to-all` (issue 17 item 4) as a user runs it, at n = 4 so that it
//! stays small: one network and algorithm of each family by default (the reverse omega
//! with ATAPE, CB(2,2) with R3, the hypercube with Algorithm 1: three small Verilator
//! builds and Yosys runs), every entry in the ignored `every_entry_at_n4` (omega, reverse
//! omega, CB(2,2) with R1, R2, R3, the hypercube with Algorithms 2 and 1: `cargo test
//! --test cli_bench_all_to_all -- --ignored`). Every exchange is co-simulated in
//! Verilator with the RTL's bit-time count equal to the golden model's and to the closed
//! forms of docs/min.md and docs/hypercube.md, every network synthesized by Yosys; the
//! JSON lines and SVG plots are written; bad flags are refused naming the condition,
//! nothing written.

mod common;
use common::{lcanet, rejects, scratch};
use serde_json::Value;

#[test]
fn the_exchange_at_n4_is_co_simulated_bit_exact_on_every_family() {
    let names = run_n4(
        "bench_all_to_all",
        &[
            "--networks",
            "reverse-omega,cb22,hypercube",
            "--algorithms",
            "atape,R3,alg1",
        ],
    );
    assert_eq!(
        names,
        ["reverse-omega atape", "CB(2,2) r3", "hypercube alg1"]
    );
}

#[test]
#[ignore = "ten Verilator builds and eight Yosys runs; run with -- --ignored"]
fn every_entry_at_n4() {
    let names = run_n4(
        "bench_all_to_all_all",
        &["--networks", "omega,reverse-omega,CB(2,2),hypercube"],
    );
    assert_eq!(
        names,
        [
            "omega atape",
            "reverse-omega atape",
            "CB(2,2) r1",
            "CB(2,2) r2",
            "CB(2,2) r3",
            "hypercube alg2",
            "hypercube alg1"
        ]
    );
}

/// Runs the bench at n = 4 with `select`, checks every record and the files, and returns
/// the records' "network algorithm" names.
fn run_n4(name: &str, select: &[&str]) -> Vec<String> {
    let dir = scratch(name);
    let out = dir.join("out");
    let mut args = vec!["bench", "all-to-all", "--n", "4"];
    args.extend_from_slice(select);
    args.extend([
        "--cosim-max-n",
        "4",
        "--synth-max-n",
        "4",
        "--message-bits",
        "8",
        "--seed",
        "3",
        // Two workers: the co-simulations and syntheses run side by side, as by default.
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    let o = lcanet(&args);
    assert!(
        o.status.success(),
        "exit {:?}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["seed"], 3);
    let recs = v["records"].as_array().unwrap();
    let names: Vec<String> = recs
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r["network"].as_str().unwrap(),
                r["algorithm"].as_str().unwrap()
            )
        })
        .collect();
    let (n, m, b) = (4u64, 2u64, 8u64);
    for r in recs {
        let name = format!("{} {}", r["network"], r["algorithm"]);
        // Co-simulated: every run matched, the RTL counted what the golden model says.
        assert_eq!(r["source"], "golden = RTL", "{name}: {r}");
        assert_eq!(r["cosim"]["match"], true, "{name}");
        assert_eq!(r["cosim"]["bit_times"], r["bit_times"], "{name}");
        assert_eq!(r["cosim"]["runs"], r["runs"], "{name}");
        // Synthesized: the whole network's LUTs and flip-flops, per PE.
        let c = &r["cost"];
        assert!(
            c["luts"].as_u64().unwrap() > 0 && c["ffs"].as_u64().unwrap() > 0,
            "{name}"
        );
        let per = c["luts"].as_f64().unwrap() / n as f64;
        assert!(
            (c["luts_per_pe"].as_f64().unwrap() - per).abs() < 1e-9,
            "{name}"
        );
        let bits = r["bit_times"].as_u64().unwrap();
        match r["algorithm"].as_str().unwrap() {
            // n frames of m + B bit-times plus m stages; n² messages.
            "atape" => {
                assert_eq!(bits, n * (m + b) + m, "{name}");
                assert_eq!(r["runs"], 1);
            }
            // n − 1 runs of k(14k + 3L + 9) and of 2k + L + 2 (docs/hypercube.md §6).
            "alg2" => assert_eq!(bits, (n - 1) * m * (14 * m + 3 * b + 9), "{name}"),
            "alg1" => assert_eq!(bits, (n - 1) * (2 * m + b + 2), "{name}"),
            _ => {
                assert_eq!(r["runs"], 3, "{name}");
                let passes = r["golden"]["passes"].as_u64().unwrap();
                assert!(passes >= r["golden"]["lower_bound_passes"].as_u64().unwrap());
            }
        }
    }
    // The Table 3 claim travels with each record.
    assert!(recs[0]["claim"].as_str().unwrap().contains("O(n)"));
    // The files: one JSON line per record, the two plots.
    let lines = std::fs::read_to_string(out.join("all_to_all.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), recs.len());
    let svg = std::fs::read_to_string(out.join("all_to_all_bit_times.svg")).unwrap();
    for needle in [
        "MIN, ATAPE (",
        "CB(2,2) r3",
        "hypercube alg1",
        "one-port bound",
    ] {
        assert!(svg.contains(needle), "bit-time plot lacks {needle:?}");
    }
    let svg = std::fs::read_to_string(out.join("all_to_all_cost.svg")).unwrap();
    assert!(
        svg.contains("LUTs per PE") && svg.contains("hypercube"),
        "cost plot"
    );
    names
}

#[test]
fn bad_flags_are_refused_before_anything_runs() {
    let dir = scratch("bench_all_to_all_bad");
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["--n", "3"], "--n: 3 is not a power of two in 2..=4096"),
        (&["--n", "64..8"], "--n 64..8: the range is empty (64 > 8)"),
        (&["--n", "8192"], "2..=4096"),
        (&["--n", "8,x"], "--n: \"x\" is not a positive integer"),
        (
            &["--message-bits", "0"],
            "--message-bits 0: need 1 ≤ B ≤ 64",
        ),
        (
            &["--message-bits", "65"],
            "--message-bits 65: need 1 ≤ B ≤ 64",
        ),
        (
            &["--cosim-max-n", "128"],
            "--cosim-max-n 128: above the limit of 64",
        ),
        (
            &["--synth-max-n", "4096"],
            "--synth-max-n 4096: above the limit of 2048",
        ),
        (&["--jobs", "0"], "--jobs 0"),
        (
            &["--networks", "butterfly"],
            "--networks: unknown network \"butterfly\" (known: baseline",
        ),
        (
            &["--networks", "omega", "--families", "lcan"],
            "select no network together",
        ),
        (
            &["--algorithms", "r4"],
            "--algorithms: unknown algorithm \"r4\" (known: atape, r1",
        ),
        (
            &["--networks", "omega", "--algorithms", "r1"],
            "select no network together",
        ),
        (
            &["--families", "mesh"],
            "invalid value 'mesh' for '--families",
        ),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["bench", "all-to-all", "--seed", "1", "--out", o];
        args.extend_from_slice(extra);
        rejects(&args, &[needle]);
        assert!(!out.exists(), "{extra:?} wrote {}", out.display());
    }
    // An --out that cannot take the files is refused before the hour-long run.
    let file = dir.join("afile");
    std::fs::write(&file, "x").unwrap();
    rejects(
        &["bench", "all-to-all", "--out", file.to_str().unwrap()],
        &["exists and is not a directory"],
    );
    let under = file.join("out");
    rejects(
        &["bench", "all-to-all", "--out", under.to_str().unwrap()],
        &["afile is not a directory"],
    );
    std::fs::create_dir_all(out.join("all_to_all.jsonl")).unwrap();
    rejects(
        &["bench", "all-to-all", "--out", o],
        &["all_to_all.jsonl is a directory there, not a file"],
    );
}
