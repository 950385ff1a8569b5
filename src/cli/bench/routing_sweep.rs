//! The sweep of `lcanet bench routing`: networks × algorithms × workloads × samples, run
//! with the golden models on worker threads, summarized into one [`Record`] per
//! (network, algorithm, workload).
//!
//! Every sample is evaluated as `lcanet schedule` does ([`evaluate`]: route with
//! `routing::route`, check the schedule with the independent validator, the lower bound of
//! docs/routing.md §6 and, for `n ≤ 32`, the exact optimum), then priced in bit-times from
//! the protocol ([`super::routing_bits`]). Sample `i` of workload `w` uses the seed
//! [`sample_seed`]`(seed, w, i)` = `derive(seed, "<w> <i>")` for its permutation and its
//! arbiters, the same for every network and algorithm, so `lcanet schedule --perm <w>
//! --seed <that seed>` reruns it alone. Results are gathered by job index and summarized in
//! sample order: the output does not depend on the number of threads.

use super::routing_bits::{bit_time_bound, bit_times};
use crate::cli::common::thread_pool;
use anyhow::Context;
use lcanet_sim::lcan::arbiter::Policy;
use lcanet_sim::lcan::cycle::network::NetParams;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SetupMode};
use lcanet_sim::lcan::evaluate::evaluate;
use lcanet_sim::lcan::optimal::MAX_OPTIMAL_PES;
use lcanet_sim::lcan::routing::{Algorithm, Config, Conflict};
use lcanet_sim::lcan::trials::{ratio, Stat};
use lcanet_sim::lcan::workload::{generate, Generator};
use lcanet_sim::lcan::{Kind, Size, Topology};
use lcanet_sim::perm::Permutation;
use lcanet_sim::rng::derive;
use rayon::prelude::*;
use serde::Serialize;

/// Every algorithm the sweep runs, in plot order. Adding an algorithm is one line here
/// (its name comes from `Algorithm::name`, its bit-times from `NetParams::pass_len`; an
/// algorithm the network hardware does not run yet, whose `NetParams::new` fails where
/// R1's succeeds, is swept for passes with its bit-times reported unavailable, and why).
pub const ALGORITHMS: &[Algorithm] = &Algorithm::ALL;

/// A connection set of the sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Workload {
    /// Uniformly random permutations.
    #[serde(rename = "random")]
    Random,
    /// Every PE sends to itself.
    #[serde(rename = "identity")]
    Identity,
    /// The transpose of the `r × c` row-major matrix of PEs ([`Permutation::transpose`]).
    #[serde(rename = "transpose")]
    Transpose,
    /// 002 §3.3's "worst-case" set: every connection at LCA level `l − 1`.
    #[serde(rename = "worst-case")]
    WorstCase,
}

impl Workload {
    /// The JSON name, also the tag of its sample seeds.
    pub fn name(self) -> &'static str {
        match self {
            Workload::Random => "random",
            Workload::Identity => "identity",
            Workload::Transpose => "transpose",
            Workload::WorstCase => "worst-case",
        }
    }
}

/// The seed of sample `i` of workload `w` in a sweep started from `seed`.
pub fn sample_seed(seed: u64, w: Workload, i: usize) -> u64 {
    derive(seed, &format!("{} {i}", w.name()))
}

/// One network of the sweep with its name.
#[derive(Debug, Clone)]
pub struct Net {
    /// The topology.
    pub topo: Topology,
    /// Short name: `T(2,1)`, `CB(4,2)`.
    pub short: String,
}

