//! Seeded random **legal** traffic for a lone switch of level `j` (`docs/protocol.md` §9):
//! R1 passes (phase-1 packets of one LCA level per step, at most one S- and one D-claim per
//! link in the switch's phase-2 step), R2 passes (probes up at step `j`, probes down on each
//! upper at most once per pass), data in `PASS` and `REV`, re-initializations and idle steps.
//!
//! Addresses are consistent with a switch placed somewhere in a network of the given
//! topology: sources of packets arriving on `A(x)` lie below downer `x`, LCA levels match
//! the step, claims and probes from above concern PEs below this switch, and within a pass
//! sources and destinations are distinct (a partial permutation).

use super::bits::PacketBits;
use super::params::{PacketFormat, SwitchParams, SwitchTopology, MAX_PARAM};
use super::types::{Control, Mode};
use crate::rng::{derive, seeded, SimRng};
use rand::Rng;
use std::collections::{HashSet, VecDeque};

/// The inputs of one bit-time (fixed-size storage: no allocation per bit-time).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitTimeInput {
    /// Broadcast control.
    pub ctl: Control,
    a: [u64; MAX_PARAM],
    b: [u64; MAX_PARAM],
    d: u8,
    u: u8,
}

impl BitTimeInput {
    fn new(
        ctl: Control,
        a: impl IntoIterator<Item = u64>,
        b: impl IntoIterator<Item = u64>,
        d: usize,
        u: usize,
    ) -> Self {
        let mut inp = BitTimeInput {
            ctl,
            a: [0; MAX_PARAM],
            b: [0; MAX_PARAM],
            d: d as u8,
            u: u as u8,
        };
        for (slot, v) in inp.a.iter_mut().zip(a) {
            *slot = v;
        }
        for (slot, v) in inp.b.iter_mut().zip(b) {
            *slot = v;
        }
        inp
    }

    /// Lanes of `A(0..d)`.
    pub fn a(&self) -> &[u64] {
        &self.a[..usize::from(self.d)]
    }

    /// Lanes of `B(0..u)`.
    pub fn b(&self) -> &[u64] {
        &self.b[..usize::from(self.u)]
    }
}

/// An endless, reproducible stream of legal inputs for one switch.
#[derive(Debug, Clone)]
pub struct LegalTraffic {
    params: SwitchParams,
    fmt: PacketFormat,
    level: usize,
    rng: SimRng,
    seed16: u16,
    queue: VecDeque<BitTimeInput>,
    // Per pass: digits above the switch's level, used sources and destinations.
    hi: Vec<u64>,
    used_s: HashSet<u64>,
    used_t: HashSet<u64>,
}

impl LegalTraffic {
    /// Traffic for a switch of level `level` (`< params.levels`), from `seed`.
    pub fn new(params: SwitchParams, level: usize, seed: u64) -> Self {
        let seed16 = derive(seed, "lcan-arbiter") as u16;
        let mut t = LegalTraffic {
            fmt: params.format(),
            params,
            level,
            rng: seeded(derive(seed, "lcan-switch-traffic")),
            seed16,
            queue: VecDeque::new(),
            hi: Vec::new(),
            used_s: HashSet::new(),
            used_t: HashSet::new(),
        };
        t.push_step(
            Mode::Idle,
            1,
            Control {
                init: true,
                ..Control::default()
            },
            &[],
            &[],
        );
        t
    }

    /// The `seed16` input to drive (constant for the run).
    pub fn seed16(&self) -> u16 {
        self.seed16
    }

    /// The inputs of the next bit-time.
    pub fn next_input(&mut self) -> BitTimeInput {
        while self.queue.is_empty() {
            self.plan();
        }
        self.queue.pop_front().expect("plan() queued bit-times")
    }

    fn plan(&mut self) {
        match self.rng.gen_range(0..100) {
            0..=44 => self.r1_pass(),
            45..=89 => self.r2_pass(),
            90..=94 => {
                let ctl = Control {
                    init: true,
                    ..Control::default()
                };
                self.push_step(Mode::Idle, 1, ctl, &[], &[]);
            }
            _ => {
                let len = self.rng.gen_range(1..=4);
                self.push_step(Mode::Idle, len, Control::default(), &[], &[]);
            }
        }
    }

    fn extra(&mut self) -> usize {
        if self.rng.gen_bool(0.1) {
            self.rng.gen_range(1..=3)
        } else {
            0
        }
    }

