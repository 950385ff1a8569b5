//! A bit-time step model of the protocol's registers (docs/min.md §3): one
//! controller, one ATAPE unit per PE, `m` stages of 2x2 switches, stepped one clock at
//! a time from any [`Stimulus`].
//!
//! It exists to check the protocol itself: for the stimulus of a run it must produce
//! exactly what the closed-form [`Timeline`](super::Timeline) predicts (tests below).
//! Its ATAPE units compute destinations the way the hardware does (flip the lowest set
//! bit of the next frame index, `ctz(i)`) and emit tags from a rotating register; the
//! timeline uses Table 2 and [`Min::tag_bit`] directly, so the two are independent.

use super::frame::FrameFormat;
use super::timeline::{BitTime, Stimulus};
use super::Min;

/// How an ATAPE unit emits the tag: a copy of the destination rotates left by `rot`
/// bits per header bit-time and bit `tap` is sent, so position `p` carries destination
/// bit `(tap - p·rot) mod m`. That equals [`Min::tag_bit`]`(p)` for all six networks
/// (baseline, omega, reverse baseline, reverse cube: `tap = m-1, rot = 1`; cube: `tap = 1,
/// rot = m-1`; reverse omega: `tap = 0, rot = m-1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TagShifter {
    /// Bit sent.
    pub tap: u32,
    /// Left rotation per header bit-time, `0..m`.
    pub rot: u32,
}

impl TagShifter {
    /// Derives the shifter from the network's tag bits; `None` when they are not an
    /// arithmetic progression mod `m` (never for the six networks).
    pub fn for_min(min: &Min) -> Option<Self> {
        let (m, b) = (min.m(), min.tag_bits());
        let tap = b[0];
        let rot = if m == 1 { 0 } else { (b[0] + m - b[1]) % m };
        let ok = (0..m).all(|p| (tap + m * m - p * rot) % m == b[p as usize]);
        ok.then_some(Self { tap, rot })
    }

    /// `x` rotated left by `rot` within `m` bits.
    pub fn rotate(&self, m: u32, x: usize) -> usize {
        let mask = (1usize << m) - 1;
        if self.rot == 0 {
            return x;
        }
        ((x << self.rot) | (x >> (m - self.rot))) & mask
    }
}

#[derive(Debug, Clone, Default)]
struct Switch {
    out: [bool; 2],
    cross: bool,
    conflict: bool,
}

/// The registers of the whole design.
#[derive(Debug, Clone)]
pub struct HwModel {
    min: Min,
    f: usize,
    shifter: TagShifter,
    run: bool,
    drain: u32,
    pos: usize,
    frame: usize,
    single: bool,
    /// `dec_chain[k]` = stage-0 decision strobe delayed by `k + 1` bit-times.
    dec_chain: Vec<bool>,
    dst: Vec<usize>,
    tsr: Vec<usize>,
    sw: Vec<Vec<Switch>>,
}

impl HwModel {
    /// All registers at their reset value.
    pub fn new(min: Min, format: FrameFormat) -> Self {
        let (n, m) = (min.n(), min.m() as usize);
        Self {
            shifter: TagShifter::for_min(&min).expect("tag bits rotate for the six networks"),
            min,
            f: format.len(),
            run: false,
            drain: 0,
            pos: 0,
            frame: 0,
            single: false,
            dec_chain: vec![false; 2 * (m - 1)],
            dst: vec![0; n],
            tsr: vec![0; n],
            sw: vec![vec![Switch::default(); n / 2]; m],
        }
    }

