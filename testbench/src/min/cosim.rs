//! One co-simulation run of a MIN with ATAPE units against the golden timeline.
//!
//! Every bit-time `t` (docs/min.md §4: the values during `t`, i.e. after the clock edge
//! ending `t - 1`; the top-level outputs depend on registers only) the harness compares
//! `dout`, `dst`, `busy`, `sending`, `frame`, `pos`, `conflict` and every switch's
//! `crossed` and `conflict` (the observation buses `sw_crossed`, `sw_conflict`; a
//! mismatch there is decoded to the switch `st<s>_sw<k>`) with the golden timeline's
//! words ([`Timeline::expected_ports`]); then the inputs of `t`
//! ([`Timeline::input_ports`]) are applied and the clock ticks. Meanwhile the RTL's
//! `dout` feeds a [`DeliveryCheck`]: every message at the right PE in the right frame,
//! payload bit-exact. A [`Session`] does one bit-time per [`Session::step`], word-level
//! and without allocating.

use super::emit::{emit, EmitError};
use crate::bridge::{
    build_model, BridgeError, BuildInfo, CacheOutcome, Design, InputId, ModelOptions, Optimize,
    PortId,
};
use crate::harness::{Harness, Mismatch, RunInfo, Watch};
use lcanet_sim::min::frame::Frames;
use lcanet_sim::min::{DeliveryCheck, ExpectedPorts, InputPorts, RunConfig, Timeline};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where a run writes its files, and how the model is compiled.
#[derive(Debug, Clone)]
pub struct CosimOptions {
    /// Directory for the emitted Verilog.
    pub verilog_dir: PathBuf,
    /// VCD file to write, if any.
    pub vcd: Option<PathBuf>,
    /// Without `vcd`: where a failing run writes the VCD of a traced re-run (networks of
    /// at most [`FAILURE_VCD_MAX_SWITCHES`] switches; larger traced builds take too long).
    pub failure_vcd: Option<PathBuf>,
    /// C++ optimization of the Verilated model.
    pub optimize: Optimize,
    /// A deliberate fault, for tests of the failure report (None in real runs).
    pub fault: Option<Fault>,
}

/// The largest network (in switches, m·n/2: m = 8) whose failing run is re-run with a
/// traced build for its VCD.
pub const FAILURE_VCD_MAX_SWITCHES: usize = 1024;

/// A deliberate fault injected into a run, so that tests can check what a failure
/// reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Flip PE `pe`'s `din` bit driven during `bit_time` (a payload bit: the RTL then
    /// delivers a wrong bit `m` bit-times later).
    Din {
        /// The bit-time.
        bit_time: u64,
        /// The PE.
        pe: usize,
    },
    /// Flip the golden value of switch `switch`'s `crossed` bit during `bit_time`
    /// (exercises the decoding of observation-bus mismatches to `st<s>_sw<k>`).
    ExpectedCrossed {
        /// The bit-time.
        bit_time: u64,
        /// The stage.
        stage: u32,
        /// The switch within the stage.
        switch: usize,
    },
}