/// The sizes a topology family has in `[n_min, n_max]`, as networks.
pub fn nets_in_range(
    kind: Kind,
    d: usize,
    u: usize,
    n_min: usize,
    n_max: usize,
) -> anyhow::Result<Vec<Net>> {
    let (name, short) = match kind {
        Kind::Tree => ("T-LCAN", "T"),
        _ => ("CB-LCAN", "CB"),
    };
    if kind == Kind::Tree && (u == 0 || !d.is_multiple_of(u) || d == u) {
        anyhow::bail!(
            "--du {d}:{u}: a T-LCAN needs u to divide d and d > u (002 Definition 2; with d = u its size cannot grow)"
        );
    }
    let mut out = Vec::new();
    let mut last_n = 0;
    for l in 1.. {
        let n = match kind {
            Kind::Tree => (d / u)
                .checked_pow(l as u32 - 1)
                .and_then(|k| k.checked_mul(d)),
            _ => d.checked_pow(l as u32),
        };
        let Some(n) = n.filter(|&n| n <= n_max) else {
            break;
        };
        if n <= last_n {
            break;
        }
        last_n = n;
        if n >= n_min {
            let topo = match kind {
                Kind::Tree => Topology::tree(d, u, Size::Levels(l)),
                _ => Topology::complete_bipartite(d, u, Size::Levels(l)),
            }
            .with_context(|| format!("{name}(d={d}, u={u}) with l = {l} (n = {n})"))?;
            out.push(Net {
                topo,
                short: format!("{short}({d},{u})"),
            });
        }
    }
    if out.is_empty() {
        anyhow::bail!(
            "{name}(d={d}, u={u}) has no size in --n-min {n_min} .. --n-max {n_max} (its sizes are {})",
            match kind {
                Kind::Tree => format!("n = {d}·{}^(l-1)", d / u),
                _ => format!("n = {d}^l"),
            }
        );
    }
    Ok(out)
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The networks, in output order.
    pub nets: Vec<Net>,
    /// The algorithms, in plot order.
    pub algorithms: Vec<Algorithm>,
    /// Workloads and their sample counts.
    pub workloads: Vec<(Workload, usize)>,
    /// Arbiter policy of every switch.
    pub policy: Policy,
    /// Message bits `M` of the bit-time figures.
    pub msg_bits: usize,
    /// Link width `W` of the bit-time figures.
    pub width: usize,
    /// Node budget of the exact optimum (`None`: not computed).
    pub opt_budget: Option<u64>,
    /// The sweep's seed.
    pub seed: u64,
    /// Set-up arbitration of the R1/R2 hardware the bit-times are priced with
    /// (`docs/protocol.md` §13; R3 has no set-up steps).
    pub setup: SetupMode,
}

/// The hardware-parameter policy of a routing policy.
pub fn arbiter_policy(p: Policy) -> ArbiterPolicy {
    match p {
        Policy::Fixed => ArbiterPolicy::Fixed,
        Policy::RoundRobin => ArbiterPolicy::RoundRobin,
        Policy::Random => ArbiterPolicy::Random,
    }
}

/// The hardware parameters of one (network, algorithm), or why that algorithm has none.
pub type Hw = Result<NetParams, String>;

impl Plan {
    /// The hardware parameters of every (network, algorithm), which the bit-time figures
    /// need. Parameters that fail for R1 (message bits, width, a network too large for
    /// the switch's counters) are an error; an algorithm whose parameters fail where R1's
    /// hold has no hardware yet, and gets the reason instead.
    pub fn net_params(&self) -> anyhow::Result<Vec<Vec<Hw>>> {
        let policy = arbiter_policy(self.policy);
        self.nets
            .iter()
            .map(|net| {
                NetParams::new(&net.topo, Algorithm::R1, policy, self.width, self.msg_bits)
                    .with_context(|| {
                        format!(
                            "bit-times of {} n = {}: the network's hardware parameters",
                            net.short,
                            net.topo.n()
                        )
                    })?;
                Ok(self
                    .algorithms
                    .iter()
                    .map(|&alg| {
                        let np = NetParams::new(&net.topo, alg, policy, self.width, self.msg_bits)
                            .map_err(|e| e.to_string())?;
                        if alg == Algorithm::R3 {
                            Ok(np)
                        } else {
                            np.with_setup(self.setup).map_err(|e| e.to_string())
                        }
                    })
                    .collect())
            })
            .collect()
    }

    /// Number of samples (routings) of the sweep.
    pub fn samples(&self) -> usize {
        let per: usize = self.workloads.iter().map(|w| w.1).sum();
        self.nets.len() * self.algorithms.len() * per
    }
}

