//! `lcanet bench hypercube`: every hypercube router measured side by side for a range of
//! `k` (`docs/hypercube.md` §15): the bit times of one random permutation read from the
//! co-simulated RTL's `bit_time` (which matched the golden model at every bit time)
//! next to the golden model's closed form, the message-buffer bits and flip-flops per
//! node, and with `--yosys` the iCE40 LUTs and flip-flops of one node router from Yosys.
//! One JSON document (`--json`, and `hypercube.json` under `--out`) and SVG plots
//! (`bit_times.svg`, `cost.svg`) under `--out`, written once everything was measured.

use super::svg::{Dash, Marker, Plot, Point, Scale, Series};
use crate::cli::common::{print_json, write_atomic, SeedArg, Staged};
use crate::cli::generate::hypercube::RouterArg;
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::hypercube::{hw_params, Router, MAX_HW_K};
use lcanet_sim::hypercube::generate::random_payloads;
use lcanet_sim::hypercube::hperm::{HPermutation, MAX_H};
use lcanet_sim::hypercube::timing::total_bit_times;
use lcanet_sim::hypercube::{qsort, quad, CubeParams};
use lcanet_sim::perm::Permutation;
use lcanet_sim::rng::{derive, seeded};
use lcanet_testbench::hypercube::cosim::{cosim, emit_router, CosimOptions};
use lcanet_testbench::hypercube::quad::cosim_batched;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `lcanet bench hypercube`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
For every k of --k and every router, one random permutation (from --seed, the same for
every router) is co-simulated on the router's cube: RTL against the golden model at
every bit time. Reported per (k, router): bit_times read from the RTL next to the
closed form of docs/hypercube.md, match and delivery, buffer bits and flip-flops per node
(formula), build and simulation seconds; with --yosys, Yosys' iCE40 LUTs and flip-flops
of one node router for the k of --yosys-k. Above --cosim-max-k only the formula is
reported (cosimulated: false). Examples:
  lcanet bench hypercube --k 2..6 --json
  lcanet bench hypercube --k 2..10 --yosys --yosys-k 4..10 --out docs/results/hypercube --seed 1
K ranges: A..B (inclusive) or A, 1 <= A <= B <= 12.")]
pub struct Args {
    /// Cube dimensions to measure: A..B (inclusive) or A.
    #[arg(long, default_value = "2..6", value_parser = parse_k_range)]
    k: (usize, usize),
    /// Payload bits per message (1..=64).
    #[arg(long, default_value_t = 8)]
    payload_bits: usize,
    /// Routers to measure, comma-separated (default: all).
    #[arg(long, value_enum, value_delimiter = ',')]
    routers: Vec<RouterArg>,
    /// Co-simulate only up to this k; above it, report the golden model's formula alone.
    #[arg(long, default_value_t = 10)]
    cosim_max_k: usize,
    /// The same for the batched cubes (k loop units, or k(k+1)/2 sort stages, per node:
    /// their Verilated models grow about k times faster).
    #[arg(long, default_value_t = 7)]
    quad_max_k: usize,
    /// Batches the batched cubes route (an H-permutation, H random permutations
    /// superposed): 1..=255.
    #[arg(long, default_value_t = 4)]
    batches: usize,
    /// Also synthesize one node router per (k, router) with Yosys (iCE40).
    #[arg(long)]
    yosys: bool,
    /// The k of the Yosys runs: A..B or A (default 4..10, within --k or not).
    #[arg(long, default_value = "4..10", value_parser = parse_k_range)]
    yosys_k: (usize, usize),
    /// Seed of the permutations and payloads.
    #[command(flatten)]
    seed: SeedArg,
    /// Write hypercube.json and the SVG plots into this directory.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print the report as one JSON document.
    #[arg(long)]
    json: bool,
}

