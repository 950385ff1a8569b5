//! Yosys: generic `synth -top` (pass/fail plus cell statistics) and `synth_ice40` (flat, or
//! hierarchical with `-noflatten`) with LUT (`SB_LUT4`) and flip-flop (`SB_DFF*`) counts,
//! all read from `stat -json`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use super::{locate, run_checked, Tool, ToolError};

/// Cell statistics of a synthesized design (the `design` section of `stat -json -top`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CellStats {
    /// Total number of cells.
    pub cells: u64,
    /// Number of cells of each type (`$_DFF_P_`, `SB_LUT4`, ...).
    pub by_type: BTreeMap<String, u64>,
    /// Number of wires.
    pub wires: u64,
    /// Number of wire bits.
    pub wire_bits: u64,
}

impl CellStats {
    /// Flip-flops after a generic `synth`: every internal flip-flop cell type (`$_DFF_P_`,
    /// `$_DFFE_PP_`, `$_SDFF_PP0_`, `$_SDFFE_PP0P_`, …), one cell per bit. (After
    /// `synth_ice40` count the `SB_DFF*` cells: [`Ice40Stats::ffs`].)
    pub fn flip_flops(&self) -> u64 {
        self.by_type
            .iter()
            .filter(|(k, _)| k.starts_with("$_") && k.contains("DFF"))
            .map(|(_, v)| v)
            .sum()
    }

    /// Sum of the counts of every cell type starting with `prefix`.
    pub fn count_prefix(&self, prefix: &str) -> u64 {
        self.by_type
            .iter()
            .filter(|(k, _)| k.starts_with(prefix))
            .map(|(_, v)| v)
            .sum()
    }
}

/// iCE40 resource counts after `synth_ice40`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ice40Stats {
    /// `SB_LUT4` cells.
    pub luts: u64,
    /// Flip-flops: every `SB_DFF*` cell type.
    pub ffs: u64,
    /// `SB_CARRY` cells.
    pub carries: u64,
    /// Block RAMs (`SB_RAM40_4K*`).
    pub brams: u64,
    /// All cell counts.
    pub cells: CellStats,
}

impl Ice40Stats {
    /// The iCE40 counts of a synthesized design's cells.
    fn of(cells: CellStats) -> Self {
        Ice40Stats {
            luts: cells.by_type.get("SB_LUT4").copied().unwrap_or(0),
            ffs: cells.count_prefix("SB_DFF"),
            carries: cells.by_type.get("SB_CARRY").copied().unwrap_or(0),
            brams: cells.count_prefix("SB_RAM40_4K"),
            cells,
        }
    }
}

/// Runs `synth -top <top>` (generic gates, hierarchy kept) and returns the cell statistics.
pub fn synth(files: &[impl AsRef<Path>], top: &str) -> Result<CellStats, ToolError> {
    run_yosys(files, top, &format!("synth -top {top}"))
}

/// Runs `synth_ice40 -top <top>` and returns LUT, flip-flop, carry and BRAM counts.
pub fn synth_ice40(files: &[impl AsRef<Path>], top: &str) -> Result<Ice40Stats, ToolError> {
    Ok(Ice40Stats::of(run_yosys(
        files,
        top,
        &format!("synth_ice40 -top {top}"),
    )?))
}

/// Runs `synth_ice40 -noflatten -top <top>`: every module is synthesized once, and the
/// counts are those of the whole hierarchy (`stat -top`: each module's cells times its
/// instances). No optimization crosses a module boundary, so for a network of many
/// instances of few modules this is much faster than the flat [`synth_ice40`] and gives
/// at least as many cells.
pub fn synth_ice40_hier(files: &[impl AsRef<Path>], top: &str) -> Result<Ice40Stats, ToolError> {
    Ok(Ice40Stats::of(run_yosys(
        files,
        top,
        &format!("synth_ice40 -noflatten -top {top}"),
    )?))
}

fn run_yosys(
    files: &[impl AsRef<Path>],
    top: &str,
    synth_cmd: &str,
) -> Result<CellStats, ToolError> {
    if top.is_empty() || !top.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(ToolError::Parse {
            tool: "yosys",
            what: "top module name",
            detail: format!("{top:?} is not a simple Verilog identifier"),
        });
    }
    let yosys = locate(Tool::Yosys)?;
    let dir =
        tempfile::tempdir().map_err(|e| ToolError::io("create temp dir", Path::new("."), e))?;
    let json = dir.path().join("stat.json");
    let script = dir.path().join("run.ys");
    let mut text = String::new();
    for f in files {
        text.push_str(&format!(
            "read_verilog -noautowire \"{}\"\n",
            f.as_ref().display()
        ));
    }
    // `tee -o` takes its file name verbatim (no quoting): the temp path must have no spaces.
    if json.to_string_lossy().contains(char::is_whitespace) {
        return Err(ToolError::Io {
            what: "use a temp directory without spaces for",
            path: json,
            message: "set TMPDIR to a path without spaces".to_string(),
        });
    }
    text.push_str(&format!(
        "{synth_cmd}\ntee -q -o {} stat -json -top {top}\n",
        json.display()
    ));
    std::fs::write(&script, text).map_err(|e| ToolError::io("write", &script, e))?;
    let mut cmd = Command::new(yosys);
    cmd.arg("-q").arg("-s").arg(&script);
    run_checked(Tool::Yosys, &mut cmd)?;
    let raw = std::fs::read_to_string(&json).map_err(|e| ToolError::io("read", &json, e))?;
    parse_stat_json(&raw)
}

/// Removes the lines Yosys 0.23 leaks into `stat -json` output: in the JSON it writes, every
/// line holds a quoted key or only punctuation (`{`, `}`, `},` …), so a line with no quote
/// but with a letter or digit is a stray hierarchy line.
pub fn strip_hierarchy_listing(raw: &str) -> String {
    raw.lines()
        .filter(|line| line.contains('"') || !line.chars().any(|c| c.is_ascii_alphanumeric()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Parses the `design` section of Yosys `stat -json` output.
///
/// Yosys 0.23 prints its plain-text hierarchy listing (`  <module>  <count>` lines, no
/// quotes) into the JSON when the design is more than two levels deep; those lines are
/// dropped before parsing (see [`strip_hierarchy_listing`]).
pub fn parse_stat_json(raw: &str) -> Result<CellStats, ToolError> {
    let parse_err = |detail: String| ToolError::Parse {
        tool: "yosys",
        what: "stat -json",
        detail,
    };
    let cleaned = strip_hierarchy_listing(raw);
    let v: serde_json::Value =
        serde_json::from_str(&cleaned).map_err(|e| parse_err(e.to_string()))?;
    let design = v
        .get("design")
        .ok_or_else(|| parse_err("no \"design\" section".to_string()))?;
    let num = |key: &str| design.get(key).and_then(|x| x.as_u64()).unwrap_or(0);
    let mut by_type = BTreeMap::new();
    if let Some(map) = design.get("num_cells_by_type").and_then(|m| m.as_object()) {
        for (k, val) in map {
            let n = val
                .as_u64()
                .ok_or_else(|| parse_err(format!("count of {k} is not a number")))?;
            by_type.insert(k.clone(), n);
        }
    }
    Ok(CellStats {
        cells: num("num_cells"),
        by_type,
        wires: num("num_wires"),
        wire_bits: num("num_wire_bits"),
    })
}
