//! PE labels and digits of T-LCANs and CB-LCANs, and the topology queries of
//! docs/routing.md §1 (`down(Y, p)`, `up(X, c)`, LCA level and LCA switches) for every
//! topology (Π files delegate to `reach`).
//!
//! Labels are mixed-radix numbers, digit 0 least significant, one digit per level:
//! - T-LCAN: digit 0 is base `d_0` (the downer of the level-0 switch), digit `j ≥ 1` is base
//!   `d_j/u_{j-1}` (the child group at level `j`).
//! - CB-LCAN: digit `j` is base `d_j` (002 Definition 3).
//!
//! (With one `d` and `u` for every level these are base `d`, then `d/u`; all base `d`.)
//! In both, **digit `j` decides the downer at level `j`** on the way down: at level 0 it is
//! the downer itself; at level `j ≥ 1` it is downer `digit` (CB) or any of the `u_{j-1}`
//! downers `digit·u_{j-1} .. digit·u_{j-1}+u_{j-1}-1` of that child group (T). The LCA
//! level of two PEs is the position of the most significant digit where their labels
//! differ (0 if none).

use super::topology::{mask, Kind, Topology};

impl Topology {
    /// PEs below one level-`level` switch (T: `d_0·∏_{1≤m≤level} d_m/u_{m-1}`) or below one
    /// group of `∏_{m<level} u_m` switches sharing their base-`d` digits (CB:
    /// `∏_{m≤level} d_m`); `None` for Π.
    pub fn block_size(&self, level: usize) -> Option<usize> {
        self.block.get(level).copied()
    }

    /// Radices of the label digits, digit 0 first (T and CB; `None` for Π files).
    pub fn label_radices(&self) -> Option<Vec<usize>> {
        match self.kind {
            Kind::Tree => Some(
                (0..self.levels())
                    .map(|j| {
                        if j == 0 {
                            self.ds[0]
                        } else {
                            self.ds[j] / self.us[j - 1]
                        }
                    })
                    .collect(),
            ),
            Kind::CompleteBipartite => Some(self.ds.clone()),
            Kind::File => None,
        }
    }

    /// The label digits of PE `p`, digit 0 first (T and CB; `None` for Π files).
    pub fn label_digits(&self, p: usize) -> Option<Vec<usize>> {
        let radices = self.label_radices()?;
        let mut rest = p;
        Some(
            radices
                .iter()
                .map(|&r| {
                    let digit = rest % r;
                    rest /= r;
                    digit
                })
                .collect(),
        )
    }

    /// The downers of a level-`level` switch selected by label digit `digit` (which is
    /// digit number `level` of the destination): T: `{digit}` at level 0, the group
    /// `digit·u_{level-1} .. digit·u_{level-1}+u_{level-1}-1` above; CB: `{digit}`. `None`
    /// for Π files.
    pub fn downers_for_digit(&self, level: usize, digit: usize) -> Option<u64> {
        match self.kind {
            Kind::Tree if level > 0 => {
                let g = self.us[level - 1];
                Some(mask(g) << (digit * g))
            }
            Kind::Tree | Kind::CompleteBipartite => Some(1u64 << digit),
            Kind::File => None,
        }
    }

    /// Is PE `p` below switch `(level, switch)` (reachable from it going down)?
    pub fn is_below(&self, level: usize, switch: usize, p: usize) -> bool {
        match self.kind {
            Kind::Tree => p / self.block[level] == switch,
            Kind::CompleteBipartite => p / self.block[level] == switch / self.ugroup[level],
            Kind::File => self
                .reach()
                .is_below(self.global_index(level, switch), self.pe_switch(p)),
        }
    }

    /// The LCA level `h(s, t)` (002 Definitions 6–7); `h(s, s) = 0`.
    pub fn lca_level(&self, s: usize, t: usize) -> usize {
        match self.kind {
            Kind::File => self
                .reach()
                .level0_lca(self.pe_switch(s), self.pe_switch(t)),
            _ => self
                .block
                .iter()
                .position(|&b| s / b == t / b)
                .unwrap_or(self.levels() - 1),
        }
    }

