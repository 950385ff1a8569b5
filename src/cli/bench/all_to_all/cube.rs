//! The hypercube entries of `bench all-to-all`: Kuszmaul's routers (docs/hypercube.md)
//! running the `n − 1` permutations `j ↦ j ⊕ c`.
//!
//! - `alg2`: Algorithm 2 on the overlapped router (§12), one permutation after the other;
//!   `alg2-seq` the same on the paper's sequential schedule, `k(14k + 3L + 9)` each;
//!   `sort`: sort-then-pack (§13). The golden model routes every permutation at message
//!   level (`alg2::route_full` with its invariants checked at every loop, or
//!   `sort::route_sort`) and prices it with the router's closed form.
//! - `alg1`: Algorithm 1 (one routing phase, `2k + L + 2` bit-times). `j ⊕ c` is not a
//!   semi-contraction (Definition 3 measures `|f(a) − f(b)|` on integers), so Lemma 1
//!   does not apply; but ascending dimension order keeps the frames apart (after
//!   dimensions `0..d` a message from `j` is at `j ⊕ (c mod 2^(d+1))`, distinct for
//!   distinct `j`), and the golden model (`semi::route_semi`, which detects every
//!   collision) checks each permutation.
//! - `quadratic` / `quadratic-sort`: the batched cubes (§14, §13.3): the permutations are
//!   batches, pipelined, one run per [`MAX_H`] batches (the hardware's batch limit), each
//!   run `(H + k − 2)·T_p + M + 2` (quadratic) or `(H − 1)(M + 1) + S + 2k + L + 3`
//!   bit-times (`quad::total`, `qsort::total`); every batch routed at message level as on
//!   the flat cube, and co-simulated at small `n` against the cycle-level models.

use super::table::{xor_permutation, Cosim, Exchange, Family, Golden, Hardware, Params};
use anyhow::Context;
use lcanet_hdl::hypercube::cube::router_design;
use lcanet_hdl::hypercube::{hw_params, Router, MAX_HW_K};
use lcanet_sim::hypercube::hperm::MAX_H;
use lcanet_sim::hypercube::timing::{total_bit_times, Algorithm};
use lcanet_sim::hypercube::CubeParams;
use lcanet_sim::hypercube::{alg2::route_full, qsort, quad, semi::route_semi, sort};
use lcanet_sim::perm::PartialPermutation;
use lcanet_sim::rng::{derive, seeded};
use lcanet_testbench::hypercube::cosim::{cosim, CosimOptions};
use lcanet_testbench::hypercube::quad::cosim_batched;
use std::path::Path;
use std::time::Instant;

/// Which router (and algorithm) runs the permutations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CubeAlg {
    /// Algorithm 2, overlapped schedule (the default router).
    Alg2,
    /// Algorithm 2, the paper's sequential schedule.
    Alg2Seq,
    /// Sort-then-pack on the flat cube.
    Sort,
    /// Algorithm 1 (collision-free on `j ⊕ c`, checked).
    Alg1,
    /// The quadratic cube: Algorithm 2 on pipelined batches.
    Quad,
    /// Sort-then-pack pipelined on the quadratic cube.
    QuadSort,
}

/// The hypercube router with one algorithm.
pub struct Cube(pub CubeAlg);

impl Cube {
    /// What the router's `algorithm` input selects for each permutation (the batched
    /// cubes: what each batch goes through).
    fn alg(&self) -> Algorithm {
        match self.0 {
            CubeAlg::Alg2 | CubeAlg::Quad => Algorithm::Full,
            CubeAlg::Alg2Seq => Algorithm::FullSequential,
            CubeAlg::Sort | CubeAlg::QuadSort => Algorithm::Sort,
            CubeAlg::Alg1 => Algorithm::Semi,
        }
    }

    /// The router whose RTL runs the exchange.
    fn router(&self) -> Router {
        match self.0 {
            CubeAlg::Quad => Router::Quadratic,
            CubeAlg::QuadSort => Router::QuadSort,
            _ => Router::for_algorithm(self.alg()),
        }
    }

