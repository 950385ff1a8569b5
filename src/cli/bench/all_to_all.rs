//! `lcanet bench all-to-all`: all-to-all personalized exchange measured on every network
//! family (issue 17 item 4) — ATAPE on the six MINs, `n − 1` permutations on the LCA
//! networks (R1, R2, R3) and on the hypercube router (Algorithms 2 and 1) — in bit-times
//! from the golden models at every size, co-simulated bit-exact in Verilator at small `n`
//! (the RTL's own bit-time counts must equal the golden figures), and priced in iCE40
//! LUTs and flip-flops per PE by Yosys where synthesis is feasible.
//!
//! The networks and algorithms are the rows of [`table::entries`]; each row's module
//! ([`min`], [`lcan`], [`cube`]) says how its exchange runs. [`cost`] is the Yosys step,
//! [`plot`] the SVG plots.

pub mod cost;
pub mod cube;
pub mod lcan;
pub mod min;
pub mod plot;
pub mod table;

use crate::cli::common::{
    first_missing, print_json, progress_bar, thread_pool, write_atomic, SeedArg,
};
use crate::cli::Outcome;
use anyhow::{bail, Context};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;
use table::{Cosim, Exchange, Family, Golden, Hardware, Params};

/// Largest `n` of the bench (the MIN and cube generators' limit, 2^12).
pub const MAX_N: usize = 4096;
/// Largest `--synth-max-n`: the largest size synthesized on this machine (2-core, shared):
/// at n = 2048 Yosys took 285 s and 0.73 GB for CB(2,2) with R1 (11,264 switches), 153 s
/// for the omega network, 24 s for the hypercube (docs/results.md §7).
pub const MAX_SYNTH_N: usize = 2048;
/// Largest `--cosim-max-n`: above it the `n − 1` Verilator runs of an LCA network take
/// hours on a shared 2-core machine (docs/results.md §7).
pub const MAX_COSIM_N: usize = 64;

/// Arguments of `lcanet bench all-to-all`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lcanet bench all-to-all --n 8..1024 --json > a2a.json
  lcanet bench all-to-all --n 8..64 --families min,hypercube --out out/a2a
  lcanet bench all-to-all --n 16 --networks omega,cb22 --cosim-max-n 16 --synth-max-n 16
  lcanet bench all-to-all --n 8..256 --algorithms atape,r3,alg1 --synth-max-n 0

