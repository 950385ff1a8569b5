//! `lcanet prove switch`: one LCA switch of R1/R2 — tree, cb, or a switch of a Π file
//! (its ROM's contents, or a symbolic ROM) — in any set-up (`--setup fast`, `--decisions
//! M`) and level count, proved P1–P6 (`docs/formal.md`). [`job`] writes what a proof of
//! one switch needs and is shared with `prove matrix`.

use super::run::{check_power_up_zero, prove, with_workdir, Job, Plan};
use super::{own_properties, plan, print_result, verdict, ProofArgs};
use crate::cli::generate::switch::{setup_mode, PolicyArg, SetupArg};
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::formal::switch::{exposed, harness, Rom};
use lcanet_hdl::formal::{Block, ScriptFiles};
use lcanet_hdl::lca::{faulty_switch_design, switch_design, Layout, TestFault};
use lcanet_hdl::lca_net::tables::PiTables;
use lcanet_sim::lcan::cycle::network::NetParams;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams, SwitchTopology};
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::Topology;
use std::path::{Path, PathBuf};

/// Topology the switch is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TopologyArg {
    /// T-LCAN: a (d/u)-ary tree of u-link edges.
    Tree,
    /// CB-LCAN: complete bipartite level interconnect.
    Cb,
    /// A switch of the Π file given with --pi (table-routed; --rom picks its table).
    Pi,
}

/// A deliberate defect to build into the switch (tests of the proof itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FaultArg {
    /// The DOWN arbiter treats a down-wire driven by an earlier step as free: P1 fails.
    DrivenOutputFree,
    /// A turning probe's commit also closes its up-wire onto D(0): P2 fails.
    TurnAlsoUp,
    /// A REV bit-time opens every crosspoint: P3 fails.
    RevOpens,
    /// The UP commit drops the last bit of a packet: P4 fails.
    UpDropsLastBit,
    /// The DOWN arbiter ignores the claims' source addresses in their keys: P5 fails.
    KeyIgnoresSource,
    /// ctl_clear keeps the waiting winners: P6 fails.
    ClearKeepsWinners,
}

impl From<FaultArg> for TestFault {
    fn from(f: FaultArg) -> Self {
        match f {
            FaultArg::DrivenOutputFree => TestFault::DrivenOutputFree,
            FaultArg::TurnAlsoUp => TestFault::TurnAlsoUp,
            FaultArg::RevOpens => TestFault::RevOpens,
            FaultArg::UpDropsLastBit => TestFault::UpDropsLastBit,
            FaultArg::KeyIgnoresSource => TestFault::KeyIgnoresSource,
            FaultArg::ClearKeepsWinners => TestFault::ClearKeepsWinners,
        }
    }
}

/// Arguments of `lcanet prove switch`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Downers (not with --pi: the file's).
    #[arg(long)]
    pub d: Option<usize>,
    /// Uppers (not with --pi: the file's).
    #[arg(long)]
    pub u: Option<usize>,
    /// Link width in bits per bit-time.
    #[arg(long, alias = "width", default_value_t = 1)]
    pub w: usize,
    /// Topology the switch is built for.
    #[arg(long, value_enum, default_value = "tree")]
    pub topology: TopologyArg,
    /// Levels of the network the switch serves (sets the address and level fields; not
    /// with --pi: the file's).
    #[arg(long)]
    pub levels: Option<usize>,
    /// With --topology pi: the Π file (docs/pi-file.md).
    #[arg(long, value_name = "FILE")]
    pub pi: Option<PathBuf>,
    /// With --pi: the route table proved with — `symbolic` (any table: the proof holds for
    /// every switch of every Π network of this shape), or `L.S`, the table of switch S of
    /// level L of the file's network.
    #[arg(long, default_value = "symbolic")]
    pub rom: String,
    /// With --pi and --rom symbolic: the level whose switch shape is proved.
    #[arg(long, default_value_t = 0)]
    pub level: usize,
    /// Contention arbiter policy.
    #[arg(long, value_enum, default_value = "fixed")]
    pub policy: PolicyArg,
    /// Set-up arbitration (docs/protocol.md §13).
    #[arg(long, value_enum, default_value = "sequential")]
    pub setup: SetupArg,
    /// With --setup fast: at most M decisions per arbiter and bit-time.
    #[arg(long, value_name = "M")]
    pub decisions: Option<usize>,
    #[command(flatten)]
    pub proof: ProofArgs,
    /// Keep the switch, the harness, the Yosys scripts, logs and counterexamples here
    /// (written all or nothing). Without it they go to a temporary directory that is
    /// removed unless a property is not proved (its path is printed then).
    #[arg(long)]
    pub keep: Option<PathBuf>,
    /// Test only: build this defect into the switch (the proof must then fail).
    #[arg(long, value_enum)]
    pub fault: Option<FaultArg>,
}

/// A switch to prove: its parameters and, for Π, its table.
#[derive(Debug, Clone)]
pub struct Target {
    /// The validated parameters.
    pub params: SwitchParams,
    /// Π: the ROM.
    pub rom: Option<Rom>,
}

/// A Π file's network.
pub fn pi_topology(path: &Path) -> anyhow::Result<Topology> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--pi {}: cannot read it", path.display()))?;
    Topology::from_pi_text(&text).with_context(|| format!("--pi {}", path.display()))
}

