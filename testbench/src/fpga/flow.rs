//! One run of the open FPGA flow: Yosys (`synth_ice40` or `synth_ecp5`) → nextpnr →
//! icepack or ecppack, with the checks a board design needs before the long place and
//! route: the design's IOs against the package's bonded pins, its LUTs, flip-flops and
//! block RAMs against the device. The summary has the resources after synthesis and after
//! placement, the achieved Fmax and the bitstream.

use super::device::{Device, Family, Package};
use super::ioring::{self, PortInfo};
use super::FpgaError;
use crate::tools::yosys::parse_stat_json;
use crate::tools::{failed, locate, run_capture, Tool, ToolError};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// What to place and route.
pub struct FlowSpec<'a> {
    /// The design's Verilog files.
    pub files: Vec<PathBuf>,
    /// Its top module.
    pub top: String,
    /// The device.
    pub device: &'static Device,
    /// Its package.
    pub package: Package,
    /// Pin constraints (PCF for iCE40, LPF for ECP5); without them nextpnr may put the
    /// ports anywhere.
    pub pins: Option<PathBuf>,
    /// Wrap the design in the 3-pin IO ring ([`ioring`]) instead of placing its own ports.
    pub ioring: bool,
    /// Target clock frequency, MHz.
    pub freq_mhz: f64,
    /// nextpnr's placement seed and router.
    pub knobs: Knobs,
    /// Output directory (created).
    pub out: PathBuf,
    /// Called with a line at the start of each long step.
    pub progress: &'a dyn Fn(&str),
}

/// nextpnr's router (`--router`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Router {
    /// nextpnr's default router.
    Router1,
    /// The newer one: on the LFE5U-85F self-tests (tens of thousands of cells) router1
    /// stalled with congestion for most of an hour where router2 finished.
    Router2,
}

impl Router {
    /// The router the flow uses on `family` unless told otherwise: router2 on the ECP5
    /// (large designs), nextpnr's default on the iCE40.
    pub fn default_for(family: Family) -> Router {
        match family {
            Family::Ice40 => Router::Router1,
            Family::Ecp5 => Router::Router2,
        }
    }

    fn flag(self) -> &'static str {
        match self {
            Router::Router1 => "router1",
            Router::Router2 => "router2",
        }
    }
}

/// nextpnr's placer (`--placer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Placer {
    /// The analytic placer HeAP, nextpnr's default.
    Heap,
    /// Simulated annealing.
    Sa,
    /// The electrostatic placer (nextpnr-ecp5 only).
    Static,
}

impl Placer {
    /// The placer the flow uses unless told otherwise: HeAP (nextpnr's default), but the
    /// static placer for an LCA network's self-test (`lca`) on the ECP5. Measured on the
    /// LFE5U-85F on the same netlists (`docs/decisions/fpga-flow.md`): static gave the
    /// 32-PE CB(2,2) 59.3 MHz against 47.4 and legalized the 128-PE T(2,1) that HeAP
    /// could not place; HeAP gave the 7-cube 41.0 against 37.1 and the omega m = 6 MIN
    /// 59.3 against 48.6.
    pub fn default_for(family: Family, lca: bool) -> Placer {
        match family {
            Family::Ecp5 if lca => Placer::Static,
            _ => Placer::Heap,
        }
    }

    /// Whether `family`'s nextpnr has this placer: nextpnr-ice40 (Debian's 0.4) has HeAP
    /// and SA only.
    pub fn check(self, family: Family) -> Result<(), FpgaError> {
        match (self, family) {
            (Placer::Static, Family::Ice40) => Err(FpgaError::Design(
                "--placer static: nextpnr-ice40 has no static placer (it has heap and sa)".into(),
            )),
            _ => Ok(()),
        }
    }

    fn flag(self) -> &'static str {
        match self {
            Placer::Heap => "heap",
            Placer::Sa => "sa",
            Placer::Static => "static",
        }
    }
}

/// nextpnr's knobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Knobs {
    /// Placement seed.
    pub seed: u64,
    /// Router (`None`: [`Router::default_for`] the family).
    pub router: Option<Router>,
    /// Placer (`None`: HeAP, [`Placer::default_for`] a design that is not an LCA self-test).
    pub placer: Option<Placer>,
}

/// Used and available units of a resource, as nextpnr reports them after placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Use {
    /// Used.
    pub used: u64,
    /// Available on the device.
    pub available: u64,
}

