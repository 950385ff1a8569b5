//! R3 in hardware vs R1 in hardware (`docs/interface.md` §11): bit-times per permutation
//! from the network golden model (the co-simulation checks the RTL against it bit-time by
//! bit-time), on the same seeded random permutations; every run checked against the
//! permutation (each connection delivered once, its message intact).
//! `cargo run --release -p lcanet-sim --example r3hw_bit_times [perms] [seed]`.

use lcanet_sim::lcan::cycle::network::{seeded_messages, NetParams, NetworkModel};
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_sim::perm::Permutation;
use lcanet_sim::rng::seeded;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let perms: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    println!("perms={perms} seed={seed} W=1 M=8; R1 round-robin");
    println!("network n alg passes(mean) bit_times(mean min max) model_seconds");
    let nets = [
        (
            "CB(2,2)",
            Topology::complete_bipartite(2, 2, Size::Levels(4)).unwrap(),
        ),
        (
            "CB(2,2)",
            Topology::complete_bipartite(2, 2, Size::Levels(6)).unwrap(),
        ),
        (
            "CB(2,2)",
            Topology::complete_bipartite(2, 2, Size::Levels(8)).unwrap(),
        ),
        (
            "CB(2,2)",
            Topology::complete_bipartite(2, 2, Size::Levels(10)).unwrap(),
        ),
        ("T(2,1)", Topology::tree(2, 1, Size::Levels(8)).unwrap()),
        ("T(4,2)", Topology::tree(4, 2, Size::Levels(7)).unwrap()),
    ];
    for (name, topo) in &nets {
        let n = topo.n();
        for alg in [Algorithm::R1, Algorithm::R3] {
            let np = NetParams::new(topo, alg, ArbiterPolicy::RoundRobin, 1, 8).unwrap();
            let mut rng = seeded(seed);
            let (mut sum, mut min, mut max, mut passes) = (0u64, u64::MAX, 0u64, 0usize);
            let t0 = Instant::now();
            for k in 0..perms {
                let p = Permutation::random(n, &mut rng);
                let dst: Vec<Option<usize>> = p.as_slice().iter().map(|&d| Some(d)).collect();
                let run_seed = seed + k as u64;
                let msg = seeded_messages(n, 8, run_seed);
                let mut m = NetworkModel::new(topo, &np, &dst, &msg, run_seed).unwrap();
                let run = m.run_to_done(u64::MAX).unwrap();
                assert!(!run.error, "{name} n={n} {alg:?} perm {k}");
                let mut seen = vec![0; n];
                for pass in &run.passes {
                    for &(s, t) in &pass.delivered {
                        assert_eq!(Some(t), dst[s]);
                        assert_eq!(run.received[t], (true, msg[s]));
                        seen[s] += 1;
                    }
                }
                assert!(
                    seen.iter().all(|&c| c == 1),
                    "{name} n={n} {alg:?} perm {k}"
                );
                sum += run.bit_times;
                min = min.min(run.bit_times);
                max = max.max(run.bit_times);
                passes += run.passes.len();
            }
            println!(
                "{name} {n} {} {:.2} {:.1} {min} {max} {:.2}",
                alg.name(),
                passes as f64 / perms as f64,
                sum as f64 / perms as f64,
                t0.elapsed().as_secs_f64()
            );
        }
    }
}