    /// Outputs during this bit-time for `inp`, then the clock edge.
    pub fn step(&mut self, inp: &Stimulus) -> BitTime {
        let (n, m) = (self.min.n(), self.min.m() as usize);
        // Combinational signals of this bit-time.
        let busy = self.run || self.drain > 0;
        let hdr = self.run && self.pos < m;
        let pay = self.run && self.pos >= m;
        let dec0 = self.run && self.pos == 0;
        let last = self.single || self.frame == n - 1;
        let endf = self.run && self.pos == self.f - 1;
        let load = !inp.reset && !busy && inp.start;
        let next = endf && !last;
        let flip = {
            let i = (self.frame + 1) & (n - 1);
            i & i.wrapping_neg()
        };
        let dec = |s: usize| {
            if s == 0 {
                dec0
            } else {
                self.dec_chain[2 * s - 1]
            }
        };
        // Network inputs, then each stage's registered outputs moved along the links.
        let mut x = vec![false; n];
        for j in 0..n {
            let tag = (self.tsr[j] >> self.shifter.tap) & 1 == 1;
            x[self.min.entry(j)] = (hdr && tag) || (pay && inp.din[j]);
        }
        let mut stage_in = Vec::with_capacity(m);
        for s in 0..m {
            stage_in.push(x.clone());
            let mut y = vec![false; n];
            for (k, sw) in self.sw[s].iter().enumerate() {
                y[self.min.link(s as u32, 2 * k)] = sw.out[0];
                y[self.min.link(s as u32, 2 * k + 1)] = sw.out[1];
            }
            x = y;
        }
        let out = BitTime {
            pe_dout: x,
            pe_dst: self.dst.clone(),
            busy,
            sending: self.run,
            frame: self.frame,
            pos: self.pos,
            stage_conflict: self
                .sw
                .iter()
                .map(|st| st.iter().any(|s| s.conflict))
                .collect(),
            cross: self
                .sw
                .iter()
                .map(|st| st.iter().map(|s| s.cross).collect())
                .collect(),
            switch_conflict: self
                .sw
                .iter()
                .map(|st| st.iter().map(|s| s.conflict).collect())
                .collect(),
        };
        // The clock edge.
        if inp.reset {
            *self = Self::new(
                self.min,
                FrameFormat {
                    m: m as u32,
                    message_bits: (self.f - m) as u32,
                },
            );
            return out;
        }
        let decs: Vec<bool> = (0..m).map(dec).collect();
        for s in 0..m {
            for (k, sw) in self.sw[s].iter_mut().enumerate() {
                let (a, b) = (stage_in[s][2 * k], stage_in[s][2 * k + 1]);
                if decs[s] {
                    sw.cross = a;
                    sw.conflict = a == b;
                    sw.out = [false, false];
                } else {
                    sw.out = if sw.cross { [b, a] } else { [a, b] };
                }
            }
        }
        if !self.dec_chain.is_empty() {
            self.dec_chain.rotate_right(1);
            self.dec_chain[0] = dec0;
        }
        for j in 0..n {
            if load {
                self.dst[j] = inp.first[j];
                self.tsr[j] = inp.first[j];
            } else if next {
                self.dst[j] ^= flip;
                self.tsr[j] = self.dst[j];
            } else if hdr {
                self.tsr[j] = self.shifter.rotate(m as u32, self.tsr[j]);
            }
        }
        if load {
            (self.run, self.pos, self.frame, self.single) = (true, 0, 0, inp.single);
        } else if endf {
            self.pos = 0;
            if last {
                (self.run, self.drain, self.frame) = (false, m as u32, 0);
            } else {
                self.frame += 1;
            }
        } else if self.run {
            self.pos += 1;
        } else if self.drain > 0 {
            self.drain -= 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::min::{Network, RunConfig, Timeline};
    use crate::perm::Permutation;
    use crate::rng::seeded;

    fn agree(cfg: RunConfig) {
        let tl = Timeline::new(cfg.clone());
        let mut hw = HwModel::new(cfg.min, cfg.format);
        for t in 0..tl.end() + 3 {
            let got = hw.step(&tl.stimulus(t));
            assert_eq!(got, tl.expected(t), "{} t={t}", cfg.min);
        }
    }

    #[test]
    fn shifter_reproduces_tag_bits() {
        for net in Network::ALL {
            for m in 1..=12 {
                assert!(TagShifter::for_min(&Min::new(net, m).unwrap()).is_some());
            }
        }
    }

    #[test]
    fn step_model_matches_timeline_for_atape() {
        for net in Network::ALL {
            for m in 1..=5 {
                let min = Min::new(net, m).unwrap();
                for bits in [1, 3] {
                    agree(RunConfig::atape(min, bits, 7 + u64::from(m)).unwrap());
                }
            }
        }
    }

    #[test]
    fn step_model_matches_timeline_for_single_permutations() {
        let mut rng = seeded(3);
        for net in Network::ALL {
            for m in 1..=5 {
                let min = Min::new(net, m).unwrap();
                for _ in 0..4 {
                    let p = Permutation::random(min.n(), &mut rng);
                    agree(RunConfig::single(min, p, 2, 1).unwrap());
                }
            }
        }
    }

    #[test]
    fn atape_runs_without_idle_bit_times_or_conflicts() {
        for net in Network::ALL {
            let min = Min::new(net, 4).unwrap();
            let cfg = RunConfig::atape(min, 5, 1).unwrap();
            let tl = Timeline::new(cfg.clone());
            let busy: Vec<u64> = (0..tl.end() + 5).filter(|&t| tl.expected(t).busy).collect();
            assert_eq!(busy.len() as u64, 16 * 9 + 4);
            assert_eq!(*busy.last().unwrap(), tl.end() - 1);
            assert!((0..tl.end()).all(|t| !tl.expected(t).stage_conflict.contains(&true)));
            let got = tl.check_deliveries(|t, q| tl.expected(t).pe_dout[q]);
            assert_eq!(got, Ok(256));
        }
    }
}
