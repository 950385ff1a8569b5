//! `lcanet sweep --report FILE|DIR…`: the records of earlier sweep runs (any shards, any
//! machines, any number of files), checked as [`super::records`] checks them, summed up:
//! which configurations are covered, matched, mismatched, stale and missing — in all, by
//! topology, algorithm and policy, and by shard with `--shards` — what the records cost
//! (CPU-hours, the build's share, the slowest configurations), the networks out of scope,
//! and for each mismatch the command that reproduces it alone. `--report-out DIR` writes it
//! as `report.json` and `report.md` ([`super::render`]).

use super::cost::Spent;
use super::records::{digests, record_files, Checked, Named, Reader, Seen};
use super::render::{markdown, print_text};
use super::{Args, Config, Plan};
use crate::cli::common::{print_json, write_atomic};
use crate::cli::Outcome;
use anyhow::Context;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A mismatched configuration: its first failing permutation and how to run it alone.
#[derive(Debug, Serialize)]
pub(super) struct Mismatch {
    #[serde(flatten)]
    pub(super) config: Named,
    /// The first failing permutation (0-based) and its seed, as the record says.
    pub(super) perm: Option<usize>,
    pub(super) perm_seed: Option<u64>,
    pub(super) what: Option<String>,
    /// The fault `--inject-fault` put in (test runs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) fault: Option<String>,
    /// A command that runs this configuration alone, up to that permutation.
    pub(super) reproduce: String,
}

/// The JSON report.
#[derive(Debug, Serialize)]
pub(super) struct Report {
    pub(super) files: Vec<PathBuf>,
    pub(super) records: usize,
    pub(super) duplicates: usize,
    pub(super) seed: Option<u64>,
    pub(super) perms: usize,
    /// The flags that define the list (`--max-n`, …), as a command line gives them.
    pub(super) list_flags: Vec<String>,
    pub(super) configurations: usize,
    pub(super) covered: usize,
    pub(super) complete: bool,
    pub(super) matched: usize,
    pub(super) mismatched: Vec<Mismatch>,
    pub(super) stale: Vec<Named>,
    pub(super) missing: Vec<Named>,
    pub(super) permutations: u64,
    /// Wall-clock seconds of every record (machines shared with other work included).
    pub(super) build_seconds: f64,
    pub(super) run_seconds: f64,
    /// CPU seconds of the records that carry them.
    pub(super) cpu: Cpu,
    /// What the records cost: CPU seconds where they carry them, else wall clock.
    pub(super) cost: Cost,
    /// By topology, algorithm and policy, in the list's order.
    pub(super) groups: Vec<Group>,
    /// The costliest configurations (their most expensive record).
    pub(super) slowest: Vec<Slow>,
    /// The networks above `--max-switches`, which the list leaves out.
    pub(super) out_of_scope: OutOfScope,
    /// With `--shards N`: each shard's state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) shards: Option<Shards>,
}

/// The CPU time of the records that carry it.
#[derive(Debug, Default, Serialize)]
pub(super) struct Cpu {
    pub(super) records: usize,
    pub(super) build_seconds: f64,
    pub(super) run_seconds: f64,
}

/// The cost of every record read.
#[derive(Debug, Default, Serialize)]
pub(super) struct Cost {
    /// CPU-hours (wall-clock hours for the records without CPU seconds).
    pub(super) hours: f64,
    /// Records counted in CPU seconds and in wall-clock seconds.
    pub(super) cpu_records: usize,
    pub(super) wall_records: usize,
    /// Building's share of the hours.
    pub(super) build_share: f64,
}

/// The configurations of one (topology, algorithm, policy).
#[derive(Debug, Serialize)]
pub(super) struct Group {
    pub(super) topology: &'static str,
    pub(super) algorithm: &'static str,
    pub(super) arbiter: String,
    pub(super) configurations: usize,
    pub(super) matched: usize,
    pub(super) mismatched: usize,
    pub(super) stale: usize,
    pub(super) missing: usize,
    /// Cost of the group's records, hours ([`Cost`]).
    pub(super) hours: f64,
}

/// A costly configuration.
#[derive(Debug, Serialize)]
pub(super) struct Slow {
    #[serde(flatten)]
    pub(super) config: Named,
    pub(super) switches: usize,
    pub(super) build_seconds: f64,
    pub(super) run_seconds: f64,
    /// CPU seconds (true) or wall clock (false).
    pub(super) cpu: bool,
}

/// The networks the list leaves out for their size.
#[derive(Debug, Serialize)]
pub(super) struct OutOfScope {
    pub(super) max_switches: usize,
    pub(super) networks: Vec<super::SkippedNet>,
    pub(super) configurations: usize,
    pub(super) why: &'static str,
}

