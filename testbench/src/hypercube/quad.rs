//! Co-simulation of the batched cubes — the quadratic cube (`docs/hypercube.md` §14) and
//! the pipelined sort-then-pack (§13.3) — against their golden models ([`simulate_quad`],
//! [`simulate_qsort`]): the batches are fed in the cycles the model says they are taken,
//! and at every bit time every output vector — `rx_bit` (every unit of every node; the
//! junction and the delivery register of every node), `rx_valid`, `rx_payload`,
//! `node_collision` — and the globals `take`, `done`, `collision`, `bit_time`,
//! `batches_done` are compared. The RTL's own `take` and `batches_done` give the
//! measured period and latency.

use super::cosim::{emit_router, model_options, stimulus, CosimError, CosimOptions, NodeDiff};
use crate::bridge::{build_in, build_model, CacheOutcome, Model, ModelLibrary};
use crate::harness::{Harness, Mismatch, RunInfo, Stats, Watch};
use crate::hex::words_to_hex;
use lcanet_hdl::hypercube::cube::CubeError;
use lcanet_hdl::hypercube::{hw_params, Router};
use lcanet_sim::hypercube::cycle::ports::words_for;
use lcanet_sim::hypercube::qsort::simulate_qsort;
use lcanet_sim::hypercube::quad::{simulate_quad, QuadTrace};
use lcanet_sim::perm::PartialPermutation;
use std::path::Path;
use std::time::{Duration, Instant};

/// What a co-simulation of the quadratic cube found.
#[derive(Debug)]
pub struct QuadReport {
    /// The golden model's trace.
    pub trace: QuadTrace,
    /// The first difference, if any.
    pub mismatch: Option<Box<Mismatch>>,
    /// For a mismatch in a per-node vector: the first node that differs.
    pub mismatch_node: Option<NodeDiff>,
    /// The RTL's `bit_time` at the end.
    pub bit_times: u64,
    /// Bit times at which the RTL's `take` was high (a batch taken).
    pub take_times: Vec<u64>,
    /// Bit times from which the RTL's `batches_done` counted each batch.
    pub done_times: Vec<u64>,
    /// Per batch, what the RTL showed when its result appeared: `(rx_valid, rx_payload)`
    /// per node.
    pub delivered: Vec<Vec<(bool, u64)>>,
    /// Values and bit times compared.
    pub stats: Stats,
    /// Whether the Verilator model was built or found in the cache.
    pub build: CacheOutcome,
    /// Time to emit and build (or find) the model.
    pub build_time: Duration,
    /// Bytes of C++ Verilator wrote (recorded when the model was built).
    pub cpp_bytes: u64,
    /// Time of the bit-time loop.
    pub sim_time: Duration,
}

impl QuadReport {
    /// True when every compared value matched.
    pub fn matched(&self) -> bool {
        self.mismatch.is_none()
    }

    /// True when every batch's messages were at their destinations with their payloads
    /// (and no other node showed one) when the batch's result appeared.
    pub fn delivers(&self, batches: &[PartialPermutation], payloads: &[Vec<u64>]) -> bool {
        self.delivered.len() == batches.len()
            && batches
                .iter()
                .zip(payloads)
                .zip(&self.delivered)
                .all(|((r, pay), got)| {
                    let mut want = vec![None; r.len()];
                    for (s, d) in r.pairs() {
                        want[d] = Some(pay[s]);
                    }
                    got.iter()
                        .zip(want)
                        .all(|(&(v, p), w)| if v { w == Some(p) } else { w.is_none() })
                })
    }

    /// Bit times between successive batch completions, measured.
    pub fn periods(&self) -> Vec<u64> {
        self.done_times.windows(2).map(|w| w[1] - w[0]).collect()
    }

    /// Bit times from each batch's take to its result, measured.
    pub fn latencies(&self) -> Vec<u64> {
        self.take_times
            .iter()
            .zip(&self.done_times)
            .map(|(t, d)| d - t)
            .collect()
    }
}

/// Co-simulates `batches` (payloads `payloads[b][src]`) on the quadratic `k`-cube.
pub fn cosim_quad(
    k: usize,
    payload_bits: usize,
    batches: &[PartialPermutation],
    payloads: &[Vec<u64>],
    opts: &CosimOptions,
) -> Result<QuadReport, CosimError> {
    cosim_batched(Router::Quadratic, k, payload_bits, batches, payloads, opts)
}

/// Co-simulates `batches` on the batched cube of `router` (quadratic or quadratic-sort).
pub fn cosim_batched(
    router: Router,
    k: usize,
    payload_bits: usize,
    batches: &[PartialPermutation],
    payloads: &[Vec<u64>],
    opts: &CosimOptions,
) -> Result<QuadReport, CosimError> {
    let params = hw_params(k, payload_bits).map_err(CubeError::from)?;
    let trace = match router {
        Router::QuadSort => simulate_qsort(params, batches, payloads)?,
        Router::Quadratic => simulate_quad(params, batches, payloads)?,
        other => {
            return Err(CosimError::Unsupported {
                router: other,
                algorithm: "batches",
            })
        }
    };
    let opts = CosimOptions {
        router: Some(router),
        ..opts.clone()
    };
    cosim_quad_against(trace, batches, payloads, &opts)
}

