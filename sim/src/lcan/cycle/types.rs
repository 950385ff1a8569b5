//! The types at the switch's boundary: modes and broadcast control, per-instance constants,
//! claims, step outcomes and protocol violations (`docs/protocol.md` §2, §3, §7).

use serde::Serialize;

/// The mode of a step (`ctl_mode`, `docs/protocol.md` §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Mode {
    /// Nothing received; the commit clears the output registers (codes 0, 7; and 6 in the
    /// R1/R2 switch, where it is reserved).
    Idle,
    /// R1 phase 1 (code 1).
    Up,
    /// R1 phase 2 (code 2).
    Down,
    /// R2 (code 3).
    Probe,
    /// Pass-through (code 4).
    Pass,
    /// Reverse pass-through (code 5).
    Rev,
    /// Source-routed set-up (code 6): only the R3 switch (`docs/protocol.md` §12).
    Src,
}

impl Mode {
    /// The mode of a 3-bit `ctl_mode` code.
    pub fn from_code(code: u8) -> Mode {
        match code & 7 {
            1 => Mode::Up,
            2 => Mode::Down,
            3 => Mode::Probe,
            4 => Mode::Pass,
            5 => Mode::Rev,
            6 => Mode::Src,
            _ => Mode::Idle,
        }
    }

    /// The `ctl_mode` code of this mode.
    pub fn code(self) -> u8 {
        match self {
            Mode::Idle => 0,
            Mode::Up => 1,
            Mode::Down => 2,
            Mode::Probe => 3,
            Mode::Pass => 4,
            Mode::Rev => 5,
            Mode::Src => 6,
        }
    }
}

/// The broadcast control inputs of one bit-time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Control {
    /// `ctl_init`: reset for a new permutation.
    pub init: bool,
    /// `ctl_mode` (3 bits).
    pub mode: u8,
    /// `ctl_last`: last bit-time of the step.
    pub last: bool,
    /// `ctl_clear`: open all crosspoints, drop waiting winners.
    pub clear: bool,
    /// `ctl_level` (4 bits): level whose waiting winners a `DOWN` step serves.
    pub level: u8,
}

/// Per-instance constant inputs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SwitchConsts {
    /// The switch's level `j` (4 bits).
    pub level: u8,
    /// Salt of the UP arbiter's LFSR.
    pub salt_up: u16,
    /// Salt of the DOWN arbiter's LFSR.
    pub salt_dn: u16,
}

/// A waiting winner, or the content of an S-/D-claim: `(h, s, t)` (encoded addresses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Claim {
    /// LCA level.
    pub h: u64,
    /// Source address (label digits).
    pub s: u64,
    /// Destination address (label digits; 0 in an S-claim).
    pub t: u64,
}

/// What happened to one request slot at a commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum SlotOutcome {
    /// No request in this slot.
    Idle,
    /// Granted, with the wire chosen in each need class: for UP `[upper, —]`, for DOWN
    /// `[up-wire A(x), down-wire C(x)]` (`None` where the request had no need of that class).
    Granted([Option<usize>; 2]),
    /// Rejected.
    Rejected,
}

/// The outcome of the most recent commit (`docs/protocol.md` §7, "step outcome").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepOutcome {
    /// UP slots `A(0..d)`.
    pub up: Vec<SlotOutcome>,
    /// DOWN slots `S(0..u)`, `X(0..d)`, `D(0..u)`.
    pub down: Vec<SlotOutcome>,
}

impl StepOutcome {
    /// No request in any slot, for a switch of `d` downers and `u` uppers.
    pub fn idle(d: usize, u: usize) -> Self {
        StepOutcome {
            up: vec![SlotOutcome::Idle; d],
            down: vec![SlotOutcome::Idle; 2 * u + d],
        }
    }

    /// Every slot back to [`SlotOutcome::Idle`] (no allocation).
    pub fn clear(&mut self) {
        self.up.fill(SlotOutcome::Idle);
        self.down.fill(SlotOutcome::Idle);
    }

    /// Whether no slot had a request.
    pub fn is_idle(&self) -> bool {
        self.up
            .iter()
            .chain(&self.down)
            .all(|s| *s == SlotOutcome::Idle)
    }
}

/// A violation of the step rules of `docs/protocol.md` §3 (the RTL is then unspecified).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// `ctl_mode` changed inside a step.
    #[error("ctl_mode changed from {from:?} to {to:?} inside a step (bit {bt} of the step)")]
    ModeChanged {
        /// Mode at the step's first bit-time.
        from: Mode,
        /// New mode.
        to: Mode,
        /// Bit-time within the step.
        bt: usize,
    },
    /// `ctl_level` changed inside a `DOWN` step.
    #[error("ctl_level changed inside a DOWN step (bit {bt} of the step)")]
    LevelChanged {
        /// Bit-time within the step.
        bt: usize,
    },
    /// A step ended before its arbitration window.
    #[error("a {mode:?} step ended after {len} bit-times; it needs at least {min}")]
    StepTooShort {
        /// The mode.
        mode: Mode,
        /// Its length.
        len: usize,
        /// The minimum.
        min: usize,
    },
    /// `ctl_clear` during a routing step (`UP`, `DOWN`, `PROBE`, `SRC`).
    #[error("ctl_clear asserted during a {0:?} step (only IDLE, PASS and REV allow it)")]
    ClearInRoutingStep(Mode),
    /// Wrong number of input lanes.
    #[error("expected {d} A inputs and {u} B inputs, got {a} and {b}")]
    InputCount {
        /// Expected A inputs.
        d: usize,
        /// Expected B inputs.
        u: usize,
        /// Given A inputs.
        a: usize,
        /// Given B inputs.
        b: usize,
    },
}
