//! One stimulus through a built network: the canonical run (`docs/interface.md` §3) driven
//! into the RTL and the golden model together, compared word by word every bit-time (every
//! top-level output port) and at the first bit-time of every `DELIV` (every crosspoint
//! vector of every switch), then checked at pass level against `routing::route` and for
//! exact delivery.
//!
//! Bit-time `t`: the inputs of `t` go to both; the RTL's clock edge and the model's `step`
//! end `t`; the outputs of bit-time `t + 1` (registers after the edge) are compared. Bit-time
//! 0 (power-up) is compared before the first edge. The loop allocates nothing and looks up
//! no name; it times the RTL, the golden model and the comparison separately.

use super::bench::{NetBench, NetCosimError, PROGRESS_EVERY};
use super::stimulus::Stimulus;
use crate::bridge::{InputId, Model, ModelLibrary};
use crate::harness::{Harness, Mismatch, RunInfo, Watch};
use lcanet_hdl::lca_net::fabric::{row_groups, rows_instance, switch_instance};
use lcanet_hdl::lca_net::Structure;
use lcanet_sim::lcan::cycle::network::{Mutation, NetworkModel, PortWords};
use lcanet_sim::lcan::routing::{route, Config, Conflict};
use serde::Serialize;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// How a run ended.
#[derive(Debug)]
pub enum NetVerdict {
    /// RTL and model agreed everywhere, and every check passed.
    Match,
    /// The first difference between RTL and model.
    Mismatch(Box<Mismatch>),
    /// RTL and model agree but a pass-level or delivery check failed.
    Check {
        /// What failed.
        what: String,
        /// Seed of the run.
        seed: u64,
        /// The VCD, if one was written.
        vcd: Option<PathBuf>,
    },
}

/// Where the time of a run went, in seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct NetTiming {
    /// In the Verilated model (driving inputs, clock edges).
    pub rtl: f64,
    /// In the golden model (`step` and its output words).
    pub golden: f64,
    /// Comparing outputs and crosspoints.
    pub compare: f64,
    /// The whole loop (the three above plus bookkeeping).
    pub total: f64,
}

/// The result of one stimulus.
#[derive(Debug)]
pub struct NetReport {
    /// Match or the first failure.
    pub verdict: NetVerdict,
    /// The `bit_times` output when `done` rose (the hardware's own count).
    pub bit_times: u64,
    /// The `passes` output when `done` rose.
    pub passes: u64,
    /// Connections delivered in each pass.
    pub delivered_per_pass: Vec<usize>,
    /// `H` of each pass.
    pub top_levels: Vec<usize>,
    /// Bit-times simulated (canonical run up to `done`, plus a few).
    pub simulated: u64,
    /// Values (words of ports and crosspoint vectors) compared.
    pub compared_values: u64,
    /// Wall-clock seconds of the simulation.
    pub run_seconds: f64,
    /// Where they went.
    pub timing: NetTiming,
    /// The VCD written, if any.
    pub vcd: Option<PathBuf>,
}

impl NetReport {
    /// Whether everything matched.
    pub fn matched(&self) -> bool {
        matches!(self.verdict, NetVerdict::Match)
    }

    /// Simulated bit-times per second of the whole loop.
    pub fn bit_times_per_second(&self) -> f64 {
        self.simulated as f64 / self.run_seconds.max(1e-9)
    }

    /// A multi-line description of the failure (empty on a match).
    pub fn failure_text(&self) -> String {
        match &self.verdict {
            NetVerdict::Match => String::new(),
            NetVerdict::Mismatch(m) => m.to_string(),
            NetVerdict::Check { what, seed, vcd } => format!(
                "{what}\n  seed: {seed}\n  VCD: {}",
                vcd.as_ref()
                    .map_or("none".to_string(), |p| p.display().to_string())
            ),
        }
    }
}

/// Bit-times simulated after `done` rose (outputs must hold).
const AFTER_DONE: u64 = 3;

/// A watched value and how to compare it.
struct Compared {
    watch: Watch,
    /// Bits (above 64: compared as 32-bit words).
    width: usize,
}

/// Compares `words` (64-bit, least significant first) with the watched signal.
fn check(
    h: &mut Harness,
    c: &Compared,
    words: &[u64],
    buf: &mut [u32],
) -> Result<(), Box<Mismatch>> {
    if c.width <= 64 {
        return h.check(c.watch, words[0]);
    }
    let n32 = c.width.div_ceil(32);
    for (i, slot) in buf[..n32].iter_mut().enumerate() {
        *slot = (words[i / 2] >> (32 * (i % 2))) as u32;
    }
    h.check_words(c.watch, &buf[..n32])
}

