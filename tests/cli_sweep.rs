//! `lcanet sweep`: the configuration list and its shards (disjoint, covering, stable
//! numbering), a small slice co-simulated for real with its JSON lines, and bad flags
//! refused naming the condition with nothing written; `--report` over those records:
//! coverage, stale digests, mismatches and malformed or foreign records; and
//! `--submit slurm` on a live single-node Slurm cluster: job arrays, a cancelled task
//! resumed, an injected fault reported as a mismatch by the tasks and the report job.

mod common;

use common::{json, lcanet, ok, rejects, scratch};
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
    // Networks above --max-switches are out of scope: listed with their switch counts.
    let small = listed(&["--max-switches", "2"]);
    let out = small["skipped_networks"].as_array().unwrap();
    assert!(
        !out.is_empty() && out.iter().all(|x| x["switches"].as_u64().unwrap() > 2),
        "{small}"
    );
    let text = ok(&["sweep", "--list", "--max-n", "4", "--max-switches", "2"]);
    assert!(
        text.contains("out of scope") && text.contains("T(2,1) l=2"),
        "{text}"
    );
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
    // The summary: by topology, algorithm and policy (adding up to the list), the cost
    // and the slowest configurations, written with --report-out as JSON (the same
    // document) and Markdown.
    let groups = r["groups"].as_array().unwrap();
    let total = |k: &str| groups.iter().map(|g| g[k].as_u64().unwrap()).sum::<u64>();
    assert_eq!(total("configurations"), n, "{r}");
    assert_eq!(total("matched"), n, "{r}");
    assert!(groups.iter().all(|g| g["arbiter"] == "none") == (groups[0]["algorithm"] == "r3"));
    assert!(close(
        &r["cost"]["hours"],
        (sum("build_cpu_seconds") + sum("run_cpu_seconds")) / 3600.0
    ));
    let slow = r["slowest"].as_array().unwrap();
    assert_eq!(slow.len() as u64, n.min(10), "{r}");
    let secs =
        |x: &Value| x["build_seconds"].as_f64().unwrap() + x["run_seconds"].as_f64().unwrap();
    assert!(slow.windows(2).all(|w| secs(&w[0]) >= secs(&w[1])), "{r}");
    let out_dir = dir.join("summary");
    let written = report(
        &[o],
        &[
            "--shard",
            "5/140",
            "--report-out",
            out_dir.to_str().unwrap(),
        ],
    );
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("report.json")).unwrap())
            .unwrap();
    assert_eq!(file, written);
    let md = std::fs::read_to_string(out_dir.join("report.md")).unwrap();
    assert!(md.contains("**COMPLETE, all matched**"), "{md}");
    assert!(md.contains("| topology | algorithm | arbiter |"), "{md}");
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
    // By shard: shard 5 of 140 is the one complete.
    let r = report(&[d], &["--shards", "140"]);
    assert_eq!(r["shards"]["complete"].as_u64(), Some(1), "{r}");
    let incomplete: Vec<u64> = r["shards"]["incomplete"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["shard"].as_u64().unwrap())
        .collect();
    assert_eq!(incomplete.len(), 139);
    assert!(!incomplete.contains(&5));
    // Networks above --max-switches are out of scope, listed with their switch counts.
    let r = report(&[o], &["--shard", "5/140"]);
    assert!(
        r["out_of_scope"]["networks"].as_array().unwrap().is_empty(),
        "{r}"
    );
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
    // --submit: refused before anything is written or Slurm is asked.
    let results = dir.join("results");
    let r = results.to_str().unwrap();
    let submit = |extra: &[&str], needles: &[&str]| {
        let mut args = vec!["sweep", "--max-n", "4", "--submit", "slurm", "--results", r];
        args.extend_from_slice(extra);
        rejects(&args, needles);
    };
    submit(&["--shards", "0"], &["--shards 0", "between 1 and"]);
    submit(&["--shards", "484"], &["--shards 484", "483"]);
    submit(&["--cpus", "0"], &["--cpus 0"]);
    submit(&["--mem", "10"], &["--mem 10"]);
    submit(&["--time", "0"], &["--time 0"]);
    submit(&["--partition", "a b"], &["--partition"]);
    submit(&["--scratch", "tmp"], &["--scratch tmp", "absolute"]);
    submit(&["--out", o], &["--out", "cannot be used with"]);
    assert!(
        !results.exists(),
        "a refused submission created its results directory"
    );
    std::fs::create_dir_all(&results).unwrap();
    std::fs::write(results.join("old.jsonl"), "").unwrap();
    submit(
        &["--shards", "4"],
        &["old.jsonl", "not a shard file of --shards 4"],
    );
    std::fs::rename(results.join("old.jsonl"), results.join("shard-009.jsonl")).unwrap();
    submit(
        &["--shards", "4"],
        &["shard-009.jsonl", "no shard 9 of --shards 4"],
    );
    assert_eq!(
        std::fs::read_dir(&results).unwrap().count(),
        1,
        "nothing written"
    );
    rejects(
        &["sweep", "--max-n", "4", "--shards", "4"],
        &["--shards", "--report or --submit"],
    );
    rejects(&["sweep", "--results", r], &["--submit"]);
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