    /// Queues one step: `len` bit-times of `mode`, packets (right-aligned lanes) per input.
    fn push_step(
        &mut self,
        mode: Mode,
        len: usize,
        base: Control,
        a: &[(usize, PacketBits)],
        b: &[(usize, PacketBits)],
    ) {
        let (d, u, w) = (self.params.d, self.params.u, self.params.width);
        let lanes = |pk: &[(usize, PacketBits)], n: usize| {
            let mut v = vec![vec![0u64; len]; n];
            for (port, p) in pk {
                for (t, l) in p.lanes(w).into_iter().enumerate() {
                    v[*port][t] = l;
                }
            }
            v
        };
        let (la, lb) = (lanes(a, d), lanes(b, u));
        for t in 0..len {
            let ctl = Control {
                mode: mode.code(),
                last: t + 1 == len,
                ..base
            };
            let ctl = Control {
                init: base.init && t == 0,
                ..ctl
            };
            let (a, b) = ((0..d).map(|x| la[x][t]), (0..u).map(|k| lb[k][t]));
            self.queue.push_back(BitTimeInput::new(ctl, a, b, d, u));
        }
    }

    fn data_phases(&mut self) {
        let (d, u, w) = (self.params.d, self.params.u, self.params.width);
        for (mode, max) in [(Mode::Pass, 24), (Mode::Rev, 12)] {
            let len = self.rng.gen_range(1..=max);
            for t in 0..len {
                let ctl = Control {
                    mode: mode.code(),
                    last: t + 1 == len,
                    ..Control::default()
                };
                let lanes: Vec<u64> = (0..d + u)
                    .map(|_| self.rng.gen::<u64>() & ((1u64 << w) - 1))
                    .collect();
                let (a, b) = (lanes[..d].iter().copied(), lanes[d..].iter().copied());
                self.queue.push_back(BitTimeInput::new(ctl, a, b, d, u));
            }
        }
        let flush = Control {
            clear: true,
            ..Control::default()
        };
        self.push_step(Mode::Idle, 1, flush, &[], &[]);
    }

    fn start_pass(&mut self) -> usize {
        let l = self.params.levels;
        self.used_s.clear();
        self.used_t.clear();
        self.hi = (0..l)
            .map(|j| self.rng.gen_range(0..self.radix(j)))
            .collect();
        // Bias H towards levels at or above the switch, where it takes part.
        if self.rng.gen_bool(0.8) {
            self.rng.gen_range(self.level.min(l - 1)..l)
        } else {
            self.rng.gen_range(0..l)
        }
    }

    fn r1_pass(&mut self) {
        let (d, u, f) = (self.params.d, self.params.u, self.fmt.clone());
        let j = self.level;
        let hh = self.start_pass();
        for step in 0..=hh {
            let mut a = Vec::new();
            if j <= hh && step >= j {
                let h = hh - step + j;
                for x in 0..d {
                    if !self.rng.gen_bool(0.6) {
                        continue;
                    }
                    if let Some((s, t)) = self.connection_from_below(x, h) {
                        let mut p = PacketBits::new();
                        p.push(1, 1)
                            .push(h as u64, f.hb)
                            .push(s, f.ab)
                            .push(t, f.ab);
                        a.push((x, p));
                    }
                }
            }
            let len = f.t_up + self.extra();
            self.push_step(Mode::Up, len, Control::default(), &a, &[]);
        }
        for step in hh + 1..=2 * hh + 1 {
            let cur = 2 * hh + 1 - step;
            let mut b = Vec::new();
            if cur == j && j < hh {
                for k in 0..u {
                    let mut p = PacketBits::new();
                    let sc = self
                        .rng
                        .gen_bool(0.6)
                        .then(|| self.claim_from_above(true, hh))
                        .flatten();
                    let (h, s, _) = sc.unwrap_or((0, 0, 0));
                    p.push(u64::from(sc.is_some()), 1)
                        .push(h, f.hb)
                        .push(s, f.ab);
                    let dc = self
                        .rng
                        .gen_bool(0.6)
                        .then(|| self.claim_from_above(false, hh))
                        .flatten();
                    let (h, s, t) = dc.unwrap_or((0, 0, 0));
                    p.push(u64::from(dc.is_some()), 1)
                        .push(h, f.hb)
                        .push(s, f.ab)
                        .push(t, f.ab);
                    if sc.is_some() || dc.is_some() {
                        b.push((k, p));
                    }
                }
            }
            let ctl = Control {
                level: cur as u8,
                ..Control::default()
            };
            let len = f.t_down + self.extra();
            self.push_step(Mode::Down, len, ctl, &[], &b);
        }
        self.push_step(Mode::Idle, f.n2, Control::default(), &[], &[]);
        self.data_phases();
    }

