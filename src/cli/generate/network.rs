//! `lcanet generate network`: a whole LCA network (switch fabric, PE interface units,
//! controller) as Verilog-2005, a GTKWave save file and a JSON summary.

use crate::cli::common::{print_json, write_atomic, Staged};
use crate::cli::fusesoc::core::{Core, CoreArgs};
use crate::cli::generate::switch::PolicyArg;
use crate::cli::generate::switch::{setup_mode, SetupArg};
use crate::cli::topology_args::{describe, TopologyArgs};
use crate::cli::Outcome;
use anyhow::Context;
use lcanet_hdl::gtkw::View;
use lcanet_hdl::lca_net::{network_artifacts, NetSpec, Structure};
use lcanet_sim::lcan::cycle::network::params::NetParams;
use lcanet_sim::lcan::routing::Algorithm;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Routing algorithm on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum AlgorithmArg {
    /// LCA-priority three-phase routing (003 §3.2).
    R1,
    /// Randomized bi-directional circuit routing (002 §3).
    R2,
    /// Global knowledge: the off-line R3 schedule loaded at start, source-routed set-up
    /// with no arbitration (docs/interface.md §11).
    R3,
}

impl From<AlgorithmArg> for Algorithm {
    fn from(a: AlgorithmArg) -> Self {
        match a {
            AlgorithmArg::R1 => Algorithm::R1,
            AlgorithmArg::R2 => Algorithm::R2,
            AlgorithmArg::R3 => Algorithm::R3,
        }
    }
}

/// The network parameters shared by `generate network` and `sim network`.
#[derive(Debug, Clone, clap::Args)]
pub struct NetArgs {
    #[command(flatten)]
    pub topology: TopologyArgs,
    /// Routing algorithm the hardware runs.
    #[arg(long, value_enum, default_value = "r1")]
    pub algorithm: AlgorithmArg,
    /// Contention arbiter policy of every switch (r1, r2; r3 has no arbiter and does not
    /// read it).
    #[arg(long, value_enum, default_value = "round-robin")]
    pub arbiter: PolicyArg,
    /// Link width W in bits per bit-time.
    #[arg(long, default_value_t = 1)]
    pub width: usize,
    /// Message bits M each PE sends.
    #[arg(long = "message-bits", default_value_t = 8)]
    pub message_bits: usize,
    /// How the switches are written: one instance per switch (`lvl<i>_sw<j>`, a scope per
    /// switch in GTKWave), or one module per level holding its switches as rows of a loop
    /// (`lvl<i>`; Verilator builds large networks in a fraction of the time and memory).
    /// `auto`: instances up to 256 switches, rows above.
    #[arg(long, value_enum, default_value = "auto")]
    pub structure: StructureArg,
    /// Set-up arbitration of every switch: `sequential` (one request per bit-time) or
    /// `fast` (every contender in the commit bit-time: same grants, shorter UP/DOWN/PROBE
    /// steps; docs/protocol.md §13).
    #[arg(long, value_enum, default_value = "sequential")]
    pub setup: SetupArg,
    /// With `--setup fast`: decide at most this many requests per arbiter and bit-time, the
    /// last ones in the commit bit-time (`K = ⌈slots/M⌉ − 1`; default: all, `K = 0`).
    #[arg(long, value_name = "M")]
    pub decisions: Option<usize>,
}

/// `--structure` on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum StructureArg {
    /// Instances up to 256 switches, rows above.
    Auto,
    /// One instance per switch.
    Instances,
    /// One module per level, its switches as rows.
    Rows,
}

impl NetArgs {
    /// The validated network (the error names the violated condition).
    pub fn spec(&self) -> anyhow::Result<NetSpec> {
        let topo = self.topology.build()?;
        let spec = NetSpec::new(
            topo,
            self.algorithm.into(),
            self.arbiter.into(),
            self.width,
            self.message_bits,
        )?
        .with_setup(setup_mode(self.setup, self.decisions)?)?;
        Ok(match self.structure {
            StructureArg::Auto => spec,
            StructureArg::Instances => spec.with_structure(Structure::Instances),
            StructureArg::Rows => spec.with_structure(Structure::Rows),
        })
    }
}

