//! The cycle-level golden model: what every top-level output and every switch
//! register of the ATAPE hardware holds at every bit-time (docs/min.md §4), in closed
//! form from the paper's algorithms, never from the RTL.
//!
//! Frame `i` is row `i` of the Latin square built by Table 2 from the run's first row
//! (one frame, the first row itself, for a single permutation). [`Min::transit`](super::Min::transit)
//! gives, per frame, who arrives where and every switch's setting and conflict flag.
//! The protocol's timing then places them in time:
//!
//! - position `p` of frame `i` enters the network at `T(i,p) = t0 + i·F + p` and
//!   leaves it at `T(i,p) + m` (one bit-time per stage);
//! - stage `s` decides frame `i` during `t0 + i·F + 2s` (position `s`, its tag bit,
//!   is at its inputs); the new setting and flag show from the next bit-time on;
//! - at a PE output, tag positions read 0 and payload positions the payload.
//!
//! [`Timeline::stimulus`] is the matching input: reset, start, the first row, and the
//! PEs' payload bits taken from the same square (with junk bits wherever the protocol
//! says the hardware must ignore its inputs, so that a design reading them fails).

use super::frame::{Frames, Payloads, RunConfig};
use super::latin::build_latin_square;
use super::route::Transit;
use crate::perm::Permutation;
use crate::rng::{derive, splitmix64};

/// Inputs of the top level during one bit-time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stimulus {
    /// Synchronous reset.
    pub reset: bool,
    /// Start a run (sampled when idle).
    pub start: bool,
    /// One frame instead of `n` (sampled with start).
    pub single: bool,
    /// `first[j]`: PE `j`'s first destination (sampled with start).
    pub first: Vec<usize>,
    /// `din[j]`: the payload bit PE `j` offers.
    pub din: Vec<bool>,
}

/// Every checked signal during one bit-time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitTime {
    /// `pe_dout[q]`: the network output bit at PE `q`.
    pub pe_dout: Vec<bool>,
    /// `pe_dst[j]`: the destination of PE `j`'s current message.
    pub pe_dst: Vec<usize>,
    /// A run is in progress (frames entering or still in the network).
    pub busy: bool,
    /// Frames are entering the network.
    pub sending: bool,
    /// Index of the frame entering (0 when not sending).
    pub frame: usize,
    /// Position within that frame (0 when not sending).
    pub pos: usize,
    /// `stage_conflict[s]`: OR of stage `s`'s switch conflict flags.
    pub stage_conflict: Vec<bool>,
    /// `cross[s][k]`: switch `k` of stage `s` is crossed.
    pub cross: Vec<Vec<bool>>,
    /// `switch_conflict[s][k]`: its current frame had a conflict.
    pub switch_conflict: Vec<Vec<bool>>,
}

/// The closed-form prediction of one run.
#[derive(Debug, Clone)]
pub struct Timeline {
    cfg: RunConfig,
    rows: Vec<Permutation>,
    transits: Vec<Transit>,
    payloads: Payloads,
    junk_key: u64,
}

impl Timeline {
    /// Builds the prediction of `cfg`.
    pub fn new(cfg: RunConfig) -> Self {
        let rows = match cfg.frames {
            Frames::Single => vec![cfg.first.clone()],
            Frames::Atape => {
                let sq = build_latin_square(&cfg.first).expect("first row has n = 2^m entries");
                (0..sq.n()).map(|i| sq.row(i)).collect()
            }
        };
        let transits = rows.iter().map(|r| cfg.min.transit(r)).collect();
        Self {
            payloads: cfg.payloads(),
            junk_key: derive(cfg.seed, "min-junk"),
            cfg,
            rows,
            transits,
        }
    }

    /// The run described.
    pub fn config(&self) -> &RunConfig {
        &self.cfg
    }

    /// The permutation of frame `i`.
    pub fn row(&self, i: usize) -> &Permutation {
        &self.rows[i]
    }

    /// The routing of frame `i`.
    pub fn transit(&self, i: usize) -> &Transit {
        &self.transits[i]
    }

    /// The payloads of the run.
    pub fn payloads(&self) -> &Payloads {
        &self.payloads
    }

    /// The first bit-time after the run (busy has fallen): `t0 + N·F + m`.
    pub fn end(&self) -> u64 {
        self.cfg.t0() + self.cfg.exchange_bit_times()
    }

    fn f(&self) -> u64 {
        self.cfg.format.len() as u64
    }

    pub(super) fn junk(&self, t: u64, j: usize) -> bool {
        splitmix64(self.junk_key ^ splitmix64(t.wrapping_mul(1 << 20) ^ j as u64)) & 1 == 1
    }

