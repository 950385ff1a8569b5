//! `lcanet generate selftest`: an LCA network wrapped in its on-chip self-test
//! (`docs/selftest.md`): stimulus generator, checker, counters, LEDs and a UART report line
//! every `--report-every` permutations; with `--run N`, also co-simulated in Verilator for
//! N permutations against the golden model, printing the UART lines.

use crate::cli::common::{print_json, write_atomic, Staged};
use crate::cli::generate::network::NetArgs;
use crate::cli::topology_args::describe;
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::selftest::{selftest_emit, SelftestSpec};
use lcanet_testbench::selftest::{SelftestBench, SelftestReport};
use lcanet_testbench::ArtifactDir;
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `lcanet generate selftest`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    net: NetArgs,
    /// Initial state of the xorshift32 stimulus generator (nonzero, below 2^32); every
    /// permutation and message follows from it.
    #[arg(long = "lfsr-seed", default_value_t = 1)]
    lfsr_seed: u64,
    /// Print one UART report line per this many permutations.
    #[arg(long = "report-every", default_value_t = 1000)]
    report_every: u64,
    /// Clock frequency of the board, Hz (the UART divisor is clock-hz / baud, rounded).
    #[arg(long = "clock-hz", default_value_t = 12_000_000)]
    clock_hz: u64,
    /// UART baud rate (8N1).
    #[arg(long, default_value_t = 115_200)]
    baud: u64,
    /// LED outputs active low (iCEBreaker); active high otherwise (iCE40-HX8K breakout).
    #[arg(long = "active-low-leds")]
    active_low_leds: bool,
    /// TEST ONLY: the checker expects PE 0's message with bit 0 inverted, so every
    /// permutation must be reported as an error (docs/selftest.md §4).
    #[arg(long = "inject-fault", hide = true)]
    inject_fault: bool,
    /// Also co-simulate N permutations in Verilator against the golden model and print the
    /// UART lines (exit 2 on a difference).
    #[arg(long)]
    run: Option<u64>,
    /// Output directory (created if missing).
    #[arg(short = 'o', long = "out")]
    out: PathBuf,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// What `generate selftest` wrote (and ran).
#[derive(Debug, Serialize)]
struct Summary {
    top: String,
    network_top: String,
    network: String,
    dir: PathBuf,
    files: Vec<String>,
    lfsr_seed: u32,
    report_every: u32,
    clock_hz: u64,
    baud: u64,
    uart_divisor: u64,
    active_low_leds: bool,
    inject_fault: bool,
    verilog_bytes: usize,
    run: Option<RunSummary>,
}

#[derive(Debug, Serialize)]
struct RunSummary {
    matched: bool,
    build_seconds: f64,
    #[serde(flatten)]
    report: SelftestReport,
}

/// Runs `lcanet generate selftest`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let net = args.net.spec()?;
    let spec = SelftestSpec::new(
        net,
        args.lfsr_seed,
        args.report_every,
        args.clock_hz,
        args.baud,
        args.inject_fault,
    )?
    .with_active_low_leds(args.active_low_leds);
    if let Some(n) = args.run {
        if n < u64::from(spec.params.report_every) {
            bail!(
                "--run {n} must be at least --report-every {} (no report line would be printed)",
                spec.params.report_every
            );
        }
    }
    let emitted = selftest_emit(&spec).context("generating the self-test")?;
    let staged = Staged::new(&args.out)?;
    let written = emitted
        .write_to(staged.path())
        .context("writing the Verilog files")?;
    let mut files: Vec<String> = written
        .iter()
        .filter_map(|p| p.file_name().map(|f| f.to_string_lossy().into_owned()))
        .collect();
    files.push(emitted.file_list.name.clone());
    let summary_name = format!("{}.json", emitted.top);
    files.push(summary_name.clone());
    let mut summary = Summary {
        top: emitted.top.clone(),
        network_top: spec.net.network_name(),
        network: describe(&spec.net.topo),
        dir: args.out.clone(),
        files,
        lfsr_seed: spec.params.seed,
        report_every: spec.params.report_every,
        clock_hz: spec.clock_hz,
        baud: spec.baud,
        uart_divisor: spec.divisor,
        active_low_leds: spec.active_low_leds,
        inject_fault: spec.params.fault,
        verilog_bytes: emitted.module_bytes(),
        run: None,
    };
    let text = serde_json::to_string_pretty(&summary).context("serializing the summary")?;
    write_atomic(&staged.path().join(&summary_name), text.as_bytes())?;
    staged.commit()?;
    if !args.json {
        println!(
            "{}: wrote {} files to {} (top module {}, lfsr seed {}, a line every {} permutations, UART {} baud = {} clocks per bit at {} Hz)",
            summary.network,
            summary.files.len(),
            args.out.display(),
            summary.top,
            summary.lfsr_seed,
            summary.report_every,
            summary.baud,
            summary.uart_divisor,
            summary.clock_hz
        );
    }
    let mut outcome = Outcome::Success;
    if let Some(n) = args.run {
        let dir = ArtifactDir::new(&format!("cli::generate_selftest::{}", summary.top))
            .context("creating the work directory")?;
        if !args.json {
            eprintln!("building the Verilated model (cached by content)…");
        }
        let bench = SelftestBench::build(spec, &dir.file("rtl"))?;
        let report = bench.run(n, None)?;
        if !args.json {
            for l in &report.lines {
                print!("{}", l.text);
            }
            match &report.failure {
                None => println!(
                    "co-simulation: {} lines equal to the golden model's, counters, pins and line timing too ({} clocks, {:.2} s)",
                    report.lines.len(),
                    report.clocks,
                    report.run_seconds
                ),
                Some(f) => println!("co-simulation MISMATCH: {f}"),
            }
        }
        if !report.matched() {
            outcome = Outcome::Mismatch;
        }
        summary.run = Some(RunSummary {
            matched: report.matched(),
            build_seconds: bench.build_seconds,
            report,
        });
    }
    if args.json {
        print_json(&summary)?;
    }
    Ok(outcome)
}
