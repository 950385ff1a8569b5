//! `lcanet sweep`: the configuration list and its shards (disjoint, covering, stable
//! numbering), a small slice co-simulated for real with its JSON lines, an injected fault
//! reported as a mismatch (exit 2), and bad flags refused naming the condition with
//! nothing written; `--report` over those records: coverage, stale digests, mismatches and
//! malformed or foreign records.

mod common;

use common::{json, lcanet, rejects, scratch};
use serde_json::Value;
use std::collections::BTreeSet;

fn listed(extra: &[&str]) -> Value {
    let mut args = vec!["sweep", "--list", "--json", "--max-n", "4"];
    args.extend_from_slice(extra);
    json(&args)
}

#[test]
fn shards_partition_the_configuration_list() {
    let all = listed(&[]);
    let total = all["configurations"].as_u64().unwrap();
    assert_eq!(all["configurations_in_all_shards"].as_u64(), Some(total));
    // n ≤ 4: trees (2,1) l=1,2, (3,1), (4,1), (4,2); CB(d,u) d ≤ 4 with every u ≤ 16, and
    // CB(2,u) with two levels; × r1, r2 × three policies.
    assert!(total > 300, "{total}");
    let indices = |v: &Value| -> BTreeSet<u64> {
        v["listed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["index"].as_u64().unwrap())
            .collect()
    };
    let every = indices(&all);
    assert_eq!(every.len() as u64, total);
    let mut union = BTreeSet::new();
    for i in 0..3 {
        let s = listed(&["--shard", &format!("{i}/3")]);
        let mine = indices(&s);
        assert!(mine.iter().all(|k| k % 3 == i), "shard {i}: {mine:?}");
        assert!(union.is_disjoint(&mine));
        union.extend(mine);
    }
    assert_eq!(union, every);
    for c in all["listed"].as_array().unwrap() {
        assert!(c["n"].as_u64().unwrap() <= 4, "{c}");
    }
    let algs: BTreeSet<&str> = all["listed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["algorithm"].as_str().unwrap())
        .collect();
    assert!(algs.contains("r1") && algs.contains("r2"), "{algs:?}");
    // R3's hardware has no arbiter: one configuration per network, arbiter "none".
    for c in all["listed"].as_array().unwrap() {
        assert_eq!(c["algorithm"] == "r3", c["arbiter"] == "none", "{c}");
    }
}

#[test]
fn a_slice_is_co_simulated_and_recorded() {
    let dir = scratch("slice");
    let out = dir.join("sweep.jsonl");
    let o = out.to_str().unwrap();
    let s = json(&[
        "sweep", "--max-n", "4", "--perms", "3", "--shard", "5/140", "--seed", "11", "--out", o,
        "--json",
    ]);
    let n = s["configurations"].as_u64().unwrap();
    assert!(n >= 2, "{s}");
    assert_eq!(s["matched"].as_u64(), Some(n));
    assert_eq!(s["seed"].as_u64(), Some(11));
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as u64, n);
    for r in &lines {
        assert_eq!(r["match"], Value::Bool(true), "{r}");
        assert_eq!(r["perms"].as_u64(), Some(3));
        assert_eq!(r["matched"].as_u64(), Some(3));
        assert_eq!(r["index"].as_u64().unwrap() % 140, 5);
        assert!(r["passes_mean"].as_f64().unwrap() >= 1.0, "{r}");
        assert!(r["bit_times_mean"].as_f64().unwrap() > 0.0, "{r}");
        assert!(r["top"].as_str().unwrap().starts_with("lcan_"), "{r}");
        assert_eq!(r["rtl"].as_str().unwrap().len(), 16, "{r}");
    }
    assert!(!dir.join(".sweep.jsonl.partial").exists());
    report_checks(&dir, &out, &lines);
    resume_checks(&dir, &lines);
}

/// `--resume` with journals made from the slice's records: kept records are not run again,
/// a torn last line and stale records are left out, a finished file resumes whole, a kept
/// mismatch still fails the run, and a foreign record is refused with the journal
/// untouched.
fn resume_checks(dir: &std::path::Path, lines: &[Value]) {
    let jdir = dir.join("resume");
    std::fs::create_dir_all(&jdir).unwrap();
    let out = jdir.join("s.jsonl");
    let journal = jdir.join(".s.jsonl.partial");
    let o = out.to_str().unwrap();
    let n = lines.len() as u64;
    let run = |extra: &[&str]| {
        let mut args = vec![
            "sweep", "--max-n", "4", "--perms", "3", "--shard", "5/140", "--out", o, "--resume",
            "--json",
        ];
        args.extend_from_slice(extra);
        lcanet(&args)
    };
    let written = || -> Vec<Value> {
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    // One record kept and the next one cut off mid-line: the seed comes from the journal,
    // the kept record is copied as it was (its timings too), the rest is run.
    let second = lines[1].to_string();
    std::fs::write(
        &journal,
        format!("{}\n{}", lines[0], &second[..second.len() / 2]),
    )
    .unwrap();
    let r = run(&[]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["resumed"].as_u64(), Some(1), "{v}");
    assert_eq!(v["seed"].as_u64(), Some(11), "{v}");
    assert_eq!(v["matched"].as_u64(), Some(n), "{v}");
    let w = written();
    assert_eq!(w.len() as u64, n);
    assert_eq!(w[0], lines[0], "the kept record is copied, not run again");
    assert_eq!(w[1]["index"], lines[1]["index"]);
    assert!(!journal.exists(), "the journal became the records file");
    // Resumed again, with no journal: the finished file is kept whole, nothing runs.
    let before = std::fs::read_to_string(&out).unwrap();
    let v: Value = serde_json::from_slice(&run(&[]).stdout).unwrap();
    assert_eq!(v["resumed"].as_u64(), Some(n), "{v}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), before);
    // A stale record (another digest) is dropped and its configuration run again.
    let mut stale = lines[0].clone();
    stale["rtl"] = Value::String("0123456789abcdef".into());
    stale["build_seconds"] = Value::from(12345.0);
    std::fs::write(&journal, format!("{stale}\n")).unwrap();
    let v: Value = serde_json::from_slice(&run(&[]).stdout).unwrap();
    assert_eq!(v["resumed"].as_u64(), Some(0), "{v}");
    assert_ne!(written()[0]["build_seconds"], stale["build_seconds"]);
    // A kept mismatch counts: the run reports it and exits 2.
    let mut bad = lines[0].clone();
    bad["matched"] = Value::from(2);
    bad["match"] = Value::Bool(false);
    std::fs::write(&journal, format!("{bad}\n")).unwrap();
    let r = run(&[]);
    assert_eq!(
        r.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["mismatched"][0], lines[0]["index"], "{v}");
    assert_eq!(written()[0], bad);
    // Refused, naming the journal's line, and nothing written: a record of other flags, a
    // seed other than --seed's, a torn line that is not the last.
    std::fs::remove_file(&out).unwrap();
    let mut other = lines[0].clone();
    other["d"] = Value::from(other["d"].as_u64().unwrap() + 1);
    let cases: [(String, &[&str], &[&str]); 3] = [
        (
            format!("{}\n{other}\n", lines[0]),
            &[],
            &[".s.jsonl.partial:2", "other flags"],
        ),
        (
            format!("{}\n", lines[0]),
            &["--seed", "12"],
            &["used seed 11", "--seed says 12"],
        ),
        (
            format!("{}\n{}\n", &second[..10], lines[0]),
            &[],
            &[".s.jsonl.partial:1", "not a sweep record"],
        ),
    ];
    for (text, extra, needles) in cases {
        std::fs::write(&journal, &text).unwrap();
        let mut args = vec![
            "sweep", "--max-n", "4", "--perms", "3", "--shard", "5/140", "--out", o, "--resume",
        ];
        args.extend_from_slice(extra);
        rejects(&args, needles);
        assert_eq!(std::fs::read_to_string(&journal).unwrap(), text);
        assert!(!out.exists());
    }
    rejects(&["sweep", "--resume"], &["--out"]);
}

/// `--report` on the slice's records (shard 5/140 of --max-n 4, 3 permutations, seed 11).
fn report_checks(dir: &std::path::Path, out: &std::path::Path, lines: &[Value]) {
    let o = out.to_str().unwrap();
    let flags = ["--max-n", "4", "--perms", "3", "--json"];
    let report = |paths: &[&str], extra: &[&str]| -> Value {
        let mut args = vec!["sweep", "--report"];
        args.extend_from_slice(paths);
        args.extend_from_slice(&flags);
        args.extend_from_slice(extra);
        json(&args)
    };
    let n = lines.len() as u64;
    // The shard: complete, everything matched.
    let r = report(&[o], &["--shard", "5/140"]);
    assert_eq!(r["configurations"].as_u64(), Some(n), "{r}");
    assert_eq!(r["covered"].as_u64(), Some(n), "{r}");
    assert_eq!(r["matched"].as_u64(), Some(n), "{r}");
    assert_eq!(r["complete"], Value::Bool(true), "{r}");
    assert_eq!(r["seed"].as_u64(), Some(11));
    assert_eq!(r["permutations"].as_u64(), Some(3 * n));
    // CPU time: the sums of the records' own figures; a record without them (written
    // before they existed) is left out of the CPU sums only.
    let sum = |k: &str| lines.iter().map(|l| l[k].as_f64().unwrap()).sum::<f64>();
    let close = |a: &Value, b: f64| (a.as_f64().unwrap() - b).abs() < 1e-9 * (1.0 + b);
    assert_eq!(r["cpu"]["records"].as_u64(), Some(n), "{r}");
    assert!(
        close(&r["cpu"]["build_seconds"], sum("build_cpu_seconds")),
        "{r}"
    );
    assert!(
        close(&r["cpu"]["run_seconds"], sum("run_cpu_seconds")),
        "{r}"
    );
    let older = dir.join("older");
    std::fs::create_dir_all(&older).unwrap();
    let mut first = lines[0].clone();
    let first_map = first.as_object_mut().unwrap();
    first_map.remove("build_cpu_seconds");
    first_map.remove("run_cpu_seconds");
    let rest: Vec<String> = lines[1..].iter().map(|l| l.to_string()).collect();
    let mixed = older.join("mixed.jsonl");
    std::fs::write(&mixed, format!("{first}\n{}\n", rest.join("\n"))).unwrap();
    let r = report(&[mixed.to_str().unwrap()], &["--shard", "5/140"]);
    assert_eq!(r["covered"].as_u64(), Some(n), "{r}");
    assert_eq!(r["cpu"]["records"].as_u64(), Some(n - 1), "{r}");
    let build_rest = sum("build_cpu_seconds") - lines[0]["build_cpu_seconds"].as_f64().unwrap();
    assert!(close(&r["cpu"]["build_seconds"], build_rest), "{r}");
    // The whole list: the same records, the rest missing; a directory reads its files.
    let d = dir.to_str().unwrap();
    let r = report(&[d], &[]);
    assert_eq!(r["covered"].as_u64(), Some(n), "{r}");
    assert_eq!(r["complete"], Value::Bool(false));
    let total = r["configurations"].as_u64().unwrap();
    assert_eq!(r["missing"].as_array().unwrap().len() as u64, total - n);
    // The same file twice: repeats, nothing else changes.
    let r = report(&[o, o], &["--shard", "5/140"]);
    assert_eq!(r["duplicates"].as_u64(), Some(n), "{r}");
    assert_eq!(r["covered"].as_u64(), Some(n));
    // A record whose Verilog digest is not today's is stale and does not count.
    let edited = dir.join("edited");
    std::fs::create_dir_all(&edited).unwrap();
    let stale = edited.join("stale.jsonl");
    let mut first = lines[0].clone();
    first["rtl"] = Value::String("0123456789abcdef".into());
    std::fs::write(&stale, format!("{first}\n")).unwrap();
    let r = report(&[stale.to_str().unwrap()], &["--shard", "5/140"]);
    assert_eq!(r["covered"].as_u64(), Some(0), "{r}");
    assert_eq!(r["stale"][0]["index"], first["index"], "{r}");
    // Refused, naming the file and line: another network at that index, other
    // permutations, another seed, a line that is not a record, paths that hold none.
    let write = |name: &str, text: String| {
        let p = edited.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let mut other = lines[0].clone();
    other["d"] = Value::from(other["d"].as_u64().unwrap() + 1);
    let f = write("other.jsonl", format!("{}\n{other}\n", lines[0]));
    let refused = |args: &[&str], needles: &[&str]| {
        let mut all = vec!["sweep", "--max-n", "4", "--report"];
        all.extend_from_slice(args);
        rejects(&all, needles);
    };
    refused(&[&f, "--perms", "3"], &["other.jsonl:2", "other flags"]);
    refused(
        &[o, "--perms", "4"],
        &["co-simulated 3 permutations, --perms says 4"],
    );
    refused(
        &[o, "--perms", "3", "--seed", "12"],
        &["used seed 11", "--seed says 12"],
    );
    let mut reseeded = lines[0].clone();
    reseeded["seed"] = Value::from(12);
    let f = write("seeds.jsonl", format!("{}\n{reseeded}\n", lines[0]));
    refused(
        &[&f, "--perms", "3"],
        &[
            "seeds.jsonl:2",
            "used seed 12",
            "seeds.jsonl:1 used seed 11",
        ],
    );
    let f = write("garbage.jsonl", "{\"index\": 1}\n".into());
    refused(&[&f], &["garbage.jsonl:1", "not a sweep record"]);
    let empty = dir.join("nothing-here");
    std::fs::create_dir_all(&empty).unwrap();
    refused(&[empty.to_str().unwrap()], &["no *.jsonl files"]);
    refused(&["/no/such/records.jsonl"], &["no such file or directory"]);
}

#[test]
fn an_injected_fault_is_reported_as_a_mismatch() {
    let dir = scratch("fault");
    let out = dir.join("f.jsonl");
    let o = out.to_str().unwrap();
    let r = lcanet(&[
        "sweep",
        "--max-n",
        "4",
        "--perms",
        "2",
        "--shard",
        "0/400",
        "--seed",
        "3",
        "--inject-fault",
        "--out",
        o,
    ]);
    assert_eq!(
        r.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    assert!(String::from_utf8_lossy(&r.stderr).contains("MISMATCH #0"));
    let rec: Value = serde_json::from_str(
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(rec["match"], Value::Bool(false));
    assert_eq!(
        rec["matched"].as_u64(),
        Some(1),
        "only permutation 0 is faulty: {rec}"
    );
    assert_eq!(rec["failure"]["perm"].as_u64(), Some(0));
    // The report finds the mismatch and exits 2 too.
    let r = lcanet(&[
        "sweep", "--report", o, "--max-n", "4", "--perms", "2", "--shard", "0/400", "--json",
    ]);
    assert_eq!(r.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["mismatched"][0]["index"].as_u64(), Some(0), "{v}");
    assert_eq!(v["matched"].as_u64(), Some(0));
}

#[test]
fn bad_flags_are_refused_naming_the_condition() {
    let dir = scratch("bad");
    let out = dir.join("x.jsonl");
    let o = out.to_str().unwrap();
    let cases: &[(&[&str], &[&str])] = &[
        (&["--max-n", "1"], &["--max-n 1", "between 2"]),
        (&["--max-n", "4096"], &["--max-n 4096", "1024"]),
        (&["--perms", "0"], &["--perms 0"]),
        (&["--perms", "100001"], &["--perms 100001"]),
        (&["--shard", "3/3"], &["shard 3 does not exist"]),
        (&["--shard", "1"], &["not a shard I/N"]),
        (&["--algorithms", "r9"], &["unknown algorithm 'r9'"]),
        (&["--arbiters", "lottery"], &["--arbiters"]),
        (&["--max-switches", "0"], &["--max-switches 0"]),
        (&["--width", "0"], &["--width / --message-bits"]),
        (&["--message-bits", "65"], &["--width / --message-bits"]),
    ];
    for (extra, needles) in cases {
        let mut args = vec!["sweep", "--out", o];
        args.extend_from_slice(extra);
        rejects(&args, needles);
        assert!(!out.exists(), "{extra:?} wrote {o}");
    }
    let d = dir.to_str().unwrap();
    rejects(&["sweep", "--out", d], &["is a directory"]);
    // A missing directory is created, like every other output; a failure removes it.
    let afile = dir.join("afile");
    std::fs::write(&afile, "a file\n").unwrap();
    let under_file = afile.join("x.jsonl");
    rejects(
        &["sweep", "--out", under_file.to_str().unwrap()],
        &["--out", "afile"],
    );
    let long = dir
        .join("no/such")
        .join(format!("{}.jsonl", "y".repeat(300)));
    rejects(
        &["sweep", "--out", long.to_str().unwrap()],
        &["File name too long"],
    );
    assert!(!dir.join("no").exists(), "created directories removed");
}

#[test]
fn discarded_builds_leave_no_model_behind() {
    // One configuration (shard 100/400 of --max-n 4), first with the default cache, then
    // with --discard-builds: the model is built again (the cache is not used) and its
    // directory is gone afterwards, while the Verilog stays in the work directory.
    let dir = scratch("discard");
    let artifacts = dir.join("artifacts");
    let run = |extra: &[&str]| -> Value {
        let out = dir.join("d.jsonl");
        let mut args = vec![
            "sweep", "--max-n", "4", "--perms", "2", "--shard", "100/400", "--seed", "5", "--out",
        ];
        args.push(out.to_str().unwrap());
        args.extend_from_slice(extra);
        let r = std::process::Command::new(env!("CARGO_BIN_EXE_lcanet"))
            .args(&args)
            .env("LCANET_ARTIFACTS_DIR", &artifacts)
            .output()
            .unwrap();
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        let text = std::fs::read_to_string(&out).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 1, "{text}");
        assert_eq!(lines[0]["match"], Value::Bool(true), "{text}");
        lines[0].clone()
    };
    let cached = run(&[]);
    let work = artifacts.join(format!("cli__sweep__{}", cached["top"].as_str().unwrap()));
    assert!(work.join("rtl").is_dir(), "{}", work.display());
    let again = run(&[]);
    assert_eq!(again["build"], "cached", "{again}");
    let discarded = run(&["--discard-builds"]);
    assert_eq!(discarded["build"], "built", "{discarded}");
    // A compile costs CPU in Verilator, make and g++; a cache hit only the generation.
    let cpu = |r: &Value| r["build_cpu_seconds"].as_f64().unwrap();
    assert!(cpu(&discarded) > 0.1, "{discarded}");
    assert!(cpu(&again) < cpu(&discarded), "{again} {discarded}");
    assert_eq!(discarded["rtl"], cached["rtl"]);
    assert!(work.join("rtl").is_dir(), "{}", work.display());
    assert!(!work.join("models").exists(), "{}", work.display());
}
