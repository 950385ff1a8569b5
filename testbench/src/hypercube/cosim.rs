//! Co-simulation of a whole emitted k-cube (Verilator) against the cycle-level golden
//! model, every output at every bit time (`docs/hypercube.md` §8, §10).
//!
//! Flow: emit the cube's Verilog ([`router_design`]) into a directory, build it through the
//! bridge (cached by content), drive the PEs' input vectors, and at every bit time `t`
//! (before the clock edge of `t`, the model's convention) compare the top's output
//! vectors `rx_bit`, `rx_valid`, `rx_payload`, `node_collision` and the globals `done`,
//! `collision`, `bit_time` with the golden model's
//! [`PortWords`](lcanet_sim::hypercube::cycle::ports::PortWords): seven whole-vector
//! comparisons per bit time, no loop over nodes, no allocation. The first difference
//! stops the run and is returned as a [`Mismatch`] (bit time, hierarchical signal,
//! expected, actual, parameters, seed, VCD) with the first node whose row differs.
//! The harness's bit-time numbering is the model's `t` (`t = 0`: the cycle `start` is
//! sampled), so the VCD shows bit time `t` at `10·t` ns (plus `10·` the cycles of an
//! aborted first run, see [`CosimOptions::abort_first_run_after`]).

use crate::bridge::{
    build_in, build_model, BridgeError, CacheOutcome, Design, Model, ModelLibrary, ModelOptions,
    Optimize,
};
use crate::harness::{Harness, Mismatch, RunInfo, Stats, Watch};
use crate::hex::words_to_hex;
use lcanet_hdl::hypercube::cube::{router_design, CubeError};
use lcanet_hdl::hypercube::Router;
use lcanet_hdl::netlist::NetlistError;
use lcanet_sim::hypercube::cycle::ports::words_for;
use lcanet_sim::hypercube::cycle::{simulate, CycleTrace};
use lcanet_sim::hypercube::timing::Algorithm;
use lcanet_sim::hypercube::{CubeParams, HypercubeError};
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
    /// The router asked for does not run the algorithm asked for.
    #[error("the {router} router does not run {algorithm} (it runs semi and {})", router.algorithm().name())]
    Unsupported {
        /// The router.
        router: Router,
        /// The algorithm.
        algorithm: &'static str,
    },
}

/// Options of a co-simulation run.
#[derive(Debug, Clone, Default)]
pub struct CosimOptions {
    /// Directory for the emitted Verilog (created if needed).
    pub verilog_dir: PathBuf,
    /// Write a VCD here (the model is then built with tracing).
    pub vcd: Option<PathBuf>,
    /// Without `vcd`: if the run mismatches, run it again with tracing into this file, so
    /// that the mismatch report comes with a VCD (a traced build takes longer to compile,
    /// so clean runs skip it).
    pub vcd_on_mismatch: Option<PathBuf>,
    /// The seed the stimulus came from (for the mismatch report).
    pub seed: Option<u64>,
    /// First run the same routing for this many bit times unchecked, assert `reset` for
    /// one bit time, and only then run and check (exercises `reset` mid-run).
    pub abort_first_run_after: Option<u64>,
    /// C++ optimization of the model (`Quick` by default, see [`model_options`]).
    pub optimize: Optimize,
    /// Build (or find) the model under this directory instead of the default cache (a
    /// fresh directory measures a cold build; the Verilator runtime stays in the default
    /// cache).
    pub models_root: Option<PathBuf>,
    /// The router whose cube runs (default: the one that runs the algorithm,
    /// [`Router::for_algorithm`]).
    pub router: Option<Router>,
    /// Threads of the Verilated model (Verilator's `--threads`; 0 or 1: single-threaded).
    pub threads: usize,
}

/// The first node whose row of a mismatching output vector differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeDiff {
    /// The output vector (`rx_payload`, ...).
    pub port: &'static str,
    /// The node.
    pub node: usize,
    /// Its expected row, `0x` hex.
    pub expected: String,
    /// Its actual row, `0x` hex.
    pub actual: String,
}

impl std::fmt::Display for NodeDiff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "first differing node: {} ({} of node{}: expected {} got {})",
            self.node, self.port, self.node, self.expected, self.actual
        )
    }
}

