//! Parameters of a whole LCA network in hardware and the lengths they imply
//! (`docs/protocol.md` §9, `docs/interface.md`).
//!
//! [`NetParams`] is validated once from a [`Topology`] and the generation choices
//! (algorithm, arbiter policy, link width, message bits); the golden model, the RTL
//! generator and the co-simulation all take it as given.

use super::super::params::{clog2, ArbiterPolicy, PacketFormat, ParamError, SwitchParams};
use super::super::params::{SetupMode, SwitchTopology, MAX_STEP};
use crate::lcan::routing::Algorithm;
use crate::lcan::{Kind, Topology};
use serde::Serialize;

/// Largest message a PE interface carries (bits).
pub const MAX_MSG_BITS: usize = 64;

/// Why a network cannot be generated with these parameters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetParamError {
    /// The switch parameters are not supported.
    #[error("switch parameters: {0}")]
    Switch(#[from] ParamError),
    /// `--message-bits` out of range.
    #[error("message bits = {0}: must be between 1 and {MAX_MSG_BITS}")]
    MessageBits(usize),
    /// A data step would be longer than the step counters can count.
    #[error("a data step would last {len} bit-times, more than the supported {MAX_STEP}")]
    DataTooLong {
        /// Its length.
        len: usize,
    },
    /// The algorithm has no hardware (cycle-level model, RTL) yet.
    #[error("algorithm {0}: the network hardware (cycle-level model and RTL) runs r1 and r2 only; r3 is software-only so far (issue 14 item 2)")]
    Unsupported(&'static str),
}

/// A validated network parameterization.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NetParams {
    /// Topology kind.
    pub kind: Kind,
    /// PEs.
    pub n: usize,
    /// The parameters every switch of the network shares.
    pub switch: SwitchParams,
    /// R1 or R2.
    pub algorithm: Algorithm,
    /// Message bits `M` per PE.
    pub msg_bits: usize,
    /// The packet format of the switches.
    pub fmt: PacketFormat,
    /// Bits of a plain PE number (the top-level destination inputs): `⌈log2 n⌉`, at least 1.
    pub abin: usize,
    /// Whether PE numbers must be converted to label digits in hardware (some radix is not
    /// a power of two); otherwise the label digits are the bits of the PE number.
    pub convert: bool,
    /// Bit-times of a message frame (start bit + `M` bits): `n(1 + M)`.
    pub nf: usize,
    /// Bit-times of the `LOAD` step: `abin` with conversion, else 1.
    pub t_load: usize,
}

impl NetParams {
    /// Validates the parameters of a network on `topo`.
    pub fn new(
        topo: &Topology,
        algorithm: Algorithm,
        policy: ArbiterPolicy,
        width: usize,
        msg_bits: usize,
    ) -> Result<Self, NetParamError> {
        if algorithm == Algorithm::R3 {
            return Err(NetParamError::Unsupported(algorithm.name()));
        }
        let topology = match topo.kind() {
            Kind::Tree => SwitchTopology::Tree,
            Kind::CompleteBipartite => SwitchTopology::Cb,
            Kind::File => SwitchTopology::Table { pes: topo.n() },
        };
        let switch = SwitchParams::new(topo.d(), topo.u(), width, topo.levels(), topology, policy)?;
        if msg_bits == 0 || msg_bits > MAX_MSG_BITS {
            return Err(NetParamError::MessageBits(msg_bits));
        }
        let fmt = switch.format();
        let n = topo.n();
        let abin = clog2(n).max(1);
        // Π networks route by plain PE numbers; T and CB by label digits.
        let convert =
            topo.kind() != Kind::File && fmt.digits.iter().any(|&(_, _, r)| !r.is_power_of_two());
        let nf = (1 + msg_bits).div_ceil(width);
        let longest = nf + 2 * (topo.levels() - 1) + 2;
        if longest > MAX_STEP {
            return Err(NetParamError::DataTooLong { len: longest });
        }
        Ok(NetParams {
            kind: topo.kind(),
            n,
            switch,
            algorithm,
            msg_bits,
            fmt,
            abin,
            convert,
            nf,
            t_load: if convert { abin } else { 1 },
        })
    }

