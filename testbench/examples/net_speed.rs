//! Co-simulation speed of a whole network in Verilator (this crate's bridge, with every
//! output compared every bit-time) against Icarus running the exported self-checking bench of
//! the same Verilog and stimulus (which also compares every output every bit-time).
//!
//! `cargo run --release -p lcanet-testbench --example net_speed -- [tree|cb] D U LEVELS [SEED]`

use lcanet_hdl::lca_net::NetSpec;
use lcanet_sim::lcan::cycle::network::NetworkModel;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_testbench::lca_net::NetBuild;
use lcanet_testbench::lca_net::{NetBench, PermKind, Stimulus};
use lcanet_testbench::tools::icarus;
use lcanet_testbench::{lca_export, ArtifactDir};
use std::time::Instant;

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, def: usize| a.get(i).map_or(def, |s| s.parse().expect("a number"));
    let (d, u, l) = (num(1, 2), num(2, 2), num(3, 5));
    let seed = num(4, 1) as u64;
    let topo = match a.first().map(String::as_str) {
        Some("tree") => Topology::tree(d, u, Size::Levels(l)),
        _ => Topology::complete_bipartite(d, u, Size::Levels(l)),
    }
    .expect("a valid network");
    let m = 8;
    let spec = NetSpec::new(topo.clone(), Algorithm::R1, ArbiterPolicy::RoundRobin, 1, m)
        .expect("valid parameters");
    let top = spec.network_name();
    let dir = ArtifactDir::new(&format!("examples::net_speed::{top}")).expect("artifact dir");
    let rtl = dir.file("rtl");
    let bench = NetBench::build(spec, &rtl, NetBuild::quick()).expect("build");
    println!(
        "{top}: n = {}, generated in {:.2} s, Verilator build {:.1} s ({:?})",
        topo.n(),
        bench.generate_seconds,
        bench.build_seconds,
        bench.cache()
    );
    let stim = Stimulus::new(&topo, &PermKind::Random, m, seed).expect("stimulus");
    let r = bench.run(&stim, None, None, None).expect("run");
    assert!(r.matched(), "{}", r.failure_text());
    let v_rate = r.simulated as f64 / r.run_seconds;
    println!(
        "Verilator: {} bit-times ({} passes) in {:.3} s = {:.0} bit-times/s, {} values compared",
        r.simulated, r.passes, r.run_seconds, v_rate, r.compared_values
    );
    let mut model = NetworkModel::new(
        &topo,
        &bench.spec.net,
        &stim.destinations(),
        &stim.messages,
        seed,
    )
    .expect("model");
    let t0 = Instant::now();
    let rec = lca_export::record(&mut model, &top, 3, 100_000_000).expect("record");
    let record_s = t0.elapsed().as_secs_f64();
    let list = std::fs::read_to_string(rtl.join(format!("{top}.f"))).expect("file list");
    let files: Vec<_> = list.lines().map(|f| rtl.join(f)).collect();
    let tb = lca_export::write(&rec, &dir.file("tb"), &files).expect("write bench");
    let mut all = vec![tb.testbench.clone()];
    all.extend(files.iter().cloned());
    let t1 = Instant::now();
    let compiled = icarus::compile(&all, &tb.module, &tb.dir.join("tb.vvp")).expect("iverilog");
    let compile_s = t1.elapsed().as_secs_f64();
    let t2 = Instant::now();
    let out = icarus::run(&compiled, &tb.dir).expect("vvp");
    let run_s = t2.elapsed().as_secs_f64();
    let passed = out.stdout.contains("PASS");
    let i_rate = rec.bit_times_recorded as f64 / run_s;
    println!(
        "Icarus: {} bit-times in {:.3} s = {:.0} bit-times/s (compile {:.1} s, model recording {:.2} s), bench says {}",
        rec.bit_times_recorded,
        run_s,
        i_rate,
        compile_s,
        record_s,
        if passed { "PASS" } else { out.stdout.trim() }
    );
    println!("Verilator / Icarus speed ratio: {:.1}", v_rate / i_rate);
}