    /// The inputs during bit-time `t`.
    pub fn stimulus(&self, t: u64) -> Stimulus {
        let (n, m) = (self.cfg.min.n(), self.cfg.min.m() as u64);
        let at_start = t == self.cfg.t_start;
        let single = self.cfg.frames == Frames::Single;
        let first = (0..n)
            .map(|j| {
                let d = self.cfg.first.dst(j);
                if at_start {
                    d
                } else {
                    !d & (n - 1)
                }
            })
            .collect();
        let t0 = self.cfg.t0();
        let sending_end = t0 + self.rows.len() as u64 * self.f();
        let din = (0..n)
            .map(|j| {
                if t >= t0 && t < sending_end {
                    let (i, p) = (((t - t0) / self.f()) as usize, (t - t0) % self.f());
                    if p >= m {
                        let dst = self.rows[i].dst(j);
                        return self.payloads.bit(j, dst, (p - m) as usize);
                    }
                }
                self.junk(t, j)
            })
            .collect();
        Stimulus {
            reset: t < self.cfg.t_start,
            start: at_start,
            single: if at_start { single } else { !single },
            first,
            din,
        }
    }

    /// Every checked signal during bit-time `t`.
    pub fn expected(&self, t: u64) -> BitTime {
        let min = &self.cfg.min;
        let (n, m, f) = (min.n(), min.m() as u64, self.f());
        let frames = self.rows.len() as u64;
        let t0 = self.cfg.t0();
        let sending = t >= t0 && t < t0 + frames * f;
        let (frame, pos) = if sending {
            (((t - t0) / f) as usize, ((t - t0) % f) as usize)
        } else {
            (0, 0)
        };
        let pe_dst = if t < t0 {
            vec![0; n]
        } else {
            let i = (((t - t0) / f).min(frames - 1)) as usize;
            self.rows[i].as_slice().to_vec()
        };
        let mut pe_dout = vec![false; n];
        if t >= t0 + m && t < t0 + m + frames * f {
            let u = t - t0 - m;
            let (i, p) = ((u / f) as usize, u % f);
            if p >= m {
                for (q, out) in pe_dout.iter_mut().enumerate() {
                    let src = self.transits[i].arrivals[q];
                    *out = self
                        .payloads
                        .bit(src, self.rows[i].dst(src), (p - m) as usize);
                }
            }
        }
        let half = min.switches_per_stage();
        let mut cross = vec![vec![false; half]; m as usize];
        let mut switch_conflict = vec![vec![false; half]; m as usize];
        for s in 0..m {
            // Decision of frame i at stage s during t0 + i·F + 2s, visible after it.
            let first_visible = t0 + 2 * s + 1;
            if t >= first_visible {
                let i = (((t - first_visible) / f).min(frames - 1)) as usize;
                cross[s as usize].clone_from(&self.transits[i].settings.cross[s as usize]);
                switch_conflict[s as usize].clone_from(&self.transits[i].conflict[s as usize]);
            }
        }
        BitTime {
            pe_dout,
            pe_dst,
            busy: t >= t0 && t < self.end(),
            sending,
            frame,
            pos,
            stage_conflict: switch_conflict
                .iter()
                .map(|st| st.iter().any(|&c| c))
                .collect(),
            cross,
            switch_conflict,
        }
    }

    /// Reads every message out of recorded PE outputs (`dout(t, q)`) and checks that
    /// in frame `i` PE `q` received, bit-exact, the payload its Latin-square sender
    /// `row_i⁻¹(q)` sent. Returns the number of messages checked, or the first wrong one.
    pub fn check_deliveries(
        &self,
        dout: impl Fn(u64, usize) -> bool,
    ) -> Result<usize, DeliveryError> {
        let min = &self.cfg.min;
        let (m, f) = (min.m() as u64, self.f());
        let t0 = self.cfg.t0();
        let mut checked = 0;
        for (i, row) in self.rows.iter().enumerate() {
            let sender = row.inverse();
            for q in 0..min.n() {
                let src = sender.dst(q);
                let want = self.payloads.message(src, q);
                let base = t0 + i as u64 * f + m;
                let got: Vec<bool> = (m..f).map(|p| dout(base + p, q)).collect();
                if got != want {
                    let bit = got.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(0);
                    return Err(DeliveryError {
                        frame: i,
                        receiver: q,
                        sender: src,
                        bit,
                        bit_time: base + m + bit as u64,
                    });
                }
                checked += 1;
            }
        }
        Ok(checked)
    }
}

/// A message that did not arrive intact.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "frame {frame}: PE {receiver} did not receive the message from PE {sender} \
     (payload bit {bit} wrong at bit-time {bit_time})"
)]
pub struct DeliveryError {
    /// The frame.
    pub frame: usize,
    /// The receiving PE.
    pub receiver: usize,
    /// The PE that should have sent it (by the Latin square).
    pub sender: usize,
    /// The first wrong payload bit.
    pub bit: usize,
    /// When that bit should have arrived.
    pub bit_time: u64,
}
