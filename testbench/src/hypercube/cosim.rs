//! Co-simulation of a whole emitted k-cube (Verilator) against the cycle-level golden
//! model, every output at every bit time (`docs/hypercube.md` §8).
//!
//! Flow: emit the cube's Verilog ([`cube_design`]) into a directory, build it through the
//! bridge (cached by content), drive the PEs' inputs, and at every bit time `t` (before
//! the clock edge of `t`, the model's convention) compare every node's `rx_bit`,
//! `rx_valid`, `rx_payload`, `collision` and the global `done`, `collision`, `bit_time`
//! with [`CycleTrace`]. The first difference stops the run and is returned as a
//! [`Mismatch`] (bit time, hierarchical signal, expected, actual, parameters, seed, VCD).
//! The harness's bit-time numbering is the model's `t` (`t = 0`: the cycle `start` is
//! sampled), so the VCD shows bit time `t` at `10·t` (plus `10·` the cycles of an aborted
//! first run, see [`CosimOptions::abort_first_run_after`]).

use crate::bridge::{build_model, BridgeError, CacheOutcome, Design, ModelOptions};
use crate::harness::{Harness, Mismatch, RunInfo, Stats};
use lcanet_hdl::hypercube::cube::{cube_design, node_port, CubeError};
use lcanet_hdl::netlist::NetlistError;
use lcanet_sim::hypercube::cycle::{simulate, CycleTrace};
use lcanet_sim::hypercube::timing::Algorithm;
use lcanet_sim::hypercube::HypercubeError;
use lcanet_sim::perm::PartialPermutation;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Why a co-simulation could not run (a mismatch is not an error: see [`CosimReport`]).
#[derive(Debug, thiserror::Error)]
pub enum CosimError {
    /// The cube could not be generated.
    #[error(transparent)]
    Cube(#[from] CubeError),
    /// The golden model rejected the input.
    #[error(transparent)]
    Model(#[from] HypercubeError),
    /// Writing the Verilog failed.
    #[error(transparent)]
    Write(#[from] NetlistError),
    /// Building or driving the Verilator model failed.
    #[error(transparent)]
    Bridge(#[from] BridgeError),
}

/// Options of a co-simulation run.
#[derive(Debug, Clone, Default)]
pub struct CosimOptions {
    /// Directory for the emitted Verilog (created if needed).
    pub verilog_dir: PathBuf,
    /// Write a VCD here (the model is then built with tracing).
    pub vcd: Option<PathBuf>,
    /// Without `vcd`: if the run mismatches, run it again with tracing into this file, so
    /// that the mismatch report comes with a VCD (a traced build is several times slower
    /// to compile, so clean runs skip it).
    pub vcd_on_mismatch: Option<PathBuf>,
    /// The seed the stimulus came from (for the mismatch report).
    pub seed: Option<u64>,
    /// First run the same routing for this many bit times unchecked, assert `reset` for
    /// one bit time, and only then run and check (exercises `reset` mid-run).
    pub abort_first_run_after: Option<u64>,
}

/// What a co-simulation found.
#[derive(Debug)]
pub struct CosimReport {
    /// The golden model's trace.
    pub trace: CycleTrace,
    /// The first difference, if any.
    pub mismatch: Option<Box<Mismatch>>,
    /// The RTL's `bit_time` output once `done` (when it matched).
    pub bit_times: u64,
    /// Per node, what the RTL shows at the end: `(rx_valid, rx_payload)`.
    pub delivered: Vec<(bool, u64)>,
    /// Values and bit times compared.
    pub stats: Stats,
    /// Whether the Verilator model was built or found in the cache.
    pub build: CacheOutcome,
    /// Time to emit and build (or find) the model.
    pub build_time: Duration,
    /// Time of the bit-time loop.
    pub sim_time: Duration,
}

impl CosimReport {
    /// True when every compared value matched.
    pub fn matched(&self) -> bool {
        self.mismatch.is_none()
    }

    /// True when every message of `routing` is at its destination with its payload, and
    /// no other node shows a message: delivered exactly once, bit-exact.
    pub fn delivers(&self, routing: &PartialPermutation, payloads: &[u64]) -> bool {
        let mut want = vec![None; routing.len()];
        for (s, d) in routing.pairs() {
            want[d] = Some(payloads[s]);
        }
        self.delivered
            .iter()
            .zip(want)
            .all(|(&(v, p), w)| if v { w == Some(p) } else { w.is_none() })
    }
}

/// Verilator options of the co-simulation, chosen because compiling the model dominates
/// (measured on the shared 2-core machine, 64-node cube: 251 s with the bridge's defaults,
/// 62 s without tracing and public signals, 99 s traced at `-O0`; 128 nodes: 145 s at
/// `-Os`, 51 s at `-O0`):
/// - only top-level ports are compared, so internal signals are not made public;
/// - tracing only when a VCD is wanted;
/// - `-CFLAGS -O0`: the model runs a few thousand bit times, compiling is what costs;
/// - `--output-split 0`: one C++ file instead of a precompiled header and a dozen split
///   files. Split builds work (the bridge passes `CFG_CXXFLAGS_PCH_I=-include`), but on
///   this machine the 64-node cube built in 45 s and 53 s unsplit against 55 s and 63 s
///   split (two fresh caches each; `-O0`, no tracing), so one file stays.
pub fn model_options(trace: bool) -> ModelOptions {
    ModelOptions {
        trace,
        public_signals: false,
        extra_args: ["--output-split", "0", "-CFLAGS", "-O0"]
            .map(String::from)
            .to_vec(),
        hier_blocks: Vec::new(),
    }
}

/// Emits the cube's Verilog into `dir` and returns the bridge's design.
pub fn emit_cube(k: usize, payload_bits: usize, dir: &Path) -> Result<Design, CosimError> {
    let (design, _) = cube_design(k, payload_bits)?;
    let emitted = design.emit()?;
    emitted.write_to(dir)?;
    Ok(Design::from_file_list(
        &dir.join(&emitted.file_list.name),
        emitted.top.clone(),
    )?)
}

/// Co-simulates one run of `algorithm` on `routing` with `payloads[src]`.
pub fn cosim(
    k: usize,
    payload_bits: usize,
    algorithm: Algorithm,
    routing: &PartialPermutation,
    payloads: &[u64],
    opts: &CosimOptions,
) -> Result<CosimReport, CosimError> {
    let first = run(
        k,
        payload_bits,
        algorithm,
        routing,
        payloads,
        opts,
        opts.vcd.as_deref(),
    )?;
    match (&first.mismatch, &opts.vcd, &opts.vcd_on_mismatch) {
        (Some(_), None, Some(vcd)) => run(
            k,
            payload_bits,
            algorithm,
            routing,
            payloads,
            opts,
            Some(vcd),
        ),
        _ => Ok(first),
    }
}

fn run(
    k: usize,
    payload_bits: usize,
    algorithm: Algorithm,
    routing: &PartialPermutation,
    payloads: &[u64],
    opts: &CosimOptions,
    vcd: Option<&Path>,
) -> Result<CosimReport, CosimError> {
    let params = lcanet_hdl::hypercube::hw_params(k, payload_bits).map_err(CubeError::from)?;
    let trace = simulate(params, algorithm, routing, payloads)?;
    let n = params.n();
    let t0 = Instant::now();
    let design = emit_cube(k, payload_bits, &opts.verilog_dir)?;
    let (mut model, info) = build_model(&design, &model_options(vcd.is_some()), vcd)?;
    let build_time = t0.elapsed();

    let clock = model.input("clock")?;
    let (reset, start, alg) = (
        model.input("reset")?,
        model.input("start")?,
        model.input("algorithm")?,
    );
    model.set(alg, u64::from(algorithm == Algorithm::Full));
    for (x, &payload) in payloads.iter().enumerate().take(n) {
        let send = model.input(&node_port(x, "send"))?;
        let dest = model.input(&node_port(x, "dest"))?;
        let pay = model.input(&node_port(x, "payload"))?;
        model.set(send, u64::from(routing.dst(x).is_some()));
        model.set(dest, routing.dst(x).unwrap_or(0) as u64);
        model.set(pay, payload);
    }
    if let Some(cycles) = opts.abort_first_run_after {
        model.set(start, 1);
        model.tick(clock);
        model.set(start, 0);
        for _ in 0..cycles {
            model.tick(clock);
        }
        model.set(reset, 1);
        model.tick(clock);
        model.set(reset, 0);
    }
    // After an aborted run the collision flags keep their value until the load cycle.
    let first_checked = u64::from(opts.abort_first_run_after.is_some());

    let run_info = RunInfo::new(opts.seed)
        .param("k", k)
        .param("payload_bits", payload_bits)
        .param("algorithm", format!("{algorithm:?}").to_lowercase());
    let mut h = Harness::new(model, run_info);
    let mut node_watches = Vec::with_capacity(n);
    for x in 0..n {
        node_watches.push([
            h.watch(&node_port(x, "rx_bit"))?,
            h.watch(&node_port(x, "rx_valid"))?,
            h.watch(&node_port(x, "rx_payload"))?,
            h.watch(&node_port(x, "collision"))?,
        ]);
    }
    let (w_done, w_coll, w_bt) = (
        h.watch("done")?,
        h.watch("collision")?,
        h.watch("bit_time")?,
    );
    let t1 = Instant::now();
    let mut mismatch = None;
    'run: for t in 0..=trace.total + 3 {
        let m = h.model();
        m.set(start, u64::from(t == 0));
        m.eval();
        if t >= first_checked {
            let g = trace.global(t);
            for (w, v) in [
                (w_done, u64::from(g.done)),
                (w_coll, u64::from(g.collision)),
                (w_bt, g.bit_time),
            ] {
                if let Err(e) = h.check(w, v) {
                    mismatch = Some(e);
                    break 'run;
                }
            }
            for (x, ws) in node_watches.iter().enumerate() {
                let o = trace.node(t, x);
                let vals = [
                    u64::from(o.rx_bit),
                    u64::from(o.rx_valid),
                    o.rx_payload,
                    u64::from(o.collision),
                ];
                for (&w, v) in ws.iter().zip(vals) {
                    if let Err(e) = h.check(w, v) {
                        mismatch = Some(e);
                        break 'run;
                    }
                }
            }
        }
        h.finish_bit_time();
        h.model().tick(clock);
    }
    let sim_time = t1.elapsed();
    let stats = h.stats();
    let mut model = h.into_model();
    model.eval();
    model.vcd_flush();
    let bit_times = model.get(model.port("bit_time")?);
    let mut delivered = Vec::with_capacity(n);
    for x in 0..n {
        let v = model.get(model.port(&node_port(x, "rx_valid"))?) == 1;
        let p = model.get(model.port(&node_port(x, "rx_payload"))?);
        delivered.push((v, p));
    }
    Ok(CosimReport {
        trace,
        mismatch,
        bit_times,
        delivered,
        stats,
        build: info.outcome,
        build_time,
        sim_time,
    })
}
