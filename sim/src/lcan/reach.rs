//! Reachability tables of a network with a general `Π` (read from a file), from which
//! its LCA levels, LCA switches, `down(Y, p)` and `up(X, c)` are answered.
//!
//! All PEs of one level-0 switch see the same switches, so the tables are kept per
//! level-0 switch `b`: `lvl[g][b]` is the lowest level of a switch reachable going up from
//! switch `g` (including `g`) that has `b` below it. Then `b` is below `g` iff
//! `lvl[g][b] = level(g)`, the LCA level of level-0 switches `a, b` is `lvl[a][b]`, and an
//! upper of `X` leads to an LCA switch of `c = (s, t)` iff its parent `P` has
//! `lvl[P][⌊t/d⌋] = h(c)` (it can never be lower: `P` is above `s`).

use super::error::TopologyError;
use super::topology::{DownEnd, Topology};

/// "Not reachable" in [`Reach::lvl`].
const NONE: u8 = u8::MAX;

/// Reachability tables of a Π-file network.
#[derive(Debug, Clone)]
pub struct Reach {
    s0: usize,
    level_of: Vec<u8>,
    lvl: Vec<u8>,
}

impl Reach {
    /// Tabulates `topo` (whose link tables are complete) and checks that every two PEs
    /// are connected (002 Definition 1).
    pub(crate) fn build(topo: &Topology) -> Result<Self, TopologyError> {
        let s0 = topo.switch_count(0);
        let total = topo.total_switches();
        let words = s0.div_ceil(64);
        let mut level_of = vec![0u8; total];
        let mut below = vec![0u64; total * words];
        for g in 0..total {
            let (level, sw) = topo.from_global(g);
            level_of[g] = level as u8;
            if level == 0 {
                below[g * words + sw / 64] |= 1 << (sw % 64);
                continue;
            }
            for x in 0..topo.d_at(level) {
                if let DownEnd::Switch { switch, .. } = topo.down_link(level, sw, x) {
                    let c = topo.global_index(level - 1, switch);
                    for w in 0..words {
                        below[g * words + w] |= below[c * words + w];
                    }
                }
            }
        }
        let mut lvl = vec![NONE; total * s0];
        for g in (0..total).rev() {
            let (level, sw) = topo.from_global(g);
            for b in 0..s0 {
                if below[g * words + b / 64] >> (b % 64) & 1 == 1 {
                    lvl[g * s0 + b] = level as u8;
                    continue;
                }
                let mut best = NONE;
                for k in 0..topo.u_at(level) {
                    if let Some((p, _)) = topo.up_link(level, sw, k) {
                        let pg = topo.global_index(level + 1, p);
                        best = best.min(lvl[pg * s0 + b]);
                    }
                }
                lvl[g * s0 + b] = best;
            }
        }
        for a in 0..s0 {
            if let Some(b) = (0..s0).find(|&b| lvl[a * s0 + b] == NONE) {
                return Err(TopologyError::Disconnected {
                    a: a * topo.d_at(0),
                    b: b * topo.d_at(0),
                });
            }
        }
        Ok(Reach { s0, level_of, lvl })
    }

    /// Is level-0 switch `b` below switch `g` (global index)?
    pub(crate) fn is_below(&self, g: usize, b: usize) -> bool {
        self.lvl[g * self.s0 + b] == self.level_of[g]
    }

    /// LCA level of the PEs of level-0 switches `a` and `b`.
    pub(crate) fn level0_lca(&self, a: usize, b: usize) -> usize {
        usize::from(self.lvl[a * self.s0 + b])
    }

    /// The level-`h` switches reachable going up from `s` that have `t` below.
    pub(crate) fn lca_switches(&self, topo: &Topology, s: usize, t: usize, h: usize) -> Vec<usize> {
        let mut frontier = vec![topo.pe_switch(s)];
        for level in 0..h {
            let mut next = vec![false; topo.switch_count(level + 1)];
            for &x in &frontier {
                for k in 0..topo.u_at(level) {
                    if let Some((p, _)) = topo.up_link(level, x, k) {
                        next[p] = true;
                    }
                }
            }
            frontier = (0..next.len()).filter(|&p| next[p]).collect();
        }
        frontier
            .into_iter()
            .filter(|&y| self.is_below(topo.global_index(h, y), topo.pe_switch(t)))
            .collect()
    }

    /// `down(Y, p)` for `Y = (level, switch)`, `level ≥ 1`.
    pub(crate) fn down(&self, topo: &Topology, level: usize, switch: usize, p: usize) -> u64 {
        let mut m = 0;
        for x in 0..topo.d_at(level) {
            if let DownEnd::Switch { switch: c, .. } = topo.down_link(level, switch, x) {
                if self.is_below(topo.global_index(level - 1, c), topo.pe_switch(p)) {
                    m |= 1 << x;
                }
            }
        }
        m
    }

    /// `up(X, c)` for `X = (level, switch)` below the LCA level `h` of `c = (s, t)`.
    pub(crate) fn up(
        &self,
        topo: &Topology,
        level: usize,
        switch: usize,
        t: usize,
        h: usize,
    ) -> u64 {
        let mut m = 0;
        for k in 0..topo.u_at(level) {
            if let Some((p, _)) = topo.up_link(level, switch, k) {
                let pg = topo.global_index(level + 1, p);
                if usize::from(self.lvl[pg * self.s0 + topo.pe_switch(t)]) == h {
                    m |= 1 << k;
                }
            }
        }
        m
    }
}
