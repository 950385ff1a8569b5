//! R3 (issue 14): quality and speed, re-runnable by the team.
//!
//! `cargo run --release -p lcanet-sim --example r3_quality [perms] [seed] [n] [big_n]`
//!
//! 1. Passes ÷ lower bound, mean and max, over `perms` seeded random permutations at
//!    `n` PEs (default 100, seed 1, n = 256) for T(2,1), T(4,2), CB(4,2) and CB(2,2),
//!    R3 next to R1 (round-robin arbiters) on the same permutations; every schedule is
//!    checked by the validator, and R3 ≤ R1 is checked on every permutation.
//! 2. R3 schedule time (routing only, then validation separately) for 5 random
//!    permutations at `big_n` PEs (default 4096) on CB(2,2), CB(4,4), T(2,1), T(4,2).
//!
//! Permutation `i` is `workload::generate(Random, derive(seed, "trial i"))`, as in
//! `lcanet schedule --trials`.

use lcanet_sim::lcan::arbiter::Policy;
use lcanet_sim::lcan::bounds::lower_bound;
use lcanet_sim::lcan::routing::{route, Algorithm, Config, Conflict};
use lcanet_sim::lcan::trials::{trial_seed, Stat};
use lcanet_sim::lcan::validate::validate;
use lcanet_sim::lcan::workload::{generate, Generator};
use lcanet_sim::lcan::{Connection, Size, Topology};
use std::time::Instant;

fn topo(name: &str, d: usize, u: usize, n: usize) -> Topology {
    match name {
        "tree" => Topology::tree(d, u, Size::Pes(n)),
        _ => Topology::complete_bipartite(d, u, Size::Pes(n)),
    }
    .expect("a valid network size")
}

fn cfg(algorithm: Algorithm, seed: u64) -> Config {
    Config {
        algorithm,
        policy: Policy::RoundRobin,
        conflict: Conflict::Wire,
        seed,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let perms: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(256);
    let big: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(4096);
    println!("quality: {perms} random permutations, seed {seed}, n = {n}, wire model");
    println!("network      R3 passes/LB mean   max    R1 passes/LB mean   max    R3 ms/perm");
    for (name, d, u) in [("tree", 2, 1), ("tree", 4, 2), ("cb", 4, 2), ("cb", 2, 2)] {
        let t = topo(name, d, u, n);
        let (mut q3, mut q1) = (Stat::default(), Stat::default());
        let mut ms = 0.0;
        for i in 0..perms {
            let s = trial_seed(seed, i);
            let perm = generate(&t, Generator::Random, s).unwrap().to_partial();
            let conns: Vec<Connection> = perm
                .pairs()
                .map(|(src, dst)| Connection { src, dst })
                .collect();
            let lb = lower_bound(&t, &conns, Conflict::Wire).value;
            let start = Instant::now();
            let r3 = route(&t, &perm, &cfg(Algorithm::R3, s)).unwrap();
            ms += start.elapsed().as_secs_f64() * 1e3;
            let r1 = route(&t, &perm, &cfg(Algorithm::R1, s)).unwrap();
            validate(&t, &perm, &r3.pass_lists(), Conflict::Wire).unwrap();
            validate(&t, &perm, &r1.pass_lists(), Conflict::Wire).unwrap();
            assert!(
                r3.passes.len() <= r1.passes.len(),
                "R3 worse than R1, trial {i}"
            );
            q3.add(r3.passes.len() as f64 / lb as f64);
            q1.add(r1.passes.len() as f64 / lb as f64);
        }
        println!(
            "{:<4}({},{})    {:>10.4} {:>8.4}    {:>10.4} {:>8.4}    {:>8.2}",
            name,
            d,
            u,
            q3.mean,
            q3.max,
            q1.mean,
            q1.max,
            ms / perms as f64
        );
    }
    println!("\nspeed: 5 random permutations (trial seeds of {seed}) at n = {big}");
    println!(
        "network      passes/LB per permutation          R3 route s: mean    max   validate s max"
    );
    for (name, d, u) in [("cb", 2, 2), ("cb", 4, 4), ("tree", 2, 1), ("tree", 4, 2)] {
        let t = topo(name, d, u, big);
        let (mut secs, mut ratios, mut vmax) = (Stat::default(), Vec::new(), 0f64);
        for i in 0..5 {
            let s = trial_seed(seed, i);
            let perm = generate(&t, Generator::Random, s).unwrap().to_partial();
            let conns: Vec<Connection> = perm
                .pairs()
                .map(|(src, dst)| Connection { src, dst })
                .collect();
            let lb = lower_bound(&t, &conns, Conflict::Wire).value;
            let start = Instant::now();
            let r3 = route(&t, &perm, &cfg(Algorithm::R3, s)).unwrap();
            secs.add(start.elapsed().as_secs_f64());
            let start = Instant::now();
            validate(&t, &perm, &r3.pass_lists(), Conflict::Wire).unwrap();
            vmax = vmax.max(start.elapsed().as_secs_f64());
            ratios.push(format!("{}/{}", r3.passes.len(), lb));
        }
        println!(
            "{:<4}({},{})  {:<34} {:>8.3} {:>6.3}   {:>8.3}",
            name,
            d,
            u,
            ratios.join(" "),
            secs.mean,
            secs.max,
            vmax
        );
    }
}
