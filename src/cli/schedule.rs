//! `lcanet schedule`: route a permutation with R1 or R2 pass by pass, or with R3 off-line
//! (global knowledge), check the schedule with the validator, and compare it with the
//! lower bound and the exact optimum; or run many random trials and print summary ratios.

use super::common::{print_json, SeedArg};
use super::topology_args::{describe, SizesJson, TopologyArgs};
use super::Outcome;
use anyhow::{bail, Context};
use lcanet_sim::lcan::arbiter::Policy;
use lcanet_sim::lcan::evaluate::{evaluate, Evaluation};
use lcanet_sim::lcan::optimal::DEFAULT_BUDGET;
use lcanet_sim::lcan::routing::{
    rearrangeable, Algorithm, Config, Conflict, RoutedConnection, SwitchCrosspoints,
};
use lcanet_sim::lcan::trials::{ratio, run_trials, Stat, Summary};
use lcanet_sim::lcan::workload::{generate, Generator};
use lcanet_sim::lcan::Topology;
use lcanet_sim::perm::PartialPermutation;

/// Arguments of `lcanet schedule`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lcanet schedule --topology tree --d 2 --u 1 --levels 3 --perm random --seed 7
  lcanet schedule --topology cb --d 2 --u 2 --levels 4 --perm worst-case --algorithm r2 --json
  lcanet schedule --topology tree --d 4 --u 2 --n 256 --algorithm r1 --trials 200 --seed 1
  lcanet schedule --topology tree --d 2 --u 1 --n 8 --perm my.perm --conflict switch
  lcanet schedule --topology cb --d 2 --u 2 --n 256 --algorithm r3
  lcanet schedule --topology tree --d 2 --u 1 --n 256 --algorithm r3 --trials 100 --seed 1
  lcanet schedule --topology cm5 --n 64 --perm worst-case --algorithm r3
  lcanet schedule --topology cb --d 4,4,2 --u 2,2,2 --trials 100 --seed 1

A pass routes a subset of the connections; its set-up takes 2H+2 steps (H = highest
LCA level still pending). R1 (003 §3.2) gives higher LCA levels priority; R2 (002 §3.1)
routes probes up any free way and down by destination digits. The lower bound is the
per-group load bound of docs/routing.md §6; the optimum (n ≤ 32) is exact.