/// `A..B` (inclusive) or `A`, with `1 <= A <= B <= 12`.
pub fn parse_k_range(s: &str) -> Result<(usize, usize), String> {
    let num = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{t}' is not a cube dimension (a whole number)"))
    };
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (num(a)?, num(b)?),
        None => {
            let a = num(s)?;
            (a, a)
        }
    };
    if a == 0 || b > MAX_HW_K || a > b {
        return Err(format!(
            "'{s}' is not a range of cube dimensions A..B with 1 <= A <= B <= {MAX_HW_K}"
        ));
    }
    Ok((a, b))
}

/// Longest file name component the output path may have (`NAME_MAX` of Linux and macOS).
const NAME_MAX: usize = 255;

/// Refuses an output path with a component too long to create, before any work (the
/// staging directory is made beside the output, so only the final move would fail).
fn check_names(out: &std::path::Path) -> anyhow::Result<()> {
    for c in out.components() {
        let len = c.as_os_str().len();
        if len > NAME_MAX {
            bail!(
                "--out {}: File name too long (a component of {len} bytes; at most {NAME_MAX})",
                out.display()
            );
        }
    }
    Ok(())
}

/// Yosys' count for one node router.
#[derive(Debug, Clone, Serialize)]
struct Cost {
    module: String,
    flip_flops: u64,
    luts: u64,
}

/// One (k, router) measurement.
#[derive(Debug, Clone, Serialize)]
struct Record {
    k: usize,
    nodes: usize,
    payload_bits: usize,
    router: Router,
    /// The permutation routing this router runs (`full`, `full-sequential`, `sort`).
    algorithm: &'static str,
    /// The closed form of `docs/hypercube.md` (the golden model's count).
    formula_bit_times: u64,
    /// Whether the RTL was co-simulated (k <= --cosim-max-k).
    cosimulated: bool,
    /// The RTL's `bit_time` at the end of the run.
    rtl_bit_times: Option<u64>,
    /// The RTL matched the golden model at every bit time.
    #[serde(rename = "match")]
    matched: Option<bool>,
    delivered_exactly_once: Option<bool>,
    buffer_bits_per_node: usize,
    flip_flops_per_node: usize,
    yosys_node: Option<Cost>,
    build_seconds: Option<f64>,
    sim_seconds: Option<f64>,
    /// A batched cube (quadratic, quadratic-sort): batches routed, and its period and
    /// latency (closed form and measured on the RTL).
    quadratic: Option<QuadFigures>,
}

/// The quadratic cube's throughput figures.
#[derive(Debug, Clone, Serialize)]
struct QuadFigures {
    batches: usize,
    /// `T_p`: bit times between batch completions.
    period: u64,
    /// Measured between successive completions (the RTL's `batches_done`).
    measured_periods: Vec<u64>,
    /// `(k − 1)·T_p + M + 3`: from a batch's load cycle to its result.
    latency: u64,
    /// Measured per batch (the RTL's `take` to its `batches_done`).
    measured_latencies: Vec<u64>,
}

#[derive(Debug, Serialize)]
struct Report {
    seed: u64,
    payload_bits: usize,
    k_min: usize,
    k_max: usize,
    records: Vec<Record>,
    /// Per k: overlapped over sequential bit times, sort over overlapped (formula).
    ratios: Vec<Ratio>,
    /// Every co-simulated run matched and delivered every message exactly once.
    all_matched: bool,
    files: Vec<PathBuf>,
}

#[derive(Debug, Serialize)]
struct Ratio {
    k: usize,
    sequential_over_overlapped: f64,
    overlapped_over_sort: f64,
}

/// The closed form: one permutation's bit times, or for a batched cube a run of
/// `batches` batches.
fn formula(p: CubeParams, router: Router, batches: usize) -> u64 {
    match router {
        Router::Quadratic => quad::total(p, batches),
        Router::QuadSort => qsort::total(p, batches),
        _ => total_bit_times(p, router.algorithm()),
    }
}

/// A batched cube's period and latency (closed forms).
fn batch_timing(p: CubeParams, router: Router) -> (u64, u64) {
    match router {
        Router::QuadSort => (qsort::period(p), qsort::latency(p)),
        _ => (quad::period(p), quad::latency(p)),
    }
}

