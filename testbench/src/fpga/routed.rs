//! The placed design itself, simulated: the netlist that place and route produced, turned
//! back into Verilog, run in Icarus from power-up, its pins compared clock by clock with
//! the self-test's golden prediction (the same check as the RTL co-simulation,
//! [`crate::selftest::LineCheck`]).
//!
//! - **ECP5**: nextpnr's routed netlist (`--write routed.json`) → Yosys `read_json`,
//!   `write_verilog` → Yosys's `ecp5/cells_sim.v` plus `ecp5_cells.v` (the packed cells
//!   that library lacks). Before that, four facts of nextpnr's netlist that the cell
//!   models cannot see are made explicit (each from nextpnr's `ecp5/pack.cc` and
//!   `bitstream.cc`): a flip-flop with `SD = "0"` takes its data from `M` (the packer
//!   moves an unpaired flip-flop's `DI` there); a `TRELLIS_COMB` whose `FXA`/`FXB` are
//!   connected is a slice's second half, whose wide mux is `L6MUX21` (`IS_Z1`); an
//!   unconnected LUT input reads 0 in a logic LUT (the bitstream's LUT permutation drops
//!   it) and 1 in a carry cell (tied high); the IO cells' `DATAMUX_*` (plain `PADDO`
//!   outputs) are dropped, Yosys 0.23's `TRELLIS_IO` has no such parameter.
//! - **iCE40**: the bitstream itself (`.asc`, what icepack packs) read back by
//!   `icebox_vlog` into self-contained Verilog.
//!
//! This checks the function of the placed netlist (every LUT, carry, flip-flop, block RAM
//! and its power-up value as placed), not its timing: Icarus runs it with zero delays.
//! `fault` (tests only) inverts the LUT that feeds `uart_tx`'s flip-flop, and the check
//! must then fail.

use super::device::Family;
use super::flow::Summary;
use super::FpgaError;
use crate::selftest::{LineCheck, RtlLine};
use crate::tools::{failed, locate, run_capture, run_capture_limited, Tool, ToolError};
use lcanet_hdl::selftest::SelftestSpec;
use lcanet_sim::selftest::{line_timing, predict, Clocks, LineTiming};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The routed netlist's top module in the simulation.
const TOP: &str = "routed_top";
/// The self-test top's ports, in the order the bench prints them.
const PINS: [&str; 4] = ["uart_tx", "led_pass", "led_fail", "heartbeat"];

/// What the routed-netlist simulation found.
#[derive(Debug, Clone, Serialize)]
pub struct RoutedReport {
    /// Self-test rounds run.
    pub rounds: u64,
    /// Lines the placed netlist printed.
    pub lines: Vec<RtlLine>,
    /// Lines the golden model predicted.
    pub expected: Vec<String>,
    /// Their predicted timing.
    pub expected_timing: Vec<LineTiming>,
    /// The first difference (`None`: every line, LED and line time matched).
    pub failure: Option<String>,
    /// Clocks simulated.
    pub clocks: u64,
    /// The Verilog simulated.
    pub netlist: PathBuf,
    /// Seconds: netlist conversion, Icarus compile + run.
    pub convert_seconds: f64,
    /// Seconds of the simulation.
    pub sim_seconds: f64,
}

impl RoutedReport {
    /// Whether the placed netlist matched the prediction everywhere.
    pub fn matched(&self) -> bool {
        self.failure.is_none()
    }
}