/// Seconds of each step.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Seconds {
    /// Yosys.
    pub synth: f64,
    /// nextpnr.
    pub pnr: f64,
    /// icepack / ecppack.
    pub pack: f64,
}

/// The result of a run (also written to `<out>/summary.json`).
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The design's top module.
    pub top: String,
    /// The module placed: the top, or the IO ring around it.
    pub placed_top: String,
    /// `--device`.
    pub device: String,
    /// The part.
    pub part: String,
    /// Its family.
    pub family: Family,
    /// The package.
    pub package: String,
    /// The pin file.
    pub pins: Option<PathBuf>,
    /// LUT4s after synthesis (on the ECP5 a `CCU2C` carry cell counts as its two LUT4s).
    pub lut4: u64,
    /// Flip-flops after synthesis.
    pub flip_flops: u64,
    /// Block RAMs after synthesis.
    pub brams: u64,
    /// IO pins of the placed top.
    pub io: u64,
    /// Bonded user IOs of the package.
    pub io_bonded: u32,
    /// Cells after synthesis, by type.
    pub cells: BTreeMap<String, u64>,
    /// nextpnr's logic cells (`ICESTORM_LC`, `TRELLIS_COMB`).
    pub logic_cells: Use,
    /// Placed logic cells over the device's, percent.
    pub utilization_pct: f64,
    /// nextpnr's utilization report, every resource used.
    pub placed: BTreeMap<String, Use>,
    /// `--freq`.
    pub target_mhz: f64,
    /// nextpnr's placer.
    pub placer: Placer,
    /// nextpnr's router.
    pub router: Router,
    /// The lowest Fmax nextpnr reports over the design's clocks after routing.
    pub fmax_mhz: Option<f64>,
    /// `fmax_mhz ≥ target_mhz`.
    pub timing_met: bool,
    /// The bitstream.
    pub bitstream: PathBuf,
    /// The routed design nextpnr wrote (`.asc` for iCE40, `routed.json` for ECP5): what
    /// the routed-netlist simulation reads.
    pub routed: PathBuf,
    /// The clock's critical path as nextpnr reports it (`pnr.log`).
    pub critical_path: Option<CriticalPath>,
    /// Seconds per step.
    pub seconds: Seconds,
}

/// The worst register-to-register path of the design's clock after routing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CriticalPath {
    /// The cell (and port) it starts from.
    pub from: String,
    /// The cell (and port) it ends at.
    pub to: String,
    /// Nets on the way.
    pub nets: usize,
    /// Nanoseconds in cells.
    pub logic_ns: f64,
    /// Nanoseconds in routing.
    pub routing_ns: f64,
}

/// `lpf` with every `FREQUENCY PORT "p" … ;` constraint set to `mhz`.
fn lpf_at_frequency(lpf: &str, mhz: f64) -> String {
    lpf.lines()
        .map(|l| match l.trim_start().strip_prefix("FREQUENCY PORT ") {
            Some(rest) => {
                let port = rest.split_whitespace().next().unwrap_or_default();
                format!("FREQUENCY PORT {port} {mhz} MHZ;\n")
            }
            None => format!("{l}\n"),
        })
        .collect()
}

/// The first clock's critical path in a nextpnr log (`Critical path report for clock …`
/// up to `… ns logic, … ns routing`).
pub fn critical_path(log: &str) -> Option<CriticalPath> {
    let start = log.find("Critical path report for clock")?;
    let section = &log[start..];
    let end = section.find(" ns routing")?;
    let section = &section[..end + " ns routing".len()];
    let cell = |l: &str, key: &str| {
        l.split_once(key)
            .map(|(_, r)| r.split_whitespace().next().unwrap_or("").to_string())
    };
    let from = section.lines().find_map(|l| cell(l, " Source "))?;
    let to = section.lines().rev().find_map(|l| cell(l, " Sink "))?;
    let nets = section.lines().filter(|l| l.contains(" Net ")).count();
    let last = section.lines().last()?;
    let nums: Vec<f64> = last
        .split_whitespace()
        .filter_map(|w| w.parse::<f64>().ok())
        .collect();
    Some(CriticalPath {
        from,
        to,
        nets,
        logic_ns: *nums.first()?,
        routing_ns: *nums.get(1)?,
    })
}

