//! `lcanet bench fpga`: how large a self-testing network fits each FPGA. For each family
//! (T-LCAN(2,1) and CB-LCAN(2,2) with R1 and R2, the hypercube with Algorithm 2, the omega
//! MIN with ATAPE) and each size `n = 2^s`, the self-test top is synthesized once per
//! device family (iCE40, ECP5, and with `--xilinx` Yosys `synth_xilinx` for the Arty A7);
//! on each device the largest size that fits after synthesis is placed and routed
//! (`--place`; one size down if routing fails), with its Fmax, a permutation's time, and
//! what its area is: the network (switches or routers, PE interfaces, controller) against
//! the self-test logic. Syntheses are cached in `--out` by the Verilog's digest.

use crate::cli::common::{print_json, thread_pool, write_atomic};
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::selftest::{selftest_emit, SelftestSpec};
use lcanet_testbench::fpga::device::{Board, Device, Family};
use lcanet_testbench::fpga::flow::{self, Placer, Summary, Synthesized};
use lcanet_testbench::fpga::FpgaError;
use lcanet_testbench::paths::workspace_root;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Arguments of `lcanet bench fpga`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Families, comma-separated: tree (T-LCAN(2,1), R1), tree-r2, cb (CB-LCAN(2,2), R1),
    /// cb-r2, cube (the k-cube, Algorithm 2 on the overlapped router), min (omega, ATAPE).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "tree,tree-r2,cb,cb-r2,cube,min"
    )]
    families: Vec<Fam>,
    /// Devices, comma-separated (`lcanet fpga --help` lists them).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "hx8k,ecp5-25k,ecp5-45k,ecp5-85k"
    )]
    devices: Vec<String>,
    /// Sizes as exponents `a..b`: n = 2^s PEs (levels of an LCA network, k of the cube, m
    /// of the MIN).
    #[arg(long, default_value = "2..6", value_parser = parse_sizes)]
    sizes: (u32, u32),
    /// Also place and route the largest size that fits each device after synthesis.
    #[arg(long)]
    place: bool,
    /// Also Yosys `synth_xilinx -family xc7` on every size, against the Arty A7-35T and
    /// A7-100T (nothing here places for Xilinx).
    #[arg(long)]
    xilinx: bool,
    /// Target clock for place and route, MHz.
    #[arg(long, default_value_t = 50.0)]
    freq: f64,
    /// Message (payload) bits.
    #[arg(long = "message-bits", default_value_t = 4)]
    message_bits: u32,
    /// Syntheses to run at once.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    /// Output directory (syntheses cached there by the Verilog's digest).
    #[arg(long, default_value = "out/bench-fpga")]
    out: PathBuf,
    /// Print the records as JSON.
    #[arg(long)]
    json: bool,
}

/// `--families`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
enum Fam {
    Tree,
    TreeR2,
    Cb,
    CbR2,
    Cube,
    Min,
}

impl Fam {
    fn label(self) -> &'static str {
        match self {
            Fam::Tree => "T-LCAN(2,1) R1",
            Fam::TreeR2 => "T-LCAN(2,1) R2",
            Fam::Cb => "CB-LCAN(2,2) R1",
            Fam::CbR2 => "CB-LCAN(2,2) R2",
            Fam::Cube => "hypercube, Algorithm 2",
            Fam::Min => "omega MIN, ATAPE",
        }
    }

    /// The `generate selftest` arguments of size `s` for a `clock_hz` board.
    fn command(self, s: u32, bits: u32, clock_hz: u64) -> Vec<String> {
        let size = s.to_string();
        let bits = bits.to_string();
        let mut a: Vec<&str> = match self {
            Fam::Tree | Fam::TreeR2 | Fam::Cb | Fam::CbR2 => {
                let (topo, u) = if matches!(self, Fam::Tree | Fam::TreeR2) {
                    ("tree", "1")
                } else {
                    ("cb", "2")
                };
                let alg = if matches!(self, Fam::TreeR2 | Fam::CbR2) {
                    "r2"
                } else {
                    "r1"
                };
                vec![
                    "--topology",
                    topo,
                    "--d",
                    "2",
                    "--u",
                    u,
                    "--levels",
                    &size,
                    "--algorithm",
                    alg,
                    "--arbiter",
                    "fixed",
                    "--message-bits",
                    &bits,
                ]
            }
            Fam::Cube => vec!["hypercube", "--k", &size, "--payload-bits", &bits],
            Fam::Min => vec![
                "min",
                "--network",
                "omega",
                "--m",
                &size,
                "--message-bits",
                &bits,
            ],
        };
        let clock = clock_hz.to_string();
        a.extend(["--clock-hz", &clock]);
        a.into_iter().map(String::from).collect()
    }
}

