//! `lcanet sim hypercube --router quadratic|quadratic-sort`: an H-permutation split into
//! H batches and routed through a batched cube — the quadratic cube
//! (`docs/hypercube.md` §14) or sort-then-pack pipelined on it (§13.3) — co-simulated
//! against its golden model at every bit time; the period and latency measured from the
//! RTL's own `take` and `batches_done`, next to their closed forms.

use super::hypercube::{AlgArg, Args};
use crate::cli::common::print_json;
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::hypercube::cube::router_design;
use lcanet_hdl::hypercube::gtkw::router_gtkw;
use lcanet_hdl::hypercube::Router;
use lcanet_sim::hypercube::generate::random_payloads;
use lcanet_sim::hypercube::hperm::{HPermutation, MAX_H};
use lcanet_sim::hypercube::{qsort, quad, CubeParams};
use lcanet_sim::rng::{derive, seeded};
use lcanet_testbench::hypercube::cosim::CosimOptions;
use lcanet_testbench::hypercube::quad::cosim_batched;
use std::path::PathBuf;

#[derive(serde::Serialize)]
struct Report {
    #[serde(rename = "match")]
    matched: bool,
    k: usize,
    nodes: usize,
    payload_bits: usize,
    router: Router,
    algorithm: &'static str,
    perm: String,
    seed: u64,
    /// H: batches (every PE sends and receives at most H messages).
    h: usize,
    messages: usize,
    /// Messages per batch (the split of the H-permutation).
    batch_messages: Vec<usize>,
    delivered_exactly_once: bool,
    /// The RTL's `bit_time` at the end, and the closed form (quadratic:
    /// `(H + k − 2)·T_p + M + 2`; quadratic-sort: `(H − 1)(M + 1) + S + 2k + L + 3`).
    bit_times: u64,
    expected_bit_times: u64,
    /// Bit times between batch completions (closed form: `T_p = 1 + λ_{k−1}`, or `M + 1`).
    period: u64,
    /// Measured between successive batch completions on the RTL's `batches_done`.
    measured_periods: Vec<u64>,
    /// From a batch's load cycle to its result (closed form: `(k − 1)·T_p + M + 3`, or
    /// `S + 2k + L + 4`).
    latency: u64,
    /// Measured per batch from the RTL's `take` to its `batches_done`.
    measured_latencies: Vec<u64>,
    buffer_bits_per_node: usize,
    flip_flops_per_node: usize,
    mismatch: Option<String>,
    mismatch_node: Option<String>,
    compared_values: u64,
    simulated_bit_times: u64,
    build: String,
    build_seconds: f64,
    cpp_bytes: u64,
    sim_seconds: f64,
    vcd: Option<PathBuf>,
    gtkw: Option<PathBuf>,
}

fn h_permutation(args: &Args, n: usize, seed: u64) -> anyhow::Result<HPermutation> {
    let mut rng = seeded(derive(seed, "hypercube-routing"));
    Ok(match args.perm.as_str() {
        "random" => HPermutation::random(n, args.h.unwrap_or(4), &mut rng)?,
        "packing" => bail!("--perm packing is for Algorithm 1; the quadratic cube takes random or an H-permutation file"),
        path => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading the H-permutation file {path}"))?;
            // Without --h, H is the file's largest count (at least 1).
            let h = match args.h {
                Some(h) => h,
                None => {
                    let loose = HPermutation::parse(&text, n, MAX_H)
                        .with_context(|| format!("{path} is not an H-permutation on {n} nodes"))?;
                    let mut received = vec![0usize; n];
                    let mut sent = vec![0usize; n];
                    for (s, d) in loose.messages() {
                        sent[s] += 1;
                        received[d] += 1;
                    }
                    sent.into_iter().chain(received).max().unwrap_or(0).max(1)
                }
            };
            HPermutation::parse(&text, n, h)
                .with_context(|| format!("{path} is not an H-permutation on {n} nodes"))?
        }
    })
}