/// A design synthesized for a family (`<dir>/synth.json`): what placement starts from,
/// for any device of the family.
#[derive(Debug, Clone, Serialize)]
pub struct Synthesized {
    /// The design's top module.
    pub top: String,
    /// The module synthesized: the top, or the IO ring around it.
    pub placed_top: String,
    /// The family.
    pub family: Family,
    /// The directory holding `synth.json` and `synth.log`.
    pub dir: PathBuf,
    /// LUT4s (on the ECP5 a `CCU2C` carry cell counts as its two LUT4s, a
    /// `TRELLIS_DPR16X4` distributed RAM as the six LUT sites nextpnr packs it into: four
    /// RAM LUTs and the two its write port blocks).
    pub lut4: u64,
    /// Flip-flops.
    pub flip_flops: u64,
    /// Block RAMs.
    pub brams: u64,
    /// IO pins of the synthesized top.
    pub io: u64,
    /// Cells by type.
    pub cells: BTreeMap<String, u64>,
    /// Seconds of Yosys.
    pub seconds: f64,
}

/// Synthesizes `files` (top `top`, or the IO ring around it) for `family` into `out`.
pub fn synthesize(
    files: &[PathBuf],
    top: &str,
    family: Family,
    ioring: bool,
    out: &Path,
    progress: &dyn Fn(&str),
) -> Result<Synthesized, FpgaError> {
    std::fs::create_dir_all(out).map_err(|e| ToolError::io("create", out, e))?;
    let out = out
        .canonicalize()
        .map_err(|e| ToolError::io("resolve", out, e))?;
    let mut files = files.to_vec();
    let mut placed_top = top.to_string();
    if ioring {
        let ports = ports_of(&files, top, &out)?;
        let wrapper = out.join("ioring.v");
        std::fs::write(&wrapper, ioring::wrapper(top, &ports)?)
            .map_err(|e| ToolError::io("write", &wrapper, e))?;
        files.push(wrapper);
        placed_top = ioring::TOP.to_string();
    }
    progress(&format!(
        "synthesizing {top} for {family} (Yosys synth_{})",
        family_lc(family)
    ));
    let t = Instant::now();
    let synth_json = out.join("synth.json");
    let cells = yosys_cells(
        &files,
        &placed_top,
        &format!(
            "synth_{} -top {placed_top} -json {}",
            family_lc(family),
            synth_json.display()
        ),
        &out,
    )?;
    let seconds = t.elapsed().as_secs_f64();
    let count = |f: &dyn Fn(&str) -> bool| {
        cells
            .iter()
            .filter(|(k, _)| f(k))
            .map(|(_, v)| v)
            .sum::<u64>()
    };
    let (lut4, flip_flops, brams) = match family {
        Family::Ice40 => (
            count(&|k| k == "SB_LUT4"),
            count(&|k| k.starts_with("SB_DFF")),
            count(&|k| k.starts_with("SB_RAM40_4K")),
        ),
        Family::Ecp5 => (
            count(&|k| k == "LUT4")
                + 2 * count(&|k| k == "CCU2C")
                + 6 * count(&|k| k == "TRELLIS_DPR16X4"),
            count(&|k| k == "TRELLIS_FF"),
            count(&|k| k == "DP16KD"),
        ),
    };
    let io = io_bits(&synth_json, &placed_top)?;
    Ok(Synthesized {
        top: top.to_string(),
        placed_top,
        family,
        dir: out,
        lut4,
        flip_flops,
        brams,
        io,
        cells,
        seconds,
    })
}

/// Whether `s` fits `device` in `package`: its IOs against the bonded pins, its LUT4s,
/// flip-flops and block RAMs against the device; the error names the count and the limit.
pub fn check_fits(s: &Synthesized, dev: &Device, pkg: Package) -> Result<(), FpgaError> {
    if s.family != dev.family {
        return Err(FpgaError::Design(format!(
            "{} was synthesized for {}, not for the {}",
            s.placed_top, s.family, dev.part
        )));
    }
    if s.io > u64::from(pkg.bonded_io) {
        return Err(FpgaError::Design(format!(
            "{} has {} IOs, more than the {} bonded user IOs of the {} {}: {}",
            s.placed_top,
            s.io,
            pkg.bonded_io,
            dev.part,
            pkg.name,
            if s.placed_top == ioring::TOP {
                "even the IO ring does not fit this package"
            } else {
                "a bare network's ports are no board design; place its self-test (`lcanet generate selftest`) or let the IO ring wrap it"
            }
        )));
    }
    for (what, used, avail) in [
        ("LUT4s", s.lut4, dev.luts),
        ("flip-flops", s.flip_flops, dev.ffs),
        ("block RAMs", s.brams, dev.brams),
    ] {
        if used > avail {
            return Err(FpgaError::Design(format!(
                "{} needs {used} {what} after synthesis; the {} has {avail} (try a smaller network or a larger device)",
                s.placed_top, dev.part
            )));
        }
    }
    Ok(())
}

