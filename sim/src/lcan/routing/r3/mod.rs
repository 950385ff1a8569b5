//! R3: routing with global knowledge (issue 14; 003 §3.1 "an algorithm with global
//! knowledge"). From the whole (partial) permutation R3 computes, off-line, every
//! connection's path (which uppers, hence which LCA switch) and its pass, minimising the
//! number of passes (docs/routing.md §7).
//!
//! - CB-LCAN with `u ≥ d`, `wire` model: **one pass**, always (`rearrange`: the looping
//!   algorithm generalised to `d`-ary levels, a König edge colouring per level).
//! - Every other case (T-LCAN, CB-LCAN with `u < d`, Π files, the `switch` model): a
//!   heuristic (`model`, `search`): a first-fit assignment, then one pass emptied at a
//!   time by a tabu search until the lower bound is reached or the budget is spent. If
//!   that stops above the lower bound, R1's own schedule (same arbiter policy and seed) is
//!   computed and, when it has fewer passes, shrunk the same way; the better result is
//!   kept. So R3 is never worse than R1 (at the lower bound it cannot be).
//!
//! Each pass is then *realised* as the crosspoints its paths close, and the connections it
//! delivers are traced through those crosspoints by the same phase-3 model as R1/R2
//! (data forward, acknowledgement back): what a pass reports delivered is what its
//! crosspoints deliver.

pub(crate) mod colour;
mod model;
mod rearrange;
mod search;

#[cfg(test)]
mod tests;

use super::state::{by_src, PassState, Port};
use super::{Algorithm, Config, Conflict, Pass, RoutingError, Schedule};
use crate::lcan::bounds::lower_bound;
use crate::lcan::paths::{Connection, Dir, Path};
use crate::lcan::topology::{Kind, Topology};
use crate::rng::{derive, seeded};
use model::Model;
use std::collections::HashMap;

/// Resource checks the shrink from first fit may spend (a fraction of a second at n = 4096; a
/// quarter of it for the shrink from R1's schedule).
const WORK_BUDGET: u64 = 60_000_000;
/// Iterations per attempt at one pass less.
const ATTEMPT_ITERS: u64 = 20_000;

/// Does R3 route every permutation of `topo` in one pass under `conflict` (a CB-LCAN with
/// `u ≥ d`, `wire` model; with sizes that vary by level, `u_i ≥ d_i` at every level below
/// the top, where the colouring of `rearrange` needs it)?
pub fn rearrangeable(topo: &Topology, conflict: Conflict) -> bool {
    let l = topo.levels();
    topo.kind() == Kind::CompleteBipartite
        && conflict == Conflict::Wire
        && (0..l).all(|i| (i + 1 == l && l > 1) || topo.u_at(i) >= topo.d_at(i))
}

/// The R3 schedule of `conns` (LCA levels `lca`) on `topo`.
pub(super) fn route(
    topo: &Topology,
    conns: &[Connection],
    lca: &[usize],
    cfg: &Config,
) -> Result<Schedule, RoutingError> {
    if conns.is_empty() {
        return Ok(Schedule { passes: Vec::new() });
    }
    let groups: Vec<Vec<(usize, Path)>> = if rearrangeable(topo, cfg.conflict) {
        let paths = rearrange::one_pass(topo, conns, lca)?;
        vec![paths.into_iter().enumerate().collect()]
    } else {
        heuristic(topo, conns, lca, cfg)?
    };
    let mut passes = Vec::with_capacity(groups.len());
    let mut st = PassState::new(topo, cfg.conflict);
    let index = by_src(topo.n(), conns);
    for g in groups {
        st.reset();
        passes.push(realise(topo, conns, lca, &mut st, &index, g)?);
    }
    Ok(Schedule { passes })
}

/// The heuristic: passes of (connection, path).
fn heuristic(
    topo: &Topology,
    conns: &[Connection],
    lca: &[usize],
    cfg: &Config,
) -> Result<Vec<Vec<(usize, Path)>>, RoutingError> {
    let mut m = Model::new(topo, conns, lca, cfg.conflict, cfg.seed);
    if let Some(i) = m.opts.iter().position(|o| o.is_empty()) {
        return Err(RoutingError::Internal(format!(
            "R3: connection {} -> {} has no path",
            conns[i].src, conns[i].dst
        )));
    }
    let lb = lower_bound(topo, conns, cfg.conflict).value;
    let mut rng = seeded(derive(cfg.seed, "r3"));
    let ff = search::first_fit(&m).map_err(RoutingError::TooLarge)?;
    let mut best = search::shrink(&m, ff, lb, WORK_BUDGET, ATTEMPT_ITERS, &mut rng);
    if best.passes > lb {
        // Not at the lower bound: R1's schedule may be better; start from it too.
        let from_r1 = r1_assignment(topo, conns, lca, cfg, &mut m)?;
        if from_r1.passes < best.passes {
            let b = search::shrink(&m, from_r1, lb, WORK_BUDGET / 4, ATTEMPT_ITERS, &mut rng);
            if b.passes < best.passes {
                best = b;
            }
        }
    }
    let mut groups: Vec<Vec<(usize, Path)>> = vec![Vec::new(); best.passes];
    for (i, &(p, o)) in best.at.iter().enumerate() {
        groups[p as usize].push((i, m.opts[i][o as usize].path.clone()));
    }
    if topo.kind() == Kind::Tree && cfg.conflict == Conflict::Wire {
        for g in &mut groups {
            let mut paths: Vec<Path> = g.iter().map(|x| x.1.clone()).collect();
            model::distinct_uppers(topo, &mut paths);
            for (x, p) in g.iter_mut().zip(paths) {
                x.1 = p;
            }
        }
    }
    groups.retain(|g| !g.is_empty());
    Ok(groups)
}

