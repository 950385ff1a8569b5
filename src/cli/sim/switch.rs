//! `lcanet sim switch`: random legal traffic through one LCA switch in every mode, the
//! emitted Verilog in Verilator compared with the cycle-level golden model every bit-time.

use crate::cli::common::{print_json, CosimArgs, SeedArg};
use crate::cli::generate::switch::SwitchArgs;
use crate::cli::Outcome;
use anyhow::Context;
use lcanet_hdl::gtkw::View;
use lcanet_hdl::lca::gtkw::switch_gtkw;
use lcanet_hdl::lca::switch_design;
use lcanet_sim::lcan::cycle::SwitchParams;
use lcanet_sim::rng::derive;
use lcanet_testbench::bridge::CacheOutcome;
use lcanet_testbench::lca::{run_switch_cosim, CosimConfig, Verdict};
use lcanet_testbench::ArtifactDir;
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `lcanet sim switch`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    switch: SwitchArgs,
    /// The switch's level (default: drawn from the seed).
    #[arg(long)]
    level: Option<usize>,
    /// Bit-times to simulate.
    #[arg(long)]
    cycles: u64,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    out: CosimArgs,
}

/// The first difference, for JSON.
#[derive(Debug, Serialize)]
struct Failure {
    kind: &'static str,
    bit_time: u64,
    signal: Option<String>,
    expected: Option<String>,
    actual: Option<String>,
    what: String,
    vcd: Option<PathBuf>,
}

#[derive(Debug, Serialize)]
struct Report {
    r#match: bool,
    bit_times: u64,
    compared_values: u64,
    commits: u64,
    grants: u64,
    rejections: u64,
    seed: u64,
    level: usize,
    params: SwitchParams,
    top: String,
    rtl_dir: PathBuf,
    vcd: Option<PathBuf>,
    /// The GTKWave save file beside the VCD (its translate filters beside it).
    gtkw: Option<PathBuf>,
    build: &'static str,
    build_seconds: f64,
    run_seconds: f64,
    bit_times_per_second: f64,
    failure: Option<Failure>,
}

/// Runs `lcanet sim switch`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let params = args.switch.params()?;
    let seed = args.seed.resolve();
    let level = match args.level {
        Some(l) if l >= params.levels => {
            anyhow::bail!(
                "--level {l} must be below --levels {} (levels are 0..l-1)",
                params.levels
            )
        }
        Some(l) => l,
        None => (derive(seed, "switch-level") % params.levels as u64) as usize,
    };
    let salts = derive(seed, "switch-salts");
    let cfg = CosimConfig {
        params,
        level: level as u8,
        salt_up: salts as u16,
        salt_dn: (salts >> 16) as u16,
        seed,
        bit_times: args.cycles,
        vcd: args.out.vcd.clone(),
        failure_vcd: None,
        optimize: args.out.speed(),
        table: None,
    };
    // The save file is made before the run (a bug in it fails before anything is
    // written) and written beside the VCD after it.
    let gtkw_files = match &args.out.vcd {
        Some(_) => {
            let design = switch_design(params).context("generating the switch")?;
            let top = design
                .module(design.top())
                .context("bug: the switch design has no top module")?;
            Some(switch_gtkw(top)?)
        }
        None => None,
    };
    let dir = ArtifactDir::for_run(&format!("cli::sim_switch::{}", seed))
        .context("creating the work directory")?;
    let rtl_dir = dir.file("rtl");
    let r = run_switch_cosim(&cfg, &rtl_dir)?;
    let mut view = View::run(r.bit_times, None);
    match &r.verdict {
        Verdict::Match => {}
        Verdict::Mismatch(m) => view = view.with_mismatch(m.bit_time),
        Verdict::Invariant(v) => view = view.with_mismatch(v.bit_time),
    }
    let gtkw = match (&gtkw_files, &args.out.vcd) {
        (Some(files), Some(vcd)) => Some(super::write_gtkw(files, vcd, view)?),
        _ => None,
    };
    let failure = match &r.verdict {
        Verdict::Match => None,
        Verdict::Mismatch(m) => Some(Failure {
            kind: "mismatch",
            bit_time: m.bit_time,
            signal: Some(m.signal.clone()),
            expected: Some(m.expected.clone()),
            actual: Some(m.actual.clone()),
            what: m.to_string(),
            vcd: m.vcd.clone(),
        }),
        Verdict::Invariant(v) => Some(Failure {
            kind: "invariant",
            bit_time: v.bit_time,
            signal: None,
            expected: None,
            actual: None,
            what: v.what.clone(),
            vcd: v.vcd.clone(),
        }),
    };
    let report = Report {
        r#match: r.matched(),
        bit_times: r.bit_times,
        compared_values: r.compared_values,
        commits: r.commits,
        grants: r.grants,
        rejections: r.rejections,
        seed,
        level,
        params,
        top: r.top.clone(),
        rtl_dir,
        vcd: args.out.vcd.clone(),
        gtkw,
        build: match r.build {
            CacheOutcome::Hit => "cached",
            CacheOutcome::Built => "built",
        },
        build_seconds: r.build_seconds,
        run_seconds: r.run_seconds,
        bit_times_per_second: r.bit_times as f64 / r.run_seconds.max(1e-9),
        failure,
    };
    if args.out.json {
        print_json(&report)?;
    } else {
        println!(
            "{}: {} bit-times, {} values compared, {} commits ({} grants, {} rejections); model {} in {:.1} s, {:.0} bit-times/s",
            if report.r#match { "MATCH" } else { "MISMATCH" },
            report.bit_times,
            report.compared_values,
            report.commits,
            report.grants,
            report.rejections,
            report.build,
            report.build_seconds,
            report.bit_times_per_second
        );
        println!("seed {seed}, level {level}, top {}", report.top);
        if let (Some(v), Some(g)) = (&report.vcd, &report.gtkw) {
            println!("{}", super::waveforms_line(v, g));
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
