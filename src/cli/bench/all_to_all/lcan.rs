//! The LCA-network entries of `bench all-to-all`: the `n − 1` permutations `j ↦ j ⊕ c`
//! routed one after the other by R1, R2 or R3 (docs/routing.md), each priced with the
//! hardware's exact bit-time formulas (`routing_bits`, docs/interface.md §4,
//! docs/protocol.md §12 for R3) from the validated schedule of `lcan::evaluate`, and
//! co-simulated on the network's RTL (`lca_net`: one Verilated model, one run per
//! permutation, each compared with the network golden model at every bit-time).
//!
//! A new LCA network (a per-level LCAN, a fat-tree, the CM-5) is one more [`Shape`] in
//! [`SHAPES`] with its topology builder.

use super::super::routing_bits::bit_times;
use super::table::{xor_permutation, Cosim, Exchange, Family, Golden, Hardware, Params};
use anyhow::Context;
use lcanet_hdl::lca_net::{network_design, NetSpec, Structure};
use lcanet_sim::lcan::arbiter::Policy;
use lcanet_sim::lcan::cycle::network::NetParams;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::evaluate::evaluate;
use lcanet_sim::lcan::routing::{Algorithm, Config, Conflict};
use lcanet_sim::lcan::{Size, Topology};
use lcanet_sim::rng::derive;
use lcanet_testbench::lca_net::{NetBench, NetBuild, PermKind, Stimulus};
use rayon::prelude::*;
use std::path::Path;
use std::time::Instant;

/// An LCA network family member: its name and how to build it on `n` PEs.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// Short name, as `bench routing` writes it: `T(2,1)`, `CB(2,2)`.
    pub short: &'static str,
    /// The topology on `n` PEs, or why it has no such size.
    pub build: fn(usize) -> Result<Topology, String>,
}

fn tree(d: usize, u: usize, n: usize) -> Result<Topology, String> {
    Topology::tree(d, u, Size::Pes(n)).map_err(|e| e.to_string())
}

fn cb(d: usize, u: usize, n: usize) -> Result<Topology, String> {
    Topology::complete_bipartite(d, u, Size::Pes(n)).map_err(|e| e.to_string())
}

/// The LCA networks of the bench: the cheapest tree and the d = 2 and d = 4 CB-LCANs
/// with `u = d` (rearrangeable: R3 routes every permutation in one pass).
pub const SHAPES: [Shape; 4] = [
    Shape {
        short: "T(2,1)",
        build: |n| tree(2, 1, n),
    },
    Shape {
        short: "T(4,2)",
        build: |n| tree(4, 2, n),
    },
    Shape {
        short: "CB(2,2)",
        build: |n| cb(2, 2, n),
    },
    Shape {
        short: "CB(4,4)",
        build: |n| cb(4, 4, n),
    },
];

/// The arbiters of every switch (the hardware's default, `bench routing`'s too), in the
/// routing model and in the hardware parameters.
const POLICY: Policy = Policy::RoundRobin;
const HW_POLICY: ArbiterPolicy = ArbiterPolicy::RoundRobin;

/// One LCA network with one routing algorithm.
pub struct Lcan {
    /// The network.
    pub shape: Shape,
    /// R1, R2 or R3.
    pub alg: Algorithm,
}

impl Lcan {
    fn topo(&self, n: usize) -> anyhow::Result<Topology> {
        (self.shape.build)(n).map_err(|e| anyhow::anyhow!("{} with n = {n}: {e}", self.shape.short))
    }

    fn spec(&self, topo: &Topology, p: &Params) -> anyhow::Result<NetSpec> {
        NetSpec::new(topo.clone(), self.alg, HW_POLICY, 1, p.message_bits)
            .with_context(|| format!("the hardware of {} n = {}", self.shape.short, topo.n()))
    }

    /// The seed of permutation `c` (its arbiters; the same in the golden model and RTL).
    fn seed(p: &Params, c: usize) -> u64 {
        derive(p.seed, &format!("all-to-all {c}"))
    }
}

