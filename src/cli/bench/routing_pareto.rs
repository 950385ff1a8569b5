//! `lcanet bench routing --pareto`: which network for a given `n` (003's open question,
//! "finding LCA networks that minimize p"). Every distinct switch of the sweep (kind, d,
//! u, l, link width, policy for R1/R2, `emit_switch`; d, u, link width for R3's
//! arbiter-free switch, `lca::r3`) is generated and synthesized for iCE40 with Yosys (`synth_ice40`: `SB_LUT4` and `SB_DFF*` counts); a
//! network's hardware cost is its switch fabric, `switches × (LUTs + flip-flops)` of its
//! switch (the PE interfaces and the controller are left out: one per PE or one per
//! network whatever the topology). Against it: the mean bit-times per random permutation.
//! Per `n`, a configuration (network, algorithm) is on the Pareto front when no other is
//! at most as costly and at most as slow, and strictly better in one of the two.

use super::routing_sweep::{Plan, Record};
use super::svg::{Dash, Marker, Plot, Point, Scale, Series};
use crate::cli::common::thread_pool;
use anyhow::Context;
use lcanet_hdl::lca::generate::{emit_switch, switch_module_name};
use lcanet_hdl::lca::r3::{add_r3_switch, r3_switch_module_name};
use lcanet_hdl::netlist::{Design, Emitted};
use lcanet_sim::lcan::cycle::network::NetParams;
use lcanet_sim::lcan::cycle::src_mode::route_field_bits;
use lcanet_sim::lcan::cycle::SwitchParams;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_testbench::tools::yosys;
use rayon::prelude::*;
use serde::Serialize;

/// One configuration's cost and speed.
#[derive(Debug, Clone, Serialize)]
pub struct ParetoPoint {
    /// Short network name.
    pub network: String,
    /// PEs.
    pub n: usize,
    /// Levels.
    pub levels: usize,
    /// Algorithm.
    pub algorithm: &'static str,
    /// The switch module synthesized.
    pub switch_module: String,
    /// Switches in the network.
    pub switches: usize,
    /// iCE40 LUTs of one switch.
    pub switch_luts: u64,
    /// iCE40 flip-flops of one switch.
    pub switch_ffs: u64,
    /// `switches × switch_luts`.
    pub fabric_luts: u64,
    /// `switches × switch_ffs`.
    pub fabric_ffs: u64,
    /// Mean bit-times per random permutation.
    pub bit_times: f64,
    /// On the Pareto front of its `n`.
    pub pareto: bool,
}

impl ParetoPoint {
    fn cost(&self) -> u64 {
        self.fabric_luts + self.fabric_ffs
    }
}

/// The switch a network's hardware is built from: the R1/R2 switch with its parameters,
/// or R3's arbiter-free switch (`docs/protocol.md` §12), which depends on d, u, W only.
/// (The bench's networks have one switch size for every level; [`Switch::of`] takes level
/// 0's.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Switch {
    /// The arbitrated switch of R1/R2.
    Arbitrated(SwitchParams),
    /// The R3 switch.
    R3 {
        /// Downers.
        d: usize,
        /// Uppers.
        u: usize,
        /// Link width.
        w: usize,
    },
}

impl Switch {
    /// The switch of a network's hardware parameters.
    pub fn of(np: &NetParams) -> Self {
        let s = np.switch_at(0);
        if np.algorithm == Algorithm::R3 {
            Switch::R3 {
                d: s.d,
                u: s.u,
                w: s.width,
            }
        } else {
            Switch::Arbitrated(*s)
        }
    }

    /// Its module name.
    pub fn module_name(&self) -> String {
        match self {
            Switch::Arbitrated(p) => switch_module_name(p),
            Switch::R3 { d, u, w } => r3_switch_module_name(*d, *u, *w, route_field_bits(*d, *u)),
        }
    }

