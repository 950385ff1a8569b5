//! `lcanet sim network`: one permutation routed by the emitted network in Verilator,
//! compared every bit-time with the network golden model (`docs/interface.md` §8).

use crate::cli::common::{print_json, CosimArgs, SeedArg};
use crate::cli::generate::network::NetArgs;
use crate::cli::topology_args::describe;
use crate::cli::Outcome;
use anyhow::Context;
use lcanet_sim::lcan::bounds::lower_bound;
use lcanet_sim::lcan::routing::Conflict;
use lcanet_sim::lcan::Connection;
use lcanet_sim::perm::PartialPermutation;
use lcanet_testbench::bridge::CacheOutcome;
use lcanet_testbench::lca_net::{NetBench, NetBuild, NetVerdict, PermKind, Stimulus};
use lcanet_testbench::ArtifactDir;
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `lcanet sim network`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Switch sizes may vary by level: --topology cb --d 4,4,2 --u 2,2,2, or \
the networks of 002 §2.2: --topology fat-tree --levels L, cm5 --n 4^l, trac, baseline \
(docs/conventions.md).\n\
Permutation files: one destination per PE in PE order, '-' for a PE \
that sends nothing, '#' comments (as `lcanet schedule`).\n\
Models are compiled with g++ -O1 ($LCANET_QUICK_OPT sets another level) unless --optimize asks \
for -O3 (docs/network-rtl.md, \
\"Large networks\"). A failing run without --vcd is repeated on a \
traced build and keeps that VCD."
)]
pub struct Args {
    #[command(flatten)]
    net: NetArgs,
    /// Connections: `random`, `identity`, `worst-case` (002's set), or a FILE.
    #[arg(long, default_value = "random")]
    perm: String,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    out: CosimArgs,
    #[command(flatten)]
    threads: super::ThreadsArg,
    /// Write an FST waveform here instead of a VCD (Verilator's FST tracing: a fraction of
    /// the VCD's size for large runs; GTKWave reads it natively; docs/testbench.md).
    #[arg(long, value_name = "FILE", conflicts_with = "vcd")]
    fst: Option<PathBuf>,
}

/// The first difference, for JSON.
#[derive(Debug, Serialize)]
struct Failure {
    kind: &'static str,
    bit_time: Option<u64>,
    signal: Option<String>,
    expected: Option<String>,
    actual: Option<String>,
    what: String,
    vcd: Option<PathBuf>,
}

/// Where the co-simulation's time went, seconds (for `lcanet bench cosim`).
#[derive(Debug, Serialize)]
struct Seconds {
    generate: f64,
    build: f64,
    verilate: f64,
    run: f64,
    rtl: f64,
    golden: f64,
    compare: f64,
}

#[derive(Debug, Serialize)]
struct Report {
    r#match: bool,
    network: String,
    top: String,
    n: usize,
    switches: usize,
    structure: &'static str,
    algorithm: &'static str,
    arbiter: String,
    seed: u64,
    perm: String,
    connections: usize,
    passes: u64,
    bit_times: u64,
    lower_bound: usize,
    lower_bound_witness: String,
    delivered_per_pass: Vec<usize>,
    top_levels: Vec<usize>,
    simulated_bit_times: u64,
    compared_values: u64,
    rtl_dir: PathBuf,
    gtkw: PathBuf,
    vcd: Option<PathBuf>,
    build: &'static str,
    optimize: &'static str,
    /// Threads of the Verilated model (`--threads`).
    threads: usize,
    verilog_bytes: usize,
    cpp_bytes: u64,
    seconds: Seconds,
    bit_times_per_second: f64,
    failure: Option<Failure>,
}

fn perm_kind(spec: &str, n: usize) -> anyhow::Result<PermKind> {
    Ok(match spec {
        "random" => PermKind::Random,
        "identity" => PermKind::Identity,
        "worst-case" => PermKind::WorstCase,
        path => {
            let text = std::fs::read_to_string(path).with_context(|| {
                format!("reading the permutation file {path} (--perm is random, identity, worst-case or a FILE)")
            })?;
            PermKind::Given(
                PartialPermutation::parse(&text, n)
                    .with_context(|| format!("in the permutation file {path}"))?,
            )
        }
    })
}

