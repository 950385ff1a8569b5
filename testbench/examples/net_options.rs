//! Verilator and g++ options for one network, side by side (same Verilog, same stimulus,
//! every output and crosspoint compared): cold build time (fresh model cache; the Verilator
//! runtime library stays cached), C++ bytes, bit-times per second, and where the loop's
//! time goes (RTL, golden model, comparison). Peak memory: run under `/usr/bin/time -v`
//! with one variant.
//!
//! `cargo run --release -p lcanet-testbench --example net_options -- [tree|cb] D U LEVELS
//! [SEED] [VARIANTS]`, VARIANTS a comma list of `O1`, `O3`, optionally with `+trace`,
//! `+noinline` (`-fno-inline`), `+share` (`NetBuild::SHARE_ARGS`, `-fno-gate -fno-dfg
//! -fno-table`: no optimization across instance boundaries, so every switch instance shares
//! one copy of the switch's code), `+sharegd` (`-fno-gate -fno-dfg` only),
//! `+split` (`--output-split 20000`), `+t2` (two threads, `NetBuild::threads`), e.g.
//! `O1,O1+share,O3+share`. Every variant keeps the switches and the PE module out of line
//! (`model_options`).

use lcanet_hdl::lca_net::NetSpec;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_testbench::bridge::Optimize;
use lcanet_testbench::lca_net::{NetBench, NetBuild, PermKind, Stimulus};
use lcanet_testbench::ArtifactDir;

fn variant(v: &str) -> NetBuild {
    let mut parts = v.split('+');
    let optimize = match parts.next() {
        Some("O3") => Optimize::Fast,
        _ => Optimize::Quick,
    };
    let mut how = NetBuild {
        optimize,
        trace: false,
        fst: false,
        extra_args: Vec::new(),
        threads: 1,
    };
    for p in parts {
        match p {
            "trace" => how.trace = true,
            "fst" => (how.trace, how.fst) = (true, true),
            "noinline" => how.extra_args.push("-fno-inline".into()),
            "share" => how
                .extra_args
                .extend(NetBuild::SHARE_ARGS.map(String::from)),
            "sharegd" => how
                .extra_args
                .extend(["-fno-gate".into(), "-fno-dfg".into()]),
            "split" => how
                .extra_args
                .extend(["--output-split".into(), "20000".into()]),
            "t2" => how.threads = 2,
            other => panic!("unknown variant part `{other}`"),
        }
    }
    how
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, def: usize| a.get(i).map_or(def, |s| s.parse().expect("a number"));
    let (d, u, l) = (num(1, 2), num(2, 2), num(3, 3));
    let seed = num(4, 1) as u64;
    let variants = a.get(5).map_or("O1,O1+noinline", String::as_str);
    let topo = match a.first().map(String::as_str) {
        Some("tree") => Topology::tree(d, u, Size::Levels(l)),
        _ => Topology::complete_bipartite(d, u, Size::Levels(l)),
    }
    .expect("a valid network");
    let spec = NetSpec::new(topo.clone(), Algorithm::R1, ArbiterPolicy::RoundRobin, 1, 8)
        .expect("valid parameters");
    let stim = Stimulus::new(&topo, &PermKind::Random, 8, seed).expect("a stimulus");
    println!(
        "network n={} switches={} R1 rr W=1 M=8 random permutation seed {seed}",
        topo.n(),
        topo.total_switches()
    );
    println!(
        "variant build_s verilate_s cpp_bytes bit_times bt_per_s rtl_us golden_us compare_us (per bit-time)"
    );
    for v in variants.split(',') {
        let how = variant(v);
        let dir = ArtifactDir::new(&format!("net_options::n{}::{v}", topo.n()))
            .expect("a work directory");
        let root = dir.file("models");
        let _ = std::fs::remove_dir_all(&root);
        let vcd = how.trace.then(|| dir.file("run.vcd"));
        let bench = NetBench::build_at(spec.clone(), &dir.file("rtl"), how, Some(&root))
            .expect("the network builds");
        let r = bench
            .run(&stim, vcd.as_deref(), None, None)
            .expect("the run completes");
        assert!(r.matched(), "{v}: {}", r.failure_text());
        let t = r.timing;
        let per = |s: f64| 1e6 * s / r.simulated.max(1) as f64;
        println!(
            "{v} {:.1} {:.1} {} {} {:.0} {:.1} {:.1} {:.1}",
            bench.build_seconds,
            bench.info.manifest.verilate_seconds,
            bench.info.manifest.cpp_bytes,
            r.simulated,
            r.bit_times_per_second(),
            per(t.rtl),
            per(t.golden),
            per(t.compare)
        );
    }
}