/// What a co-simulation found.
#[derive(Debug)]
pub struct CosimReport {
    /// The golden model's trace.
    pub trace: CycleTrace,
    /// The first difference, if any.
    pub mismatch: Option<Box<Mismatch>>,
    /// For a mismatch in a per-node vector: the first node that differs.
    pub mismatch_node: Option<NodeDiff>,
    /// The RTL's `bit_time` output at the end.
    pub bit_times: u64,
    /// Per node, what the RTL shows at the end: `(rx_valid, rx_payload)`.
    pub delivered: Vec<(bool, u64)>,
    /// Values (whole vectors) and bit times compared.
    pub stats: Stats,
    /// Whether the Verilator model was built or found in the cache.
    pub build: CacheOutcome,
    /// Time to emit and build (or find) the model.
    pub build_time: Duration,
    /// Of the build (when it was built, not found), the seconds Verilator took.
    pub verilate_seconds: f64,
    /// Bytes of C++ Verilator wrote for the cube (recorded when the model was built).
    pub cpp_bytes: u64,
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

/// Verilator options of the co-simulation (chosen by measurement, `docs/hypercube.md`
/// §11): no public signals (only top ports are compared), tracing only when a VCD is
/// wanted, the C++ optimization asked for (`Quick`, `-O1`, unless `--optimize`).
pub fn model_options(trace: bool, optimize: Optimize) -> ModelOptions {
    ModelOptions {
        trace,
        optimize,
        ..ModelOptions::default()
    }
}

/// Emits the default router's cube into `dir` and returns the bridge's design.
pub fn emit_cube(k: usize, payload_bits: usize, dir: &Path) -> Result<Design, CosimError> {
    emit_router(Router::Overlapped, k, payload_bits, dir)
}

/// Emits the cube of `router` into `dir` and returns the bridge's design.
pub fn emit_router(
    router: Router,
    k: usize,
    payload_bits: usize,
    dir: &Path,
) -> Result<Design, CosimError> {
    let (design, _) = router_design(router, k, payload_bits)?;
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
    let params = lcanet_hdl::hypercube::hw_params(k, payload_bits).map_err(CubeError::from)?;
    let trace = simulate(params, algorithm, routing, payloads)?;
    cosim_against(trace, routing, payloads, opts)
}

/// Drives the cube of `expected.params` with `routing` and `payloads` under
/// `expected.algorithm` and compares it with `expected` at every bit time. [`cosim`]
/// passes the golden model's trace of the same input; a trace of another input shows
/// what a mismatch report looks like.
pub fn cosim_against(
    expected: CycleTrace,
    routing: &PartialPermutation,
    payloads: &[u64],
    opts: &CosimOptions,
) -> Result<CosimReport, CosimError> {
    let params = expected.params;
    let router = opts
        .router
        .unwrap_or_else(|| Router::for_algorithm(expected.algorithm));
    if !router.runs(expected.algorithm) {
        return Err(CosimError::Unsupported {
            router,
            algorithm: expected.algorithm.name(),
        });
    }
    let first = run(
        params,
        expected,
        routing,
        payloads,
        opts,
        opts.vcd.as_deref(),
    )?;
    match (&first.mismatch, &opts.vcd, &opts.vcd_on_mismatch) {
        (Some(_), None, Some(vcd)) => run(params, first.trace, routing, payloads, opts, Some(vcd)),
        _ => Ok(first),
    }
}

/// Words of the input vectors: `send[N]`, `dest[N*k]`, `payload[N*L]`.
pub(crate) fn stimulus(
    p: CubeParams,
    routing: &PartialPermutation,
    payloads: &[u64],
) -> [Vec<u32>; 3] {
    let (n, k, l) = (p.n(), p.k(), p.payload_bits());
    let mut send = vec![0u32; words_for(n)];
    let mut dest = vec![0u32; words_for(n * k)];
    let mut pay = vec![0u32; words_for(n * l)];
    for (x, &payload) in payloads.iter().enumerate().take(n) {
        if let Some(d) = routing.dst(x) {
            put(&mut send, x, 1, 1);
            put(&mut dest, x * k, k, d as u64);
        }
        put(&mut pay, x * l, l, payload);
    }
    [send, dest, pay]
}

fn put(words: &mut [u32], lsb: usize, width: usize, value: u64) {
    for i in (0..width).filter(|i| value >> i & 1 == 1) {
        words[(lsb + i) / 32] |= 1 << ((lsb + i) % 32);
    }
}

fn field(words: &[u32], lsb: usize, width: usize) -> u64 {
    (0..width).fold(0, |acc, i| {
        let b = lsb + i;
        acc | u64::from(words[b / 32] >> (b % 32) & 1) << i
    })
}

fn run(
    params: CubeParams,
    trace: CycleTrace,
    routing: &PartialPermutation,
    payloads: &[u64],
    opts: &CosimOptions,
    vcd: Option<&Path>,
) -> Result<CosimReport, CosimError> {
    let (k, n, l) = (params.k(), params.n(), params.payload_bits());
    let expected = trace.port_words();
    let t0 = Instant::now();
    let router = opts
        .router
        .unwrap_or_else(|| Router::for_algorithm(trace.algorithm));
    let design = emit_router(router, k, l, &opts.verilog_dir)?;
    let options = model_options(vcd.is_some(), opts.optimize).with_threads(opts.threads);
    let (mut model, info) = match &opts.models_root {
        None => build_model(&design, &options, vcd)?,
        Some(root) => {
            let info = build_in(root, &design, &options)?;
            let lib = ModelLibrary::load(&info)?;
            (Model::new(&lib, vcd)?, info)
        }
    };
    let build_time = t0.elapsed();

    let clock = model.input("clock")?;
    let (reset, start, alg) = (
        model.input("reset")?,
        model.input("start")?,
        model.input("algorithm")?,
    );
    model.set(alg, u64::from(trace.algorithm != Algorithm::Semi));
    let [send, dest, pay] = stimulus(params, routing, payloads);
    model.set_words(model.input("send")?, &send)?;
    model.set_words(model.input("dest")?, &dest)?;
    model.set_words(model.input("payload")?, &pay)?;
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
        .param("payload_bits", l)
        .param("algorithm", trace.algorithm.name())
        .param("router", router.name());
    let mut h = Harness::new(model, run_info);
    let vectors: [(Watch, &'static str, usize); 4] = [
        (h.watch("rx_bit")?, "rx_bit", 1),
        (h.watch("rx_valid")?, "rx_valid", 1),
        (h.watch("rx_payload")?, "rx_payload", l),
        (h.watch("node_collision")?, "node_collision", 1),
    ];
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
            let g = expected.global(t);
            let globals = [
                (w_done, u64::from(g.done)),
                (w_coll, u64::from(g.collision)),
                (w_bt, g.bit_time),
            ];
            for (w, v) in globals {
                if let Err(e) = h.check(w, v) {
                    mismatch = Some((e, None));
                    break 'run;
                }
            }
            let rows = [
                expected.rx_bit(t),
                expected.rx_valid(t),
                expected.rx_payload(t),
                expected.node_collision(t),
            ];
            for (&(w, port, width), want) in vectors.iter().zip(rows) {
                if let Err(e) = h.check_words(w, want) {
                    mismatch = Some((e, Some((port, width, want.to_vec()))));
                    break 'run;
                }
            }
        }
        h.finish_bit_time();
        h.model().tick(clock);
    }
    let sim_time = t1.elapsed();
    let stats = h.stats();
    let mut model = h.into_model();
    let mismatch_node = match &mismatch {
        Some((_, Some((port, width, want)))) => {
            let mut got = vec![0u32; want.len()];
            model.get_words(model.port(port)?, &mut got)?;
            (0..n)
                .find(|&x| field(want, x * width, *width) != field(&got, x * width, *width))
                .map(|x| {
                    let hex = |w: &[u32]| {
                        let v = field(w, x * width, *width);
                        format!(
                            "0x{}",
                            words_to_hex(&[v as u32, (v >> 32) as u32], *width as u32)
                        )
                    };
                    NodeDiff {
                        port,
                        node: x,
                        expected: hex(want),
                        actual: hex(&got),
                    }
                })
        }
        _ => None,
    };
    model.eval();
    model.vcd_flush();
    let bit_times = model.get(model.port("bit_time")?);
    let mut valid = vec![0u32; words_for(n)];
    let mut payload = vec![0u32; words_for(n * l)];
    model.get_words(model.port("rx_valid")?, &mut valid)?;
    model.get_words(model.port("rx_payload")?, &mut payload)?;
    let delivered = (0..n)
        .map(|x| (field(&valid, x, 1) == 1, field(&payload, x * l, l)))
        .collect();
    Ok(CosimReport {
        trace,
        mismatch: mismatch.map(|(e, _)| e),
        mismatch_node,
        bit_times,
        delivered,
        stats,
        build: info.outcome,
        build_time,
        verilate_seconds: info.manifest.verilate_seconds,
        cpp_bytes: info.manifest.cpp_bytes,
        sim_time,
    })
}
