//! `lcanet bench cosim`: where a co-simulation's time and memory go, measured in one run:
//! generating the Verilog, a cold Verilator build (into a fresh cache directory; the
//! Verilator runtime library is reused, as on any machine after the first build), the full
//! co-simulation (every output every bit-time, every crosspoint after each set-up), the
//! golden model alone and the Verilated model alone on the same stimulus — and the ratios:
//! co-simulation over bare Verilator, the golden model's and the comparison's share of the
//! loop. Peak memory: of the build (the largest tool process) and of this process (the
//! co-simulation itself).

use crate::cli::common::{print_json, rusage, SeedArg};
use crate::cli::generate::network::NetArgs;
use crate::cli::sim::hypercube::AlgArg;
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_sim::hypercube::generate::{random_payloads, random_semi_contraction};
use lcanet_sim::hypercube::timing::Algorithm;
use lcanet_sim::perm::Permutation;
use lcanet_sim::rng::{derive, seeded};
use lcanet_testbench::bridge::Optimize;
use lcanet_testbench::hypercube::alone as cube_alone;
use lcanet_testbench::hypercube::cosim::{cosim, emit_cube, CosimOptions};
use lcanet_testbench::lca_net::{NetBench, NetBuild, PermKind, Stimulus, Timed};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `lcanet bench cosim`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The network (as `sim network`); ignored with --k.
    #[command(flatten)]
    net: NetArgs,
    /// Measure the hypercube router of dimension k instead (2^k nodes, 1 <= k <= 12).
    #[arg(long)]
    k: Option<usize>,
    /// Hypercube payload bits.
    #[arg(long, default_value_t = 8)]
    payload_bits: usize,
    /// Hypercube algorithm: `full` (Algorithm 2, a random permutation) or `semi`
    /// (Algorithm 1, a random semi-contraction).
    #[arg(long, value_enum, default_value = "full")]
    cube_algorithm: AlgArg,
    /// Seed of the random stimulus.
    #[command(flatten)]
    seed: SeedArg,
    /// Compile the model with g++ -O3 instead of -O1.
    #[arg(long)]
    optimize: bool,
    #[command(flatten)]
    threads: crate::cli::sim::ThreadsArg,
    /// Build with tracing and write a VCD during the co-simulation (into the work
    /// directory), as `sim … --vcd` does.
    #[arg(long)]
    vcd: bool,
    /// Networks: also co-simulate writing a VCD and writing an FST (each traced model
    /// built cold), and report the files' bytes and speeds beside the untraced run.
    #[arg(long, conflicts_with = "k")]
    waves: bool,
    /// Where the Verilog and the cold cache go (default: a new temporary directory,
    /// removed afterwards).
    #[arg(long)]
    work_dir: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// Peak resident memory, megabytes.
#[derive(Debug, Serialize)]
struct Memory {
    /// The largest process of the build (Verilator or the C++ compiler).
    build_mb: f64,
    /// This process: generation, the loaded model, the golden model, the co-simulation.
    cosim_mb: f64,
}

#[derive(Debug, Serialize)]
struct Rate {
    bit_times: u64,
    seconds: f64,
    bit_times_per_second: f64,
}

impl From<Timed> for Rate {
    fn from(t: Timed) -> Self {
        Rate {
            bit_times: t.bit_times,
            seconds: t.seconds,
            bit_times_per_second: t.rate(),
        }
    }
}

#[derive(Debug, Serialize)]
struct Report {
    design: String,
    top: String,
    seed: u64,
    matched: bool,
    generate_seconds: f64,
    verilog_bytes: usize,
    build_seconds: f64,
    verilate_seconds: f64,
    cpp_bytes: u64,
    optimize: &'static str,
    /// Threads of the Verilated model (`--threads`).
    threads: usize,
    /// The model was built with tracing and the co-simulation wrote a VCD.
    vcd: bool,
    memory: Memory,
    cosim: Rate,
    /// For networks: seconds of the co-simulation loop in the RTL, the golden model and the
    /// comparison.
    cosim_split: Option<[f64; 3]>,
    golden_alone: Rate,
    verilator_alone: Rate,
    /// Co-simulation speed over bare Verilator speed.
    cosim_over_verilator: f64,
    /// Share of the co-simulation loop spent outside Verilator (golden model and
    /// comparison), from the loop's own split when there is one.
    golden_and_compare_share: f64,
    /// With `--waves`: the co-simulation writing a VCD, then an FST.
    waves: Vec<super::cosim_waves::WaveRate>,
}

/// Runs `lcanet bench cosim`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let seed = args.seed.resolve();
    let tmp;
    let work = match &args.work_dir {
        Some(d) => d.clone(),
        None => {
            tmp = tempfile::tempdir().context("creating a temporary directory")?;
            tmp.path().to_path_buf()
        }
    };
    let optimize = if args.optimize {
        Optimize::Fast
    } else {
        Optimize::Quick
    };
    let report = match args.k {
        Some(k) => cube(&args, k, seed, &work, optimize)?,
        None => network(&args, seed, &work, optimize)?,
    };
    if args.json {
        print_json(&report)?;
    } else {
        print_text(&report);
    }
    Ok(if report.matched {
        Outcome::Success
    } else {
        Outcome::Mismatch
    })
}

