//! `lcanet sim hypercube`: route a semi-contraction (Algorithm 1) or any permutation
//! (the router's method: Algorithm 2 with the overlapped or the sequential schedule) on
//! an emitted k-cube in Verilator, compared with the cycle-level golden model at every
//! bit time (`docs/hypercube.md`).
//!
//! Exit codes: 0 when the RTL matches the model and every message is delivered exactly
//! once; 2 when the RTL and the model differ; 1 for bad input, missing tools, and a run
//! in which messages collided (a routing that is not a semi-contraction given to
//! Algorithm 1: the report is still printed, `"collision": true` in JSON, and the error
//! names the first collision).

use crate::cli::common::{print_json, CosimArgs, SeedArg};
use crate::cli::generate::hypercube::RouterArg;
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::hypercube::cube::router_design;
use lcanet_hdl::hypercube::gtkw::router_gtkw;
use lcanet_hdl::hypercube::{hw_params, Router};
use lcanet_sim::hypercube::generate::{random_packing, random_payloads, random_semi_contraction};
use lcanet_sim::hypercube::semi::check_semi_contraction;
use lcanet_sim::hypercube::timing::Algorithm;
use lcanet_sim::perm::{PartialPermutation, Permutation};
use lcanet_sim::rng::{derive, seeded};
use lcanet_testbench::hypercube::cosim::{cosim, CosimOptions};
use std::path::PathBuf;

/// Which algorithm runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AlgArg {
    /// Algorithm 1: one pass through dimensions 0..k-1 (semi-contractions, packings).
    Semi,
    /// Any (partial) permutation, by the router's method (Algorithm 2, ...).
    Full,
}

/// Arguments of `lcanet sim hypercube`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Every router runs Algorithm 1 (--algorithm semi) and routes any permutation with
--algorithm full by its own method:
  overlapped  Algorithm 2, overlapped schedule (the default; docs/hypercube.md §12)
  sequential  Algorithm 2, the paper's sequential schedule (§5-§6)
  sort        sort-then-pack: a pipelined bitonic sort, then an unpacking (§13)
  quadratic   the quadratic cube (§14): an H-permutation (--h H; every PE sends and
              receives at most H messages) split into H batches, pipelined one per period
              (--perm random: H random permutations superposed; a FILE: one line per PE
              with its destinations, or '-'); reports the measured period and latency
  quadratic-sort  the same batches through sort-then-pack pipelined on the quadratic
              cube: one batch every M + 1 bit times (§13.3)
The RTL is compared with the golden model at every bit time; exit 0 when it matches and
every message is delivered exactly once, 2 on a mismatch, 1 on bad input or collisions.
Examples:
  lcanet sim hypercube --k 4 --seed 1
  lcanet sim hypercube --k 4 --router sequential --perm perm.txt --json
  lcanet sim hypercube --k 3 --algorithm semi --perm packing --vcd run.vcd
  lcanet sim hypercube --k 4 --router quadratic --h 4 --seed 1 --json")]
pub struct Args {
    /// Cube dimension: 2^k nodes (1 <= k <= 12).
    #[arg(long)]
    pub k: usize,
    /// Payload bits per message (1..=64).
    #[arg(long, default_value_t = 8)]
    pub payload_bits: usize,
    /// `random` (a random semi-contraction for semi, a random permutation for full),
    /// `packing` (a random packing), or a file (one destination or `-` per PE).
    #[arg(long, default_value = "random")]
    pub perm: String,
    /// Seed of every random choice.
    #[command(flatten)]
    pub seed: SeedArg,
    /// Algorithm 1 (`semi`) or any permutation by the router's method (`full`).
    #[arg(long, value_enum, default_value = "full")]
    pub algorithm: AlgArg,
    /// The node router whose cube runs (see below).
    #[arg(long, value_enum, default_value = "overlapped")]
    pub router: RouterArg,
    /// The batched cubes only: H, the most messages a PE sends or receives (1..=255);
    /// default 4 with --perm random, the file's largest count with a file.
    #[arg(long)]
    pub h: Option<usize>,
    /// `--vcd`, `--json`, `--optimize`.
    #[command(flatten)]
    pub out: CosimArgs,
    #[command(flatten)]
    pub threads: super::ThreadsArg,
}

