//! `lcanet sweep --report FILE|DIR…`: the records of earlier sweep runs (any shards, any
//! machines, any number of files) checked against the configurations the flags select.
//!
//! Every record must be a configuration of today's list (same index, network, algorithm,
//! arbiter, width, message bits), run with `--perms` permutations and one seed (`--seed`
//! if given); anything else is refused naming the file and line. A record counts only if
//! its Verilog digest equals the one today's generator writes for that configuration
//! (otherwise it is *stale*: it tested other RTL). The report says which configurations
//! are covered, which matched, which are missing, and the wall-clock and CPU time spent.

use super::{Args, Config, Plan};
use crate::cli::common::{print_json, progress_bar};
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::lca_net::network_design;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The fields of a record line the report reads.
#[derive(Debug, Deserialize)]
pub(super) struct Seen {
    pub index: usize,
    topology: String,
    d: usize,
    u: usize,
    levels: usize,
    algorithm: String,
    arbiter: String,
    width: usize,
    message_bits: usize,
    seed: u64,
    perms: usize,
    matched: usize,
    pub r#match: bool,
    /// Absent in records written before digests existed: such a record is stale.
    #[serde(default)]
    pub rtl: Option<String>,
    build_seconds: f64,
    run_seconds: f64,
    /// Absent in records written before CPU times were recorded (2026-11-27).
    #[serde(default)]
    build_cpu_seconds: Option<f64>,
    #[serde(default)]
    run_cpu_seconds: Option<f64>,
}

/// Where a record came from, for messages.
#[derive(Debug, Clone)]
struct At {
    file: PathBuf,
    line: usize,
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file.display(), self.line)
    }
}

/// One configuration named in a report.
#[derive(Debug, Serialize)]
struct Named {
    index: usize,
    network: String,
    algorithm: &'static str,
    arbiter: String,
}

impl Named {
    fn of(c: &Config) -> Self {
        Named {
            index: c.index,
            network: c.shape.label(),
            algorithm: c.algorithm.name(),
            arbiter: c.policy_name(),
        }
    }
}

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "#{} {} {} {}",
            self.index, self.network, self.algorithm, self.arbiter
        )
    }
}

/// The JSON report.
#[derive(Debug, Serialize)]
struct Report {
    files: Vec<PathBuf>,
    records: usize,
    duplicates: usize,
    seed: Option<u64>,
    perms: usize,
    configurations: usize,
    covered: usize,
    complete: bool,
    matched: usize,
    mismatched: Vec<Named>,
    stale: Vec<Named>,
    missing: Vec<Named>,
    permutations: u64,
    /// Wall-clock seconds of every record (machines shared with other work included).
    build_seconds: f64,
    run_seconds: f64,
    /// CPU seconds of the records that carry them.
    cpu: Cpu,
}

/// The CPU time of the records that carry it.
#[derive(Debug, Default, Serialize)]
struct Cpu {
    records: usize,
    build_seconds: f64,
    run_seconds: f64,
}

/// The record files named on the command line: files as given, directories as their
/// `*.jsonl` files in name order.
fn record_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                .with_context(|| format!("--report {}: reading the directory", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && f.extension().is_some_and(|x| x == "jsonl"))
                .collect();
            if found.is_empty() {
                bail!(
                    "--report {}: the directory has no *.jsonl files",
                    p.display()
                );
            }
            found.sort();
            files.extend(found);
        } else if p.is_file() {
            files.push(p.clone());
        } else {
            bail!("--report {}: no such file or directory", p.display());
        }
    }
    Ok(files)
}

/// Checks that `r` (read at `at`) is configuration `c` as the flags describe it.
fn check_identity(r: &Seen, c: &Config, a: &Args, at: &At) -> anyhow::Result<()> {
    let want = (
        c.shape.kind_name(),
        c.shape.d,
        c.shape.u,
        c.shape.levels,
        c.algorithm.name(),
        c.policy_name(),
        a.width,
        a.message_bits,
    );
    let got = (
        r.topology.as_str(),
        r.d,
        r.u,
        r.levels,
        r.algorithm.as_str(),
        r.arbiter.clone(),
        r.width,
        r.message_bits,
    );
    if want != got {
        bail!(
            "{at}: record #{} is {} (d, u, l) = ({}, {}, {}) {} {} W = {} M = {}, but \
             configuration #{} of this list is {}: the records come from a sweep with other \
             flags (--max-n, --max-switches, --algorithms, --arbiters, --width, --message-bits)",
            r.index,
            r.topology,
            r.d,
            r.u,
            r.levels,
            r.algorithm,
            r.arbiter,
            r.width,
            r.message_bits,
            c.index,
            Named::of(c),
        );
    }
    Ok(())
}