/// The shortest measured time: short runs are repeated until together they take this long
/// (at most [`MAX_REPEATS`] times), and their average is reported.
const MIN_SECONDS: f64 = 0.5;
/// Repetitions at most.
const MAX_REPEATS: u32 = 10_000;

/// `f` repeated until the runs take [`MIN_SECONDS`] together: the last run's result and the
/// average of the timings.
pub(super) fn repeated<T>(
    mut f: impl FnMut() -> anyhow::Result<(T, Timed)>,
) -> anyhow::Result<(T, Timed)> {
    let (mut last, first) = f()?;
    let (mut seconds, mut runs) = (first.seconds, 1u32);
    while seconds < MIN_SECONDS && runs < MAX_REPEATS {
        let (r, t) = f()?;
        last = r;
        seconds += t.seconds;
        runs += 1;
    }
    Ok((
        last,
        Timed {
            bit_times: first.bit_times,
            seconds: seconds / f64::from(runs),
        },
    ))
}

fn peak_mb(who: i32) -> f64 {
    rusage(who).ru_maxrss as f64 / 1024.0
}

fn memory() -> Memory {
    Memory {
        build_mb: peak_mb(libc::RUSAGE_CHILDREN),
        cosim_mb: peak_mb(libc::RUSAGE_SELF),
    }
}

fn network(
    args: &Args,
    seed: u64,
    work: &std::path::Path,
    optimize: Optimize,
) -> anyhow::Result<Report> {
    let spec = args.net.spec()?;
    let topo = spec.topo.clone();
    let m = spec.net.msg_bits;
    let how = NetBuild {
        optimize,
        threads: args.threads.get(),
        ..NetBuild::auto(args.vcd)
    };
    let vcd = args.vcd.then(|| work.join("cosim.vcd"));
    let bench = NetBench::build_at(spec, &work.join("rtl"), how, Some(&work.join("cache")))
        .context("building the network")?;
    let stim = Stimulus::new(&topo, &PermKind::Random, m, seed).map_err(anyhow::Error::msg)?;
    let (r, cosim) = repeated(|| {
        let r = bench.run(&stim, vcd.as_deref(), None, None)?;
        let t = Timed {
            bit_times: r.simulated,
            seconds: r.timing.total,
        };
        Ok((r, t))
    })?;
    let (_, golden) = repeated(|| Ok(((), bench.golden_alone(&stim, r.simulated)?)))?;
    let (_, bare) = repeated(|| Ok(((), bench.verilator_alone(&stim, r.simulated)?)))?;
    let loop_total = (r.timing.rtl + r.timing.golden + r.timing.compare).max(1e-12);
    let manifest = &bench.info.manifest;
    let waves = if args.waves {
        super::cosim_waves::measure(&bench.spec, &stim, work, optimize, cosim.rate())?
    } else {
        Vec::new()
    };
    Ok(Report {
        design: format!(
            "{} ({} switches as {})",
            crate::cli::topology_args::describe(&topo),
            topo.total_switches(),
            bench.spec.structure.name()
        ),
        top: bench.top.clone(),
        seed,
        matched: r.matched(),
        generate_seconds: bench.generate_seconds,
        verilog_bytes: bench.verilog_bytes,
        build_seconds: bench.build_seconds,
        verilate_seconds: manifest.verilate_seconds,
        cpp_bytes: manifest.cpp_bytes,
        optimize: optimize.cxx_flag()?,
        threads: args.threads.get(),
        vcd: args.vcd,
        memory: memory(),
        cosim_over_verilator: cosim.rate() / bare.rate(),
        golden_and_compare_share: (r.timing.golden + r.timing.compare) / loop_total,
        cosim_split: Some([r.timing.rtl, r.timing.golden, r.timing.compare]),
        waves,
        cosim: cosim.into(),
        golden_alone: golden.into(),
        verilator_alone: bare.into(),
    })
}