/// The shards of `--shards N`.
#[derive(Debug, Serialize)]
pub(super) struct Shards {
    pub(super) count: usize,
    pub(super) complete: usize,
    /// Shards with a missing or stale configuration.
    pub(super) incomplete: Vec<ShardState>,
}

/// A shard that is not complete.
#[derive(Debug, Serialize)]
pub(super) struct ShardState {
    pub(super) shard: usize,
    pub(super) configurations: usize,
    pub(super) missing: usize,
    pub(super) stale: usize,
}

/// How many of the slowest configurations a report lists.
const SLOWEST: usize = 10;

/// Where each configuration of the plan stands in a set of records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Matched,
    Mismatched,
    Stale,
    Missing,
}

/// Runs the report.
pub fn run(a: &Args, plan: &Plan) -> anyhow::Result<Outcome> {
    let files = record_files(&a.report)?;
    let mut reader = Reader::new(a, plan);
    // Every record read, per configuration.
    let mut seen: BTreeMap<usize, Vec<Seen>> = BTreeMap::new();
    let (mut records, mut permutations) = (0usize, 0u64);
    let (mut build_seconds, mut run_seconds) = (0.0, 0.0);
    let mut cpu = Cpu::default();
    let mut cost = Cost::default();
    let mut build_hours = 0.0;
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
            let spent = r.spent();
            if spent.cpu {
                cost.cpu_records += 1;
            } else {
                cost.wall_records += 1;
            }
            cost.hours += spent.total() / 3600.0;
            build_hours += spent.build / 3600.0;
            seen.entry(r.index).or_default().push(r);
        }
    }
    cost.build_share = if cost.hours > 0.0 {
        build_hours / cost.hours
    } else {
        0.0
    };
    let seed = reader.seed();
    let indices: Vec<usize> = seen.keys().copied().collect();
    let today = digests(plan, a, &indices)?;
    // Each configuration's state, and the current record it rests on (a mismatching one
    // first).
    let mut state: BTreeMap<usize, (State, Option<&Seen>)> = BTreeMap::new();
    for c in &plan.mine {
        let recs = seen.get(&c.index).map(Vec::as_slice).unwrap_or_default();
        let current: Vec<&Seen> = recs
            .iter()
            .filter(|r| r.rtl.as_deref() == today.get(&c.index).map(String::as_str))
            .collect();
        let s = if recs.is_empty() {
            (State::Missing, None)
        } else if current.is_empty() {
            (State::Stale, None)
        } else if let Some(bad) = current.iter().find(|r| !r.r#match) {
            (State::Mismatched, Some(*bad))
        } else {
            (State::Matched, current.last().copied())
        };
        state.insert(c.index, s);
    }
    let list_flags = a.list_flags(plan);
    let named = |want: State| -> Vec<Named> {
        plan.mine
            .iter()
            .filter(|c| state[&c.index].0 == want)
            .map(Named::of)
            .collect()
    };
    let mismatched: Vec<Mismatch> = plan
        .mine
        .iter()
        .filter_map(|c| match state[&c.index] {
            (State::Mismatched, Some(r)) => Some(mismatch(c, r, plan, &list_flags)),
            _ => None,
        })
        .collect();
    let covered = plan
        .mine
        .iter()
        .filter(|c| matches!(state[&c.index].0, State::Matched | State::Mismatched))
        .count();
    let report = Report {
        files: files.clone(),
        records,
        duplicates: records - seen.len(),
        seed,
        perms: a.perms,
        configurations: plan.mine.len(),
        covered,
        complete: covered == plan.mine.len(),
        matched: named(State::Matched).len(),
        mismatched,
        stale: named(State::Stale),
        missing: named(State::Missing),
        permutations,
        build_seconds,
        run_seconds,
        cpu,
        cost,
        groups: groups(plan, &state, &seen),
        slowest: slowest(plan, &seen),
        shards: a.shards.map(|n| shards(plan, &state, n)),
        out_of_scope: OutOfScope {
            max_switches: a.max_switches,
            networks: plan.skipped.clone(),
            configurations: plan.skipped.len() * plan.configs_per_network(),
            why: super::OUT_OF_SCOPE,
        },
        list_flags,
    };
    if let Some(dir) = &a.report_out {
        let json = serde_json::to_string_pretty(&report).context("serializing the report")?;
        write_atomic(&dir.join("report.json"), format!("{json}\n").as_bytes())?;
        write_atomic(&dir.join("report.md"), markdown(&report).as_bytes())?;
    }
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