/// Today's Verilog digest of configuration `c`.
pub(super) fn digest(c: &Config, plan: &Plan, a: &Args) -> anyhow::Result<String> {
    Ok(network_design(&plan.spec(c, a)?)?.emit()?.digest())
}

/// Reads record lines and checks each against the plan's configurations (the checks of
/// the module header); remembers the one seed they may use.
pub(super) struct Reader<'p> {
    a: &'p Args,
    plan: &'p Plan,
    expected: BTreeMap<usize, &'p Config>,
    /// The seed and where it was first seen, for the message if another one turns up.
    seed: Option<(u64, String)>,
}

/// A record line that passed the checks.
pub(super) struct Checked<'p> {
    pub seen: Seen,
    /// The configuration it is a record of.
    pub config: &'p Config,
    /// The line as read (without its newline).
    pub line: String,
}

impl<'p> Reader<'p> {
    pub(super) fn new(a: &'p Args, plan: &'p Plan) -> Self {
        Reader {
            a,
            plan,
            expected: plan.mine.iter().map(|c| (c.index, c)).collect(),
            seed: a.seed.seed.map(|s| (s, format!("--seed says {s}"))),
        }
    }

    /// The seed of the records read so far (or `--seed`).
    pub(super) fn seed(&self) -> Option<u64> {
        self.seed.as_ref().map(|(s, _)| *s)
    }

    /// Reads `file`: every non-blank line must be a record of this plan. With
    /// `torn_tail`, a last line without its newline that does not parse (a sweep killed
    /// while writing it) is left out instead of refused.
    pub(super) fn file(
        &mut self,
        file: &Path,
        torn_tail: bool,
    ) -> anyhow::Result<Vec<Checked<'p>>> {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("{}: reading it", file.display()))?;
        let torn = !text.is_empty() && !text.ends_with('\n');
        let lines: Vec<&str> = text.lines().collect();
        let mut out = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let at = At {
                file: file.to_path_buf(),
                line: i + 1,
            };
            if line.trim().is_empty() {
                continue;
            }
            if torn_tail
                && torn
                && i + 1 == lines.len()
                && serde_json::from_str::<Seen>(line).is_err()
            {
                break;
            }
            let (seen, config) = self.line(line, &at)?;
            out.push(Checked {
                seen,
                config,
                line: line.to_string(),
            });
        }
        Ok(out)
    }

    fn line(&mut self, line: &str, at: &At) -> anyhow::Result<(Seen, &'p Config)> {
        let (a, plan) = (self.a, self.plan);
        let r: Seen =
            serde_json::from_str(line).with_context(|| format!("{at}: not a sweep record"))?;
        let Some(&c) = self.expected.get(&r.index) else {
            if r.index < plan.total {
                bail!(
                    "{at}: configuration #{} is not in shard {} (the records and --shard \
                     disagree)",
                    r.index,
                    a.shard
                        .map_or(String::new(), |s| format!("{}/{}", s.index, s.count))
                );
            }
            bail!(
                "{at}: configuration #{} does not exist: this list has {} (other \
                 --max-n, --max-switches, --algorithms or --arbiters?)",
                r.index,
                plan.total
            );
        };
        check_identity(&r, c, a, at)?;
        if r.perms != a.perms {
            bail!(
                "{at}: record #{} co-simulated {} permutations, --perms says {}",
                r.index,
                r.perms,
                a.perms
            );
        }
        if r.matched > r.perms || r.r#match != (r.matched == r.perms) {
            bail!(
                "{at}: record #{} is inconsistent: matched {} of {} but match = {}",
                r.index,
                r.matched,
                r.perms,
                r.r#match
            );
        }
        match &self.seed {
            Some((s, first)) if *s != r.seed => bail!(
                "{at}: record #{} used seed {}, but {first}: the records of one sweep share one seed",
                r.index,
                r.seed
            ),
            Some(_) => {}
            None => self.seed = Some((r.seed, format!("{at} used seed {}", r.seed))),
        }
        Ok((r, c))
    }
}

