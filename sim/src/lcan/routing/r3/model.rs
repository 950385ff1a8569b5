//! The pass-assignment problem R3's heuristic works on: each connection has a list of
//! *options* (path choices), each a sorted set of *resources* with a capacity; a pass may
//! use a resource at most its capacity times.
//!
//! - `wire` model, T-LCAN: one option; the resources are the bundles of `u` parallel
//!   up-wires (or down-wires) between a switch and its parent, capacity `u` (any use within
//!   the capacities is given distinct wires when the pass is realised).
//! - `wire` model, CB-LCAN and Π files: one option per path (at most [`MAX_OPTIONS`]:
//!   beyond that, CB-LCANs take a seeded sample of upper strings, Π files the first ones
//!   in `visit_paths` order), resources its wires, capacity 1.
//! - `switch` model: one option per distinct set of switches, capacity 1.

use crate::lcan::paths::{Connection, Dir, Path, Wire};
use crate::lcan::routing::Conflict;
use crate::lcan::topology::{Kind, Topology};
use crate::rng::{derive, seeded};
use rand::Rng;

/// Most path options per connection.
pub(crate) const MAX_OPTIONS: usize = 64;

/// One path choice.
pub(super) struct Opt {
    /// Resources, sorted, distinct.
    pub(super) res: Vec<u32>,
    /// A path realising it (T-LCAN: uppers still to be made distinct per pass).
    pub(super) path: Path,
}

/// Options of every connection and the capacities of the resources.
pub(super) struct Model {
    pub(super) cap: Vec<u8>,
    pub(super) opts: Vec<Vec<Opt>>,
    /// `wire` model: the *slot* of each resource, `2·level + [down]` of its wire; a path
    /// uses at most one wire per slot, so "does this option use resource `x`" is one
    /// look-up in a per-connection table by slot (`search`). `None` in the `switch` model
    /// (a path may visit two switches of one level), or if an option broke the rule.
    pub(super) slot: Option<Vec<u8>>,
    /// Number of slots (`2·l`).
    pub(super) slots: usize,
    tree_wire: bool,
    u: usize,
}

impl Model {
    pub(super) fn new(
        topo: &Topology,
        conns: &[Connection],
        lca: &[usize],
        conflict: Conflict,
        seed: u64,
    ) -> Self {
        let tree_wire = topo.kind() == Kind::Tree && conflict == Conflict::Wire;
        let switches = topo.total_switches();
        let mut m = Model {
            cap: Vec::new(),
            opts: Vec::with_capacity(conns.len()),
            slot: None,
            slots: 2 * topo.levels(),
            tree_wire,
            u: topo.max_u(),
        };
        m.cap = match conflict {
            Conflict::Switch => vec![1; switches],
            Conflict::Wire if tree_wire => (0..topo.levels())
                .flat_map(|l| {
                    std::iter::repeat_n(topo.u_at(l).min(255) as u8, 2 * topo.switch_count(l))
                })
                .collect(),
            Conflict::Wire => vec![1; 2 * switches * m.u],
        };
        if conflict == Conflict::Wire && m.slots <= usize::from(u8::MAX) {
            let per_switch = if tree_wire { 2 } else { 2 * m.u };
            let mut slot = Vec::with_capacity(m.cap.len());
            for level in 0..topo.levels() {
                for _ in 0..topo.switch_count(level) * per_switch / 2 {
                    slot.push((2 * level) as u8);
                    slot.push((2 * level + 1) as u8);
                }
            }
            m.slot = Some(slot);
        }
        for (c, &h) in conns.iter().zip(lca) {
            let paths = candidate_paths(topo, *c, h, seed);
            let mut opts: Vec<Opt> = Vec::new();
            for path in paths {
                let res = m.resources(topo, *c, &path, conflict);
                if opts.iter().all(|o| o.res != res) {
                    m.check_slots(&res);
                    opts.push(Opt { res, path });
                }
            }
            m.opts.push(opts);
        }
        m
    }

    /// The resources a path of `c` uses.
    pub(super) fn resources(
        &self,
        topo: &Topology,
        c: Connection,
        path: &[Wire],
        conflict: Conflict,
    ) -> Vec<u32> {
        let mut r: Vec<u32> = match conflict {
            Conflict::Switch => {
                let mut v = vec![
                    topo.global_index(0, topo.pe_switch(c.src)) as u32,
                    topo.global_index(0, topo.pe_switch(c.dst)) as u32,
                ];
                for w in path {
                    v.push(topo.global_index(w.level, w.switch) as u32);
                    if w.dir == Dir::Up {
                        if let Some((p, _)) = topo.up_link(w.level, w.switch, w.upper) {
                            v.push(topo.global_index(w.level + 1, p) as u32);
                        }
                    }
                }
                v
            }
            Conflict::Wire => path
                .iter()
                .map(|w| {
                    let g = topo.global_index(w.level, w.switch);
                    let base = if self.tree_wire {
                        g
                    } else {
                        g * self.u + w.upper
                    };
                    (2 * base + usize::from(w.dir == Dir::Down)) as u32
                })
                .collect(),
        };
        debug_assert!(r.iter().all(|&x| (x as usize) < self.cap.len()));
        r.sort_unstable();
        r.dedup();
        r
    }

