//! The records of `lcanet sweep` read back and checked against the configurations the
//! flags select: by `--report`, by `--resume` (a journal) and by `--submit` (a results
//! directory).
//!
//! Every record must be a configuration of today's list (same index, network, algorithm,
//! arbiter, width, message bits), run with `--perms` permutations and one seed (`--seed`
//! if given); anything else is refused naming the file and line. A record counts only if
//! its Verilog digest equals the one today's generator writes for that configuration
//! (otherwise it is *stale*: it tested other RTL); [`digests`] computes today's.

use super::cost::Spent;
use super::{Args, Config, Plan};
use crate::cli::common::{progress_bar, thread_pool};
use anyhow::{bail, Context};
use lcanet_hdl::lca_net::network_design;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The fields of a record line the report reads.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Seen {
    pub(super) index: usize,
    pub(super) topology: String,
    pub(super) d: usize,
    pub(super) u: usize,
    pub(super) levels: usize,
    pub(super) algorithm: String,
    pub(super) arbiter: String,
    pub(super) width: usize,
    pub(super) message_bits: usize,
    pub(super) seed: u64,
    pub(super) perms: usize,
    pub(super) matched: usize,
    pub r#match: bool,
    /// Absent in records written before digests existed: such a record is stale.
    #[serde(default)]
    pub(super) rtl: Option<String>,
    pub(super) build_seconds: f64,
    pub(super) run_seconds: f64,
    /// Absent in records written before CPU times were recorded (2026-11-27).
    #[serde(default)]
    pub(super) build_cpu_seconds: Option<f64>,
    #[serde(default)]
    pub(super) run_cpu_seconds: Option<f64>,
    /// Absent in records written before memory was recorded.
    #[serde(default)]
    pub(super) peak_rss_mb: Option<f64>,
    #[serde(default)]
    pub(super) failure: Option<SeenFailure>,
    /// Set by `--inject-fault` (test runs).
    #[serde(default)]
    pub(super) fault: Option<String>,
}

/// The first failing permutation of a record.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct SeenFailure {
    pub(super) perm: usize,
    pub(super) seed: u64,
    pub(super) what: String,
}

impl Seen {
    /// What the record spent: CPU seconds if it carries them, else wall clock.
    pub fn spent(&self) -> Spent {
        match (self.build_cpu_seconds, self.run_cpu_seconds) {
            (Some(build), Some(run)) => Spent {
                build,
                run,
                cpu: true,
            },
            _ => Spent {
                build: self.build_seconds,
                run: self.run_seconds,
                cpu: false,
            },
        }
    }
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
#[derive(Debug, Clone, Serialize)]
pub(super) struct Named {
    pub(super) index: usize,
    pub(super) network: String,
    pub(super) algorithm: &'static str,
    pub(super) arbiter: String,
}

impl Named {
    pub(super) fn of(c: &Config) -> Self {
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

/// The record files named on the command line: files as given, directories as their
/// `*.jsonl` files in name order.
pub(super) fn record_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
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

/// Today's Verilog digests of the configurations `indices` of the plan, generated on
/// every core (about 25 ms each at n ≤ 256, more for the largest networks).
pub(super) fn digests(
    plan: &Plan,
    a: &Args,
    indices: &[usize],
) -> anyhow::Result<BTreeMap<usize, String>> {
    let by_index: BTreeMap<usize, &Config> = plan.mine.iter().map(|c| (c.index, c)).collect();
    let bar = progress_bar(indices.len(), "digests of today's Verilog", a.json);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let out: Vec<anyhow::Result<String>> = thread_pool(threads)?.install(|| {
        indices
            .par_iter()
            .map(|i| {
                let c = by_index
                    .get(i)
                    .with_context(|| format!("configuration #{i} is not in this list"))?;
                let d = digest(c, plan, a)
                    .with_context(|| format!("generating configuration {}", Named::of(c)));
                bar.inc(1);
                d
            })
            .collect()
    });
    bar.finish_and_clear();
    indices.iter().zip(out).map(|(&i, d)| Ok((i, d?))).collect()
}