R3 (issue 14, docs/routing.md §7) is routing with global knowledge: it sees the whole
permutation and computes every connection's path (which upper at each level, hence which
LCA switch) and its pass off-line, so a pass has no set-up steps. On a CB-LCAN with
u ≥ d (e.g. CB(2,2)) it routes EVERY permutation in exactly 1 pass (the looping
algorithm of Beneš networks generalised to d-ary levels: a König edge colouring per
level). Elsewhere (T-LCANs, CB-LCANs with u < d, Π files, --conflict switch) it is a
heuristic: first fit, then a tabu search that empties one pass at a time down to the
lower bound; if it stops above the bound it also starts from R1's schedule (run with
--arbiter and --seed), so R3 never needs more passes than R1. Every R3 schedule is
checked by the validator like the others.
Permutation files: one destination per PE in PE order, '-' for a PE that sends nothing,
'#' comments (to read a file named like a keyword, write ./random).")]
pub struct Args {
    #[command(flatten)]
    topology: TopologyArgs,
    /// Connections: `random`, `identity`, `worst-case` (all at LCA level l-1), or a FILE.
    #[arg(long, default_value = "random")]
    perm: String,
    #[command(flatten)]
    seed: SeedArg,
    /// Routing algorithm.
    #[arg(long, value_enum, default_value = "r1")]
    algorithm: AlgorithmArg,
    /// Arbiter policy of every switch (docs/routing.md §2); R3 uses it only for the R1
    /// schedule it may start from.
    #[arg(long, value_enum, default_value = "round-robin")]
    arbiter: PolicyArg,
    /// What two connections may not share in a pass.
    #[arg(long, value_enum, default_value = "wire")]
    conflict: ConflictArg,
    /// Exact optimum for n ≤ 32: `auto` computes it, `off` skips it.
    #[arg(long, value_enum, default_value = "auto")]
    optimal: OptimalArg,
    /// Node budget of the optimum search (past it the optimum is reported as unknown).
    #[arg(long, default_value_t = DEFAULT_BUDGET)]
    opt_budget: u64,
    /// Include every switch's closed crosspoints per pass (JSON) or print them.
    #[arg(long)]
    crosspoints: bool,
    /// Run N trials with fresh random/worst-case permutations and print summary ratios.
    #[arg(long, value_name = "N")]
    trials: Option<u64>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum AlgorithmArg {
    /// LCA-priority three phases: staggered climb, top-down S/D claims, data (003 §3.2)
    R1,
    /// Probes climb any free way to the LCA level, descend by destination digits (002 §3.1)
    R2,
    /// Global knowledge, off-line: paths and passes from the whole permutation; 1 pass on CB-LCANs with u ≥ d, a tabu search never worse than R1 elsewhere (docs/routing.md §7)
    R3,
}
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum PolicyArg {
    /// Lowest requester and lowest wire first, always
    Fixed,
    /// Rotating priority: after a grant, start after the last winner and the next wire
    RoundRobin,
    /// Pointers from a 16-bit LFSR per arbiter, seeded from --seed
    Random,
}
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ConflictArg {
    /// No wire carries two connections in a pass (003 §3.3)
    Wire,
    /// No switch carries two connections in a pass (003 §3.1)
    Switch,
}
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum OptimalArg {
    /// Compute the exact optimum when n ≤ 32
    Auto,
    /// Skip it
    Off,
}

enum PermSource {
    Gen(Generator),
    File(PartialPermutation),
}

fn perm_source(spec: &str, topo: &Topology) -> anyhow::Result<PermSource> {
    Ok(match spec {
        "random" => PermSource::Gen(Generator::Random),
        "identity" => PermSource::Gen(Generator::Identity),
        "worst-case" => PermSource::Gen(Generator::WorstCase),
        path => {
            let text = std::fs::read_to_string(path).with_context(|| {
                format!("reading the permutation file {path} (--perm is random, identity, worst-case or a FILE)")
            })?;
            let p = PartialPermutation::parse(&text, topo.n())
                .with_context(|| format!("in the permutation file {path}"))?;
            PermSource::File(p)
        }
    })
}

fn perm_for(src: &PermSource, topo: &Topology, seed: u64) -> anyhow::Result<PartialPermutation> {
    Ok(match src {
        PermSource::Gen(g) => generate(topo, *g, seed)?.to_partial(),
        PermSource::File(p) => p.clone(),
    })
}

#[derive(serde::Serialize)]
struct SingleReport<'a> {
    topology: &'static str,
    description: String,
    #[serde(flatten)]
    sizes: SizesJson,
    levels: usize,
    n: usize,
    seed: u64,
    perm: &'a str,
    destinations: Vec<Option<usize>>,
    algorithm: &'static str,
    arbiter: &'static str,
    conflict: &'static str,
    connections: usize,
    passes: Vec<&'a [RoutedConnection]>,
    pass_count: usize,
    steps: usize,
    steps_per_pass: Vec<usize>,
    lower_bound: usize,
    lower_bound_witness: &'a str,
    optimal: Option<usize>,
    optimal_kind: &'static str,
    optimal_reason: Option<&'a str>,
    passes_over_lower_bound: f64,
    valid: bool,
    /// R3 only: does R3 route every permutation of this network in one pass (CB-LCAN with
    /// u ≥ d, `wire` model)?
    #[serde(skip_serializing_if = "Option::is_none")]
    one_pass_guaranteed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    crosspoints: Option<Vec<&'a [SwitchCrosspoints]>>,
}

/// Largest network `schedule` routes: it simulates every pass, in time that grows like n²
/// on trees (T(2,1) with n = 16,384: 16 s for R1 in a release build; n = 2²⁰ would take
/// hours).
pub const MAX_SCHEDULE_PES: usize = 16_384;
/// Most trials one `--trials` run accepts.
pub const MAX_TRIALS: u64 = 100_000;

