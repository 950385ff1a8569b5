//! `lcanet generate switch`: one LCA switch as Verilog-2005 files, a GTKWave save file
//! (with its translate filter) and a JSON summary.

use crate::cli::common::{print_json, write_atomic, Staged};
use crate::cli::fusesoc::core::{Core, CoreArgs};
use crate::cli::Outcome;
use anyhow::Context;
use lcanet_hdl::gtkw::View;
use lcanet_hdl::lca::gtkw::switch_gtkw;
use lcanet_hdl::lca::switch_design;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SetupMode, SwitchParams, SwitchTopology};
use serde::Serialize;
use std::path::PathBuf;

/// Arbiter policy on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum PolicyArg {
    /// Fixed priority: requester 0 and wire 0 first.
    Fixed,
    /// Round-robin pointers.
    RoundRobin,
    /// Pointers from a 16-bit LFSR.
    Random,
}

impl From<PolicyArg> for ArbiterPolicy {
    fn from(p: PolicyArg) -> Self {
        match p {
            PolicyArg::Fixed => ArbiterPolicy::Fixed,
            PolicyArg::RoundRobin => ArbiterPolicy::RoundRobin,
            PolicyArg::Random => ArbiterPolicy::Random,
        }
    }
}

/// Topology kind on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum TopologyArg {
    /// T-LCAN: a (d/u)-ary tree of u-link edges.
    Tree,
    /// CB-LCAN: complete bipartite level interconnect.
    Cb,
}

impl From<TopologyArg> for SwitchTopology {
    fn from(t: TopologyArg) -> Self {
        match t {
            TopologyArg::Tree => SwitchTopology::Tree,
            TopologyArg::Cb => SwitchTopology::Cb,
        }
    }
}

/// The switch parameters shared by `generate switch` and `sim switch`.
#[derive(Debug, Clone, clap::Args)]
pub struct SwitchArgs {
    /// Downers (links to the level below).
    #[arg(long)]
    pub d: usize,
    /// Uppers (links to the level above).
    #[arg(long)]
    pub u: usize,
    /// Link width in bits per bit-time.
    #[arg(long, default_value_t = 1)]
    pub width: usize,
    /// Contention arbiter policy.
    #[arg(long, value_enum, default_value = "round-robin")]
    pub arbiter: PolicyArg,
    /// Topology the switch is built for (decides how addresses select downers).
    #[arg(long, value_enum, default_value = "tree")]
    pub topology: TopologyArg,
    /// Levels of the network the switch serves (sets the address and level fields).
    #[arg(long, default_value_t = 3)]
    pub levels: usize,
    /// Set-up arbitration: one request per bit-time (`sequential`), or every contender of
    /// a switch in its commit bit-time (`fast`: same grants, shorter steps;
    /// docs/protocol.md §13).
    #[arg(long, value_enum, default_value = "sequential")]
    pub setup: SetupArg,
    /// With `--setup fast`: decide at most this many requests per arbiter and bit-time, the
    /// last ones in the commit bit-time (`K = ⌈slots/M⌉ − 1`; default: all, `K = 0`).
    #[arg(long, value_name = "M")]
    pub decisions: Option<usize>,
}

/// The set-up mode of `--setup` and `--decisions` (the error names the violated condition).
pub fn setup_mode(setup: SetupArg, decisions: Option<usize>) -> anyhow::Result<SetupMode> {
    Ok(match (setup, decisions) {
        (SetupArg::Sequential, None) => SetupMode::Sequential,
        (SetupArg::Sequential, Some(_)) => {
            anyhow::bail!("--decisions needs --setup fast (the sequential set-up decides one request per bit-time)")
        }
        (SetupArg::Fast, None) => SetupMode::Fast,
        (SetupArg::Fast, Some(m)) => SetupMode::Chunked(m),
    })
}

/// Set-up arbitration on the command line (`docs/protocol.md` §13).
#[derive(Debug, Clone, Copy, Default, clap::ValueEnum)]
pub enum SetupArg {
    /// One request per bit-time: `T = n(P) + K + 1`.
    #[default]
    Sequential,
    /// Every request of a step decided in the commit bit-time: `T = n(P) + 1`.
    Fast,
}

impl From<SetupArg> for SetupMode {
    fn from(s: SetupArg) -> Self {
        match s {
            SetupArg::Sequential => SetupMode::Sequential,
            SetupArg::Fast => SetupMode::Fast,
        }
    }
}