/// Runs the report.
pub fn run(a: &Args, plan: &Plan) -> anyhow::Result<Outcome> {
    let files = record_files(&a.report)?;
    let mut reader = Reader::new(a, plan);
    // Per configuration: (matched, rtl digest) of each record.
    let mut seen: BTreeMap<usize, Vec<(bool, Option<String>)>> = BTreeMap::new();
    let (mut records, mut permutations) = (0usize, 0u64);
    let (mut build_seconds, mut run_seconds) = (0.0, 0.0);
    let mut cpu = Cpu::default();
    for file in &files {
        for Checked { seen: r, .. } in reader.file(file, false)? {
            records += 1;
            permutations += r.perms as u64;
            build_seconds += r.build_seconds;
            run_seconds += r.run_seconds;
            if let (Some(b), Some(s)) = (r.build_cpu_seconds, r.run_cpu_seconds) {
                cpu.records += 1;
                cpu.build_seconds += b;
                cpu.run_seconds += s;
            }
            seen.entry(r.index).or_default().push((r.r#match, r.rtl));
        }
    }
    let expected = &reader.expected;
    let seed = reader.seed();
    let bar = progress_bar(seen.len(), "digests of today's Verilog", a.json);
    let (mut covered, mut matched) = (0, 0);
    let (mut mismatched, mut stale) = (Vec::new(), Vec::new());
    for (index, recs) in &seen {
        let c = expected[index];
        let today = digest(c, plan, a)
            .with_context(|| format!("generating configuration {}", Named::of(c)))?;
        let current: Vec<bool> = recs
            .iter()
            .filter(|(_, rtl)| rtl.as_deref() == Some(today.as_str()))
            .map(|(m, _)| *m)
            .collect();
        if current.is_empty() {
            stale.push(Named::of(c));
        } else {
            covered += 1;
            if current.iter().all(|&m| m) {
                matched += 1;
            } else {
                mismatched.push(Named::of(c));
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let missing: Vec<Named> = plan
        .mine
        .iter()
        .filter(|c| !seen.contains_key(&c.index))
        .map(Named::of)
        .collect();
    let report = Report {
        files: files.clone(),
        records,
        duplicates: records - seen.len(),
        seed,
        perms: a.perms,
        configurations: plan.mine.len(),
        covered,
        complete: covered == plan.mine.len(),
        matched,
        mismatched,
        stale,
        missing,
        permutations,
        build_seconds,
        run_seconds,
        cpu,
    };
    if a.json {
        print_json(&report)?;
    } else {
        print_text(&report, a);
    }
    Ok(if report.mismatched.is_empty() {
        Outcome::Success
    } else {
        Outcome::Mismatch
    })
}

fn print_text(r: &Report, a: &Args) {
    let list = |v: &[Named]| {
        const SHOWN: usize = 10;
        let mut s: Vec<String> = v.iter().take(SHOWN).map(|n| n.to_string()).collect();
        if v.len() > SHOWN {
            s.push(format!(
                "… {} more (--json lists them all)",
                v.len() - SHOWN
            ));
        }
        s.join(", ")
    };
    println!(
        "sweep report: {} records in {} files{} (seed {}, {} permutations each, --max-n {})",
        r.records,
        r.files.len(),
        if r.duplicates > 0 {
            format!(", {} of them repeats", r.duplicates)
        } else {
            String::new()
        },
        r.seed.map_or("-".to_string(), |s| s.to_string()),
        r.perms,
        a.max_n
    );
    println!(
        "covered: {}/{} configurations{}; matched {}, mismatched {}",
        r.covered,
        r.configurations,
        if r.complete {
            " (complete)"
        } else {
            " (INCOMPLETE)"
        },
        r.matched,
        r.mismatched.len()
    );
    let time = |s: f64| {
        if s < 3600.0 {
            format!("{:.1} min", s / 60.0)
        } else {
            format!("{:.2} h", s / 3600.0)
        }
    };
    println!(
        "co-simulated {} permutations; wall-clock time {} building, {} simulating",
        r.permutations,
        time(r.build_seconds),
        time(r.run_seconds)
    );
    if r.cpu.records > 0 {
        println!(
            "CPU time of the {} records that carry it: {} building, {} simulating",
            r.cpu.records,
            time(r.cpu.build_seconds),
            time(r.cpu.run_seconds)
        );
    }
    if !r.mismatched.is_empty() {
        println!("MISMATCHED: {}", list(&r.mismatched));
    }
    if !r.stale.is_empty() {
        println!(
            "stale (their Verilog is not what today's generator writes; not counted): {}",
            list(&r.stale)
        );
    }
    if !r.missing.is_empty() {
        println!("missing: {}", list(&r.missing));
    }
}
