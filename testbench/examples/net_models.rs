//! Flat, hierarchical and composed Verilator models of one network, side by side in one run
//! (same Verilog, same stimulus, every output compared every bit-time): build time, run time,
//! bit-times per second, and the ratios to the composed model. Builds are cold: a fresh
//! cache directory (the Verilator runtime library is built first, by a tiny network, so that
//! no kind pays for it).
//!
//! `cargo run --release -p lcanet-testbench --example net_models -- [tree|cb] D U LEVELS
//! [SEED] [KINDS]`, KINDS a comma list of `flat`, `hierarchical`, `composed` (default all).

use lcanet_hdl::lca_net::NetSpec;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_testbench::lca::BuildSpeed;
use lcanet_testbench::lca_net::{ModelKind, NetBench, NetBuild, PermKind, Stimulus};
use lcanet_testbench::ArtifactDir;

fn build(topo: &Topology, dir: &ArtifactDir, kind: ModelKind) -> NetBench {
    let spec = NetSpec::new(topo.clone(), Algorithm::R1, ArbiterPolicy::RoundRobin, 1, 8)
        .expect("valid parameters");
    let how = NetBuild {
        speed: BuildSpeed::QuickBuild,
        trace: false,
        kind,
    };
    NetBench::build_how(spec, &dir.file(&format!("rtl_{}", kind.name())), how).expect("build")
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, def: usize| a.get(i).map_or(def, |s| s.parse().expect("a number"));
    let (d, u, l) = (num(1, 2), num(2, 2), num(3, 5));
    let seed = num(4, 1) as u64;
    let kinds: Vec<ModelKind> = a
        .get(5)
        .map_or("flat,hierarchical,composed", String::as_str)
        .split(',')
        .map(|k| match k {
            "flat" => ModelKind::Flat,
            "hierarchical" => ModelKind::Hierarchical,
            "composed" => ModelKind::Composed,
            other => panic!("unknown model kind {other:?}"),
        })
        .collect();
    let make = |l| match a.first().map(String::as_str) {
        Some("tree") => Topology::tree(d, u, Size::Levels(l)),
        _ => Topology::complete_bipartite(d, u, Size::Levels(l)),
    };
    let topo = make(l).expect("a valid network");
    let dir = ArtifactDir::new(&format!("examples::net_models::{d}_{u}_{l}")).expect("dir");
    // A fresh cache: every build below is cold. SAFETY: single-threaded, before any build.
    unsafe { std::env::set_var("LCANET_CACHE_DIR", dir.file("cache")) };
    build(&make(1).expect("l = 1"), &dir, ModelKind::Composed);
    let stim = Stimulus::new(&topo, &PermKind::Random, 8, seed).expect("stimulus");
    println!(
        "{} switches, n = {}, R1, round-robin, seed {seed}, -O0, untraced, cold builds",
        topo.total_switches(),
        topo.n()
    );
    println!("| model | build s | run s | bit-times | bit-times/s | values compared | match |");
    println!("|---|---:|---:|---:|---:|---:|---|");
    let mut rows = Vec::new();
    for kind in kinds {
        let bench = build(&topo, &dir, kind);
        let r = bench.run(&stim, None, None, None).expect("run");
        let rate = r.simulated as f64 / r.run_seconds;
        println!(
            "| {} | {:.1} | {:.1} | {} | {:.0} | {} | {} |",
            kind.name(),
            bench.build_seconds,
            r.run_seconds,
            r.simulated,
            rate,
            r.compared_values,
            r.matched()
        );
        rows.push((kind, bench.build_seconds, rate));
    }
    if let Some(&(_, cb, cr)) = rows.iter().find(|r| r.0 == ModelKind::Composed) {
        for (kind, b, r) in rows.iter().filter(|r| r.0 != ModelKind::Composed) {
            println!(
                "{}: builds {:.1}x slower, runs {:.1}x slower than composed",
                kind.name(),
                b / cb,
                cr / r
            );
        }
    }
}
