//! Schedule time of R1, R2 and R3 at large n, with digests of the schedules (issue 14's
//! "R3 ≤ 1 s at n = 4096"; the speed-ups of the step models must not change any
//! schedule, so the digests must stay those of the code before them).
//!
//! `cargo run --release -p lcanet-sim --example routing_speed [key=value …]`
//!
//! Keys (defaults): `n=4096`, `seed=1`, `random=10` random permutations, `worst=9`
//! samples of 002's worst-case set, plus the transpose-like permutation (20 in all);
//! `algs=r1,r2,r3`; `nets=T21,T42,T41,CB22,CB42,CB44`. Sample `i` of workload `w` uses
//! seed `derive(seed, "<w> <i>")` for its permutation and arbiters, as `lcanet bench
//! routing` does (round-robin arbiters, `wire` model). Every schedule is checked by the
//! validator, and R3 ≤ R1 on every permutation when both run. Per network and algorithm
//! it prints the mean and max routing time (CPU time of the routing thread, read from
//! `/proc/thread-self/schedstat`, so that a shared machine does not inflate it; wall time
//! where that is unavailable; validation excluded), the max wall time, passes ÷ lower bound
//! (mean, max), and the combined digest of the schedules ([`Schedule::digest`]);
//! `verbose=1` also prints each permutation's time and passes.

use lcanet_sim::lcan::arbiter::Policy;
use lcanet_sim::lcan::bounds::lower_bound;
use lcanet_sim::lcan::routing::{route, Algorithm, Config, Conflict, Schedule};
use lcanet_sim::lcan::trials::Stat;
use lcanet_sim::lcan::validate::validate;
use lcanet_sim::lcan::workload::{generate, Generator};
use lcanet_sim::lcan::{Connection, Size, Topology};
use lcanet_sim::perm::{PartialPermutation, Permutation};
use lcanet_sim::rng::{derive, splitmix64};
use std::time::Instant;

/// CPU time of this thread in seconds (Linux `/proc/thread-self/schedstat`), so that the
/// figures do not depend on what else the machine runs; `None` where unavailable.
fn cpu_secs() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns * 1e-9)
}

fn network(name: &str, n: usize) -> Topology {
    let (tree, d, u) = match name {
        "T21" => (true, 2, 1),
        "T42" => (true, 4, 2),
        "T41" => (true, 4, 1),
        "CB22" => (false, 2, 2),
        "CB42" => (false, 4, 2),
        "CB44" => (false, 4, 4),
        _ => panic!("unknown network {name} (T21, T42, T41, CB22, CB42, CB44)"),
    };
    if tree {
        Topology::tree(d, u, Size::Pes(n))
    } else {
        Topology::complete_bipartite(d, u, Size::Pes(n))
    }
    .unwrap_or_else(|e| panic!("{name} with n = {n}: {e}"))
}

/// The sample: (label, seed, permutation).
fn sample(
    t: &Topology,
    seed: u64,
    random: usize,
    worst: usize,
) -> Vec<(String, u64, PartialPermutation)> {
    let mut out = Vec::new();
    for i in 0..random {
        let s = derive(seed, &format!("random {i}"));
        out.push((
            format!("random {i}"),
            s,
            generate(t, Generator::Random, s).unwrap().to_partial(),
        ));
    }
    for i in 0..worst {
        let s = derive(seed, &format!("worst-case {i}"));
        out.push((
            format!("worst-case {i}"),
            s,
            generate(t, Generator::WorstCase, s).unwrap().to_partial(),
        ));
    }
    let s = derive(seed, "transpose 0");
    out.push((
        "transpose".into(),
        s,
        Permutation::transpose(t.n()).to_partial(),
    ));
    out
}

