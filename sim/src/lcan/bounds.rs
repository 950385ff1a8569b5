//! The lower bound on the number of passes of docs/routing.md §6, for every topology.
//!
//! For each level `i < l − 1`, the PEs split into groups: the connected components of the
//! network cut above level `i` (levels `0..=i` and the links between them). A T-LCAN's
//! group is the subtree of one level-`i` switch; a CB-LCAN's is the `∏_{m<i} u_m` (`u^i`)
//! switches sharing their base-`d` digits; a Π file's is whatever its links make. With
//! `out` connections leaving a group, `in` entering it and
//! `cap = u_i·(level-i switches in the group)` up-links
//! out of it (each wire carries one connection per pass), a schedule needs at least
//! `⌈max(out, in)/cap⌉` passes. The bound is the maximum over groups, and at least 1 (if
//! there is any connection). For one LCA level this is 003 Lemma 1; for CB-LCANs it is
//! Leiserson's `⌈λ(M)⌉` on the equivalent fat-tree (002 Definition 10).
//!
//! Under the `switch` conflict model a level-0 switch carries one connection per pass,
//! so the number of connections with an end on one level-0 switch is also a bound.

use super::paths::Connection;
use super::routing::Conflict;
use super::topology::{DownEnd, Topology};

/// The bound and the group that attains it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LowerBound {
    /// The bound (0 only for an empty connection set).
    pub value: usize,
    /// Which group attains it, in words.
    pub witness: String,
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// The lower bound of docs/routing.md §6 for routing `conns` on `topo`.
pub fn lower_bound(topo: &Topology, conns: &[Connection], conflict: Conflict) -> LowerBound {
    if conns.is_empty() {
        return LowerBound {
            value: 0,
            witness: "no connections".into(),
        };
    }
    let mut best = LowerBound {
        value: 1,
        witness: "at least one pass".into(),
    };
    let d = topo.d_at(0);
    let s0 = topo.switch_count(0);
    let mut parent: Vec<usize> = (0..s0).collect();
    // Representative (a level-0 switch) of every switch of the current level.
    let mut rep: Vec<usize> = (0..s0).collect();
    for level in 0..topo.levels().saturating_sub(1) {
        if level > 0 {
            let mut next = vec![0; topo.switch_count(level)];
            for (y, slot) in next.iter_mut().enumerate() {
                let mut first = None;
                for x in 0..topo.d_at(level) {
                    if let DownEnd::Switch { switch, .. } = topo.down_link(level, y, x) {
                        let r = find(&mut parent, rep[switch]);
                        match first {
                            None => first = Some(r),
                            Some(f) => {
                                let fr = find(&mut parent, f);
                                parent[r] = fr;
                            }
                        }
                    }
                }
                *slot = first.unwrap_or(0);
            }
            rep = next;
        }
        let mut switches_in = vec![0usize; s0];
        for &r in &rep {
            let r = find(&mut parent, r);
            switches_in[r] += 1;
        }
        let (mut out, mut inn) = (vec![0usize; s0], vec![0usize; s0]);
        for c in conns {
            let (a, b) = (find(&mut parent, c.src / d), find(&mut parent, c.dst / d));
            if a != b {
                out[a] += 1;
                inn[b] += 1;
            }
        }
        for g in 0..s0 {
            if switches_in[g] == 0 {
                continue;
            }
            let cap = topo.u_at(level) * switches_in[g];
            let need = out[g].max(inn[g]).div_ceil(cap);
            if need > best.value {
                best = LowerBound {
                    value: need,
                    witness: format!(
                        "the level-{level} group of PE {}: {} connections leave it, {} enter it, over {} links (003 Lemma 1 / ⌈λ(M)⌉)",
                        g * d,
                        out[g],
                        inn[g],
                        cap
                    ),
                };
            }
        }
    }
    if conflict == Conflict::Switch {
        let mut load = vec![0usize; s0];
        for c in conns {
            load[c.src / d] += 1;
            if c.dst / d != c.src / d {
                load[c.dst / d] += 1;
            }
        }
        if let Some((sw, &l)) = load.iter().enumerate().max_by_key(|&(_, &l)| l) {
            if l > best.value {
                best = LowerBound {
                    value: l,
                    witness: format!(
                        "level-0 switch {sw} is an end of {l} connections (switch model)"
                    ),
                };
            }
        }
    }
    best
}