/// One routing's figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    passes: usize,
    lower_bound: usize,
    steps: usize,
    /// Total, set-up and bound bit-times (`None`: the algorithm has no hardware).
    bits: Option<(u64, u64, u64)>,
    optimal: Option<usize>,
    seed: u64,
}

/// The summary of one (network, algorithm, workload): a JSON line of `routing.jsonl`.
#[derive(Debug, Clone, Serialize)]
pub struct Record {
    /// `tree` or `cb`.
    pub topology: &'static str,
    /// Short name, `T(2,1)`.
    pub network: String,
    /// Downers.
    pub d: usize,
    /// Uppers.
    pub u: usize,
    /// Levels.
    pub levels: usize,
    /// PEs.
    pub n: usize,
    /// `r1`, `r2`, …
    pub algorithm: &'static str,
    /// Arbiter policy.
    pub arbiter: &'static str,
    /// `random`, `identity`, `transpose`, `worst-case`.
    pub workload: &'static str,
    /// Permutations routed.
    pub samples: u64,
    /// Passes per permutation.
    pub passes: Stat,
    /// Lower bound (docs/routing.md §6).
    pub lower_bound: Stat,
    /// Passes ÷ lower bound.
    pub passes_over_lower_bound: Stat,
    /// Passes ÷ exact optimum, over the samples where it is known (`n ≤ 32`).
    pub passes_over_optimal: Option<Stat>,
    /// The exact optimum, over the same samples.
    pub optimal: Option<Stat>,
    /// Samples whose optimum is known.
    pub optimal_known: u64,
    /// Set-up steps per permutation (`Σ 2H + 2`).
    pub setup_steps: Stat,
    /// Bit-times per permutation (`LOAD` to `DONE`, docs/interface.md §4); `None` when
    /// the algorithm has no hardware yet (`bit_times_unavailable` says why).
    pub bit_times: Option<Stat>,
    /// Of which in set-up steps.
    pub setup_bit_times: Option<Stat>,
    /// The protocol's lower bound on bit-times given the pass lower bound
    /// (`routing_bits::bit_time_bound`).
    pub bit_time_bound: Option<Stat>,
    /// Why there are no bit-times (`None` when there are).
    pub bit_times_unavailable: Option<String>,
    /// Message bits of the bit-time figures.
    pub message_bits: usize,
    /// Link width of the bit-time figures.
    pub width: usize,
    /// `fast` when R1/R2 are priced with the fast set-up (absent: sequential).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<&'static str>,
    /// The sweep seed.
    pub seed: u64,
    /// Seed of the sample with the largest passes ÷ lower bound (rerun it with
    /// `lcanet schedule --perm <workload> --seed <it>`; transpose: a permutation file).
    pub worst_sample_seed: u64,
}

#[derive(Debug, Clone, Copy)]
struct Job {
    net: usize,
    alg: usize,
    workload: usize,
    sample: usize,
}

fn run_one(plan: &Plan, hw: &Hw, job: &Job) -> anyhow::Result<Sample> {
    let net = &plan.nets[job.net];
    let topo = &net.topo;
    let (w, _) = plan.workloads[job.workload];
    let seed = sample_seed(plan.seed, w, job.sample);
    let perm = match w {
        Workload::Random => generate(topo, Generator::Random, seed)?,
        Workload::Identity => generate(topo, Generator::Identity, seed)?,
        Workload::WorstCase => generate(topo, Generator::WorstCase, seed)?,
        Workload::Transpose => Permutation::transpose(topo.n()),
    }
    .to_partial();
    let algorithm = plan.algorithms[job.alg];
    let cfg = Config {
        algorithm,
        policy: plan.policy,
        conflict: Conflict::Wire,
        seed,
    };
    let budget = plan.opt_budget.filter(|_| topo.n() <= MAX_OPTIMAL_PES);
    let ev = evaluate(topo, &perm, &cfg, budget)?;
    let tops: Vec<usize> = ev.schedule.passes.iter().map(|p| p.top_level).collect();
    let lb = ev.lower_bound.value;
    let h_max = (0..topo.n())
        .filter_map(|s| perm.dst(s).map(|t| topo.lca_level(s, t)))
        .max()
        .unwrap_or(0);
    let bits = hw.as_ref().ok().map(|np| {
        let bt = bit_times(np, &tops);
        (bt.total, bt.setup, bit_time_bound(np, h_max, lb))
    });
    Ok(Sample {
        passes: tops.len(),
        lower_bound: lb,
        steps: ev.schedule.steps(),
        bits,
        optimal: ev.optimal,
        seed,
    })
}