/// Why a run could not be carried out (a mismatch is not an error: see
/// [`CosimReport::mismatch`]).
#[derive(Debug, thiserror::Error)]
pub enum CosimError {
    /// Generating the Verilog failed.
    #[error(transparent)]
    Emit(#[from] EmitError),
    /// Building or driving the Verilated model failed.
    #[error(transparent)]
    Bridge(#[from] BridgeError),
}

/// The outcome and measurements of one run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CosimReport {
    /// RTL and golden model agreed at every bit-time and every message arrived.
    #[serde(rename = "match")]
    pub matched: bool,
    /// The first difference, as the harness reports it.
    pub mismatch: Option<String>,
    /// The network.
    pub network: String,
    /// Stages.
    pub m: u32,
    /// PEs.
    pub n: usize,
    /// Payload bits per message `B`.
    pub message_bits: u32,
    /// Frame length `F = m + B`.
    pub frame_bits: usize,
    /// Frames sent (`n` for ATAPE, 1 for a single permutation).
    pub frames: usize,
    /// Bit-times the RTL's `busy` was high: first frame bit in to last bit out.
    pub bit_times: u64,
    /// The bound `frames·F + m`.
    pub bound: u64,
    /// Switch-frame conflicts the RTL flagged.
    pub conflicts: usize,
    /// Switch-frame conflicts the golden admissibility model predicts.
    pub expected_conflicts: usize,
    /// Messages read from the RTL outputs and found intact (None when not checked: a
    /// non-admissible single permutation delivers by deflection).
    pub messages_checked: Option<usize>,
    /// Bit-times simulated (including reset, start and a short tail).
    pub simulated_bit_times: u64,
    /// Values compared.
    pub compared_values: u64,
    /// The Verilated model came from the build cache.
    pub build_cached: bool,
    /// Build (or cache lookup) time, seconds.
    pub build_seconds: f64,
    /// Simulation loop time, seconds.
    pub sim_seconds: f64,
    /// Simulated bit-times per second of the loop (model + golden model + comparison).
    pub bit_times_per_second: f64,
    /// The top module.
    pub top: String,
    /// Bytes of emitted Verilog.
    pub verilog_bytes: usize,
    /// Where the Verilog is.
    pub verilog_dir: PathBuf,
    /// The VCD, if written.
    pub vcd: Option<PathBuf>,
}

/// Build options: tracing only when a VCD is asked for; nothing public (every compared
/// value is a top port, the switches' state included through the observation buses).
pub fn model_options(trace: bool, optimize: Optimize) -> ModelOptions {
    ModelOptions {
        optimize,
        ..ModelOptions::traced(trace)
    }
}

struct Inputs {
    clock: InputId,
    reset: InputId,
    start: InputId,
    single: InputId,
    first: InputId,
    din: InputId,
}

struct Watches {
    dout: Watch,
    dst: Watch,
    busy: Watch,
    sending: Watch,
    frame: Watch,
    pos: Watch,
    conflict: Watch,
    sw_crossed: Watch,
    sw_conflict: Watch,
}

/// A co-simulation in progress: the Verilated model in its harness, the golden timeline
/// and the word buffers of both sides, all allocated once.
pub struct Session {
    cfg: RunConfig,
    tl: Timeline,
    h: Harness,
    inputs: Inputs,
    watches: Watches,
    dout_port: PortId,
    busy_port: PortId,
    sw_conflict_port: PortId,
    expected: ExpectedPorts,
    stimulus: InputPorts,
    rtl_dout: Vec<u32>,
    rtl_swc: Vec<u32>,
    deliveries: DeliveryCheck,
    busy_count: u64,
    conflicts: usize,
    t: u64,
    top: String,
    verilog_bytes: usize,
    verilog_dir: PathBuf,
    vcd: Option<PathBuf>,
    fault: Option<Fault>,
    build: BuildInfo,
    build_seconds: f64,
}

impl Session {
    /// Emits and builds the network of `cfg` (Verilator build cached by content) and
    /// prepares the run.
    pub fn new(cfg: &RunConfig, opts: &CosimOptions) -> Result<Self, CosimError> {
        let min = cfg.min;
        let tl = Timeline::new(cfg.clone());
        let emitted = emit(&min, cfg.format.message_bits, &opts.verilog_dir)?;
        let design = Design::from_file_list(&emitted.file_list, &emitted.top)?;
        let built = Instant::now();
        let (model, build) = build_model(
            &design,
            &model_options(opts.vcd.is_some(), opts.optimize),
            opts.vcd.as_deref(),
        )?;
        let build_seconds = built.elapsed().as_secs_f64();
        let inputs = Inputs {
            clock: model.input("clock")?,
            reset: model.input("reset")?,
            start: model.input("start")?,
            single: model.input("single")?,
            first: model.input("first")?,
            din: model.input("din")?,
        };
        let (dout_port, busy_port) = (model.port("dout")?, model.port("busy")?);
        let sw_conflict_port = model.port("sw_conflict")?;
        let info = RunInfo::new(Some(cfg.seed))
            .param("network", min.network())
            .param("m", min.m())
            .param("message_bits", cfg.format.message_bits)
            .param(
                "mode",
                match cfg.frames {
                    Frames::Atape => "atape",
                    Frames::Single => "single",
                },
            );
        let mut h = Harness::new(model, info);
        let watches = Watches {
            dout: h.watch("dout")?,
            dst: h.watch("dst")?,
            busy: h.watch("busy")?,
            sending: h.watch("sending")?,
            frame: h.watch("frame")?,
            pos: h.watch("pos")?,
            conflict: h.watch("conflict")?,
            sw_crossed: h.watch("sw_crossed")?,
            sw_conflict: h.watch("sw_conflict")?,
        };
        h.model().eval();
        let (expected, stimulus) = (tl.expected_buffers(), tl.input_buffers());
        let deliveries = DeliveryCheck::new(&tl);
        Ok(Session {
            rtl_dout: vec![0; expected.dout.len()],
            rtl_swc: vec![0; expected.sw_conflict.len()],
            cfg: cfg.clone(),
            tl,
            h,
            inputs,
            watches,
            dout_port,
            busy_port,
            sw_conflict_port,
            expected,
            stimulus,
            deliveries,
            busy_count: 0,
            conflicts: 0,
            t: 0,
            top: emitted.top,
            verilog_bytes: emitted.bytes,
            verilog_dir: emitted.dir,
            vcd: opts.vcd.clone(),
            fault: opts.fault,
            build,
            build_seconds,
        })
    }

