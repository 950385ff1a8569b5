//! One stimulus through a built network: the canonical run (`docs/interface.md` §3) driven
//! into the RTL and the golden model together, compared every bit-time (every top-level
//! output) and at the first bit-time of every `DELIV` (every crosspoint of every switch),
//! then checked at pass level against `routing::route` and for exact delivery.
//!
//! Bit-time `t`: the inputs of `t` go to both; the RTL's clock edge and the model's `step`
//! end `t`; the outputs of bit-time `t + 1` (registers after the edge) are compared. Bit-time
//! 0 (power-up) is compared before the first edge.

use super::bench::{NetBench, NetBuild, NetCosimError, PROGRESS_EVERY};
use super::stimulus::Stimulus;
use crate::bridge::{InputId, Model, ModelLibrary};
use crate::harness::{Harness, Mismatch, RunInfo, Watch};
use lcanet_sim::lcan::cycle::network::{Mutation, NetworkModel};
use lcanet_sim::lcan::routing::{route, Config, Conflict};
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
    /// Values compared.
    pub compared_values: u64,
    /// Wall-clock seconds of the simulation.
    pub run_seconds: f64,
    /// The VCD written, if any.
    pub vcd: Option<PathBuf>,
}

impl NetReport {
    /// Whether everything matched.
    pub fn matched(&self) -> bool {
        matches!(self.verdict, NetVerdict::Match)
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

impl NetBench {
    /// Runs `stim`; writes a VCD to `vcd` if given. With `failure_vcd`, a failing run
    /// without a VCD is repeated with one written there (runs are deterministic), unless
    /// that needs a traced build of more than [`NetBuild::FAILURE_VCD_MAX_SWITCHES`]
    /// switches (a hierarchical traced build of n = 1,024 does not finish): the report
    /// then has no VCD.
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
            (false, None, Some(f))
                if failure_vcd_allowed(self.lib.has_trace(), self.spec.topo.total_switches()) =>
            {
                self.run_once(&self.traced()?, stim, Some(f), mutation)
            }
            _ => Ok(report),
        }
    }

    fn run_info(&self, seed: u64) -> RunInfo {
        let np = &self.spec.net;
        RunInfo::new(Some(seed))
            .param("topology", self.spec.topo.kind().name())
            .param("d", self.spec.topo.d())
            .param("u", self.spec.topo.u())
            .param("levels", self.spec.topo.levels())
            .param("n", np.n)
            .param("width", np.width())
            .param("message_bits", np.msg_bits)
            .param("algorithm", np.algorithm.name())
            .param("arbiter", np.switch.policy)
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
        let inputs: Vec<InputId> = golden
            .input_names()
            .iter()
            .map(|n| model.input(n))
            .collect::<Result<_, _>>()?;
        let mut h = Harness::new(model, self.run_info(stim.seed));
        let outs: Vec<Watch> = golden
            .output_names()
            .iter()
            .map(|n| h.watch(n))
            .collect::<Result<_, _>>()?;
        let xps = self.crosspoint_watches(&mut h)?;
        let (mut inv, mut prev, mut outv) = (Vec::new(), Vec::new(), Vec::new());
        let budget =
            2 + np.t_load as u64 + (np.n as u64 + 1) * np.pass_len(np.levels() - 1) as u64 + 16;
        let t0 = Instant::now();
        let mut done_since: Option<u64> = None;
        let verdict = 'run: {
            for t in 0..budget {
                if let Some(f) = &self.progress {
                    if t % PROGRESS_EVERY == 0 {
                        f(t, u64::from(golden.outputs().passes));
                    }
                }
                golden.input_values(t, &mut inv);
                for (i, (&v, id)) in inv.iter().zip(&inputs).enumerate() {
                    if t == 0 || prev[i] != v {
                        h.model().set(*id, u64::from(v));
                    }
                }
                std::mem::swap(&mut prev, &mut inv);
                if t == 0 {
                    h.model().eval();
                    golden.output_values(&mut outv);
                    if let Err(m) = check_all(&mut h, &outs, &outv) {
                        break 'run NetVerdict::Mismatch(m);
                    }
                    h.finish_bit_time();
                }
                h.model().tick(clock);
                if let Err(e) = golden.step() {
                    return Err(NetCosimError::Model(format!("bit-time {t}: {e}")));
                }
                golden.output_values(&mut outv);
                if let Err(m) = check_all(&mut h, &outs, &outv) {
                    break 'run NetVerdict::Mismatch(m);
                }
                if golden.is_setup_end() {
                    for &(g, i, o, w) in &xps {
                        let want = golden.switches()[g].crosspoints().is_closed(i, o);
                        if let Err(m) = h.check(w, u64::from(want)) {
                            break 'run NetVerdict::Mismatch(m);
                        }
                    }
                }
                h.finish_bit_time();
                if golden.outputs().done {
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

    /// `(global switch, input, output, watch)` of every crosspoint register.
    fn crosspoint_watches(
        &self,
        h: &mut Harness,
    ) -> Result<Vec<(usize, usize, usize, Watch)>, NetCosimError> {
        let topo = &self.spec.topo;
        let (d, u) = (topo.d(), topo.u());
        let mut v = Vec::new();
        for g in 0..topo.total_switches() {
            let (level, j) = topo.from_global(g);
            let inst = format!("{}.lvl{level}_sw{j}.xbar", self.top);
            for (grp, rows, cols, i0, o0) in [
                ("xp_ac", d, d, 0, 0),
                ("xp_ad", d, u, 0, d),
                ("xp_bc", u, d, d, 0),
                ("xp_bd", u, u, d, d),
            ] {
                for r in 0..rows {
                    for c in 0..cols {
                        let w = h.watch(&format!("{inst}.{grp}_{}_q", r * cols + c))?;
                        v.push((g, i0 + r, o0 + c, w));
                    }
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

/// Whether a failing run is repeated for its VCD: always with a traced model at hand,
/// otherwise only when the traced build it needs is practical.
fn failure_vcd_allowed(has_trace: bool, switches: usize) -> bool {
    has_trace || switches <= NetBuild::FAILURE_VCD_MAX_SWITCHES
}

/// Compares every watched output with the golden model's value, in order; the first
/// difference.
fn check_all(h: &mut Harness, outs: &[Watch], values: &[u8]) -> Result<(), Box<Mismatch>> {
    for (&w, &v) in outs.iter().zip(values) {
        h.check(w, u64::from(v))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_vcds_are_skipped_only_when_a_traced_rebuild_is_impractical() {
        let max = NetBuild::FAILURE_VCD_MAX_SWITCHES;
        assert!(failure_vcd_allowed(false, max));
        assert!(!failure_vcd_allowed(false, max + 1));
        assert!(failure_vcd_allowed(true, 5120));
    }
}