#[derive(serde::Serialize)]
struct Report {
    #[serde(rename = "match")]
    matched: bool,
    bit_times: u64,
    expected_bit_times: u64,
    buffer_bits_per_node: usize,
    k: usize,
    nodes: usize,
    payload_bits: usize,
    router: Router,
    /// `semi`, `full` (Algorithm 2, overlapped), `full-sequential`, `sort`.
    algorithm: &'static str,
    perm: String,
    seed: u64,
    messages: usize,
    /// Definition 3 holds (Algorithm 1 is then guaranteed not to collide, Lemma 1).
    semi_contraction: bool,
    /// The first pair of senders that violates Definition 3, if any.
    not_semi_contraction: Option<String>,
    delivered_exactly_once: bool,
    /// Some messages collided (their frames merged): the run did not route the input.
    collision: bool,
    collisions: Vec<String>,
    mismatch: Option<String>,
    /// For a mismatch in a per-node output vector: the first node whose row differs.
    mismatch_node: Option<String>,
    /// Whole values compared (7 per bit time: four N-bit or N·L-bit vectors, three globals).
    compared_values: u64,
    /// Bit times driven and compared (the run plus a few after `done`).
    simulated_bit_times: u64,
    /// `simulated_bit_times / sim_seconds`: co-simulation speed, comparisons included.
    bit_times_per_second: f64,
    build: String,
    build_seconds: f64,
    /// Of `build_seconds`, the time Verilator took (the rest is compiling and linking).
    verilate_seconds: f64,
    /// Bytes of C++ Verilator wrote for the cube.
    cpp_bytes: u64,
    /// C++ optimization of the model (`quick`: -O1, `fast`: -O3 with `--optimize`).
    optimize: String,
    sim_seconds: f64,
    vcd: Option<PathBuf>,
    /// The GTKWave save file beside the VCD (its translate filter beside it).
    gtkw: Option<PathBuf>,
}

fn routing(args: &Args, n: usize, seed: u64) -> anyhow::Result<PartialPermutation> {
    let mut rng = seeded(derive(seed, "hypercube-routing"));
    Ok(match (args.perm.as_str(), args.algorithm) {
        ("random", AlgArg::Semi) => random_semi_contraction(args.k, &mut rng),
        ("random", AlgArg::Full) => Permutation::random(n, &mut rng).to_partial(),
        ("packing", _) => random_packing(args.k, &mut rng),
        (path, _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading the routing file {path}"))?;
            PartialPermutation::parse(&text, n)
                .with_context(|| format!("{path} is not a routing on {n} nodes"))?
        }
    })
}