/// Runs the flow; writes everything under `spec.out`.
pub fn run(spec: &FlowSpec) -> Result<Summary, FpgaError> {
    let s = synthesize(
        &spec.files,
        &spec.top,
        spec.device.family,
        spec.ioring,
        &spec.out,
        spec.progress,
    )?;
    check_fits(&s, spec.device, spec.package)?;
    place(
        &s,
        spec.device,
        spec.package,
        spec.pins.as_deref(),
        spec.freq_mhz,
        spec.knobs,
        &s.dir.clone(),
        spec.progress,
    )
}

/// Places and routes a synthesized design on `dev` (in `pkg`, with `pins`) into `out`
/// and packs its bitstream.
#[allow(clippy::too_many_arguments)]
pub fn place(
    s: &Synthesized,
    dev: &Device,
    pkg: Package,
    pins: Option<&Path>,
    freq_mhz: f64,
    knobs: Knobs,
    out: &Path,
    progress: &dyn Fn(&str),
) -> Result<Summary, FpgaError> {
    let router = knobs.router.unwrap_or(Router::default_for(dev.family));
    let placer = knobs
        .placer
        .unwrap_or(Placer::default_for(dev.family, false));
    placer.check(dev.family)?;
    std::fs::create_dir_all(out).map_err(|e| ToolError::io("create", out, e))?;
    let out = out
        .canonicalize()
        .map_err(|e| ToolError::io("resolve", out, e))?;
    let synth_json = s.dir.join("synth.json");
    progress(&format!(
        "placing and routing on {} {} ({} LUT4s, {} flip-flops, {} block RAMs, {} IOs), target {freq_mhz} MHz",
        dev.part, pkg.name, s.lut4, s.flip_flops, s.brams, s.io
    ));
    let t = Instant::now();
    let report = out.join("report.json");
    let (routed, packed) = match dev.family {
        Family::Ice40 => (
            out.join(format!("{}.asc", s.top)),
            out.join(format!("{}.bin", s.top)),
        ),
        Family::Ecp5 => (out.join("routed.json"), out.join(format!("{}.bit", s.top))),
    };
    let config = out.join(format!("{}.config", s.top));
    // An LPF's `FREQUENCY` overrides nextpnr's `--freq`: the board's oscillator would
    // become the timing target. Constrain the clock at `freq_mhz` through a copy.
    let pins = match (dev.family, pins) {
        (Family::Ecp5, Some(p)) => {
            let text = std::fs::read_to_string(p).map_err(|e| ToolError::io("read", p, e))?;
            let local = out.join("pins.lpf");
            std::fs::write(&local, lpf_at_frequency(&text, freq_mhz))
                .map_err(|e| ToolError::io("write", &local, e))?;
            Some(local)
        }
        (_, p) => p.map(Path::to_path_buf),
    };
    let pins = pins.as_deref();
    let pnr_tool = match dev.family {
        Family::Ice40 => Tool::NextpnrIce40,
        Family::Ecp5 => Tool::NextpnrEcp5,
    };
    // File names relative to `out`, the tools' working directory: the WebAssembly
    // nextpnr-ecp5 could not open an absolute path for writing here.
    let name = |p: &Path| p.file_name().map(PathBuf::from).unwrap_or_default();
    let local_synth = out.join("synth.json");
    if local_synth != synth_json {
        std::fs::copy(&synth_json, &local_synth)
            .map_err(|e| ToolError::io("copy", &synth_json, e))?;
    }
    tool(pnr_tool, &out, "place and route", |c| {
        c.arg(dev.pnr_flag).args(["--package", pkg.name]);
        c.arg("--json")
            .arg("synth.json")
            .arg("--report")
            .arg(name(&report));
        c.arg("--freq").arg(freq_mhz.to_string());
        c.arg("--seed").arg(knobs.seed.to_string());
        c.args(["--router", router.flag()]);
        c.args(["--placer", placer.flag()]);
        c.args(["--timing-allow-fail", "-q", "-l", "pnr.log"]);
        let (pins_flag, loose) = match dev.family {
            Family::Ice40 => ("--pcf", "--pcf-allow-unconstrained"),
            Family::Ecp5 => ("--lpf", "--lpf-allow-unconstrained"),
        };
        match pins {
            Some(p) => c.arg(pins_flag).arg(p),
            None => c.arg(loose),
        };
        match dev.family {
            Family::Ice40 => c.arg("--asc").arg(name(&routed)),
            Family::Ecp5 => c
                .arg("--textcfg")
                .arg(name(&config))
                .arg("--write")
                .arg(name(&routed)),
        };
    })?;
    if local_synth != synth_json {
        let _ = std::fs::remove_file(&local_synth);
    }
    let pnr = t.elapsed().as_secs_f64();

    let t = Instant::now();
    match dev.family {
        Family::Ice40 => tool(Tool::Icepack, &out, "pack", |c| {
            c.arg(name(&routed)).arg(name(&packed));
        })?,
        Family::Ecp5 => tool(Tool::Ecppack, &out, "pack", |c| {
            c.arg("--compress")
                .arg("--input")
                .arg(name(&config))
                .arg("--bit")
                .arg(name(&packed));
        })?,
    };
    let pack = t.elapsed().as_secs_f64();

    let (placed, fmax_mhz) = read_report(&report)?;
    let critical_path = std::fs::read_to_string(out.join("pnr.log"))
        .ok()
        .and_then(|l| critical_path(&l));
    let lc_name = match dev.family {
        Family::Ice40 => "ICESTORM_LC",
        Family::Ecp5 => "TRELLIS_COMB",
    };
    let logic_cells = placed.get(lc_name).copied().unwrap_or(Use {
        used: 0,
        available: dev.luts,
    });
    let summary = Summary {
        top: s.top.clone(),
        placed_top: s.placed_top.clone(),
        device: dev.name.to_string(),
        part: dev.part.to_string(),
        family: dev.family,
        package: pkg.name.to_string(),
        pins: pins.map(Path::to_path_buf),
        lut4: s.lut4,
        flip_flops: s.flip_flops,
        brams: s.brams,
        io: s.io,
        io_bonded: pkg.bonded_io,
        cells: s.cells.clone(),
        logic_cells,
        utilization_pct: 100.0 * logic_cells.used as f64 / logic_cells.available.max(1) as f64,
        placed,
        target_mhz: freq_mhz,
        fmax_mhz,
        timing_met: fmax_mhz.is_some_and(|f| f >= freq_mhz),
        bitstream: packed,
        routed,
        critical_path,
        placer,
        router,
        seconds: Seconds {
            synth: s.seconds,
            pnr,
            pack,
        },
    };
    let path = out.join("summary.json");
    let text =
        serde_json::to_string_pretty(&summary).map_err(|e| FpgaError::Design(e.to_string()))?;
    std::fs::write(&path, text).map_err(|e| ToolError::io("write", &path, e))?;
    Ok(summary)
}

