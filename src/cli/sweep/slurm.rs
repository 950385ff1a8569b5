//! `lcanet sweep --submit slurm --results DIR`: the sweep as a Slurm job array, one task
//! per shard, and a dependent job that writes the report (`docs/sweep/README.md`,
//! "Running it on a cluster").
//!
//! - **What runs.** The results directory holds one file per shard, `shard-NNN.jsonl`
//!   (shard NNN of `--shards N`). A shard is submitted if its file is missing or lacks a
//!   current record of one of its configurations (missing, or stale: the record names
//!   other Verilog than today's generator writes); complete shards are not. A shard's
//!   journal (`.shard-NNN.jsonl.partial`, left by a task that was cancelled, preempted or
//!   out of time) is where its task resumes (`--resume`). Every record there is checked
//!   as `--report` checks it before anything is submitted.
//! - **A task** (`task.sh`) works in its own node-local directory (`--scratch`, default
//!   `$TMPDIR` of the node, else `/tmp`): the Verilog, the model built there and deleted
//!   after its run (`--discard-builds`), and the build cache of the Verilator runtime
//!   (unless `--cache-dir` names a node-local one that the node's tasks share). Nothing is
//!   compiled on the shared file system. Its builds run at most as many compiler jobs as
//!   the CPUs Slurm gave it (`LCANET_BUILD_JOBS=$SLURM_CPUS_PER_TASK`). Records go to the
//!   results directory: the journal as the shard goes, renamed to `shard-NNN.jsonl` when
//!   it ends.
//! - **The report job** (`report.sh`) runs after the array (`afterany`: also when tasks
//!   failed or were cancelled) and writes `report.json` and `report.md` into the results
//!   directory; it exits non-zero on a mismatch.
//! - **Resources** per task: `--cpus` (default 1), and memory and time estimated from the
//!   records' measured costs ([`super::cost`]) unless `--mem` and `--time` say otherwise.
//! - The scripts, a copy of this `lcanet` binary (a rebuild while tasks wait changes
//!   nothing) and the logs go to `DIR/slurm/submit-<time>/`.

use super::configs::ranges;
use super::cost::{Model, Spent};
use super::records::{digests, Reader, Seen};
use super::{Args, Plan};
use crate::cli::common::{ensure_dir, print_json};
use crate::cli::Outcome;
use anyhow::{bail, Context};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Shards of a submission when `--shards` is not given.
pub const DEFAULT_SHARDS: usize = 100;

/// The batch schedulers `--submit` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scheduler {
    /// Slurm: sbatch job arrays
    Slurm,
}

/// The flags of `--submit`.
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Running on a batch scheduler")]
pub struct SubmitArgs {
    /// Submit the sweep to the scheduler: one array task per shard of --shards (default
    /// 100) that --results lacks (missing or stale), and a dependent job that writes the
    /// report. Run it on a login node; the results directory must be on a file system the
    /// nodes share.
    #[arg(long, value_enum, value_name = "SCHEDULER", requires = "results",
          conflicts_with_all = ["list", "report", "out", "resume", "shard", "discard_builds"])]
    pub submit: Option<Scheduler>,
    /// The results directory: shard-NNN.jsonl per shard, report.json and report.md, and
    /// slurm/ (the scripts, a copy of the binary, the logs).
    #[arg(long, value_name = "DIR", requires = "submit")]
    results: Option<PathBuf>,
    /// CPUs per task: its builds run this many compiler jobs (default 1: a task builds and
    /// runs one configuration at a time, and most models are one translation unit).
    #[arg(long, value_name = "N", requires = "submit")]
    cpus: Option<usize>,
    /// Memory per task, MB (default: from the records' peak memory, else 4096).
    #[arg(long, value_name = "MB", requires = "submit")]
    mem: Option<u64>,
    /// Time limit per task, minutes (default: twice the costliest submitted shard's
    /// estimate from the records, plus 10 minutes; a task out of time resumes on the next
    /// submission).
    #[arg(long, value_name = "MINUTES", requires = "submit")]
    time: Option<u64>,
    /// The partition of both jobs.
    #[arg(long, requires = "submit")]
    partition: Option<String>,
    /// At most this many tasks of the array at once (sbatch --array=…%K).
    #[arg(long, value_name = "K", requires = "submit")]
    max_running: Option<usize>,
    /// Node-local directory in which each task makes its work directory (default: the
    /// node's $TMPDIR, else /tmp). Never a shared file system.
    #[arg(long, value_name = "DIR", requires = "submit")]
    scratch: Option<PathBuf>,
    /// A node-local build cache for the Verilator runtime that the tasks on a node share
    /// (default: one per task in its work directory, built by each task: about 30 s of
    /// CPU).
    #[arg(long, value_name = "DIR", requires = "submit")]
    cache_dir: Option<PathBuf>,
    /// One more sbatch option for both jobs, e.g. --sbatch-arg=--account=lab (repeatable).
    #[arg(
        long,
        value_name = "ARG",
        allow_hyphen_values = true,
        requires = "submit"
    )]
    sbatch_arg: Vec<String>,
    /// Print what would be submitted; write and submit nothing.
    #[arg(long, requires = "submit")]
    dry_run: bool,
}

