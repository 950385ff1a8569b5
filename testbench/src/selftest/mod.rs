//! Co-simulation of the self-test top (`docs/selftest.md` §6): the emitted
//! `selftest_<network>` (an LCA network, the hypercube or a MIN inside) in Verilator,
//! free-running from power-up with no input but the clock; the bench decodes its TX pin
//! and, at the end of every report line, reads the counters `cnt_*` and the LED and
//! heartbeat pins, and compares all of it (and the clock in which each line's last byte
//! starts) with the golden model's prediction (`lcanet_sim::selftest`) for the same seed.
//!
//! - [`uart`]: the 8N1 receiver on the TX pin.

pub mod uart;

use crate::bridge::{build, BridgeError, Design, Model, ModelLibrary, ModelOptions};
use lcanet_hdl::selftest::{selftest_emit, DutSpec, SelftestGenError, SelftestSpec};
use lcanet_sim::selftest::{line_timing, predict, Clocks, Counters, LineTiming, Prediction};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use uart::{RxEvent, UartRx};

/// Why a self-test co-simulation could not run.
#[derive(Debug, thiserror::Error)]
pub enum SelftestCosimError {
    /// Generating the Verilog failed.
    #[error(transparent)]
    Gen(Box<SelftestGenError>),
    /// Writing the Verilog failed.
    #[error("writing the self-test's Verilog: {0}")]
    Write(String),
    /// Building or driving the Verilated model failed.
    #[error(transparent)]
    Bridge(Box<BridgeError>),
    /// The golden model failed.
    #[error("golden model: {0}")]
    Model(String),
}

impl From<BridgeError> for SelftestCosimError {
    fn from(e: BridgeError) -> Self {
        SelftestCosimError::Bridge(Box::new(e))
    }
}

/// One report line as the RTL printed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RtlLine {
    /// The decoded text (`\r\n` included).
    pub text: String,
    /// Clock (bit-time) at which its last stop bit was sampled.
    pub clock: u64,
    /// Clock in which the start bit of its last byte first drove `uart_tx` low (clock 1 is
    /// the first after power-up).
    pub last_byte_clock: u64,
    /// `cnt_*` read then (`None` where the simulation cannot read them: a placed netlist;
    /// the line's text shows them).
    pub counters: Option<Counters>,
    /// `led_pass`, `led_fail`, `heartbeat` then.
    pub leds: [bool; 3],
}

/// The result of a run.
#[derive(Debug, Clone, Serialize)]
pub struct SelftestReport {
    /// Permutations run.
    pub perms: u64,
    /// Lines the RTL printed.
    pub lines: Vec<RtlLine>,
    /// Lines the golden model predicted.
    pub expected: Vec<String>,
    /// The predicted `last_byte_clock` and heartbeat of every line.
    pub expected_timing: Vec<LineTiming>,
    /// The first difference (`None`: everything matched).
    pub failure: Option<String>,
    /// Clocks simulated.
    pub clocks: u64,
    /// Seconds of simulation.
    pub run_seconds: f64,
    /// Seconds of the golden prediction.
    pub predict_seconds: f64,
}

impl SelftestReport {
    /// Whether the RTL matched the prediction everywhere.
    pub fn matched(&self) -> bool {
        self.failure.is_none()
    }
}

/// A built self-test.
pub struct SelftestBench {
    /// What was built.
    pub spec: SelftestSpec,
    /// Top module.
    pub top: String,
    /// Seconds to build (or find in the cache) the model.
    pub build_seconds: f64,
    lib: Arc<ModelLibrary>,
}

/// Verilator options: `cnt_*` of the top public; for an LCA network, the network
/// builds' sharing flags and switches kept out of their parents.
fn options(spec: &SelftestSpec, top: &str) -> ModelOptions {
    let o = ModelOptions::traced(false).with_public(top, "cnt_*");
    if matches!(spec.dut, DutSpec::Lca(_)) {
        crate::lca_net::NetBuild::shared(o)
    } else {
        o
    }
}

impl SelftestBench {
    /// Generates the self-test into `rtl_dir` and builds it (cached by content hash).
    pub fn build(spec: SelftestSpec, rtl_dir: &Path) -> Result<Self, SelftestCosimError> {
        Self::build_with(spec, rtl_dir, |_| {})
    }