    fn params(n: usize, p: &Params) -> anyhow::Result<CubeParams> {
        anyhow::ensure!(
            n.is_power_of_two() && n >= 2,
            "a k-cube has n = 2^k ≥ 2 nodes, not {n}"
        );
        Ok(hw_params(n.trailing_zeros() as usize, p.message_bits)?)
    }

    /// Payloads of permutation `c` (random, reproducible from the run's seed).
    fn payloads(n: usize, p: &Params, c: usize) -> Vec<u64> {
        lcanet_sim::hypercube::generate::random_payloads(
            n,
            p.message_bits,
            &mut seeded(derive(p.seed, &format!("all-to-all cube {c}"))),
        )
    }

    fn routing(n: usize, c: usize) -> PartialPermutation {
        xor_permutation(n, c).to_partial()
    }

    /// The batched cubes' runs: `c = 1 … n − 1` in chunks of at most [`MAX_H`] batches.
    fn runs(n: usize) -> Vec<std::ops::Range<usize>> {
        (1..n)
            .step_by(MAX_H)
            .map(|c| c..(c + MAX_H).min(n))
            .collect()
    }
}

impl Exchange for Cube {
    fn family(&self) -> Family {
        Family::Hypercube
    }

    fn network(&self) -> String {
        "hypercube".into()
    }

