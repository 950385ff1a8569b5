//! Bit-times per permutation against n, R1 and R2, from the network golden model (which the
//! RTL matches bit-time by bit-time): random permutations, round-robin arbiters, W = 1, M = 8.
//!
//! `cargo run --release -p lcanet-testbench --example net_bit_times -- [tree|cb] D U MAXLEVELS [SEEDS]`

use lcanet_hdl::lca_net::NetSpec;
use lcanet_sim::lcan::cycle::network::NetworkModel;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_testbench::lca_net::{PermKind, Stimulus};
use std::time::Instant;

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, def: usize| a.get(i).map_or(def, |s| s.parse().expect("a number"));
    let (d, u, max_l, seeds) = (num(1, 2), num(2, 2), num(3, 6), num(4, 3) as u64);
    let tree = a.first().map(String::as_str) == Some("tree");
    println!("kind d u l n alg seeds mean_passes mean_bit_times min max model_seconds");
    for l in 2..=max_l {
        let topo = if tree {
            Topology::tree(d, u, Size::Levels(l))
        } else {
            Topology::complete_bipartite(d, u, Size::Levels(l))
        }
        .expect("a valid network");
        for alg in [Algorithm::R1, Algorithm::R2] {
            let spec = NetSpec::new(topo.clone(), alg, ArbiterPolicy::RoundRobin, 1, 8).unwrap();
            let (mut bits, mut passes) = (Vec::new(), 0usize);
            let t0 = Instant::now();
            for seed in 1..=seeds {
                let stim = Stimulus::new(&topo, &PermKind::Random, 8, seed).unwrap();
                let mut m =
                    NetworkModel::new(&topo, &spec.net, &stim.destinations(), &stim.messages, seed)
                        .unwrap();
                let run = m.run_to_done(1 << 40).unwrap();
                bits.push(run.bit_times);
                passes += run.passes.len();
            }
            println!(
                "{} {d} {u} {l} {} {} {seeds} {:.2} {:.0} {} {} {:.1}",
                if tree { "tree" } else { "cb" },
                topo.n(),
                alg.name(),
                passes as f64 / seeds as f64,
                bits.iter().sum::<u64>() as f64 / seeds as f64,
                bits.iter().min().unwrap(),
                bits.iter().max().unwrap(),
                t0.elapsed().as_secs_f64()
            );
        }
    }
}