fn routers(args: &Args) -> Vec<Router> {
    if args.routers.is_empty() {
        Router::ALL.to_vec()
    } else {
        let mut r: Vec<Router> = args.routers.iter().map(|&a| Router::from(a)).collect();
        r.dedup();
        r
    }
}

/// Runs `lcanet bench hypercube`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let seed = args.seed.resolve();
    let l = args.payload_bits;
    let (k_min, k_max) = args.k;
    hw_params(k_min, l)?;
    for (flag, v) in [
        ("cosim-max-k", args.cosim_max_k),
        ("quad-max-k", args.quad_max_k),
    ] {
        if v > MAX_HW_K {
            bail!("--{flag} {v} is out of range: it must satisfy {flag} <= {MAX_HW_K}");
        }
    }
    if !(1..=MAX_H).contains(&args.batches) {
        bail!(
            "--batches {} is out of range: it must satisfy 1 <= batches <= {MAX_H}",
            args.batches
        );
    }
    // The output is staged now, so that a path that cannot be a directory is refused
    // before any work, and nothing appears there unless everything was measured.
    if let Some(out) = &args.out {
        check_names(out)?;
    }
    let staged = args.out.as_deref().map(Staged::new).transpose()?;
    let routers = routers(&args);
    let work = tempfile::tempdir().context("creating a work directory")?;
    let mut records = Vec::new();
    for k in k_min..=k_max {
        let p = hw_params(k, l)?;
        let n = p.n();
        let perm = Permutation::random(n, &mut seeded(derive(seed, &format!("k{k}")))).to_partial();
        let payloads = random_payloads(n, l, &mut seeded(derive(seed, &format!("payload k{k}"))));
        for &router in &routers {
            let alg = router.algorithm();
            let quadratic = router.is_batched();
            let max_k = if quadratic {
                args.quad_max_k
            } else {
                args.cosim_max_k
            };
            let mut rec = Record {
                k,
                nodes: n,
                payload_bits: l,
                router,
                algorithm: alg.name(),
                formula_bit_times: formula(p, router, args.batches),
                cosimulated: k <= max_k,
                rtl_bit_times: None,
                matched: None,
                delivered_exactly_once: None,
                buffer_bits_per_node: router.buffer_bits_per_node(p),
                flip_flops_per_node: router.flip_flops_per_node(p),
                yosys_node: None,
                build_seconds: None,
                sim_seconds: None,
                quadratic: quadratic.then(|| {
                    let (period, latency) = batch_timing(p, router);
                    QuadFigures {
                        batches: args.batches,
                        period,
                        measured_periods: Vec::new(),
                        latency,
                        measured_latencies: Vec::new(),
                    }
                }),
            };
            if rec.cosimulated && quadratic {
                eprintln!(
                    "bench hypercube: k = {k}, {router}: co-simulating {} batches …",
                    args.batches
                );
                let hp = HPermutation::random(
                    n,
                    args.batches,
                    &mut seeded(derive(seed, &format!("hperm k{k}"))),
                )?;
                let (batches, _) = hp.batches();
                let pays: Vec<Vec<u64>> = batches
                    .iter()
                    .enumerate()
                    .map(|(b, r)| {
                        let all = random_payloads(
                            n,
                            l,
                            &mut seeded(derive(seed, &format!("payload k{k} batch {b}"))),
                        );
                        (0..n)
                            .map(|x| if r.dst(x).is_some() { all[x] } else { 0 })
                            .collect()
                    })
                    .collect();
                let opts = CosimOptions {
                    verilog_dir: work.path().join(format!("{router}_k{k}")),
                    seed: Some(seed),
                    router: Some(router),
                    ..CosimOptions::default()
                };
                let t0 = Instant::now();
                let r = cosim_batched(router, k, l, &batches, &pays, &opts)?;
                rec.rtl_bit_times = Some(r.bit_times);
                rec.matched = Some(r.matched());
                rec.delivered_exactly_once = Some(r.delivers(&batches, &pays));
                rec.build_seconds = Some(r.build_time.as_secs_f64());
                rec.sim_seconds = Some(r.sim_time.as_secs_f64());
                if let Some(q) = &mut rec.quadratic {
                    q.measured_periods = r.periods();
                    q.measured_latencies = r.latencies();
                }
                eprintln!(
                    "bench hypercube: k = {k}, {router}: {} bit times (formula {}), period {:?}, match {}, {:.1} s",
                    r.bit_times,
                    rec.formula_bit_times,
                    r.periods(),
                    r.matched(),
                    t0.elapsed().as_secs_f64()
                );
            } else if rec.cosimulated {
                eprintln!("bench hypercube: k = {k}, {router}: co-simulating …");
                let opts = CosimOptions {
                    verilog_dir: work.path().join(format!("{router}_k{k}")),
                    seed: Some(seed),
                    router: Some(router),
                    ..CosimOptions::default()
                };
                let t0 = Instant::now();
                let r = cosim(k, l, alg, &perm, &payloads, &opts)?;
                rec.rtl_bit_times = Some(r.bit_times);
                rec.matched = Some(r.matched());
                rec.delivered_exactly_once = Some(r.delivers(&perm, &payloads));
                rec.build_seconds = Some(r.build_time.as_secs_f64());
                rec.sim_seconds = Some(r.sim_time.as_secs_f64());
                eprintln!(
                    "bench hypercube: k = {k}, {router}: {} bit times (formula {}), match {}, {:.1} s",
                    r.bit_times,
                    rec.formula_bit_times,
                    r.matched(),
                    t0.elapsed().as_secs_f64()
                );
            }
            if args.yosys && (args.yosys_k.0..=args.yosys_k.1).contains(&k) {
                eprintln!("bench hypercube: k = {k}, {router}: Yosys …");
                let dir = work.path().join(format!("yosys_{router}_k{k}"));
                let design = emit_router(router, k, l, &dir)?;
                let module = router.node_name(p);
                let s = lcanet_testbench::tools::yosys::synth_ice40(&design.files, &module)
                    .with_context(|| format!("synthesizing {module} with Yosys"))?;
                rec.yosys_node = Some(Cost {
                    module,
                    flip_flops: s.ffs,
                    luts: s.luts,
                });
            }
            records.push(rec);
        }
    }
    // Yosys for the k of --yosys-k outside --k: cost alone.
    if args.yosys {
        for k in (args.yosys_k.0..=args.yosys_k.1).filter(|k| !(k_min..=k_max).contains(k)) {
            let p = hw_params(k, l)?;
            for &router in &routers {
                eprintln!("bench hypercube: k = {k}, {router}: Yosys …");
                let dir = work.path().join(format!("yosys_{router}_k{k}"));
                let design = emit_router(router, k, l, &dir)?;
                let module = router.node_name(p);
                let s = lcanet_testbench::tools::yosys::synth_ice40(&design.files, &module)
                    .with_context(|| format!("synthesizing {module} with Yosys"))?;
                records.push(Record {
                    k,
                    nodes: p.n(),
                    payload_bits: l,
                    router,
                    algorithm: router.algorithm().name(),
                    formula_bit_times: formula(p, router, args.batches),
                    cosimulated: false,
                    rtl_bit_times: None,
                    matched: None,
                    delivered_exactly_once: None,
                    buffer_bits_per_node: router.buffer_bits_per_node(p),
                    flip_flops_per_node: router.flip_flops_per_node(p),
                    yosys_node: Some(Cost {
                        module,
                        flip_flops: s.ffs,
                        luts: s.luts,
                    }),
                    build_seconds: None,
                    sim_seconds: None,
                    quadratic: None,
                });
            }
        }
        records.sort_by_key(|r| r.k);
    }
    let ratios = (k_min..=k_max)
        .map(|k| {
            let p = hw_params(k, l).expect("checked above");
            let t = |r: Router| total_bit_times(p, r.algorithm()) as f64;
            Ratio {
                k,
                sequential_over_overlapped: t(Router::Sequential) / t(Router::Overlapped),
                overlapped_over_sort: t(Router::Overlapped) / t(Router::Sort),
            }
        })
        .collect();
    let all_matched = records
        .iter()
        .all(|r| r.matched != Some(false) && r.delivered_exactly_once != Some(false));
    let mut report = Report {
        seed,
        payload_bits: l,
        k_min,
        k_max,
        records,
        ratios,
        all_matched,
        files: Vec::new(),
    };
    if let (Some(out), Some(staged)) = (&args.out, staged) {
        let plots = plots(&report)?;
        let names: Vec<String> = plots
            .iter()
            .map(|(n, _)| n.clone())
            .chain(["hypercube.json".to_string()])
            .collect();
        report.files = names.iter().map(|n| out.join(n)).collect();
        for (name, text) in &plots {
            write_atomic(&staged.path().join(name), text.as_bytes())?;
        }
        let json = serde_json::to_string_pretty(&report)?;
        write_atomic(&staged.path().join("hypercube.json"), json.as_bytes())?;
        staged.commit()?;
    }
    if args.json {
        print_json(&report)?;
    } else {
        print_text(&report);
    }
    Ok(if report.all_matched {
        Outcome::Success
    } else {
        Outcome::Mismatch
    })
}

