//! The topology of an LCA network: levels, switches, links, and the queries every model
//! and the hardware generator build on.
//!
//! Numbering (see `docs/conventions.md`): level 0 touches the PEs, level `l-1` is the top;
//! switch `(level, index)` has global index `S_0 + … + S_{level-1} + index`; PE `p` is on
//! downer `p mod d_0` of level-0 switch `⌊p/d_0⌋` in every topology. A link between levels
//! is named by its lower end `(level, switch, upper)`.
//!
//! Switch sizes may vary by level (002 §2.2: "u and d need to be vectors"): a level-`i`
//! switch has `d_i` downers and `u_i` uppers ([`Topology::d_at`], [`Topology::u_at`]); a
//! network whose levels all have one shape is [`Topology::uniform`], the `LCAN(d,u,l,Π)` of
//! 002 Definition 1.
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

/// An LCA network `LCAN(d, u, l, Π)` with `n` PEs; `d` and `u` are per level.
#[derive(Debug, Clone)]
pub struct Topology {
    pub(crate) kind: Kind,
    /// `d_i`, downers of a level-`i` switch.
    pub(crate) ds: Vec<usize>,
    /// `u_i`, uppers of a level-`i` switch.
    pub(crate) us: Vec<usize>,
    pub(crate) n: usize,
    pub(crate) switches: Vec<usize>,
    pub(crate) offsets: Vec<usize>,
    /// Where level `i`'s switches start in `up` (`Σ_{m<i} S_m·u_m`).
    pub(crate) up_base: Vec<usize>,
    /// Where level `i ≥ 1`'s switches start in `down` (`Σ_{1≤m<i} S_m·d_m`).
    pub(crate) down_base: Vec<usize>,
    /// `up[up_base[i] + sw*u_i + k]` = (parent index, parent downer) for every non-top switch.
    pub(crate) up: Vec<(u32, u32)>,
    /// `down[down_base[i] + sw*d_i + x]` = (child index, child upper) above level 0.
    pub(crate) down: Vec<(u32, u32)>,
    /// T and CB: `block[i]` = PEs below one level-`i` switch (T) or one group of
    /// level-`i` switches sharing their base-`d` digits (CB); empty for Π files.
    pub(crate) block: Vec<usize>,
    /// CB: `ugroup[i] = ∏_{m<i} u_m`, the level-`i` switches of one group (002 Lemma 1).
    pub(crate) ugroup: Vec<usize>,
    /// Reachability tables (Π files only).
    pub(crate) reach: Option<Box<Reach>>,
}

impl Topology {
    /// Builds the link tables from `up_links[level][sw*u_level + k] = (parent, downer)`.
    /// The caller has validated the shapes (`ds`, `us` of one length, the switch counts of
    /// 002 eq. (1)) and that every level's map is one-to-one and onto.
    pub(crate) fn from_parts(
        kind: Kind,
        ds: Vec<usize>,
        us: Vec<usize>,
        switches: Vec<usize>,
        up_links: &[Vec<(u32, u32)>],
    ) -> Self {
        let levels = switches.len();
        let mut offsets = Vec::with_capacity(levels + 1);
        let (mut up_base, mut down_base) = (Vec::with_capacity(levels), Vec::with_capacity(levels));
        let (mut acc, mut ups, mut downs) = (0, 0, 0);
        for (i, &s) in switches.iter().enumerate() {
            offsets.push(acc);
            up_base.push(ups);
            down_base.push(downs);
            acc += s;
            if i + 1 < levels {
                ups += s * us[i];
            }
            if i > 0 {
                downs += s * ds[i];
            }
        }
        offsets.push(acc);
        let mut up = vec![(0, 0); ups];
        let mut down = vec![(u32::MAX, u32::MAX); downs];
        for (level, links) in up_links.iter().enumerate() {
            let (u, d) = (us[level], ds[level + 1]);
            for (i, &(parent, downer)) in links.iter().enumerate() {
                let (sw, k) = (i / u, i % u);
                up[up_base[level] + sw * u + k] = (parent, downer);
                down[down_base[level + 1] + parent as usize * d + downer as usize] =
                    (sw as u32, k as u32);
            }
        }
        let radices: Vec<usize> = (0..levels)
            .map(|j| match kind {
                Kind::Tree if j > 0 => ds[j] / us[j - 1],
                _ => ds[j],
            })
            .collect();
        let block = match kind {
            Kind::File => Vec::new(),
            _ => radices
                .iter()
                .scan(1usize, |acc, &r| {
                    *acc = acc.saturating_mul(r);
                    Some(*acc)
                })
                .collect(),
        };
        let ugroup = std::iter::once(1)
            .chain(us.iter().scan(1usize, |acc, &u| {
                *acc = acc.saturating_mul(u);
                Some(*acc)
            }))
            .take(levels)
            .collect();
        Topology {
            kind,
            n: switches[0] * ds[0],
            block,
            ugroup,
            ds,
            us,
            switches,
            offsets,
            up_base,
            down_base,
            up,
            down,
            reach: None,
        }
    }