fn parse_sizes(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| format!("{s:?}: sizes are a range a..b of exponents"))?;
    let parse = |x: &str| {
        x.trim()
            .parse::<u32>()
            .map_err(|_| format!("{x:?} is not an exponent"))
    };
    let (a, b) = (parse(a)?, parse(b)?);
    if !(1..=12).contains(&a) || a > b || b > 12 {
        return Err(format!("{s}: exponents 1 <= a <= b <= 12"));
    }
    Ok((a, b))
}

/// A tool family's synthesis of one self-test.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Synth {
    family: String,
    size: u32,
    pes: usize,
    tool: String,
    lut4: u64,
    flip_flops: u64,
    brams: u64,
    /// The network alone (flat): LUT4s, flip-flops.
    network_lut4: Option<u64>,
    network_ffs: Option<u64>,
    /// The network's modules (synthesized once each, without flattening): LUT4s of all
    /// instances of each module.
    parts: BTreeMap<String, u64>,
    seconds: f64,
    digest: String,
}

/// One device's largest self-test, placed.
#[derive(Debug, Clone, Serialize)]
struct Placed {
    family: String,
    device: String,
    size: u32,
    pes: usize,
    lut4: u64,
    flip_flops: u64,
    brams: u64,
    utilization_pct: f64,
    fmax_mhz: Option<f64>,
    /// Mean network bit-times per round (20 rounds of the golden model).
    bit_times: f64,
    /// Mean clocks per self-test round.
    round_clocks: f64,
    /// A permutation (exchange) through the network at Fmax, µs.
    us_per_round: Option<f64>,
    pnr_seconds: f64,
    /// nextpnr's critical path.
    critical_path: Option<lcanet_testbench::fpga::flow::CriticalPath>,
    /// Sizes above that fit after synthesis but failed to route.
    failed: Vec<u32>,
}

#[derive(Debug, Serialize)]
struct Report {
    synth: Vec<Synth>,
    placed: Vec<Placed>,
}