/// Simulates the routed netlist of `summary` (a self-test placed with the pin file
/// `pins`) for `rounds` rounds and compares it with `spec`'s prediction.
pub fn check(
    spec: &SelftestSpec,
    rounds: u64,
    summary: &Summary,
    out: &Path,
    fault: bool,
) -> Result<RoutedReport, FpgaError> {
    let every = u64::from(spec.params.report_every);
    if rounds < every {
        return Err(FpgaError::Design(format!(
            "{rounds} rounds print no report line (the self-test prints one every {every}): check at least {every} rounds, or generate with a smaller --report-every"
        )));
    }
    let pred = predict(&spec.golden, &spec.params, rounds)
        .map_err(|e| FpgaError::Design(format!("golden model: {e}")))?;
    let clocks = Clocks::new(&spec.golden, spec.divisor, spec.heartbeat);
    let timing = line_timing(
        spec.golden.line(),
        &pred.rounds,
        spec.params.report_every,
        clocks,
    );
    let last = timing.last().map_or(0, |t| t.last_byte_clock);
    // The last line's last byte: start bit, 8 data bits, stop bit sampled mid-bit.
    let budget = last + 11 * spec.divisor + 8;

    let t = Instant::now();
    let dir = out.join("routed-sim");
    std::fs::create_dir_all(&dir).map_err(|e| ToolError::io("create", &dir, e))?;
    let dir = dir
        .canonicalize()
        .map_err(|e| ToolError::io("resolve", &dir, e))?;
    let netlist = match summary.family {
        Family::Ecp5 => ecp5_verilog(&summary.routed, &dir, fault)?,
        Family::Ice40 => {
            let pins = summary.pins.as_ref().ok_or_else(|| {
                FpgaError::Design(
                    "the iCE40 netlist is read back with its PCF: place the self-test with pins"
                        .into(),
                )
            })?;
            ice40_verilog(&summary.routed, pins, &dir, fault)?
        }
    };
    let sim = compile(&dir, &netlist, summary.family, budget)?;
    let convert_seconds = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let changes = run(&sim, &dir, budget)?;
    let sim_seconds = t.elapsed().as_secs_f64();
    let mut check = LineCheck::new(spec, &pred, &timing);
    let mut pins = [true, false, false, false];
    let mut next = changes.iter().peekable();
    let mut clock = 0;
    while check.wants_more() && clock < budget {
        clock += 1;
        while let Some((_, p)) = next.next_if(|(c, _)| *c <= clock) {
            pins = *p;
        }
        check.clock(clock, pins[0], [pins[1], pins[2], pins[3]], || None);
    }
    if check.wants_more() {
        check.fail(format!(
            "no line {} after {budget} clocks (the prediction's last line ends before)",
            check.lines.len() + 1
        ));
    }
    let (lines, failure) = (check.lines, check.failure);
    Ok(RoutedReport {
        rounds,
        expected: pred.lines.iter().map(|l| l.text.clone()).collect(),
        expected_timing: timing,
        lines,
        failure,
        clocks: clock,
        netlist,
        convert_seconds,
        sim_seconds,
    })
}

/// Yosys's simulation library of the family (`<share>/yosys/<family>/cells_sim.v`).
fn cell_library(family: Family) -> Result<PathBuf, FpgaError> {
    let sub = match family {
        Family::Ice40 => "ice40/cells_sim.v",
        Family::Ecp5 => "ecp5/cells_sim.v",
    };
    let yosys = locate(Tool::Yosys)?;
    let lib = yosys
        .parent()
        .and_then(Path::parent)
        .map(|p| p.join("share/yosys").join(sub))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from("/usr/share/yosys").join(sub));
    if !lib.is_file() {
        return Err(FpgaError::Design(format!(
            "Yosys's simulation library is not at {}: run scripts/setup",
            lib.display()
        )));
    }
    Ok(lib)
}

/// The ECP5 routed netlist as Verilog (see the module's documentation).
fn ecp5_verilog(routed: &Path, dir: &Path, fault: bool) -> Result<PathBuf, FpgaError> {
    let text = std::fs::read_to_string(routed).map_err(|e| ToolError::io("read", routed, e))?;
    let mut v: Value = serde_json::from_str(&text).map_err(|e| ToolError::Parse {
        tool: "nextpnr-ecp5",
        what: "routed netlist (--write)",
        detail: e.to_string(),
    })?;
    let modules = v["modules"]
        .as_object_mut()
        .ok_or_else(|| bad_json("no modules"))?;
    if modules.len() != 1 {
        return Err(bad_json("not exactly one module").into());
    }
    let (name, module) = modules.iter_mut().next().expect("one module");
    let name = name.clone();
    explicit_ecp5(module)?;
    if fault {
        ecp5_fault(module)?;
    }
    let json = dir.join("routed-sim.json");
    std::fs::write(&json, v.to_string()).map_err(|e| ToolError::io("write", &json, e))?;
    let verilog = dir.join("routed.v");
    let mut cmd = Command::new(locate(Tool::Yosys)?);
    cmd.arg("-q").arg("-p").arg(format!(
        "read_json {}; rename {name} {TOP}; write_verilog -noattr {}",
        json.display(),
        verilog.display()
    ));
    checked(Tool::Yosys, &mut cmd)?;
    Ok(verilog)
}