/// Runs `lcanet sim hypercube --router quadratic|quadratic-sort`.
pub fn run(args: &Args, p: CubeParams) -> anyhow::Result<Outcome> {
    let router = Router::from(args.router);
    if args.algorithm == AlgArg::Semi {
        bail!("the {router} cube routes batches of permutations only: --algorithm semi needs another --router");
    }
    let seed = args.seed.resolve();
    let n = p.n();
    let hp = h_permutation(args, n, seed)?;
    let (batches, _) = hp.batches();
    let payloads: Vec<Vec<u64>> = batches
        .iter()
        .enumerate()
        .map(|(b, r)| {
            let all = random_payloads(
                n,
                p.payload_bits(),
                &mut seeded(derive(seed, &format!("hypercube-payload {b}"))),
            );
            (0..n)
                .map(|x| if r.dst(x).is_some() { all[x] } else { 0 })
                .collect()
        })
        .collect();
    let gtkw_files = match &args.out.vcd {
        Some(_) => {
            let (design, p) = router_design(router, args.k, args.payload_bits)?;
            Some(router_gtkw(router, &design, p)?)
        }
        None => None,
    };
    let dir = std::env::temp_dir().join(format!(
        "lcanet-hypercube-quad-k{}-l{}-{}",
        p.k(),
        p.payload_bits(),
        std::process::id()
    ));
    let vcd_tmp = args.out.vcd.as_ref().map(|v| {
        let name = v.file_name().unwrap_or_default().to_string_lossy();
        v.with_file_name(format!(".{name}.lcanet-tmp"))
    });
    let opts = CosimOptions {
        verilog_dir: dir.clone(),
        vcd: vcd_tmp.clone(),
        seed: Some(seed),
        optimize: args.out.speed(),
        router: Some(router),
        ..CosimOptions::default()
    };
    let result = cosim_batched(
        router,
        args.k,
        args.payload_bits,
        &batches,
        &payloads,
        &opts,
    );
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
    let h = batches.len();
    let report = Report {
        matched: rep.matched(),
        k: p.k(),
        nodes: n,
        payload_bits: p.payload_bits(),
        router,
        algorithm: router.algorithm().name(),
        perm: args.perm.clone(),
        seed,
        h,
        messages: hp.messages().len(),
        batch_messages: batches.iter().map(|b| b.senders()).collect(),
        delivered_exactly_once: rep.delivers(&batches, &payloads),
        bit_times: rep.bit_times,
        expected_bit_times: match router {
            Router::QuadSort => qsort::total(p, h),
            _ => quad::total(p, h),
        },
        period: match router {
            Router::QuadSort => qsort::period(p),
            _ => quad::period(p),
        },
        measured_periods: rep.periods(),
        latency: match router {
            Router::QuadSort => qsort::latency(p),
            _ => quad::latency(p),
        },
        measured_latencies: rep.latencies(),
        buffer_bits_per_node: router.buffer_bits_per_node(p),
        flip_flops_per_node: router.flip_flops_per_node(p),
        mismatch: rep.mismatch.as_ref().map(|m| m.to_string()),
        mismatch_node: rep.mismatch_node.as_ref().map(|d| d.to_string()),
        compared_values: rep.stats.compared_values,
        simulated_bit_times: rep.stats.bit_times,
        build: format!("{:?}", rep.build).to_lowercase(),
        build_seconds: rep.build_time.as_secs_f64(),
        cpp_bytes: rep.cpp_bytes,
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
    if !report.delivered_exactly_once {
        bail!("the RTL matched the model, but not every message was delivered exactly once");
    }
    Ok(Outcome::Success)
}

fn print_text(r: &Report) {
    println!(
        "{} {}-cube ({} nodes), {}-bit payloads, {} messages in H = {} batches {:?}, routing {}, seed {}",
        r.router, r.k, r.nodes, r.payload_bits, r.messages, r.h, r.batch_messages, r.perm, r.seed
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
        "bit times: {} (model {}); period {} (measured {:?}); latency {} (measured {:?})",
        r.bit_times,
        r.expected_bit_times,
        r.period,
        r.measured_periods,
        r.latency,
        r.measured_latencies
    );
    println!(
        "per node: {} buffer bits, {} flip-flops",
        r.buffer_bits_per_node, r.flip_flops_per_node
    );
    if r.delivered_exactly_once {
        println!("every message delivered exactly once, payload bit-exact, batch by batch");
    } else {
        println!("NOT every message was delivered exactly once");
    }
    println!(
        "model build: {} in {:.2} s ({} C++ bytes); simulation {:.3} s",
        r.build, r.build_seconds, r.cpp_bytes, r.sim_seconds
    );
    match (&r.vcd, &r.gtkw) {
        (Some(v), Some(g)) => println!("{}", super::waveforms_line(v, g)),
        (Some(v), None) => println!("VCD: {}", v.display()),
        _ => {}
    }
}
