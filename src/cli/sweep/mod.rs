//! `lcanet sweep`: every valid LCA network configuration up to a size — T-LCAN and
//! CB-LCAN (d, u, l), every hardware algorithm, every arbiter policy — generated, built by
//! Verilator with `-Wall` (warnings fatal: the build is the lint) and co-simulated
//! bit-time by bit-time against the golden model on seeded random permutations. One JSON
//! line per configuration; `--shard i/N` splits the list for a batch scheduler.

pub(crate) mod configs;
mod cost;
mod out;
mod records;
mod render;
mod report;
mod slurm;

use crate::cli::bench::routing::parse_algorithm;
use crate::cli::common::{
    cpu_seconds, parse_shard, print_json, progress_bar, rusage, SeedArg, Shard,
};
use crate::cli::Outcome;
use anyhow::{bail, Context};
use configs::{check_max_n, configs, hardware_algorithms, shapes, Config};
use lcanet_hdl::lca_net::NetSpec;
use lcanet_sim::lcan::cycle::network::Mutation;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::Kind;
use lcanet_sim::rng::derive;
use lcanet_testbench::bridge::{CacheOutcome, Optimize};
use lcanet_testbench::lca_net::{NetBench, NetBuild, PermKind, Stimulus};
use lcanet_testbench::ArtifactDir;
use out::RecordsFile;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

/// Largest `--max-n` (the default test and CI use far less; 1,024 builds in minutes each).
const MAX_SWEEP_PES: usize = 1024;
/// Most random permutations per configuration.
const MAX_PERMS: usize = 100_000;
/// Why the networks above `--max-switches` are not swept.
const OUT_OF_SCOPE: &str = "no FPGA prototype or co-simulation a user runs has that many switches";
/// `--max-switches`: the sweep's scope is every network of at most this many switches
/// (`docs/sweep/README.md`, "The 48 networks above 4,096 switches": no FPGA prototype or
/// co-simulation a user runs has more).
const DEFAULT_MAX_SWITCHES: usize = 4096;

/// Arguments of `lcanet sweep`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lcanet sweep --list                                   # how many configurations, no run
  lcanet sweep --max-n 16 --perms 10 --out sweep.jsonl  # the small networks, all of them
  lcanet sweep --shard 3/40 --seed 7 --out s3.jsonl     # shard 3 of 40 (a batch job)
  lcanet sweep --shard 3/40 --seed 7 --out s3.jsonl --resume   # … continued after a stop
  lcanet sweep --report results/ --shards 100 --report-out results/   # + report.json, report.md
  lcanet sweep --submit slurm --results /shared/sweep   # Slurm: one array task per shard,
                                                        # then a report job; again: the rest

