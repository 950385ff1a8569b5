//! `lcanet generate hypercube`: the Verilog-2005 of a whole k-cube of pipelined
//! bit-serial routers with its controller (`docs/hypercube.md` §9), one file per module
//! plus `<top>.f`, and a GTKWave save file `<top>.gtkw` with its state filter; optionally
//! the node's iCE40 resources from Yosys. `--router` chooses the node router.

use crate::cli::common::{print_json, Staged};
use crate::cli::fusesoc::core::{Core, CoreArgs};
use anyhow::Context;
use lcanet_hdl::hypercube::cube::router_design;
use lcanet_hdl::hypercube::gtkw::router_gtkw;
use lcanet_hdl::hypercube::Router;
use lcanet_sim::hypercube::timing::{total_bit_times, Algorithm};
use lcanet_sim::hypercube::{qsort, quad};
use std::path::PathBuf;

/// The node routers, on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RouterArg {
    /// Algorithm 1 + Algorithm 2, overlapped schedule (the default; docs/hypercube.md §12).
    Overlapped,
    /// Algorithm 1 + Algorithm 2, the paper's sequential schedule (§5-§6).
    Sequential,
    /// Algorithm 1 + sort-then-pack: a pipelined bitonic sort, then an unpacking (§13).
    Sort,
    /// The quadratic cube: Algorithm 2 on pipelined batches, k loop units per node (§14).
    Quadratic,
    /// Sort-then-pack pipelined on the quadratic cube: a batch every M + 1 (§13.3).
    QuadraticSort,
}

impl From<RouterArg> for Router {
    fn from(r: RouterArg) -> Router {
        match r {
            RouterArg::Overlapped => Router::Overlapped,
            RouterArg::Sequential => Router::Sequential,
            RouterArg::Sort => Router::Sort,
            RouterArg::Quadratic => Router::Quadratic,
            RouterArg::QuadraticSort => Router::QuadSort,
        }
    }
}

/// Arguments of `lcanet generate hypercube`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Routers (--router), each a node module, a controller and the top, with the same ports
(docs/hypercube.md §9): the top's `algorithm` input picks Algorithm 1 (0) or the router's
permutation routing (1).
  overlapped  Algorithm 2, its activities overlapped, loop i walking dimensions i+1..k-1
              only: (M+1) + sum_{f=1}^{k-1} (max(2f, M-f) + 6f + 2M + 5) bit times
  sequential  Algorithm 2 as the paper schedules it: k(14k + 3L + 9) bit times
  sort        sort-then-pack: k passes of a pipelined bitonic sort, then one unpacking
              pass of Algorithm 1: k(M+3) + k(k-1)/2 + 2k + L + 2 bit times, buffer A only
  quadratic   the quadratic cube (§IV): k loop units per node, i+1 wires across
              dimension i; batches (Algorithm 2, overlapped) enter one per period
              T_p = 1 + (the longest loop) and leave k periods later. Its own top: a batch
              interface (start, batches, take, batches_done; docs/hypercube.md §14)
  quadratic-sort  sort-then-pack pipelined on the quadratic cube: every compare-exchange
              and every unpacking stage on a wire of its own (i+2 across dimension i);
              one batch every M + 1 bit times, latency k(k+1)/2 + 2k + L + 4 (§13.3)
(M = k + L.) Examples:
  lcanet generate hypercube --k 4 -o out/cube4
  lcanet generate hypercube --k 4 --router sequential --yosys --json -o out/seq4
  lcanet generate hypercube --k 3 --router quadratic -o out/quad3")]
pub struct Args {
    /// Cube dimension: 2^k nodes (1 <= k <= 12).
    #[arg(long)]
    pub k: usize,
    /// Payload bits per message (1..=64).
    #[arg(long, default_value_t = 8)]
    pub payload_bits: usize,
    /// The node router to generate (see below).
    #[arg(long, value_enum, default_value = "overlapped")]
    pub router: RouterArg,
    /// Output directory (created if needed; files are written atomically).
    #[arg(short, long)]
    pub out: PathBuf,
    /// Also synthesize one node router for iCE40 with Yosys and report its flip-flops
    /// and LUTs.
    #[arg(long)]
    pub yosys: bool,
    #[command(flatten)]
    pub core: CoreArgs,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(serde::Serialize)]
struct Report {
    top: String,
    router: Router,
    dir: PathBuf,
    files: Vec<String>,
    /// The GTKWave save file (its translate filter is beside it).
    gtkw: String,
    /// The FuseSoC core file (docs/fusesoc.md) and its name (VLNV).
    core: String,
    core_name: String,
    k: usize,
    payload_bits: usize,
    nodes: usize,
    buffer_bits_per_node: usize,
    flip_flops_per_node: usize,
    /// Bit times of Algorithm 1 (none on the quadratic cube).
    bit_times_semi: Option<u64>,
    /// Bit times of the router's permutation routing (`algorithm = 1`; on a batched
    /// cube, a run of one batch).
    bit_times_full: u64,
    /// A batched cube: bit times between batch completions.
    period: Option<u64>,
    /// A batched cube: bit times from a batch's load cycle to its result.
    latency: Option<u64>,
    /// Which algorithm `bit_times_full` is (`full`, `full-sequential`).
    full_algorithm: &'static str,
    yosys_node: Option<NodeStats>,
}

