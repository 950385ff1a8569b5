//! Bit-times per permutation against n, R1 and R2, from the network golden model (which the
//! RTL matches bit-time by bit-time): random permutations, round-robin arbiters, W = 1, M = 8.
//!
//! `cargo run --release -p lcanet-testbench --example net_bit_times -- [tree|cb] D U MAXLEVELS [SEEDS]`
//! or `… -- file PI_FILE [SEEDS]` for one Π network.

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
    let kind = a.first().map_or("cb", String::as_str);
    let file = (kind == "file").then(|| {
        let text = std::fs::read_to_string(a.get(1).expect("a Π file")).expect("readable");
        Topology::from_pi_text(&text).expect("a valid Π file")
    });
    let (d, u, max_l, seeds) = match &file {
        Some(t) => (t.d_at(0), t.u_at(0), t.levels(), num(2, 3) as u64),
        None => (num(1, 2), num(2, 2), num(3, 6), num(4, 3) as u64),
    };
    println!("kind d u l n alg seeds mean_passes mean_bit_times min max model_seconds");
    let first = if file.is_some() { max_l } else { 2 };
    for l in first..=max_l {
        let topo = match (&file, kind) {
            (Some(t), _) => Ok(t.clone()),
            (None, "tree") => Topology::tree(d, u, Size::Levels(l)),
            _ => Topology::complete_bipartite(d, u, Size::Levels(l)),
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
                kind,
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