/// Drives input `id` with `words` (64-bit, least significant first).
pub(super) fn drive(model: &mut Model, id: InputId, width: usize, words: &[u64], buf: &mut [u32]) {
    if width <= 64 {
        model.set(id, words[0]);
        return;
    }
    let n32 = width.div_ceil(32);
    for (i, slot) in buf[..n32].iter_mut().enumerate() {
        *slot = (words[i / 2] >> (32 * (i % 2))) as u32;
    }
    model
        .set_words(id, &buf[..n32])
        .expect("the buffer holds the port's words");
}

impl NetBench {
    /// Runs `stim`; writes a VCD to `vcd` if given. With `failure_vcd`, a failing run
    /// without a VCD is repeated on a traced build with one written there (runs are
    /// deterministic).
    pub fn run(
        &self,
        stim: &Stimulus,
        vcd: Option<&Path>,
        failure_vcd: Option<&Path>,
        mutation: Option<Mutation>,
    ) -> Result<NetReport, NetCosimError> {
        let lib = if vcd.is_some() {
            self.traced()?
        } else {
            self.lib.clone()
        };
        let report = self.run_once(&lib, stim, vcd, mutation.clone())?;
        match (report.matched(), vcd, failure_vcd) {
            (false, None, Some(f)) => self.run_once(&self.traced()?, stim, Some(f), mutation),
            _ => Ok(report),
        }
    }

    fn run_info(&self, seed: u64) -> RunInfo {
        let np = &self.spec.net;
        let (d, u) = lcanet_hdl::lca_net::spec::size_tags(&self.spec.topo, ",");
        RunInfo::new(Some(seed))
            .param("topology", self.spec.topo.kind().name())
            .param("d", d)
            .param("u", u)
            .param("levels", self.spec.topo.levels())
            .param("n", np.n)
            .param("width", np.width())
            .param("message_bits", np.msg_bits)
            .param("algorithm", np.algorithm.name())
            .param("arbiter", np.policy())
    }