fn field(words: &[u32], lsb: usize, width: usize) -> u64 {
    (0..width).fold(0, |acc, i| {
        let b = lsb + i;
        acc | u64::from(words[b / 32] >> (b % 32) & 1) << i
    })
}

/// Drives the batched cube of `opts.router` (default: the quadratic cube) with `batches`
/// and compares it with `expected` (the model's trace of the same input, or of another
/// one to see a mismatch report).
pub fn cosim_quad_against(
    expected: QuadTrace,
    batches: &[PartialPermutation],
    payloads: &[Vec<u64>],
    opts: &CosimOptions,
) -> Result<QuadReport, CosimError> {
    let first = run(expected, batches, payloads, opts, opts.vcd.as_deref())?;
    match (&first.mismatch, &opts.vcd, &opts.vcd_on_mismatch) {
        (Some(_), None, Some(vcd)) => run(first.trace, batches, payloads, opts, Some(vcd)),
        _ => Ok(first),
    }
}

fn run(
    trace: QuadTrace,
    batches: &[PartialPermutation],
    payloads: &[Vec<u64>],
    opts: &CosimOptions,
    vcd: Option<&Path>,
) -> Result<QuadReport, CosimError> {
    let p = trace.params;
    let (k, n, l) = (p.k(), p.n(), p.payload_bits());
    let columns = trace.columns();
    let router = opts.router.unwrap_or(Router::Quadratic);
    let expected = trace.port_words();
    let t0 = Instant::now();
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
    let start = model.input("start")?;
    model.set(model.input("batches")?, batches.len() as u64);
    let (send_in, dest_in, pay_in) = (
        model.input("send")?,
        model.input("dest")?,
        model.input("payload")?,
    );
    let stimuli: Vec<[Vec<u32>; 3]> = batches
        .iter()
        .zip(payloads)
        .map(|(r, pay)| stimulus(p, r, pay))
        .collect();
    let quiet = [
        vec![0u32; words_for(n)],
        vec![0u32; words_for(n * k)],
        vec![0u32; words_for(n * l)],
    ];
    let run_info = RunInfo::new(opts.seed)
        .param("k", k)
        .param("payload_bits", l)
        .param("router", router.name())
        .param("batches", batches.len());
    let mut h = Harness::new(model, run_info);
    let vectors: [(Watch, &'static str, usize); 4] = [
        (h.watch("rx_bit")?, "rx_bit", columns),
        (h.watch("rx_valid")?, "rx_valid", 1),
        (h.watch("rx_payload")?, "rx_payload", l),
        (h.watch("node_collision")?, "node_collision", 1),
    ];
    let globals = [
        h.watch("take")?,
        h.watch("done")?,
        h.watch("collision")?,
        h.watch("bit_time")?,
        h.watch("batches_done")?,
    ];
    let (take_port, bd_port, valid_port, pay_port) = {
        let m = h.model();
        (
            m.port("take")?,
            m.port("batches_done")?,
            m.port("rx_valid")?,
            m.port("rx_payload")?,
        )
    };
    let mut take_times = Vec::new();
    let mut done_times = Vec::new();
    let mut delivered = Vec::new();
    let mut valid = vec![0u32; words_for(n)];
    let mut pay = vec![0u32; words_for(n * l)];
    let mut mismatch = None;
    let t1 = Instant::now();
    'run: for t in 0..=trace.total + 3 {
        let m = h.model();
        m.set(start, u64::from(t == 0));
        let b = (t / trace.period) as usize;
        let words = if trace.take(t) { &stimuli[b] } else { &quiet };
        m.set_words(send_in, &words[0])?;
        m.set_words(dest_in, &words[1])?;
        m.set_words(pay_in, &words[2])?;
        m.eval();
        if m.get(take_port) == 1 {
            take_times.push(t);
        }
        if m.get(bd_port) as usize > done_times.len() {
            done_times.push(t);
            m.get_words(valid_port, &mut valid)?;
            m.get_words(pay_port, &mut pay)?;
            delivered.push(
                (0..n)
                    .map(|x| (field(&valid, x, 1) == 1, field(&pay, x * l, l)))
                    .collect(),
            );
        }
        let g = expected.globals(t);
        let want = [
            u64::from(g.take),
            u64::from(g.done),
            u64::from(g.collision),
            g.bit_time,
            g.batches_done,
        ];
        for (&w, v) in globals.iter().zip(want) {
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
    Ok(QuadReport {
        trace,
        mismatch: mismatch.map(|(e, _)| e),
        mismatch_node,
        bit_times,
        take_times,
        done_times,
        delivered,
        stats,
        build: info.outcome,
        build_time,
        cpp_bytes: info.manifest.cpp_bytes,
        sim_time,
    })
}