/// Runs `lcanet schedule`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let topo = args.topology.build()?;
    if topo.n() > MAX_SCHEDULE_PES {
        bail!(
            "schedule simulates every pass of the routing: n = {} is above the largest network it \
             routes, n = {MAX_SCHEDULE_PES}",
            topo.n()
        );
    }
    if let Some(t) = args.trials {
        if !(1..=MAX_TRIALS).contains(&t) {
            bail!("--trials must be between 1 and {MAX_TRIALS} (got {t})");
        }
    }
    let source = perm_source(&args.perm, &topo)?;
    let seed = args.seed.resolve();
    let cfg = Config {
        algorithm: match args.algorithm {
            AlgorithmArg::R1 => Algorithm::R1,
            AlgorithmArg::R2 => Algorithm::R2,
            AlgorithmArg::R3 => Algorithm::R3,
        },
        policy: match args.arbiter {
            PolicyArg::Fixed => Policy::Fixed,
            PolicyArg::RoundRobin => Policy::RoundRobin,
            PolicyArg::Random => Policy::Random,
        },
        conflict: match args.conflict {
            ConflictArg::Wire => Conflict::Wire,
            ConflictArg::Switch => Conflict::Switch,
        },
        seed,
    };
    let budget = (args.optimal == OptimalArg::Auto).then_some(args.opt_budget);
    if let Some(trials) = args.trials {
        let PermSource::Gen(gen @ (Generator::Random | Generator::WorstCase)) = source else {
            bail!("--trials needs --perm random or --perm worst-case (each trial draws a new permutation)");
        };
        return trials_run(&args, &topo, gen, cfg, budget, trials);
    }
    let perm = perm_for(&source, &topo, seed)?;
    let ev = evaluate(&topo, &perm, &cfg, budget)?;
    let s = &ev.schedule;
    let report = SingleReport {
        topology: topo.kind().name(),
        description: describe(&topo),
        sizes: SizesJson::of(&topo),
        levels: topo.levels(),
        n: topo.n(),
        seed,
        perm: &args.perm,
        destinations: perm.as_slice().to_vec(),
        algorithm: cfg.algorithm.name(),
        arbiter: cfg.policy.name(),
        conflict: cfg.conflict.name(),
        connections: perm.senders(),
        passes: s.passes.iter().map(|p| p.delivered.as_slice()).collect(),
        pass_count: s.passes.len(),
        steps: s.steps(),
        steps_per_pass: s.passes.iter().map(|p| p.steps).collect(),
        lower_bound: ev.lower_bound.value,
        lower_bound_witness: &ev.lower_bound.witness,
        optimal: ev.optimal,
        optimal_kind: ev.optimal_kind,
        optimal_reason: ev.optimal_reason.as_deref(),
        passes_over_lower_bound: ratio(s.passes.len(), ev.lower_bound.value),
        valid: true,
        one_pass_guaranteed: (cfg.algorithm == Algorithm::R3)
            .then(|| rearrangeable(&topo, cfg.conflict)),
        crosspoints: args
            .crosspoints
            .then(|| s.passes.iter().map(|p| p.crosspoints.as_slice()).collect()),
    };
    if args.json {
        print_json(&report)?;
    } else {
        print_human(&report, &ev);
    }
    Ok(Outcome::Success)
}

fn print_human(r: &SingleReport, ev: &Evaluation) {
    println!("{}", r.description);
    println!(
        "perm {} (seed {}), {} connections; algorithm {}, arbiter {}, conflict {}",
        r.perm, r.seed, r.connections, r.algorithm, r.arbiter, r.conflict
    );
    let offline = r.algorithm == Algorithm::R3.name();
    for (i, pass) in ev.schedule.passes.iter().enumerate() {
        let list: Vec<String> = pass
            .delivered
            .iter()
            .map(|c| format!("{}→{}(h{})", c.src, c.dst, c.lca_level))
            .collect();
        if offline {
            println!(
                "pass {:>3}: set-up off-line (H = {}), {:>3} delivered: {}",
                i + 1,
                pass.top_level,
                pass.delivered.len(),
                list.join(" ")
            );
        } else {
            println!(
                "pass {:>3}: {:>2} steps (H = {}), {:>3} of {} delivered: {}",
                i + 1,
                pass.steps,
                pass.top_level,
                pass.delivered.len(),
                pass.attempted,
                list.join(" ")
            );
        }
        if r.crosspoints.is_some() {
            for sw in &pass.crosspoints {
                let xs: Vec<String> = sw
                    .closed
                    .iter()
                    .map(|(a, b)| format!("{a:?}→{b:?}"))
                    .collect();
                println!(
                    "    level {} switch {} (global {}): {}",
                    sw.level,
                    sw.switch,
                    sw.global,
                    xs.join(" ")
                );
            }
        }
    }
    let setup = if offline {
        "computed off-line".to_string()
    } else {
        r.steps.to_string()
    };
    println!(
        "passes: {}   set-up steps: {setup}   lower bound: {} ({})",
        r.pass_count, r.lower_bound, r.lower_bound_witness
    );
    if r.one_pass_guaranteed == Some(true) {
        println!("R3 on a CB-LCAN with u ≥ d: one pass for every permutation (docs/routing.md §7)");
    }
    match r.optimal {
        Some(o) => println!(
            "optimal: {o} — {}{}",
            r.optimal_kind,
            r.optimal_reason
                .map(|x| format!(" ({x})"))
                .unwrap_or_default()
        ),
        None => println!("optimal: unknown — {}", r.optimal_reason.unwrap_or("")),
    }
    println!("schedule checked by the validator: valid");
}

