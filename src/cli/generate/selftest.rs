//! `lcanet generate selftest`: a network wrapped in its on-chip self-test
//! (`docs/selftest.md`): stimulus generator, checker, counters, LEDs, heartbeat and a UART
//! report line every `--report-every` rounds; with `--run N`, also co-simulated in
//! Verilator for N rounds against the golden model, printing the UART lines. An LCA
//! network takes the flags of `generate network`; `selftest hypercube` and `selftest min`
//! take those of `generate hypercube` and `generate min`.

use crate::cli::common::{print_json, write_atomic, Staged};
use crate::cli::fusesoc::core::{Core, CoreArgs};
use crate::cli::generate::hypercube::RouterArg;
use crate::cli::generate::network::NetArgs;
use crate::cli::latin::MinArgs;
use crate::cli::topology_args::describe;
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::hypercube::Router;
use lcanet_hdl::selftest::{selftest_emit, DutSpec, SelftestSpec};
use lcanet_sim::hypercube::timing::Algorithm as CubeAlgorithm;
use lcanet_testbench::selftest::{SelftestBench, SelftestReport};
use lcanet_testbench::ArtifactDir;
use serde::Serialize;
use std::path::PathBuf;

const AFTER_HELP: &str = "\
Examples:
  lcanet generate selftest --topology tree --d 2 --u 1 --levels 4 --message-bits 4 \\
      --arbiter fixed --run 1000 -o out/st16
  lcanet generate selftest hypercube --k 4 --payload-bits 4 --run 1000 -o out/stcube4
  lcanet generate selftest min --network omega --m 3 --message-bits 4 --run 1000 -o out/stomega3
  lcanet fpga out/st16 --device hx8k                  # HX8K breakout pins, a bitstream

The top needs only a clock: LEDs led_pass/led_fail, a heartbeat blinking at about 2 Hz,
and a UART line per --report-every rounds, e.g.
  PASS 1000 perms, 4.49 passes/perm, 4496 passes, 777948 bit-times, 0 errors
Boards (lcanet fpga --board): iCE40-HX8K breakout, iCEBreaker, ULX3S, OrangeCrab.
Design, checker and line timing: docs/selftest.md.";

/// Arguments of `lcanet generate selftest`.
#[derive(Debug, clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = AFTER_HELP
)]
pub struct Args {
    /// The hypercube or a MIN instead of an LCA network (their flags follow the family).
    #[command(subcommand)]
    family: Option<Family>,
    #[command(flatten)]
    net: NetArgs,
    #[command(flatten)]
    common: Common,
}

/// Self-tests of the other families.
#[derive(Debug, clap::Subcommand)]
enum Family {
    /// Kuszmaul's k-cube router: a random full permutation per round by Algorithm 2
    /// (`--algorithm full`), or a random packing by Algorithm 1 (`--algorithm semi`).
    Hypercube(CubeArgs),
    /// A baseline, omega or cube MIN with ATAPE units: one all-to-all personalized
    /// exchange (n frames, n² random messages) per round.
    Min(MinSelftestArgs),
}

/// `lcanet generate selftest hypercube`.
#[derive(Debug, clap::Args)]
struct CubeArgs {
    /// Cube dimension: 2^k nodes (1 <= k <= 12).
    #[arg(long)]
    k: usize,
    /// Payload bits per message (1..=32: a payload is the low bits of one draw).
    #[arg(long = "payload-bits", default_value_t = 8)]
    payload_bits: usize,
    /// `full`: Algorithm 2 on a random permutation; `semi`: Algorithm 1 on a random
    /// packing (random senders onto a random interval, in order).
    #[arg(long, value_enum, default_value = "full")]
    algorithm: CubeAlgorithmArg,
    /// The node router under test (docs/hypercube.md): `overlapped` (the default),
    /// `sequential` (the paper's schedule) or `sort` (sort-then-pack, with
    /// `--algorithm full`). The batched cubes take batches, not one permutation per
    /// round, and have no self-test.
    #[arg(long, value_enum, default_value = "overlapped")]
    router: RouterArg,
    #[command(flatten)]
    common: Common,
}

/// `--algorithm` of the hypercube self-test.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum CubeAlgorithmArg {
    /// Algorithm 1 (semi-contractions), on random packings.
    Semi,
    /// Algorithm 2, on random full permutations.
    Full,
}