    /// The same network with set-up arbitration `setup` in every switch
    /// (`docs/protocol.md` §12): only the `UP`, `DOWN` and `PROBE` step lengths change.
    pub fn with_setup(self, setup: SetupMode) -> Result<Self, NetParamError> {
        let switch = self.switch.with_setup(setup)?;
        let fmt = switch.format();
        Ok(NetParams {
            switch,
            fmt,
            ..self
        })
    }

    /// The switches' set-up arbitration.
    pub fn setup(&self) -> SetupMode {
        self.switch.setup
    }

    /// Levels `l`.
    pub fn levels(&self) -> usize {
        self.switch.levels
    }

    /// Link width `W`.
    pub fn width(&self) -> usize {
        self.switch.width
    }

    /// Length in bit-times of a step of `phase` in a pass whose highest LCA level is `h`
    /// (`docs/protocol.md` §9); `None` for `IDLE` and `DONE`, which do not end by themselves.
    pub fn step_len(&self, phase: Phase, h: usize) -> Option<usize> {
        let f = &self.fmt;
        Some(match phase {
            Phase::Idle | Phase::Done => return None,
            Phase::Load => self.t_load,
            Phase::Plan | Phase::Arm => 1,
            Phase::Up => f.t_up,
            Phase::Down => f.t_down,
            Phase::Probe => f.t_probe,
            Phase::Deliv => 2,
            Phase::Data => self.nf + 2 * h + 2,
            Phase::Ack => 2 * h + 2,
        })
    }

    /// Bit-times of one pass with highest LCA level `h`, from its `PLAN` step to the end of
    /// its `ACK` step.
    pub fn pass_len(&self, h: usize) -> usize {
        let len = |p| self.step_len(p, h).unwrap_or(0);
        let setup = match self.algorithm {
            Algorithm::R1 => (h + 1) * (len(Phase::Up) + len(Phase::Down)),
            Algorithm::R2 => (2 * h + 1) * len(Phase::Probe),
            Algorithm::R3 => unreachable!("NetParams::new rejects R3"),
        };
        len(Phase::Plan)
            + len(Phase::Arm)
            + setup
            + len(Phase::Deliv)
            + len(Phase::Data)
            + len(Phase::Ack)
    }

    /// Bits of one PE's transmit register: the longest of what it sends (`P1` or a probe,
    /// a frame, an acknowledgement), `W` lanes per bit-time.
    pub fn pe_tx_bits(&self) -> usize {
        let setup = match self.algorithm {
            Algorithm::R1 => self.fmt.n1,
            Algorithm::R2 => self.fmt.nr,
            Algorithm::R3 => unreachable!("NetParams::new rejects R3"),
        };
        setup.max(self.nf) * self.width()
    }

    /// Bits of one PE's frame receive register `rxf`: `NF·W`.
    pub fn pe_rx_bits(&self) -> usize {
        self.nf * self.width()
    }

    /// Bit-times from `LOAD` to `DONE` (the `bit_times` output at `done`) for passes whose
    /// highest LCA levels are `tops` (`docs/interface.md` §4).
    pub fn total_bit_times(&self, tops: &[usize]) -> usize {
        self.t_load + tops.iter().map(|&h| self.pass_len(h)).sum::<usize>() + 1
    }
}

/// The controller's phases (`docs/protocol.md` §9); the code is the RTL's `st` register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Phase {
    /// Waiting for `start` (after reset).
    Idle,
    /// Destinations latched; switches held in `ctl_init`; label digits converted.
    Load,
    /// One bit-time: crosspoints cleared; `H` computed from the pending PEs.
    Plan,
    /// One bit-time: PEs load their first set-up packet.
    Arm,
    /// R1 phase 1 step.
    Up,
    /// R1 phase 2 step.
    Down,
    /// R2 step.
    Probe,
    /// Level 0 delivers claims or probes to the PEs.
    Deliv,
    /// Pass-through: frames.
    Data,
    /// Reverse: acknowledgements.
    Ack,
    /// Every PE delivered (or a range error): results held until the next `start`.
    Done,
}

impl Phase {
    /// The RTL's state code.
    pub fn code(self) -> u64 {
        self as u64
    }

    /// The phase of a state code (`None` for codes above 10).
    pub fn from_code(code: u64) -> Option<Phase> {
        use Phase::*;
        [
            Idle, Load, Plan, Arm, Up, Down, Probe, Deliv, Data, Ack, Done,
        ]
        .get(code as usize)
        .copied()
    }
}
