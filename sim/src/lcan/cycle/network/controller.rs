//! The network controller of `docs/interface.md` §4: phases, step counting, the broadcast
//! `ctl_*` of every bit-time, and the counters and flags behind `done`, `error`,
//! `phase`, `passes` and `bit_times`.

use super::super::types::{Control, Mode};
use super::params::{NetParams, Phase};
use super::pe::PeCtl;
use crate::lcan::routing::Algorithm;

/// The controller's registers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Controller {
    /// Current phase (`IDLE` at power-up).
    pub phase: Option<Phase>,
    /// Bit-time within the current step.
    pub bt: usize,
    /// Set-up step `s` of the pass.
    pub step: usize,
    /// `H` of the pass.
    pub top: usize,
    /// `passes` (wraps at 2^16).
    pub passes: u16,
    /// `bit_times` (wraps at 2^32).
    pub bit_times: u32,
    /// Sticky `error`.
    pub error: bool,
    /// Latched `seed16`.
    pub seed16: u16,
    /// R3: passes run so far, `pk` (`docs/interface.md` §11.2).
    pub pk: usize,
    /// R3: latched `npass`.
    pub npass: usize,
}

/// What the PEs report to the controller at one edge.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PeSummary {
    /// Some PE is pending.
    pub any_pending: bool,
    /// The highest LCA level among pending PEs (R3: pending with `pass = pk`).
    pub max_h: usize,
    /// Some active PE has `dst ≥ n`.
    pub range_error: bool,
    /// Some PE received a second frame at this edge.
    pub dup: bool,
}

impl Controller {
    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase.unwrap_or(Phase::Idle)
    }

    /// Length of the current step.
    pub fn step_len(&self, np: &NetParams) -> Option<usize> {
        np.step_len(self.phase(), self.top)
    }

    /// Whether this is the last bit-time of the current step.
    pub fn last(&self, np: &NetParams) -> bool {
        self.step_len(np).is_some_and(|len| self.bt + 1 == len)
    }

    /// The broadcast `ctl_*` of this bit-time (`docs/interface.md` §4 table).
    pub fn control(&self, np: &NetParams) -> Control {
        let phase = self.phase();
        let last = self.last(np);
        let mut c = Control::default();
        match phase {
            Phase::Idle | Phase::Load => c.init = true,
            Phase::Plan | Phase::Done => {
                c.last = true;
                c.clear = true;
            }
            Phase::Arm | Phase::Deliv => c.last = last,
            Phase::Up => {
                c.mode = Mode::Up.code();
                c.last = last;
            }
            Phase::Down => {
                c.mode = Mode::Down.code();
                c.last = last;
                c.level = (2 * self.top + 1 - self.step) as u8;
            }
            Phase::Probe => {
                c.mode = Mode::Probe.code();
                c.last = last;
            }
            Phase::Data => {
                c.mode = Mode::Pass.code();
                c.last = last;
            }
            Phase::Ack => {
                c.mode = Mode::Rev.code();
                c.last = last;
            }
            Phase::Src => {
                c.mode = Mode::Src.code();
                c.last = last;
            }
        }
        c
    }

    /// Whether this bit-time's [`Controller::edge`] reads the summary's `any_pending`,
    /// `max_h` and `range_error` (the last bit-time of `LOAD` and of `PLAN`; `dup` is read
    /// in every bit-time).
    pub fn reads_summary(&self, np: &NetParams) -> bool {
        matches!(self.phase(), Phase::Load | Phase::Plan) && self.last(np)
    }

    /// What the PEs see of the controller in this bit-time.
    pub fn pe_ctl(&self, np: &NetParams) -> PeCtl {
        PeCtl {
            phase: self.phase(),
            bt: self.bt,
            last: self.last(np),
            step: self.step,
            top: self.top,
            pass: self.pk,
        }
    }

    /// The reset edge.
    pub fn reset(&mut self) {
        *self = Controller::default();
    }

    /// The start edge (only in `IDLE` or `DONE`); `npass` is R3's (0 otherwise).
    pub fn start(&mut self, seed16: u16, npass: usize) {
        *self = Controller {
            phase: Some(Phase::Load),
            seed16,
            npass,
            ..Controller::default()
        };
    }

    /// Whether `start` is taken in this bit-time.
    pub fn takes_start(&self) -> bool {
        matches!(self.phase(), Phase::Idle | Phase::Done)
    }

    /// One edge (neither reset nor a taken start).
    pub fn edge(&mut self, np: &NetParams, pes: &PeSummary) {
        let phase = self.phase();
        if !matches!(phase, Phase::Idle | Phase::Done) {
            self.bit_times = self.bit_times.wrapping_add(1);
        }
        if pes.dup {
            self.error = true;
        }
        if !self.last(np) {
            if self.step_len(np).is_some() {
                self.bt += 1;
            }
            return;
        }
        self.bt = 0;
        let next = match phase {
            Phase::Idle | Phase::Done => phase,
            Phase::Load => {
                if pes.range_error {
                    self.error = true;
                }
                Phase::Plan
            }
            Phase::Plan => {
                let r3_done = np.algorithm == Algorithm::R3 && self.pk == self.npass;
                if self.error || !pes.any_pending || r3_done {
                    Phase::Done
                } else {
                    self.top = pes.max_h;
                    self.passes = self.passes.wrapping_add(1);
                    Phase::Arm
                }
            }
            Phase::Arm => {
                self.step = 0;
                match np.algorithm {
                    Algorithm::R1 => Phase::Up,
                    Algorithm::R2 => Phase::Probe,
                    Algorithm::R3 => Phase::Src,
                }
            }
            Phase::Src => Phase::Ack,
            Phase::Up => {
                self.step += 1;
                if self.step == self.top + 1 {
                    Phase::Down
                } else {
                    Phase::Up
                }
            }
            Phase::Down => {
                if self.step == 2 * self.top + 1 {
                    Phase::Deliv
                } else {
                    self.step += 1;
                    Phase::Down
                }
            }
            Phase::Probe => {
                if self.step == 2 * self.top {
                    Phase::Deliv
                } else {
                    self.step += 1;
                    Phase::Probe
                }
            }
            Phase::Deliv => Phase::Data,
            Phase::Data => Phase::Ack,
            Phase::Ack => {
                self.pk += 1;
                Phase::Plan
            }
        };
        self.phase = Some(next);
    }
}