fn main() {
    let mut n = 4096;
    let mut seed = 1u64;
    let (mut random, mut worst) = (10, 9);
    let mut verbose = false;
    let mut algs = vec![Algorithm::R1, Algorithm::R2, Algorithm::R3];
    let mut nets: Vec<String> = ["T21", "T42", "T41", "CB22", "CB42", "CB44"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for a in std::env::args().skip(1) {
        let (k, v) = a.split_once('=').expect("arguments are key=value");
        match k {
            "n" => n = v.parse().expect("n"),
            "seed" => seed = v.parse().expect("seed"),
            "random" => random = v.parse().expect("random"),
            "worst" => worst = v.parse().expect("worst"),
            "algs" => {
                algs = v
                    .split(',')
                    .map(|a| match a {
                        "r1" => Algorithm::R1,
                        "r2" => Algorithm::R2,
                        "r3" => Algorithm::R3,
                        _ => panic!("unknown algorithm {a}"),
                    })
                    .collect()
            }
            "verbose" => verbose = v == "1",
            "nets" => nets = v.split(',').map(str::to_string).collect(),
            _ => panic!("unknown key {k}"),
        }
    }
    println!(
        "n = {n}, seed {seed}: {random} random + {worst} worst-case + transpose, round-robin, wire"
    );
    println!(
        "route s: CPU time of the routing thread{} (wall max in brackets)",
        if cpu_secs().is_some() {
            ""
        } else {
            " (unavailable here: wall time)"
        }
    );
    println!("network  alg  route s: mean    max  (wall)  passes/LB: mean    max   digest");
    for name in &nets {
        let t = network(name, n);
        let perms = sample(&t, seed, random, worst);
        let lbs: Vec<usize> = perms
            .iter()
            .map(|(_, _, p)| {
                let conns: Vec<Connection> = p
                    .pairs()
                    .map(|(src, dst)| Connection { src, dst })
                    .collect();
                lower_bound(&t, &conns, Conflict::Wire).value
            })
            .collect();
        let mut r1_passes: Option<Vec<usize>> = None;
        for &alg in &algs {
            let (mut secs, mut wall) = (Stat::default(), Stat::default());
            let (mut ratio, mut digest) = (Stat::default(), 0u64);
            let mut passes = Vec::new();
            for ((label, s, perm), &lb) in perms.iter().zip(&lbs) {
                let cfg = Config {
                    algorithm: alg,
                    policy: Policy::RoundRobin,
                    conflict: Conflict::Wire,
                    seed: *s,
                };
                let (start, cpu) = (Instant::now(), cpu_secs());
                let sched: Schedule = route(&t, perm, &cfg).unwrap();
                let wall_s = start.elapsed().as_secs_f64();
                let took = match (cpu, cpu_secs()) {
                    (Some(a), Some(b)) => b - a,
                    _ => wall_s,
                };
                secs.add(took);
                wall.add(wall_s);
                if verbose {
                    println!(
                        "  {name} {} {label}: {took:.3} s CPU ({wall_s:.3} s wall), {} passes, lower bound {lb}",
                        alg.name(),
                        sched.passes.len()
                    );
                }
                validate(&t, perm, &sched.pass_lists(), Conflict::Wire)
                    .unwrap_or_else(|e| panic!("{name} {} {label}: {e}", alg.name()));
                ratio.add(sched.passes.len() as f64 / lb as f64);
                passes.push(sched.passes.len());
                digest = splitmix64(digest ^ sched.digest());
            }
            if alg == Algorithm::R1 {
                r1_passes = Some(passes.clone());
            }
            if let (Algorithm::R3, Some(r1)) = (alg, &r1_passes) {
                for (i, (a, b)) in passes.iter().zip(r1).enumerate() {
                    assert!(a <= b, "{name}: R3 {a} passes > R1 {b} on {}", perms[i].0);
                }
            }
            println!(
                "{:<8} {:<4} {:>13.3} {:>6.3} ({:>5.3}) {:>16.4} {:>6.4}   {:016x}",
                name,
                alg.name(),
                secs.mean,
                secs.max,
                wall.max,
                ratio.mean,
                ratio.max,
                digest
            );
        }
    }
}