Configurations (in a fixed order, numbered across shards): T-LCAN(d,u) with u | d, u < d
and CB-LCAN(d,u) (--topologies), 2 ≤ d ≤ 16, 1 ≤ u ≤ 16, every level count l ≤ 16 with
n ≤ --max-n that the generator accepts; networks with more than --max-switches switches
are out of scope and listed as such. Each is crossed with every algorithm the hardware
runs (--algorithms) and every arbiter policy (--arbiters; R3's hardware has no arbiter:
one configuration, arbiter \"none\"). Shard I/N takes configurations I, I+N, I+2N, …

Each configuration is built once (cached by content, or with --discard-builds deleted
after its run; the Verilator build runs -Wall with warnings fatal, so it is also the
lint) and co-simulated on --perms random permutations; permutation j of network X is
drawn from derive(seed, \"X perm j\"), the same for every algorithm and policy. --out gets
one JSON line per configuration, written to .FILE.partial as the sweep goes (follow it
with tail -f) and renamed to FILE when it ends;
a sweep stopped by an error removes it. Each record carries the digest of the Verilog it
tested (rtl). --resume continues a run that was stopped (killed, preempted, out of time)
from that partial file, or a finished run from FILE: records of today's Verilog are kept,
only the missing and stale configurations run, and the partial file is kept on any stop.

--report FILE|DIR… runs nothing: it reads records (a directory: its *.jsonl files, e.g. the
shards of several machines or days) and checks them against the configurations the other
flags select (--max-n, --perms, --shard, …): a record of another configuration, permutation
count or seed is refused naming its file and line; a record whose rtl digest is not what
today's generator writes is stale and does not count. It prints what is covered, matched,
mismatched, stale and missing (by topology, algorithm and policy in --report-out's
report.md; by shard with --shards), the CPU-hours spent and the build's share, the slowest
configurations, and for each mismatch a command that runs it alone (--json: every one
listed).

--submit slurm --results DIR submits the shards of --shards N (default 100) that DIR lacks
— no shard-NNN.jsonl, or one without a current record of each configuration — as one
Slurm job array (task I runs --shard I/N --resume --discard-builds in node-local scratch,
its records going to DIR/shard-NNN.jsonl), and a job that runs after it and writes
DIR/report.json and DIR/report.md. CPUs, memory and time per task come from the records'
measured costs unless given. Submitting again runs only what is still missing or stale:
a task cancelled, preempted or out of time resumes from its journal (docs/sweep/README.md).

Exit code 2 if any configuration mismatched.")]
pub struct Args {
    /// Largest number of PEs (2 ..= 1024).
    #[arg(long, default_value_t = 256)]
    max_n: usize,
    /// Random permutations co-simulated per configuration.
    #[arg(long, default_value_t = 100)]
    perms: usize,
    /// Networks with more switches are skipped (and counted): CB-LCAN(2,u) with large u
    /// grows by u/2 switches per level.
    #[arg(long, default_value_t = DEFAULT_MAX_SWITCHES)]
    max_switches: usize,
    /// Algorithms, comma-separated (default: every one the hardware runs).
    #[arg(long, value_delimiter = ',', value_parser = parse_algorithm)]
    algorithms: Vec<Algorithm>,
    /// Arbiter policies, comma-separated (default: all three).
    #[arg(long, value_delimiter = ',', value_enum)]
    arbiters: Vec<PolicyArg>,
    /// Network kinds, comma-separated: tree (T-LCAN), cb (CB-LCAN) (default: both).
    #[arg(long, value_delimiter = ',', value_enum)]
    topologies: Vec<KindArg>,
    /// Link width W of every network.
    #[arg(long, default_value_t = 1)]
    width: usize,
    /// Message bits M of every PE.
    #[arg(long, default_value_t = 8)]
    message_bits: usize,
    /// Run only shard I of N (0-based), e.g. 3/40.
    #[arg(long, value_parser = parse_shard, value_name = "I/N")]
    shard: Option<Shard>,
    /// Print the configurations (of the shard) and stop: nothing is built.
    #[arg(long)]
    list: bool,
    /// Check records instead of running: JSON-lines files of earlier sweeps (a directory
    /// means its *.jsonl files) against the configurations the other flags select.
    #[arg(long, num_args = 1.., value_name = "FILE|DIR", conflicts_with_all = ["list", "out", "resume", "inject_fault", "discard_builds"])]
    report: Vec<PathBuf>,
    /// With --report: also write the report as report.json and report.md (Markdown
    /// tables) into DIR, each file atomically.
    #[arg(long, value_name = "DIR", requires = "report")]
    report_out: Option<PathBuf>,
    /// The list split into N shards, as --submit runs it (files shard-NNN.jsonl): with
    /// --report, which shards are incomplete; with --submit, one array task per shard
    /// (default 100).
    #[arg(long, value_name = "N", conflicts_with = "shard")]
    shards: Option<usize>,
    #[command(flatten)]
    seed: SeedArg,
    /// Write one JSON line per configuration here.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Continue a run of the same flags: the records of --out's partial file (.FILE.partial,
    /// the journal of a run that was stopped) or, if there is none, of FILE (a finished
    /// run) whose Verilog is today's are kept and their configurations not run again, so
    /// only what is missing or stale runs; the partial file then stays when the sweep
    /// stops, whatever the reason.
    #[arg(long, requires = "out", conflicts_with = "list")]
    resume: bool,
    /// Build each configuration's model in its work directory and delete it after the
    /// run, instead of keeping it in the build cache: a sweep builds each model once, and
    /// thousands of them (a few MB each) would fill the cache's disk. The Verilator
    /// runtime is still cached; every record then says "built".
    #[arg(long, conflicts_with = "list")]
    discard_builds: bool,
    /// Print a JSON summary on stdout.
    #[arg(long)]
    json: bool,
    /// Test only: the golden model of every configuration's first permutation swaps the
    /// destinations of PEs 0 and 1, so every configuration must be reported mismatched.
    #[arg(long, hide = true)]
    inject_fault: bool,
    #[command(flatten)]
    submit: slurm::SubmitArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum KindArg {
    /// T-LCAN(d,u)
    Tree,
    /// CB-LCAN(d,u)
    Cb,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum PolicyArg {
    /// Lowest requester and lowest wire first, always
    Fixed,
    /// Rotating priority
    RoundRobin,
    /// Pointers from a 16-bit LFSR per arbiter
    Random,
}

impl From<KindArg> for Kind {
    fn from(k: KindArg) -> Self {
        match k {
            KindArg::Tree => Kind::Tree,
            KindArg::Cb => Kind::CompleteBipartite,
        }
    }
}

impl From<PolicyArg> for ArbiterPolicy {
    fn from(p: PolicyArg) -> Self {
        match p {
            PolicyArg::Fixed => ArbiterPolicy::Fixed,
            PolicyArg::RoundRobin => ArbiterPolicy::RoundRobin,
            PolicyArg::Random => ArbiterPolicy::Random,
        }
    }
}

/// The first failing permutation of a configuration.
#[derive(Debug, Clone, Serialize)]
struct Failure {
    perm: usize,
    seed: u64,
    what: String,
    vcd: Option<PathBuf>,
}

/// One configuration's result: a JSON line of `--out`.
#[derive(Debug, Clone, Serialize)]
struct Record {
    index: usize,
    topology: &'static str,
    d: usize,
    u: usize,
    levels: usize,
    n: usize,
    switches: usize,
    algorithm: &'static str,
    arbiter: String,
    top: String,
    /// The generated Verilog's digest (`Emitted::digest`): `--report` checks it against
    /// today's generator.
    rtl: String,
    width: usize,
    message_bits: usize,
    seed: u64,
    perms: usize,
    matched: usize,
    r#match: bool,
    passes_mean: f64,
    passes_max: u64,
    bit_times_mean: f64,
    bit_times_max: u64,
    build: &'static str,
    /// The g++ level of the model ([`optimize_for`]).
    cxx_opt: String,
    build_seconds: f64,
    run_seconds: f64,
    /// CPU seconds (user + system) of the build: this process (generation) and its
    /// children (Verilator, make, g++). The wall-clock seconds above include whatever else
    /// the machine was running.
    build_cpu_seconds: f64,
    /// CPU seconds of this process during the runs.
    run_cpu_seconds: f64,
    /// Peak resident memory so far of this process plus that of its largest child so far
    /// (Verilator or g++), MB: a bound of what the process needed up to this record, from
    /// which `--submit` asks the scheduler for memory.
    peak_rss_mb: f64,
    failure: Option<Failure>,
    /// The fault `--inject-fault` put into the golden model (absent in real runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    fault: Option<&'static str>,
}

/// What `--inject-fault` does, as its records name it.
const INJECTED_FAULT: &str =
    "permutation 0: the golden model swaps the destinations of PEs 0 and 1";

/// The JSON summary on stdout.
#[derive(Debug, Serialize)]
struct Summary {
    seed: u64,
    max_n: usize,
    perms: usize,
    shard: Option<String>,
    configurations: usize,
    configurations_in_all_shards: usize,
    /// Configurations whose records were kept from the journal (`--resume`).
    resumed: usize,
    skipped_networks: Vec<SkippedNet>,
    matched: usize,
    mismatched: Vec<usize>,
    seconds: f64,
    out: Option<PathBuf>,
    listed: Vec<Listed>,
}

#[derive(Debug, Clone, Serialize)]
/// A network above `--max-switches`, out of the sweep's scope.
struct SkippedNet {
    network: String,
    switches: usize,
}

#[derive(Debug, Serialize)]
struct Listed {
    index: usize,
    network: String,
    n: usize,
    switches: usize,
    algorithm: &'static str,
    arbiter: String,
}

/// What a sweep's flags select: the networks, the full configuration list and this
/// shard's part of it.
struct Plan {
    nets: Vec<(configs::Shape, lcanet_sim::lcan::Topology)>,
    skipped: Vec<SkippedNet>,
    algorithms: Vec<Algorithm>,
    policies: Vec<ArbiterPolicy>,
    /// Configurations in all shards.
    total: usize,
    /// This shard's.
    mine: Vec<Config>,
}

impl Plan {
    /// Checks the flags and lists the configurations.
    fn new(a: &Args) -> anyhow::Result<Plan> {
        check_max_n(a.max_n, MAX_SWEEP_PES)?;
        if a.perms == 0 || a.perms > MAX_PERMS {
            bail!("--perms {}: must be between 1 and {MAX_PERMS}", a.perms);
        }
        if a.max_switches == 0 {
            bail!("--max-switches 0: no network has fewer than one switch");
        }
        let hw = hardware_algorithms();
        let mut algorithms: Vec<Algorithm> = Vec::new();
        for &alg in if a.algorithms.is_empty() {
            &hw
        } else {
            &a.algorithms
        } {
            if !hw.contains(&alg) {
                let names: Vec<&str> = hw.iter().map(|a| a.name()).collect();
                bail!(
                    "--algorithms {}: the generated hardware does not run it (it runs {})",
                    alg.name(),
                    names.join(", ")
                );
            }
            if !algorithms.contains(&alg) {
                algorithms.push(alg);
            }
        }
        let mut policies: Vec<ArbiterPolicy> = Vec::new();
        let chosen: Vec<PolicyArg> = if a.arbiters.is_empty() {
            vec![PolicyArg::Fixed, PolicyArg::RoundRobin, PolicyArg::Random]
        } else {
            a.arbiters.clone()
        };
        for p in chosen {
            let p = ArbiterPolicy::from(p);
            if !policies.contains(&p) {
                policies.push(p);
            }
        }
        // Width and message bits are checked by the first network's parameters.
        NetSpec::new(
            configs::Shape {
                kind: lcanet_sim::lcan::Kind::Tree,
                d: 2,
                u: 1,
                levels: 1,
            }
            .topology()?,
            Algorithm::R1,
            ArbiterPolicy::Fixed,
            a.width,
            a.message_bits,
        )
        .context("--width / --message-bits")?;
        let configs::Shapes {
            mut keep,
            mut skipped,
        } = shapes(a.max_n, a.max_switches, a.width, a.message_bits);
        if !a.topologies.is_empty() {
            let kinds: Vec<Kind> = a.topologies.iter().map(|&k| k.into()).collect();
            keep.retain(|(s, _)| kinds.contains(&s.kind));
            skipped.retain(|(s, _)| kinds.contains(&s.kind));
        }
        let nets = keep;
        let all = configs(&nets, &algorithms, &policies);
        let total = all.len();
        let mine: Vec<Config> = all
            .into_iter()
            .filter(|c| a.shard.is_none_or(|s| s.owns(c.index)))
            .collect();
        let skipped = skipped
            .iter()
            .map(|(s, sw)| SkippedNet {
                network: s.label(),
                switches: *sw,
            })
            .collect();
        Ok(Plan {
            nets,
            skipped,
            algorithms,
            policies,
            total,
            mine,
        })
    }

    /// Configurations per network: one per algorithm and policy (one for an algorithm
    /// without arbiters).
    fn configs_per_network(&self) -> usize {
        self.algorithms
            .iter()
            .map(|&alg| {
                if configs::arbitrated(alg) {
                    self.policies.len()
                } else {
                    1
                }
            })
            .sum()
    }

    /// The topology of a configuration of this plan.
    fn topology(&self, c: &Config) -> lcanet_sim::lcan::Topology {
        self.nets
            .iter()
            .find(|(s, _)| *s == c.shape)
            .map(|(_, t)| t.clone())
            .expect("every configuration's shape is in the list")
    }

    /// The hardware parameters of a configuration (an algorithm without arbiters takes
    /// the fixed policy, which its switch does not use).
    fn spec(&self, c: &Config, a: &Args) -> anyhow::Result<NetSpec> {
        let policy = c.policy.unwrap_or(ArbiterPolicy::Fixed);
        NetSpec::new(
            self.topology(c),
            c.algorithm,
            policy,
            a.width,
            a.message_bits,
        )
        .with_context(|| format!("configuration #{} {}", c.index, c.shape.label()))
    }
}

impl Args {
    /// The flags that define the numbered list (besides defaults), as a command line gives
    /// them: what a record's index means, for the commands `--submit` and `--report`
    /// write.
    fn list_flags(&self, plan: &Plan) -> Vec<String> {
        let mut f = vec!["--max-n".to_string(), self.max_n.to_string()];
        let mut flag = |name: &str, value: String| {
            f.push(name.to_string());
            f.push(value);
        };
        if self.max_switches != DEFAULT_MAX_SWITCHES {
            flag("--max-switches", self.max_switches.to_string());
        }
        if !self.topologies.is_empty() {
            let kinds: Vec<&str> = self
                .topologies
                .iter()
                .map(|k| match k {
                    KindArg::Tree => "tree",
                    KindArg::Cb => "cb",
                })
                .collect();
            flag("--topologies", kinds.join(","));
        }
        if !self.algorithms.is_empty() {
            let names: Vec<&str> = plan.algorithms.iter().map(|a| a.name()).collect();
            flag("--algorithms", names.join(","));
        }
        if !self.arbiters.is_empty() {
            let names: Vec<String> = plan.policies.iter().map(|p| p.to_string()).collect();
            flag("--arbiters", names.join(","));
        }
        if self.width != 1 {
            flag("--width", self.width.to_string());
        }
        if self.message_bits != 8 {
            flag("--message-bits", self.message_bits.to_string());
        }
        f
    }
}

/// Runs `lcanet sweep`.
pub fn run(a: Args) -> anyhow::Result<Outcome> {
    let plan = Plan::new(&a)?;
    if a.submit.submit.is_some() {
        return slurm::run(&a, &plan);
    }
    if a.shards.is_some() && a.report.is_empty() {
        bail!("--shards: only with --report or --submit (a single run takes --shard I/N)");
    }
    if !a.report.is_empty() {
        return report::run(&a, &plan);
    }
    let Plan {
        algorithms,
        policies,
        total,
        mine,
        skipped: skipped_nets,
        ..
    } = &plan;
    let (total, mine) = (*total, mine.clone());
    let shard_text = a.shard.map(|s| format!("{}/{}", s.index, s.count));
    if a.list {
        let listed: Vec<Listed> = mine
            .iter()
            .map(|c| {
                let t = plan.topology(c);
                Listed {
                    index: c.index,
                    network: c.shape.label(),
                    n: t.n(),
                    switches: t.total_switches(),
                    algorithm: c.algorithm.name(),
                    arbiter: c.policy_name(),
                }
            })
            .collect();
        if a.json {
            print_json(&Summary {
                seed: 0,
                max_n: a.max_n,
                perms: a.perms,
                shard: shard_text,
                configurations: mine.len(),
                configurations_in_all_shards: total,
                resumed: 0,
                skipped_networks: skipped_nets.clone(),
                matched: 0,
                mismatched: Vec::new(),
                seconds: 0.0,
                out: None,
                listed,
            })?;
        } else {
            for l in &listed {
                println!(
                    "{:>5}  {:<16} n = {:>4}  {:>5} switches  {}  {}",
                    l.index, l.network, l.n, l.switches, l.algorithm, l.arbiter
                );
            }
            for n in skipped_nets {
                println!(
                    "  out  {:<16} {:>7} switches: above --max-switches {}",
                    n.network, n.switches, a.max_switches
                );
            }
            println!(
                "{} configurations{} of {total} ({} networks with n ≤ {} × {}); {} networks above --max-switches {} are out of scope ({} configurations: {OUT_OF_SCOPE})",
                listed.len(),
                shard_text.as_deref().map(|s| format!(" in shard {s}")).unwrap_or_default(),
                plan.nets.len(),
                a.max_n,
                algorithms
                    .iter()
                    .map(|&alg| if configs::arbitrated(alg) {
                        format!("{} with {} policies", alg.name(), policies.len())
                    } else {
                        format!("{} (no arbiter)", alg.name())
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                skipped_nets.len(),
                a.max_switches,
                skipped_nets.len() * plan.configs_per_network()
            );
        }
        return Ok(Outcome::Success);
    }
    let journal = if a.resume {
        Journal::read(&a, &plan)?
    } else {
        Journal::default()
    };
    let seed = journal.seed.unwrap_or_else(|| a.seed.resolve());
    let mut records = match &a.out {
        Some(out) if a.resume => Some(RecordsFile::resume(out, &journal.lines)?),
        Some(out) => Some(RecordsFile::create(out)?),
        None => None,
    };
    let t0 = Instant::now();
    let bar = progress_bar(mine.len(), "configurations", a.json);
    if !a.json {
        eprintln!(
            "sweep: {} configurations{} of {total}, {} permutations each, seed {seed}",
            mine.len(),
            shard_text
                .as_deref()
                .map(|s| format!(" (shard {s})"))
                .unwrap_or_default(),
            a.perms
        );
    }
    if let (Some(r), Some(out), false) = (&records, &a.out, a.json) {
        eprintln!(
            "records: {} as the sweep goes, renamed to {} when it ends",
            r.partial().display(),
            out.display()
        );
    }
    if let (true, false) = (a.resume, a.json) {
        eprintln!(
            "resuming: {} configurations kept{}{}",
            journal.kept.len(),
            journal
                .from
                .as_ref()
                .map(|f| format!(" from {}", f.display()))
                .unwrap_or_else(|| " (no journal or records yet)".into()),
            match journal.dropped {
                0 => String::new(),
                k => format!(" ({k} records of other Verilog or repeated, dropped)"),
            }
        );
    }
    let (mut matched, mut mismatched) = (0, Vec::new());
    for c in &mine {
        if let Some(&ok) = journal.kept.get(&c.index) {
            if ok {
                matched += 1;
            } else {
                mismatched.push(c.index);
            }
            bar.inc(1);
            continue;
        }
        bar.set_message(format!(
            "{} {} {}",
            c.shape.label(),
            c.algorithm.name(),
            c.policy_name()
        ));
        // All or nothing: an error drops `records`, which removes the partial file.
        let r = run_config(c, plan.spec(c, &a)?, &a, seed)?;
        if r.r#match {
            matched += 1;
        } else {
            mismatched.push(c.index);
            bar.suspend(|| {
                eprintln!(
                    "MISMATCH #{} {} {} {}: {}",
                    c.index,
                    c.shape.label(),
                    c.algorithm.name(),
                    c.policy_name(),
                    r.failure.as_ref().map_or("", |f| f.what.as_str())
                )
            });
        }
        if let Some(f) = &mut records {
            f.line(&serde_json::to_string(&r)?)?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(f) = records {
        f.commit()?;
    }
    let seconds = t0.elapsed().as_secs_f64();
    if a.json {
        print_json(&Summary {
            seed,
            max_n: a.max_n,
            perms: a.perms,
            shard: shard_text,
            configurations: mine.len(),
            configurations_in_all_shards: total,
            resumed: journal.kept.len(),
            skipped_networks: skipped_nets.clone(),
            matched,
            mismatched: mismatched.clone(),
            seconds,
            out: a.out.clone(),
            listed: Vec::new(),
        })?;
    } else {
        println!(
            "sweep: {matched}/{} configurations match the golden model on {} permutations each ({:.0} s, seed {seed}){}",
            mine.len(),
            a.perms,
            seconds,
            a.out
                .as_ref()
                .map(|o| format!("; records in {}", o.display()))
                .unwrap_or_default()
        );
        if !skipped_nets.is_empty() {
            println!(
                "out of scope (more than --max-switches {}): {}",
                a.max_switches,
                skipped_nets
                    .iter()
                    .map(|s| format!("{} ({} switches)", s.network, s.switches))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    Ok(if mismatched.is_empty() {
        Outcome::Success
    } else {
        Outcome::Mismatch
    })
}

/// What `--resume` keeps of the journal (`--out`'s partial file).
#[derive(Default)]
struct Journal {
    /// Kept configurations: whether each matched.
    kept: BTreeMap<usize, bool>,
    /// Their lines, as read.
    lines: Vec<String>,
    /// Records left out: another Verilog digest than today's, or a configuration repeated.
    dropped: usize,
    /// The seed of the records (or --seed).
    seed: Option<u64>,
    /// The file read: the journal or the finished --out file.
    from: Option<PathBuf>,
}

impl Journal {
    /// Reads and checks what `--resume` continues from: the journal of `--out`, or, when
    /// there is none and `--out` exists (a finished run), that file itself; neither: nothing
    /// is kept. Every record must be a configuration of this run (as `--report` checks
    /// it); a last line cut short by a stop is left out.
    fn read(a: &Args, plan: &Plan) -> anyhow::Result<Journal> {
        let out = a.out.as_deref().context("--resume needs --out")?;
        let journal = out::partial_path(out)?;
        let source = if journal.exists() {
            if !journal.is_file() {
                bail!(
                    "--resume: {} (the journal of --out {}) is not a file",
                    journal.display(),
                    out.display()
                );
            }
            Some((journal, "the journal of"))
        } else {
            out.is_file().then(|| (out.to_path_buf(), "the records of"))
        };
        let mut reader = records::Reader::new(a, plan);
        let mut j = Journal::default();
        if let Some((path, what)) = source {
            j.from = Some(path.clone());
            for r in reader
                .file(&path, true)
                .with_context(|| format!("--resume: {what} --out {}", out.display()))?
            {
                let c = r.config;
                let today = records::digest(c, plan, a)
                    .with_context(|| format!("generating configuration #{}", c.index))?;
                if r.seen.rtl.as_deref() != Some(today.as_str()) || j.kept.contains_key(&c.index) {
                    j.dropped += 1;
                    continue;
                }
                j.kept.insert(c.index, r.seen.r#match);
                j.lines.push(r.line);
            }
        }
        j.seed = reader.seed();
        Ok(j)
    }
}

/// Builds one configuration and co-simulates its permutations.
fn run_config(c: &Config, spec: NetSpec, a: &Args, seed: u64) -> anyhow::Result<Record> {
    let topo = spec.topo.clone();
    let top = spec.network_name();
    let dir =
        ArtifactDir::new(&format!("cli::sweep::{top}")).context("creating the work directory")?;
    let models = a.discard_builds.then(|| dir.file("models"));
    let cpu = || {
        (
            cpu_seconds(libc::RUSAGE_SELF),
            cpu_seconds(libc::RUSAGE_CHILDREN),
        )
    };
    let cpu0 = cpu();
    let t0 = Instant::now();
    let how = NetBuild {
        optimize: optimize_for(topo.total_switches()),
        ..NetBuild::auto(false)
    };
    let bench = NetBench::build_at(spec, &dir.file("rtl"), how, models.as_deref())
        .with_context(|| format!("building configuration #{} ({top})", c.index))?;
    let build_seconds = t0.elapsed().as_secs_f64();
    let cpu1 = cpu();
    let t1 = Instant::now();
    let (mut matched, mut passes, mut bits) = (0usize, Vec::new(), Vec::new());
    let mut failure = None;
    for j in 0..a.perms {
        let s = derive(seed, &format!("{} perm {j}", c.shape.label()));
        let stim = Stimulus::new(&topo, &PermKind::Random, a.message_bits, s)
            .map_err(anyhow::Error::msg)?;
        let vcd = dir.file(&format!("failure{j}.vcd"));
        let fault = (a.inject_fault && j == 0).then_some(Mutation::SwapDestinations { a: 0, b: 1 });
        let r = bench
            .run(&stim, None, Some(&vcd), fault)
            .with_context(|| format!("co-simulating configuration #{} ({top})", c.index))?;
        passes.push(r.passes);
        bits.push(r.bit_times);
        if r.matched() {
            matched += 1;
        } else if failure.is_none() {
            failure = Some(Failure {
                perm: j,
                seed: s,
                what: r.failure_text(),
                vcd: r.vcd.clone(),
            });
        }
    }
    let mean = |v: &[u64]| v.iter().sum::<u64>() as f64 / v.len().max(1) as f64;
    let record = Record {
        index: c.index,
        topology: c.shape.kind_name(),
        d: c.shape.d,
        u: c.shape.u,
        levels: c.shape.levels,
        n: topo.n(),
        switches: topo.total_switches(),
        algorithm: c.algorithm.name(),
        arbiter: c.policy_name(),
        top,
        rtl: bench.rtl_digest.clone(),
        width: a.width,
        message_bits: a.message_bits,
        seed,
        perms: a.perms,
        matched,
        r#match: matched == a.perms,
        passes_mean: mean(&passes),
        passes_max: passes.iter().copied().max().unwrap_or(0),
        bit_times_mean: mean(&bits),
        bit_times_max: bits.iter().copied().max().unwrap_or(0),
        build: match bench.cache() {
            CacheOutcome::Hit => "cached",
            CacheOutcome::Built => "built",
        },
        cxx_opt: bench.info.manifest.cxx_opt.clone(),
        build_seconds,
        run_seconds: t1.elapsed().as_secs_f64(),
        build_cpu_seconds: (cpu1.0 - cpu0.0) + (cpu1.1 - cpu0.1),
        run_cpu_seconds: cpu().0 - cpu1.0,
        peak_rss_mb: peak_rss_mb(),
        failure,
        fault: a.inject_fault.then_some(INJECTED_FAULT),
    };
    if let Some(models) = models {
        // The model is unloaded with the bench before its directory goes.
        drop(bench);
        std::fs::remove_dir_all(&models)
            .with_context(|| format!("removing the model directory {}", models.display()))?;
    }
    Ok(record)
}

/// Networks with fewer switches are compiled at g++ `-O0`: their builds are nearly all
/// g++ on the switch and take about half the CPU at `-O0`, while their runs of 100
/// permutations take well under a second at `-O1` and a few times that at `-O0`
/// (`docs/sweep/README.md`, "Cheaper configurations"). Larger networks run long enough for
/// `-O1` to pay.
pub const UNOPTIMIZED_BELOW_SWITCHES: usize = 10;

/// The g++ level of a sweep model of `switches` switches
/// ([`UNOPTIMIZED_BELOW_SWITCHES`]).
fn optimize_for(switches: usize) -> Optimize {
    if switches < UNOPTIMIZED_BELOW_SWITCHES {
        Optimize::Unoptimized
    } else {
        Optimize::Quick
    }
}

/// This process's peak resident memory plus its largest child's (`getrusage`), MB.
fn peak_rss_mb() -> f64 {
    let kb = |who| rusage(who).ru_maxrss.max(0) as f64;
    (kb(libc::RUSAGE_SELF) + kb(libc::RUSAGE_CHILDREN)) / 1024.0
}