fn family_lc(f: Family) -> &'static str {
    match f {
        Family::Ice40 => "ice40",
        Family::Ecp5 => "ecp5",
    }
}

/// Runs `tool` in `dir` with the arguments `args` adds; a non-zero exit is an error that
/// keeps the log's relevant lines.
fn tool(
    tool: Tool,
    dir: &Path,
    what: &'static str,
    args: impl FnOnce(&mut Command),
) -> Result<(), FpgaError> {
    let mut cmd = Command::new(locate(tool)?);
    cmd.current_dir(dir);
    args(&mut cmd);
    let out = run_capture(tool, &mut cmd)?;
    if !out.status.success() {
        return Err(FpgaError::Step {
            what,
            error: Box::new(failed(tool, &cmd, &out, out.status.to_string())),
        });
    }
    Ok(())
}

/// Runs Yosys in `dir` on `files` with the synthesis command `synth` (log in
/// `synth.log`) and returns the cells of `top` by type, from `stat -json` (`stat.json`).
pub fn yosys_cells(
    files: &[PathBuf],
    top: &str,
    synth: &str,
    dir: &Path,
) -> Result<BTreeMap<String, u64>, FpgaError> {
    let stat_json = dir.join("stat.json");
    let mut script = read_script(files);
    script.push_str(&format!(
        "{synth}\ntee -q -o {} stat -json -top {top}\n",
        stat_json.display()
    ));
    tool(Tool::Yosys, dir, "synth", |c| {
        c.arg("-q").arg("-l").arg(dir.join("synth.log"));
        c.arg("-p").arg(&script);
    })?;
    let raw =
        std::fs::read_to_string(&stat_json).map_err(|e| ToolError::io("read", &stat_json, e))?;
    Ok(parse_stat_json(&raw)?.by_type)
}