/// Memory per task when no record says what a task needed, MB.
const DEFAULT_MEM_MB: u64 = 4096;
/// Memory and time of the report job (it generates every recorded configuration's
/// Verilog for its digest: about 2 minutes for the 5,187 of `--max-n 256`).
const REPORT_MEM_MB: u64 = 2048;
const REPORT_MINUTES: u64 = 60;

/// What is in the results directory for one shard.
#[derive(Debug, Default)]
struct ShardFiles {
    /// Records of `shard-NNN.jsonl`.
    records: Vec<Seen>,
    /// Records of its journal `.shard-NNN.jsonl.partial` (where its task resumes).
    journal: Vec<Seen>,
}

/// A shard that runs.
#[derive(Debug, Serialize)]
struct Submitted {
    shard: usize,
    configurations: usize,
    /// Configurations without a record, and with only stale ones.
    missing: usize,
    stale: usize,
    /// Records in the journal its task resumes from.
    journal_records: usize,
    /// Estimated seconds of the shard's configurations ([`super::cost`]).
    estimate_seconds: f64,
}

/// The resources of each task and where they come from.
#[derive(Debug, Clone, Serialize)]
struct Resources {
    cpus: usize,
    mem_mb: u64,
    time_minutes: u64,
    /// How memory and time were chosen.
    basis: String,
}

/// The JSON summary of `--submit`.
#[derive(Debug, Serialize)]
struct Summary {
    results: PathBuf,
    shards: usize,
    seed: u64,
    configurations: usize,
    complete: Vec<usize>,
    submitted: Vec<Submitted>,
    resources: Option<Resources>,
    /// Where the scripts, the binary and the logs are.
    scripts: Option<PathBuf>,
    array_job: Option<String>,
    report_job: Option<String>,
    dry_run: bool,
}