/// Arguments of `lcanet generate network`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    net: NetArgs,
    /// Output directory (created if missing).
    #[arg(short = 'o', long = "out")]
    out: PathBuf,
    #[command(flatten)]
    core: CoreArgs,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// What `generate network` wrote.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// Top module.
    pub top: String,
    /// The network in words.
    pub network: String,
    /// Output directory.
    pub dir: PathBuf,
    /// Files written.
    pub files: Vec<String>,
    /// The GTKWave save file (its translate filter files are beside it).
    pub gtkw: String,
    /// The FuseSoC core file (docs/fusesoc.md).
    pub core: String,
    /// Its name (VLNV).
    pub core_name: String,
    /// The parameters (with packet format and derived lengths).
    pub params: NetParams,
    /// Switches per level (level 0 first) and in all.
    pub switches_per_level: Vec<usize>,
    /// See `switches_per_level`.
    pub switches: usize,
    /// How the switches are written: `instances` or `rows`.
    pub structure: &'static str,
    /// Module definitions emitted (one per distinct block).
    pub module_definitions: usize,
    /// Bytes of all Verilog files.
    pub verilog_bytes: usize,
    /// Bytes of the top module's file.
    pub top_bytes: usize,
    /// `top_bytes / switches`: what one more switch costs in text (the top also holds the
    /// PE interfaces and the controller).
    pub bytes_per_switch: f64,
    /// Generation time (build, validate, emit), seconds.
    pub generate_seconds: f64,
    /// Ports of the top module: name and width.
    pub ports: Vec<(String, usize)>,
}

/// Runs `lcanet generate network`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let spec = args.net.spec()?;
    let t0 = Instant::now();
    let art = network_artifacts(&spec).context("generating the network")?;
    let generate_seconds = t0.elapsed().as_secs_f64();
    let emitted = &art.emitted;
    // Everything is built in memory first, then written into a staging directory that
    // becomes the output only once every file is in it.
    let staged = Staged::new(&args.out)?;
    let written = emitted
        .write_to(staged.path())
        .context("writing the Verilog files")?;
    // No run yet: the save file opens on the longest first pass (at the top level).
    let top_level = spec.topo.levels().saturating_sub(1);
    let first_pass = spec.net.total_bit_times(&[top_level]) as u64;
    let gtkw_path = art
        .gtkw
        .clone()
        .viewing(View::run(u64::MAX, Some(first_pass)))
        .write_to(staged.path(), &emitted.top, None)
        .with_context(|| format!("writing the GTKWave files into {}", args.out.display()))?;
    let gtkw = gtkw_path
        .file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    let summary_name = format!("{}.json", emitted.top);
    let network = describe(&spec.topo);
    let core_name = args.core.vlnv("net", &emitted.top)?;
    let core = Core::design(
        core_name.clone(),
        format!("{network} (lcanet generate network)"),
        emitted,
    )
    .write_into(staged.path())?;
    let mut files: Vec<String> = written
        .iter()
        .filter_map(|p| p.file_name().map(|f| f.to_string_lossy().into_owned()))
        .collect();
    files.push(emitted.file_list.name.clone());
    files.push(gtkw.clone());
    files.extend(art.gtkw.filters.iter().map(|f| f.file.clone()));
    files.push(core.clone());
    files.push(summary_name.clone());
    let top_bytes = emitted.modules.last().map_or(0, |m| m.contents.len());
    let switches = spec.topo.total_switches();
    let summary = Summary {
        top: emitted.top.clone(),
        network,
        dir: args.out.clone(),
        files,
        gtkw,
        core,
        core_name,
        params: spec.net.clone(),
        switches_per_level: spec.topo.switches_per_level().to_vec(),
        switches,
        structure: spec.structure.name(),
        module_definitions: emitted.modules.len(),
        verilog_bytes: emitted.module_bytes(),
        top_bytes,
        bytes_per_switch: top_bytes as f64 / switches as f64,
        generate_seconds,
        ports: art.ports.clone(),
    };
    let text = serde_json::to_string_pretty(&summary).context("serializing the summary")?;
    write_atomic(&staged.path().join(&summary_name), text.as_bytes())?;
    staged.commit()?;
    if args.json {
        print_json(&summary)?;
    } else {
        println!(
            "{}: wrote {} files to {} (top module {})",
            summary.network,
            summary.files.len(),
            args.out.display(),
            summary.top
        );
        println!(
            "{} switches as {} in {} module definitions, {} bytes of Verilog ({:.0} bytes per switch), generated in {:.2} s",
            summary.switches,
            summary.structure,
            summary.module_definitions,
            summary.verilog_bytes,
            summary.bytes_per_switch,
            summary.generate_seconds
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
