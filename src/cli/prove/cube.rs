//! `lcanet prove cube`: the hypercube node router of the default (overlapped) router,
//! `hc_node_k{K}_l{L}`, proved with the cube's own controller (`docs/formal.md`, "The
//! hypercube node"): P1 transit, P2 collision, P3 one frame end to end. [`job`] is shared
//! with `prove matrix`.
//!
//! The test-only faults are edits of the emitted node's text (no generator option: the
//! node's generator is not touched); each names the line it changes, and a fault whose
//! line is no longer in the emitted node is an error, not a silent no-op.

use super::run::{check_power_up_zero, prove, with_workdir, Job};
use super::{own_properties, plan, print_result, verdict, ProofArgs};
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::formal::cube::{exposed, harness, semi_len};
use lcanet_hdl::formal::{Block, Property, ScriptFiles};
use lcanet_hdl::hypercube::cube::cube_design;
use lcanet_hdl::hypercube::{ctrl_name, node_name};
use lcanet_sim::hypercube::overlap::loop_timing;
use std::path::{Path, PathBuf};

/// A deliberate defect to build into the node (tests of the proof itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FaultArg {
    /// A bit arriving on a link never enters the pipeline (`arrive` without `link_in`): P1
    /// fails.
    LinkLost,
    /// The collision flag follows this bit time's meeting instead of staying set: P2 fails.
    CollisionNotSticky,
    /// A stage in HEAD always goes on to PASS-STAY: a frame's start bit crosses, the rest
    /// of it stays (a frame torn in two): P3 fails.
    HeadNeverCrosses,
}

impl FaultArg {
    /// The text the fault replaces in the emitted node, and its replacement.
    fn edit(self) -> (&'static str, &'static str) {
        match self {
            FaultArg::LinkLost => (
                " arrive = (stay & act) | link_in;",
                " arrive = (stay & act);",
            ),
            FaultArg::CollisionNotSticky => ("coll <= coll | meet;", "coll <= meet;"),
            FaultArg::HeadNeverCrosses => (
                "(~stage_pass & stage_in)",
                "(~stage_pass & ~stage_dir & stage_in)",
            ),
        }
    }
}

/// Arguments of `lcanet prove cube`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Cube dimension k (the node has k links; 1..=12).
    #[arg(long)]
    pub k: usize,
    /// Payload bits per message L (1..=64).
    #[arg(long, default_value_t = 8)]
    pub payload_bits: usize,
    #[command(flatten)]
    pub proof: ProofArgs,
    /// Keep the node, the controller, the harness, the Yosys scripts, logs and
    /// counterexamples here.
    #[arg(long)]
    pub keep: Option<PathBuf>,
    /// Test only: build this defect into the node (the proof must then fail).
    #[arg(long, value_enum)]
    pub fault: Option<FaultArg>,
}

/// Writes the k-cube's node, controller and tap (as `generate hypercube`
/// writes them; the node with `fault`) and the harness into `dir`, and returns the job.
pub fn job(k: usize, l: usize, fault: Option<FaultArg>, dir: &Path) -> anyhow::Result<Job> {
    let (design, p) = cube_design(k, l).map_err(|e| {
        anyhow::anyhow!("--k {k} --payload-bits {l}: {e} (the cube needs 1 ≤ k ≤ 12, 1 ≤ L ≤ 64)")
    })?;
    let emitted = design.emit().context("emitting the cube")?;
    emitted
        .write_to(dir)
        .with_context(|| format!("writing the cube into {}", dir.display()))?;
    let (node, ctrl) = (node_name(p), ctrl_name(p));
    let tap = format!("{ctrl}_tap");
    let module = |name: &str| {
        design
            .module(name)
            .with_context(|| format!("the cube has no module {name}"))
    };
    let tap_module = design.module(&tap);
    // A faulty node is the emitted one edited, under its own name (`<node>_fault`).
    let mut node_module = module(&node)?.clone();
    let node_file = match fault {
        None => format!("{node}.v"),
        Some(f) => {
            let path = dir.join(format!("{node}.v"));
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("reading {}", path.display()))?;
            let (from, to) = f.edit();
            let header = format!("module {node} (");
            if text.matches(from).count() != 1 || text.matches(&header).count() != 1 {
                bail!(
                    "--fault {f:?}: the emitted node does not contain `{from}` exactly once (the node's text changed; update the fault)"
                );
            }
            node_module.name = format!("{node}_fault");
            let text = text
                .replace(from, to)
                .replace(&header, &format!("module {} (", node_module.name));
            let file = format!("{}.v", node_module.name);
            std::fs::write(dir.join(&file), text)
                .with_context(|| format!("writing {}", dir.join(&file).display()))?;
            file
        }
    };
    let mut support = vec![format!("{ctrl}.v")];
    if tap_module.is_some() {
        support.push(format!("{tap}.v"));
    }
    for f in std::iter::once(&node_file).chain(&support) {
        check_power_up_zero(&dir.join(f))?;
    }
    let h = harness(p, &node_module, module(&ctrl)?, tap_module);
    std::fs::write(dir.join("hc_formal.sv"), &h.text)
        .with_context(|| format!("writing the harness into {}", dir.display()))?;
    // The witness: a semi run (load, 2k + L + 2), then a full run up to loop 0's rendezvous.
    let semi = semi_len(p) + 2;
    let loop0 = loop_timing(p, 0).len as usize;
    Ok(Job {
        block: Block::Cube,
        files: ScriptFiles {
            block_files: vec![node_file],
            block_top: node_module.name.clone(),
            exposed: exposed(p).into_iter().map(|(n, _)| n).collect(),
            support_files: support,
            harness_file: "hc_formal.sv".into(),
            harness_top: h.top,
            vcd: String::new(),
        },
        witness_depth: semi + loop0 + 4,
        // A whole first loop of Algorithm 2 and a whole semi run after it, from power-up.
        bmc_depth: 2 * semi + loop0 + 4,
        // P3's induction needs the frame's position in the pipeline as an invariant,
        // which the harness does not state: it is proved to the search depth.
        bounded: vec![Property::P3],
    })
}

/// Runs `lcanet prove cube`.
pub fn run(a: Args) -> anyhow::Result<Outcome> {
    let plan = plan(&a.proof)?;
    own_properties(&plan, Block::Cube)?;
    let results = with_workdir(a.keep.as_deref(), |dir, final_dir| {
        let job = job(a.k, a.payload_bits, a.fault, dir)?;
        prove(&job, &plan, dir, final_dir, &mut |r| {
            print_result(r, plan.json)
        })
    })?;
    Ok(verdict(&results))
}