/// Runs `lcanet sim hypercube`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let p = hw_params(args.k, args.payload_bits)?;
    if Router::from(args.router).is_batched() {
        return super::hypercube_quad::run(&args, p);
    }
    if let Some(h) = args.h {
        bail!("--h {h} applies to --router quadratic and quadratic-sort only (the other cubes route one (partial) permutation)");
    }
    let seed = args.seed.resolve();
    let n = p.n();
    let r = routing(&args, n, seed)?;
    let not_semi = check_semi_contraction(&r).err().map(|e| e.to_string());
    if let (AlgArg::Semi, Some(e)) = (args.algorithm, &not_semi) {
        eprintln!("warning: {e}; Algorithm 1 may collide (collisions are reported)");
    }
    let payloads = random_payloads(
        n,
        p.payload_bits(),
        &mut seeded(derive(seed, "hypercube-payload")),
    );
    let router = Router::from(args.router);
    let algorithm = match args.algorithm {
        AlgArg::Semi => Algorithm::Semi,
        AlgArg::Full => router.algorithm(),
    };
    // The save file is made before the run and written beside the VCD once it is in place.
    let gtkw_files = match &args.out.vcd {
        Some(_) => {
            let (design, p) = router_design(router, args.k, args.payload_bits)?;
            Some(router_gtkw(router, &design, p)?)
        }
        None => None,
    };
    let dir = std::env::temp_dir().join(format!(
        "lcanet-hypercube-k{}-l{}-{}",
        p.k(),
        p.payload_bits(),
        std::process::id()
    ));
    // The VCD is written next to its final name and renamed once the run is over, so a
    // failed run leaves no half-written file.
    let vcd_tmp = args.out.vcd.as_ref().map(|v| {
        let name = v.file_name().unwrap_or_default().to_string_lossy();
        v.with_file_name(format!(".{name}.lcanet-tmp"))
    });
    let opts = CosimOptions {
        verilog_dir: dir.clone(),
        vcd: vcd_tmp.clone(),
        vcd_on_mismatch: None,
        seed: Some(seed),
        abort_first_run_after: None,
        optimize: args.out.speed(),
        models_root: None,
        router: Some(router),
        threads: args.threads.get(),
    };
    let result = cosim(args.k, args.payload_bits, algorithm, &r, &payloads, &opts);
    let _ = std::fs::remove_dir_all(&dir);
    if let (Some(tmp), Some(vcd)) = (&vcd_tmp, &args.out.vcd) {
        if result.is_ok() {
            std::fs::rename(tmp, vcd)
                .with_context(|| format!("renaming the VCD into {}", vcd.display()))?;
        } else {
            let _ = std::fs::remove_file(tmp);
        }
    }
    let rep = result?;
    let mut view = lcanet_hdl::gtkw::View::run(rep.stats.bit_times, None);
    if let Some(m) = &rep.mismatch {
        view = view.with_mismatch(m.bit_time);
    }
    let gtkw = match (&gtkw_files, &args.out.vcd) {
        (Some(files), Some(vcd)) => Some(super::write_gtkw(files, vcd, view)?),
        _ => None,
    };
    let first_collision = rep.trace.collisions().next().map(|c| c.to_string());
    let report = Report {
        matched: rep.matched(),
        bit_times: rep.bit_times,
        expected_bit_times: rep.trace.total,
        buffer_bits_per_node: router.buffer_bits_per_node(p),
        k: p.k(),
        nodes: n,
        payload_bits: p.payload_bits(),
        router,
        algorithm: algorithm.name(),
        perm: args.perm.clone(),
        seed,
        messages: r.senders(),
        semi_contraction: not_semi.is_none(),
        not_semi_contraction: not_semi.clone(),
        delivered_exactly_once: rep.delivers(&r, &payloads),
        collision: first_collision.is_some(),
        collisions: rep.trace.collisions().map(|c| c.to_string()).collect(),
        mismatch: rep.mismatch.as_ref().map(|m| m.to_string()),
        mismatch_node: rep.mismatch_node.as_ref().map(|d| d.to_string()),
        compared_values: rep.stats.compared_values,
        simulated_bit_times: rep.stats.bit_times,
        bit_times_per_second: rep.stats.bit_times as f64 / rep.sim_time.as_secs_f64().max(1e-9),
        build: format!("{:?}", rep.build).to_lowercase(),
        build_seconds: rep.build_time.as_secs_f64(),
        verilate_seconds: rep.verilate_seconds,
        cpp_bytes: rep.cpp_bytes,
        optimize: format!("{:?}", args.out.speed()).to_lowercase(),
        sim_seconds: rep.sim_time.as_secs_f64(),
        vcd: args.out.vcd.clone(),
        gtkw,
    };
    if args.out.json {
        print_json(&report)?;
    } else {
        print_text(&report);
    }
    if let Some(m) = &rep.mismatch {
        eprintln!("{m}");
        if let Some(d) = &rep.mismatch_node {
            eprintln!("  {d}");
        }
        return Ok(Outcome::Mismatch);
    }
    if let Some(c) = first_collision {
        let why = match &not_semi {
            Some(e) => e.clone(),
            None => "unexpected for this routing".to_string(),
        };
        bail!(
            "messages collided ({} collision(s), the first: {c}); {} of {} messages not \
             delivered exactly once; {why} (Algorithm 1 routes semi-contractions only; \
             `--algorithm full` routes any permutation)",
            report.collisions.len(),
            undelivered(&rep, &r, &payloads),
            r.senders()
        );
    }
    if !report.delivered_exactly_once {
        bail!("the RTL matched the model, but not every message was delivered exactly once");
    }
    Ok(Outcome::Success)
}

/// Messages of `r` not at their destination with their payload at the end of the run.
fn undelivered(
    rep: &lcanet_testbench::hypercube::cosim::CosimReport,
    r: &PartialPermutation,
    payloads: &[u64],
) -> usize {
    r.pairs()
        .filter(|&(s, d)| rep.delivered[d] != (true, payloads[s]))
        .count()
}

fn print_text(r: &Report) {
    println!(
        "{}-cube ({} nodes, {} router), {}-bit payloads, algorithm {}, routing {} ({} messages), seed {}",
        r.k, r.nodes, r.router, r.payload_bits, r.algorithm, r.perm, r.messages, r.seed
    );
    if r.matched {
        println!(
            "RTL matches the golden model at every bit time: {} values over {} bit times",
            r.compared_values, r.simulated_bit_times
        );
    } else {
        println!("RTL DIFFERS from the golden model (report on stderr)");
    }
    println!(
        "bit times: {} (model {}); message buffers: {} bits per node",
        r.bit_times, r.expected_bit_times, r.buffer_bits_per_node
    );
    if let Some(e) = &r.not_semi_contraction {
        println!("{e}");
    }
    if r.delivered_exactly_once {
        println!("every message delivered exactly once, payload bit-exact");
    } else {
        println!("NOT every message was delivered exactly once");
    }
    for c in &r.collisions {
        println!("  {c}");
    }
    println!(
        "model build: {} in {:.2} s ({} C++ bytes, -{}); simulation {:.3} s ({:.0} bit times/s)",
        r.build,
        r.build_seconds,
        r.cpp_bytes,
        if r.optimize == "fast" { "O3" } else { "O1" },
        r.sim_seconds,
        r.bit_times_per_second
    );
    match (&r.vcd, &r.gtkw) {
        (Some(v), Some(g)) => println!("{}", super::waveforms_line(v, g)),
        (Some(v), None) => println!("VCD: {}", v.display()),
        _ => {}
    }
}
