//! Co-simulation of one LCA switch: the emitted Verilog in Verilator against the cycle-level
//! golden model (`lcanet_sim::lcan::cycle`), driven by seeded random legal traffic in every
//! mode, compared every bit-time.
//!
//! Per bit-time `t`: the inputs go to both; every bit-time the RTL's arbiter working
//! registers are checked for "no slot both granted and rejected", and at a commit
//! (`ctl_last`) they (the step outcome, before the clock edge) are compared with the
//! model's outcome of that commit; after the edge the outputs `c` and `d`, the step
//! counter, the crosspoint vectors, the arbiters' state and the waiting winners are
//! compared, and the RTL crosspoints are checked against the invariants of
//! `docs/protocol.md` §8 on their own. Names: `docs/protocol.md` §11 ([`super::names`]).

use super::checks::Sim;
use super::names::model_options;
use super::table::TableSwitch;
use crate::bridge::{build_model, BridgeError, CacheOutcome, Design, Optimize};
use crate::harness::{Mismatch, RunInfo};
use lcanet_hdl::lca::{emit_switch, SwitchGenError};
use lcanet_sim::lcan::cycle::{ProtocolError, SwitchParams, SwitchTopology};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What to simulate.
#[derive(Debug, Clone)]
pub struct CosimConfig {
    /// The switch.
    pub params: SwitchParams,
    /// Its level (`< params.levels`).
    pub level: u8,
    /// Arbiter salts (random policy).
    pub salt_up: u16,
    /// See `salt_up`.
    pub salt_dn: u16,
    /// Seed of the traffic and of `seed16`.
    pub seed: u64,
    /// Bit-times to run.
    pub bit_times: u64,
    /// Write a VCD here (the model is then built with tracing).
    pub vcd: Option<PathBuf>,
    /// Without `vcd`: a failing run is repeated on a traced build that writes a VCD here
    /// (runs are deterministic), so a passing run needs no traced build.
    pub failure_vcd: Option<PathBuf>,
    /// How hard the C++ compiler optimizes the Verilated model.
    pub optimize: Optimize,
    /// A Π switch (`params.topology` is `pi<n>`): its route table, which drives the
    /// `tab_dn`/`tab_up` inputs and the golden model, and the traffic's parameters.
    pub table: Option<TableSwitch>,
}