/// The switch of level `level` of `topo` exactly as the network generator makes it (Π:
/// table-routed), with the ROM of switch `index` (`None`: symbolic).
pub fn pi_target(
    topo: &Topology,
    level: usize,
    index: Option<usize>,
    w: usize,
    policy: ArbiterPolicy,
) -> anyhow::Result<Target> {
    if level >= topo.levels() {
        bail!(
            "level {level}: the network has levels 0..{} only",
            topo.levels() - 1
        );
    }
    let net = NetParams::new(topo, Algorithm::R1, policy, w, 8)?;
    let params = *net.switch_at(level);
    if !matches!(params.topology, SwitchTopology::Table { .. }) {
        bail!("the network's switches are not table-routed");
    }
    let rom = match index {
        None => Rom::Symbolic,
        Some(s) => {
            if s >= topo.switch_count(level) {
                bail!(
                    "switch {level}.{s}: level {level} has switches 0..{} only",
                    topo.switch_count(level) - 1
                );
            }
            let g: usize = (0..level).map(|i| topo.switch_count(i)).sum::<usize>() + s;
            let t = &PiTables::new(topo).switches[g];
            Rom::Contents {
                down: t.down.clone(),
                up: t.up.clone(),
            }
        }
    };
    Ok(Target {
        params,
        rom: Some(rom),
    })
}

fn target(a: &Args) -> anyhow::Result<Target> {
    let policy = ArbiterPolicy::from(a.policy);
    let setup = setup_mode(a.setup, a.decisions)?;
    let t = match a.topology {
        TopologyArg::Pi => {
            let Some(path) = &a.pi else {
                bail!("--topology pi needs --pi FILE (format: docs/pi-file.md)");
            };
            for (flag, given) in [
                ("--d", a.d.is_some()),
                ("--u", a.u.is_some()),
                ("--levels", a.levels.is_some()),
            ] {
                if given {
                    bail!("{flag} is not for --topology pi: the switch's shape is the Π file's");
                }
            }
            let topo = pi_topology(path)?;
            let (level, index) = if a.rom == "symbolic" {
                (a.level, None)
            } else {
                let bad = || {
                    format!(
                        "--rom {}: not `symbolic` nor a switch L.S (level L, switch S)",
                        a.rom
                    )
                };
                let (l, s) = a.rom.split_once('.').with_context(bad)?;
                (
                    l.parse().ok().with_context(bad)?,
                    Some(s.parse().ok().with_context(bad)?),
                )
            };
            pi_target(&topo, level, index, a.w, policy)?
        }
        TopologyArg::Tree | TopologyArg::Cb => {
            if a.pi.is_some() {
                bail!("--pi is only for --topology pi");
            }
            let (Some(d), Some(u)) = (a.d, a.u) else {
                bail!("--d and --u are required (unless --topology pi)");
            };
            let topology = if a.topology == TopologyArg::Tree {
                SwitchTopology::Tree
            } else {
                SwitchTopology::Cb
            };
            Target {
                params: SwitchParams::new(d, u, a.w, a.levels.unwrap_or(3), topology, policy)?,
                rom: None,
            }
        }
    };
    Ok(Target {
        params: t.params.with_setup(setup)?,
        ..t
    })
}

/// Writes the switch (with `fault` if given) and its harness into `dir`, and returns the
/// job that proves them.
pub fn job(t: &Target, fault: Option<TestFault>, dir: &Path) -> anyhow::Result<Job> {
    let design = match fault {
        Some(f) => faulty_switch_design(t.params, f),
        None => switch_design(t.params),
    }
    .context("generating the switch")?;
    let emitted = design.emit().context("emitting the switch")?;
    emitted
        .write_to(dir)
        .with_context(|| format!("writing the switch into {}", dir.display()))?;
    let switch_file = format!("{}.v", emitted.top);
    check_power_up_zero(&dir.join(&switch_file))?;
    let lay = Layout::new(t.params);
    let h = harness(&lay, &emitted.top, t.rom.as_ref());
    let harness_file = "lca_formal.sv".to_string();
    std::fs::write(dir.join(&harness_file), &h.text)
        .with_context(|| format!("writing the harness into {}", dir.display()))?;
    let f = t.params.format();
    Ok(Job {
        block: Block::Switch,
        files: ScriptFiles {
            block_files: vec![switch_file],
            block_top: emitted.top.clone(),
            exposed: exposed(&lay).into_iter().map(|(n, _)| n).collect(),
            support_files: Vec::new(),
            harness_file,
            harness_top: h.top,
            vcd: String::new(),
        },
        // One PROBE step can close crosspoints of all three kinds and forward probes; a
        // PASS step after it carries data: the witness needs little more than T_PROBE.
        witness_depth: f.t_probe + 6,
        bmc_depth: 2 * f.t_up.max(f.t_down).max(f.t_probe) + 2,
        bounded: Vec::new(),
    })
}

/// Proves `plan`'s properties of one switch in a working directory (`keep`, or a
/// temporary one), printing each result.
pub fn prove_one(
    t: &Target,
    fault: Option<TestFault>,
    plan: &Plan,
    keep: Option<&Path>,
) -> anyhow::Result<Outcome> {
    own_properties(plan, Block::Switch)?;
    let results = with_workdir(keep, |dir, final_dir| {
        let job = job(t, fault, dir)?;
        prove(&job, plan, dir, final_dir, &mut |r| {
            print_result(r, plan.json)
        })
    })?;
    Ok(verdict(&results))
}

/// Runs `lcanet prove switch`.
pub fn run(a: Args) -> anyhow::Result<Outcome> {
    let plan = plan(&a.proof)?;
    let t = target(&a)?;
    prove_one(&t, a.fault.map(TestFault::from), &plan, a.keep.as_deref())
}