    /// As [`Self::build`], with `mutate` applied to the emitted Verilog first (tests: a
    /// fault planted in the network, which the on-chip checker must report).
    pub fn build_with(
        spec: SelftestSpec,
        rtl_dir: &Path,
        mutate: impl FnOnce(&mut lcanet_hdl::netlist::Emitted),
    ) -> Result<Self, SelftestCosimError> {
        let mut emitted = selftest_emit(&spec).map_err(|e| SelftestCosimError::Gen(Box::new(e)))?;
        mutate(&mut emitted);
        emitted
            .write_to(rtl_dir)
            .map_err(|e| SelftestCosimError::Write(e.to_string()))?;
        let top = emitted.top.clone();
        let design = Design::from_file_list(&rtl_dir.join(&emitted.file_list.name), top.clone())?;
        let t0 = Instant::now();
        let info = build(&design, &options(&spec, &top))?;
        let lib = ModelLibrary::load(&info)?;
        Ok(SelftestBench {
            spec,
            top,
            build_seconds: t0.elapsed().as_secs_f64(),
            lib,
        })
    }

    /// Runs the self-test for `perms` permutations (a multiple of `report_every` gives
    /// `perms / report_every` lines) and compares every line, the counters and the pins at
    /// its end with the prediction.
    pub fn run(
        &self,
        perms: u64,
        vcd: Option<&PathBuf>,
    ) -> Result<SelftestReport, SelftestCosimError> {
        let s = &self.spec;
        let t0 = Instant::now();
        let pred = predict(&s.golden, &s.params, perms)
            .map_err(|e| SelftestCosimError::Model(e.to_string()))?;
        let clocks = Clocks::new(&s.golden, s.divisor, s.heartbeat);
        let expected_timing =
            line_timing(s.golden.line(), &pred.rounds, s.params.report_every, clocks);
        let predict_seconds = t0.elapsed().as_secs_f64();
        let budget = clock_budget(s, &pred);
        let mut model = Model::new(&self.lib, vcd.map(PathBuf::as_path))?;
        let clock = model.input("clock")?;
        let tx = model.port("uart_tx")?;
        let pins = [
            model.port("led_pass")?,
            model.port("led_fail")?,
            model.port("heartbeat")?,
        ];
        let format = s.golden.line();
        let mut cnt = Vec::new();
        for key in format.keys() {
            cnt.push(model.signal(&format!("{}.cnt_{key}", self.top))?);
        }
        let mut check = LineCheck::new(s, &pred, &expected_timing);
        let t1 = Instant::now();
        let mut clocks = 0u64;
        while check.wants_more() {
            if clocks >= budget {
                check.fail(format!(
                    "no line {} after {clocks} clocks (budget from the prediction)",
                    check.lines.len() + 1
                ));
                break;
            }
            model.tick(clock);
            clocks += 1;
            let leds = pins.map(|p| model.get(p) == 1);
            check.clock(clocks, model.get(tx) == 1, leds, || {
                let read = |i: usize| model.read_signal(cnt[i]) as u32;
                Some(Counters {
                    format,
                    values: [read(0), read(1), read(2), read(3)],
                })
            });
        }
        let (lines, failure) = (check.lines, check.failure);
        model.vcd_flush();
        Ok(SelftestReport {
            perms,
            expected: pred.lines.iter().map(|l| l.text.clone()).collect(),
            expected_timing,
            lines,
            failure,
            clocks,
            run_seconds: t1.elapsed().as_secs_f64(),
            predict_seconds,
        })
    }
}

/// A generous bound on the clocks of the predicted run: twice the sum of every round's
/// network bit-times and generator/checker clocks plus every line at the UART's rate.
fn clock_budget(s: &SelftestSpec, pred: &Prediction) -> u64 {
    let n = s.golden.pes() as u64;
    let rounds: u64 = pred
        .rounds
        .iter()
        .map(|r| u64::from(r.bit_times) + r.draws + 8 * n + 64)
        .sum();
    let lines: u64 = pred
        .lines
        .iter()
        .map(|l| (l.text.len() as u64 + 4) * (10 * s.divisor + 40))
        .sum();
    2 * (rounds + lines) + 1000
}

