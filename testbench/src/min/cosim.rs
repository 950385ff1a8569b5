//! One co-simulation run of a MIN with ATAPE units against the golden timeline.
//!
//! Every bit-time `t` (docs/min.md §4: the values during `t`, i.e. after the clock edge
//! ending `t - 1`; the top-level outputs depend on registers only) the harness compares
//! `dout`, `dst`, `busy`, `sending`, `frame`, `pos`, `conflict` and every switch's
//! `crossed` and `conflict` (the observation buses `sw_crossed`, `sw_conflict`; a
//! mismatch there is decoded to the switch `st<s>_sw<k>`) with
//! `Timeline::expected(t)`; then the inputs of `t` from
//! `Timeline::stimulus(t)` are applied and the clock ticks. After the run the messages
//! are read out of the recorded RTL `dout` and checked against the Latin square
//! (every message at the right PE in the right frame, payload bit-exact).

use super::emit::{emit, EmitError};
use crate::bridge::{
    build_model, BridgeError, CacheOutcome, Design, InputId, ModelOptions, PortId,
};
use crate::harness::{Harness, Mismatch, RunInfo, Watch};
use lcanet_sim::min::frame::Frames;
use lcanet_sim::min::{RunConfig, Timeline};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where a run writes its files.
#[derive(Debug, Clone)]
pub struct CosimOptions {
    /// Directory for the emitted Verilog.
    pub verilog_dir: PathBuf,
    /// VCD file to write, if any.
    pub vcd: Option<PathBuf>,
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
    /// Where the Verilog is.
    pub verilog_dir: PathBuf,
    /// The VCD, if written.
    pub vcd: Option<PathBuf>,
}

/// Build options: tracing only when a VCD is asked for; no public internal signals
/// (every compared value is a port: `--public-flat-rw` made an m = 6 network 11 MB of
/// C++ and a 3.5-minute compile, against 1.9 MB and 27 s without);
/// `--output-split-cfuncs 2000`.
///
/// Verilator splits a large design into several C++ files (from m = 6 on here), each
/// compiled with a precompiled header; that works since the bridge passes
/// `CFG_CXXFLAGS_PCH_I=-include` to make. Inside a file, Verilator's default keeps the
/// whole eval in one function, which g++ -Os needs far longer for than for many small
/// ones: `--output-split-cfuncs 2000` cuts functions at 2000 statements (measured cold
/// at m = 8 on 2 cores: 6 minutes without it, 90 s with it; docs/min.md §7).
pub fn model_options(trace: bool) -> ModelOptions {
    ModelOptions {
        trace,
        public_signals: false,
        extra_args: vec!["--output-split-cfuncs".into(), "2000".into()],
        hier_blocks: Vec::new(),
    }
}

fn pack(bits: impl Iterator<Item = bool>, out: &mut [u32]) {
    out.fill(0);
    for (i, b) in bits.enumerate() {
        if b {
            out[i / 32] |= 1 << (i % 32);
        }
    }
}

fn pack_fields(values: &[usize], width: u32, out: &mut [u32]) {
    out.fill(0);
    for (j, &v) in values.iter().enumerate() {
        // width ≤ 12: a field spans at most two 32-bit words.
        let (bit, v) = (j * width as usize, v as u64);
        let shifted = v << (bit % 32);
        out[bit / 32] |= shifted as u32;
        if let Some(w) = out.get_mut(bit / 32 + 1) {
            *w |= (shifted >> 32) as u32;
        }
    }
}

struct Ports {
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
    crossed: Watch,
    sw_conflict: Watch,
}