/// Runs `lcanet bench fpga`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let devices: Vec<&'static Device> = args
        .devices
        .iter()
        .map(|d| Device::by_name(d).map_err(anyhow::Error::msg))
        .collect::<Result<_, _>>()?;
    if !(args.freq > 0.0 && args.freq <= 1000.0) {
        bail!(
            "--freq {}: a clock in MHz, above 0 and at most 1000",
            args.freq
        );
    }
    let mut tools: Vec<Tool> = Vec::new();
    for d in &devices {
        let t = Tool::Fpga(d.family);
        if !tools.contains(&t) {
            tools.push(t);
        }
    }
    if args.xilinx {
        tools.push(Tool::Xilinx);
    }
    if tools.is_empty() {
        bail!("nothing to synthesize: give --devices or --xilinx");
    }
    // Each family and tool family in its own job, sizes ascending, up to the first size
    // that exceeds the largest device asked for (the next ones would too).
    let mut jobs = Vec::new();
    for &fam in &args.families {
        for &t in &tools {
            jobs.push((fam, t));
        }
    }
    let quiet = args.json;
    let largest = |t: Tool| match t {
        Tool::Fpga(f) => devices
            .iter()
            .filter(|d| d.family == f)
            .map(|d| d.luts)
            .max()
            .unwrap_or(0),
        Tool::Xilinx => XC7_100T_LUTS,
    };
    let results: Vec<Vec<_>> = thread_pool(args.jobs)?.install(|| {
        jobs.par_iter()
            .with_max_len(1)
            .map(|&(fam, t)| {
                let mut out = Vec::new();
                for s in args.sizes.0..=args.sizes.1 {
                    if fam == Fam::Min && s > lcanet_sim::selftest::MAX_MIN_M {
                        break;
                    }
                    let r = synth_one(&args, fam, s, t);
                    match &r {
                        Ok(x) if !quiet => eprintln!(
                            "{} n = {}: {} LUT4s, {} FFs, {} block RAMs ({}, {:.0} s)",
                            fam.label(),
                            x.pes,
                            x.lut4,
                            x.flip_flops,
                            x.brams,
                            x.tool,
                            x.seconds
                        ),
                        _ => {}
                    }
                    let over = r.as_ref().is_ok_and(|x| x.lut4 > largest(t));
                    out.push(r);
                    if over || out.last().is_some_and(|r| r.is_err()) {
                        break;
                    }
                }
                out
            })
            .collect()
    });
    let mut synth = Vec::new();
    for r in results.into_iter().flatten() {
        synth.push(r?);
    }
    // Where the area is, for each device's largest fit (or the largest size synthesized).
    let mut wanted: Vec<usize> = Vec::new();
    for &fam in &args.families {
        for dev in &devices {
            let tool = Tool::Fpga(dev.family).name();
            let best = synth
                .iter()
                .enumerate()
                .filter(|(_, r)| r.family == fam.label() && r.tool == tool)
                .filter(|(_, r)| {
                    r.lut4 <= dev.luts && r.flip_flops <= dev.ffs && r.brams <= dev.brams
                })
                .max_by_key(|(_, r)| r.size)
                .map(|(i, _)| i);
            if let Some(i) = best.filter(|i| !wanted.contains(i)) {
                wanted.push(i);
            }
        }
    }
    for i in wanted {
        let fam = args
            .families
            .iter()
            .copied()
            .find(|f| f.label() == synth[i].family);
        if let Some(fam) = fam {
            breakdown(&args, fam, &mut synth[i])?;
        }
    }
    let mut placed = Vec::new();
    if args.place {
        for &fam in &args.families {
            for dev in &devices {
                if let Some(p) = place_largest(&args, fam, dev, &synth)? {
                    placed.push(p);
                }
            }
        }
    }
    let report = Report { synth, placed };
    std::fs::create_dir_all(&args.out)?;
    let text = serde_json::to_string_pretty(&report)?;
    write_atomic(&args.out.join("bench-fpga.json"), text.as_bytes())?;
    let table = markdown(&args, &devices, &report);
    write_atomic(&args.out.join("bench-fpga.md"), table.as_bytes())?;
    if args.json {
        print_json(&report)?;
    } else {
        print!("{table}");
    }
    Ok(Outcome::Success)
}

/// LUTs of the XC7A100T (Arty A7-100T).
const XC7_100T_LUTS: u64 = 63_400;
/// The Arty A7 parts: name, LUTs, flip-flops, BRAM18s (Xilinx DS180, Table 3).
const ARTY: [(&str, u64, u64, u64); 2] = [
    ("A7-35T", 20_800, 41_600, 100),
    ("A7-100T", XC7_100T_LUTS, 126_800, 270),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Fpga(Family),
    Xilinx,
}