impl Exchange for Lcan {
    fn family(&self) -> Family {
        Family::Lcan
    }

    fn network(&self) -> String {
        self.shape.short.to_string()
    }

    fn algorithm(&self) -> &'static str {
        self.alg.name()
    }

    fn exists(&self, n: usize) -> bool {
        (self.shape.build)(n).is_ok()
    }

    /// Every permutation routed, its schedule validated, its passes priced with the
    /// protocol's lengths (`NetParams::total_bit_times`), on `jobs` threads.
    fn golden(&self, n: usize, p: &Params, jobs: usize) -> anyhow::Result<Golden> {
        let topo = self.topo(n)?;
        let np = NetParams::new(&topo, self.alg, HW_POLICY, 1, p.message_bits)
            .with_context(|| format!("the hardware parameters of {} n = {n}", self.shape.short))?;
        // Every permutation j ⊕ c a task of its own; the first error stops the rest.
        let (bits, passes, lb) = crate::cli::common::thread_pool(jobs)?.install(|| {
            (1..n)
                .into_par_iter()
                .with_max_len(1)
                .map(|c| {
                    let cfg = Config {
                        algorithm: self.alg,
                        policy: POLICY,
                        conflict: Conflict::Wire,
                        seed: Self::seed(p, c),
                    };
                    let perm = xor_permutation(n, c).to_partial();
                    let ev = evaluate(&topo, &perm, &cfg, None).map_err(|e| {
                        anyhow::Error::from(e).context(format!("routing permutation j ⊕ {c}"))
                    })?;
                    let tops: Vec<usize> = ev.schedule.passes.iter().map(|x| x.top_level).collect();
                    let bt = bit_times(&np, &tops).total;
                    anyhow::Ok((bt, tops.len() as u64, ev.lower_bound.value as u64))
                })
                .try_reduce(|| (0, 0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1, a.2 + b.2)))
        })?;
        Ok(Golden {
            runs: n - 1,
            bit_times: bits,
            passes: Some(passes),
            lower_bound_passes: Some(lb),
            formula: None,
            model: "lcan::evaluate (validated schedule) + NetParams::total_bit_times",
        })
    }

    /// One Verilated model of the network; each permutation one run compared with the
    /// network golden model at every bit-time (pass-level and delivery checks included);
    /// the RTL's `bit_times` output at `done`, summed.
    fn cosim(&self, n: usize, p: &Params, dir: &Path) -> anyhow::Result<Cosim> {
        let topo = self.topo(n)?;
        let started = Instant::now();
        let spec = self.spec(&topo, p)?;
        let bench = NetBench::build(spec, dir, NetBuild::quick())
            .with_context(|| format!("building {} n = {n} in Verilator", self.shape.short))?;
        let mut out = Cosim::none_yet();
        for c in 1..n {
            let perm = xor_permutation(n, c).to_partial();
            let stim = Stimulus::new(
                &topo,
                &PermKind::Given(perm),
                p.message_bits,
                Self::seed(p, c),
            )
            .map_err(|e| anyhow::anyhow!("the stimulus of j ⊕ {c}: {e}"))?;
            let r = bench.run(&stim, None, Some(&dir.join("failure.vcd")), None)?;
            out.runs += 1;
            out.bit_times += r.bit_times;
            if !r.matched() {
                out.matched = false;
                out.failure = Some(format!("permutation j ⊕ {c}: {}", r.failure_text()));
                break;
            }
        }
        out.seconds = started.elapsed().as_secs_f64();
        Ok(out)
    }

    fn hardware(&self, n: usize, p: &Params, dir: &Path) -> anyhow::Result<Hardware> {
        let topo = self.topo(n)?;
        // One instance per switch: each distinct module is synthesized once and counted
        // per instance (the rows structure repeats the switch's logic in a loop).
        let spec = self.spec(&topo, p)?.with_structure(Structure::Instances);
        let design = network_design(&spec)?;
        let emitted = design.emit()?;
        let files = emitted.write_to(dir)?;
        Ok(Hardware {
            top: emitted.top.clone(),
            files,
        })
    }
}