/// Runs `lcanet sim network`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let spec = args.net.spec()?;
    let topo = spec.topo.clone();
    let kind = perm_kind(&args.perm, topo.n())?;
    let seed = args.seed.resolve();
    let stim = Stimulus::new(&topo, &kind, spec.net.msg_bits, seed).map_err(anyhow::Error::msg)?;
    let conns: Vec<Connection> = stim
        .perm
        .pairs()
        .map(|(src, dst)| Connection { src, dst })
        .collect();
    let lb = lower_bound(&topo, &conns, Conflict::Wire);
    let top = spec.network_name();
    let dir = ArtifactDir::for_run(&format!("cli::sim_network::{top}"))
        .context("creating the work directory")?;
    let rtl_dir = dir.file("rtl");
    let algorithm = spec.net.algorithm.name();
    // R3 has no arbiter (docs/interface.md §11).
    let arbiter = if spec.net.algorithm == lcanet_sim::lcan::routing::Algorithm::R3 {
        "none".to_string()
    } else {
        spec.policy().to_string()
    };
    let network = describe(&topo);
    if !args.out.json {
        eprintln!("{network}: generating and building the Verilated model (cached by content)…");
    }
    // Tracing costs build time: only when a VCD is asked for; a mismatch rebuilds the traced
    // variant itself to write its VCD.
    let waves = args.out.vcd.as_ref().or(args.fst.as_ref());
    let mut how = NetBuild::auto(waves.is_some());
    how.fst = args.fst.is_some();
    how.threads = args.threads.get();
    if args.out.optimize {
        how.optimize = args.out.speed();
    }
    let spinner = |msg: String| {
        let bar = if args.out.json {
            indicatif::ProgressBar::hidden()
        } else {
            indicatif::ProgressBar::new_spinner()
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} [{elapsed}] {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar.set_message(msg);
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        bar
    };
    let bar = spinner("building the Verilated model".into());
    let built = NetBench::build(spec, &rtl_dir, how);
    bar.finish_and_clear();
    let mut bench = built?;
    let bar = spinner("co-simulating".into());
    let progress_bar = bar.clone();
    bench.set_progress(Box::new(move |t, passes| {
        progress_bar.set_message(format!("co-simulating: bit-time {t}, {passes} passes done"));
    }));
    let files = lcanet_hdl::lca_net::network_gtkw(&bench.spec);
    let failure_vcd = dir.file("failure.vcd");
    let r = bench.run(&stim, waves.map(PathBuf::as_path), Some(&failure_vcd), None);
    bar.finish_and_clear();
    let r = r?;
    // Opens on the whole run, or its first pass when it is long, the first mismatch
    // marked; beside the VCD like every other `sim … --vcd` (or the failure's VCD), else
    // in the work directory.
    let first_pass = r
        .top_levels
        .first()
        .map(|&h| bench.spec.net.total_bit_times(&[h]) as u64);
    let mut view = lcanet_hdl::gtkw::View::run(r.simulated, first_pass);
    if let NetVerdict::Mismatch(m) = &r.verdict {
        view = view.with_mismatch(m.bit_time);
    }
    let files = files.viewing(view);
    let kept_vcd = match &r.verdict {
        NetVerdict::Mismatch(m) => m.vcd.clone(),
        _ => None,
    };
    let gtkw = match waves.or(kept_vcd.as_ref()) {
        Some(vcd) => files.write_beside(vcd),
        None => files.write_to(&rtl_dir, &top, None),
    }
    .context("writing the GTKWave files")?;
    let failure = match &r.verdict {
        NetVerdict::Match => None,
        NetVerdict::Mismatch(m) => Some(Failure {
            kind: "mismatch",
            bit_time: Some(m.bit_time),
            signal: Some(m.signal.clone()),
            expected: Some(m.expected.clone()),
            actual: Some(m.actual.clone()),
            what: m.to_string(),
            vcd: m.vcd.clone(),
        }),
        NetVerdict::Check { what, vcd, .. } => Some(Failure {
            kind: "check",
            bit_time: None,
            signal: None,
            expected: None,
            actual: None,
            what: r.failure_text().lines().next().unwrap_or(what).to_string(),
            vcd: vcd.clone(),
        }),
    };
    let report = Report {
        r#match: r.matched(),
        network,
        top,
        n: topo.n(),
        switches: topo.total_switches(),
        structure: bench.spec.structure.name(),
        algorithm,
        arbiter,
        seed,
        perm: args.perm.clone(),
        connections: conns.len(),
        passes: r.passes,
        bit_times: r.bit_times,
        lower_bound: lb.value,
        lower_bound_witness: lb.witness,
        delivered_per_pass: r.delivered_per_pass.clone(),
        top_levels: r.top_levels.clone(),
        simulated_bit_times: r.simulated,
        compared_values: r.compared_values,
        rtl_dir,
        gtkw,
        vcd: r.vcd.clone(),
        build: match bench.cache() {
            CacheOutcome::Hit => "cached",
            CacheOutcome::Built => "built",
        },
        optimize: bench.how().optimize.cxx_flag()?,
        threads: bench.how().threads,
        verilog_bytes: bench.verilog_bytes,
        cpp_bytes: bench.info.manifest.cpp_bytes,
        seconds: Seconds {
            generate: bench.generate_seconds,
            build: bench.build_seconds,
            verilate: bench.info.manifest.verilate_seconds,
            run: r.run_seconds,
            rtl: r.timing.rtl,
            golden: r.timing.golden,
            compare: r.timing.compare,
        },
        bit_times_per_second: r.bit_times_per_second(),
        failure,
    };
    if args.out.json {
        print_json(&report)?;
    } else {
        println!(
            "{}: {} — {} connections, {} passes (lower bound {}), {} bit-times",
            if report.r#match { "match" } else { "MISMATCH" },
            report.network,
            report.connections,
            report.passes,
            report.lower_bound,
            report.bit_times
        );
        println!(
            "algorithm {}, arbiter {}, seed {seed}, perm {}; model {} ({}, {} thread{}) in {:.1} s; \
simulated {} bit-times in {:.2} s ({:.0} bit-times/s, {} values compared)",
            report.algorithm,
            report.arbiter,
            report.perm,
            report.build,
            report.optimize,
            report.threads,
            if report.threads == 1 { "" } else { "s" },
            report.seconds.build,
            report.simulated_bit_times,
            report.seconds.run,
            report.bit_times_per_second,
            report.compared_values
        );
        println!(
            "time: RTL {:.2} s, golden model {:.2} s, comparison {:.2} s",
            report.seconds.rtl, report.seconds.golden, report.seconds.compare
        );
        println!("Verilog: {}", report.rtl_dir.display());
        match &report.vcd {
            Some(v) => println!(
                "waveforms: gtkwave {} {}",
                v.display(),
                report.gtkw.display()
            ),
            None => println!(
                "GTKWave save file: {} (add --vcd FILE for waveforms)",
                report.gtkw.display()
            ),
        }
        if let Some(f) = &report.failure {
            println!("{}", f.what);
        }
    }
    Ok(if report.r#match {
        Outcome::Success
    } else {
        Outcome::Mismatch
    })
}
