//! Brute-force versions of the topology queries, from the link tables alone.
#![allow(clippy::needless_range_loop)]

use crate::lcan::*;

/// PEs below switch `(level, sw)`, by walking the down-links.
pub fn below(t: &Topology, level: usize, sw: usize) -> Vec<bool> {
    let mut out = vec![false; t.n()];
    let mut stack = vec![(level, sw)];
    while let Some((l, s)) = stack.pop() {
        for x in 0..t.d_at(l) {
            match t.down_link(l, s, x) {
                DownEnd::Pe(p) => out[p] = true,
                DownEnd::Switch { switch, .. } => stack.push((l - 1, switch)),
            }
        }
    }
    out
}

/// Switches of level `to` reachable going up from `(level, sw)`.
pub fn reachable_up(t: &Topology, level: usize, sw: usize, to: usize) -> Vec<usize> {
    let mut cur = vec![sw];
    for l in level..to {
        let mut next: Vec<usize> = cur
            .iter()
            .flat_map(|&s| (0..t.u_at(l)).filter_map(move |k| t.up_link(l, s, k).map(|(p, _)| p)))
            .collect();
        next.sort_unstable();
        next.dedup();
        cur = next;
    }
    cur
}

/// Checks is_below, down, lca_level, lca_switches and up against brute force.
pub fn check_queries(t: &Topology) {
    let belows: Vec<Vec<Vec<bool>>> = (0..t.levels())
        .map(|l| (0..t.switch_count(l)).map(|s| below(t, l, s)).collect())
        .collect();
    for l in 0..t.levels() {
        for s in 0..t.switch_count(l) {
            for p in 0..t.n() {
                assert_eq!(
                    t.is_below(l, s, p),
                    belows[l][s][p],
                    "is_below({l},{s},{p})"
                );
                let mut m = 0u64;
                for x in 0..t.d_at(l) {
                    let hit = match t.down_link(l, s, x) {
                        DownEnd::Pe(q) => q == p,
                        DownEnd::Switch { switch, .. } => belows[l - 1][switch][p],
                    };
                    if hit {
                        m |= 1 << x;
                    }
                }
                assert_eq!(t.down(l, s, p), m, "down({l},{s},{p})");
            }
        }
    }
    for a in 0..t.n() {
        for b in 0..t.n() {
            let h = (0..t.levels())
                .find(|&h| {
                    reachable_up(t, 0, t.pe_switch(a), h)
                        .iter()
                        .any(|&y| belows[h][y][b])
                })
                .expect("connected");
            assert_eq!(t.lca_level(a, b), h, "lca_level({a},{b})");
            let lcas: Vec<usize> = reachable_up(t, 0, t.pe_switch(a), h)
                .into_iter()
                .filter(|&y| belows[h][y][b])
                .collect();
            assert_eq!(t.lca_switches(a, b), lcas);
            for l in 0..h {
                for x in reachable_up(t, 0, t.pe_switch(a), l) {
                    let mut m = 0u64;
                    for k in 0..t.u_at(l) {
                        let (p, _) = t.up_link(l, x, k).unwrap();
                        if reachable_up(t, l + 1, p, h)
                            .iter()
                            .any(|y| lcas.contains(y))
                        {
                            m |= 1 << k;
                        }
                    }
                    assert_eq!(t.up(l, x, a, b), m, "up({l},{x},{a},{b})");
                }
            }
        }
    }
}
