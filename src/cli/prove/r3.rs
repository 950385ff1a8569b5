//! `lcanet prove r3`: the R3 switch (`docs/protocol.md` §12), proved P1–P5 of its own
//! protocol (`docs/formal.md`). [`job`] is shared with `prove matrix`.

use super::run::{check_power_up_zero, prove, with_workdir, Job};
use super::{own_properties, plan, print_result, verdict, ProofArgs};
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::formal::r3::{exposed, harness};
use lcanet_hdl::formal::{Block, ScriptFiles};
use lcanet_hdl::lca::r3::{faulty_r3_switch, r3_switch_f, R3Fault};
use lcanet_hdl::netlist::{elaborate, Design};
use lcanet_sim::lcan::cycle::src_mode::route_field_bits;
use std::path::{Path, PathBuf};

/// A deliberate defect to build into the R3 switch (tests of the proof itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FaultArg {
    /// A request is granted into a driven output: P1 fails.
    DrivenOutputFree,
    /// An input that forwards parses a V in its stream: P2 fails.
    DrivingInputParses,
    /// An SRC commit opens the crosspoints: P3 fails.
    CommitOpens,
    /// A granted output starts without its fresh V: P4 fails.
    NoFreshHeader,
    /// The highest input wins a tie: P5 fails.
    HighestWins,
}

impl From<FaultArg> for R3Fault {
    fn from(f: FaultArg) -> Self {
        match f {
            FaultArg::DrivenOutputFree => R3Fault::DrivenOutputFree,
            FaultArg::DrivingInputParses => R3Fault::DrivingInputParses,
            FaultArg::CommitOpens => R3Fault::CommitOpens,
            FaultArg::NoFreshHeader => R3Fault::NoFreshHeader,
            FaultArg::HighestWins => R3Fault::HighestWins,
        }
    }
}

/// Arguments of `lcanet prove r3`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Downers.
    #[arg(long)]
    pub d: usize,
    /// Uppers.
    #[arg(long)]
    pub u: usize,
    /// Link width in bits per bit-time.
    #[arg(long, alias = "width", default_value_t = 1)]
    pub w: usize,
    #[command(flatten)]
    pub proof: ProofArgs,
    /// Keep the switch, the harness, the Yosys scripts, logs and counterexamples here.
    #[arg(long)]
    pub keep: Option<PathBuf>,
    /// Test only: build this defect into the switch (the proof must then fail).
    #[arg(long, value_enum)]
    pub fault: Option<FaultArg>,
}

/// Writes the R3 switch (`d`, `u`, `W`, fields of its own width; with `fault`) and its
/// harness into `dir`, and returns the job that proves them.
pub fn job(
    d: usize,
    u: usize,
    w: usize,
    fault: Option<R3Fault>,
    dir: &Path,
) -> anyhow::Result<Job> {
    if !(2..=16).contains(&d) || !(1..=16).contains(&u) || !(1..=16).contains(&w) {
        bail!("d = {d}, u = {u}, W = {w}: the R3 switch needs 2 ≤ d ≤ 16, 1 ≤ u ≤ 16, 1 ≤ W ≤ 16");
    }
    let f = route_field_bits(d, u);
    let module = match fault {
        Some(x) => elaborate("the R3 switch", || faulty_r3_switch(d, u, w, f, x))?,
        None => elaborate("the R3 switch", || r3_switch_f(d, u, w, f))?,
    };
    let top = module.name.clone();
    let mut design = Design::new(top.clone());
    design.add_module(module)?;
    let emitted = design.emit().context("emitting the R3 switch")?;
    emitted
        .write_to(dir)
        .with_context(|| format!("writing the switch into {}", dir.display()))?;
    let file = format!("{top}.v");
    check_power_up_zero(&dir.join(&file))?;
    let h = harness(d, u, w, f, &top);
    std::fs::write(dir.join("r3_formal.sv"), &h.text)
        .with_context(|| format!("writing the harness into {}", dir.display()))?;
    let nf = f.div_ceil(w);
    Ok(Job {
        block: Block::R3,
        files: ScriptFiles {
            block_files: vec![file],
            block_top: top,
            exposed: exposed(d, u, w, f).into_iter().map(|(n, _)| n).collect(),
            support_files: Vec::new(),
            harness_file: "r3_formal.sv".into(),
            harness_top: h.top,
            vcd: String::new(),
        },
        // One SRC step closes A->C, A->D and B->C (V, a field, the grant), a PASS after it.
        witness_depth: nf + 8,
        bmc_depth: 4 * (nf + 2) + 4,
        bounded: Vec::new(),
    })
}

/// Runs `lcanet prove r3`.
pub fn run(a: Args) -> anyhow::Result<Outcome> {
    let plan = plan(&a.proof)?;
    own_properties(&plan, Block::R3)?;
    let results = with_workdir(a.keep.as_deref(), |dir, final_dir| {
        let job = job(a.d, a.u, a.w, a.fault.map(R3Fault::from), dir)?;
        prove(&job, &plan, dir, final_dir, &mut |r| {
            print_result(r, plan.json)
        })
    })?;
    Ok(verdict(&results))
}
