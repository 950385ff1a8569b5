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
use lcanet_testbench::lca::BuildSpeed;
use lcanet_testbench::lca_net::{ModelKind, NetBench, NetBuild, NetVerdict, PermKind, Stimulus};
use lcanet_testbench::ArtifactDir;
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `lcanet sim network`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Permutation files: one destination per PE in PE order, '-' for a PE \
that sends nothing, '#' comments (as `lcanet schedule`)."
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
    /// How the network becomes a Verilator model (docs/network-rtl.md, "Large networks").
    /// `auto`: `composed` without --vcd; with --vcd, `flat` under 128 switches (every signal
    /// inside the switches in the VCD), else `hierarchical` (their ports only). A composed
    /// model of 512 switches or more is compiled with -Os as if --optimize were given (it
    /// builds only one copy of each block, and runs ~3x faster: shorter end to end).
    #[arg(long, value_enum, default_value_t = ModelArg::Auto)]
    model: ModelArg,
}

/// Composed models of at least this many switches are compiled with -Os: CB-LCAN(2,2)
/// n = 256 (1,024 switches) took 74 s end to end at -O0 and 47 s at -Os, n = 64 (192) 16 s
/// and 23 s (docs/network-rtl.md).
pub const COMPOSED_OPTIMIZE_SWITCHES: usize = 512;

/// The C++ optimization of a `kind` model of `switches` switches when `requested` was asked.
fn build_speed(kind: ModelKind, switches: usize, requested: BuildSpeed) -> BuildSpeed {
    if kind == ModelKind::Composed && switches >= COMPOSED_OPTIMIZE_SWITCHES {
        BuildSpeed::FastSim
    } else {
        requested
    }
}

/// `--model`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ModelArg {
    /// Composed without --vcd; flat (small) or hierarchical (large) with one.
    Auto,
    /// Every instance flattened into one model: full VCDs; slow to build past ~100 switches.
    Flat,
    /// Verilator --hierarchical: switch and PE interface verilated once each; VCD of their ports.
    Hierarchical,
    /// One Verilated model per distinct block, one object per instance, wired by generated
    /// glue: fastest to build and run at large n; no VCD.
    Composed,
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

#[derive(Debug, Serialize)]
struct Report {
    r#match: bool,
    network: String,
    top: String,
    n: usize,
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
    model: &'static str,
    optimized: bool,
    hierarchical_blocks: Vec<String>,
    generate_seconds: f64,
    build_seconds: f64,
    run_seconds: f64,
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
    let dir = ArtifactDir::new(&format!("cli::sim_network::{top}"))
        .context("creating the work directory")?;
    let rtl_dir = dir.file("rtl");
    let speed = args.out.speed();
    let (algorithm, arbiter) = (spec.net.algorithm.name(), spec.policy().to_string());
    let network = describe(&topo);
    if !args.out.json {
        eprintln!("{network}: generating and building the Verilated model (cached by content)…");
    }
    // Tracing costs build time (a lot at large n): only when a VCD is asked for; a mismatch
    // rebuilds the traced variant itself to write its VCD.
    let mut how = NetBuild::auto(&spec, speed, args.out.vcd.is_some());
    how.kind = match args.model {
        ModelArg::Auto => how.kind,
        ModelArg::Flat => ModelKind::Flat,
        ModelArg::Hierarchical => ModelKind::Hierarchical,
        ModelArg::Composed if how.trace => anyhow::bail!(
            "--model composed writes no VCD: drop --vcd, or use --model flat or hierarchical"
        ),
        ModelArg::Composed => ModelKind::Composed,
    };
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
    how.speed = build_speed(how.kind, spec.topo.total_switches(), how.speed);
    let bar = spinner(format!("building the {} model", how.kind.name()));
    let built = NetBench::build_how(spec, &rtl_dir, how);
    bar.finish_and_clear();
    let mut bench = built?;
    let bar = spinner("co-simulating".into());
    let progress_bar = bar.clone();
    bench.set_progress(Box::new(move |t, passes| {
        progress_bar.set_message(format!("co-simulating: bit-time {t}, {passes} passes done"));
    }));
    let gtkw_text = lcanet_hdl::lca_net::network_gtkw(&bench.spec);
    let gtkw = rtl_dir.join(format!("{top}.gtkw"));
    crate::cli::common::write_atomic(&gtkw, gtkw_text.as_bytes())?;
    let failure_vcd = dir.file("failure.vcd");
    let r = bench.run(&stim, args.out.vcd.as_deref(), Some(&failure_vcd), None);
    bar.finish_and_clear();
    let r = r?;
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
        model: bench.kind().name(),
        optimized: how.speed == BuildSpeed::FastSim,
        hierarchical_blocks: bench.hier_blocks().to_vec(),
        generate_seconds: bench.generate_seconds,
        build_seconds: bench.build_seconds,
        run_seconds: r.run_seconds,
        bit_times_per_second: r.simulated as f64 / r.run_seconds.max(1e-9),
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
            "algorithm {}, arbiter {}, seed {seed}, perm {}; {} model{} {}{} in {:.1} s, simulated {} bit-times in {:.2} s ({:.0} bit-times/s, {} values compared)",
            report.algorithm,
            report.arbiter,
            report.perm,
            report.model,
            if report.optimized { " (-Os)" } else { "" },
            report.build,
            if report.hierarchical_blocks.is_empty() {
                String::new()
            } else {
                format!(
                    " (hierarchical: {})",
                    report.hierarchical_blocks.join(", ")
                )
            },
            report.build_seconds,
            report.simulated_bit_times,
            report.run_seconds,
            report.bit_times_per_second,
            report.compared_values
        );
        println!("Verilog: {}", report.rtl_dir.display());
        match &report.vcd {
            Some(v) => {
                println!(
                    "waveforms: gtkwave {} {}",
                    v.display(),
                    report.gtkw.display()
                );
                if !report.hierarchical_blocks.is_empty() {
                    println!(
                        "note: hierarchical build: the VCD holds the switches' and PE \
interfaces' ports, not their insides (--model flat for those, on a small network)"
                    );
                }
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_large_composed_models_are_optimized_without_asking() {
        let (quick, fast) = (BuildSpeed::QuickBuild, BuildSpeed::FastSim);
        let big = COMPOSED_OPTIMIZE_SWITCHES;
        assert_eq!(build_speed(ModelKind::Composed, big, quick), fast);
        assert_eq!(build_speed(ModelKind::Composed, big - 1, quick), quick);
        assert_eq!(build_speed(ModelKind::Hierarchical, big * 4, quick), quick);
        assert_eq!(build_speed(ModelKind::Flat, 8, fast), fast);
    }
}