fn cube(
    args: &Args,
    k: usize,
    seed: u64,
    work: &std::path::Path,
    optimize: Optimize,
) -> anyhow::Result<Report> {
    let l = args.payload_bits;
    let params = lcanet_hdl::hypercube::hw_params(k, l)?;
    let n = params.n();
    // The same stimulus as `lcanet sim hypercube --perm random` with this seed.
    let mut rng = seeded(derive(seed, "hypercube-routing"));
    let (algorithm, routing) = match args.cube_algorithm {
        AlgArg::Full => (
            Algorithm::Full,
            Permutation::random(n, &mut rng).to_partial(),
        ),
        AlgArg::Semi => (Algorithm::Semi, random_semi_contraction(k, &mut rng)),
    };
    let payloads = random_payloads(n, l, &mut seeded(derive(seed, "hypercube-payload")));
    let t0 = Instant::now();
    let rtl = work.join("rtl");
    let design = emit_cube(k, l, &rtl)?;
    let generate_seconds = t0.elapsed().as_secs_f64();
    let verilog_bytes = design
        .files
        .iter()
        .map(|f| std::fs::metadata(f).map_or(0, |m| m.len() as usize))
        .sum();
    let cache = work.join("cache");
    let opts = CosimOptions {
        verilog_dir: rtl,
        vcd: args.vcd.then(|| work.join("cosim.vcd")),
        seed: Some(seed),
        optimize,
        models_root: Some(cache.clone()),
        threads: args.threads.get(),
        ..CosimOptions::default()
    };
    // The first run builds the model (cold); the repeats find it in the cache.
    let first = cosim(k, l, algorithm, &routing, &payloads, &opts)?;
    let (build_seconds, verilate_seconds, cpp_bytes) = (
        first.build_time.as_secs_f64() - generate_seconds,
        first.verilate_seconds,
        first.cpp_bytes,
    );
    let (r, cosim) = repeated(|| {
        let r = cosim(k, l, algorithm, &routing, &payloads, &opts)?;
        let t = Timed {
            bit_times: r.stats.bit_times,
            seconds: r.sim_time.as_secs_f64(),
        };
        Ok((r, t))
    })?;
    if r.stats.bit_times == 0 {
        bail!("the co-simulation ran no bit time");
    }
    let (_, golden) = repeated(|| {
        let (_, t) = cube_alone::golden_alone(k, l, algorithm, &routing, &payloads)?;
        Ok(((), t))
    })?;
    let (_, bare) = repeated(|| {
        let t = cube_alone::verilator_alone(
            &design,
            &cache,
            optimize,
            args.threads.get(),
            k,
            l,
            algorithm,
            &routing,
            &payloads,
            r.stats.bit_times,
        )?;
        Ok(((), t))
    })?;
    let cosim_rate = cosim.rate();
    Ok(Report {
        design: format!("hypercube k = {k} ({n} nodes), {algorithm:?}, L = {l}"),
        top: design.top.clone(),
        seed,
        matched: r.matched(),
        generate_seconds,
        verilog_bytes,
        build_seconds,
        verilate_seconds,
        cpp_bytes,
        optimize: optimize.cxx_flag()?,
        threads: args.threads.get(),
        vcd: args.vcd,
        memory: memory(),
        cosim_over_verilator: cosim_rate / bare.rate(),
        // The golden model runs before the loop (its trace is replayed): what the loop
        // adds over bare Verilator is the comparison.
        golden_and_compare_share: (1.0 - bare.rate().recip() / cosim_rate.recip()).max(0.0),
        cosim_split: None,
        waves: Vec::new(),
        cosim: cosim.into(),
        golden_alone: golden.into(),
        verilator_alone: bare.into(),
    })
}

/// Seconds, in ms or µs when short.
fn seconds(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

fn print_text(r: &Report) {
    println!("{} — top module {}, seed {}", r.design, r.top, r.seed);
    println!(
        "  generate        {:>10.2} s   {:>12} bytes of Verilog",
        r.generate_seconds, r.verilog_bytes
    );
    println!(
        "  build (cold)    {:>10.2} s   Verilator {:.2} s, {} bytes of C++, g++ {}, {} thread{}{}",
        r.build_seconds,
        r.verilate_seconds,
        r.cpp_bytes,
        r.optimize,
        r.threads,
        if r.threads == 1 { "" } else { "s" },
        if r.vcd {
            ", traced (co-simulation writes a VCD)"
        } else {
            ""
        }
    );
    println!(
        "  peak memory     build {:.0} MB, co-simulation {:.0} MB",
        r.memory.build_mb, r.memory.cosim_mb
    );
    let row = |name: &str, x: &Rate| {
        println!(
            "  {name:<15} {:>10.0} bit-times/s ({} bit-times in {})",
            x.bit_times_per_second,
            x.bit_times,
            seconds(x.seconds)
        )
    };
    row("co-simulation", &r.cosim);
    row("golden alone", &r.golden_alone);
    row("Verilator alone", &r.verilator_alone);
    if let Some([rtl, g, c]) = r.cosim_split {
        println!(
            "  loop split      RTL {}, golden model {}, comparison {} (last run)",
            seconds(rtl),
            seconds(g),
            seconds(c)
        );
    }
    println!(
        "  ratios          co-simulation / Verilator alone = {:.2}; golden model + comparison = {:.1} % of the loop",
        r.cosim_over_verilator,
        100.0 * r.golden_and_compare_share
    );
    super::cosim_waves::print(&r.waves);
    println!("  match           {}", if r.matched { "yes" } else { "NO" });
}
