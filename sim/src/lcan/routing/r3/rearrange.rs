//! One pass for every (partial) permutation on a CB-LCAN with `u ≥ d` (`wire` model): the
//! looping algorithm of a Beneš network, generalised to `d`-ary levels.
//!
//! A path is named by its upper string `k_0 … k_{h−1}`: going up from the source's
//! level-0 switch it takes upper `k_i` at level `i`; coming down to the destination it uses
//! the down-wires of the *same* uppers of the switches above the destination (in a CB-LCAN
//! the level-`i` switch of the down path is `(t's block, k_0 … k_{i−1})`, and its upper
//! `k_i` leads to the level-`i+1` switch of the path). Level by level, bottom up, every
//! connection still climbing (`h > i`) is an edge from the level-`i` switch of its up path
//! to the level-`i` switch of its down path; a proper edge colouring of this bipartite
//! multigraph with `u` colours gives each connection its `k_i` such that no up-wire and no
//! down-wire of level `i` carries two connections.
//!
//! Why it never fails: a level-0 switch has `d` PEs, so degree ≤ `d ≤ u`. A level-`i`
//! switch `(B, π)` gets its edges from the `d` level-`(i−1)` switches `(B_j, π')` below it,
//! through their upper `π`'s last digit, which one colour class uses at most once per
//! vertex: degree ≤ `d` again, and König's theorem colours it with `u ≥ d` colours. So all
//! connections are routed wire-disjointly in **one pass**, in `O(n·l·(u + path))` time.
//! With sizes that vary by level the same holds level by level: level `i` is coloured
//! with `u_i` colours and its degree is at most `d_i`, so `u_i ≥ d_i` at every level below
//! the top is enough ([`super::rearrangeable`]).

use super::super::RoutingError;
use super::colour::edge_colour;
use crate::lcan::paths::{Connection, Dir, Path, Wire};
use crate::lcan::topology::Topology;

/// Paths for `conns` (LCA levels `lca`) that share no wire, on a CB-LCAN with `u ≥ d`.
pub(super) fn one_pass(
    topo: &Topology,
    conns: &[Connection],
    lca: &[usize],
) -> Result<Vec<Path>, RoutingError> {
    let mut up_sw: Vec<usize> = conns.iter().map(|c| topo.pe_switch(c.src)).collect();
    let mut dn_sw: Vec<usize> = conns.iter().map(|c| topo.pe_switch(c.dst)).collect();
    let mut ups: Vec<Vec<Wire>> = lca.iter().map(|&h| Vec::with_capacity(h)).collect();
    let mut downs: Vec<Vec<Wire>> = lca.iter().map(|&h| Vec::with_capacity(h)).collect();
    for level in 0..topo.levels().saturating_sub(1) {
        let live: Vec<usize> = (0..conns.len()).filter(|&i| lca[i] > level).collect();
        if live.is_empty() {
            break;
        }
        let edges: Vec<(u32, u32)> = live
            .iter()
            .map(|&i| (up_sw[i] as u32, dn_sw[i] as u32))
            .collect();
        let s = topo.switch_count(level);
        let col = edge_colour(s, s, &edges, topo.u_at(level)).map_err(|e| {
            RoutingError::Internal(format!("R3 rearrangeable colouring at level {level}: {e}"))
        })?;
        for (&i, &k) in live.iter().zip(&col) {
            let k = k as usize;
            for (sw, wires, dir) in [
                (&mut up_sw[i], &mut ups[i], Dir::Up),
                (&mut dn_sw[i], &mut downs[i], Dir::Down),
            ] {
                wires.push(Wire {
                    dir,
                    level,
                    switch: *sw,
                    upper: k,
                });
                *sw = topo
                    .up_link(level, *sw, k)
                    .ok_or_else(|| RoutingError::Internal("R3: an up-link above the top".into()))?
                    .0;
            }
        }
    }
    let mut out = Vec::with_capacity(conns.len());
    for i in 0..conns.len() {
        if up_sw[i] != dn_sw[i] {
            return Err(RoutingError::Internal(format!(
                "R3: the up and down paths of {} -> {} meet no common LCA switch",
                conns[i].src, conns[i].dst
            )));
        }
        let mut p = std::mem::take(&mut ups[i]);
        p.extend(downs[i].iter().rev());
        out.push(p);
    }
    Ok(out)
}