    /// The option of connection `i` with resources `res`, added if it is not there yet.
    pub(super) fn option_for(&mut self, i: usize, res: Vec<u32>, path: Path) -> usize {
        if let Some(o) = self.opts[i].iter().position(|o| o.res == res) {
            return o;
        }
        self.check_slots(&res);
        self.opts[i].push(Opt { res, path });
        self.opts[i].len() - 1
    }
}

impl Model {
    /// Drops the slot table if `res` uses two resources of one slot (not expected: a
    /// path has one wire per level and direction).
    fn check_slots(&mut self, res: &[u32]) {
        let Some(slot) = &self.slot else { return };
        let mut seen = 0u128;
        for &x in res {
            let bit = 1u128 << (slot[x as usize] & 127);
            if seen & bit != 0 || usize::from(slot[x as usize]) >= 128 {
                self.slot = None;
                return;
            }
            seen |= bit;
        }
    }
}

/// The paths of `c` the heuristic may choose from.
fn candidate_paths(topo: &Topology, c: Connection, h: usize, seed: u64) -> Vec<Path> {
    if topo.kind() == Kind::Tree {
        // Every path visits the same switches and the same bundles: one template.
        return topo.paths(c.src, c.dst, 1).unwrap_or_else(|| {
            let mut first = Vec::new();
            topo.visit_paths(c.src, c.dst, &mut |w| {
                first = w.to_vec();
                false
            });
            vec![first]
        });
    }
    if topo.kind() == Kind::CompleteBipartite {
        let us = &topo.us()[..h];
        let total = us.iter().fold(1u128, |a, &u| a.saturating_mul(u as u128));
        let strings: Vec<Vec<usize>> = if total <= MAX_OPTIONS as u128 {
            (0..total as usize)
                .map(|mut x| {
                    let mut ks = vec![0; h];
                    for (k, &u) in ks.iter_mut().zip(us).rev() {
                        *k = x % u;
                        x /= u;
                    }
                    ks
                })
                .collect()
        } else {
            let mut rng = seeded(derive(seed, &format!("r3 options {}", c.src)));
            (0..MAX_OPTIONS)
                .map(|_| us.iter().map(|&u| rng.gen_range(0..u)).collect())
                .collect()
        };
        return strings.iter().map(|ks| mirror_path(topo, c, ks)).collect();
    }
    let mut out = Vec::new();
    topo.visit_paths(c.src, c.dst, &mut |w| {
        out.push(w.to_vec());
        out.len() < MAX_OPTIONS
    });
    out
}

/// The CB-LCAN path of `c` with upper string `ks` (module `rearrange`): up-wires of the
/// uppers `ks` from the source's level-0 switch, down-wires of the same uppers from the
/// destination's.
pub(super) fn mirror_path(topo: &Topology, c: Connection, ks: &[usize]) -> Path {
    let (mut a, mut b) = (topo.pe_switch(c.src), topo.pe_switch(c.dst));
    let mut up = Vec::with_capacity(ks.len());
    let mut down = Vec::with_capacity(ks.len());
    for (level, &k) in ks.iter().enumerate() {
        up.push(Wire {
            dir: Dir::Up,
            level,
            switch: a,
            upper: k,
        });
        down.push(Wire {
            dir: Dir::Down,
            level,
            switch: b,
            upper: k,
        });
        a = topo.up_link(level, a, k).map_or(a, |x| x.0);
        b = topo.up_link(level, b, k).map_or(b, |x| x.0);
    }
    up.extend(down.into_iter().rev());
    up
}

/// Realises the T-LCAN bundle paths of one pass: the connections sharing a bundle get
/// distinct uppers (their count is within the capacity `u_i` of the bundle's level).
pub(super) fn distinct_uppers(topo: &Topology, paths: &mut [Path]) {
    let mut next: std::collections::HashMap<(Dir, usize, usize), usize> =
        std::collections::HashMap::new();
    for p in paths.iter_mut() {
        for w in p.iter_mut() {
            let e = next.entry((w.dir, w.level, w.switch)).or_insert(0);
            w.upper = *e % topo.u_at(w.level);
            *e += 1;
        }
    }
}
