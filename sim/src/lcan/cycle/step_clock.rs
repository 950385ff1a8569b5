//! The step count every switch keeps (`docs/protocol.md` §3): the bit-time within the current
//! step, and the step's mode and `ctl_level` latched at its first bit-time. It follows the
//! broadcast control alone, so every switch of a network holds the same count: the network
//! model keeps one, hands it to each switch it clocks, and writes it into the others only
//! when they are looked at (`network/fabric.rs`). A switch keeps its count in a
//! [`StepCell`], which that write may go through a shared reference (an atomic, so that
//! models stay `Sync`).

use super::params::MAX_STEP;
use super::types::{Control, Mode};
use std::sync::atomic::{AtomicU32, Ordering};

/// Bit-time within the step, and the step's mode and level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepClock {
    /// Bit-times since the step began (saturating at [`MAX_STEP`]).
    pub bt: usize,
    /// `ctl_mode` at the step's first bit-time.
    pub mode: Mode,
    /// `ctl_level` at the step's first bit-time.
    pub level: u8,
}

impl StepClock {
    /// The power-up (and `ctl_init`) value.
    pub const RESET: StepClock = StepClock {
        bt: 0,
        mode: Mode::Idle,
        level: 0,
    };

    /// Latches the step's mode and level at its first bit-time (before the bit-time's work).
    pub fn latch(&mut self, ctl: &Control) {
        if self.bt == 0 {
            self.mode = Mode::from_code(ctl.mode);
            self.level = ctl.level;
        }
    }

    /// Moves to the next bit-time (a new step after the last one).
    pub fn advance(&mut self, last: bool) {
        self.bt = if last { 0 } else { (self.bt + 1).min(MAX_STEP) };
    }

    /// One whole bit-time of `ctl`, as [`SwitchModel::clock`](super::SwitchModel::clock)
    /// counts it.
    pub fn tick(&mut self, ctl: &Control) {
        if ctl.init {
            *self = Self::RESET;
        } else {
            self.latch(ctl);
            self.advance(ctl.last);
        }
    }
}

/// A [`StepClock`] that can be written through a shared reference (see the module
/// documentation); compared, cloned and printed by value.
#[derive(Default)]
pub struct StepCell(AtomicU32);

impl StepCell {
    /// A cell holding `c`.
    pub fn new(c: StepClock) -> Self {
        StepCell(AtomicU32::new(Self::pack(c)))
    }

    fn pack(c: StepClock) -> u32 {
        // bt ≤ MAX_STEP < 2^16, a 3-bit mode code, an 8-bit level.
        c.bt as u32 | u32::from(c.mode.code()) << 16 | u32::from(c.level) << 24
    }

    /// The count.
    pub fn get(&self) -> StepClock {
        let v = self.0.load(Ordering::Relaxed);
        StepClock {
            bt: (v & 0xFFFF) as usize,
            mode: Mode::from_code((v >> 16) as u8),
            level: (v >> 24) as u8,
        }
    }

    /// Sets the count.
    pub fn set(&self, c: StepClock) {
        self.0.store(Self::pack(c), Ordering::Relaxed);
    }
}

impl Clone for StepCell {
    fn clone(&self) -> Self {
        StepCell::new(self.get())
    }
}

impl PartialEq for StepCell {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl Eq for StepCell {}

impl std::fmt::Debug for StepCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}