    fn algorithm(&self) -> &'static str {
        match self.0 {
            CubeAlg::Alg2 => "alg2",
            CubeAlg::Alg2Seq => "alg2-seq",
            CubeAlg::Sort => "sort",
            CubeAlg::Alg1 => "alg1",
            CubeAlg::Quad => "quadratic",
            CubeAlg::QuadSort => "quadratic-sort",
        }
    }

    fn exists(&self, n: usize) -> bool {
        n.is_power_of_two() && (2..=1 << MAX_HW_K).contains(&n)
    }

    fn golden(&self, n: usize, p: &Params, _jobs: usize) -> anyhow::Result<Golden> {
        let params = Self::params(n, p)?;
        let k = params.k();
        for c in 1..n {
            let routing = Self::routing(n, c);
            let delivered = match self.alg() {
                Algorithm::Full | Algorithm::FullSequential => {
                    let tr = route_full(params, &routing, &Self::payloads(n, p, c))?;
                    routing
                        .pairs()
                        .all(|(s, d)| tr.placement[d].as_ref().is_some_and(|m| m.src == s))
                }
                Algorithm::Sort => {
                    let out = sort::route_sort(params, &routing)?;
                    routing.pairs().all(|(s, d)| out.placement[d] == Some(s))
                }
                Algorithm::Semi => route_semi(k, &routing)?.delivers(&routing),
            };
            anyhow::ensure!(
                delivered,
                "{} does not deliver j ⊕ {c} on the {k}-cube",
                self.algorithm()
            );
        }
        let l = p.message_bits;
        let (runs, bit_times) = match self.0 {
            CubeAlg::Quad | CubeAlg::QuadSort => {
                let total = |h| match self.0 {
                    CubeAlg::Quad => quad::total(params, h),
                    _ => qsort::total(params, h),
                };
                let runs = Self::runs(n);
                (runs.len(), runs.iter().map(|r| total(r.len())).sum())
            }
            _ => (n - 1, total_bit_times(params, self.alg()) * (n as u64 - 1)),
        };
        Ok(Golden {
            runs,
            bit_times,
            passes: None,
            lower_bound_passes: None,
            formula: Some(match self.0 {
                CubeAlg::Alg2 => {
                    format!("(n − 1)·T_overlapped(k), L = {l} (docs/hypercube.md §12.3)")
                }
                CubeAlg::Alg2Seq => format!("(n − 1)·k(14k + 3L + 9), L = {l}"),
                CubeAlg::Sort => format!("(n − 1)·(k(M + 3) + k(k − 1)/2 + 2k + L + 2), L = {l}"),
                CubeAlg::Alg1 => format!("(n − 1)·(2k + L + 2), L = {l}"),
                CubeAlg::Quad => {
                    format!("Σ over runs of H ≤ {MAX_H} batches: (H + k − 2)·T_p + M + 2, L = {l}")
                }
                CubeAlg::QuadSort => format!(
                    "Σ over runs of H ≤ {MAX_H} batches: (H − 1)(M + 1) + S + 2k + L + 3, L = {l}"
                ),
            }),
            model: match self.alg() {
                Algorithm::Full | Algorithm::FullSequential => {
                    "hypercube::alg2::route_full + the router's closed form"
                }
                Algorithm::Sort => "hypercube::sort::route_sort + the router's closed form",
                Algorithm::Semi => "hypercube::semi::route_semi + timing::total_bit_times",
            },
        })
    }

    /// One run per permutation against the cycle-level model (`hypercube::cycle`), every
    /// output every bit-time; the RTL's `bit_time` at `done`, summed.
    fn cosim(&self, n: usize, p: &Params, dir: &Path) -> anyhow::Result<Cosim> {
        let params = Self::params(n, p)?;
        let started = Instant::now();
        let opts = CosimOptions {
            verilog_dir: dir.to_path_buf(),
            vcd_on_mismatch: Some(dir.join("failure.vcd")),
            seed: Some(p.seed),
            router: Some(self.router()),
            ..CosimOptions::default()
        };
        let mut out = Cosim::none_yet();
        if matches!(self.0, CubeAlg::Quad | CubeAlg::QuadSort) {
            for run in Self::runs(n) {
                let batches: Vec<_> = run.clone().map(|c| Self::routing(n, c)).collect();
                let payloads: Vec<_> = run.clone().map(|c| Self::payloads(n, p, c)).collect();
                let r = cosim_batched(
                    self.router(),
                    params.k(),
                    p.message_bits,
                    &batches,
                    &payloads,
                    &opts,
                )
                .with_context(|| format!("co-simulating batches j ⊕ {run:?} on the hypercube"))?;
                out.runs += 1;
                out.bit_times += r.bit_times;
                if !r.matched() || !r.delivers(&batches, &payloads) {
                    out.matched = false;
                    out.failure = Some(match &r.mismatch {
                        Some(m) => format!("batches j ⊕ {run:?}: {m}"),
                        None => format!("batches j ⊕ {run:?}: not delivered exactly once"),
                    });
                    break;
                }
            }
            out.seconds = started.elapsed().as_secs_f64();
            return Ok(out);
        }
        for c in 1..n {
            let (routing, payloads) = (Self::routing(n, c), Self::payloads(n, p, c));
            let r = cosim(
                params.k(),
                p.message_bits,
                self.alg(),
                &routing,
                &payloads,
                &opts,
            )
            .with_context(|| format!("co-simulating j ⊕ {c} on the hypercube"))?;
            out.runs += 1;
            out.bit_times += r.bit_times;
            if !r.matched() || !r.delivers(&routing, &payloads) {
                out.matched = false;
                out.failure = Some(match &r.mismatch {
                    Some(m) => format!("permutation j ⊕ {c}: {m}"),
                    None => format!("permutation j ⊕ {c}: not delivered exactly once"),
                });
                break;
            }
        }
        out.seconds = started.elapsed().as_secs_f64();
        Ok(out)
    }

    fn hardware(&self, n: usize, p: &Params, dir: &Path) -> anyhow::Result<Hardware> {
        let params = Self::params(n, p)?;
        let (design, _) = router_design(self.router(), params.k(), p.message_bits)?;
        let emitted = design.emit()?;
        let files = emitted.write_to(dir)?;
        Ok(Hardware {
            top: emitted.top.clone(),
            files,
        })
    }
}