/// Emits, builds and co-simulates `cfg`; compares every bit-time.
pub fn run(cfg: &RunConfig, opts: &CosimOptions) -> Result<CosimReport, CosimError> {
    let min = cfg.min;
    let (n, m, half) = (min.n(), min.m(), min.switches_per_stage());
    let f = cfg.format.len();
    let tl = Timeline::new(cfg.clone());
    let emitted = emit(&min, cfg.format.message_bits, &opts.verilog_dir)?;
    let top = emitted.top.clone();
    let design = Design::from_file_list(&emitted.file_list, &top)?;
    let built = Instant::now();
    let (model, info) = build_model(
        &design,
        &model_options(opts.vcd.is_some()),
        opts.vcd.as_deref(),
    )?;
    let build_seconds = built.elapsed().as_secs_f64();

    let sw_conflict_port: PortId = model.port("sw_conflict")?;
    let sw_crossed_port: PortId = model.port("sw_crossed")?;
    let p = Ports {
        clock: model.input("clock")?,
        reset: model.input("reset")?,
        start: model.input("start")?,
        single: model.input("single")?,
        first: model.input("first")?,
        din: model.input("din")?,
    };
    let dout_port = model.port("dout")?;
    let busy_port = model.port("busy")?;
    let run_info = RunInfo::new(Some(cfg.seed))
        .param("network", min.network())
        .param("m", m)
        .param("message_bits", cfg.format.message_bits)
        .param(
            "mode",
            match cfg.frames {
                Frames::Atape => "atape",
                Frames::Single => "single",
            },
        );
    let mut h = Harness::new(model, run_info);
    let w = Watches {
        dout: h.watch("dout")?,
        dst: h.watch("dst")?,
        busy: h.watch("busy")?,
        sending: h.watch("sending")?,
        frame: h.watch("frame")?,
        pos: h.watch("pos")?,
        conflict: h.watch("conflict")?,
        crossed: h.watch("sw_crossed")?,
        sw_conflict: h.watch("sw_conflict")?,
    };

    let words = |bits: usize| bits.div_ceil(32);
    let (mut dout_w, mut dst_w) = (vec![0u32; words(n)], vec![0u32; words(n * m as usize)]);
    let (mut first_w, mut din_w) = (vec![0u32; words(n * m as usize)], vec![0u32; words(n)]);
    let mut rtl_dout = vec![0u32; words(n)];
    let switches = m as usize * half;
    let (mut cross_w, mut swc_w) = (vec![0u32; words(switches)], vec![0u32; words(switches)]);
    let mut rtl_swc = vec![0u32; words(switches)];
    let end = tl.end() + 2;
    let mut recorded: Vec<Vec<u32>> = Vec::with_capacity(end as usize);
    let (mut busy_count, mut conflicts) = (0u64, 0usize);
    let t0 = cfg.t0();
    let frames = cfg.frame_count() as u64;
    let mut mismatch: Option<String> = None;
    let started = Instant::now();
    h.model().eval();
    'sim: for t in 0..end {
        let e = tl.expected(t);
        let checks = (|| -> Result<(), Box<Mismatch>> {
            pack(e.pe_dout.iter().copied(), &mut dout_w);
            h.check_words(w.dout, &dout_w)?;
            pack_fields(&e.pe_dst, m, &mut dst_w);
            h.check_words(w.dst, &dst_w)?;
            h.check(w.busy, e.busy as u64)?;
            h.check(w.sending, e.sending as u64)?;
            h.check(w.frame, e.frame as u64)?;
            h.check(w.pos, e.pos as u64)?;
            pack(e.cross.iter().flatten().copied(), &mut cross_w);
            h.check_words(w.crossed, &cross_w)?;
            pack(e.switch_conflict.iter().flatten().copied(), &mut swc_w);
            h.check_words(w.sw_conflict, &swc_w)?;
            let sc = e
                .stage_conflict
                .iter()
                .enumerate()
                .fold(0u64, |acc, (s, &c)| acc | (u64::from(c) << s));
            h.check(w.conflict, sc)?;
            Ok(())
        })();
        if let Err(mm) = checks {
            let mut text = format!("{mm}");
            for (port, want) in [(sw_crossed_port, &cross_w), (sw_conflict_port, &swc_w)] {
                if mm.signal.ends_with(&format!(
                    ".{}",
                    h.model().port_spec(port).map_or("", |p| p.name.as_str())
                )) {
                    let mut got = vec![0u32; want.len()];
                    h.model().get_words(port, &mut got)?;
                    if let Some(i) =
                        (0..switches).find(|&i| (got[i / 32] ^ want[i / 32]) >> (i % 32) & 1 == 1)
                    {
                        text.push_str(&format!(
                            "\n  first differing switch: st{}_sw{} (expected {}, got {})",
                            i / half,
                            i % half,
                            want[i / 32] >> (i % 32) & 1,
                            got[i / 32] >> (i % 32) & 1
                        ));
                    }
                }
            }
            mismatch = Some(text);
            break 'sim;
        }
        // Measurements from the RTL itself.
        let model = h.model();
        model.get_words(dout_port, &mut rtl_dout)?;
        recorded.push(rtl_dout.clone());
        busy_count += model.get(busy_port);
        model.get_words(sw_conflict_port, &mut rtl_swc)?;
        for s in 0..m as u64 {
            // Stage s shows frame i's decision at t0 + i·F + 2s + 1.
            let first_visible = t0 + 2 * s + 1;
            if t >= first_visible
                && (t - first_visible).is_multiple_of(f as u64)
                && (t - first_visible) / (f as u64) < frames
            {
                let base = s as usize * half;
                conflicts += (base..base + half)
                    .filter(|&i| (rtl_swc[i / 32] >> (i % 32)) & 1 == 1)
                    .count();
            }
        }
        let st = tl.stimulus(t);
        model.set(p.reset, st.reset as u64);
        model.set(p.start, st.start as u64);
        model.set(p.single, st.single as u64);
        pack_fields(&st.first, m, &mut first_w);
        model.set_words(p.first, &first_w)?;
        pack(st.din.iter().copied(), &mut din_w);
        model.set_words(p.din, &din_w)?;
        model.tick(p.clock);
        h.finish_bit_time();
    }
    let sim_seconds = started.elapsed().as_secs_f64();
    let stats = h.stats();
    h.model().vcd_flush();

    let expected_conflicts = (0..cfg.frame_count())
        .map(|i| tl.transit(i).conflicts.len())
        .sum();
    let deliverable = expected_conflicts == 0;
    let mut messages_checked = None;
    let mut mismatch_text = mismatch.clone();
    if mismatch.is_none() && deliverable {
        let dout = |t: u64, q: usize| {
            recorded
                .get(t as usize)
                .is_some_and(|row| (row[q / 32] >> (q % 32)) & 1 == 1)
        };
        match tl.check_deliveries(dout) {
            Ok(k) => messages_checked = Some(k),
            Err(e) => mismatch_text = Some(format!("delivery check failed: {e}")),
        }
    }
    Ok(CosimReport {
        matched: mismatch_text.is_none(),
        mismatch: mismatch_text,
        network: min.network().to_string(),
        m,
        n,
        message_bits: cfg.format.message_bits,
        frame_bits: f,
        frames: cfg.frame_count(),
        bit_times: busy_count,
        bound: cfg.exchange_bit_times(),
        conflicts,
        expected_conflicts,
        messages_checked,
        simulated_bit_times: stats.bit_times,
        compared_values: stats.compared_values,
        build_cached: info.outcome == CacheOutcome::Hit,
        build_seconds,
        sim_seconds,
        bit_times_per_second: stats.bit_times as f64 / sim_seconds.max(1e-9),
        top,
        verilog_dir: emitted.dir,
        vcd: opts.vcd.clone(),
    })
}

/// The default directories of a run named `name` under the artifacts root.
pub fn default_options(dir: &Path, vcd: bool) -> CosimOptions {
    CosimOptions {
        verilog_dir: dir.join("verilog"),
        vcd: vcd.then(|| dir.join("wave.vcd")),
    }
}