    /// The bit-time the next [`Session::step`] simulates.
    pub fn bit_time(&self) -> u64 {
        self.t
    }

    /// The bit-times a whole run simulates: until `busy` has fallen, plus two.
    pub fn end(&self) -> u64 {
        self.tl.end() + 2
    }

    /// One bit-time: compare every output with the golden model, record the RTL's
    /// measurements, apply the inputs and tick the clock. Allocates nothing unless it
    /// returns a mismatch.
    pub fn step(&mut self) -> Result<(), Box<Mismatch>> {
        let t = self.t;
        let (e, w, h) = (&mut self.expected, &self.watches, &mut self.h);
        self.tl.expected_ports(t, e);
        if let Some(Fault::ExpectedCrossed {
            bit_time,
            stage,
            switch,
        }) = self.fault
        {
            if bit_time == t {
                let i = stage as usize * self.cfg.min.switches_per_stage() + switch;
                e.sw_crossed[i / 32] ^= 1 << (i % 32);
            }
        }
        h.check_words(w.dout, &e.dout)?;
        h.check_words(w.dst, &e.dst)?;
        h.check(w.busy, u64::from(e.busy))?;
        h.check(w.sending, u64::from(e.sending))?;
        h.check(w.frame, e.frame)?;
        h.check(w.pos, e.pos)?;
        h.check_words(w.sw_crossed, &e.sw_crossed)?;
        h.check_words(w.sw_conflict, &e.sw_conflict)?;
        h.check(w.conflict, e.conflict)?;

        // Measurements from the RTL itself.
        let model = h.model();
        let internal = |err: BridgeError| {
            Box::new(Mismatch::internal(
                &RunInfo::new(Some(self.cfg.seed)),
                t,
                err.to_string(),
            ))
        };
        model
            .get_words(self.dout_port, &mut self.rtl_dout)
            .map_err(internal)?;
        self.deliveries.record(&self.tl, t, &self.rtl_dout);
        self.busy_count += model.get(self.busy_port);
        model
            .get_words(self.sw_conflict_port, &mut self.rtl_swc)
            .map_err(internal)?;
        let (f, half) = (
            self.cfg.format.len() as u64,
            self.cfg.min.switches_per_stage(),
        );
        let (t0, frames) = (self.cfg.t0(), self.cfg.frame_count() as u64);
        for s in 0..u64::from(self.cfg.min.m()) {
            // Stage s shows frame i's decision at t0 + i·F + 2s + 1.
            let first_visible = t0 + 2 * s + 1;
            if t >= first_visible
                && (t - first_visible).is_multiple_of(f)
                && (t - first_visible) / f < frames
            {
                let base = s as usize * half;
                self.conflicts += (base..base + half)
                    .filter(|&i| (self.rtl_swc[i / 32] >> (i % 32)) & 1 == 1)
                    .count();
            }
        }

        let (st, ins) = (&mut self.stimulus, &self.inputs);
        self.tl.input_ports(t, st);
        if let Some(Fault::Din { bit_time, pe }) = self.fault {
            if bit_time == t {
                st.din[pe / 32] ^= 1 << (pe % 32);
            }
        }
        model.set(ins.reset, u64::from(st.reset));
        model.set(ins.start, u64::from(st.start));
        model.set(ins.single, u64::from(st.single));
        model.set_words(ins.first, &st.first).map_err(internal)?;
        model.set_words(ins.din, &st.din).map_err(internal)?;
        model.tick(ins.clock);
        h.finish_bit_time();
        self.t += 1;
        Ok(())
    }