/// Why the co-simulation could not run (as opposed to: it ran and found a difference).
#[derive(Debug, thiserror::Error)]
pub enum CosimError {
    /// Generating the Verilog failed.
    #[error(transparent)]
    Gen(#[from] SwitchGenError),
    /// Writing the Verilog failed.
    #[error("writing the switch's Verilog: {0}")]
    Write(String),
    /// Building or driving the Verilated model failed.
    #[error(transparent)]
    Bridge(#[from] BridgeError),
    /// A Π switch without its table, or a table for a tree/cb switch.
    #[error("a {topology} switch {what}")]
    Table {
        /// The topology kind.
        topology: String,
        /// What is wrong.
        what: &'static str,
    },
    /// The traffic generator broke the protocol (a bug in lcanet).
    #[error("bug: the legal-traffic generator broke the protocol at bit-time {bit_time}: {error}")]
    Protocol {
        /// Bit-time.
        bit_time: u64,
        /// The model's complaint.
        error: ProtocolError,
    },
}

/// An invariant of `docs/protocol.md` §8 (or "granted and rejected") broken by the RTL.
#[derive(Debug, Clone)]
pub struct InvariantViolation {
    /// Bit-time.
    pub bit_time: u64,
    /// What was wrong, naming the signals.
    pub what: String,
    /// Seed of the run.
    pub seed: u64,
    /// The VCD, if one was written.
    pub vcd: Option<PathBuf>,
}

/// How the run ended.
#[derive(Debug)]
pub enum Verdict {
    /// RTL and model agreed at every bit-time.
    Match,
    /// The first difference.
    Mismatch(Box<Mismatch>),
    /// The RTL broke an invariant.
    Invariant(InvariantViolation),
}

/// The result of a run.
#[derive(Debug)]
pub struct CosimReport {
    /// Top module name.
    pub top: String,
    /// Match or the first failure.
    pub verdict: Verdict,
    /// Bit-times simulated.
    pub bit_times: u64,
    /// Values compared.
    pub compared_values: u64,
    /// Commits, grants and rejections seen (to show the traffic exercised the arbiters).
    pub commits: u64,
    /// See `commits`.
    pub grants: u64,
    /// See `commits`.
    pub rejections: u64,
    /// Whether the Verilated model came from the cache.
    pub build: CacheOutcome,
    /// Build (or cache lookup) time.
    pub build_seconds: f64,
    /// Simulation time.
    pub run_seconds: f64,
}

impl CosimReport {
    /// Whether RTL and model agreed and no invariant broke.
    pub fn matched(&self) -> bool {
        matches!(self.verdict, Verdict::Match)
    }
}

/// Emits the switch into `rtl_dir`, builds it, and co-simulates `cfg.bit_times` bit-times;
/// a failing run without `cfg.vcd` is repeated with a VCD at `cfg.failure_vcd`, if given.
pub fn run_switch_cosim(cfg: &CosimConfig, rtl_dir: &Path) -> Result<CosimReport, CosimError> {
    retrace_failure(
        cfg.vcd.as_deref(),
        cfg.failure_vcd.as_deref(),
        |vcd| {
            let cfg = CosimConfig {
                vcd: vcd.map(Path::to_path_buf),
                ..cfg.clone()
            };
            run_once(&cfg, rtl_dir)
        },
        CosimReport::matched,
    )
}

/// Runs `run` with `vcd`; if that fails (`matched` says no) and no VCD was asked for,
/// runs it again with `failure_vcd` when one is given, and returns the second report.
fn retrace_failure<R, E>(
    vcd: Option<&Path>,
    failure_vcd: Option<&Path>,
    run: impl Fn(Option<&Path>) -> Result<R, E>,
    matched: impl Fn(&R) -> bool,
) -> Result<R, E> {
    let report = run(vcd)?;
    match (matched(&report), vcd, failure_vcd) {
        (false, None, Some(f)) => run(Some(f)),
        _ => Ok(report),
    }
}

fn run_once(cfg: &CosimConfig, rtl_dir: &Path) -> Result<CosimReport, CosimError> {
    let is_pi = matches!(cfg.params.topology, SwitchTopology::Table { .. });
    if is_pi != cfg.table.is_some() {
        return Err(CosimError::Table {
            topology: cfg.params.topology.to_string(),
            what: if is_pi {
                "needs its route table"
            } else {
                "has no route table"
            },
        });
    }
    let emitted = emit_switch(cfg.params)?;
    emitted
        .write_to(rtl_dir)
        .map_err(|e| CosimError::Write(e.to_string()))?;
    let top = emitted.top.clone();
    let design = Design::from_file_list(&rtl_dir.join(&emitted.file_list.name), top.clone())?;
    let t0 = Instant::now();
    let (model, info) = build_model(
        &design,
        &model_options(cfg.params.policy, cfg.optimize, cfg.vcd.is_some()),
        cfg.vcd.as_deref(),
    )?;
    let build_seconds = t0.elapsed().as_secs_f64();
    let p = cfg.params;
    let run = RunInfo::new(Some(cfg.seed))
        .param("d", p.d)
        .param("u", p.u)
        .param("width", p.width)
        .param("levels", p.levels)
        .param("topology", p.topology)
        .param("arbiter", p.policy)
        .param("level", cfg.level);
    let mut sim = Sim::new(cfg, model, run, &top)?;
    let t1 = Instant::now();
    let verdict = sim.run(cfg)?;
    let stats = sim.h.stats();
    Ok(CosimReport {
        top,
        verdict,
        bit_times: stats.bit_times,
        compared_values: stats.compared_values,
        commits: sim.commits,
        grants: sim.grants,
        rejections: sim.rejections,
        build: info.outcome,
        build_seconds,
        run_seconds: t1.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::retrace_failure;
    use std::cell::RefCell;
    use std::path::{Path, PathBuf};

    /// The runs `retrace_failure` makes (the VCD each was given) and what it returns, for
    /// a run that passes or fails.
    fn runs(
        pass: bool,
        vcd: Option<&Path>,
        failure_vcd: Option<&Path>,
    ) -> (Vec<Option<PathBuf>>, Option<PathBuf>) {
        let calls = RefCell::new(Vec::new());
        let last = retrace_failure(
            vcd,
            failure_vcd,
            |v| {
                calls.borrow_mut().push(v.map(Path::to_path_buf));
                Ok::<_, ()>((pass, v.map(Path::to_path_buf)))
            },
            |r| r.0,
        )
        .unwrap();
        (calls.into_inner(), last.1)
    }

    #[test]
    fn a_failing_untraced_run_is_repeated_with_the_failure_vcd_and_nothing_else_is() {
        let f = Path::new("/w/failure.vcd");
        let v = Path::new("/w/wave.vcd");
        // Failing, no VCD asked for: once untraced, then again with the failure VCD.
        let (calls, last) = runs(false, None, Some(f));
        assert_eq!(calls, vec![None, Some(f.to_path_buf())]);
        assert_eq!(last, Some(f.to_path_buf()));
        // Passing: one untraced run.
        assert_eq!(runs(true, None, Some(f)).0, vec![None]);
        // A VCD asked for: one run with it, pass or fail.
        assert_eq!(runs(false, Some(v), Some(f)).0, vec![Some(v.to_path_buf())]);
        // No failure VCD: one run.
        assert_eq!(runs(false, None, None).0, vec![None]);
    }
}
