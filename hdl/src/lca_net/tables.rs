//! The route tables of a Π network's switches and the LCA-level table of its PEs
//! (`docs/protocol.md` §1, "Π networks: the table-driven decoder"; `docs/interface.md` §5.2),
//! computed here from the topology's links alone ([`Topology::up_link`],
//! [`Topology::down_link`]) — a reachability computation of its own, not the golden
//! model's tables, so that a co-simulation also checks the two against each other.
//!
//! - `reach(i, s)`: the PEs below switch `(i, s)` (going down).
//! - `above(i, s, h)`, `h ≥ i`: the union of `reach` over the level-`h` switches reachable
//!   going up from `(i, s)` (itself when `h = i`).
//! - `down_rom[t]` bit `x`: downer `x` leads to PE `t` (`down(Y, t)`).
//! - `up_rom[h][t]` bit `k`: `h` is the lowest level at which the parent on upper `k`
//!   reaches, going up, a switch from which `t` is reachable: `t ∈ above(i+1, parent_k, h)`
//!   and (`h = i + 1` or `t ∉ above(i+1, parent_k, h − 1)`); 0 for `h ≤ i`. For a packet of
//!   a real connection (`h` its LCA level, the switch above its source) the second condition
//!   always holds: this is "the parent still leads to an LCA switch of `c`".
//! - LCA level of PEs `(p, t)`: the lowest `h` with `t ∈ above(0, ⌊p/d⌋, h)`.

use lcanet_sim::lcan::{DownEnd, Topology};

/// A set of PEs as bit words.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct PeSet(Vec<u64>);

impl PeSet {
    fn empty(n: usize) -> Self {
        PeSet(vec![0; n.div_ceil(64)])
    }
    fn insert(&mut self, p: usize) {
        self.0[p / 64] |= 1 << (p % 64);
    }
    fn contains(&self, p: usize) -> bool {
        self.0[p / 64] >> (p % 64) & 1 == 1
    }
    fn union(&mut self, o: &PeSet) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }
}

/// The ROM contents of one switch: `down[t]` (`d` bits) and `up[h·n + t]` (`u` bits).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SwitchTable {
    /// The switch's `d` and `u` (its level's: tables of different shapes never share a
    /// ROM module).
    pub shape: (usize, usize),
    /// `down_rom[t]`, `t = 0..n`.
    pub down: Vec<u64>,
    /// `up_rom[h][t]` at `h·n + t`, `h = 0..l`.
    pub up: Vec<u64>,
}

/// Every switch's table (by global index) and every PE pair's LCA level.
#[derive(Debug, Clone)]
pub struct PiTables {
    /// Per global switch index.
    pub switches: Vec<SwitchTable>,
    /// `lca[p·n + t]`: the LCA level of PEs `p` and `t`.
    pub lca: Vec<usize>,
}