    /// The harness's report of `mm`, with the switch `st<s>_sw<k>` of the first
    /// differing bit when the mismatch is on an observation bus.
    pub fn describe(&mut self, mm: &Mismatch) -> String {
        let mut text = format!("{mm}");
        let half = self.cfg.min.switches_per_stage();
        let switches = self.cfg.min.m() as usize * half;
        for (port, want, field) in [
            ("sw_crossed", &self.expected.sw_crossed, "crossed"),
            ("sw_conflict", &self.expected.sw_conflict, "conflict"),
        ] {
            if !mm.signal.ends_with(&format!(".{port}")) {
                continue;
            }
            let mut got = vec![0u32; want.len()];
            let read = self
                .h
                .model()
                .port(port)
                .and_then(|p| self.h.model().get_words(p, &mut got));
            if read.is_err() {
                continue;
            }
            if let Some(i) =
                (0..switches).find(|&i| (got[i / 32] ^ want[i / 32]) >> (i % 32) & 1 == 1)
            {
                text.push_str(&format!(
                    "\n  first differing switch: {}.{}.{field} (expected {}, got {})",
                    self.top,
                    lcanet_hdl::min::switch_instance((i / half) as u32, i % half),
                    want[i / 32] >> (i % 32) & 1,
                    got[i / 32] >> (i % 32) & 1
                ));
            }
        }
        text
    }

    /// The report of the run so far (`mismatch`: the first difference, if any).
    pub fn report(mut self, mismatch: Option<String>, sim_seconds: f64) -> CosimReport {
        let stats = self.h.stats();
        self.h.model().vcd_flush();
        let expected_conflicts = (0..self.cfg.frame_count())
            .map(|i| self.tl.transit(i).conflicts.len())
            .sum();
        let mut messages_checked = None;
        let mut mismatch = mismatch;
        // A non-admissible permutation delivers by deflection: nothing to check.
        if mismatch.is_none() && expected_conflicts == 0 {
            match self.deliveries.finish() {
                Ok(k) => messages_checked = Some(k),
                Err(e) => mismatch = Some(format!("delivery check failed: {e}")),
            }
        }
        let min = self.cfg.min;
        CosimReport {
            matched: mismatch.is_none(),
            mismatch,
            network: min.network().to_string(),
            m: min.m(),
            n: min.n(),
            message_bits: self.cfg.format.message_bits,
            frame_bits: self.cfg.format.len(),
            frames: self.cfg.frame_count(),
            bit_times: self.busy_count,
            bound: self.cfg.exchange_bit_times(),
            conflicts: self.conflicts,
            expected_conflicts,
            messages_checked,
            simulated_bit_times: stats.bit_times,
            compared_values: stats.compared_values,
            build_cached: self.build.outcome == CacheOutcome::Hit,
            build_seconds: self.build_seconds,
            sim_seconds,
            bit_times_per_second: stats.bit_times as f64 / sim_seconds.max(1e-9),
            top: self.top,
            verilog_bytes: self.verilog_bytes,
            verilog_dir: self.verilog_dir,
            vcd: self.vcd,
        }
    }
}

/// Runs a session to its end or its first mismatch.
fn run_session(mut s: Session) -> CosimReport {
    let started = Instant::now();
    let mut mismatch = None;
    while s.bit_time() < s.end() {
        if let Err(mm) = s.step() {
            mismatch = Some(s.describe(&mm));
            break;
        }
    }
    let sim_seconds = started.elapsed().as_secs_f64();
    s.report(mismatch, sim_seconds)
}

/// Emits, builds and co-simulates `cfg`; compares every bit-time. A failing run without
/// a VCD is repeated with a traced build writing `opts.failure_vcd` (if set and the
/// network has at most [`FAILURE_VCD_MAX_SWITCHES`] switches); the report then carries
/// the re-run's mismatch, which names that VCD.
pub fn run(cfg: &RunConfig, opts: &CosimOptions) -> Result<CosimReport, CosimError> {
    let report = run_session(Session::new(cfg, opts)?);
    let switches = cfg.min.m() as usize * cfg.min.switches_per_stage();
    match (&opts.failure_vcd, &opts.vcd) {
        (Some(path), None) if !report.matched && switches <= FAILURE_VCD_MAX_SWITCHES => {
            let traced = CosimOptions {
                vcd: Some(path.clone()),
                ..opts.clone()
            };
            let again = run_session(Session::new(cfg, &traced)?);
            Ok(CosimReport {
                mismatch: again.mismatch.or(report.mismatch),
                vcd: again.vcd,
                ..report
            })
        }
        _ => Ok(report),
    }
}

/// The default options of a run under `dir`: Verilog in `dir/verilog`, a VCD
/// `dir/wave.vcd` if `vcd`, else `dir/failure.vcd` for a failing run; C++ at `-O1`.
pub fn default_options(dir: &Path, vcd: bool) -> CosimOptions {
    CosimOptions {
        verilog_dir: dir.join("verilog"),
        vcd: vcd.then(|| dir.join("wave.vcd")),
        failure_vcd: Some(dir.join("failure.vcd")),
        optimize: Optimize::Quick,
        fault: None,
    }
}