/// R1's schedule (same policy and seed), as an assignment over the options of `m`
/// (its paths are added as options where they are not there yet).
fn r1_assignment(
    topo: &Topology,
    conns: &[Connection],
    lca: &[usize],
    cfg: &Config,
    m: &mut Model,
) -> Result<search::Assignment, RoutingError> {
    let r1 = super::online(
        topo,
        conns,
        lca,
        &Config {
            algorithm: Algorithm::R1,
            ..*cfg
        },
    )?;
    let index: HashMap<usize, usize> = conns.iter().enumerate().map(|(i, c)| (c.src, i)).collect();
    let mut at = vec![(0u32, 0u32); conns.len()];
    for (p, pass) in r1.passes.iter().enumerate() {
        for rc in &pass.delivered {
            let i = *index
                .get(&rc.src)
                .ok_or_else(|| RoutingError::Internal("R1 delivered an unknown source".into()))?;
            let res = m.resources(topo, conns[i], &rc.wires, cfg.conflict);
            let o = m.option_for(i, res, rc.wires.clone());
            at[i] = (p as u32, o as u32);
        }
    }
    Ok(search::Assignment {
        passes: r1.passes.len(),
        at,
    })
}

/// One pass: closes the crosspoints of every path, then traces the data and the
/// acknowledgements through them (phase 3 of docs/routing.md §3.3).
fn realise(
    topo: &Topology,
    conns: &[Connection],
    lca: &[usize],
    st: &mut PassState,
    index: &[u32],
    group: Vec<(usize, Path)>,
) -> Result<Pass, RoutingError> {
    let d = topo.d_at(0);
    for (i, path) in &group {
        let c = conns[*i];
        let h = lca[*i];
        if path.len() != 2 * h {
            return Err(RoutingError::Internal(format!(
                "R3: path of {} -> {} has {} wires, not {}",
                c.src,
                c.dst,
                path.len(),
                2 * h
            )));
        }
        // (level, switch, input) walking up, then the turn, then down.
        let (mut level, mut sw, mut input) = (0, c.src / d, Port::A(c.src % d));
        for w in &path[..h] {
            if w.dir != Dir::Up || w.level != level || w.switch != sw {
                return Err(RoutingError::Internal(format!("R3: bad up-wire {w:?}")));
            }
            st.close(topo.global_index(level, sw), *i, input, Port::D(w.upper))?;
            let (p, x) = topo
                .up_link(level, w.switch, w.upper)
                .ok_or_else(|| RoutingError::Internal("R3: up-wire above the top".into()))?;
            (level, sw, input) = (level + 1, p, Port::A(x));
        }
        for w in &path[h..] {
            if w.dir != Dir::Down || w.level + 1 != level {
                return Err(RoutingError::Internal(format!("R3: bad down-wire {w:?}")));
            }
            let x = topo
                .up_link(w.level, w.switch, w.upper)
                .filter(|&(p, _)| p == sw)
                .ok_or_else(|| RoutingError::Internal(format!("R3: {w:?} is not below {sw}")))?
                .1;
            st.close(topo.global_index(level, sw), *i, input, Port::C(x))?;
            (level, sw, input) = (w.level, w.switch, Port::B(w.upper));
        }
        if sw != c.dst / d {
            return Err(RoutingError::Internal(format!(
                "R3: path of {} -> {} ends at level-0 switch {sw}",
                c.src, c.dst
            )));
        }
        st.close(topo.global_index(0, sw), *i, input, Port::C(c.dst % d))?;
    }
    let mut senders: Vec<usize> = group.iter().map(|&(i, _)| conns[i].src).collect();
    senders.sort_unstable();
    let mut delivered = st.deliver(conns, lca, index, &senders)?;
    if delivered.len() != group.len() {
        return Err(RoutingError::Internal(format!(
            "R3: a pass of {} paths delivers {}",
            group.len(),
            delivered.len()
        )));
    }
    delivered.sort_by_key(|c| c.src);
    Ok(Pass {
        top_level: group.iter().map(|&(i, _)| lca[i]).max().unwrap_or(0),
        steps: 0,
        attempted: group.len(),
        senders,
        delivered,
        crosspoints: st.crosspoints(),
    })
}