/// `lcanet generate selftest min`.
#[derive(Debug, clap::Args)]
struct MinSelftestArgs {
    #[command(flatten)]
    net: MinArgs,
    /// Payload bits B per message (1..=32: a payload is the low bits of one draw).
    #[arg(long = "message-bits", default_value_t = 8)]
    message_bits: u32,
    #[command(flatten)]
    common: Common,
}

/// The self-test's own flags, the same for every family.
#[derive(Debug, clap::Args)]
struct Common {
    /// Initial state of the xorshift32 stimulus generator (nonzero, below 2^32); every
    /// permutation, packing, offset and message follows from it.
    #[arg(long = "lfsr-seed", default_value_t = 1)]
    lfsr_seed: u64,
    /// Print one UART report line per this many rounds.
    #[arg(long = "report-every", default_value_t = 1000)]
    report_every: u64,
    /// Clock frequency of the board, Hz (the UART divisor is clock-hz / baud, rounded;
    /// the heartbeat toggles every clock-hz / 4 clocks).
    #[arg(long = "clock-hz", default_value_t = 12_000_000)]
    clock_hz: u64,
    /// UART baud rate (8N1).
    #[arg(long, default_value_t = 115_200)]
    baud: u64,
    /// LED outputs active low (iCEBreaker); active high otherwise (iCE40-HX8K breakout).
    #[arg(long = "active-low-leds")]
    active_low_leds: bool,
    /// TEST ONLY: the checker expects bit 0 of PE 0's message(s) inverted, so every round
    /// must be reported as an error (docs/selftest.md §4).
    #[arg(long = "inject-fault", hide = true)]
    inject_fault: bool,
    /// Also co-simulate N rounds in Verilator against the golden model and print the
    /// UART lines (exit 2 on a difference).
    #[arg(long)]
    run: Option<u64>,
    /// Output directory (created if missing).
    #[arg(short = 'o', long = "out", required = true)]
    out: Option<PathBuf>,
    #[command(flatten)]
    core: CoreArgs,
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
    /// The FuseSoC core file (docs/fusesoc.md) and its name (VLNV).
    core: String,
    core_name: String,
    lfsr_seed: u32,
    report_every: u32,
    clock_hz: u64,
    baud: u64,
    uart_divisor: u64,
    heartbeat_clocks: u64,
    active_low_leds: bool,
    inject_fault: bool,
    verilog_bytes: usize,
    /// The arguments after `lcanet generate selftest` that wrote this directory: `lcanet
    /// fpga --check-routed` rebuilds the golden prediction from them.
    command: Vec<String>,
    /// A round's length by the golden model.
    round: RoundTime,
    run: Option<RunSummary>,
}

/// A self-test round's length by the golden model: the mean of its first
/// [`RoundTime::ROUNDS`] rounds (`docs/selftest.md` §3).
#[derive(Debug, Clone, Copy, Serialize)]
pub(crate) struct RoundTime {
    /// The network's bit-times: one permutation, packing or exchange.
    pub bit_times: f64,
    /// The clocks of the whole round: draws, `START`, the network, `CHECK` (n), `TALLY`.
    pub clocks: f64,
}

impl RoundTime {
    /// Rounds averaged.
    pub const ROUNDS: u64 = 20;

    /// The round of `spec`.
    pub fn of(spec: &SelftestSpec) -> anyhow::Result<RoundTime> {
        let pred = lcanet_sim::selftest::predict(&spec.golden, &spec.params, Self::ROUNDS)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let n = pred.rounds.len().max(1) as f64;
        let mean = |f: &dyn Fn(&lcanet_sim::selftest::RoundResult) -> f64| {
            pred.rounds.iter().map(f).sum::<f64>() / n
        };
        let pes = spec.golden.pes() as f64;
        Ok(RoundTime {
            bit_times: mean(&|r| f64::from(r.bit_times)),
            clocks: mean(&|r| f64::from(r.bit_times) + r.draws as f64 + pes + 3.0),
        })
    }
}

#[derive(Debug, Serialize)]
struct RunSummary {
    matched: bool,
    build_seconds: f64,
    #[serde(flatten)]
    report: SelftestReport,
}

/// The ECP5 board of a self-test's `synth_ecp5` target (`constraints/ecp5/`).
const ULX3S_LPF: &str = "selftest-ulx3s.lpf";

/// The board a self-test's `synth` target is for: its LEDs' polarity decides.
struct Board {
    name: &'static str,
    pcf: &'static str,
    pins: &'static str,
    nextpnr: &'static [&'static str],
}

