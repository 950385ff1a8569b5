//! The exact minimum number of passes for small networks (docs/routing.md §6): the
//! minimum over pass assignments **and** path choices, by branch and bound.
//!
//! Each connection gets a list of *options*, each a set of *resources* with a capacity:
//! - T-LCAN, `wire` model: one option; resources are the bundles of `u` parallel up-wires
//!   (or down-wires) between a switch and its parent, capacity `u`. Any assignment within
//!   the capacities can be given distinct wires, so this is exactly the minimum over the
//!   `u^(2h)` paths (and the PIG's chromatic number when `u = 1`).
//! - CB-LCAN and Π files, `wire` model: one option per path (`u^h` in a CB-LCAN), the
//!   resources its wires, capacity 1.
//! - `switch` model: one option per distinct set of switches a path visits, capacity 1.
//!
//! Iterative deepening from the lower bound: for `k = LB, LB+1, …` a depth-first search
//! assigns (pass, option) to connections, always branching on the connection with the
//! fewest feasible choices (DSATUR), opening at most one new pass at a time (symmetry),
//! and in CB-LCANs trying only canonical digit strings (module `search`).
//! When a known schedule has `k` passes, `k` is optimal once `k − 1` is refuted. A node
//! budget bounds the work; past it the optimum is reported unknown with the reason.

use super::bounds::lower_bound;
use super::paths::{Connection, Dir, Wire};
use super::routing::{Conflict, RoutedConnection};
use super::topology::{Kind, Topology};
use std::collections::{BTreeSet, HashMap};

mod search;
use search::{compile, Search};

/// Largest `n` for which the optimum is computed.
pub const MAX_OPTIMAL_PES: usize = 32;
/// Default node budget of the search.
pub const DEFAULT_BUDGET: u64 = 2_000_000;
/// Most paths per connection the search accepts (CB-LCAN(2,2) with `n = 32` has 16).
pub const MAX_OPTIONS: usize = 256;

/// The optimum found, with a schedule attaining it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Optimum {
    /// Minimum number of passes.
    pub passes: usize,
    /// An optimal schedule (valid under the same conflict model); `None` when the
    /// optimum was proven by refuting one pass less than the known schedule.
    pub schedule: Option<Vec<Vec<RoutedConnection>>>,
    /// Search nodes used.
    pub nodes: u64,
}

/// Result of [`optimal`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The exact optimum.
    Found(Optimum),
    /// Not computed; why, and the best bounds known.
    Unknown {
        /// Why.
        reason: String,
        /// Proven lower bound (refuted below it).
        lower: usize,
    },
}

/// Which optimum [`optimal`] computes for this topology and model, in words.
pub fn which_optimum(topo: &Topology, conflict: Conflict) -> &'static str {
    let unique = match (topo.kind(), conflict) {
        (Kind::Tree, Conflict::Switch) => true,
        (_, _) => topo.us().iter().all(|&u| u == 1) && topo.kind() != Kind::File,
    };
    if unique {
        "chromatic number of the path intersection graph (every connection has one path)"
    } else {
        "minimum over path choices and pass assignments"
    }
}

struct Problem {
    cap: Vec<u8>,
    /// Per connection, per option, the resources.
    options: Vec<Vec<Vec<u32>>>,
    /// Per connection, per option, a path realizing it (not for T-LCANs).
    reps: Vec<Vec<Vec<Wire>>>,
}

fn build(topo: &Topology, conns: &[Connection], conflict: Conflict) -> Result<Problem, String> {
    let mut ids: HashMap<(u8, usize, usize, usize), u32> = HashMap::new();
    let mut cap = Vec::new();
    let mut id = |key: (u8, usize, usize, usize), c: u8| -> u32 {
        *ids.entry(key).or_insert_with(|| {
            cap.push(c);
            (cap.len() - 1) as u32
        })
    };
    let mut options = Vec::with_capacity(conns.len());
    let mut reps = Vec::with_capacity(conns.len());
    for c in conns {
        let h = topo.lca_level(c.src, c.dst);
        let mut opts: Vec<Vec<u32>> = Vec::new();
        let mut rep: Vec<Vec<Wire>> = Vec::new();
        if topo.kind() == Kind::Tree {
            let b = |lvl: usize, p: usize| p / topo.block_size(lvl).unwrap_or(1);
            let mut r = Vec::new();
            match conflict {
                Conflict::Wire => {
                    for i in 0..h {
                        r.push(id((0, i, b(i, c.src), 0), topo.u_at(i) as u8));
                        r.push(id((1, i, b(i, c.dst), 0), topo.u_at(i) as u8));
                    }
                }
                Conflict::Switch => {
                    for i in 0..=h {
                        r.push(id((2, i, b(i, c.src), 0), 1));
                        r.push(id((2, i, b(i, c.dst), 0), 1));
                    }
                }
            }
            r.sort_unstable();
            r.dedup();
            opts.push(r);
        } else {
            let paths = topo.paths(c.src, c.dst, MAX_OPTIONS).ok_or_else(|| {
                format!(
                    "connection {} -> {} has more than {MAX_OPTIONS} paths",
                    c.src, c.dst
                )
            })?;
            let mut seen = BTreeSet::new();
            for p in paths {
                let mut r: Vec<u32> = match conflict {
                    Conflict::Wire => p
                        .iter()
                        .map(|w| id((w.dir as u8, w.level, w.switch, w.upper), 1))
                        .collect(),
                    Conflict::Switch => path_switches(topo, c, &p)
                        .into_iter()
                        .map(|(l, s)| id((2, l, s, 0), 1))
                        .collect(),
                };
                r.sort_unstable();
                r.dedup();
                if seen.insert(r.clone()) {
                    opts.push(r);
                    rep.push(p);
                }
            }
        }
        options.push(opts);
        reps.push(rep);
    }
    Ok(Problem { cap, options, reps })
}