/// The mismatch of configuration `c` that record `r` reports.
fn mismatch(c: &Config, r: &Seen, plan: &Plan, list_flags: &[String]) -> Mismatch {
    let f = r.failure.as_ref();
    Mismatch {
        config: Named::of(c),
        perm: f.map(|f| f.perm),
        perm_seed: f.map(|f| f.seed),
        what: f.map(|f| f.what.clone()),
        fault: r.fault.clone(),
        reproduce: reproduce(c, r, plan, list_flags),
    }
}

/// The command that runs configuration `c` alone (the shard of one configuration), with
/// the permutations up to the record's first failing one: permutation `j` comes from the
/// seed and `j` only, so the same failure recurs, and the VCD of the failing run is kept.
fn reproduce(c: &Config, r: &Seen, plan: &Plan, list_flags: &[String]) -> String {
    let perms = r.failure.as_ref().map_or(r.perms, |f| f.perm + 1);
    let mut cmd = vec!["lcanet".to_string(), "sweep".to_string()];
    cmd.extend(list_flags.iter().cloned());
    cmd.extend([
        "--perms".to_string(),
        perms.to_string(),
        "--seed".to_string(),
        r.seed.to_string(),
        "--shard".to_string(),
        format!("{}/{}", c.index, plan.total),
        "--out".to_string(),
        format!("repro-{}.jsonl", c.index),
    ]);
    if r.fault.is_some() {
        cmd.push("--inject-fault".to_string());
    }
    cmd.join(" ")
}

/// The configurations by (topology, algorithm, policy), in the list's order.
fn groups(
    plan: &Plan,
    state: &BTreeMap<usize, (State, Option<&Seen>)>,
    seen: &BTreeMap<usize, Vec<Seen>>,
) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    for c in &plan.mine {
        let (topology, algorithm, arbiter) =
            (c.shape.kind_name(), c.algorithm.name(), c.policy_name());
        let at = match out.iter().position(|g| {
            (g.topology, g.algorithm, g.arbiter.as_str()) == (topology, algorithm, &arbiter)
        }) {
            Some(k) => k,
            None => {
                out.push(Group {
                    topology,
                    algorithm,
                    arbiter,
                    configurations: 0,
                    matched: 0,
                    mismatched: 0,
                    stale: 0,
                    missing: 0,
                    hours: 0.0,
                });
                out.len() - 1
            }
        };
        let g = &mut out[at];
        g.configurations += 1;
        match state[&c.index].0 {
            State::Matched => g.matched += 1,
            State::Mismatched => g.mismatched += 1,
            State::Stale => g.stale += 1,
            State::Missing => g.missing += 1,
        }
        g.hours += seen
            .get(&c.index)
            .map_or(0.0, |rs| rs.iter().map(|r| r.spent().total()).sum::<f64>())
            / 3600.0;
    }
    out
}

/// The [`SLOWEST`] costliest configurations, by their costliest record.
fn slowest(plan: &Plan, seen: &BTreeMap<usize, Vec<Seen>>) -> Vec<Slow> {
    let mut all: Vec<(Spent, &Config)> = plan
        .mine
        .iter()
        .filter_map(|c| {
            let rs = seen.get(&c.index)?;
            let worst = rs
                .iter()
                .map(Seen::spent)
                .max_by(|x, y| x.total().total_cmp(&y.total()))?;
            Some((worst, c))
        })
        .collect();
    all.sort_by(|x, y| y.0.total().total_cmp(&x.0.total()));
    all.into_iter()
        .take(SLOWEST)
        .map(|(s, c)| Slow {
            config: Named::of(c),
            switches: plan.topology(c).total_switches(),
            build_seconds: s.build,
            run_seconds: s.run,
            cpu: s.cpu,
        })
        .collect()
}

/// The shards of `--shards count` that are not complete.
fn shards(plan: &Plan, state: &BTreeMap<usize, (State, Option<&Seen>)>, count: usize) -> Shards {
    let mut each: Vec<ShardState> = (0..count)
        .map(|shard| ShardState {
            shard,
            configurations: 0,
            missing: 0,
            stale: 0,
        })
        .collect();
    for c in &plan.mine {
        let s = &mut each[c.index % count];
        s.configurations += 1;
        match state[&c.index].0 {
            State::Missing => s.missing += 1,
            State::Stale => s.stale += 1,
            _ => {}
        }
    }
    let incomplete: Vec<ShardState> = each
        .into_iter()
        .filter(|s| s.missing + s.stale > 0)
        .collect();
    Shards {
        count,
        complete: count - incomplete.len(),
        incomplete,
    }
}