impl Board {
    fn for_leds(active_low: bool) -> Self {
        if active_low {
            Board {
                name: "iCEBreaker (iCE40UP5K-SG48)",
                pcf: "selftest-icebreaker.pcf",
                pins: include_str!("../../../constraints/ice40/selftest-icebreaker.pcf"),
                nextpnr: &["--up5k", "--package", "sg48", "--freq", "12"],
            }
        } else {
            Board {
                name: "iCE40-HX8K breakout board (CT256)",
                pcf: "selftest-hx8k.pcf",
                pins: include_str!("../../../constraints/ice40/selftest-hx8k.pcf"),
                nextpnr: &["--hx8k", "--package", "ct256", "--freq", "12"],
            }
        }
    }
}

/// The self-test `args` describe, its network's name, and its own flags.
fn spec_of(args: Args) -> anyhow::Result<(SelftestSpec, String, Common)> {
    let (dut, network, common) = match args.family {
        None => {
            let net = args.net.spec()?;
            let name = describe(&net.topo);
            (DutSpec::Lca(Box::new(net)), name, args.common)
        }
        Some(Family::Hypercube(a)) => {
            let router = Router::from(a.router);
            if router.is_batched() {
                bail!(
                    "--router {}: the self-test routes one permutation per round; the batched cubes (quadratic, quadratic-sort) have no self-test (choose overlapped, sequential or sort)",
                    router.name()
                );
            }
            let algorithm = match a.algorithm {
                CubeAlgorithmArg::Semi => CubeAlgorithm::Semi,
                CubeAlgorithmArg::Full => router.algorithm(),
            };
            if algorithm == CubeAlgorithm::Semi && router != Router::Overlapped {
                bail!(
                    "--algorithm semi runs on the default router; --router {} applies to --algorithm full only",
                    router.name()
                );
            }
            let dut = DutSpec::cube(a.k, a.payload_bits, algorithm)?;
            let name = format!(
                "{}-cube ({} nodes, L = {}), {}",
                a.k,
                1usize << a.k,
                a.payload_bits,
                match algorithm {
                    CubeAlgorithm::Semi => "Algorithm 1".to_string(),
                    CubeAlgorithm::Sort => "sort-then-pack (sort router)".to_string(),
                    _ => format!("Algorithm 2 ({} router)", router.name()),
                }
            );
            (dut, name, a.common)
        }
        Some(Family::Min(a)) => {
            let min = a.net.build()?;
            let name = format!("{min}, B = {}", a.message_bits);
            let dut = DutSpec::Min {
                min,
                message_bits: a.message_bits,
            };
            (dut, name, a.common)
        }
    };
    let spec = SelftestSpec::new(
        dut,
        common.lfsr_seed,
        common.report_every,
        common.clock_hz,
        common.baud,
        common.inject_fault,
    )?
    .with_active_low_leds(common.active_low_leds);
    Ok((spec, network, common))
}

/// The self-test that `lcanet generate selftest` with `command` (its arguments after
/// `selftest`, as recorded in the summary's `command`) generates; `lcanet fpga` rebuilds
/// a directory's golden prediction from it.
pub fn spec_from_command(command: &[String]) -> anyhow::Result<SelftestSpec> {
    // The output directory does not change the self-test; a command without one gets a
    // placeholder (nothing is written).
    let has_out = command
        .iter()
        .any(|a| a == "-o" || a == "--out" || a.starts_with("--out=") || a.starts_with("-o"));
    let argv = ["lcanet", "generate", "selftest"]
        .into_iter()
        .map(String::from)
        .chain(command.iter().cloned())
        .chain(
            (!has_out)
                .then(|| ["-o".to_string(), ".".to_string()])
                .into_iter()
                .flatten(),
        );
    let cli = <crate::cli::Cli as clap::Parser>::try_parse_from(argv)
        .map_err(|e| anyhow::anyhow!("the recorded command does not parse: {}", e.render()))?;
    match cli.command {
        crate::cli::Command::Generate(super::Command::Selftest(a)) => Ok(spec_of(a)?.0),
        _ => bail!("the recorded command is not `generate selftest`"),
    }
}

