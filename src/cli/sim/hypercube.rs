//! `lcanet sim hypercube`: route a semi-contraction (Algorithm 1) or any permutation
//! (Algorithm 2) on an emitted k-cube in Verilator, compared with the cycle-level golden
//! model at every bit time (`docs/hypercube.md`).

use crate::cli::common::{print_json, SeedArg};
use crate::cli::Outcome;
use anyhow::Context;
use lcanet_hdl::hypercube::hw_params;
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
    /// Algorithm 2: any (partial) permutation in O(k²) bit times.
    Full,
}

/// Arguments of `lcanet sim hypercube`.
#[derive(Debug, clap::Args)]
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
    /// Algorithm 1 (`semi`) or Algorithm 2 (`full`).
    #[arg(long, value_enum, default_value = "full")]
    pub algorithm: AlgArg,
    /// Write a VCD of the run here (the model is built with tracing: slower to compile).
    #[arg(long)]
    pub vcd: Option<PathBuf>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
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
    algorithm: &'static str,
    perm: String,
    seed: u64,
    messages: usize,
    delivered_exactly_once: bool,
    collisions: Vec<String>,
    mismatch: Option<String>,
    compared_values: u64,
    build: String,
    build_seconds: f64,
    sim_seconds: f64,
    vcd: Option<PathBuf>,
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
    let seed = args.seed.resolve();
    let n = p.n();
    let r = routing(&args, n, seed)?;
    if args.algorithm == AlgArg::Semi {
        if let Err(e) = check_semi_contraction(&r) {
            eprintln!("warning: {e}; Algorithm 1 may collide (collisions are reported)");
        }
    }
    let payloads = random_payloads(
        n,
        p.payload_bits(),
        &mut seeded(derive(seed, "hypercube-payload")),
    );
    let algorithm = match args.algorithm {
        AlgArg::Semi => Algorithm::Semi,
        AlgArg::Full => Algorithm::Full,
    };
    let dir = std::env::temp_dir().join(format!(
        "lcanet-hypercube-k{}-l{}-{}",
        p.k(),
        p.payload_bits(),
        std::process::id()
    ));
    let opts = CosimOptions {
        verilog_dir: dir.clone(),
        vcd: args.vcd.clone(),
        vcd_on_mismatch: None,
        seed: Some(seed),
        abort_first_run_after: None,
    };
    let result = cosim(args.k, args.payload_bits, algorithm, &r, &payloads, &opts);
    let _ = std::fs::remove_dir_all(&dir);
    let rep = result?;
    let report = Report {
        matched: rep.matched(),
        bit_times: rep.bit_times,
        expected_bit_times: rep.trace.total,
        buffer_bits_per_node: p.buffer_bits_per_node(),
        k: p.k(),
        nodes: n,
        payload_bits: p.payload_bits(),
        algorithm: match args.algorithm {
            AlgArg::Semi => "semi",
            AlgArg::Full => "full",
        },
        perm: args.perm.clone(),
        seed,
        messages: r.senders(),
        delivered_exactly_once: rep.delivers(&r, &payloads),
        collisions: rep.trace.collisions().map(|c| c.to_string()).collect(),
        mismatch: rep.mismatch.as_ref().map(|m| m.to_string()),
        compared_values: rep.stats.compared_values,
        build: format!("{:?}", rep.build).to_lowercase(),
        build_seconds: rep.build_time.as_secs_f64(),
        sim_seconds: rep.sim_time.as_secs_f64(),
        vcd: args.vcd.clone(),
    };
    if args.json {
        print_json(&report)?;
    } else {
        print_text(&report, rep.stats.bit_times);
    }
    if let Some(m) = &rep.mismatch {
        eprintln!("{m}");
        return Ok(Outcome::Mismatch);
    }
    Ok(Outcome::Success)
}

fn print_text(r: &Report, bit_times_run: u64) {
    println!(
        "{}-cube ({} nodes), {}-bit payloads, algorithm {}, routing {} ({} messages), seed {}",
        r.k, r.nodes, r.payload_bits, r.algorithm, r.perm, r.messages, r.seed
    );
    if r.matched {
        println!(
            "RTL matches the golden model at every bit time: {} values over {} bit times",
            r.compared_values, bit_times_run
        );
    } else {
        println!("RTL DIFFERS from the golden model (report on stderr)");
    }
    println!(
        "bit times: {} (model {}); message buffers: {} bits per node",
        r.bit_times, r.expected_bit_times, r.buffer_bits_per_node
    );
    if r.delivered_exactly_once {
        println!("every message delivered exactly once, payload bit-exact");
    } else {
        println!("NOT every message was delivered exactly once");
    }
    for c in &r.collisions {
        println!("  {c}");
    }
    println!(
        "model build: {} in {:.2} s; simulation {:.3} s ({:.0} bit times/s)",
        r.build,
        r.build_seconds,
        r.sim_seconds,
        bit_times_run as f64 / r.sim_seconds.max(1e-9)
    );
    if let Some(v) = &r.vcd {
        println!("VCD: {}", v.display());
    }
}