    /// The LCA switches of `s` and `t` (indices at level `h(s, t)`), ascending: one in a
    /// T-LCAN (002 Lemma 3), `∏_{m<h} u_m` in a CB-LCAN (002 Lemma 2; `u^h` with one `u`).
    pub fn lca_switches(&self, s: usize, t: usize) -> Vec<usize> {
        let h = self.lca_level(s, t);
        match self.kind {
            Kind::Tree => vec![s / self.block[h]],
            Kind::CompleteBipartite => {
                let uh = self.ugroup[h];
                let hi = s / self.block[h];
                (hi * uh..(hi + 1) * uh).collect()
            }
            Kind::File => self.reach().lca_switches(self, s, t, h),
        }
    }

    /// `down(Y, p)`: the downers of `Y = (level, switch)` whose subtree contains PE `p`
    /// (docs/routing.md §1), as a mask; 0 when `p` is not below `Y`.
    pub fn down(&self, level: usize, switch: usize, p: usize) -> u64 {
        if !self.is_below(level, switch, p) {
            return 0;
        }
        if level == 0 {
            return 1u64 << (p % self.ds[0]);
        }
        match self.kind {
            Kind::Tree | Kind::CompleteBipartite => {
                let below_child = self.block[level - 1];
                let radix = self.block[level] / below_child;
                let digit = (p / below_child) % radix;
                self.downers_for_digit(level, digit).unwrap_or(0)
            }
            Kind::File => self.reach().down(self, level, switch, p),
        }
    }

    /// `up(X, c)` for connection `c = (s, t)` at `X = (level, switch)` on the way up from
    /// `s`: the uppers whose parent still leads to an LCA switch of `c`, as a mask; 0 at
    /// or above the LCA level. T and CB: all `u_level` uppers (002 Lemma 2).
    pub fn up(&self, level: usize, switch: usize, s: usize, t: usize) -> u64 {
        let h = self.lca_level(s, t);
        if level >= h {
            return 0;
        }
        match self.kind {
            Kind::Tree | Kind::CompleteBipartite => self.all_uppers(level),
            Kind::File => self.reach().up(self, level, switch, t, h),
        }
    }

    /// `up(X, c)` given the connection's LCA level `h` and destination `t` instead of its
    /// source (the mask depends on nothing else): the uppers of `X = (level, switch)` whose
    /// parent still leads to a level-`h` switch above `t`; 0 at or above level `h`. This is
    /// what a Π network's route table stores (`docs/protocol.md` §1).
    pub fn up_towards(&self, level: usize, switch: usize, t: usize, h: usize) -> u64 {
        if level >= h || h >= self.levels() {
            return 0;
        }
        match self.kind {
            Kind::Tree | Kind::CompleteBipartite => self.all_uppers(level),
            Kind::File => self.reach().up(self, level, switch, t, h),
        }
    }

    /// The number of ordered PE pairs `(s, t)`, `s ≠ t`, at each LCA level (level 0 first).
    pub fn lca_distribution(&self) -> Vec<u64> {
        let n = self.n as u64;
        match self.kind {
            Kind::Tree | Kind::CompleteBipartite => {
                let mut prev = 1u64;
                (0..self.levels())
                    .map(|h| {
                        let b = self.block[h] as u64;
                        let c = n * (b - prev);
                        prev = b;
                        c
                    })
                    .collect()
            }
            Kind::File => {
                let (d, s0) = (self.ds[0], self.switch_count(0));
                let mut out = vec![0u64; self.levels()];
                for a in 0..s0 {
                    for b in 0..s0 {
                        out[self.lca_level(a * d, b * d)] += (d * d) as u64;
                    }
                }
                out[0] -= n;
                out
            }
        }
    }

    fn reach(&self) -> &super::reach::Reach {
        self.reach
            .as_deref()
            .expect("a topology of kind File always carries its reachability tables")
    }
}