/// Runs `lcanet generate selftest`; `command` is its arguments after `selftest` (recorded
/// in the summary).
pub fn run(args: Args, command: Vec<String>) -> anyhow::Result<Outcome> {
    let (spec, network, common) = spec_of(args)?;
    let out = common
        .out
        .clone()
        .context("-o DIR is required (the output directory)")?;
    if let Some(n) = common.run {
        if n < u64::from(spec.params.report_every) {
            bail!(
                "--run {n} must be at least --report-every {} (no report line would be printed)",
                spec.params.report_every
            );
        }
    }
    let emitted = selftest_emit(&spec).context("generating the self-test")?;
    let staged = Staged::new(&out)?;
    let written = emitted
        .write_to(staged.path())
        .context("writing the Verilog files")?;
    let mut files: Vec<String> = written
        .iter()
        .filter_map(|p| p.file_name().map(|f| f.to_string_lossy().into_owned()))
        .collect();
    files.push(emitted.file_list.name.clone());
    let core_name = common.core.vlnv("selftest", &emitted.top)?;
    let board = Board::for_leds(spec.active_low_leds);
    write_atomic(&staged.path().join(board.pcf), board.pins.as_bytes())?;
    files.push(board.pcf.to_string());
    write_atomic(
        &staged.path().join(ULX3S_LPF),
        include_bytes!("../../../constraints/ecp5/selftest-ulx3s.lpf"),
    )?;
    files.push(ULX3S_LPF.to_string());
    let core = Core::design(
        core_name.clone(),
        format!("{network}, on-chip self-test (lcanet generate selftest)"),
        &emitted,
    )
    .comment(format!(
        "synth: the {} at {} Hz; the pins assume its 12 MHz oscillator.",
        board.name, spec.clock_hz
    ))
    .with_ice40_synth(&emitted.top, board.pcf, board.name, board.nextpnr)
    .comment(format!(
        "synth_ecp5: the ULX3S (LFE5U-85F) at {} Hz; its pins assume the 25 MHz oscillator (--clock-hz 25000000).",
        spec.clock_hz
    ))
    .with_ecp5_synth(&emitted.top, ULX3S_LPF, "ULX3S (LFE5U-85F, CABGA381)", &["--85k", "--package", "CABGA381"])
    .write_into(staged.path())?;
    files.push(core.clone());
    let summary_name = format!("{}.json", emitted.top);
    files.push(summary_name.clone());
    let mut summary = Summary {
        top: emitted.top.clone(),
        network_top: spec.dut.network_name(),
        network,
        dir: out.clone(),
        files,
        core,
        core_name,
        lfsr_seed: spec.params.seed,
        report_every: spec.params.report_every,
        clock_hz: spec.clock_hz,
        baud: spec.baud,
        uart_divisor: spec.divisor,
        heartbeat_clocks: spec.heartbeat,
        active_low_leds: spec.active_low_leds,
        inject_fault: spec.params.fault,
        verilog_bytes: emitted.module_bytes(),
        command,
        round: RoundTime::of(&spec)?,
        run: None,
    };
    let text = serde_json::to_string_pretty(&summary).context("serializing the summary")?;
    write_atomic(&staged.path().join(&summary_name), text.as_bytes())?;
    staged.commit()?;
    if !common.json {
        println!(
            "{}: wrote {} files to {} (top module {}, lfsr seed {}, a line every {} rounds, UART {} baud = {} clocks per bit at {} Hz)",
            summary.network,
            summary.files.len(),
            out.display(),
            summary.top,
            summary.lfsr_seed,
            summary.report_every,
            summary.baud,
            summary.uart_divisor,
            summary.clock_hz
        );
        let us = |x: f64| x / summary.clock_hz as f64 * 1e6;
        println!(
            "a round (mean of {}): the network {:.0} bit-times = {:.1} µs, the round {:.0} clocks = {:.1} µs at {} Hz",
            RoundTime::ROUNDS,
            summary.round.bit_times,
            us(summary.round.bit_times),
            summary.round.clocks,
            us(summary.round.clocks),
            summary.clock_hz
        );
        println!(
            "FuseSoC core {} ({}): targets default, lint, synth ({}), synth_ecp5 (ULX3S)",
            out.join(&summary.core).display(),
            summary.core_name,
            board.name
        );
    }
    let mut outcome = Outcome::Success;
    if let Some(n) = common.run {
        let dir = ArtifactDir::for_run(&format!("cli::generate_selftest::{}", summary.top))
            .context("creating the work directory")?;
        if !common.json {
            eprintln!("building the Verilated model (cached by content)…");
        }
        let bench = SelftestBench::build(spec, &dir.file("rtl"))?;
        if !common.json {
            eprintln!("co-simulating {n} rounds against the golden model…");
        }
        let report = bench.run(n, None)?;
        if !common.json {
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
    if common.json {
        print_json(&summary)?;
    }
    Ok(outcome)
}