impl PiTables {
    /// The tables of `topo` (any kind; used for Π networks).
    pub fn new(topo: &Topology) -> Self {
        let (n, l) = (topo.n(), topo.levels());
        // reach[i][s], bottom up.
        let mut reach: Vec<Vec<PeSet>> = Vec::with_capacity(l);
        for i in 0..l {
            let level: Vec<PeSet> = (0..topo.switch_count(i))
                .map(|s| {
                    let mut set = PeSet::empty(n);
                    for x in 0..topo.d_at(i) {
                        match topo.down_link(i, s, x) {
                            DownEnd::Pe(p) => set.insert(p),
                            DownEnd::Switch { switch, .. } => set.union(&reach[i - 1][switch]),
                        }
                    }
                    set
                })
                .collect();
            reach.push(level);
        }
        // above[i][s][h - i], top down.
        let mut above: Vec<Vec<Vec<PeSet>>> = vec![Vec::new(); l];
        for i in (0..l).rev() {
            above[i] = (0..topo.switch_count(i))
                .map(|s| {
                    let mut v = vec![reach[i][s].clone()];
                    for h in i + 1..l {
                        let mut set = PeSet::empty(n);
                        for k in 0..topo.u_at(i) {
                            if let Some((p, _)) = topo.up_link(i, s, k) {
                                set.union(&above[i + 1][p][h - i - 1]);
                            }
                        }
                        v.push(set);
                    }
                    v
                })
                .collect();
        }
        let mut switches = Vec::with_capacity(topo.total_switches());
        for (i, level) in above.iter().enumerate() {
            let (d, u) = (topo.d_at(i), topo.u_at(i));
            for s in 0..level.len() {
                let down = (0..n)
                    .map(|t| {
                        (0..d).fold(0u64, |m, x| {
                            let leads = match topo.down_link(i, s, x) {
                                DownEnd::Pe(p) => p == t,
                                DownEnd::Switch { switch, .. } => reach[i - 1][switch].contains(t),
                            };
                            m | u64::from(leads) << x
                        })
                    })
                    .collect();
                let mut up = vec![0u64; l * n];
                for h in i + 1..l {
                    for t in 0..n {
                        up[h * n + t] = (0..u).fold(0u64, |m, k| {
                            // `h` is the lowest level at which the parent reaches `t`.
                            let ok = topo.up_link(i, s, k).is_some_and(|(p, _)| {
                                let a = &above[i + 1][p];
                                a[h - i - 1].contains(t)
                                    && (h == i + 1 || !a[h - i - 2].contains(t))
                            });
                            m | u64::from(ok) << k
                        });
                    }
                }
                switches.push(SwitchTable {
                    shape: (d, u),
                    down,
                    up,
                });
            }
        }
        let mut lca = vec![0usize; n * n];
        for p in 0..n {
            let from = &above[0][topo.pe_switch(p)];
            for t in 0..n {
                lca[p * n + t] = (0..l).find(|&h| from[h].contains(t)).unwrap_or(l - 1);
            }
        }
        PiTables { switches, lca }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lcanet_sim::lcan::cycle::route::RouteTable;
    use lcanet_sim::lcan::Size;

    /// The tables agree with the golden model's reachability on a tree, a CB-LCAN and two
    /// irregular Π files (two computations of the same facts).
    #[test]
    fn tables_agree_with_the_models_reachability() {
        let irregular = Topology::from_pi_text(IRREGULAR).unwrap();
        // Trees and CB-LCANs as Π files: the model's tables for kind `tree`/`cb` allow
        // every upper even for `(h, t)` no connection has.
        let as_pi = |t: Topology| Topology::from_pi_text(&t.to_pi_text()).unwrap();
        for topo in [
            as_pi(Topology::tree(4, 2, Size::Levels(3)).unwrap()),
            as_pi(Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap()),
            irregular,
            Topology::from_pi_text(include_str!("../../../docs/examples/skewed8.pi")).unwrap(),
        ] {
            let t = PiTables::new(&topo);
            let n = topo.n();
            for g in 0..topo.total_switches() {
                let (level, s) = topo.from_global(g);
                let r = RouteTable::for_switch(&topo, level, s);
                for a in 0..n {
                    assert_eq!(t.switches[g].down[a], r.down(a as u64), "down {g} {a}");
                    for h in 0..topo.levels() {
                        assert_eq!(
                            t.switches[g].up[h * n + a],
                            r.up(h as u64, a as u64),
                            "up {g} h {h} t {a}"
                        );
                    }
                }
            }
            for p in 0..n {
                for q in 0..n {
                    assert_eq!(t.lca[p * n + q], topo.lca_level(p, q), "lca {p} {q}");
                }
            }
        }
    }

    /// docs/examples/irregular16.pi: d = 4, u = 2, l = 3, n = 16; level-1 switch 0 sees
    /// level-0 switches 0, 1, 3 and switch 1 sees 0, 2, 3, so some `up` masks and `down`
    /// masks are neither "all uppers" nor one downer.
    const IRREGULAR: &str = include_str!("../../../docs/examples/irregular16.pi");

    #[test]
    fn irregular_tables_have_partial_masks() {
        let topo = Topology::from_pi_text(IRREGULAR).unwrap();
        let t = PiTables::new(&topo);
        let n = topo.n();
        // Level-0 switch 1 (PEs 4..8) towards PE 8 (switch 2) at LCA level 2: both uppers
        // lead to the top; at level 1 nothing (no level-1 switch sees both).
        assert_eq!(topo.lca_level(4, 8), 2);
        assert_eq!(t.switches[1].up[2 * n + 8], 0b11);
        // Level-0 switch 0 towards PE 4 (switch 1) at level 1: only upper 0 (to level-1
        // switch 0, which sees switch 1).
        assert_eq!(topo.lca_level(0, 4), 1);
        assert_eq!(t.switches[0].up[n + 4], 0b01);
        // Level-1 switch 0 (global 4) reaches PE 4 through downers 1 and 2.
        assert_eq!(t.switches[4].down[4], 0b0110);
    }
}
