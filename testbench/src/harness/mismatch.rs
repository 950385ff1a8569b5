//! The run description ([`RunInfo`]: parameters and seed) and the first-mismatch report.

use std::fmt;
use std::path::PathBuf;

use super::Stats;

/// What a run was: its parameters (in the caller's order) and the seed of its stimulus.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunInfo {
    /// `(name, value)` pairs, e.g. `("d", "4")`, `("topology", "tree")`.
    pub params: Vec<(String, String)>,
    /// The seed every random choice of the run came from, if any.
    pub seed: Option<u64>,
}

impl RunInfo {
    /// A run with `seed` and no parameters yet.
    pub fn new(seed: Option<u64>) -> Self {
        RunInfo {
            params: Vec::new(),
            seed,
        }
    }

    /// Adds a parameter.
    pub fn param(mut self, name: impl Into<String>, value: impl fmt::Display) -> Self {
        self.params.push((name.into(), value.to_string()));
        self
    }

    /// `name=value, name=value` (or `none`).
    pub fn params_text(&self) -> String {
        if self.params.is_empty() {
            return "none".to_string();
        }
        self.params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The lowest bit where two `0x` hex values differ.
fn first_differing_bit(a: &str, b: &str) -> Option<usize> {
    let digits = |s: &str| -> Vec<u32> {
        s.trim_start_matches("0x")
            .chars()
            .rev()
            .filter_map(|c| c.to_digit(16))
            .collect()
    };
    let (a, b) = (digits(a), digits(b));
    (0..a.len().max(b.len())).find_map(|i| {
        let x = a.get(i).copied().unwrap_or(0) ^ b.get(i).copied().unwrap_or(0);
        (x != 0).then(|| i * 4 + x.trailing_zeros() as usize)
    })
}

/// The first difference between RTL and golden model in a run. Its `Debug` form is the
/// readable report (so `unwrap()` in a test prints it).
#[derive(Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The bit-time (0-based) at which the values differed.
    pub bit_time: u64,
    /// Hierarchical signal name (`top.port` for top ports).
    pub signal: String,
    /// Width of the signal in bits (0 for internal errors, made by `Mismatch::internal`).
    pub width: u32,
    /// Expected (golden) value, `0x`-prefixed hex.
    pub expected: String,
    /// Actual (RTL) value, `0x`-prefixed hex.
    pub actual: String,
    /// The run's parameters as text.
    pub params: String,
    /// The run's seed.
    pub seed: Option<u64>,
    /// The VCD file (flushed, kept on disk), if the model writes one.
    pub vcd: Option<PathBuf>,
    /// Counts up to and including the failing comparison.
    pub stats: Stats,
}

impl Mismatch {
    /// For a signal made of rows of `row_width` bits (a PE's field of a network-wide port, a
    /// switch's row of a level written as rows): the lowest row whose bits differ.
    pub fn first_differing_row(&self, row_width: usize) -> Option<usize> {
        first_differing_bit(&self.expected, &self.actual).map(|b| b / row_width.max(1))
    }

    /// A comparison that could not be made (a bug in the caller's use of the harness, e.g. a
    /// watch from another harness), reported with the run's context.
    pub(crate) fn internal(info: &RunInfo, bit_time: u64, what: String) -> Self {
        Mismatch {
            bit_time,
            signal: format!("<no comparison: {what}>"),
            width: 0,
            expected: String::new(),
            actual: String::new(),
            params: info.params_text(),
            seed: info.seed,
            vcd: None,
            stats: Stats::default(),
        }
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "RTL differs from the golden model at bit-time {}: signal `{}` ({} bits) expected {} got {}",
            self.bit_time, self.signal, self.width, self.expected, self.actual
        )?;
        writeln!(f, "  parameters: {}", self.params)?;
        match self.seed {
            Some(s) => writeln!(f, "  seed: {s}")?,
            None => writeln!(f, "  seed: none (deterministic stimulus)")?,
        }
        match &self.vcd {
            Some(p) => writeln!(f, "  VCD: {}", p.display())?,
            None => writeln!(f, "  VCD: none (model created without a VCD path)")?,
        }
        write!(
            f,
            "  compared {} value(s) over {} finished bit-time(s) before this one",
            self.stats.compared_values.saturating_sub(1),
            self.stats.bit_times
        )
    }
}

impl fmt::Debug for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Mismatch {}