    /// Which `Π` this network has.
    pub fn kind(&self) -> Kind {
        self.kind
    }
    /// `d_level`, downers of a level-`level` switch.
    pub fn d_at(&self, level: usize) -> usize {
        self.ds[level]
    }
    /// `u_level`, uppers of a level-`level` switch (those of the top level connect to
    /// nothing).
    pub fn u_at(&self, level: usize) -> usize {
        self.us[level]
    }
    /// `d_i` for `i = 0..l` (level 0 first).
    pub fn ds(&self) -> &[usize] {
        &self.ds
    }
    /// `u_i` for `i = 0..l` (level 0 first).
    pub fn us(&self) -> &[usize] {
        &self.us
    }
    /// `Some((d, u))` when every level's switches have `d` downers and `u` uppers (the
    /// `LCAN(d,u,l,Π)` of 002 Definition 1); `None` when the sizes vary by level.
    pub fn uniform(&self) -> Option<(usize, usize)> {
        let (d, u) = (self.ds[0], self.us[0]);
        (self.ds.iter().all(|&x| x == d) && self.us.iter().all(|&x| x == u)).then_some((d, u))
    }
    /// The largest `d_i`.
    pub fn max_d(&self) -> usize {
        self.ds.iter().copied().max().unwrap_or(0)
    }
    /// The largest `u_i`.
    pub fn max_u(&self) -> usize {
        self.us.iter().copied().max().unwrap_or(0)
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
            self.switches[level] * self.us[level]
        }
    }
    /// Number of switch-to-switch links (PE links not counted; there are `n` of those).
    pub fn links(&self) -> usize {
        (0..self.levels()).map(|i| self.links_at(i)).sum()
    }
    /// The PE link of PE `p`: `(level-0 switch, downer)` = `(⌊p/d_0⌋, p mod d_0)`.
    pub fn pe_port(&self, p: usize) -> (usize, usize) {
        (p / self.ds[0], p % self.ds[0])
    }
    /// The level-0 switch of PE `p`, `⌊p/d_0⌋`.
    pub fn pe_switch(&self, p: usize) -> usize {
        p / self.ds[0]
    }

    /// The upper end of the link of upper `upper` of switch `(level, switch)`:
    /// `(parent switch at level+1, parent downer)`; `None` at the top level.
    pub fn up_link(&self, level: usize, switch: usize, upper: usize) -> Option<(usize, usize)> {
        if level + 1 >= self.levels() {
            return None;
        }
        let (p, x) = self.up[self.up_base[level] + switch * self.us[level] + upper];
        Some((p as usize, x as usize))
    }

    /// The lower end of downer `downer` of switch `(level, switch)`.
    pub fn down_link(&self, level: usize, switch: usize, downer: usize) -> DownEnd {
        if level == 0 {
            return DownEnd::Pe(switch * self.ds[0] + downer);
        }
        let (c, k) = self.down[self.down_base[level] + switch * self.ds[level] + downer];
        DownEnd::Switch {
            switch: c as usize,
            upper: k as usize,
        }
    }

    /// Mask of all `u_level` uppers of a level-`level` switch.
    pub(crate) fn all_uppers(&self, level: usize) -> u64 {
        mask(self.us[level])
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