fn bad_json(detail: &str) -> ToolError {
    ToolError::Parse {
        tool: "nextpnr-ecp5",
        what: "routed netlist (--write)",
        detail: detail.to_string(),
    }
}

/// A connection's bits: a net (a number) or a constant (`"0"`, `"1"`) counts as connected.
fn connected(bits: Option<&Value>) -> bool {
    bits.and_then(Value::as_array)
        .is_some_and(|b| b.iter().any(|x| x.is_u64() || x == "0" || x == "1"))
}

/// A parameter's string value (Yosys JSON marks strings that look like numbers with a
/// trailing space).
fn param(cell: &Value, key: &str) -> Option<String> {
    cell["parameters"][key]
        .as_str()
        .map(|s| s.trim_end().to_string())
}

fn explicit_ecp5(module: &mut Value) -> Result<(), FpgaError> {
    let cells = module["cells"]
        .as_object_mut()
        .ok_or_else(|| bad_json("no cells"))?;
    for (name, cell) in cells.iter_mut() {
        let ty = cell["type"].as_str().unwrap_or("").to_string();
        match ty.as_str() {
            "TRELLIS_FF" => {
                if param(cell, "SD").as_deref() == Some("0") {
                    let m = cell["connections"]["M"].clone();
                    cell["connections"]["DI"] = m;
                }
                remove_params(cell, &["SD"]);
            }
            "TRELLIS_IO" => remove_params(cell, &["DATAMUX_MDDR", "DATAMUX_ODDR"]),
            "TRELLIS_COMB" => {
                let mode = param(cell, "MODE").unwrap_or_else(|| "LOGIC".into());
                if mode != "LOGIC" && mode != "CCU2" {
                    return Err(FpgaError::Design(format!(
                        "cell {name} is a TRELLIS_COMB in mode {mode} (LUT RAM), which the routed-netlist simulation does not model: synthesize without LUT RAM"
                    )));
                }
                let conn = &mut cell["connections"];
                if connected(conn.get("FXA")) || connected(conn.get("FXB")) {
                    cell["parameters"]["IS_Z1"] = Value::from("1");
                }
                let tie = if mode == "CCU2" { "1" } else { "0" };
                let conn = &mut cell["connections"];
                for pin in ["A", "B", "C", "D"] {
                    if !connected(conn.get(pin)) {
                        conn[pin] = Value::from(vec![tie]);
                    }
                }
            }
            "DCCA" | "DP16KD" => {}
            other => {
                return Err(FpgaError::Design(format!(
                    "cell {name} is a {other}, which the routed-netlist simulation does not model (TRELLIS_COMB, TRELLIS_FF, TRELLIS_IO, DCCA, DP16KD)"
                )))
            }
        }
    }
    Ok(())
}

fn remove_params(cell: &mut Value, keys: &[&str]) {
    if let Some(p) = cell["parameters"].as_object_mut() {
        for k in keys {
            p.remove(*k);
        }
    }
}

/// The driver of net `bit` among `cells`: (cell name, output port).
fn driver<'a>(
    cells: &'a serde_json::Map<String, Value>,
    bit: &Value,
) -> Option<(&'a str, &'a str)> {
    cells.iter().find_map(|(name, c)| {
        let dirs = c["port_directions"].as_object()?;
        dirs.iter()
            .filter(|(_, d)| *d == "output")
            .find(|(p, _)| {
                c["connections"][p.as_str()]
                    .as_array()
                    .is_some_and(|b| b.first() == Some(bit))
            })
            .map(|(p, _)| (name.as_str(), p.as_str()))
    })
}