/// The switches `(level, index)` a path of `c` visits.
fn path_switches(topo: &Topology, c: &Connection, wires: &[Wire]) -> Vec<(usize, usize)> {
    let mut v = vec![(0, topo.pe_switch(c.src)), (0, topo.pe_switch(c.dst))];
    for w in wires {
        v.push((w.level, w.switch));
        if w.dir == Dir::Up {
            if let Some((p, _)) = topo.up_link(w.level, w.switch, w.upper) {
                v.push((w.level + 1, p));
            }
        }
    }
    v
}

/// The exact minimum number of passes for `conns` on `topo` (`n ≤ 32`), searching at
/// most `budget` nodes. `known` is the pass count of a valid schedule if one is known
/// (e.g. R1's): reaching it proves it optimal without searching it.
pub fn optimal(
    topo: &Topology,
    conns: &[Connection],
    conflict: Conflict,
    budget: u64,
    known: Option<usize>,
) -> Outcome {
    optimal_with(topo, conns, conflict, budget, known, true)
}

/// [`optimal`], optionally without the CB-LCAN digit symmetry breaking (for tests).
pub(crate) fn optimal_with(
    topo: &Topology,
    conns: &[Connection],
    conflict: Conflict,
    budget: u64,
    known: Option<usize>,
    symmetry: bool,
) -> Outcome {
    let lb = lower_bound(topo, conns, conflict).value;
    if topo.n() > MAX_OPTIMAL_PES {
        return Outcome::Unknown {
            reason: format!("computed only for n ≤ {MAX_OPTIMAL_PES} (n = {})", topo.n()),
            lower: lb,
        };
    }
    let pb = match build(topo, conns, conflict) {
        Ok(pb) => pb,
        Err(reason) => return Outcome::Unknown { reason, lower: lb },
    };
    if conns.is_empty() {
        return Outcome::Found(Optimum {
            passes: 0,
            schedule: Some(Vec::new()),
            nodes: 0,
        });
    }
    if known.is_some() && known == Some(lb) {
        return Outcome::Found(Optimum {
            passes: lb,
            schedule: None,
            nodes: 0,
        });
    }
    let mut cp = compile(topo, &pb);
    if !symmetry {
        cp.digits = None;
    }
    let mut nodes = 0;
    let mut k = lb.max(1);
    loop {
        let mut s = Search {
            pb: &pb,
            cp: &cp,
            k,
            used: vec![vec![0; cp.words]; k],
            usage: vec![vec![0; pb.cap.len()]; k],
            assign: vec![None; conns.len()],
            open: 0,
            nodes: 0,
            budget: budget.saturating_sub(nodes),
            seen: (0..topo.levels())
                .map(|i| {
                    vec![
                        0;
                        topo.us()[..=i]
                            .iter()
                            .fold(1usize, |a, &u| a.saturating_mul(u))
                    ]
                })
                .collect(),
        };
        let res = s.dfs();
        nodes += s.nodes;
        match res {
            Some(true) => {
                let schedule = Some(realize(topo, conns, &pb, &s.assign, k));
                return Outcome::Found(Optimum {
                    passes: k,
                    schedule,
                    nodes,
                });
            }
            Some(false) => {
                k += 1;
                if known == Some(k) {
                    return Outcome::Found(Optimum {
                        passes: k,
                        schedule: None,
                        nodes,
                    });
                }
            }
            None => {
                return Outcome::Unknown {
                    reason: format!(
                        "search budget of {budget} nodes exhausted while testing {k} passes"
                    ),
                    lower: k,
                }
            }
        }
    }
}

/// Turns an assignment into concrete paths (distinct wires within each bundle).
fn realize(
    topo: &Topology,
    conns: &[Connection],
    pb: &Problem,
    assign: &[Option<(usize, usize)>],
    k: usize,
) -> Vec<Vec<RoutedConnection>> {
    let mut passes = vec![Vec::new(); k];
    let mut taken: HashMap<(usize, Dir, usize, usize), usize> = HashMap::new();
    for (ci, c) in conns.iter().enumerate() {
        let Some((pass, o)) = assign[ci] else {
            continue;
        };
        let h = topo.lca_level(c.src, c.dst);
        let wires = if topo.kind() == Kind::Tree {
            let b = |lvl: usize, p: usize| p / topo.block_size(lvl).unwrap_or(1);
            let mut next = |dir, lvl, sw| {
                let e = taken.entry((pass, dir, lvl, sw)).or_insert(0);
                *e += 1;
                *e - 1
            };
            let mut w: Vec<Wire> = (0..h)
                .map(|i| Wire {
                    dir: Dir::Up,
                    level: i,
                    switch: b(i, c.src),
                    upper: 0,
                })
                .collect();
            w.extend((0..h).rev().map(|i| Wire {
                dir: Dir::Down,
                level: i,
                switch: b(i, c.dst),
                upper: 0,
            }));
            for x in &mut w {
                x.upper = next(x.dir, x.level, x.switch) % topo.u_at(x.level);
            }
            w
        } else {
            pb.reps[ci][o].clone()
        };
        passes[pass].push(RoutedConnection {
            src: c.src,
            dst: c.dst,
            lca_level: h,
            wires,
        });
    }
    passes
}