impl Tool {
    fn name(self) -> &'static str {
        match self {
            Tool::Fpga(Family::Ice40) => "ice40",
            Tool::Fpga(Family::Ecp5) => "ecp5",
            Tool::Xilinx => "xc7",
        }
    }

    /// The board clock a self-test is generated for.
    fn clock_hz(self) -> u64 {
        match self {
            Tool::Fpga(Family::Ice40) => 12_000_000,
            Tool::Fpga(Family::Ecp5) => 25_000_000,
            Tool::Xilinx => 100_000_000,
        }
    }
}

fn spec(fam: Fam, s: u32, bits: u32, clock_hz: u64) -> anyhow::Result<SelftestSpec> {
    crate::cli::generate::selftest::spec_from_command(&fam.command(s, bits, clock_hz))
}

fn dir_of(args: &Args, fam: Fam, s: u32, t: Tool) -> PathBuf {
    args.out
        .join(format!("{fam:?}").to_lowercase())
        .join(format!("s{s}"))
        .join(t.name())
}

/// Synthesizes (or finds cached) family `fam` at size `s` with tool family `t`.
fn synth_one(args: &Args, fam: Fam, s: u32, t: Tool) -> anyhow::Result<Synth> {
    let spec = spec(fam, s, args.message_bits, t.clock_hz())?;
    let emitted = selftest_emit(&spec)?;
    let digest = emitted.digest();
    let dir = dir_of(args, fam, s, t);
    let record = dir.join("synth-record.json");
    if let Ok(text) = std::fs::read_to_string(&record) {
        if let Ok(r) = serde_json::from_str::<Synth>(&text) {
            if r.digest == digest {
                return Ok(r);
            }
        }
    }
    let rtl = dir.join("rtl");
    let _ = std::fs::remove_dir_all(&rtl);
    let files: Vec<PathBuf> = emitted
        .write_to(&rtl)?
        .into_iter()
        .filter(|f| f.extension().is_some_and(|x| x == "v"))
        .map(|f| f.canonicalize())
        .collect::<Result<_, _>>()?;
    let quiet = |_: &str| {};
    let whole = match t {
        Tool::Fpga(family) => flow::synthesize(
            &files,
            &emitted.top,
            family,
            false,
            &dir.join("top"),
            &quiet,
        )?,
        Tool::Xilinx => xilinx(&files, &emitted.top, &dir.join("top"))?,
    };
    let r = Synth {
        family: fam.label().to_string(),
        size: s,
        pes: spec.golden.pes(),
        tool: t.name().to_string(),
        lut4: whole.lut4,
        flip_flops: whole.flip_flops,
        brams: whole.brams,
        network_lut4: None,
        network_ffs: None,
        parts: BTreeMap::new(),
        seconds: whole.seconds,
        digest,
    };
    write_atomic(&record, serde_json::to_string_pretty(&r)?.as_bytes())?;
    Ok(r)
}