/// The first difference between line `k` of the RTL and of the prediction.
fn compare(
    s: &SelftestSpec,
    pred: &Prediction,
    k: usize,
    got: &RtlLine,
    timing: LineTiming,
) -> Option<String> {
    let want = &pred.lines[k];
    if got.text != want.text {
        return Some(format!(
            "line {}: the RTL printed {:?}, the golden model predicts {:?} (seed {})",
            k + 1,
            got.text,
            want.text,
            s.params.seed
        ));
    }
    if let Some(c) = got.counters.as_ref().filter(|c| **c != want.counters) {
        return Some(format!(
            "line {}: counters {:?} = {:?}, predicted {:?} (seed {})",
            k + 1,
            want.counters.format.keys(),
            c.values,
            want.counters.values,
            s.params.seed
        ));
    }
    let ok = want.counters.errors() == 0;
    let hb = timing.heartbeat;
    let (pass, fail) = if s.active_low_leds {
        (!ok, ok)
    } else {
        (ok, !ok)
    };
    if got.leds != [pass, fail, hb] {
        return Some(format!(
            "line {}: pins led_pass/led_fail/heartbeat = {:?}, predicted {:?}",
            k + 1,
            got.leds,
            [pass, fail, hb]
        ));
    }
    None
}

/// Compares a self-test's pins, clock by clock, with the golden prediction: decodes the
/// UART, and at the end of every line compares its text, the counters (where they can be
/// read), the LEDs and heartbeat, and the clock in which its last byte started.
pub struct LineCheck<'a> {
    spec: &'a SelftestSpec,
    pred: &'a Prediction,
    timing: &'a [LineTiming],
    rx: UartRx,
    text: Vec<u8>,
    last_start: u64,
    /// The lines decoded so far.
    pub lines: Vec<RtlLine>,
    /// The first difference.
    pub failure: Option<String>,
}

impl<'a> LineCheck<'a> {
    /// A check of the predicted lines `pred` with their timing.
    pub fn new(spec: &'a SelftestSpec, pred: &'a Prediction, timing: &'a [LineTiming]) -> Self {
        LineCheck {
            spec,
            pred,
            timing,
            rx: UartRx::new(spec.divisor),
            text: Vec::new(),
            last_start: 0,
            lines: Vec::new(),
            failure: None,
        }
    }

    /// Lines are still expected and nothing differed yet.
    pub fn wants_more(&self) -> bool {
        self.lines.len() < self.pred.lines.len() && self.failure.is_none()
    }

    /// Records a failure found outside the pins (the first one counts).
    pub fn fail(&mut self, why: String) {
        self.failure.get_or_insert(why);
    }

    /// The pins after edge `clock`: `tx`, and `led_pass`, `led_fail`, `heartbeat`;
    /// `counters` reads `cnt_*` at a line's end.
    pub fn clock(
        &mut self,
        clock: u64,
        tx: bool,
        leds: [bool; 3],
        counters: impl FnOnce() -> Option<Counters>,
    ) {
        if self.rx.is_waiting() && !tx {
            // A start bit; the value read after edge `clock` is the pin during clock
            // `clock + 1`.
            self.last_start = clock + 1;
        }
        match self.rx.sample(tx) {
            None => {}
            Some(RxEvent::FrameError) => self.fail(format!("UART frame error at clock {clock}")),
            Some(RxEvent::Byte(b)) => {
                self.text.push(b);
                if b != b'\n' {
                    return;
                }
                let k = self.lines.len();
                let line = RtlLine {
                    text: String::from_utf8_lossy(&self.text).into_owned(),
                    clock,
                    last_byte_clock: self.last_start,
                    counters: counters(),
                    leds,
                };
                self.text.clear();
                let Some(&timing) = self.timing.get(k) else {
                    self.fail(format!("line {}: printed, none predicted", k + 1));
                    return;
                };
                let diff = compare(self.spec, self.pred, k, &line, timing).or_else(|| {
                    let want = timing.last_byte_clock;
                    (line.last_byte_clock != want).then(|| {
                        format!(
                            "line {}: its last byte started in clock {}, predicted {want}",
                            k + 1,
                            line.last_byte_clock
                        )
                    })
                });
                if let Some(d) = diff {
                    self.fail(d);
                }
                self.lines.push(line);
            }
        }
    }
}

#[cfg(test)]
mod tests;
