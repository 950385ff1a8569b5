//! The hypercube entries of `bench all-to-all`: Kuszmaul's router (docs/hypercube.md)
//! running the `n − 1` permutations `j ↦ j ⊕ c` one after the other.
//!
//! - `alg2`: Algorithm 2, which routes any permutation in `k(14k + 3L + 9)` bit-times
//!   (§6; data-independent: every loop runs all six phases at full length). The golden
//!   model routes every permutation at message level (`alg2::route_full`, its invariants
//!   checked at every loop) and prices it with the protocol's schedule.
//! - `alg1`: Algorithm 1 (one routing phase, `2k + L + 2` bit-times). `j ⊕ c` is not a
//!   semi-contraction (Definition 3 measures `|f(a) − f(b)|` on integers), so Lemma 1
//!   does not apply; but ascending dimension order keeps the frames apart (after
//!   dimensions `0..d` a message from `j` is at `j ⊕ (c mod 2^(d+1))`, distinct for
//!   distinct `j`), and the golden model (`semi::route_semi`, which detects every
//!   collision) checks each permutation. It is the cheapest exchange this router has.
//!
//! A faster Algorithm 2 schedule or a batched cube is one more [`CubeAlg`] variant.

use super::table::{xor_permutation, Cosim, Exchange, Family, Golden, Hardware, Params};
use anyhow::Context;
use lcanet_hdl::hypercube::cube::cube_design;
use lcanet_hdl::hypercube::{hw_params, MAX_HW_K};
use lcanet_sim::hypercube::timing::{total_bit_times, Algorithm};
use lcanet_sim::hypercube::{alg2::route_full, semi::route_semi, CubeParams};
use lcanet_sim::perm::PartialPermutation;
use lcanet_sim::rng::{derive, seeded};
use lcanet_testbench::hypercube::cosim::{cosim, CosimOptions};
use std::path::Path;
use std::time::Instant;

/// Which algorithm of the router runs each permutation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CubeAlg {
    /// Algorithm 2 (any permutation).
    Alg2,
    /// Algorithm 1 (collision-free on `j ⊕ c`, checked).
    Alg1,
}

/// The hypercube router with one algorithm.
pub struct Cube(pub CubeAlg);

impl Cube {
    fn alg(&self) -> Algorithm {
        match self.0 {
            CubeAlg::Alg2 => Algorithm::Full,
            CubeAlg::Alg1 => Algorithm::Semi,
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
            CubeAlg::Alg1 => "alg1",
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
            let delivered = match self.0 {
                CubeAlg::Alg2 => {
                    let tr = route_full(params, &routing, &Self::payloads(n, p, c))?;
                    routing
                        .pairs()
                        .all(|(s, d)| tr.placement[d].as_ref().is_some_and(|m| m.src == s))
                }
                CubeAlg::Alg1 => route_semi(k, &routing)?.delivers(&routing),
            };
            anyhow::ensure!(
                delivered,
                "{} does not deliver j ⊕ {c} on the {k}-cube",
                self.algorithm()
            );
        }
        let per = total_bit_times(params, self.alg());
        let l = p.message_bits;
        Ok(Golden {
            runs: n - 1,
            bit_times: per * (n as u64 - 1),
            passes: None,
            lower_bound_passes: None,
            formula: Some(match self.0 {
                CubeAlg::Alg2 => format!("(n − 1)·k(14k + 3L + 9), L = {l}"),
                CubeAlg::Alg1 => format!("(n − 1)·(2k + L + 2), L = {l}"),
            }),
            model: match self.0 {
                CubeAlg::Alg2 => "hypercube::alg2::route_full + timing::total_bit_times",
                CubeAlg::Alg1 => "hypercube::semi::route_semi + timing::total_bit_times",
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
            ..CosimOptions::default()
        };
        let mut out = Cosim::none_yet();
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
        let (design, _) = cube_design(params.k(), p.message_bits)?;
        let emitted = design.emit()?;
        let files = emitted.write_to(dir)?;
        Ok(Hardware {
            top: emitted.top.clone(),
            files,
        })
    }
}