#[derive(serde::Serialize)]
struct TrialsReport<'a> {
    topology: &'static str,
    description: String,
    #[serde(flatten)]
    sizes: SizesJson,
    levels: usize,
    n: usize,
    seed: u64,
    perm: &'a str,
    algorithm: &'static str,
    arbiter: &'static str,
    conflict: &'static str,
    trial_seed_rule: &'static str,
    #[serde(flatten)]
    summary: Summary,
    /// Wall-clock time of all trials (routing, validation, bounds, optimum).
    elapsed_seconds: f64,
}

fn trials_run(
    args: &Args,
    topo: &Topology,
    gen: Generator,
    cfg: Config,
    budget: Option<u64>,
    trials: u64,
) -> anyhow::Result<Outcome> {
    let bar = crate::cli::common::progress_bar(trials as usize, "trials", trials < 20);
    let start = std::time::Instant::now();
    let summary = run_trials(topo, gen, &cfg, budget, trials, || bar.inc(1))?;
    bar.finish_and_clear();
    let r = TrialsReport {
        topology: topo.kind().name(),
        description: describe(topo),
        sizes: SizesJson::of(topo),
        levels: topo.levels(),
        n: topo.n(),
        seed: cfg.seed,
        perm: &args.perm,
        algorithm: cfg.algorithm.name(),
        arbiter: cfg.policy.name(),
        conflict: cfg.conflict.name(),
        trial_seed_rule:
            "trial i runs alone as --seed derive(seed, \"trial i\"); the worst is worst_trial_seed",
        summary,
        elapsed_seconds: start.elapsed().as_secs_f64(),
    };
    if args.json {
        print_json(&r)?;
        return Ok(Outcome::Success);
    }
    let s = &r.summary;
    println!("{}", r.description);
    println!(
        "{} trials of --perm {} (seed {}), algorithm {}, arbiter {}, conflict {}",
        s.trials, r.perm, r.seed, r.algorithm, r.arbiter, r.conflict
    );
    let line = |name: &str, s: &Stat| {
        println!(
            "{name:<22} mean {:>8.3}   min {:>8.3}   max {:>8.3}",
            s.mean, s.min, s.max
        )
    };
    line("passes", &s.passes);
    line("set-up steps", &s.steps);
    line("lower bound", &s.lower_bound);
    line("passes / lower bound", &s.passes_over_lower_bound);
    match &s.passes_over_optimal {
        Some(o) => {
            line("passes / optimal", o);
            println!(
                "  optimal = {} (known in {} of {} trials)",
                s.optimal_kind, o.count, s.trials
            );
            if let Some(why) = &s.optimal_unknown_example {
                println!("  unknown in {}: {why}", s.optimal_unknown);
            }
        }
        None => println!(
            "passes / optimal       not computed: {}",
            s.optimal_unknown_example.as_deref().unwrap_or("")
        ),
    }
    println!(
        "worst passes/lower-bound trial: --seed {}",
        s.worst_trial_seed
    );
    println!(
        "time: {:.3} s for {} trials ({:.3} ms per trial)",
        r.elapsed_seconds,
        s.trials,
        1e3 * r.elapsed_seconds / s.trials.max(1) as f64
    );
    Ok(Outcome::Success)
}