impl SwitchArgs {
    /// Validated parameters (the error names the violated condition).
    pub fn params(&self) -> anyhow::Result<SwitchParams> {
        Ok(SwitchParams::new(
            self.d,
            self.u,
            self.width,
            self.levels,
            self.topology.into(),
            self.arbiter.into(),
        )?
        .with_setup(setup_mode(self.setup, self.decisions)?)?)
    }
}

/// Arguments of `lcanet generate switch`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    switch: SwitchArgs,
    /// Output directory (created if missing).
    #[arg(short = 'o', long = "out")]
    out: PathBuf,
    #[command(flatten)]
    core: CoreArgs,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// What `generate switch` wrote.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// Top module.
    pub top: String,
    /// Output directory.
    pub dir: PathBuf,
    /// Files written (module files, file list, GTKWave files, this summary).
    pub files: Vec<String>,
    /// The GTKWave save file (its translate filter is beside it).
    pub gtkw: String,
    /// The FuseSoC core file (docs/fusesoc.md).
    pub core: String,
    /// Its name (VLNV).
    pub core_name: String,
    /// The parameters.
    pub params: SwitchParams,
    /// Field widths, packet sizes and step lengths in bit-times (`docs/protocol.md`).
    pub format: lcanet_sim::lcan::cycle::PacketFormat,
    /// Ports of the top module: name and width.
    pub ports: Vec<(String, usize)>,
}

/// Runs `lcanet generate switch`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let params = args.switch.params()?;
    let design = switch_design(params).context("generating the switch")?;
    let emitted = design.emit().context("emitting the switch")?;
    let top = design
        .module(&emitted.top)
        .context("bug: the switch design has no top module")?;
    let ports = top
        .ports
        .iter()
        .map(|p| (p.name.clone(), p.width))
        .collect();
    let gtkw_files = switch_gtkw(top)?;
    // Everything is built in memory first, then written into a staging directory that
    // becomes the output only once every file is in it.
    let staged = Staged::new(&args.out)?;
    let written = emitted
        .write_to(staged.path())
        .context("writing the Verilog files")?;
    // No run yet: the save file opens on the first LONG_RUN bit-times.
    let gtkw_path = gtkw_files
        .clone()
        .viewing(View::run(u64::MAX, None))
        .write_to(staged.path(), &emitted.top, None)
        .with_context(|| format!("writing the GTKWave files into {}", args.out.display()))?;
    let gtkw = gtkw_path
        .file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    let summary_name = format!("{}.json", emitted.top);
    let core_name = args.core.vlnv("switch", &emitted.top)?;
    let core = Core::design(
        core_name.clone(),
        format!(
            "LCA switch, d = {}, u = {}, W = {} (lcanet generate switch)",
            params.d, params.u, params.width
        ),
        &emitted,
    )
    .write_into(staged.path())?;
    let mut files: Vec<String> = written
        .iter()
        .filter_map(|p| p.file_name().map(|f| f.to_string_lossy().into_owned()))
        .collect();
    files.push(emitted.file_list.name.clone());
    files.push(gtkw.clone());
    files.extend(gtkw_files.filters.iter().map(|f| f.file.clone()));
    files.push(core.clone());
    files.push(summary_name.clone());
    let summary = Summary {
        top: emitted.top.clone(),
        dir: args.out.clone(),
        files,
        gtkw,
        core,
        core_name,
        params,
        format: params.format(),
        ports,
    };
    let text = serde_json::to_string_pretty(&summary).context("serializing the summary")?;
    write_atomic(&staged.path().join(&summary_name), text.as_bytes())?;
    staged.commit()?;
    if args.json {
        print_json(&summary)?;
    } else {
        let f = &summary.format;
        println!(
            "wrote {} files to {} (top module {})",
            summary.files.len(),
            args.out.display(),
            summary.top
        );
        println!(
            "packets: P1 {} bits, P2 {}, probe {}; steps: UP {} bit-times, DOWN {}, PROBE {}",
            f.p1, f.p2, f.pr, f.t_up, f.t_down, f.t_probe
        );
        println!(
            "waveforms: gtkwave <run.vcd> {}",
            args.out.join(&summary.gtkw).display()
        );
        println!(
            "FuseSoC core {} ({}): targets default, lint",
            args.out.join(&summary.core).display(),
            summary.core_name
        );
    }
    Ok(Outcome::Success)
}