/// A single-node Slurm cluster of `scripts/slurm/cluster` in a directory of its own,
/// stopped (its jobs cancelled, its daemons ended by their recorded PIDs) when dropped,
/// whether the test passed or panicked.
struct Cluster {
    dir: tempfile::TempDir,
    conf: std::path::PathBuf,
}

impl Cluster {
    fn script() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm/cluster")
    }

    fn up() -> Cluster {
        // Under /tmp: the munge socket's path must stay short.
        let dir = tempfile::Builder::new()
            .prefix("lcanet-slurm.")
            .tempdir_in("/tmp")
            .unwrap();
        let r = std::process::Command::new(Self::script())
            .arg("up")
            .arg(dir.path())
            .output()
            .unwrap();
        let conf = dir.path().join("slurm.conf");
        let me = Cluster { dir, conf };
        assert!(
            r.status.success(),
            "cluster up: {}{}",
            String::from_utf8_lossy(&r.stdout),
            String::from_utf8_lossy(&r.stderr)
        );
        me
    }

    /// A Slurm client command (or lcanet) pointed at this cluster.
    fn cmd(&self, program: &str) -> std::process::Command {
        let mut c = std::process::Command::new(program);
        c.env("SLURM_CONF", &self.conf);
        c
    }

    /// `lcanet sweep …` against this cluster: its exit code, its JSON summary (null if
    /// it printed none) and its stderr.
    fn lcanet(&self, args: &[&str]) -> (Option<i32>, Value, String) {
        let r = self
            .cmd(env!("CARGO_BIN_EXE_lcanet"))
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&r.stderr).to_string();
        let v = if r.stdout.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&r.stdout)
                .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {err}"))
        };
        (r.status.code(), v, err)
    }

    /// Waits (at most 3 minutes) until none of `jobs` is queued or running.
    fn wait(&self, jobs: &[&str]) {
        let t0 = std::time::Instant::now();
        loop {
            let out = self
                .cmd("squeue")
                .args(["-h", "-o", "%A"])
                .output()
                .unwrap();
            let listed = String::from_utf8_lossy(&out.stdout).to_string();
            if !listed.split_whitespace().any(|j| jobs.contains(&j)) {
                return;
            }
            assert!(
                t0.elapsed().as_secs() < 900,
                "jobs {jobs:?} still queued after 15 minutes: {listed}"
            );
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    }

    /// The completion records (`jobcomp/filetxt`) of job `id` (an array's tasks too):
    /// one map of its fields per job.
    fn completed(&self, id: &str) -> Vec<std::collections::BTreeMap<String, String>> {
        let text = std::fs::read_to_string(self.dir.path().join("jobcomp.txt")).unwrap_or_default();
        text.lines()
            .map(|l| {
                l.split_whitespace()
                    .filter_map(|kv| kv.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect::<std::collections::BTreeMap<_, _>>()
            })
            .filter(|m| {
                m.get("JobId").map(String::as_str) == Some(id)
                    || m.get("ArrayJobId").map(String::as_str) == Some(id)
            })
            .collect()
    }

    /// The daemons' PIDs, as `up` recorded them.
    fn pids(&self) -> Vec<u32> {
        std::fs::read_to_string(self.dir.path().join("pids"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.split_whitespace().nth(1)?.parse().ok())
            .collect()
    }

    fn down(&self) -> std::process::Output {
        std::process::Command::new(Self::script())
            .arg("down")
            .arg(self.dir.path())
            .output()
            .unwrap()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let r = self.down();
        if !r.status.success() {
            eprintln!("cluster down: {}", String::from_utf8_lossy(&r.stderr));
        }
    }
}

/// The JSON lines of a records file.
fn records(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn indices(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c["index"].as_u64().unwrap())
        .collect()
}

/// Issue 33: the sweep as Slurm job arrays on a live single-node cluster (Debian's
/// slurm-wlm and munge, `scripts/slurm/cluster`). A sweep of 8 configurations in 4 array
/// tasks with a dependent report job, one task cancelled once it has recorded a
/// configuration: the report calls its shard's configurations missing and the shard
/// incomplete; a re-submission runs that shard alone, resumed from its journal. A sweep
/// with an injected fault: its tasks and its report job exit 2, the report names the
/// mismatches and a command that reproduces one alone, which does. A submission while
/// the results' jobs are queued is refused; one with nothing left submits nothing. The
/// daemons are gone after the cluster is stopped.
#[test]
fn slurm_job_arrays_on_a_live_cluster() {
    let cluster = Cluster::up();
    let dir = scratch("slurm");
    let results = dir.join("results");
    let r = results.to_str().unwrap();
    // The tasks share the tests' build cache (node-local here) instead of each building
    // the Verilator runtime in its own.
    let cache = lcanet_testbench::paths::cache_root();
    let cache = cache.to_str().unwrap();
    let list = [
        "sweep",
        "--max-n",
        "4",
        "--topologies",
        "tree",
        "--algorithms",
        "r1,r3",
        "--arbiters",
        "fixed",
        "--max-switches",
        "1",
        "--perms",
        "2",
        "--seed",
        "9",
    ];
    let submit = |results: &str, extra: &[&str]| {
        let mut args = list.to_vec();
        args.extend_from_slice(&[
            "--submit",
            "slurm",
            "--results",
            results,
            "--shards",
            "4",
            "--cache-dir",
            cache,
            "--json",
        ]);
        args.extend_from_slice(extra);
        cluster.lcanet(&args)
    };
    let (code, s, err) = submit(r, &[]);
    assert_eq!(code, Some(0), "{s} {err}");
    let array = s["array_job"].as_str().unwrap().to_string();
    let report_job = s["report_job"].as_str().unwrap().to_string();
    let shards: Vec<u64> = s["submitted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["shard"].as_u64().unwrap())
        .collect();
    assert_eq!(shards, [0, 1, 2, 3], "{s}");
    assert_eq!(s["resources"]["cpus"].as_u64(), Some(1), "{s}");
    // While they are queued, the same results directory takes no second submission.
    let (code, _, err) = submit(r, &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("jobs {array} of this results directory"))
            && err.contains("still queued"),
        "{err}"
    );

    // Task 0 (configurations 0 and 4) is cancelled once its journal holds a record.
    let journal = results.join(".shard-000.jsonl.partial");
    let t0 = std::time::Instant::now();
    while !std::fs::read_to_string(&journal).is_ok_and(|t| t.ends_with('\n')) {
        assert!(
            t0.elapsed().as_secs() < 600,
            "task 0 wrote no record in 10 minutes"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let c = cluster
        .cmd("scancel")
        .arg(format!("{array}_0"))
        .status()
        .unwrap();
    assert!(c.success());
    cluster.wait(&[&array, &report_job]);
    assert!(
        !results.join("shard-000.jsonl").exists(),
        "task 0 finished before it was cancelled"
    );
    let kept = std::fs::read_to_string(&journal).unwrap();
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(results.join("report.json")).unwrap())
            .unwrap();
    assert_eq!(indices(&report["missing"]), [0, 4], "{report}");
    assert_eq!(report["covered"].as_u64(), Some(6), "{report}");
    assert_eq!(report["matched"].as_u64(), Some(6), "{report}");
    assert_eq!(
        report["shards"]["incomplete"][0]["shard"].as_u64(),
        Some(0),
        "{report}"
    );
    assert_eq!(report["shards"]["complete"].as_u64(), Some(3), "{report}");
    let jobs = cluster.completed(&array);
    let state = |task: &str| {
        jobs.iter()
            .find(|m| m.get("ArrayTaskId").map(String::as_str) == Some(task))
            .and_then(|m| m.get("JobState").cloned())
    };
    assert_eq!(state("0").as_deref(), Some("CANCELLED"), "{jobs:?}");
    assert_eq!(state("3").as_deref(), Some("COMPLETED"), "{jobs:?}");
    let rj = cluster.completed(&report_job);
    assert_eq!(rj[0]["ExitCode"], "0:0", "{rj:?}");
    let md = std::fs::read_to_string(results.join("report.md")).unwrap();
    assert!(
        md.contains("**INCOMPLETE**") && md.contains("incomplete: 0"),
        "{md}"
    );

    // The re-submission runs shard 0 alone, from its journal; beside it, a sweep of 2
    // configurations with an injected fault.
    let (code, again, err) = submit(r, &[]);
    assert_eq!(code, Some(0), "{again} {err}");
    assert_eq!(again["complete"], serde_json::json!([1, 2, 3]), "{again}");
    assert_eq!(again["submitted"].as_array().unwrap().len(), 1, "{again}");
    assert_eq!(again["submitted"][0]["shard"].as_u64(), Some(0), "{again}");
    let journaled = kept.lines().count() as u64;
    assert_eq!(
        again["submitted"][0]["journal_records"].as_u64(),
        Some(journaled),
        "{again}"
    );
    let faulty = dir.join("faulty");
    let f = faulty.to_str().unwrap();
    let (code, fs, err) = cluster.lcanet(&[
        "sweep",
        "--max-n",
        "3",
        "--topologies",
        "tree",
        "--algorithms",
        "r3",
        "--perms",
        "2",
        "--seed",
        "3",
        "--inject-fault",
        "--submit",
        "slurm",
        "--results",
        f,
        "--shards",
        "2",
        "--cache-dir",
        cache,
        "--json",
    ]);
    assert_eq!(code, Some(0), "{fs} {err}");
    let (array2, report2) = (
        again["array_job"].as_str().unwrap(),
        again["report_job"].as_str().unwrap(),
    );
    let (array3, report3) = (
        fs["array_job"].as_str().unwrap(),
        fs["report_job"].as_str().unwrap(),
    );
    cluster.wait(&[array2, report2, array3, report3]);

    let shard0 = std::fs::read_to_string(results.join("shard-000.jsonl")).unwrap();
    assert!(
        shard0.starts_with(&kept),
        "the journal's records are kept as they were:\n{kept}\n{shard0}"
    );
    assert_eq!(shard0.lines().count(), 2);
    let log = std::fs::read_dir(
        again["scripts"]
            .as_str()
            .map(|d| std::path::Path::new(d).join("logs"))
            .unwrap(),
    )
    .unwrap()
    .map(|e| e.unwrap().path())
    .find(|p| {
        p.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("task-")
    })
    .unwrap();
    let task: Value = serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
    assert_eq!(task["resumed"].as_u64(), Some(journaled), "{task}");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(results.join("report.json")).unwrap())
            .unwrap();
    assert_eq!(report["complete"], Value::Bool(true), "{report}");
    assert_eq!(report["matched"].as_u64(), Some(8), "{report}");
    assert_eq!(cluster.completed(report2)[0]["ExitCode"], "0:0");
    // Nothing left: nothing is submitted.
    let (code, none, err) = submit(r, &[]);
    assert_eq!(code, Some(0), "{none} {err}");
    assert!(none["submitted"].as_array().unwrap().is_empty(), "{none}");
    assert!(none["array_job"].is_null(), "{none}");

    // The faulty sweep: its tasks and its report job exit 2; the report names both
    // mismatches and how to run one alone.
    for m in cluster
        .completed(array3)
        .iter()
        .chain(&cluster.completed(report3))
    {
        assert_eq!(
            (m["JobState"].as_str(), m["ExitCode"].as_str()),
            ("FAILED", "2:0"),
            "{m:?}"
        );
    }
    for rec in records(&faulty.join("shard-000.jsonl"))
        .iter()
        .chain(&records(&faulty.join("shard-001.jsonl")))
    {
        assert_eq!(rec["match"], Value::Bool(false), "{rec}");
        assert_eq!(
            rec["matched"].as_u64(),
            Some(1),
            "only permutation 0 is faulty: {rec}"
        );
        assert_eq!(rec["failure"]["perm"].as_u64(), Some(0), "{rec}");
    }
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(faulty.join("report.json")).unwrap())
            .unwrap();
    assert_eq!(indices(&report["mismatched"]), [0, 1], "{report}");
    let repro = report["mismatched"][1]["reproduce"].as_str().unwrap();
    assert_eq!(
        repro,
        "lcanet sweep --max-n 3 --topologies tree --algorithms r3 --perms 1 --seed 3 --shard 1/2 --out repro-1.jsonl --inject-fault"
    );
    let md = std::fs::read_to_string(faulty.join("report.md")).unwrap();
    assert!(md.contains("**MISMATCH**") && md.contains(repro), "{md}");
    let alone = dir.join("alone");
    std::fs::create_dir_all(&alone).unwrap();
    let words: Vec<&str> = repro.split(' ').skip(1).collect();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_lcanet"))
        .args(&words)
        .current_dir(&alone)
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stderr).contains("MISMATCH #1"));

    // Stopped: no daemon it started is left.
    let pids = cluster.pids();
    assert_eq!(pids.len(), 3);
    let down = cluster.down();
    assert!(
        down.status.success(),
        "{}",
        String::from_utf8_lossy(&down.stderr)
    );
    for p in pids {
        let status = std::fs::read_to_string(format!("/proc/{p}/status")).unwrap_or_default();
        assert!(
            status.is_empty() || status.contains("State:\tZ"),
            "PID {p} still runs: {status}"
        );
    }
}
