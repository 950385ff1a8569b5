//! The topology of an LCA network: levels, switches, links, and the queries every model
//! and the hardware generator build on.
//!
//! Numbering (see `docs/conventions.md`): level 0 touches the PEs, level `l-1` is the top;
//! switch `(level, index)` has global index `S_0 + … + S_{level-1} + index`; PE `p` is on
//! downer `p mod d` of level-0 switch `⌊p/d⌋` in every topology. A link between levels is
//! named by its lower end `(level, switch, upper)`.
//!
//! Constructors live in `build` (T-LCAN, CB-LCAN) and `pi_file` (general Π); the
//! topology-specific rules for LCA levels, `down(Y, p)` and `up(X, c)` in `labels` (T, CB)
//! and `reach` (Π files).

use super::reach::Reach;

/// Which level interconnect `Π` a network has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Kind {
    /// `Π = (d/u)-ary tree`: T-LCAN(d,u) (002 Definition 5).
    #[serde(rename = "tree")]
    Tree,
    /// `Π = complete bipartite`: CB-LCAN(d,u) (002 Definitions 3–4).
    #[serde(rename = "cb")]
    CompleteBipartite,
    /// A general `Π` read from a file (`docs/pi-file.md`).
    #[serde(rename = "file")]
    File,
}

impl Kind {
    /// The name used by the CLI and in JSON: `tree`, `cb`, `file`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Tree => "tree",
            Kind::CompleteBipartite => "cb",
            Kind::File => "file",
        }
    }
}

/// How the size of a T-LCAN or CB-LCAN is given: by its levels or by its PEs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// `l`, the number of levels of switches.
    Levels(usize),
    /// `n`, the number of PEs.
    Pes(usize),
}

/// What is at the lower end of a downer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DownEnd {
    /// A PE (level-0 downers).
    Pe(usize),
    /// Upper `upper` of switch `switch` one level below.
    Switch {
        /// Index of the child switch in its level.
        switch: usize,
        /// The child's upper that the link arrives on.
        upper: usize,
    },
}

/// An LCA network `LCAN(d, u, l, Π)` with `n` PEs.
#[derive(Debug, Clone)]
pub struct Topology {
    pub(crate) kind: Kind,
    pub(crate) d: usize,
    pub(crate) u: usize,
    pub(crate) n: usize,
    pub(crate) switches: Vec<usize>,
    pub(crate) offsets: Vec<usize>,
    /// `up[g*u + k]` = (parent index, parent downer) for every non-top switch `g`.
    pub(crate) up: Vec<(u32, u32)>,
    /// `down[g*d + x]` = (child index, child upper) for switches above level 0.
    pub(crate) down: Vec<(u32, u32)>,
    /// Reachability tables (Π files only).
    pub(crate) reach: Option<Box<Reach>>,
}

impl Topology {
    /// Builds the link tables from `up_links[level][sw*u + k] = (parent, downer)`.
    /// The caller has validated that every level's map is one-to-one and onto.
    pub(crate) fn from_parts(
        kind: Kind,
        d: usize,
        u: usize,
        switches: Vec<usize>,
        up_links: &[Vec<(u32, u32)>],
    ) -> Self {
        let levels = switches.len();
        let mut offsets = Vec::with_capacity(levels + 1);
        let mut acc = 0;
        for &s in &switches {
            offsets.push(acc);
            acc += s;
        }
        offsets.push(acc);
        let mut up = vec![(0, 0); offsets[levels - 1] * u];
        let mut down = vec![(u32::MAX, u32::MAX); (acc - switches[0]) * d];
        for (level, links) in up_links.iter().enumerate() {
            for (i, &(parent, downer)) in links.iter().enumerate() {
                let (sw, k) = (i / u, i % u);
                up[(offsets[level] + sw) * u + k] = (parent, downer);
                let pg = offsets[level + 1] + parent as usize - switches[0];
                down[pg * d + downer as usize] = (sw as u32, k as u32);
            }
        }
        Topology {
            kind,
            d,
            u,
            n: switches[0] * d,
            switches,
            offsets,
            up,
            down,
            reach: None,
        }
    }

    /// Which `Π` this network has.
    pub fn kind(&self) -> Kind {
        self.kind
    }
    /// `d`, downers per switch.
    pub fn d(&self) -> usize {
        self.d
    }
    /// `u`, uppers per switch.
    pub fn u(&self) -> usize {
        self.u
    }
    /// `n`, the number of PEs.
    pub fn n(&self) -> usize {
        self.n
    }
    /// `l`, the number of levels of switches.
    pub fn levels(&self) -> usize {
        self.switches.len()
    }
    /// `S_i` for `i = 0..l` (level 0 first).
    pub fn switches_per_level(&self) -> &[usize] {
        &self.switches
    }
    /// `S_level`.
    pub fn switch_count(&self, level: usize) -> usize {
        self.switches[level]
    }
    /// All switches of all levels.
    pub fn total_switches(&self) -> usize {
        self.offsets[self.levels()]
    }
    /// Global index `S_0 + … + S_{level-1} + switch` (docs/routing.md §1).
    pub fn global_index(&self, level: usize, switch: usize) -> usize {
        self.offsets[level] + switch
    }
    /// Inverse of [`Topology::global_index`]: `(level, switch)`.
    pub fn from_global(&self, g: usize) -> (usize, usize) {
        let level = self.offsets.partition_point(|&o| o <= g) - 1;
        (level, g - self.offsets[level])
    }
    /// Number of links (each two wires) between levels `level` and `level + 1`.
    pub fn links_at(&self, level: usize) -> usize {
        if level + 1 >= self.levels() {
            0
        } else {
            self.switches[level] * self.u
        }
    }
    /// Number of switch-to-switch links (PE links not counted; there are `n` of those).
    pub fn links(&self) -> usize {
        (0..self.levels()).map(|i| self.links_at(i)).sum()
    }
    /// The PE link of PE `p`: `(level-0 switch, downer)` = `(⌊p/d⌋, p mod d)`.
    pub fn pe_port(&self, p: usize) -> (usize, usize) {
        (p / self.d, p % self.d)
    }

    /// The upper end of the link of upper `upper` of switch `(level, switch)`:
    /// `(parent switch at level+1, parent downer)`; `None` at the top level.
    pub fn up_link(&self, level: usize, switch: usize, upper: usize) -> Option<(usize, usize)> {
        if level + 1 >= self.levels() {
            return None;
        }
        let (p, x) = self.up[(self.offsets[level] + switch) * self.u + upper];
        Some((p as usize, x as usize))
    }

    /// The lower end of downer `downer` of switch `(level, switch)`.
    pub fn down_link(&self, level: usize, switch: usize, downer: usize) -> DownEnd {
        if level == 0 {
            return DownEnd::Pe(switch * self.d + downer);
        }
        let g = self.offsets[level] + switch - self.switches[0];
        let (c, k) = self.down[g * self.d + downer];
        DownEnd::Switch {
            switch: c as usize,
            upper: k as usize,
        }
    }

    /// Mask of all `u` uppers.
    pub(crate) fn all_uppers(&self) -> u64 {
        mask(self.u)
    }
    /// Mask of all `d` downers.
    pub(crate) fn all_downers(&self) -> u64 {
        mask(self.d)
    }
}

/// The mask with the low `k` bits set (`k ≤ 64`).
pub(crate) fn mask(k: usize) -> u64 {
    if k >= 64 {
        u64::MAX
    } else {
        (1u64 << k) - 1
    }
}

/// Iterates the set bits of a mask, lowest first.
pub(crate) fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}