/// Runs the plan on `threads` worker threads, calling `tick` after each sample, and
/// returns the records in plan order (networks, then algorithms, then workloads).
pub fn run(plan: &Plan, threads: usize, tick: &(dyn Fn() + Sync)) -> anyhow::Result<Vec<Record>> {
    run_with(plan, &plan.net_params()?, threads, tick)
}

/// [`run`] with the hardware parameters given (one row per network, one entry per
/// algorithm).
fn run_with(
    plan: &Plan,
    nps: &[Vec<Hw>],
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> anyhow::Result<Vec<Record>> {
    let mut jobs = Vec::with_capacity(plan.samples());
    for net in 0..plan.nets.len() {
        for alg in 0..plan.algorithms.len() {
            for (workload, &(_, count)) in plan.workloads.iter().enumerate() {
                for sample in 0..count {
                    jobs.push(Job {
                        net,
                        alg,
                        workload,
                        sample,
                    });
                }
            }
        }
    }
    // Largest networks first, so that no thread is left with a long job at the end.
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| std::cmp::Reverse(plan.nets[jobs[j].net].topo.n()));
    // Each sample a task of its own (`with_max_len(1)`): idle threads steal single
    // samples, as from one queue; the first error stops the rest.
    let done: Vec<(usize, Sample)> = thread_pool(threads)?.install(|| {
        order
            .par_iter()
            .with_max_len(1)
            .map(|&j| {
                let job = &jobs[j];
                let r = run_one(plan, &nps[job.net][job.alg], job).map_err(|e| {
                    let net = &plan.nets[job.net];
                    let (w, _) = plan.workloads[job.workload];
                    e.context(format!(
                        "{} n = {}, {}, {} sample {} (--seed {})",
                        net.short,
                        net.topo.n(),
                        plan.algorithms[job.alg].name(),
                        w.name(),
                        job.sample,
                        sample_seed(plan.seed, w, job.sample)
                    ))
                });
                tick();
                r.map(|r| (j, r))
            })
            .collect::<anyhow::Result<_>>()
    })?;
    let mut results: Vec<Option<Sample>> = vec![None; jobs.len()];
    for (j, r) in done {
        results[j] = Some(r);
    }
    let mut records = Vec::new();
    let mut it = jobs.iter().zip(results);
    for (ni, net) in plan.nets.iter().enumerate() {
        for (ai, &alg) in plan.algorithms.iter().enumerate() {
            for &(w, count) in &plan.workloads {
                let mut r = Record {
                    topology: net.topo.kind().name(),
                    network: net.short.clone(),
                    // The bench's networks have one switch size for every level.
                    d: net.topo.d_at(0),
                    u: net.topo.u_at(0),
                    levels: net.topo.levels(),
                    n: net.topo.n(),
                    algorithm: alg.name(),
                    arbiter: plan.policy.name(),
                    workload: w.name(),
                    samples: count as u64,
                    passes: Stat::default(),
                    lower_bound: Stat::default(),
                    passes_over_lower_bound: Stat::default(),
                    passes_over_optimal: None,
                    optimal: None,
                    optimal_known: 0,
                    setup_steps: Stat::default(),
                    bit_times: None,
                    setup_bit_times: None,
                    bit_time_bound: None,
                    bit_times_unavailable: nps[ni][ai].as_ref().err().cloned(),
                    message_bits: plan.msg_bits,
                    width: plan.width,
                    setup: (plan.setup != SetupMode::Sequential && alg != Algorithm::R3)
                        .then_some("fast"),
                    seed: plan.seed,
                    worst_sample_seed: 0,
                };
                let (mut opt_ratio, mut opt) = (Stat::default(), Stat::default());
                let mut bits = [Stat::default(), Stat::default(), Stat::default()];
                let mut worst = f64::MIN;
                for _ in 0..count {
                    let (job, s) = it
                        .next()
                        .context("internal error: fewer results than jobs")?;
                    debug_assert_eq!(job.net, ni);
                    let s =
                        s.with_context(|| format!("internal error: job {job:?} has no result"))?;
                    let q = ratio(s.passes, s.lower_bound);
                    if q > worst {
                        worst = q;
                        r.worst_sample_seed = s.seed;
                    }
                    r.passes.add(s.passes as f64);
                    r.lower_bound.add(s.lower_bound as f64);
                    r.passes_over_lower_bound.add(q);
                    r.setup_steps.add(s.steps as f64);
                    if let Some((total, setup, bound)) = s.bits {
                        bits[0].add(total as f64);
                        bits[1].add(setup as f64);
                        bits[2].add(bound as f64);
                    }
                    if let Some(o) = s.optimal {
                        opt_ratio.add(ratio(s.passes, o));
                        opt.add(o as f64);
                    }
                }
                if bits[0].count > 0 {
                    let [a, b, c] = bits;
                    (r.bit_times, r.setup_bit_times, r.bit_time_bound) =
                        (Some(a), Some(b), Some(c));
                }
                r.optimal_known = opt.count;
                if opt.count > 0 {
                    r.passes_over_optimal = Some(opt_ratio);
                    r.optimal = Some(opt);
                }
                records.push(r);
            }
        }
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn sizes_in_range_and_bad_families() {
        let ns = |k, d, u, a, b| -> Vec<usize> {
            nets_in_range(k, d, u, a, b)
                .unwrap()
                .iter()
                .map(|n| n.topo.n())
                .collect()
        };
        assert_eq!(ns(Kind::Tree, 2, 1, 16, 128), vec![16, 32, 64, 128]);
        assert_eq!(ns(Kind::Tree, 4, 2, 16, 64), vec![16, 32, 64]);
        assert_eq!(
            ns(Kind::CompleteBipartite, 4, 4, 16, 4096),
            vec![16, 64, 256, 1024, 4096]
        );
        assert_eq!(
            nets_in_range(Kind::Tree, 4, 1, 16, 16).unwrap()[0].short,
            "T(4,1)"
        );
        let e = nets_in_range(Kind::Tree, 3, 2, 16, 64)
            .unwrap_err()
            .to_string();
        assert!(e.contains("u to divide d"), "{e}");
        let e = nets_in_range(Kind::Tree, 2, 2, 16, 64)
            .unwrap_err()
            .to_string();
        assert!(e.contains("d > u"), "{e}");
        let e = nets_in_range(Kind::CompleteBipartite, 4, 2, 17, 63)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no size in --n-min 17 .. --n-max 63 (its sizes are n = 4^l)"),
            "{e}"
        );
    }

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        let plan = Plan {
            nets: nets_in_range(Kind::CompleteBipartite, 2, 2, 8, 16)
                .unwrap()
                .into_iter()
                .chain(nets_in_range(Kind::Tree, 4, 2, 8, 16).unwrap())
                .collect(),
            algorithms: ALGORITHMS.to_vec(),
            workloads: vec![
                (Workload::Random, 3),
                (Workload::Identity, 1),
                (Workload::Transpose, 1),
                (Workload::WorstCase, 2),
            ],
            policy: Policy::Random,
            msg_bits: 8,
            width: 1,
            opt_budget: Some(100_000),
            setup: SetupMode::Sequential,
            seed: 42,
        };
        let ticks = AtomicUsize::new(0);
        let tick = || {
            ticks.fetch_add(1, Ordering::Relaxed);
        };
        let one = run(&plan, 1, &tick).unwrap();
        let three = run(&plan, 3, &tick).unwrap();
        assert_eq!(ticks.load(Ordering::Relaxed), 2 * plan.samples());
        let json = |r: &[Record]| serde_json::to_string(r).unwrap();
        assert_eq!(json(&one), json(&three));
        assert_eq!(one.len(), 4 * ALGORITHMS.len() * 4);
        for r in &one {
            assert!(r.passes.min >= r.lower_bound.min && r.passes_over_lower_bound.min >= 1.0);
            match (&r.bit_times, &r.bit_time_bound) {
                (Some(bt), Some(bound)) => {
                    assert!(bt.min >= bound.min, "{r:?}");
                    assert!(r.bit_times_unavailable.is_none());
                }
                // An algorithm added to ALGORITHMS before its hardware exists.
                _ => assert!(
                    r.algorithm != "r1" && r.algorithm != "r2" && r.bit_times_unavailable.is_some()
                ),
            }
            assert_eq!(r.optimal_known, r.samples, "n ≤ 32: optimum known");
            if r.workload == "identity" {
                assert_eq!(r.passes.max, 1.0);
            }
        }
    }

    #[test]
    fn an_algorithm_without_hardware_is_swept_without_bit_times_and_says_why() {
        let plan = Plan {
            nets: nets_in_range(Kind::Tree, 2, 1, 8, 8).unwrap(),
            algorithms: vec![Algorithm::R1, Algorithm::R2],
            workloads: vec![(Workload::Random, 2)],
            policy: Policy::RoundRobin,
            msg_bits: 8,
            width: 1,
            opt_budget: None,
            seed: 3,
            setup: SetupMode::Sequential,
        };
        let mut nps = plan.net_params().unwrap();
        assert!(nps[0].iter().all(|h| h.is_ok()));
        nps[0][1] = Err("algorithm r2: no hardware (test)".into());
        let recs = run_with(&plan, &nps, 2, &|| {}).unwrap();
        assert_eq!(recs.len(), 2);
        assert!(recs[0].bit_times.is_some() && recs[0].bit_times_unavailable.is_none());
        assert!(recs[1].bit_times.is_none() && recs[1].setup_bit_times.is_none());
        assert_eq!(
            recs[1].bit_times_unavailable.as_deref(),
            Some("algorithm r2: no hardware (test)")
        );
        assert_eq!(recs[1].passes.count, 2, "passes are still measured");
        let json = serde_json::to_value(&recs[1]).unwrap();
        assert!(json["bit_times"].is_null());
        // Parameters that fail for R1 are an error, not a gap.
        let bad = Plan {
            msg_bits: 0,
            ..plan
        };
        let e = format!("{:#}", bad.net_params().unwrap_err());
        assert!(e.contains("message bits = 0"), "{e}");
    }

    #[test]
    fn the_fast_set_up_keeps_the_passes_and_shortens_the_bit_times() {
        let plan = |setup| Plan {
            nets: nets_in_range(Kind::CompleteBipartite, 2, 2, 16, 16).unwrap(),
            algorithms: vec![Algorithm::R1, Algorithm::R2, Algorithm::R3],
            workloads: vec![(Workload::Random, 3)],
            policy: Policy::RoundRobin,
            msg_bits: 8,
            width: 1,
            opt_budget: None,
            seed: 5,
            setup,
        };
        let (slow, fast) = (plan(SetupMode::Sequential), plan(SetupMode::Fast));
        let a = run_with(&slow, &slow.net_params().unwrap(), 1, &|| {}).unwrap();
        let b = run_with(&fast, &fast.net_params().unwrap(), 1, &|| {}).unwrap();
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.passes.mean, y.passes.mean, "{}", x.algorithm);
            let (bx, by) = (x.bit_times.as_ref().unwrap(), y.bit_times.as_ref().unwrap());
            if x.algorithm == "r3" {
                // R3 has no set-up steps: the option does not apply.
                assert_eq!(bx.mean, by.mean);
                assert_eq!(y.setup, None);
            } else {
                assert!(
                    by.mean < bx.mean,
                    "{}: {} vs {}",
                    x.algorithm,
                    by.mean,
                    bx.mean
                );
                assert_eq!((x.setup, y.setup), (None, Some("fast")));
            }
        }
    }
}