/// Inverts the LUT that feeds `uart_tx` (through its flip-flop, if it has one).
fn ecp5_fault(module: &mut Value) -> Result<(), FpgaError> {
    let no = || {
        FpgaError::Design("cannot plant the routed-netlist fault: uart_tx's LUT not found".into())
    };
    let pin = module["ports"]["uart_tx"]["bits"][0].clone();
    let cells = module["cells"].as_object().ok_or_else(no)?;
    let io = cells
        .iter()
        .find(|(_, c)| c["type"] == "TRELLIS_IO" && c["connections"]["B"][0] == pin)
        .map(|(n, _)| n.clone())
        .ok_or_else(no)?;
    let mut bit = cells[&io]["connections"]["I"][0].clone();
    let mut comb = None;
    for _ in 0..2 {
        let (name, _) = driver(cells, &bit).ok_or_else(no)?;
        match cells[name]["type"].as_str() {
            Some("TRELLIS_COMB") => {
                comb = Some(name.to_string());
                break;
            }
            Some("TRELLIS_FF") => bit = cells[name]["connections"]["DI"][0].clone(),
            _ => break,
        }
    }
    let comb = comb.ok_or_else(no)?;
    let cell = &mut module["cells"][&comb];
    let init: String = cell["parameters"]["INITVAL"]
        .as_str()
        .ok_or_else(no)?
        .chars()
        .map(|c| match c {
            '0' => '1',
            '1' => '0',
            c => c,
        })
        .collect();
    cell["parameters"]["INITVAL"] = Value::from(init);
    Ok(())
}

/// The iCE40 bitstream read back into Verilog by `icebox_vlog`. Its output is kept in
/// `dir` under a digest of the bitstream and the PCF: checking the same placed design
/// again (the fault check after the check) reads the bitstream back once, not twice
/// (`icebox_vlog` takes about 10 s of CPU for an HX8K).
fn ice40_verilog(asc: &Path, pcf: &Path, dir: &Path, fault: bool) -> Result<PathBuf, FpgaError> {
    let mut digest = Sha256::new();
    for file in [asc, pcf] {
        let bytes = std::fs::read(file).map_err(|e| ToolError::io("read", file, e))?;
        digest.update((bytes.len() as u64).to_le_bytes());
        digest.update(&bytes);
    }
    let key: String = digest.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let kept = dir.join(format!("icebox-{key}.v"));
    let mut text = match std::fs::read_to_string(&kept) {
        Ok(text) => text,
        Err(_) => {
            let mut cmd = Command::new(locate(Tool::IceboxVlog)?);
            cmd.args(["-s", "-n", TOP, "-p"]).arg(pcf).arg(asc);
            let out = checked(Tool::IceboxVlog, &mut cmd)?;
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            let tmp = dir.join(format!("icebox-{key}.v.tmp"));
            std::fs::write(&tmp, &text).map_err(|e| ToolError::io("write", &tmp, e))?;
            std::fs::rename(&tmp, &kept).map_err(|e| ToolError::io("rename", &tmp, e))?;
            text
        }
    };
    if fault {
        text = ice40_fault(&text)?;
    }
    let verilog = dir.join("routed.v");
    std::fs::write(&verilog, text).map_err(|e| ToolError::io("write", &verilog, e))?;
    Ok(verilog)
}