#[derive(serde::Serialize)]
struct NodeStats {
    module: String,
    flip_flops: u64,
    luts: u64,
}

/// Runs `lcanet generate hypercube`.
pub fn run(args: Args) -> anyhow::Result<crate::cli::Outcome> {
    let router = Router::from(args.router);
    let (design, p) = router_design(router, args.k, args.payload_bits)?;
    let emitted = design.emit().context("emitting the cube's Verilog")?;
    let gtkw_files = router_gtkw(router, &design, p)?;
    // Written into a staging directory that becomes the output only once every file
    // (and the Yosys run, if asked for) succeeded.
    let staged = Staged::new(&args.out)?;
    let written = emitted
        .write_to(staged.path())
        .with_context(|| format!("writing into {}", args.out.display()))?;
    let run = match router {
        Router::Quadratic => quad::total(p, 1),
        Router::QuadSort => qsort::total(p, 1),
        _ => total_bit_times(p, router.algorithm()),
    };
    let gtkw_path = gtkw_files
        .clone()
        .viewing(lcanet_hdl::gtkw::View::run(run, None))
        .write_to(staged.path(), &emitted.top, None)
        .with_context(|| format!("writing the GTKWave files into {}", args.out.display()))?;
    let gtkw = gtkw_path
        .file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    let core_name = args.core.vlnv("cube", &emitted.top)?;
    let core = Core::design(
        core_name.clone(),
        format!(
            "{}-cube of {} routers, {} payload bits (lcanet generate hypercube)",
            p.k(),
            router.name(),
            p.payload_bits()
        ),
        &emitted,
    )
    .write_into(staged.path())?;
    let node_module = router.node_name(p);
    let yosys_node = if args.yosys {
        let files: Vec<PathBuf> = emitted
            .modules
            .iter()
            .map(|f| staged.path().join(&f.name))
            .collect();
        let s = lcanet_testbench::tools::yosys::synth_ice40(&files, &node_module)
            .context("synthesizing one node with Yosys")?;
        Some(NodeStats {
            module: node_module,
            flip_flops: s.ffs,
            luts: s.luts,
        })
    } else {
        None
    };
    staged.commit()?;
    let report = Report {
        top: emitted.top.clone(),
        router,
        dir: args.out.clone(),
        files: written
            .iter()
            .map(|f| {
                f.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()
            })
            .chain([emitted.file_list.name.clone(), gtkw.clone()])
            .chain(gtkw_files.filters.iter().map(|f| f.file.clone()))
            .chain([core.clone()])
            .collect(),
        gtkw,
        core,
        core_name,
        k: p.k(),
        payload_bits: p.payload_bits(),
        nodes: p.n(),
        buffer_bits_per_node: router.buffer_bits_per_node(p),
        flip_flops_per_node: router.flip_flops_per_node(p),
        bit_times_semi: (!router.is_batched()).then(|| total_bit_times(p, Algorithm::Semi)),
        bit_times_full: run,
        period: match router {
            Router::Quadratic => Some(quad::period(p)),
            Router::QuadSort => Some(qsort::period(p)),
            _ => None,
        },
        latency: match router {
            Router::Quadratic => Some(quad::latency(p)),
            Router::QuadSort => Some(qsort::latency(p)),
            _ => None,
        },
        full_algorithm: router.algorithm().name(),
        yosys_node,
    };
    if args.json {
        print_json(&report)?;
    } else {
        println!(
            "wrote {} files for `{}` ({} router, {} nodes, k = {}, {}-bit payloads) into {}",
            report.files.len(),
            report.top,
            report.router,
            report.nodes,
            report.k,
            report.payload_bits,
            report.dir.display()
        );
        println!(
            "per node: {} message-buffer bits, {} flip-flops in all (docs/hypercube.md)",
            report.buffer_bits_per_node, report.flip_flops_per_node
        );
        match (report.bit_times_semi, report.period, report.latency) {
            (Some(semi), _, _) => println!(
                "bit times: semi {semi} = 2k + L + 2, {} {} (docs/hypercube.md)",
                report.full_algorithm, report.bit_times_full
            ),
            (None, Some(period), Some(latency)) => println!(
                "batches: one every {period} bit times, each done {latency} bit times after it is taken (docs/hypercube.md §13.3, §14)"
            ),
            _ => {}
        }
        println!(
            "waveforms: gtkwave <run.vcd> {}",
            report.dir.join(&report.gtkw).display()
        );
        println!(
            "FuseSoC core {} ({}): targets default, lint",
            report.dir.join(&report.core).display(),
            report.core_name
        );
        if let Some(y) = &report.yosys_node {
            println!(
                "Yosys (iCE40) `{}`: {} flip-flops, {} LUTs",
                y.module, y.flip_flops, y.luts
            );
        }
    }
    Ok(crate::cli::Outcome::Success)
}
