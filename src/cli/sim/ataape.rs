//! `lcanet sim ataape`: all-to-all personalized exchange (004 algorithm ATAPE) through
//! an emitted MIN in Verilator, compared with the golden timeline every bit-time
//! (docs/min.md §4, §7). Exit code 2 when RTL and model differ.

use crate::cli::common::{print_json, CosimArgs, SeedArg};
use crate::cli::latin::MinArgs;
use crate::cli::Outcome;
use anyhow::Context;
use lcanet_hdl::gtkw::GtkwFiles;
use lcanet_hdl::min::gtkw::min_gtkw;
use lcanet_sim::min::RunConfig;
use lcanet_testbench::artifacts::ArtifactDir;
use lcanet_testbench::min::cosim::{run as cosim, CosimOptions, CosimReport};
use std::path::PathBuf;

/// Options shared by `sim ataape` and `sim min`.
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// Payload bits B per message (1 ≤ B ≤ 4096); a frame is m + B bit-times.
    #[arg(long, default_value_t = 8)]
    pub message_bits: u32,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub out: CosimArgs,
    /// Directory for the emitted Verilog (default: under target/lcanet-artifacts).
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
}

/// Arguments of `lcanet sim ataape`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lcanet sim ataape --network omega --m 3 --seed 1
  lcanet sim ataape --network cube --m 8 --message-bits 16 --seed 7 --optimize --json
  lcanet sim ataape --network baseline --m 2 --vcd atape.vcd
  lcanet sim ataape --network reverse-cube --m 5 --seed 3

Every PE j sends its n messages in the order of column j of the network's Latin square
(lcanet latin), frame after frame; payloads come from --seed.")]
pub struct Args {
    #[command(flatten)]
    net: MinArgs,
    #[command(flatten)]
    run: RunArgs,
}

/// The save file of the network `cfg` runs on.
fn gtkw_files(cfg: &RunConfig) -> anyhow::Result<GtkwFiles> {
    let rtl = lcanet_hdl::min::build(&cfg.min, cfg.format.message_bits)
        .context("generating the network for its GTKWave save file")?;
    Ok(min_gtkw(&rtl.design, &cfg.min)?)
}

/// A co-simulation's report and the GTKWave save file written beside its VCD.
pub(crate) struct Run {
    /// The report.
    pub report: CosimReport,
    /// The save file, if a VCD was written (`--vcd`, or a failing run's).
    pub gtkw: Option<PathBuf>,
}

/// Resolves the work directory and runs the co-simulation; writes the GTKWave save file
/// beside the VCD the run wrote.
pub(crate) fn execute(cfg: &RunConfig, args: &RunArgs, name: &str) -> anyhow::Result<Run> {
    // A failing run without --vcd is repeated traced, writing failure.vcd beside the
    // Verilog directory (inside it with --work-dir).
    let (verilog_dir, failure_vcd) = match &args.work_dir {
        Some(d) => (d.clone(), d.join("failure.vcd")),
        None => {
            let dir = ArtifactDir::for_run(&format!("cli::{name}"))
                .context("creating the work directory")?;
            (dir.path().join("verilog"), dir.path().join("failure.vcd"))
        }
    };
    let opts = CosimOptions {
        verilog_dir,
        vcd: args.out.vcd.clone(),
        failure_vcd: Some(failure_vcd),
        optimize: args.out.speed(),
        fault: None,
    };
    // With --vcd the save file is made before the run (a bug in it fails before anything
    // is written); for a failing run's VCD, after it.
    let prepared = args.out.vcd.as_ref().map(|_| gtkw_files(cfg)).transpose()?;
    let report = cosim(cfg, &opts).context("co-simulation could not run")?;
    // The run is n frames; a mismatch is reported in words only (no bit-time to mark).
    let view = lcanet_hdl::gtkw::View::run(report.simulated_bit_times, None);
    let gtkw = match (&report.vcd, prepared) {
        (Some(vcd), Some(files)) => Some(super::write_gtkw(&files, vcd, view)?),
        (Some(vcd), None) => Some(super::write_gtkw(&gtkw_files(cfg)?, vcd, view)?),
        (None, _) => None,
    };
    Ok(Run { report, gtkw })
}

/// Prints the report (JSON with the seed, or text) and maps it to an outcome.
pub(crate) fn finish<T: serde::Serialize>(
    run: &Run,
    seed: u64,
    extra: T,
    json: bool,
) -> anyhow::Result<Outcome> {
    let r = &run.report;
    if json {
        #[derive(serde::Serialize)]
        struct Out<'a, T> {
            seed: u64,
            #[serde(flatten)]
            report: &'a CosimReport,
            /// The GTKWave save file beside the VCD.
            gtkw: Option<&'a PathBuf>,
            #[serde(flatten)]
            extra: T,
        }
        print_json(&Out {
            seed,
            report: r,
            gtkw: run.gtkw.as_ref(),
            extra,
        })?;
    } else {
        println!(
            "{} network, m = {} (n = {}), B = {}, F = {}, {} frame(s), seed {seed}",
            r.network, r.m, r.n, r.message_bits, r.frame_bits, r.frames
        );
        println!(
            "bit-times (busy): {}   bound N·F + m: {}   idle: {}",
            r.bit_times,
            r.bound,
            r.bit_times as i64 - r.bound as i64
        );
        println!(
            "conflicts flagged by the RTL: {} (golden: {})",
            r.conflicts, r.expected_conflicts
        );
        if let Some(k) = r.messages_checked {
            println!("messages delivered intact: {k}");
        }
        println!(
            "compared {} values over {} bit-times; {:.0} bit-times/s (model build {:.1} s{})",
            r.compared_values,
            r.simulated_bit_times,
            r.bit_times_per_second,
            r.build_seconds,
            if r.build_cached { ", cached" } else { "" }
        );
        println!("Verilog: {}", r.verilog_dir.display());
        match (&r.vcd, &run.gtkw) {
            (Some(v), Some(g)) => println!("{}", super::waveforms_line(v, g)),
            (Some(v), None) => println!("VCD: {}", v.display()),
            _ => {}
        }
        match &r.mismatch {
            None => println!("MATCH: RTL equals the golden model at every bit-time"),
            Some(m) => println!("MISMATCH: {m}"),
        }
    }
    Ok(if r.matched {
        Outcome::Success
    } else {
        Outcome::Mismatch
    })
}

/// Runs `lcanet sim ataape`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let min = args.net.build()?;
    let seed = args.run.seed.resolve();
    let cfg =
        RunConfig::atape(min, args.run.message_bits, seed).context("invalid --message-bits")?;
    let name = format!("sim_ataape_{}_m{}", min.network(), min.m());
    let r = execute(&cfg, &args.run, &name)?;
    finish(&r, seed, (), args.run.out.json)
}