/// `read_verilog` of every file, for a Yosys script.
fn read_script(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|f| format!("read_verilog -noautowire \"{}\"\n", f.display()))
        .collect()
}

/// The ports of `top` (Yosys reads the design and writes its JSON netlist).
fn ports_of(files: &[PathBuf], top: &str, out: &Path) -> Result<Vec<PortInfo>, FpgaError> {
    let json = out.join("ports.json");
    let mut script = read_script(files);
    script.push_str(&format!(
        "hierarchy -top {top}\nproc\nwrite_json {}\n",
        json.display()
    ));
    tool(Tool::Yosys, out, "read the design", |c| {
        c.arg("-q").arg("-p").arg(&script);
    })?;
    let ports = module_ports(&json, top)?;
    let _ = std::fs::remove_file(&json);
    Ok(ports)
}

/// The ports of `module` in a Yosys JSON netlist.
pub(crate) fn module_ports(json: &Path, module: &str) -> Result<Vec<PortInfo>, FpgaError> {
    let text = std::fs::read_to_string(json).map_err(|e| ToolError::io("read", json, e))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| ToolError::Parse {
        tool: "yosys",
        what: "JSON netlist",
        detail: e.to_string(),
    })?;
    let ports = v["modules"][module]["ports"]
        .as_object()
        .ok_or_else(|| ToolError::Parse {
            tool: "yosys",
            what: "JSON netlist",
            detail: format!("no module {module} with ports in {}", json.display()),
        })?;
    Ok(ports
        .iter()
        .map(|(name, p)| PortInfo {
            name: name.clone(),
            input: p["direction"] == "input",
            width: p["bits"].as_array().map_or(0, Vec::len),
        })
        .collect())
}

fn io_bits(json: &Path, top: &str) -> Result<u64, FpgaError> {
    Ok(module_ports(json, top)?
        .iter()
        .map(|p| p.width as u64)
        .sum())
}

/// nextpnr's `--report`: every resource used, and the lowest achieved Fmax.
fn read_report(path: &Path) -> Result<(BTreeMap<String, Use>, Option<f64>), FpgaError> {
    let text = std::fs::read_to_string(path).map_err(|e| ToolError::io("read", path, e))?;
    let bad = |detail: String| ToolError::Parse {
        tool: "nextpnr",
        what: "--report",
        detail,
    };
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let mut placed = BTreeMap::new();
    for (k, u) in v["utilization"]
        .as_object()
        .ok_or_else(|| bad("no utilization".into()))?
    {
        let used = u["used"].as_u64().unwrap_or(0);
        if used > 0 {
            let available = u["available"].as_u64().unwrap_or(0);
            placed.insert(k.clone(), Use { used, available });
        }
    }
    let fmax = v["fmax"]
        .as_object()
        .into_iter()
        .flat_map(|m| m.values())
        .filter_map(|c| c["achieved"].as_f64())
        .reduce(f64::min);
    Ok((placed, fmax))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_critical_path_is_read_from_the_log() {
        let log = "Info: Critical path report for clock 'clk' (posedge -> posedge):
Info:       type curr  total name
Info:   clk-to-q  0.52  0.52 Source cnt_TRELLIS_FF_Q_9.Q
Info:    routing  1.35  1.87 Net cnt[22] (19,10) -> (20,12)
Info:                          Sink rem_LUT4_A_6.D
Info:      logic  0.24  6.79 Source rem_LUT4_Z.OFX
Info:    routing  0.95  7.74 Net rem_DI (14,11) -> (17,12)
Info:                          Sink rem_TRELLIS_FF_Q_8.M
Info: 2.12 ns logic, 5.62 ns routing
";
        let p = critical_path(log).unwrap();
        assert_eq!(p.from, "cnt_TRELLIS_FF_Q_9.Q");
        assert_eq!(p.to, "rem_TRELLIS_FF_Q_8.M");
        assert_eq!((p.nets, p.logic_ns, p.routing_ns), (2, 2.12, 5.62));
        assert!(critical_path("Info: Program finished normally.").is_none());
    }

    #[test]
    fn an_lpf_clock_is_constrained_at_the_target() {
        let lpf = "LOCATE COMP \"clock\" SITE \"G2\";\nFREQUENCY PORT \"clock\" 25 MHZ;\n";
        assert_eq!(
            lpf_at_frequency(lpf, 50.0),
            "LOCATE COMP \"clock\" SITE \"G2\";\nFREQUENCY PORT \"clock\" 50 MHZ;\n"
        );
    }
}
