//! `lcanet bench routing`: the papers' routing claims measured with the golden models.
//! Sweeps topology (tree, cb) × (d,u) × n × algorithm × workload (random permutations,
//! identity, transpose, 002's worst-case set), in parallel, and writes `routing.jsonl`
//! (one record per network × algorithm × workload: mean, min, max over its samples) and
//! SVG plots into `--out DIR`, every file atomically once everything was computed.
//! The sweep itself is `routing_sweep`, the bit-times `routing_bits`, the plots
//! `routing_plot` on our own SVG writer `svg`.

use super::routing_pareto;
use super::routing_plot::plots;
use super::routing_sweep::{nets_in_range, run as run_sweep, Plan, Record, Workload, ALGORITHMS};
use crate::cli::common::{print_json, write_atomic, SeedArg};
use crate::cli::generate::switch::SetupArg;
use crate::cli::schedule::{MAX_SCHEDULE_PES, MAX_TRIALS};
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_sim::lcan::arbiter::Policy;
use lcanet_sim::lcan::optimal::DEFAULT_BUDGET;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::Kind;
use std::path::PathBuf;
use std::time::Instant;

/// Default (d, u) of each topology in the full sweep.
const TREE_DU: &[(usize, usize)] = &[(2, 1), (4, 2), (4, 1)];
const CB_DU: &[(usize, usize)] = &[(2, 2), (4, 2), (4, 4)];
/// … and in `--quick`.
const QUICK_TREE_DU: &[(usize, usize)] = &[(2, 1), (4, 2)];
const QUICK_CB_DU: &[(usize, usize)] = &[(2, 2)];

/// Most worker threads `--jobs` accepts (each is an OS thread).
const MAX_JOBS: usize = 1024;

/// Arguments of `lcanet bench routing`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lcanet bench routing --out docs/results --seed 1                 # the full sweep
  lcanet bench routing --quick --out /tmp/r --seed 1 --json         # a tiny one
  lcanet bench routing --topology cb --du 2:2 --n-max 1024 --algorithms r1 --out out/r
  lcanet bench routing --pareto --n-max 256 --out out/p          # + Yosys, Pareto front