fn colour(r: Router) -> &'static str {
    match r {
        Router::Overlapped => "#1f77b4",
        Router::Sequential => "#d62728",
        Router::Sort => "#2ca02c",
        Router::Quadratic => "#9467bd",
        Router::QuadSort => "#8c564b",
    }
}

/// A record's figure, if it has one.
type PerRecord = Box<dyn Fn(&Record) -> Option<f64>>;

fn plots(report: &Report) -> anyhow::Result<Vec<(String, String)>> {
    let mut routers: Vec<Router> = report.records.iter().map(|r| r.router).collect();
    routers.dedup();
    routers.sort_by_key(|r| Router::ALL.iter().position(|x| x == r));
    routers.dedup();
    let pts = |router: Router, f: &dyn Fn(&Record) -> Option<f64>| -> Vec<Point> {
        report
            .records
            .iter()
            .filter(|r| r.router == router)
            .filter_map(|r| {
                f(r).map(|y| Point {
                    x: r.k as f64,
                    y,
                    range: None,
                })
            })
            .collect()
    };
    let mut out = Vec::new();
    // Per router, what a permutation costs: a flat cube's run; the quadratic cube's
    // period (one batch every T_p) and latency.
    let mut series = Vec::new();
    let mut bounds = Vec::new();
    for &r in &routers {
        let lines: Vec<(String, Dash, Marker, PerRecord, PerRecord)> = if r.is_batched() {
            vec![
                (
                    format!("{r}: period"),
                    Dash::Solid,
                    Marker::Square,
                    Box::new(|x: &Record| {
                        let q = x.quadratic.as_ref()?;
                        let n = q.measured_periods.len().max(1) as f64;
                        (!q.measured_periods.is_empty())
                            .then(|| q.measured_periods.iter().sum::<u64>() as f64 / n)
                    }),
                    Box::new(|x: &Record| x.quadratic.as_ref().map(|q| q.period as f64)),
                ),
                (
                    format!("{r}: latency"),
                    Dash::Solid,
                    Marker::Triangle,
                    Box::new(|x: &Record| {
                        let q = x.quadratic.as_ref()?;
                        q.measured_latencies.first().map(|&v| v as f64)
                    }),
                    Box::new(|x: &Record| x.quadratic.as_ref().map(|q| q.latency as f64)),
                ),
            ]
        } else {
            vec![(
                r.name().to_string(),
                Dash::Solid,
                Marker::Circle,
                Box::new(|x: &Record| x.rtl_bit_times.map(|b| b as f64)),
                Box::new(|x: &Record| Some(x.formula_bit_times as f64)),
            )]
        };
        for (name, dash, marker, rtl, formula) in lines {
            series.push(Series {
                name: format!("{name} (RTL)"),
                color: colour(r).into(),
                dash,
                marker,
                points: pts(r, &*rtl),
            });
            bounds.push(Series {
                name: format!("{name} (formula)"),
                color: colour(r).into(),
                dash: Dash::Dashed,
                marker: Marker::None,
                points: pts(r, &*formula),
            });
        }
    }
    series.retain(|s| !s.points.is_empty());
    bounds.retain(|s| !s.points.is_empty());
    let bits = Plot {
        title: format!(
            "Bit times per permutation (L = {}): co-simulated RTL (markers), closed form (dashed)",
            report.payload_bits
        ),
        x_label: "k (2^k nodes)".into(),
        y_label: "bit times (log10)".into(),
        x_scale: Scale::Linear,
        y_scale: Scale::Log10,
        series,
        bounds,
    };
    out.push(("bit_times.svg".to_string(), bits.render()?));
    let has_yosys = report.records.iter().any(|r| r.yosys_node.is_some());
    if has_yosys {
        let mut series = Vec::new();
        for &r in &routers {
            series.push(Series {
                name: format!("{r}: LUTs"),
                color: colour(r).into(),
                dash: Dash::Solid,
                marker: Marker::Square,
                points: pts(r, &|x| x.yosys_node.as_ref().map(|c| c.luts as f64)),
            });
            series.push(Series {
                name: format!("{r}: flip-flops"),
                color: colour(r).into(),
                dash: Dash::Dotted,
                marker: Marker::Triangle,
                points: pts(r, &|x| x.yosys_node.as_ref().map(|c| c.flip_flops as f64)),
            });
        }
        series.retain(|s| !s.points.is_empty());
        let cost = Plot {
            title: format!(
                "One node router in iCE40 (Yosys synth_ice40), L = {}",
                report.payload_bits
            ),
            x_label: "k (2^k nodes)".into(),
            y_label: "cells per node router".into(),
            x_scale: Scale::Linear,
            y_scale: Scale::Linear,
            series,
            bounds: Vec::new(),
        };
        out.push(("cost.svg".to_string(), cost.render()?));
    }
    Ok(out)
}