    fn emit(&self) -> anyhow::Result<Emitted> {
        Ok(match *self {
            Switch::Arbitrated(p) => emit_switch(p)?,
            Switch::R3 { d, u, w } => {
                let f = route_field_bits(d, u);
                let mut design = Design::new(r3_switch_module_name(d, u, w, f));
                design.param("d", d).param("u", u).param("width", w);
                add_r3_switch(&mut design, d, u, w, f)?;
                design.emit()?
            }
        })
    }
}

/// Synthesizes every distinct switch of the plan on `threads` threads: `(LUTs, FFs)` per
/// switch parameter set, in the order of `switches`.
fn synthesize(
    switches: &[Switch],
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> anyhow::Result<Vec<(u64, u64)>> {
    thread_pool(threads)?.install(|| {
        switches
            .par_iter()
            .with_max_len(1)
            .map(|p| {
                let r = (|| {
                    let emitted = p.emit()?;
                    let dir = tempfile::tempdir().context("creating a temporary directory")?;
                    let files = emitted.write_to(dir.path())?;
                    let s = yosys::synth_ice40(&files, &emitted.top)
                        .with_context(|| format!("synthesizing {} with Yosys", emitted.top))?;
                    anyhow::Ok((s.luts, s.ffs))
                })();
                tick();
                r
            })
            .collect()
    })
}

/// The distinct switches of the plan (in first-use order).
pub fn switches(plan: &Plan) -> anyhow::Result<Vec<Switch>> {
    let mut v: Vec<Switch> = Vec::new();
    for row in plan.net_params()? {
        for np in row.iter().flatten() {
            let s = Switch::of(np);
            if !v.contains(&s) {
                v.push(s);
            }
        }
    }
    Ok(v)
}

/// Costs every configuration of `records` (random permutations) and marks the fronts.
pub fn pareto(
    plan: &Plan,
    records: &[Record],
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> anyhow::Result<Vec<ParetoPoint>> {
    let list = switches(plan)?;
    let costs = synthesize(&list, threads, tick)?;
    let nps = plan.net_params()?;
    let mut points = Vec::new();
    for (ni, net) in plan.nets.iter().enumerate() {
        for (ai, alg) in plan.algorithms.iter().enumerate() {
            // An algorithm without hardware has neither a switch nor bit-times: no point.
            let Ok(np) = &nps[ni][ai] else { continue };
            let switch = Switch::of(np);
            let k = list
                .iter()
                .position(|s| *s == switch)
                .context("internal error: switch not synthesized")?;
            let (luts, ffs) = costs[k];
            let r = records
                .iter()
                .find(|r| {
                    r.network == net.short
                        && r.n == net.topo.n()
                        && r.algorithm == alg.name()
                        && r.workload == "random"
                })
                .context("internal error: no random record for a configuration")?;
            let switches = net.topo.total_switches();
            points.push(ParetoPoint {
                network: net.short.clone(),
                n: net.topo.n(),
                levels: net.topo.levels(),
                algorithm: alg.name(),
                switch_module: switch.module_name(),
                switches,
                switch_luts: luts,
                switch_ffs: ffs,
                fabric_luts: luts * switches as u64,
                fabric_ffs: ffs * switches as u64,
                bit_times: r
                    .bit_times
                    .as_ref()
                    .context("internal error: a configuration with hardware has no bit-times")?
                    .mean,
                pareto: false,
            });
        }
    }
    mark_fronts(&mut points);
    Ok(points)
}

/// Marks the points no other point of the same `n` dominates.
pub fn mark_fronts(points: &mut [ParetoPoint]) {
    let snapshot: Vec<(usize, u64, f64)> = points
        .iter()
        .map(|p| (p.n, p.cost(), p.bit_times))
        .collect();
    for (i, p) in points.iter_mut().enumerate() {
        let (n, c, b) = snapshot[i];
        p.pareto = !snapshot
            .iter()
            .enumerate()
            .any(|(j, &(m, c2, b2))| j != i && m == n && c2 <= c && b2 <= b && (c2 < c || b2 < b));
    }
}

const COLORS: &[&str] = &[
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
];
const MARKERS: &[Marker] = &[Marker::Circle, Marker::Square, Marker::Triangle];

/// One plot per `n` with at least two networks: bit-times vs fabric cost, one point per
/// configuration, the front drawn as a line.
pub fn plots(points: &[ParetoPoint], algorithms: &[&str]) -> anyhow::Result<Vec<(String, String)>> {
    let mut ns: Vec<usize> = points.iter().map(|p| p.n).collect();
    ns.sort_unstable();
    ns.dedup();
    let mut nets: Vec<&str> = Vec::new();
    for p in points {
        if !nets.contains(&p.network.as_str()) {
            nets.push(&p.network);
        }
    }
    let mut out = Vec::new();
    for n in ns {
        let at: Vec<&ParetoPoint> = points.iter().filter(|p| p.n == n).collect();
        let distinct = at
            .iter()
            .map(|p| &p.network)
            .collect::<std::collections::BTreeSet<_>>();
        if distinct.len() < 2 {
            continue;
        }
        let series = at
            .iter()
            .map(|p| {
                let ni = nets.iter().position(|x| *x == p.network).unwrap_or(0);
                let ai = algorithms
                    .iter()
                    .position(|x| *x == p.algorithm)
                    .unwrap_or(0);
                Series {
                    name: format!(
                        "{} {}{}",
                        p.algorithm.to_uppercase(),
                        p.network,
                        if p.pareto { " (front)" } else { "" }
                    ),
                    color: COLORS[ni % COLORS.len()].to_string(),
                    dash: Dash::Solid,
                    marker: MARKERS[ai % MARKERS.len()],
                    points: vec![Point {
                        x: p.cost() as f64,
                        y: p.bit_times,
                        range: None,
                    }],
                }
            })
            .collect();
        let mut front: Vec<&&ParetoPoint> = at.iter().filter(|p| p.pareto).collect();
        front.sort_by_key(|p| p.cost());
        let plot = Plot {
            title: format!("n = {n}: bit-times per random permutation vs switch fabric size"),
            x_label: "switch fabric: iCE40 LUTs + flip-flops (log10)".into(),
            y_label: "bit-times per permutation (log10)".into(),
            x_scale: Scale::Log10,
            y_scale: Scale::Log10,
            series,
            bounds: vec![Series {
                name: "Pareto front".into(),
                color: "black".into(),
                dash: Dash::Dashed,
                marker: Marker::None,
                points: front
                    .iter()
                    .map(|p| Point {
                        x: p.cost() as f64,
                        y: p.bit_times,
                        range: None,
                    })
                    .collect(),
            }],
        };
        out.push((format!("pareto_n{n}.svg"), plot.render()?));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(net: &str, n: usize, luts: u64, bt: f64) -> ParetoPoint {
        ParetoPoint {
            network: net.into(),
            n,
            levels: 2,
            algorithm: "r1",
            switch_module: "m".into(),
            switches: 1,
            switch_luts: luts,
            switch_ffs: 0,
            fabric_luts: luts,
            fabric_ffs: 0,
            bit_times: bt,
            pareto: false,
        }
    }

    #[test]
    fn fronts_are_per_n_and_keep_ties() {
        let mut p = vec![
            pt("A", 16, 10, 100.0),
            pt("B", 16, 20, 50.0),
            pt("C", 16, 30, 60.0),    // dominated by B
            pt("D", 16, 10, 100.0),   // equal to A: neither dominates
            pt("E", 32, 100, 1000.0), // alone at n = 32
        ];
        mark_fronts(&mut p);
        let on: Vec<bool> = p.iter().map(|p| p.pareto).collect();
        assert_eq!(on, vec![true, true, false, true, true]);
        let svgs = plots(&p, &["r1"]).unwrap();
        assert_eq!(svgs.len(), 1, "n = 32 has one network: no plot");
        let (name, svg) = &svgs[0];
        assert_eq!(name, "pareto_n16.svg");
        assert!(svg.contains("data-name=\"R1 B (front)\""));
        assert!(svg.contains("data-name=\"R1 C\""));
        assert!(svg.contains("data-name=\"Pareto front\""));
    }
}
