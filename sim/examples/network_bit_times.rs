//! Bit-times per permutation of the network golden model vs n, R1 and R2, and the model's
//! speed (bit-times per second). `cargo run --release -p lcanet-sim --example
//! network_bit_times [perms] [seed] [cb|tree] [levels,…]`.

use lcanet_sim::lcan::cycle::network::{NetParams, NetworkModel};
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_sim::perm::Permutation;
use lcanet_sim::rng::seeded;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let perms: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let only: Option<&str> = args.get(3).map(String::as_str);
    let levels: Vec<usize> = args
        .get(4)
        .map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![4, 6, 8, 10]);
    println!("perms={perms} seed={seed} W=1 M=8 policy=random");
    println!("topology n alg mean_passes mean_bit_times min max switches model_bit_times_per_s");
    for (name, d, u) in [("cb", 2, 2), ("tree", 2, 1)] {
        if only.is_some_and(|o| o != name) {
            continue;
        }
        for &l in &levels {
            let topo = if name == "cb" {
                Topology::complete_bipartite(d, u, Size::Levels(l)).unwrap()
            } else {
                Topology::tree(d, u, Size::Levels(l)).unwrap()
            };
            let n = topo.n();
            for alg in [Algorithm::R1, Algorithm::R2] {
                let np = NetParams::new(&topo, alg, ArbiterPolicy::Random, 1, 8).unwrap();
                let mut rng = seeded(seed);
                let (mut bt, mut passes, mut min, mut max) = (0u64, 0usize, u64::MAX, 0u64);
                let mut steps = 0u64;
                let t0 = Instant::now();
                for k in 0..perms {
                    let p = Permutation::random(n, &mut rng);
                    let dst: Vec<Option<usize>> = p.as_slice().iter().map(|&d| Some(d)).collect();
                    let msg: Vec<u64> = (0..n as u64).map(|i| i & 0xFF).collect();
                    let mut m = NetworkModel::new(&topo, &np, &dst, &msg, seed + k as u64).unwrap();
                    let run = m.run_to_done(u64::MAX).unwrap();
                    assert!(!run.error);
                    bt += run.bit_times;
                    min = min.min(run.bit_times);
                    max = max.max(run.bit_times);
                    passes += run.passes.len();
                    steps += m.bit_time();
                }
                let secs = t0.elapsed().as_secs_f64();
                println!(
                    "{name}(d={d},u={u}) {n} {} {:.2} {:.1} {min} {max} {} {:.0}",
                    alg.name(),
                    passes as f64 / perms as f64,
                    bt as f64 / perms as f64,
                    topo.total_switches(),
                    steps as f64 / secs
                );
            }
        }
    }
}