/// Inverts the LUT that feeds `uart_tx` in `icebox_vlog`'s text: follows `assign` and
/// flip-flop lines back from the pin to the first LUT (`assign n = /* LUT … */ expr;`).
fn ice40_fault(text: &str) -> Result<String, FpgaError> {
    let no = || {
        FpgaError::Design("cannot plant the routed-netlist fault: uart_tx's LUT not found".into())
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut net = "uart_tx".to_string();
    for _ in 0..4 {
        let assign = format!("assign {net} = ");
        let ff = format!(" {net} <= ");
        let i = lines
            .iter()
            .position(|l| l.contains(&assign) || l.contains(&ff))
            .ok_or_else(no)?;
        let l = lines[i];
        if let Some(at) = l.find("/* LUT") {
            let body = l[at..].find("*/").map(|e| at + e + 2).ok_or_else(no)?;
            let expr = l[body..].trim().trim_end_matches(';');
            let mut out = lines.clone();
            let fixed = format!("{} !({expr});", &l[..body]);
            out[i] = &fixed;
            return Ok(out.join("\n") + "\n");
        }
        // `assign net = other;` or `… net <= cond ? c : other;`: go on with `other`.
        net = l
            .trim_end_matches(';')
            .rsplit([' ', ':', '='])
            .next()
            .filter(|s| !s.is_empty())
            .ok_or_else(no)?
            .to_string();
    }
    Err(no())
}

fn checked(tool: Tool, cmd: &mut Command) -> Result<std::process::Output, FpgaError> {
    let out = run_capture(tool, cmd)?;
    if !out.status.success() {
        return Err(failed(tool, cmd, &out, out.status.to_string()).into());
    }
    Ok(out)
}

/// Writes the bench (a clock, and a line `<clock> <pins>` whenever a pin changes after a
/// rising edge) and compiles it with the netlist and the cell libraries (Yosys's, and for
/// the ECP5 ours).
fn compile(dir: &Path, netlist: &Path, family: Family, clocks: u64) -> Result<PathBuf, FpgaError> {
    let pins = PINS.map(|p| format!(".{p}({p})")).join(", ");
    let cat = PINS.join(", ");
    let tb = format!(
        "`timescale 1ns / 1ps\n\
         // Generated by lcanet fpga --check-routed: the routed netlist from power-up; after\n\
         // every rising edge, the clock number and the pins ({cat}) when they changed.\n\
         module routed_tb;\n\
         \x20   reg clock = 1'b0;\n\
         \x20   wire {cat};\n\
         \x20   reg [3:0] last = 4'bxxxx;\n\
         \x20   integer n;\n\
         \x20   {TOP} dut (.clock(clock), {pins});\n\
         \x20   initial begin\n\
         \x20       for (n = 1; n <= {clocks}; n = n + 1) begin\n\
         \x20           #5 clock = 1'b1;\n\
         \x20           #1 if ({{{cat}}} !== last) begin\n\
         \x20               $display(\"%0d %b\", n, {{{cat}}});\n\
         \x20               last = {{{cat}}};\n\
         \x20           end\n\
         \x20           #4 clock = 1'b0;\n\
         \x20       end\n\
         \x20       $finish;\n\
         \x20   end\n\
         endmodule\n"
    );
    let bench = dir.join("routed_tb.v");
    std::fs::write(&bench, tb).map_err(|e| ToolError::io("write", &bench, e))?;
    let vvp = dir.join("routed.vvp");
    let mut cmd = Command::new(locate(Tool::Iverilog)?);
    cmd.args(["-g2005", "-s", "routed_tb", "-o"]).arg(&vvp);
    let lib = cell_library(family)?;
    if let Some(d) = lib.parent() {
        cmd.arg("-I").arg(d);
    }
    // Yosys's iCE40 library gives ports default values (SystemVerilog) unless told not
    // to; icebox_vlog connects every port.
    cmd.arg("-DNO_ICE40_DEFAULT_ASSIGNMENTS");
    if family == Family::Ecp5 {
        let cells = dir.join("ecp5_cells.v");
        std::fs::write(&cells, include_str!("ecp5_cells.v"))
            .map_err(|e| ToolError::io("write", &cells, e))?;
        cmd.arg(&cells);
    }
    cmd.arg(&lib);
    cmd.arg(&bench).arg(netlist);
    checked(Tool::Iverilog, &mut cmd)?;
    Ok(vvp)
}

/// Runs the bench; returns every (clock, pins) change.
fn run(vvp: &Path, dir: &Path, clocks: u64) -> Result<Vec<(u64, [bool; 4])>, FpgaError> {
    let mut cmd = Command::new(locate(Tool::Vvp)?);
    cmd.arg("-n").arg(vvp).current_dir(dir);
    // A generous limit: the slowest netlists here simulate a few hundred clocks a second.
    let limit = Duration::from_secs(600 + clocks / 50);
    let out = run_capture_limited(
        Tool::Vvp,
        &mut cmd,
        limit,
        "the routed netlist simulates too slowly; check fewer rounds",
    )?;
    if !out.status.success() {
        return Err(failed(Tool::Vvp, &cmd, &out, out.status.to_string()).into());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut changes = Vec::new();
    for line in text
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
    {
        let (n, bits) = line.split_once(' ').ok_or_else(|| bad_trace(line))?;
        let n: u64 = n.parse().map_err(|_| bad_trace(line))?;
        let b: Vec<char> = bits.trim().chars().collect();
        if b.len() != 4 || b.iter().any(|c| *c != '0' && *c != '1') {
            return Err(FpgaError::Design(format!(
                "the routed netlist drives a pin to x or z at clock {n} ({PINS:?} = {bits}): it does not simulate from power-up"
            )));
        }
        changes.push((n, [b[0] == '1', b[1] == '1', b[2] == '1', b[3] == '1']));
    }
    Ok(changes)
}

fn bad_trace(line: &str) -> FpgaError {
    ToolError::Parse {
        tool: "vvp",
        what: "routed-netlist trace",
        detail: format!("unexpected line {line:?}"),
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ice40_fault_inverts_the_lut_behind_the_pin() {
        let text = "assign n5 = /* LUT 1 2 3 */ (n1 ? n2 : n3);\n\
                    /* FF 1 2 3 */ always @(posedge clock) if (1'b1) n7 <= n9 ? 1'b0 : n5;\n\
                    assign uart_tx = n7;\n";
        let f = ice40_fault(text).unwrap();
        assert!(
            f.contains("assign n5 = /* LUT 1 2 3 */ !((n1 ? n2 : n3));"),
            "{f}"
        );
        assert!(ice40_fault("assign led_pass = n1;\n").is_err());
    }

    #[test]
    fn the_ecp5_netlist_is_made_explicit() {
        let mut m: Value = serde_json::json!({"cells": {
            "ff": {"type": "TRELLIS_FF", "parameters": {"SD": "0 "}, "connections": {"M": [5], "Q": [6]}},
            "lut": {"type": "TRELLIS_COMB", "parameters": {"INITVAL": "0000000011111111"},
                    "connections": {"A": [1], "B": [], "F": [5]}},
            "cc": {"type": "TRELLIS_COMB", "parameters": {"MODE": "CCU2 "},
                   "connections": {"A": [1], "FXA": ["x"], "F": [7]}},
            "mx": {"type": "TRELLIS_COMB", "parameters": {}, "connections": {"FXA": [8], "F": [9]}},
        }});
        explicit_ecp5(&mut m).unwrap();
        let c = &m["cells"];
        assert_eq!(c["ff"]["connections"]["DI"], serde_json::json!([5]));
        assert!(c["ff"]["parameters"].get("SD").is_none());
        assert_eq!(c["lut"]["connections"]["B"], serde_json::json!(["0"]));
        assert_eq!(c["cc"]["connections"]["B"], serde_json::json!(["1"]));
        assert!(c["cc"]["parameters"].get("IS_Z1").is_none());
        assert_eq!(c["mx"]["parameters"]["IS_Z1"], "1");
        let mut lutram: Value = serde_json::json!({"cells": {
            "r": {"type": "TRELLIS_COMB", "parameters": {"MODE": "DPRAM"}, "connections": {}}}});
        assert!(explicit_ecp5(&mut lutram)
            .unwrap_err()
            .to_string()
            .contains("LUT RAM"));
        let mut dsp: Value = serde_json::json!({"cells": {"m": {"type": "MULT18X18D", "parameters": {}, "connections": {}}}});
        assert!(explicit_ecp5(&mut dsp)
            .unwrap_err()
            .to_string()
            .contains("MULT18X18D"));
    }
}