/// Runs `lcanet sweep --submit slurm`.
pub fn run(a: &Args, plan: &Plan) -> anyhow::Result<Outcome> {
    let s = &a.submit;
    let results = s
        .results
        .as_deref()
        .context("--submit needs --results DIR")?;
    let count = a.shards.unwrap_or(DEFAULT_SHARDS);
    if count == 0 || count > plan.total {
        bail!(
            "--shards {count}: must be between 1 and the number of configurations ({}), so that no shard is empty",
            plan.total
        );
    }
    if let Some(c) = s.cpus.filter(|&c| c == 0 || c > 1024) {
        bail!("--cpus {c}: must be between 1 and 1024");
    }
    if let Some(m) = s.mem.filter(|&m| m < 64) {
        bail!("--mem {m}: at least 64 MB (a sweep process alone needs more)");
    }
    if s.time == Some(0) {
        bail!("--time 0: a task needs at least one minute");
    }
    if s.max_running == Some(0) {
        bail!("--max-running 0: at least one task must run");
    }
    if let Some(p) = s.partition.as_deref().filter(|p| !plain(p)) {
        bail!("--partition {p:?}: a partition name has no spaces, quotes or shell characters");
    }
    for (flag, dir) in [("--scratch", &s.scratch), ("--cache-dir", &s.cache_dir)] {
        if let Some(d) = dir.as_deref().filter(|d| !d.is_absolute()) {
            bail!(
                "{flag} {}: must be an absolute path (the tasks run it on the nodes)",
                d.display()
            );
        }
    }
    // Nothing is created before the submission itself: a refused run leaves no trace.
    let dir = if results.exists() {
        if !results.is_dir() {
            bail!("--results {}: is not a directory", results.display());
        }
        results.canonicalize()
    } else {
        std::path::absolute(results)
    }
    .with_context(|| format!("--results {}", results.display()))?;
    if dir.to_string_lossy().contains(['\n', '\r']) {
        bail!("--results {}: a line break in the path", dir.display());
    }
    let (files, seed) = read_results(&dir, count, a, plan)?;
    let seed = seed.unwrap_or_else(|| a.seed.resolve());

    // Which shards run: those without a current record of each of their configurations.
    let recorded: Vec<usize> = {
        let mut v: Vec<usize> = files
            .values()
            .flat_map(|f| f.records.iter().map(|r| r.index))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let today = digests(plan, a, &recorded)?;
    let all_records = || {
        files
            .values()
            .flat_map(|f| f.records.iter().chain(&f.journal))
    };
    let model = Model::new(
        all_records().map(|r| (switches_of(plan, r.index), r.spent())),
        a.perms,
    );
    let mut worst: BTreeMap<usize, Spent> = BTreeMap::new();
    for r in all_records() {
        let s = r.spent();
        let w = worst.entry(r.index).or_insert(s);
        if s.total() > w.total() {
            *w = s;
        }
    }
    let mut complete = Vec::new();
    let mut submitted = Vec::new();
    for shard in 0..count {
        let f = files.get(&shard);
        let mine: Vec<&super::Config> = plan
            .mine
            .iter()
            .filter(|c| c.index % count == shard)
            .collect();
        let (mut missing, mut stale, mut estimate) = (0, 0, 0.0);
        for c in &mine {
            let recs: Vec<&Seen> = f
                .map(|f| f.records.iter().filter(|r| r.index == c.index).collect())
                .unwrap_or_default();
            if recs.is_empty() {
                missing += 1;
            } else if !recs
                .iter()
                .any(|r| r.rtl.as_deref() == today.get(&c.index).map(String::as_str))
            {
                stale += 1;
            } else {
                continue;
            }
            estimate += worst.get(&c.index).map_or_else(
                || model.estimate(plan.topology(c).total_switches()),
                Spent::total,
            );
        }
        if missing + stale == 0 {
            complete.push(shard);
        } else {
            submitted.push(Submitted {
                shard,
                configurations: mine.len(),
                missing,
                stale,
                journal_records: f.map_or(0, |f| f.journal.len()),
                estimate_seconds: estimate,
            });
        }
    }
    let mut summary = Summary {
        results: dir.clone(),
        shards: count,
        seed,
        configurations: plan.total,
        complete,
        submitted,
        resources: None,
        scripts: None,
        array_job: None,
        report_job: None,
        dry_run: s.dry_run,
    };
    if summary.submitted.is_empty() {
        finish(&summary, a)?;
        return Ok(Outcome::Success);
    }
    let peak = all_records()
        .filter_map(|r| r.peak_rss_mb)
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
    let costliest = summary
        .submitted
        .iter()
        .map(|x| x.estimate_seconds)
        .fold(0.0, f64::max);
    let resources = Resources {
        cpus: s.cpus.unwrap_or(1),
        mem_mb: s
            .mem
            .unwrap_or_else(|| peak.map_or(DEFAULT_MEM_MB, mem_from_peak)),
        time_minutes: s.time.unwrap_or_else(|| time_from_estimate(costliest)),
        basis: format!(
            "{}; {}",
            match (s.mem, peak) {
                (Some(_), _) => "memory from --mem".to_string(),
                (None, Some(p)) => format!("memory: 1.25 × the records' peak ({p:.0} MB) + 256 MB"),
                (None, None) => format!("memory: {DEFAULT_MEM_MB} MB (no record carries its peak)"),
            },
            match s.time {
                Some(_) => "time from --time".to_string(),
                None => format!(
                    "time: 2 × the costliest shard's estimate ({:.0} s, from {} records) + 10 min",
                    costliest,
                    all_records().count()
                ),
            }
        ),
    };
    let job = Job {
        name: job_name(&dir),
        results: dir.clone(),
        shards: count,
        width: shard_width(count),
        sweep_flags: sweep_flags(a, plan, seed),
        resources: resources.clone(),
        partition: s.partition.clone(),
        scratch: s.scratch.clone(),
        cache_dir: s.cache_dir.clone(),
        inject_fault: a.inject_fault,
    };
    let tasks: Vec<usize> = summary.submitted.iter().map(|x| x.shard).collect();
    let array = match s.max_running {
        Some(k) => format!("{}%{k}", ranges(&tasks)),
        None => ranges(&tasks),
    };
    summary.resources = Some(resources);
    if s.dry_run {
        let scripts = dir.join("slurm").join("submit-<time>");
        println_unless_json(
            a,
            &format!(
                "--dry-run: would write {0}/task.sh and {0}/report.sh, then run\n  sbatch --parsable --array={array} {1}task.sh\n  sbatch --parsable --dependency=afterany:<array job> {1}report.sh\n\n{0}/task.sh:\n{2}\n{0}/report.sh:\n{3}",
                scripts.display(),
                s.sbatch_arg.iter().map(|x| format!("{x} ")).collect::<String>(),
                job.task_script(&scripts),
                job.report_script(&scripts)
            ),
        );
        summary.scripts = Some(scripts);
        finish(&summary, a)?;
        return Ok(Outcome::Success);
    }
    check_not_queued(&job.name)?;
    let scripts = new_submit_dir(&dir)?;
    write_scripts(&job, &scripts)?;
    let array_job = sbatch(
        &[format!("--array={array}")],
        &s.sbatch_arg,
        &scripts.join("task.sh"),
    )?;
    summary.array_job = Some(array_job.clone());
    summary.scripts = Some(scripts.clone());
    let report_job = sbatch(
        &[format!("--dependency=afterany:{array_job}")],
        &s.sbatch_arg,
        &scripts.join("report.sh"),
    )
    .with_context(|| {
        format!("the array job {array_job} was submitted, but its report job was not (scancel {array_job} or run {}/report.sh after it)", scripts.display())
    })?;
    summary.report_job = Some(report_job);
    finish(&summary, a)?;
    Ok(Outcome::Success)
}

fn println_unless_json(a: &Args, text: &str) {
    if !a.json {
        println!("{text}");
    }
}

/// Prints the summary (JSON or text).
fn finish(s: &Summary, a: &Args) -> anyhow::Result<()> {
    if a.json {
        return print_json(s);
    }
    let runs: usize = s.submitted.iter().map(|x| x.missing + x.stale).sum();
    println!(
        "sweep in {}: {} shards of {} complete; {} to run ({} configurations missing or stale)",
        s.results.display(),
        s.complete.len(),
        s.shards,
        s.submitted.len(),
        runs
    );
    if let Some(r) = &s.resources {
        println!(
            "each task: {} CPU{}, {} MB, {} min ({})",
            r.cpus,
            if r.cpus == 1 { "" } else { "s" },
            r.mem_mb,
            r.time_minutes,
            r.basis
        );
    }
    match (&s.array_job, &s.report_job, &s.scripts) {
        (Some(array), Some(report), Some(dir)) => {
            let shards: Vec<usize> = s.submitted.iter().map(|x| x.shard).collect();
            println!(
                "submitted: array job {array} (shards {}), report job {report} after it (afterany)",
                ranges(&shards)
            );
            println!(
                "records: {}/shard-NNN.jsonl; report: {}/report.md and report.json; scripts and logs: {}",
                s.results.display(),
                s.results.display(),
                dir.display()
            );
            println!("follow it: squeue -j {array},{report}");
        }
        _ if s.submitted.is_empty() => println!(
            "nothing to submit: every shard has a current record of each of its configurations (lcanet sweep … --report {} for the report)",
            s.results.display()
        ),
        _ => {}
    }
    Ok(())
}

/// Reads and checks every shard file and journal of the results directory, and refuses
/// any other records file there (the report job would count it). Returns the shards'
/// records and their seed.
fn read_results(
    dir: &Path,
    count: usize,
    a: &Args,
    plan: &Plan,
) -> anyhow::Result<(BTreeMap<usize, ShardFiles>, Option<u64>)> {
    let mut reader = Reader::new(a, plan);
    let mut out: BTreeMap<usize, ShardFiles> = BTreeMap::new();
    if !dir.exists() {
        return Ok((out, reader.seed()));
    }
    let width = shard_width(count);
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| format!("--results {}: reading it", dir.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let (shard, journal) = match shard_of(&name, width) {
            Some(x) => x,
            None if name.ends_with(".jsonl") => bail!(
                "--results {}: {name} is not a shard file of --shards {count} (shard-{}.jsonl); the report job reads every *.jsonl file there: move it away, or give the --shards it was made with",
                dir.display(),
                "N".repeat(width)
            ),
            None => continue,
        };
        let path = dir.join(&name);
        if shard >= count {
            bail!(
                "{}: there is no shard {shard} of --shards {count}: the results come from a sweep with more shards",
                path.display()
            );
        }
        let records = reader.file(&path, journal)?;
        let f = out.entry(shard).or_default();
        for r in records {
            if r.config.index % count != shard {
                bail!(
                    "{}: configuration #{} belongs to shard {} of --shards {count}, not {shard}: the results come from a sweep with other --shards",
                    path.display(),
                    r.config.index,
                    r.config.index % count
                );
            }
            if journal {
                f.journal.push(r.seen);
            } else {
                f.records.push(r.seen);
            }
        }
    }
    Ok((out, reader.seed()))
}

/// The shard of a file name `shard-NNN.jsonl` (false) or `.shard-NNN.jsonl.partial` (a
/// journal, true), with NNN of `width` digits.
fn shard_of(name: &str, width: usize) -> Option<(usize, bool)> {
    let (stem, journal) = match name.strip_suffix(".jsonl.partial") {
        Some(s) => (s.strip_prefix(".shard-")?, true),
        None => (name.strip_suffix(".jsonl")?.strip_prefix("shard-")?, false),
    };
    (stem.len() == width && stem.bytes().all(|b| b.is_ascii_digit()))
        .then(|| stem.parse().ok().map(|n| (n, journal)))
        .flatten()
}

/// Digits of the shard numbers in file names: 3 (as `docs/sweep/n256` has them), more
/// for more than 1,000 shards.
fn shard_width(count: usize) -> usize {
    (count.saturating_sub(1)).to_string().len().max(3)
}

fn switches_of(plan: &Plan, index: usize) -> usize {
    plan.mine
        .iter()
        .find(|c| c.index == index)
        .map_or(1, |c| plan.topology(c).total_switches())
}

/// Memory to ask for a peak of `peak` MB: a quarter more and 256 MB, in steps of 256 MB.
fn mem_from_peak(peak: f64) -> u64 {
    let want = peak * 1.25 + 256.0;
    ((want / 256.0).ceil() as u64).max(1) * 256
}

/// Minutes to ask for a shard estimated at `seconds`: twice that and 10 minutes, in
/// whole minutes.
fn time_from_estimate(seconds: f64) -> u64 {
    ((2.0 * seconds + 600.0) / 60.0).ceil() as u64
}

/// The flags every task and the report job run with: the list, the permutation count and
/// the seed.
fn sweep_flags(a: &Args, plan: &Plan, seed: u64) -> Vec<String> {
    let mut f = a.list_flags(plan);
    f.extend([
        "--perms".to_string(),
        a.perms.to_string(),
        "--seed".to_string(),
        seed.to_string(),
    ]);
    f
}

/// A job name for the results directory (Slurm lists jobs by name): two submissions for
/// one directory find each other.
fn job_name(dir: &Path) -> String {
    format!(
        "lcanet-sweep-{:08x}",
        lcanet_sim::rng::derive(0, &dir.to_string_lossy()) as u32
    )
}

/// Whether `s` can stand in a script unquoted.
fn plain(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ',' | '/' | ':' | '=')
        })
}