    fn r2_pass(&mut self) {
        let (d, u, f) = (self.params.d, self.params.u, self.fmt.clone());
        let j = self.level;
        let hh = self.start_pass();
        let mut b_used = vec![false; u];
        for step in 0..=2 * hh {
            let mut a = Vec::new();
            let mut b = Vec::new();
            if step == j && j <= hh {
                for x in 0..d {
                    if !self.rng.gen_bool(0.6) {
                        continue;
                    }
                    let h = self.rng.gen_range(j..=hh);
                    if let Some((_, t)) = self.connection_from_below(x, h) {
                        let mut p = PacketBits::new();
                        p.push(1, 1).push(h as u64, f.hb).push(t, f.ab);
                        a.push((x, p));
                    }
                }
            }
            // A probe of level h descends into level j at step 2h - j.
            if (step + j).is_multiple_of(2) && (step + j) / 2 > j && (step + j) / 2 <= hh {
                let h = (step + j) / 2;
                for (k, used) in b_used.iter_mut().enumerate() {
                    if *used || !self.rng.gen_bool(0.6) {
                        continue;
                    }
                    if let Some((_, _, t)) = self.claim_at_level(false, h) {
                        let mut p = PacketBits::new();
                        p.push(1, 1).push(h as u64, f.hb).push(t, f.ab);
                        b.push((k, p));
                        *used = true;
                    }
                }
            }
            let len = f.t_probe + self.extra();
            self.push_step(Mode::Probe, len, Control::default(), &a, &b);
        }
        self.push_step(Mode::Idle, f.nr, Control::default(), &[], &[]);
        self.data_phases();
    }

    fn radix(&self, j: usize) -> u64 {
        self.fmt.digits[j].2 as u64
    }

    fn encode(&self, digits: &[u64]) -> u64 {
        digits
            .iter()
            .zip(&self.fmt.digits)
            .fold(0, |v, (&g, &(off, _, _))| v | g << off)
    }

    /// Digits of a random PE below this switch whose digit `j` is `dj`.
    fn below(&mut self, dj: u64) -> Vec<u64> {
        let j = self.level;
        (0..self.params.levels)
            .map(|i| match i.cmp(&j) {
                std::cmp::Ordering::Greater => self.hi[i],
                std::cmp::Ordering::Equal => dj,
                std::cmp::Ordering::Less => self.rng.gen_range(0..self.radix(i)),
            })
            .collect()
    }

    /// A PE whose LCA level with `p` is `h` (`None` if digit `h` has a single value and
    /// `h > 0`).
    fn at_lca(&mut self, p: &[u64], h: usize) -> Option<Vec<u64>> {
        let r = self.radix(h);
        if h == 0 && (r == 1 || self.rng.gen_bool(0.2)) {
            return Some(p.to_vec()); // a PE talking to itself has LCA level 0
        }
        if r == 1 {
            return None;
        }
        let mut q = p.to_vec();
        q[h] = (p[h] + self.rng.gen_range(1..r)) % r;
        for (i, qi) in q.iter_mut().enumerate().take(h) {
            *qi = self.rng.gen_range(0..self.radix(i));
        }
        Some(q)
    }

    /// A fresh connection `(s, t)` of LCA level `h` whose source is below downer `x`.
    fn connection_from_below(&mut self, x: usize, h: usize) -> Option<(u64, u64)> {
        let tree_group = self.params.topology == SwitchTopology::Tree && self.level > 0;
        let dj = if tree_group {
            (x / self.params.u) as u64
        } else {
            x as u64
        };
        for _ in 0..8 {
            let s = self.below(dj);
            let t = self.at_lca(&s, h)?;
            let (s, t) = (self.encode(&s), self.encode(&t));
            if !self.used_s.contains(&s) && !self.used_t.contains(&t) {
                self.used_s.insert(s);
                self.used_t.insert(t);
                return Some((s, t));
            }
        }
        None
    }

    /// A claim arriving from above in R1 phase 2 (LCA level in `j+1..=hh`).
    fn claim_from_above(&mut self, s_claim: bool, hh: usize) -> Option<(u64, u64, u64)> {
        let h = self.rng.gen_range(self.level + 1..=hh);
        self.claim_at_level(s_claim, h)
    }

    /// A fresh connection of LCA level `h > j` with its source (S-claim) or destination
    /// (D-claim, probe) below this switch: `(h, s, t)`.
    fn claim_at_level(&mut self, s_claim: bool, h: usize) -> Option<(u64, u64, u64)> {
        for _ in 0..8 {
            let dj = self.rng.gen_range(0..self.radix(self.level));
            let mine = self.below(dj);
            let other = self.at_lca(&mine, h)?;
            let (mine, other) = (self.encode(&mine), self.encode(&other));
            let (s, t) = if s_claim {
                (mine, other)
            } else {
                (other, mine)
            };
            if !self.used_s.contains(&s) && !self.used_t.contains(&t) {
                self.used_s.insert(s);
                self.used_t.insert(t);
                return Some((h as u64, s, if s_claim { 0 } else { t }));
            }
        }
        None
    }
}