Defaults: tree (d,u) = 2:1, 4:2, 4:1; cb (d,u) = 2:2, 4:2, 4:4; n = 16 … 4096 (every size
the network has in the range); every algorithm; 100 random permutations, identity,
transpose, 10 samples of the worst-case set. --quick: tree 2:1, 4:2, cb 2:2, n ≤ 64,
3 random permutations, 2 worst-case samples (explicit flags still win).
Sample i of workload W is routed with --seed derive(seed, \"W i\") (its permutation and
its arbiters), the same for every network and algorithm; records name the seed of their
worst sample. Bit-times: docs/interface.md §4 with --message-bits and --width.")]
pub struct Args {
    /// Topology kinds, comma-separated: tree, cb.
    #[arg(long, value_enum, value_delimiter = ',')]
    topology: Vec<KindArg>,
    /// (d,u) pairs as D:U, comma-separated; applied to every selected kind.
    #[arg(long, value_delimiter = ',', value_parser = parse_du)]
    du: Vec<(usize, usize)>,
    /// Smallest n (every size of a network from --n-min to --n-max is swept).
    #[arg(long)]
    n_min: Option<usize>,
    /// Largest n.
    #[arg(long)]
    n_max: Option<usize>,
    /// Algorithms, comma-separated (default: all).
    #[arg(long, value_delimiter = ',', value_parser = parse_algorithm)]
    algorithms: Vec<Algorithm>,
    /// Random permutations per network and algorithm.
    #[arg(long)]
    perms: Option<usize>,
    /// Samples of 002's worst-case set (every connection at LCA level l-1) per network
    /// and algorithm (0: none).
    #[arg(long)]
    worst: Option<usize>,
    /// Arbiter policy of every switch.
    #[arg(long, value_enum, default_value = "round-robin")]
    arbiter: PolicyArg,
    /// Message bits M of the bit-time figures (1..=64).
    #[arg(long, default_value_t = 8)]
    message_bits: usize,
    /// Link width W of the bit-time figures.
    #[arg(long, default_value_t = 1)]
    width: usize,
    /// Set-up arbitration of the R1/R2 hardware the bit-times are priced with: the
    /// online option `fast` decides every contender in the commit bit-time (same passes,
    /// shorter UP/DOWN/PROBE steps; docs/protocol.md §13). R3 has no set-up steps.
    #[arg(long, value_enum, default_value = "sequential")]
    setup: SetupArg,
    /// Node budget of the exact optimum at n ≤ 32 (0: do not compute it).
    #[arg(long, default_value_t = DEFAULT_BUDGET)]
    opt_budget: u64,
    /// Worker threads (default: the available cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Also synthesize every network's switch with Yosys (iCE40 LUTs and flip-flops) and
    /// plot bit-times per permutation against the switch fabric's size, Pareto front
    /// marked (`pareto.jsonl`, `pareto_n<N>.svg`).
    #[arg(long)]
    pareto: bool,
    /// A tiny sweep (for tests): see below.
    #[arg(long)]
    quick: bool,
    #[command(flatten)]
    seed: SeedArg,
    /// Output directory: routing.jsonl and the SVG plots.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Print a JSON summary on stdout.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum KindArg {
    /// T-LCAN(d,u)
    Tree,
    /// CB-LCAN(d,u)
    Cb,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum PolicyArg {
    /// Lowest requester and lowest wire first, always
    Fixed,
    /// Rotating priority
    RoundRobin,
    /// Pointers from a 16-bit LFSR per arbiter, seeded from the sample seed
    Random,
}

fn parse_du(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{s}' is not D:U (two positive integers, e.g. 4:2)");
    let (d, u) = s.split_once(':').ok_or_else(bad)?;
    let d: usize = d.trim().parse().map_err(|_| bad())?;
    let u: usize = u.trim().parse().map_err(|_| bad())?;
    if d < 2 || u < 1 {
        return Err(format!("'{s}': an LCA switch needs d ≥ 2 and u ≥ 1"));
    }
    Ok((d, u))
}

/// Parses an algorithm name (`r1`, `r2`, `r3`, any case), naming the known ones on error.
pub fn parse_algorithm(s: &str) -> Result<Algorithm, String> {
    ALGORITHMS
        .iter()
        .copied()
        .find(|a| a.name().eq_ignore_ascii_case(s.trim()))
        .ok_or_else(|| {
            let names: Vec<&str> = ALGORITHMS.iter().map(|a| a.name()).collect();
            format!("unknown algorithm '{s}' (known: {})", names.join(", "))
        })
}

/// network, n, algorithm, mean passes, mean and max passes ÷ lower bound, mean bit-times.
type RandomRow<'a> = (&'a str, usize, &'a str, f64, f64, f64, Option<f64>);

/// The JSON summary on stdout.
#[derive(serde::Serialize)]
struct Summary<'a> {
    seed: u64,
    sample_seed_rule: &'static str,
    out: String,
    files: Vec<String>,
    networks: Vec<String>,
    algorithms: Vec<&'static str>,
    workloads: Vec<(&'static str, usize)>,
    records: usize,
    samples: usize,
    threads: usize,
    elapsed_seconds: f64,
    /// With --pareto: the configurations on the Pareto front of their n.
    pareto_front: Vec<routing_pareto::ParetoPoint>,
    /// Random-permutation records, condensed: network, n, algorithm, mean passes, mean
    /// and max passes ÷ lower bound, mean bit-times.
    random: Vec<RandomRow<'a>>,
    /// Algorithms swept without bit-times: (network, n, algorithm, why).
    bit_times_unavailable: Vec<(&'a str, usize, &'a str, &'a str)>,
}

fn plan(a: &Args) -> anyhow::Result<Plan> {
    let kinds: Vec<Kind> = if a.topology.is_empty() {
        vec![Kind::Tree, Kind::CompleteBipartite]
    } else {
        let mut k: Vec<Kind> = Vec::new();
        for t in &a.topology {
            let kind = match t {
                KindArg::Tree => Kind::Tree,
                KindArg::Cb => Kind::CompleteBipartite,
            };
            if !k.contains(&kind) {
                k.push(kind);
            }
        }
        k
    };
    let n_min = a.n_min.unwrap_or(16);
    let n_max = a.n_max.unwrap_or(if a.quick { 64 } else { 4096 });
    if n_min == 0 || n_min > n_max {
        bail!("--n-min {n_min} --n-max {n_max}: need 1 ≤ n-min ≤ n-max");
    }
    if n_max > MAX_SCHEDULE_PES {
        bail!("--n-max {n_max}: above the limit of {MAX_SCHEDULE_PES} PEs (the golden models' schedules at that size take minutes and gigabytes per permutation)");
    }
    let perms = a.perms.unwrap_or(if a.quick { 3 } else { 100 });
    if perms == 0 {
        bail!("--perms 0: at least one random permutation is needed");
    }
    let worst = a.worst.unwrap_or(if a.quick { 2 } else { 10 });
    for (flag, count) in [("--perms", perms), ("--worst", worst)] {
        if count as u64 > MAX_TRIALS {
            bail!(
                "{flag} {count}: above the limit of {MAX_TRIALS} samples per network and algorithm"
            );
        }
    }
    match a.jobs {
        Some(0) => bail!("--jobs 0: at least one worker thread is needed"),
        Some(j) if j > MAX_JOBS => {
            bail!("--jobs {j}: above the limit of {MAX_JOBS} worker threads")
        }
        _ => {}
    }
    let mut nets = Vec::new();
    for kind in kinds {
        let du: Vec<(usize, usize)> = if !a.du.is_empty() {
            a.du.clone()
        } else {
            match (kind, a.quick) {
                (Kind::Tree, false) => TREE_DU.to_vec(),
                (Kind::Tree, true) => QUICK_TREE_DU.to_vec(),
                (_, false) => CB_DU.to_vec(),
                (_, true) => QUICK_CB_DU.to_vec(),
            }
        };
        for (d, u) in du {
            nets.extend(nets_in_range(kind, d, u, n_min, n_max)?);
        }
    }
    let mut algorithms: Vec<Algorithm> = Vec::new();
    for &alg in if a.algorithms.is_empty() {
        ALGORITHMS
    } else {
        &a.algorithms
    } {
        if !algorithms.contains(&alg) {
            algorithms.push(alg);
        }
    }
    let mut workloads = vec![
        (Workload::Random, perms),
        (Workload::Identity, 1),
        (Workload::Transpose, 1),
    ];
    if worst > 0 {
        workloads.push((Workload::WorstCase, worst));
    }
    Ok(Plan {
        nets,
        algorithms,
        workloads,
        policy: match a.arbiter {
            PolicyArg::Fixed => Policy::Fixed,
            PolicyArg::RoundRobin => Policy::RoundRobin,
            PolicyArg::Random => Policy::Random,
        },
        msg_bits: a.message_bits,
        width: a.width,
        opt_budget: (a.opt_budget > 0).then_some(a.opt_budget),
        seed: 0,
        setup: a.setup.into(),
    })
}

/// Runs `lcanet bench routing`.
pub fn run(a: Args) -> anyhow::Result<Outcome> {
    let mut plan = plan(&a)?;
    // Validate the hardware parameters before anything runs (and before the seed is drawn).
    plan.net_params()?;
    plan.seed = a.seed.resolve();
    let threads = a.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let total = plan.samples();
    if !a.json {
        println!(
            "bench routing: {} networks × {} algorithms, {} routings on {threads} threads, seed {}",
            plan.nets.len(),
            plan.algorithms.len(),
            total,
            plan.seed
        );
    }
    let bar = crate::cli::common::progress_bar(total, "routings", false);
    let start = Instant::now();
    let records = run_sweep(&plan, threads, &|| bar.inc(1));
    bar.finish_and_clear();
    let records = records?;
    let elapsed = start.elapsed().as_secs_f64();
    // Everything rendered before anything is written.
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut jsonl = String::new();
    for r in &records {
        jsonl.push_str(&serde_json::to_string(r).context("serializing a record")?);
        jsonl.push('\n');
    }
    files.push(("routing.jsonl".into(), jsonl.into_bytes()));
    for (name, svg) in plots(&records, &plan.algorithms)? {
        files.push((name, svg.into_bytes()));
    }
    let mut front = Vec::new();
    if a.pareto {
        let list = routing_pareto::switches(&plan)?;
        if !a.json {
            println!("synthesizing {} switches with Yosys (--pareto)", list.len());
        }
        let bar = indicatif::ProgressBar::new(list.len() as u64);
        let points = routing_pareto::pareto(&plan, &records, threads, &|| bar.inc(1));
        bar.finish_and_clear();
        let points = points?;
        let mut jsonl = String::new();
        for p in &points {
            jsonl.push_str(&serde_json::to_string(p).context("serializing a Pareto point")?);
            jsonl.push('\n');
        }
        files.push(("pareto.jsonl".into(), jsonl.into_bytes()));
        let names: Vec<&str> = plan.algorithms.iter().map(|a| a.name()).collect();
        for (name, svg) in routing_pareto::plots(&points, &names)? {
            files.push((name, svg.into_bytes()));
        }
        front = points.into_iter().filter(|p| p.pareto).collect();
    }
    for (name, bytes) in &files {
        write_atomic(&a.out.join(name), bytes)?;
    }
    let summary = Summary {
        seed: plan.seed,
        sample_seed_rule: "sample i of workload W: --seed derive(seed, \"W i\") (lcanet schedule --perm W --seed it)",
        out: a.out.display().to_string(),
        files: files.iter().map(|f| f.0.clone()).collect(),
        networks: plan
            .nets
            .iter()
            .map(|n| format!("{} n={}", n.short, n.topo.n()))
            .collect(),
        algorithms: plan.algorithms.iter().map(|a| a.name()).collect(),
        workloads: plan.workloads.iter().map(|w| (w.0.name(), w.1)).collect(),
        records: records.len(),
        samples: total,
        threads,
        elapsed_seconds: elapsed,
        pareto_front: front.clone(),
        random: records
            .iter()
            .filter(|r| r.workload == "random")
            .map(|r| {
                (
                    r.network.as_str(),
                    r.n,
                    r.algorithm,
                    r.passes.mean,
                    r.passes_over_lower_bound.mean,
                    r.passes_over_lower_bound.max,
                    r.bit_times.as_ref().map(|b| b.mean),
                )
            })
            .collect(),
        bit_times_unavailable: records
            .iter()
            .filter(|r| r.workload == "random")
            .filter_map(|r| {
                let why = r.bit_times_unavailable.as_deref()?;
                Some((r.network.as_str(), r.n, r.algorithm, why))
            })
            .collect(),
    };
    if a.json {
        print_json(&summary)?;
    } else {
        print_table(&records, &plan);
        let mut told: Vec<(&str, &str)> = Vec::new();
        for &(_, _, alg, why) in &summary.bit_times_unavailable {
            if !told.contains(&(alg, why)) {
                told.push((alg, why));
                let count = summary
                    .bit_times_unavailable
                    .iter()
                    .filter(|x| x.2 == alg && x.3 == why)
                    .count();
                println!("no bit-times for {alg} ({count} networks): {why}");
            }
        }
        for p in &front {
            println!(
                "Pareto front n = {:>5}: {} {:<8} {:>9} LUTs + {:>8} FFs, {:>10.0} bit-times",
                p.n, p.algorithm, p.network, p.fabric_luts, p.fabric_ffs, p.bit_times
            );
        }
        println!(
            "{} routings in {elapsed:.1} s on {threads} threads; wrote {} files to {}",
            total,
            files.len(),
            a.out.display()
        );
    }
    Ok(Outcome::Success)
}

fn print_table(records: &[Record], plan: &Plan) {
    println!(
        "{:<9} {:>5} {:<3} | {:>8} {:>7} {:>6} {:>10} {:>7} | {:>8} {:>8} {:>8} | {:>7}",
        "network",
        "n",
        "alg",
        "passes",
        "÷LB",
        "max",
        "bit-times",
        "set-up",
        "worst",
        "transp.",
        "ident.",
        "÷opt"
    );
    let per = plan.workloads.len();
    for chunk in records.chunks(per) {
        let get = |w: &str| chunk.iter().find(|r| r.workload == w);
        let Some(r) = get("random") else { continue };
        let mean = |w: &str| get(w).map_or("-".to_string(), |r| format!("{:.2}", r.passes.mean));
        let (bits, setup) = match (&r.bit_times, &r.setup_bit_times) {
            (Some(b), Some(s)) => (
                format!("{:.0}", b.mean),
                format!("{:.0}%", 100.0 * s.mean / b.mean.max(1.0)),
            ),
            _ => ("-".to_string(), "-".to_string()),
        };
        println!(
            "{:<9} {:>5} {:<3} | {:>8.2} {:>7.3} {:>6.2} {:>10} {:>7} | {:>8} {:>8} {:>8} | {:>7}",
            r.network,
            r.n,
            r.algorithm,
            r.passes.mean,
            r.passes_over_lower_bound.mean,
            r.passes_over_lower_bound.max,
            bits,
            setup,
            mean("worst-case"),
            mean("transpose"),
            mean("identity"),
            r.passes_over_optimal
                .as_ref()
                .map_or("-".to_string(), |s| format!("{:.3}", s.mean)),
        );
    }
}