/// Where the area of `r` is: the network alone, flat, and its modules with all their
/// instances (`-noflatten`); cached in its record.
fn breakdown(args: &Args, fam: Fam, r: &mut Synth) -> anyhow::Result<()> {
    let family = match r.tool.as_str() {
        "ice40" => Family::Ice40,
        "ecp5" => Family::Ecp5,
        _ => return Ok(()),
    };
    if r.network_lut4.is_some() {
        return Ok(());
    }
    let t = Tool::Fpga(family);
    let spec = spec(fam, r.size, args.message_bits, t.clock_hz())?;
    let dir = dir_of(args, fam, r.size, t);
    let net_top = spec.dut.network_name();
    let net_files: Vec<PathBuf> = std::fs::read_dir(dir.join("rtl"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|f| f.extension().is_some_and(|x| x == "v"))
        .filter(|f| {
            !f.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("selftest_")
        })
        .collect();
    let net = flow::synthesize(
        &net_files,
        &net_top,
        family,
        false,
        &dir.join("net"),
        &|_| {},
    )?;
    r.parts = hier_parts(&net_files, &net_top, family, &dir.join("net-hier"))?;
    r.network_lut4 = Some(net.lut4);
    r.network_ffs = Some(net.flip_flops);
    write_atomic(
        &dir.join("synth-record.json"),
        serde_json::to_string_pretty(&r)?.as_bytes(),
    )?;
    Ok(())
}

/// LUT4s of each module of the network with all its instances (`synth_<family>
/// -noflatten`, `stat -top`): where the network's area is.
fn hier_parts(
    files: &[PathBuf],
    top: &str,
    family: Family,
    dir: &Path,
) -> anyhow::Result<BTreeMap<String, u64>> {
    std::fs::create_dir_all(dir)?;
    let stat = dir.join("stat.txt");
    let mut script = String::new();
    for f in files {
        script.push_str(&format!("read_verilog -noautowire \"{}\"\n", f.display()));
    }
    let fam = match family {
        Family::Ice40 => "ice40",
        Family::Ecp5 => "ecp5",
    };
    script.push_str(&format!(
        "synth_{fam} -noflatten -top {top}\ntee -q -o {} stat -top {top}\n",
        stat.display()
    ));
    let out = Command::new(lcanet_testbench::tools::locate(
        lcanet_testbench::tools::Tool::Yosys,
    )?)
    .arg("-q")
    .arg("-p")
    .arg(&script)
    .output()?;
    if !out.status.success() {
        bail!(
            "yosys -noflatten on {top}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = std::fs::read_to_string(&stat)?;
    Ok(module_luts(&text, family, top))
}

/// From `stat -top` text: each module's LUT4s times its instances below `top`.
fn module_luts(text: &str, family: Family, top: &str) -> BTreeMap<String, u64> {
    let mut own: BTreeMap<String, u64> = BTreeMap::new();
    let mut inst: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
    let mut cur = String::new();
    for line in text.lines() {
        if let Some(m) = line
            .strip_prefix("=== ")
            .and_then(|l| l.strip_suffix(" ==="))
        {
            cur = m.to_string();
            continue;
        }
        let mut it = line.split_whitespace();
        let (Some(a), Some(b), None) = (it.next(), it.next(), it.next()) else {
            continue;
        };
        let Ok(n) = b.parse::<u64>() else { continue };
        let lut = match (family, a) {
            (Family::Ice40, "SB_LUT4") | (Family::Ecp5, "LUT4") => n,
            (Family::Ecp5, "CCU2C") => 2 * n,
            _ => {
                if !a.starts_with('$') && !a.contains(':') && a != "Number" && !cur.is_empty() {
                    inst.entry(cur.clone())
                        .or_default()
                        .insert(a.to_string(), n);
                }
                0
            }
        };
        *own.entry(cur.clone()).or_default() += lut;
    }
    // Multiply through the hierarchy from the top.
    let mut total: BTreeMap<String, u64> = BTreeMap::new();
    fn walk(
        m: &str,
        times: u64,
        own: &BTreeMap<String, u64>,
        inst: &BTreeMap<String, BTreeMap<String, u64>>,
        total: &mut BTreeMap<String, u64>,
        depth: usize,
    ) {
        if depth > 8 {
            return;
        }
        *total.entry(m.to_string()).or_default() += times * own.get(m).copied().unwrap_or(0);
        if let Some(children) = inst.get(m) {
            for (c, k) in children {
                if own.contains_key(c) {
                    walk(c, times * k, own, inst, total, depth + 1);
                }
            }
        }
    }
    walk(top, 1, &own, &inst, &mut total, 0);
    total.retain(|_, v| *v > 0);
    total
}

/// Yosys `synth_xilinx -family xc7 -flatten`: LUTs (LUT1–LUT6), flip-flops, BRAM18s
/// (a RAMB36E1 is two).
fn xilinx(files: &[PathBuf], top: &str, dir: &Path) -> anyhow::Result<Synthesized> {
    std::fs::create_dir_all(dir)?;
    let t = std::time::Instant::now();
    let cells = flow::yosys_cells(files, top, "synth_xilinx -family xc7 -flatten", dir)?;
    let count = |f: &dyn Fn(&str) -> bool| {
        cells
            .iter()
            .filter(|(k, _)| f(k))
            .map(|(_, v)| v)
            .sum::<u64>()
    };
    Ok(Synthesized {
        top: top.to_string(),
        placed_top: top.to_string(),
        family: Family::Ecp5,
        dir: dir.to_path_buf(),
        lut4: count(&|k| k.starts_with("LUT") && k.len() == 4),
        flip_flops: count(&|k| k.starts_with("FD")),
        brams: count(&|k| k == "RAMB18E1") + 2 * count(&|k| k == "RAMB36E1"),
        io: 0,
        cells: cells.clone(),
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// Places the largest size of `fam` that fits `dev` after synthesis (one size down at a
/// time while routing fails).
fn place_largest(
    args: &Args,
    fam: Fam,
    dev: &'static Device,
    synth: &[Synth],
) -> anyhow::Result<Option<Placed>> {
    let tool = Tool::Fpga(dev.family);
    let mut fits: Vec<&Synth> = synth
        .iter()
        .filter(|r| r.family == fam.label() && r.tool == tool.name())
        .filter(|r| r.lut4 <= dev.luts && r.flip_flops <= dev.ffs && r.brams <= dev.brams)
        .collect();
    fits.sort_by_key(|r| std::cmp::Reverse(r.size));
    let board = Board::default_for(dev);
    let mut failed = Vec::new();
    for r in fits {
        let dir = dir_of(args, fam, r.size, tool);
        let pkg = dev
            .package(board.map(|b| b.package))
            .map_err(anyhow::Error::msg)?;
        let pins = board.map(|b| workspace_root().join(b.pins));
        let s: Synthesized = synthesized_of(&dir.join("top"), r, dev.family)?;
        eprintln!(
            "{} n = {} on {}: placing and routing…",
            fam.label(),
            r.pes,
            dev.part
        );
        let summary: Summary = match flow::place(
            &s,
            dev,
            pkg,
            pins.as_deref(),
            args.freq,
            lcanet_testbench::fpga::flow::Knobs {
                seed: 1,
                placer: Some(Placer::default_for(
                    dev.family,
                    !matches!(fam, Fam::Cube | Fam::Min),
                )),
                ..Default::default()
            },
            &dir.join(dev.name),
            &|_| {},
        ) {
            Ok(x) => x,
            Err(FpgaError::Step { what, error }) => {
                eprintln!("  {what} failed: {error}");
                failed.push(r.size);
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let spec = spec(fam, r.size, args.message_bits, tool.clock_hz())?;
        let round = crate::cli::generate::selftest::RoundTime::of(&spec)?;
        let (bit_times, round_clocks) = (round.bit_times, round.clocks);
        return Ok(Some(Placed {
            family: fam.label().to_string(),
            device: dev.name.to_string(),
            size: r.size,
            pes: r.pes,
            lut4: summary.lut4,
            flip_flops: summary.flip_flops,
            brams: summary.brams,
            utilization_pct: summary.utilization_pct,
            fmax_mhz: summary.fmax_mhz,
            bit_times,
            round_clocks,
            us_per_round: summary.fmax_mhz.map(|f| bit_times / f),
            pnr_seconds: summary.seconds.pnr,
            critical_path: summary.critical_path.clone(),
            failed,
        }));
    }
    Ok(None)
}

/// The synthesis record of a cached run, as placement needs it.
fn synthesized_of(dir: &Path, r: &Synth, family: Family) -> anyhow::Result<Synthesized> {
    let synth_json = dir.join("synth.json");
    if !synth_json.is_file() {
        bail!(
            "{} is missing: run the bench again without its cache",
            synth_json.display()
        );
    }
    let top = std::fs::read_dir(dir.parent().context("a size directory")?.join("rtl"))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|f| f.starts_with("selftest_") && f.ends_with(".f"))
        .map(|f| f.trim_end_matches(".f").to_string())
        .context("the cached self-test's file list")?;
    Ok(Synthesized {
        top: top.clone(),
        placed_top: top,
        family,
        dir: dir.canonicalize()?,
        lut4: r.lut4,
        flip_flops: r.flip_flops,
        brams: r.brams,
        io: 5,
        cells: BTreeMap::new(),
        seconds: r.seconds,
    })
}

fn markdown(args: &Args, devices: &[&Device], r: &Report) -> String {
    let mut t = String::new();
    t.push_str(&format!(
        "Self-tests synthesized ({}-bit messages; LUT4 / flip-flops / block RAMs; network alone and its largest parts). \
         The network alone is synthesized with its ports free; inside the self-test its tied inputs (act, algorithm, seed) \
         are constants Yosys folds, so the difference can be negative:\n\n",
        args.message_bits
    ));
    t.push_str("| family | n | tool | LUT4 | FF | BRAM | network alone LUT4 | self-test − network alone | largest parts |\n|---|---:|---|---:|---:|---:|---:|---:|---|\n");
    for s in &r.synth {
        let parts: Vec<String> = {
            let mut v: Vec<(&String, &u64)> = s.parts.iter().collect();
            v.sort_by_key(|(_, n)| std::cmp::Reverse(**n));
            v.iter().take(3).map(|(k, n)| format!("{k} {n}")).collect()
        };
        t.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            s.family,
            s.pes,
            s.tool,
            s.lut4,
            s.flip_flops,
            s.brams,
            s.network_lut4.map_or("—".into(), |x| x.to_string()),
            s.network_lut4
                .map_or("—".into(), |x| (s.lut4 as i64 - x as i64).to_string()),
            parts.join(", ")
        ));
    }
    let xc7: Vec<&Synth> = r.synth.iter().filter(|s| s.tool == "xc7").collect();
    if !xc7.is_empty() {
        t.push_str("\nXilinx 7-series estimates (Yosys synth_xilinx -family xc7 -flatten; not placed):\n\n");
        t.push_str("| family | n | LUTs | FFs | BRAM18 | Arty A7-35T | Arty A7-100T |\n|---|---:|---:|---:|---:|---|---|\n");
        for s in xc7 {
            let fit = |&(_, l, f, b): &(&str, u64, u64, u64)| {
                if s.lut4 <= l && s.flip_flops <= f && s.brams <= b {
                    format!("{:.0} % of LUTs", 100.0 * s.lut4 as f64 / l as f64)
                } else {
                    "does not fit".to_string()
                }
            };
            t.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} |\n",
                s.family,
                s.pes,
                s.lut4,
                s.flip_flops,
                s.brams,
                fit(&ARTY[0]),
                fit(&ARTY[1])
            ));
        }
    }
    if !r.placed.is_empty() {
        t.push_str(&format!(
            "\nLargest self-test placed and routed per device (target {} MHz):\n\n",
            args.freq
        ));
        t.push_str("| family | device | n | LUT4 | FF | BRAM | logic cells | Fmax MHz | bit-times / round | µs / round at Fmax |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for p in &r.placed {
            t.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {:.0} % | {} | {:.0} | {} |\n",
                p.family,
                devices
                    .iter()
                    .find(|d| d.name == p.device)
                    .map_or(p.device.as_str(), |d| d.part),
                p.pes,
                p.lut4,
                p.flip_flops,
                p.brams,
                p.utilization_pct,
                p.fmax_mhz.map_or("—".into(), |f| format!("{f:.1}")),
                p.bit_times,
                p.us_per_round.map_or("—".into(), |u| format!("{u:.1}"))
            ));
        }
    }
    t
}
