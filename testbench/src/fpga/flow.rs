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
    /// nextpnr's placement seed.
    pub seed: u64,
    /// Output directory (created).
    pub out: PathBuf,
    /// Called with a line at the start of each long step.
    pub progress: &'a dyn Fn(&str),
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
    /// The lowest Fmax nextpnr reports over the design's clocks after routing.
    pub fmax_mhz: Option<f64>,
    /// `fmax_mhz ≥ target_mhz`.
    pub timing_met: bool,
    /// The bitstream.
    pub bitstream: PathBuf,
    /// The routed design nextpnr wrote (`.asc` for iCE40, `routed.json` for ECP5): what
    /// the routed-netlist simulation reads.
    pub routed: PathBuf,
    /// Seconds per step.
    pub seconds: Seconds,
}

/// Runs the flow; writes everything under `spec.out`.
pub fn run(spec: &FlowSpec) -> Result<Summary, FpgaError> {
    let dev = spec.device;
    std::fs::create_dir_all(&spec.out).map_err(|e| ToolError::io("create", &spec.out, e))?;
    let out = spec
        .out
        .canonicalize()
        .map_err(|e| ToolError::io("resolve", &spec.out, e))?;
    let mut files = spec.files.clone();
    let mut placed_top = spec.top.clone();
    if spec.ioring {
        let ports = ports_of(&spec.files, &spec.top, &out)?;
        let wrapper = out.join("ioring.v");
        std::fs::write(&wrapper, ioring::wrapper(&spec.top, &ports)?)
            .map_err(|e| ToolError::io("write", &wrapper, e))?;
        files.push(wrapper);
        placed_top = ioring::TOP.to_string();
    }

    (spec.progress)(&format!(
        "synthesizing {} for {} (Yosys synth_{})",
        spec.top,
        dev.part,
        family_lc(dev.family)
    ));
    let t = Instant::now();
    let synth_json = out.join("synth.json");
    let stat_json = out.join("stat.json");
    let mut script = String::new();
    for f in &files {
        script.push_str(&format!("read_verilog -noautowire \"{}\"\n", f.display()));
    }
    script.push_str(&format!(
        "synth_{} -top {placed_top} -json {}\ntee -q -o {} stat -json -top {placed_top}\n",
        family_lc(dev.family),
        synth_json.display(),
        stat_json.display()
    ));
    tool(Tool::Yosys, &out, "synth", |c| {
        c.arg("-q").arg("-l").arg(out.join("synth.log"));
        c.arg("-p").arg(&script);
    })?;
    let synth = Instant::now().duration_since(t).as_secs_f64();
    let raw =
        std::fs::read_to_string(&stat_json).map_err(|e| ToolError::io("read", &stat_json, e))?;
    let cells = parse_stat_json(&raw)?.by_type;
    let count = |f: &dyn Fn(&str) -> bool| {
        cells
            .iter()
            .filter(|(k, _)| f(k))
            .map(|(_, v)| v)
            .sum::<u64>()
    };
    let (lut4, flip_flops, brams) = match dev.family {
        Family::Ice40 => (
            count(&|k| k == "SB_LUT4"),
            count(&|k| k.starts_with("SB_DFF")),
            count(&|k| k.starts_with("SB_RAM40_4K")),
        ),
        Family::Ecp5 => (
            count(&|k| k == "LUT4") + 2 * count(&|k| k == "CCU2C"),
            count(&|k| k == "TRELLIS_FF"),
            count(&|k| k == "DP16KD"),
        ),
    };
    let io = io_bits(&synth_json, &placed_top)?;

    let pkg = spec.package;
    if io > u64::from(pkg.bonded_io) {
        return Err(FpgaError::Design(format!(
            "{placed_top} has {io} IOs, more than the {} bonded user IOs of the {} {}: {}",
            pkg.bonded_io,
            dev.part,
            pkg.name,
            if spec.ioring {
                "even the IO ring does not fit this package"
            } else {
                "a bare network's ports are no board design; place its self-test (`lcanet generate selftest`) or let the IO ring wrap it"
            }
        )));
    }
    for (what, used, avail) in [
        ("LUT4s", lut4, dev.luts),
        ("flip-flops", flip_flops, dev.ffs),
        ("block RAMs", brams, dev.brams),
    ] {
        if used > avail {
            return Err(FpgaError::Design(format!(
                "{placed_top} needs {used} {what} after synthesis; the {} has {avail} (try a smaller network or a larger device)",
                dev.part
            )));
        }
    }

    (spec.progress)(&format!(
        "placing and routing on {} {} ({lut4} LUT4s, {flip_flops} flip-flops, {brams} block RAMs, {io} IOs), target {} MHz",
        dev.part, pkg.name, spec.freq_mhz
    ));
    let t = Instant::now();
    let report = out.join("report.json");
    let (routed, packed) = match dev.family {
        Family::Ice40 => (
            out.join(format!("{}.asc", spec.top)),
            out.join(format!("{}.bin", spec.top)),
        ),
        Family::Ecp5 => (
            out.join("routed.json"),
            out.join(format!("{}.bit", spec.top)),
        ),
    };
    let config = out.join(format!("{}.config", spec.top));
    let pnr_tool = match dev.family {
        Family::Ice40 => Tool::NextpnrIce40,
        Family::Ecp5 => Tool::NextpnrEcp5,
    };
    // File names relative to `out`, the tools' working directory: the WebAssembly
    // nextpnr-ecp5 could not open an absolute path for writing here.
    let name = |p: &Path| p.file_name().map(PathBuf::from).unwrap_or_default();
    tool(pnr_tool, &out, "place and route", |c| {
        c.arg(dev.pnr_flag).args(["--package", pkg.name]);
        c.arg("--json")
            .arg(name(&synth_json))
            .arg("--report")
            .arg(name(&report));
        c.arg("--freq").arg(spec.freq_mhz.to_string());
        c.arg("--seed").arg(spec.seed.to_string());
        c.args(["--timing-allow-fail", "-q", "-l", "pnr.log"]);
        let (pins_flag, loose) = match dev.family {
            Family::Ice40 => ("--pcf", "--pcf-allow-unconstrained"),
            Family::Ecp5 => ("--lpf", "--lpf-allow-unconstrained"),
        };
        match &spec.pins {
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
    let lc_name = match dev.family {
        Family::Ice40 => "ICESTORM_LC",
        Family::Ecp5 => "TRELLIS_COMB",
    };
    let logic_cells = placed.get(lc_name).copied().unwrap_or(Use {
        used: 0,
        available: dev.luts,
    });
    let summary = Summary {
        top: spec.top.clone(),
        placed_top,
        device: dev.name.to_string(),
        part: dev.part.to_string(),
        family: dev.family,
        package: pkg.name.to_string(),
        pins: spec.pins.clone(),
        lut4,
        flip_flops,
        brams,
        io,
        io_bonded: pkg.bonded_io,
        cells,
        logic_cells,
        utilization_pct: 100.0 * logic_cells.used as f64 / logic_cells.available.max(1) as f64,
        placed,
        target_mhz: spec.freq_mhz,
        fmax_mhz,
        timing_met: fmax_mhz.is_some_and(|f| f >= spec.freq_mhz),
        bitstream: packed,
        routed,
        seconds: Seconds { synth, pnr, pack },
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

/// The ports of `top` (Yosys reads the design and writes its JSON netlist).
fn ports_of(files: &[PathBuf], top: &str, out: &Path) -> Result<Vec<PortInfo>, FpgaError> {
    let json = out.join("ports.json");
    let mut script = String::new();
    for f in files {
        script.push_str(&format!("read_verilog -noautowire \"{}\"\n", f.display()));
    }
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