/// `s` as one shell word.
fn quote(s: &str) -> String {
    if plain(s) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn quote_path(p: &Path) -> String {
    quote(&p.to_string_lossy())
}

/// What the scripts of one submission say.
struct Job {
    name: String,
    results: PathBuf,
    shards: usize,
    width: usize,
    sweep_flags: Vec<String>,
    resources: Resources,
    partition: Option<String>,
    scratch: Option<PathBuf>,
    cache_dir: Option<PathBuf>,
    /// Tasks run with `--inject-fault` (tests).
    inject_fault: bool,
}

impl Job {
    /// The `#SBATCH` lines both scripts share.
    fn common_directives(&self, name: &str, log: &str, scripts: &Path) -> String {
        let mut d = format!(
            "#SBATCH --job-name={name}\n#SBATCH --output={}\n",
            scripts.join("logs").join(log).display()
        );
        if let Some(p) = &self.partition {
            d.push_str(&format!("#SBATCH --partition={p}\n"));
        }
        d
    }

    /// `task.sh`: one shard, `$SLURM_ARRAY_TASK_ID` of `--shards`.
    fn task_script(&self, scripts: &Path) -> String {
        let r = &self.resources;
        let bin = quote_path(&scripts.join("lcanet"));
        let mut flags: Vec<String> = self.sweep_flags.iter().map(|f| quote(f)).collect();
        if self.inject_fault {
            flags.push("--inject-fault".to_string());
        }
        let scratch = match &self.scratch {
            Some(s) => quote_path(s),
            None => "\"${TMPDIR:-/tmp}\"".to_string(),
        };
        let cache = match &self.cache_dir {
            Some(c) => quote_path(c),
            None => "\"$work/cache\"".to_string(),
        };
        format!(
            "#!/bin/sh
# One shard of the lcanet sweep in {results}: shard $SLURM_ARRAY_TASK_ID of {n}
# (written by `lcanet sweep --submit slurm`; submit more with sbatch --array=I,J,… task.sh).
# The task works in its own node-local directory, removed when it ends; its records go to
# {results}/shard-NNN.jsonl (its journal .shard-NNN.jsonl.partial until the shard is done;
# a task stopped early leaves the journal, and the next submission resumes from it).
{directives}#SBATCH --cpus-per-task={cpus}
#SBATCH --mem={mem}M
#SBATCH --time={time}
set -eu
i=${{SLURM_ARRAY_TASK_ID:?not run as a Slurm array task}}
work=$(mktemp -d {scratch}/lcanet-sweep.\"${{SLURM_ARRAY_JOB_ID:-0}}_$i\".XXXXXX)
trap 'rm -rf \"$work\"' EXIT
trap 'exit 143' INT TERM
export LCANET_ARTIFACTS_DIR=\"$work/work\"
export LCANET_CACHE_DIR={cache}
export LCANET_BUILD_JOBS=\"${{SLURM_CPUS_PER_TASK:-{cpus}}}\"
out=$(printf '%s/shard-%0{width}d.jsonl' {results_q} \"$i\")
{bin} sweep {flags} --shard \"$i/{n}\" --out \"$out\" --resume --discard-builds --json
",
            results = self.results.display(),
            results_q = quote_path(&self.results),
            n = self.shards,
            directives = self.common_directives(&self.name, "task-%A_%a.out", scripts),
            cpus = r.cpus,
            mem = r.mem_mb,
            time = r.time_minutes,
            width = self.width,
            flags = flags.join(" "),
        )
    }

    /// `report.sh`: the report over the results directory, after the array.
    fn report_script(&self, scripts: &Path) -> String {
        let bin = quote_path(&scripts.join("lcanet"));
        let flags: Vec<String> = self.sweep_flags.iter().map(|f| quote(f)).collect();
        let results = quote_path(&self.results);
        format!(
            "#!/bin/sh
# The report of the lcanet sweep in {}: report.json and report.md there (written by
# `lcanet sweep --submit slurm`, run after the array job). Exit status 2 on a mismatch.
{}#SBATCH --cpus-per-task=1
#SBATCH --mem={REPORT_MEM_MB}M
#SBATCH --time={REPORT_MINUTES}
set -eu
exec {bin} sweep {} --shards {} --report {results} --report-out {results}
",
            self.results.display(),
            self.common_directives(&format!("{}-report", self.name), "report-%j.out", scripts),
            flags.join(" "),
            self.shards,
        )
    }
}

/// Refuses to submit while jobs of this results directory are queued or running: two
/// tasks of one shard would write one journal.
fn check_not_queued(name: &str) -> anyhow::Result<()> {
    let out = Command::new("squeue")
        .args(["-h", "-o", "%A", "-n", name])
        .output()
        .context("running squeue (is this a Slurm login node? Slurm's commands must be on PATH, with SLURM_CONF if needed)")?;
    if !out.status.success() {
        bail!(
            "squeue failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let mut jobs: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect();
    jobs.sort();
    jobs.dedup();
    if !jobs.is_empty() {
        bail!(
            "jobs {} of this results directory (name {name}) are still queued or running: wait for them or scancel them first (two tasks of one shard would write one journal)",
            jobs.join(", ")
        );
    }
    Ok(())
}

/// A new `slurm/submit-<unix time>[-k]/` with its `logs/`.
fn new_submit_dir(results: &Path) -> anyhow::Result<PathBuf> {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let base = results.join("slurm");
    ensure_dir(&base)?;
    for k in 0..1000 {
        let d = base.join(if k == 0 {
            format!("submit-{t}")
        } else {
            format!("submit-{t}-{k}")
        });
        match std::fs::create_dir(&d) {
            Ok(()) => {
                ensure_dir(&d.join("logs"))?;
                return Ok(d);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| format!("creating {}", d.display())),
        }
    }
    bail!("{}: no free submit-{t}-k directory", base.display())
}

/// Writes `task.sh`, `report.sh` and a copy of this binary into `scripts`.
fn write_scripts(job: &Job, scripts: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let exe = std::env::current_exe().context("locating this lcanet binary")?;
    let bin = scripts.join("lcanet");
    std::fs::copy(&exe, &bin)
        .with_context(|| format!("copying {} to {}", exe.display(), bin.display()))?;
    for (name, text) in [
        ("task.sh", job.task_script(scripts)),
        ("report.sh", job.report_script(scripts)),
    ] {
        let p = scripts.join(name);
        std::fs::write(&p, text).with_context(|| format!("writing {}", p.display()))?;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))
            .with_context(|| format!("making {} executable", p.display()))?;
    }
    Ok(())
}

/// Runs `sbatch --parsable ARGS EXTRA SCRIPT` and returns the job id.
fn sbatch(args: &[String], extra: &[String], script: &Path) -> anyhow::Result<String> {
    let out = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .args(extra)
        .arg(script)
        .output()
        .context("running sbatch (is this a Slurm login node? Slurm's commands must be on PATH, with SLURM_CONF if needed)")?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        bail!(
            "sbatch {} failed ({}): {}",
            script.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    // `--parsable`: "id" or "id;cluster".
    let id = stdout.trim().split(';').next().unwrap_or_default();
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        bail!("sbatch {} printed no job id: {stdout:?}", script.display());
    }
    Ok(id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_files_are_named_with_their_width_and_others_are_not_shards() {
        assert_eq!(shard_width(100), 3);
        assert_eq!(shard_width(1000), 3);
        assert_eq!(shard_width(1001), 4);
        assert_eq!(shard_of("shard-007.jsonl", 3), Some((7, false)));
        assert_eq!(shard_of(".shard-042.jsonl.partial", 3), Some((42, true)));
        assert_eq!(shard_of("shard-7.jsonl", 3), None);
        assert_eq!(shard_of("partial-042.jsonl", 3), None);
        assert_eq!(shard_of("shard-0a7.jsonl", 3), None);
        assert_eq!(shard_of("report.json", 3), None);
    }

    #[test]
    fn arrays_are_ranges_and_resources_round_up() {
        assert_eq!(mem_from_peak(100.0), 512);
        assert_eq!(mem_from_peak(1000.0), 1536);
        assert_eq!(time_from_estimate(0.0), 10);
        assert_eq!(time_from_estimate(3000.0), 110);
        assert_eq!(quote("/a/b"), "/a/b");
        assert_eq!(quote("it's here"), r"'it'\''s here'");
    }

    #[test]
    fn the_task_script_runs_its_shard_in_node_local_scratch_with_its_cpus() {
        let res = Resources {
            cpus: 2,
            mem_mb: 1024,
            time_minutes: 30,
            basis: String::new(),
        };
        let job = Job {
            name: "lcanet-sweep-0000abcd".into(),
            results: "/shared/res ults".into(),
            shards: 4,
            width: 3,
            sweep_flags: vec!["--max-n".into(), "8".into(), "--perms".into(), "2".into()],
            resources: res,
            partition: Some("short".into()),
            scratch: None,
            cache_dir: None,
            inject_fault: false,
        };
        let t = job.task_script(Path::new("/shared/res ults/slurm/submit-1"));
        for want in [
            "#SBATCH --cpus-per-task=2\n",
            "#SBATCH --mem=1024M\n",
            "#SBATCH --time=30\n",
            "#SBATCH --partition=short\n",
            "#SBATCH --output=/shared/res ults/slurm/submit-1/logs/task-%A_%a.out\n",
            "mktemp -d \"${TMPDIR:-/tmp}\"/lcanet-sweep.",
            "export LCANET_CACHE_DIR=\"$work/cache\"\n",
            "export LCANET_BUILD_JOBS=\"${SLURM_CPUS_PER_TASK:-2}\"\n",
            "printf '%s/shard-%03d.jsonl' '/shared/res ults' \"$i\"",
            "'/shared/res ults/slurm/submit-1/lcanet' sweep --max-n 8 --perms 2 --shard \"$i/4\" --out \"$out\" --resume --discard-builds --json\n",
        ] {
            assert!(t.contains(want), "{want:?} not in:\n{t}");
        }
        let r = job.report_script(Path::new("/shared/res ults/slurm/submit-1"));
        assert!(
            r.contains("--shards 4 --report '/shared/res ults' --report-out '/shared/res ults'\n"),
            "{r}"
        );
        assert!(
            r.contains("#SBATCH --job-name=lcanet-sweep-0000abcd-report\n"),
            "{r}"
        );
    }
}