    fn run_once(
        &self,
        lib: &Arc<ModelLibrary>,
        stim: &Stimulus,
        vcd: Option<&Path>,
        mutation: Option<Mutation>,
    ) -> Result<NetReport, NetCosimError> {
        let (topo, np) = (&self.spec.topo, &self.spec.net);
        let dst = stim.destinations();
        let mut golden = match mutation {
            None => NetworkModel::new(topo, np, &dst, &stim.messages, stim.seed),
            Some(m) => NetworkModel::with_mutation(topo, np, &dst, &stim.messages, stim.seed, m),
        }
        .map_err(|e| NetCosimError::Model(e.to_string()))?;
        let model = Model::new(lib, vcd)?;
        let clock = model.input("clock")?;
        let in_ports = golden.input_ports();
        let inputs: Vec<(InputId, usize)> = in_ports
            .iter()
            .map(|p| model.input(&p.name).map(|id| (id, p.width)))
            .collect::<Result<_, _>>()?;
        let mut canonical = golden.canonical_inputs();
        let mut h = Harness::new(model, self.run_info(stim.seed));
        let out_ports = golden.output_ports();
        let outs: Vec<Compared> = out_ports
            .iter()
            .map(|p| {
                h.watch(&p.name).map(|watch| Compared {
                    watch,
                    width: p.width,
                })
            })
            .collect::<Result<_, _>>()?;
        let mut expect = PortWords::new(&out_ports);
        let xps = self.crosspoint_watches(&mut h)?;
        let widest = out_ports
            .iter()
            .chain(&in_ports)
            .map(|p| p.width)
            .chain(xps.iter().map(|(_, _, c)| c.width))
            .max()
            .unwrap_or(64);
        let mut buf32 = vec![0u32; widest.div_ceil(32) + 1];
        let mut xbuf = vec![0u64; widest.div_ceil(64)];
        let budget =
            2 + np.t_load as u64 + (np.n as u64 + 1) * np.pass_len(np.levels() - 1) as u64 + 16;
        let mut timing = NetTiming::default();
        let t0 = Instant::now();
        let mut done_since: Option<u64> = None;
        let verdict = 'run: {
            for t in 0..budget {
                if let Some(f) = &self.progress {
                    if t % PROGRESS_EVERY == 0 {
                        f(t, expect.low(3));
                    }
                }
                let ta = Instant::now();
                let values = canonical.at(t);
                // reset and start every bit-time; the load inputs are constant from 0.
                let driven = if t == 0 { inputs.len() } else { 2 };
                for (i, &(id, width)) in inputs.iter().enumerate().take(driven) {
                    drive(h.model(), id, width, values.get(i), &mut buf32);
                }
                if t == 0 {
                    h.model().eval();
                    let tb = Instant::now();
                    timing.rtl += (tb - ta).as_secs_f64();
                    golden.output_words(&mut expect);
                    let tc = Instant::now();
                    timing.golden += (tc - tb).as_secs_f64();
                    for (i, c) in outs.iter().enumerate() {
                        if let Err(m) = check(&mut h, c, expect.get(i), &mut buf32) {
                            break 'run NetVerdict::Mismatch(self.locate(m, &out_ports[i].name));
                        }
                    }
                    h.finish_bit_time();
                    timing.compare += tc.elapsed().as_secs_f64();
                }
                let ta = Instant::now();
                h.model().tick(clock);
                let tb = Instant::now();
                if let Err(e) = golden.step() {
                    return Err(NetCosimError::Model(format!("bit-time {t}: {e}")));
                }
                golden.output_words(&mut expect);
                let tc = Instant::now();
                for (i, c) in outs.iter().enumerate() {
                    if let Err(m) = check(&mut h, c, expect.get(i), &mut buf32) {
                        break 'run NetVerdict::Mismatch(self.locate(m, &out_ports[i].name));
                    }
                }
                if golden.is_setup_end() {
                    for (gs, which, c) in &xps {
                        golden.crosspoint_rows(gs.clone(), *which, &mut xbuf);
                        if let Err(m) = check(&mut h, c, &xbuf, &mut buf32) {
                            break 'run NetVerdict::Mismatch(self.locate_row(m, gs, c.width));
                        }
                    }
                }
                h.finish_bit_time();
                let td = Instant::now();
                timing.rtl += (tb - ta).as_secs_f64();
                timing.golden += (tc - tb).as_secs_f64();
                timing.compare += (td - tc).as_secs_f64();
                if expect.low(0) == 1 {
                    let since = *done_since.get_or_insert(t + 1);
                    if t + 1 >= since + AFTER_DONE {
                        break 'run NetVerdict::Match;
                    }
                }
            }
            NetVerdict::Check {
                what: format!("`done` did not rise within {budget} bit-times"),
                seed: stim.seed,
                vcd: vcd.map(Path::to_path_buf),
            }
        };
        let run_seconds = t0.elapsed().as_secs_f64();
        timing.total = run_seconds;
        h.model().vcd_flush();
        let stats = h.stats();
        let o = golden.outputs();
        let passes = golden.passes();
        let mut report = NetReport {
            verdict,
            bit_times: u64::from(o.bit_times),
            passes: u64::from(o.passes),
            delivered_per_pass: passes.iter().map(|p| p.delivered.len()).collect(),
            top_levels: passes.iter().map(|p| p.top_level).collect(),
            simulated: stats.bit_times,
            compared_values: stats.compared_values,
            run_seconds,
            timing,
            vcd: vcd.map(Path::to_path_buf),
        };
        if report.matched() {
            if let Err(what) = self.semantic_checks(&golden, stim) {
                report.verdict = NetVerdict::Check {
                    what,
                    seed: stim.seed,
                    vcd: vcd.map(Path::to_path_buf),
                };
            }
        }
        Ok(report)
    }

    /// Names the PE whose field of a network-wide port differs (`valid`, `sent`: a bit per
    /// PE; `rmsg`: `M` bits per PE).
    fn locate(&self, mut m: Box<Mismatch>, port: &str) -> Box<Mismatch> {
        let row = match port {
            "valid" | "sent" => Some(1),
            "rmsg" => Some(self.spec.net.msg_bits),
            _ => None,
        };
        if let Some(p) = row.and_then(|w| m.first_differing_row(w)) {
            m.signal = format!("{} (first differing PE: {p})", m.signal);
        }
        m
    }

    /// Names the switch whose row of a level's crosspoint vector differs.
    fn locate_row(&self, mut m: Box<Mismatch>, gs: &Range<usize>, width: usize) -> Box<Mismatch> {
        if gs.len() > 1 {
            if let Some(j) = m.first_differing_row(width / gs.len()) {
                let (level, sw) = self.spec.topo.from_global(gs.start + j);
                m.signal = format!(
                    "{} (row {j}: switch {})",
                    m.signal,
                    switch_instance(level, sw)
                );
            }
        }
        m
    }

    /// `(global switches, vector, watch)` of every crosspoint vector (`xp_ac`, `xp_ad`,
    /// `xp_bc`, `xp_bd`): one switch's in `lvl<i>_sw<j>`, or a whole level's rows in
    /// `lvl<i>` or `lvl<i>_to_<j>` ([`Structure::Rows`]).
    fn crosspoint_watches(
        &self,
        h: &mut Harness,
    ) -> Result<Vec<(Range<usize>, usize, Compared)>, NetCosimError> {
        let topo = &self.spec.topo;
        let mut v = Vec::with_capacity(4 * topo.total_switches());
        let mut add = |h: &mut Harness, scope: String, gs: Range<usize>| {
            let level = topo.from_global(gs.start).0;
            let (d, u) = (topo.d_at(level), topo.u_at(level));
            let vectors = [
                ("xp_ac", d * d),
                ("xp_ad", d * u),
                ("xp_bc", u * d),
                ("xp_bd", u * u),
            ];
            for (which, (name, width)) in vectors.into_iter().enumerate() {
                let watch = h.watch(&format!("{}.{scope}.{name}", self.top))?;
                let width = width * gs.len();
                v.push((gs.clone(), which, Compared { watch, width }));
            }
            Ok::<(), NetCosimError>(())
        };
        match self.spec.structure {
            Structure::Instances => {
                for level in 0..topo.levels() {
                    let first = topo.global_index(level, 0);
                    for j in 0..topo.switch_count(level) {
                        add(h, switch_instance(level, j), first + j..first + j + 1)?;
                    }
                }
            }
            // One rows instance per level, or per run of levels of one switch shape (their
            // switches' global indices are consecutive).
            Structure::Rows => {
                for g in row_groups(topo) {
                    let first = topo.global_index(g.start, 0);
                    let last = topo.global_index(g.end - 1, 0) + topo.switch_count(g.end - 1);
                    add(h, rows_instance(&g), first..last)?;
                }
            }
        }
        Ok(v)
    }

    /// Pass-level equality with `routing::route` and exact, bit-exact delivery.
    fn semantic_checks(&self, golden: &NetworkModel, stim: &Stimulus) -> Result<(), String> {
        let o = golden.outputs();
        if !o.done {
            return Err("the run ended without `done`".into());
        }
        if o.error {
            return Err("`error` is set for a legal permutation".into());
        }
        let cfg = Config {
            algorithm: self.spec.net.algorithm,
            policy: golden.routing_policy(),
            conflict: Conflict::Wire,
            seed: stim.seed,
        };
        let sched = route(&self.spec.topo, &stim.perm, &cfg)
            .map_err(|e| format!("routing::route failed: {e}"))?;
        let passes = golden.passes();
        if passes.len() != sched.passes.len() || o.passes as usize != passes.len() {
            return Err(format!(
                "passes: hardware {} (model log {}), routing::route {}",
                o.passes,
                passes.len(),
                sched.passes.len()
            ));
        }
        let mut seen = vec![0usize; stim.perm.len()];
        for (k, (mp, sp)) in passes.iter().zip(&sched.passes).enumerate() {
            let mut want: Vec<(usize, usize)> =
                sp.delivered.iter().map(|c| (c.src, c.dst)).collect();
            want.sort_unstable();
            let mut got = mp.delivered.clone();
            got.sort_unstable();
            if got != want {
                return Err(format!(
                    "pass {k}: the hardware delivered {got:?}, routing::route {want:?}"
                ));
            }
            for &(s, _) in &got {
                seen[s] += 1;
            }
        }
        for (src, dst) in stim.perm.pairs() {
            if seen[src] != 1 {
                return Err(format!(
                    "PE {src}'s message was delivered {} times",
                    seen[src]
                ));
            }
            if !o.sent[src] {
                return Err(format!("PE {src}: `sent` is 0 at the end"));
            }
            if !o.valid[dst] || o.rmsg[dst] != stim.messages[src] {
                return Err(format!(
                    "PE {dst} received valid={} message {:#x}, PE {src} sent {:#x}",
                    o.valid[dst], o.rmsg[dst], stim.messages[src]
                ));
            }
        }
        Ok(())
    }
}
