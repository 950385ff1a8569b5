//! Hardware cost of `bench all-to-all`: Yosys `synth_ice40 -noflatten` of the whole
//! network (switches, PE units, controller; for the cube its nodes and controller), iCE40
//! LUTs and flip-flops of the hierarchy, divided by `n`.
//!
//! Hierarchical synthesis maps each distinct module once and counts it per instance, so
//! its time grows with the number of distinct modules and of instances in the top, not
//! with the flattened logic. It forgoes optimization across module boundaries (constant
//! inputs such as a hypercube node's address) and ABC sees smaller problems, so its
//! counts differ from the flat `synth_ice40`'s by a few per cent either way;
//! `docs/results.md` §7 gives both where the flat run finishes.

use super::table::Hardware;
use anyhow::Context;
use lcanet_testbench::tools::yosys;
use serde::Serialize;
use std::time::Instant;

/// A network's cost.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cost {
    /// The top module synthesized.
    pub top: String,
    /// iCE40 `SB_LUT4` cells of the whole hierarchy.
    pub luts: u64,
    /// iCE40 flip-flops (`SB_DFF*`).
    pub ffs: u64,
    /// `SB_CARRY` cells.
    pub carries: u64,
    /// LUTs ÷ n.
    pub luts_per_pe: f64,
    /// Flip-flops ÷ n.
    pub ffs_per_pe: f64,
    /// How the figure was obtained.
    pub method: &'static str,
    /// Wall-clock seconds of the Yosys run.
    pub seconds: f64,
}

/// The Yosys command of the figures.
pub const METHOD: &str = "yosys synth_ice40 -noflatten (whole hierarchy)";

/// Synthesizes `hw` (a network of `n` PEs).
pub fn synthesize(hw: &Hardware, n: usize) -> anyhow::Result<Cost> {
    let started = Instant::now();
    let s = yosys::synth_ice40_hier(&hw.files, &hw.top)
        .with_context(|| format!("synthesizing {} with Yosys", hw.top))?;
    Ok(Cost {
        top: hw.top.clone(),
        luts: s.luts,
        ffs: s.ffs,
        carries: s.carries,
        luts_per_pe: s.luts as f64 / n as f64,
        ffs_per_pe: s.ffs as f64 / n as f64,
        method: METHOD,
        seconds: started.elapsed().as_secs_f64(),
    })
}