fn print_text(r: &Report) {
    println!(
        "{:>3} {:>12} {:>16} {:>10} {:>10} {:>6} {:>8} {:>8} {:>8}",
        "k", "router", "algorithm", "formula", "RTL", "match", "buf/node", "FF/node", "LUT/node"
    );
    for x in &r.records {
        let opt = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
        println!(
            "{:>3} {:>12} {:>16} {:>10} {:>10} {:>6} {:>8} {:>8} {:>8}",
            x.k,
            x.router.name(),
            x.algorithm,
            x.formula_bit_times,
            opt(x.rtl_bit_times),
            x.matched.map_or("-", |m| if m { "yes" } else { "NO" }),
            x.buffer_bits_per_node,
            x.yosys_node.as_ref().map_or_else(
                || format!("({})", x.flip_flops_per_node),
                |c| c.flip_flops.to_string()
            ),
            opt(x.yosys_node.as_ref().map(|c| c.luts)),
        );
    }
    for x in r.records.iter().filter(|x| x.quadratic.is_some()) {
        let q = x.quadratic.as_ref().expect("filtered");
        println!(
            "k = {}: {}, {} batches: one every {} bit times (measured {:?}), latency {} (measured {:?})",
            x.k, x.router, q.batches, q.period, q.measured_periods, q.latency, q.measured_latencies
        );
    }
    for q in &r.ratios {
        println!(
            "k = {}: sequential / overlapped = {:.2}, overlapped / sort = {:.2}",
            q.k, q.sequential_over_overlapped, q.overlapped_over_sort
        );
    }
    for f in &r.files {
        println!("wrote {}", f.display());
    }
    if !r.all_matched {
        println!("SOME RUNS DID NOT MATCH THE GOLDEN MODEL (see the records)");
    }
}