The exchange: every PE sends a distinct B-bit message to every other PE. A MIN runs
004's ATAPE (its Latin square's n rows as n pipelined frames); an LCA network and the
hypercube route the n − 1 permutations j ↦ j ⊕ c one after the other. Bit-times come
from the golden models at every n (source \"golden\"); at n ≤ --cosim-max-n the whole
exchange is also co-simulated in Verilator and the RTL's own bit-time counts must equal
them (source \"golden = RTL\"; exit code 2 if not). Cost: Yosys synth_ice40 -noflatten of
the whole network, LUTs and flip-flops ÷ n, at n ≤ --synth-max-n.")]
pub struct Args {
    /// Sizes: `A..B` (every power of two from A to B) or a comma-separated list of powers
    /// of two (2 ≤ n ≤ 4096).
    #[arg(long, default_value = "8..1024")]
    n: String,
    /// Payload bits B of every message (1..=64: the LCA and hypercube hardware carry at
    /// most 64).
    #[arg(long, default_value_t = 8)]
    message_bits: usize,
    /// Families, comma-separated: min, lcan, hypercube (default: all).
    #[arg(long, value_enum, value_delimiter = ',')]
    families: Vec<FamilyArg>,
    /// Only these networks, comma-separated, by the names of the report: omega,
    /// reverse-cube, T(2,1), CB(2,2), hypercube, … (case and punctuation are ignored:
    /// cb22 and CB-2-2 name CB(2,2)).
    #[arg(long)]
    networks: Option<String>,
    /// Only these algorithms, comma-separated: atape, r1, r2, r3, alg2, alg2-seq, sort,
    /// alg1, quadratic, quadratic-sort (default: all).
    #[arg(long, value_delimiter = ',')]
    algorithms: Vec<String>,
    /// Co-simulate the exchange in Verilator for every n up to this (0: never; at most
    /// 64).
    #[arg(long, default_value_t = 16)]
    cosim_max_n: usize,
    /// Synthesize every network with Yosys for every n up to this (0: never; at most 2048,
    /// the largest measured here: 285 s and 0.73 GB of Yosys for CB(2,2) at n = 2048;
    /// all networks up to n = 1024 take about 40 minutes on a shared 2-core machine).
    #[arg(long, default_value_t = 256)]
    synth_max_n: usize,
    /// Worker threads: the golden models' routings, and the co-simulations and Yosys runs
    /// side by side (default: the available cores).
    #[arg(long)]
    jobs: Option<usize>,
    #[command(flatten)]
    seed: SeedArg,
    /// Write all_to_all.jsonl and the SVG plots into this directory.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the records and the summary as one JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FamilyArg {
    /// Self-routing MINs with ATAPE (004)
    Min,
    /// LCA networks, R1/R2/R3 (002, 003)
    Lcan,
    /// Kuszmaul's hypercube router (001)
    Hypercube,
}

/// One (entry, n): a line of `all_to_all.jsonl`.
#[derive(Debug, Clone, Serialize)]
pub struct Record {
    /// The family.
    pub family: Family,
    /// The network.
    pub network: String,
    /// The algorithm.
    pub algorithm: &'static str,
    /// PEs.
    pub n: usize,
    /// Payload bits B.
    pub message_bits: usize,
    /// Hardware runs of the exchange.
    pub runs: usize,
    /// Bit-times of the whole exchange (the golden model's; equal to the RTL's where
    /// co-simulated).
    pub bit_times: u64,
    /// Where the figure comes from: `golden`, or `golden = RTL` (co-simulated, equal).
    pub source: &'static str,
    /// `bit_times ÷ n`.
    pub bit_times_per_pe: f64,
    /// The golden model's details.
    pub golden: Golden,
    /// The co-simulation, at `n ≤ --cosim-max-n`.
    pub cosim: Option<Cosim>,
    /// The Yosys cost, at `n ≤ --synth-max-n`.
    pub cost: Option<cost::Cost>,
    /// Why there is no cost figure.
    pub cost_unavailable: Option<String>,
    /// 004 Table 3's claim for the family.
    pub claim: &'static str,
}

/// The files `--out` receives (all written at the end, each atomically).
const OUT_FILES: [&str; 3] = [
    "all_to_all.jsonl",
    "all_to_all_bit_times.svg",
    "all_to_all_cost.svg",
];

/// Refuses an `--out` that could not take the files, before anything runs (the run may
/// take an hour): a path that is not a directory, under something that is not one, with
/// a component too long for the file system, or where an output file is a directory.
fn check_out(dir: &std::path::Path) -> anyhow::Result<()> {
    let shown = dir.display();
    if dir.as_os_str().is_empty() {
        bail!("--out: the output directory is an empty path");
    }
    if let Some(c) = dir.components().find(|c| c.as_os_str().len() > 255) {
        bail!(
            "--out {shown}: a path component is too long ({} bytes, the limit is 255)",
            c.as_os_str().len()
        );
    }
    if dir.exists() && !dir.is_dir() {
        bail!("--out {shown}: exists and is not a directory");
    }
    if let Some(missing) = first_missing(dir) {
        let anchor = missing
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."));
        if !anchor.is_dir() {
            bail!("--out {shown}: {} is not a directory", anchor.display());
        }
    }
    for name in OUT_FILES {
        if dir.join(name).is_dir() {
            bail!("--out {shown}: {name} is a directory there, not a file");
        }
    }
    Ok(())
}

/// Parses `--n`: `A..B` or a list, every entry a power of two in `2..=MAX_N`.
fn parse_sizes(text: &str) -> anyhow::Result<Vec<usize>> {
    let num = |t: &str| -> anyhow::Result<usize> {
        let v: usize = t
            .trim()
            .parse()
            .map_err(|_| anyhow::anyhow!("--n: {:?} is not a positive integer", t.trim()))?;
        if !v.is_power_of_two() || !(2..=MAX_N).contains(&v) {
            bail!("--n: {v} is not a power of two in 2..={MAX_N} (every family has n = 2^m PEs)");
        }
        Ok(v)
    };
    let mut sizes: Vec<usize> = match text.split_once("..") {
        Some((a, b)) => {
            let (a, b) = (num(a)?, num(b)?);
            if a > b {
                bail!("--n {text}: the range is empty ({a} > {b})");
            }
            (a.trailing_zeros()..=b.trailing_zeros())
                .map(|e| 1 << e)
                .collect()
        }
        None => text.split(',').map(num).collect::<anyhow::Result<_>>()?,
    };
    sizes.sort_unstable();
    sizes.dedup();
    Ok(sizes)
}

/// A network name as `--networks` compares it: lower case, letters and digits only.
fn name_key(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// `--networks`: names separated by commas outside parentheses (`CB(2,2),omega`).
fn split_names(text: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0i32);
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth <= 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out
}

/// The entries selected by `--families` and `--networks`; an unknown network name is an
/// error naming the known ones.
fn select(a: &Args) -> anyhow::Result<Vec<Box<dyn Exchange>>> {
    let all = table::entries();
    let wanted: Vec<String> = match &a.networks {
        None => Vec::new(),
        Some(text) => split_names(text)
            .iter()
            .map(|w| {
                let key = name_key(w);
                if all.iter().any(|e| name_key(&e.network()) == key) && !key.is_empty() {
                    Ok(key)
                } else {
                    let mut names: Vec<String> = all.iter().map(|e| e.network()).collect();
                    names.dedup();
                    bail!(
                        "--networks: unknown network {:?} (known: {})",
                        w.trim(),
                        names.join(", ")
                    )
                }
            })
            .collect::<anyhow::Result<_>>()?,
    };
    let family_ok = |f: Family| {
        a.families.is_empty()
            || a.families.iter().any(|x| {
                matches!(
                    (x, f),
                    (FamilyArg::Min, Family::Min)
                        | (FamilyArg::Lcan, Family::Lcan)
                        | (FamilyArg::Hypercube, Family::Hypercube)
                )
            })
    };
    for want in &a.algorithms {
        if !all
            .iter()
            .any(|e| e.algorithm().eq_ignore_ascii_case(want.trim()))
        {
            let mut names: Vec<&str> = Vec::new();
            for e in &all {
                if !names.contains(&e.algorithm()) {
                    names.push(e.algorithm());
                }
            }
            bail!(
                "--algorithms: unknown algorithm {:?} (known: {})",
                want.trim(),
                names.join(", ")
            );
        }
    }
    let alg_ok = |alg: &str| {
        a.algorithms.is_empty()
            || a.algorithms
                .iter()
                .any(|w| alg.eq_ignore_ascii_case(w.trim()))
    };
    let chosen: Vec<Box<dyn Exchange>> = all
        .into_iter()
        .filter(|e| family_ok(e.family()) && alg_ok(e.algorithm()))
        .filter(|e| wanted.is_empty() || wanted.contains(&name_key(&e.network())))
        .collect();
    if chosen.is_empty() {
        bail!("--families, --networks and --algorithms select no network together");
    }
    Ok(chosen)
}

/// Runs `lcanet bench all-to-all`.
pub fn run(a: Args) -> anyhow::Result<Outcome> {
    let sizes = parse_sizes(&a.n)?;
    if !(1..=64).contains(&a.message_bits) {
        bail!("--message-bits {}: need 1 ≤ B ≤ 64 (the LCA and hypercube hardware carry at most 64 payload bits)", a.message_bits);
    }
    if a.cosim_max_n > MAX_COSIM_N {
        bail!("--cosim-max-n {}: above the limit of {MAX_COSIM_N} (co-simulating the n − 1 runs of an LCA network beyond it takes hours here)", a.cosim_max_n);
    }
    if a.synth_max_n > MAX_SYNTH_N {
        bail!(
            "--synth-max-n {}: above the limit of {MAX_SYNTH_N}, the largest size synthesized on \
             this machine (CB(2,2) R1 at n = 2048: 285 s and 0.73 GB of Yosys; n = 4096 was \
             not attempted)",
            a.synth_max_n
        );
    }
    match a.jobs {
        Some(0) => bail!("--jobs 0: at least one worker thread is needed"),
        Some(j) if j > 256 => bail!("--jobs {j}: above the limit of 256 worker threads"),
        _ => {}
    }
    let entries = select(&a)?;
    if let Some(dir) = &a.out {
        check_out(dir)?;
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let p = Params {
        message_bits: a.message_bits,
        seed: a.seed.resolve(),
    };
    let jobs_list: Vec<(usize, usize)> = entries
        .iter()
        .enumerate()
        .flat_map(|(i, e)| sizes.iter().filter(|&&n| e.exists(n)).map(move |&n| (i, n)))
        .collect();
    let started = Instant::now();
    // 1. Golden models at every size.
    let pb = progress_bar(jobs_list.len(), "golden models", false);
    let mut golden = Vec::with_capacity(jobs_list.len());
    for &(i, n) in &jobs_list {
        let e = &entries[i];
        pb.set_message(format!("{} {} n = {n}", e.network(), e.algorithm()));
        let g = e.golden(n, &p, jobs).with_context(|| {
            format!(
                "golden model of {} {} at n = {n}",
                e.network(),
                e.algorithm()
            )
        })?;
        golden.push(g);
        pb.inc(1);
    }
    pb.finish_and_clear();
    let golden_seconds = started.elapsed().as_secs_f64();
    // A directory of this run's own (runs in parallel never share one), removed at the
    // end unless a co-simulation failed (its Verilog and failure.vcd are then kept).
    let root = lcanet_testbench::paths::artifacts_root();
    std::fs::create_dir_all(&root)
        .with_context(|| format!("creating the work directory under {}", root.display()))?;
    let work = tempfile::Builder::new()
        .prefix("bench_all_to_all.")
        .tempdir_in(&root)
        .with_context(|| format!("creating the work directory under {}", root.display()))?;
    // 2. Co-simulation at small n, `jobs` at a time (each builds a Verilated model).
    let small: Vec<usize> = (0..jobs_list.len())
        .filter(|&j| jobs_list[j].1 <= a.cosim_max_n)
        .collect();
    let pb = progress_bar(small.len(), "co-simulations", false);
    let pool = thread_pool(jobs)?;
    let runs: Vec<anyhow::Result<Cosim>> = pool.install(|| {
        small
            .par_iter()
            .with_max_len(1)
            .map(|&j| {
                let (i, n) = jobs_list[j];
                let e = &entries[i];
                pb.set_message(format!("{} {} n = {n}", e.network(), e.algorithm()));
                let dir = work.path().join(format!(
                    "cosim_{}_{}_n{n}",
                    slug(&e.network()),
                    e.algorithm()
                ));
                let c = e.cosim(n, &p, &dir).with_context(|| {
                    format!(
                        "co-simulation of {} {} at n = {n}",
                        e.network(),
                        e.algorithm()
                    )
                });
                pb.inc(1);
                c
            })
            .collect()
    });
    let mut cosims: BTreeMap<usize, Cosim> = BTreeMap::new();
    for (&j, c) in small.iter().zip(runs) {
        cosims.insert(j, c?);
    }
    pb.finish_and_clear();
    // 3. Yosys, once per distinct top, `jobs` at a time.
    let big: Vec<usize> = (0..jobs_list.len())
        .filter(|&j| jobs_list[j].1 <= a.synth_max_n)
        .collect();
    // The top of each size, and each distinct top's hardware once (first size that has it).
    let mut tops: Vec<String> = Vec::with_capacity(big.len());
    let mut distinct: Vec<(Hardware, usize)> = Vec::new();
    for &j in &big {
        let (i, n) = jobs_list[j];
        let e = &entries[i];
        let dir = work
            .path()
            .join(format!("rtl_{}_{}_n{n}", slug(&e.network()), e.algorithm()));
        let hw = e.hardware(n, &p, &dir)?;
        tops.push(hw.top.clone());
        if !distinct.iter().any(|(d, _)| d.top == hw.top) {
            distinct.push((hw, n));
        }
    }
    let pb = progress_bar(distinct.len(), "syntheses", false);
    let synthesized: Vec<Result<cost::Cost, String>> = pool.install(|| {
        distinct
            .par_iter()
            .with_max_len(1)
            .map(|(hw, n)| {
                pb.set_message(hw.top.clone());
                let c = cost::synthesize(hw, *n).map_err(|err| format!("{err:#}"));
                pb.inc(1);
                c
            })
            .collect()
    });
    let by_top: BTreeMap<&str, Result<cost::Cost, String>> = distinct
        .iter()
        .map(|(hw, _)| hw.top.as_str())
        .zip(synthesized)
        .collect();
    let mut costs: BTreeMap<usize, Result<cost::Cost, String>> = big
        .iter()
        .zip(&tops)
        .map(|(&j, top)| (j, by_top[top.as_str()].clone()))
        .collect();
    pb.finish_and_clear();
    // 4. Records.
    let mut mismatch = false;
    let mut records = Vec::with_capacity(jobs_list.len());
    for (j, (&(i, n), g)) in jobs_list.iter().zip(golden).enumerate() {
        let e = &entries[i];
        let cosim = cosims.remove(&j);
        let source = source(&g, cosim.as_ref());
        mismatch |= source == SOURCE_DIFFERENT;
        let (cost, cost_unavailable) = match costs.remove(&j) {
            Some(Ok(c)) => (Some(c), None),
            Some(Err(why)) => (None, Some(why)),
            None => (
                None,
                Some(format!("n = {n} > --synth-max-n {}", a.synth_max_n)),
            ),
        };
        records.push(Record {
            family: e.family(),
            network: e.network(),
            algorithm: e.algorithm(),
            n,
            message_bits: p.message_bits,
            runs: g.runs,
            bit_times: g.bit_times,
            source,
            bit_times_per_pe: g.bit_times as f64 / n as f64,
            golden: g,
            cosim,
            cost,
            cost_unavailable,
            claim: e.family().claim(),
        });
    }
    let elapsed = started.elapsed().as_secs_f64();
    let kept = mismatch.then(|| work.keep());
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    if a.out.is_some() {
        let mut jsonl = String::new();
        for r in &records {
            jsonl.push_str(&serde_json::to_string(r)?);
            jsonl.push('\n');
        }
        files.push(("all_to_all.jsonl".into(), jsonl.into_bytes()));
        for (name, svg) in plot::plots(&records)? {
            files.push((name, svg.into_bytes()));
        }
    }
    if let Some(dir) = &a.out {
        for (name, bytes) in &files {
            write_atomic(&dir.join(name), bytes)?;
        }
    }
    if a.json {
        #[derive(Serialize)]
        struct Summary<'a> {
            seed: u64,
            message_bits: usize,
            sizes: &'a [usize],
            exchange: &'static str,
            cosim_max_n: usize,
            synth_max_n: usize,
            cost_method: &'static str,
            golden_seconds: f64,
            elapsed_seconds: f64,
            /// Where a failed co-simulation's Verilog and VCD are kept.
            kept_work_dir: Option<&'a PathBuf>,
            files: Vec<&'a str>,
            records: &'a [Record],
        }
        print_json(&Summary {
            seed: p.seed,
            message_bits: p.message_bits,
            sizes: &sizes,
            exchange: "MIN: ATAPE, n frames of the network's Latin square; others: the n − 1 permutations j ↦ j ⊕ c, one run each",
            cosim_max_n: a.cosim_max_n,
            synth_max_n: a.synth_max_n,
            cost_method: cost::METHOD,
            golden_seconds,
            elapsed_seconds: elapsed,
            kept_work_dir: kept.as_ref(),
            files: files.iter().map(|f| f.0.as_str()).collect(),
            records: &records,
        })?;
    } else {
        print_table(&records, &a, p.seed, elapsed);
        if let Some(dir) = &kept {
            println!(
                "a co-simulation failed: its Verilog and failure.vcd are kept in {}",
                dir.display()
            );
        }
        if let Some(dir) = &a.out {
            println!("wrote {} files to {}", files.len(), dir.display());
        }
    }
    Ok(if mismatch {
        Outcome::Mismatch
    } else {
        Outcome::Success
    })
}

const SOURCE_GOLDEN: &str = "golden";
const SOURCE_EQUAL: &str = "golden = RTL";
const SOURCE_DIFFERENT: &str = "golden ≠ RTL";

/// Where a record's figure comes from: the golden model alone, or also co-simulated —
/// equal only when every run matched the golden model at every bit-time and the RTL's
/// own bit-time count equals the golden figure.
fn source(g: &Golden, cosim: Option<&Cosim>) -> &'static str {
    match cosim {
        None => SOURCE_GOLDEN,
        Some(c) if c.matched && c.runs == g.runs && c.bit_times == g.bit_times => SOURCE_EQUAL,
        Some(_) => SOURCE_DIFFERENT,
    }
}

/// A file-name-safe form of a network name (`CB(2,2)` → `cb_2_2`).
fn slug(name: &str) -> String {
    let s: String = name
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    s.trim_matches('_').replace("__", "_")
}

fn print_table(records: &[Record], a: &Args, seed: u64, elapsed: f64) {
    println!(
        "all-to-all personalized exchange, B = {} payload bits, seed {seed}",
        a.message_bits
    );
    println!(
        "{:>5} {:<17} {:<14} {:>5} {:>11} {:>9} {:<13} {:>9} {:>8}",
        "n", "network", "alg", "runs", "bit-times", "÷ n", "source", "LUT/PE", "FF/PE"
    );
    for r in records {
        let (l, f) = r.cost.as_ref().map_or(("-".into(), "-".into()), |c| {
            (
                format!("{:.1}", c.luts_per_pe),
                format!("{:.1}", c.ffs_per_pe),
            )
        });
        println!(
            "{:>5} {:<17} {:<14} {:>5} {:>11} {:>9.1} {:<13} {:>9} {:>8}",
            r.n, r.network, r.algorithm, r.runs, r.bit_times, r.bit_times_per_pe, r.source, l, f
        );
        if let Some(c) = r
            .cosim
            .as_ref()
            .filter(|c| !c.matched || c.bit_times != r.bit_times)
        {
            println!(
                "      MISMATCH: the RTL counted {} bit-times{}",
                c.bit_times,
                c.failure
                    .as_deref()
                    .map(|f| format!(": {f}"))
                    .unwrap_or_default()
            );
        }
    }
    // Why figures are missing, each reason once with its sizes.
    let mut missing: BTreeMap<&str, std::collections::BTreeSet<usize>> = BTreeMap::new();
    for r in records {
        if let Some(why) = &r.cost_unavailable {
            missing.entry(why.as_str()).or_default().insert(r.n);
        }
    }
    for (why, ns) in missing {
        let ns: Vec<String> = ns.iter().map(|n| n.to_string()).collect();
        println!("no cost figure at n = {}: {why}", ns.join(", "));
    }
    println!(
        "source: golden = the golden model's figure; golden = RTL: co-simulated in Verilator \
         (n ≤ {}) with the RTL's own count equal. Cost: {} ÷ n. {elapsed:.1} s in all.",
        a.cosim_max_n,
        cost::METHOD
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn golden(bits: u64, runs: usize) -> Golden {
        Golden {
            runs,
            bit_times: bits,
            passes: None,
            lower_bound_passes: None,
            formula: None,
            model: "test",
        }
    }

    fn cosim(matched: bool, bits: u64, runs: usize) -> Cosim {
        Cosim {
            matched,
            bit_times: bits,
            runs,
            failure: None,
            seconds: 0.0,
        }
    }

    #[test]
    fn the_source_says_equal_only_when_everything_agrees() {
        let g = golden(91, 1);
        assert_eq!(source(&g, None), SOURCE_GOLDEN);
        assert_eq!(source(&g, Some(&cosim(true, 91, 1))), SOURCE_EQUAL);
        assert_eq!(source(&g, Some(&cosim(true, 92, 1))), SOURCE_DIFFERENT);
        assert_eq!(source(&g, Some(&cosim(false, 91, 1))), SOURCE_DIFFERENT);
        // A co-simulation that stopped early (fewer runs) is not a confirmation.
        assert_eq!(
            source(&golden(91, 7), Some(&cosim(true, 91, 6))),
            SOURCE_DIFFERENT
        );
    }

    #[test]
    fn sizes_and_names_parse_or_name_the_condition() {
        assert_eq!(parse_sizes("8..64").unwrap(), [8, 16, 32, 64]);
        assert_eq!(parse_sizes("64,8, 16,8").unwrap(), [8, 16, 64]);
        for (bad, needle) in [
            ("3", "not a power of two"),
            ("1", "not a power of two"),
            ("8192", "2..=4096"),
            ("64..8", "the range is empty"),
            ("8..", "\"\" is not a positive integer"),
            ("x", "\"x\" is not a positive integer"),
            ("18446744073709551616", "not a positive integer"),
        ] {
            let err = parse_sizes(bad).unwrap_err().to_string();
            assert!(err.contains(needle), "{bad}: {err}");
        }
        assert_eq!(
            split_names("CB(2,2),omega, T(2,1)"),
            ["CB(2,2)", "omega", " T(2,1)"]
        );
        assert_eq!(name_key("CB(2,2)"), name_key("cb-2-2"));
        assert_eq!(name_key("Reverse_Omega"), name_key("reverse-omega"));
    }
}
