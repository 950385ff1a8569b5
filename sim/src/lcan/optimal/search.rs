//! The branch-and-bound search behind [`super::optimal`]: (pass, option) assignment
//! with DSATUR branching, pass symmetry breaking (at most one new pass at a time) and,
//! in CB-LCANs, digit symmetry breaking.
//!
//! **Digit symmetry (CB-LCAN).** An option of a connection at LCA level `h` is the
//! string of uppers `k_0 … k_{h-1}` it takes going up (the base-`u` digits of its LCA
//! switch); its down path follows from it. For each level `i` and digit prefix `p`,
//! permuting the value of digit `i` among the strings that start with `p` (and relabeling
//! the switches above accordingly) is an automorphism of the network that fixes every PE.
//! So when no assigned option uses `p·k` or `p·k'`, the two values are interchangeable,
//! and the search only tries values already used after `p` plus the smallest unused one.

use super::Problem;
use crate::lcan::paths::Dir;
use crate::lcan::topology::{Kind, Topology};

/// Options split for speed: capacity-1 resources as bit masks, the others as ids.
pub(super) struct Compiled {
    pub(super) words: usize,
    masks: Vec<Vec<Vec<u64>>>,
    multi: Vec<Vec<Vec<u32>>>,
    /// CB-LCAN only: per connection, per option, the uppers taken going up (the base-`u`
    /// digits of its LCA switch), for symmetry breaking.
    pub(super) digits: Option<Vec<Vec<Vec<usize>>>>,
    /// `u_i` of every level (the radix of upper-string digit `i`).
    us: Vec<usize>,
}

pub(super) fn compile(topo: &Topology, pb: &Problem) -> Compiled {
    let ones: Vec<Option<usize>> = {
        let mut next = 0;
        pb.cap
            .iter()
            .map(|&c| {
                (c == 1).then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect()
    };
    let words = ones.iter().flatten().count().div_ceil(64).max(1);
    let mut masks = Vec::new();
    let mut multi = Vec::new();
    for opts in &pb.options {
        let (mut m, mut u) = (Vec::new(), Vec::new());
        for opt in opts {
            let mut mask = vec![0u64; words];
            let mut rest = Vec::new();
            for &r in opt {
                match ones[r as usize] {
                    Some(bit) => mask[bit / 64] |= 1 << (bit % 64),
                    None => rest.push(r),
                }
            }
            m.push(mask);
            u.push(rest);
        }
        masks.push(m);
        multi.push(u);
    }
    let digits = (topo.kind() == Kind::CompleteBipartite).then(|| {
        pb.reps
            .iter()
            .map(|opts| {
                opts.iter()
                    .map(|p| {
                        p.iter()
                            .filter(|w| w.dir == Dir::Up)
                            .map(|w| w.upper)
                            .collect()
                    })
                    .collect()
            })
            .collect()
    });
    Compiled {
        words,
        masks,
        multi,
        digits,
        us: topo.us().to_vec(),
    }
}

pub(super) struct Search<'a> {
    pub(super) pb: &'a Problem,
    pub(super) cp: &'a Compiled,
    pub(super) k: usize,
    pub(super) used: Vec<Vec<u64>>,
    pub(super) usage: Vec<Vec<u8>>,
    pub(super) assign: Vec<Option<(usize, usize)>>,
    pub(super) open: usize,
    pub(super) nodes: u64,
    pub(super) budget: u64,
    /// CB symmetry breaking: `seen[i][lo·u_i + k]` counts assigned options whose digit `i`
    /// is `k` after the digit prefix `lo`.
    pub(super) seen: Vec<Vec<u32>>,
}

impl Search<'_> {
    fn fits(&self, pass: usize, c: usize, o: usize) -> bool {
        let m = &self.cp.masks[c][o];
        (0..self.cp.words).all(|w| self.used[pass][w] & m[w] == 0)
            && self.cp.multi[c][o]
                .iter()
                .all(|&r| self.usage[pass][r as usize] < self.pb.cap[r as usize])
    }

    /// CB-LCAN digit symmetry (module docs): an option may use, at each digit position,
    /// a value already used after the same prefix, or the smallest unused one.
    fn canonical(&self, c: usize, o: usize) -> bool {
        let Some(digits) = &self.cp.digits else {
            return true;
        };
        let mut lo = 0;
        for (i, &k) in digits[c][o].iter().enumerate() {
            let u = self.cp.us[i];
            let row = &self.seen[i][lo * u..lo * u + u];
            if row[k] == 0 && row[..k].contains(&0) {
                return false;
            }
            lo = lo * u + k;
        }
        true
    }

    fn mark(&mut self, c: usize, o: usize, add: bool) {
        let Some(digits) = &self.cp.digits else {
            return;
        };
        let mut lo = 0;
        for (i, &k) in digits[c][o].iter().enumerate() {
            let u = self.cp.us[i];
            let x = &mut self.seen[i][lo * u + k];
            if add {
                *x += 1;
            } else {
                *x -= 1;
            }
            lo = lo * u + k;
        }
    }

    fn count_choices(&self, c: usize, stop: usize) -> usize {
        let passes = self.k.min(self.open + 1);
        let mut n = 0;
        for pass in 0..passes {
            for o in 0..self.cp.masks[c].len() {
                if self.fits(pass, c, o) && self.canonical(c, o) {
                    n += 1;
                    if n >= stop {
                        return n;
                    }
                }
            }
        }
        n
    }

    fn apply(&mut self, c: usize, pass: usize, o: usize, add: bool) {
        for w in 0..self.cp.words {
            self.used[pass][w] ^= self.cp.masks[c][o][w];
        }
        for &r in &self.cp.multi[c][o] {
            let u = &mut self.usage[pass][r as usize];
            if add {
                *u += 1;
            } else {
                *u -= 1;
            }
        }
    }

    /// `Some(true)` found, `Some(false)` refuted, `None` out of budget.
    pub(super) fn dfs(&mut self) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        // DSATUR: the unassigned connection with the fewest feasible choices.
        let mut pick: Option<(usize, usize)> = None;
        for c in 0..self.assign.len() {
            if self.assign[c].is_some() {
                continue;
            }
            let stop = pick.map_or(usize::MAX, |(_, n)| n);
            let n = self.count_choices(c, stop);
            if n == 0 {
                return Some(false);
            }
            if n < stop {
                pick = Some((c, n));
            }
        }
        let Some((c, _)) = pick else {
            return Some(true);
        };
        let passes = self.k.min(self.open + 1);
        for pass in 0..passes {
            for o in 0..self.cp.masks[c].len() {
                if !self.fits(pass, c, o) || !self.canonical(c, o) {
                    continue;
                }
                let opened = pass == self.open;
                self.apply(c, pass, o, true);
                self.mark(c, o, true);
                self.assign[c] = Some((pass, o));
                if opened {
                    self.open += 1;
                }
                let res = self.dfs();
                if res != Some(false) {
                    return res;
                }
                if opened {
                    self.open -= 1;
                }
                self.assign[c] = None;
                self.apply(c, pass, o, false);
                self.mark(c, o, false);
            }
        }
        Some(false)
    }
}
