//! Parameters of a whole LCA network in hardware and the lengths they imply
//! (`docs/protocol.md` §9, `docs/interface.md`).
//!
//! [`NetParams`] is validated once from a [`Topology`] and the generation choices
//! (algorithm, arbiter policy, link width, message bits); the golden model, the RTL
//! generator and the co-simulation all take it as given.

use super::super::params::{clog2, ArbiterPolicy, PacketFormat, ParamError, SwitchParams};
use super::super::params::{LevelShapes, SetupMode, SwitchTopology, MAX_STEP};
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
    /// An R3 source-routed stream would not fit the PE's transmit register.
    #[error("r3: a PE's source-routed stream would be {bits} bits ((1 + (2l−1)·nf + ⌈M/W⌉)·W), more than the supported {max}")]
    StreamTooLong {
        /// Its bits.
        bits: usize,
        /// The limit.
        max: usize,
    },
}

/// Largest R3 stream (the PE's transmit register, `docs/interface.md` §11.1), in bits.
pub const MAX_R3_STREAM_BITS: usize = 256;

/// A validated network parameterization.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NetParams {
    /// Topology kind.
    pub kind: Kind,
    /// PEs.
    pub n: usize,
    /// The switch of every level, level 0 first (all equal when the switch sizes do not
    /// vary by level; levels of one shape share their parameters). In JSON: `switch`, level
    /// 0's (whose `shapes` lists every level's `d` and `u` when they vary).
    #[serde(rename = "switch", serialize_with = "level0")]
    pub switches: Vec<SwitchParams>,
    /// R1, R2 or R3.
    pub algorithm: Algorithm,
    /// Message bits `M` per PE.
    pub msg_bits: usize,
    /// The packet format of the switches (one for the whole network); its step lengths
    /// `t_up`, `t_down`, `t_probe` are the longest any level's switch needs.
    pub fmt: PacketFormat,
    /// Bits of a plain PE number (the top-level destination inputs): `⌈log2 n⌉`, at least 1.
    pub abin: usize,
    /// Whether PE numbers must be converted to label digits in hardware (some radix is not
    /// a power of two); otherwise the label digits are the bits of the PE number.
    pub convert: bool,
    /// Bit-times of a message frame (start bit + `M` bits): `n(1 + M)`; R3: `1 + ⌈M/W⌉`
    /// (`V`, then the payload).
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
        // R3 has no arbiter (docs/interface.md §11): the policy does not exist for it.
        let policy = if algorithm == Algorithm::R3 {
            ArbiterPolicy::Fixed
        } else {
            policy
        };
        let topology = match topo.kind() {
            Kind::Tree => SwitchTopology::Tree,
            Kind::CompleteBipartite => SwitchTopology::Cb,
            Kind::File => SwitchTopology::Table { pes: topo.n() },
        };
        let l = topo.levels();
        let shapes = match topo.uniform() {
            Some(_) => None,
            None => Some(LevelShapes::new(topo.ds(), topo.us())?),
        };
        let switches = (0..l)
            .map(|i| match shapes {
                None => SwitchParams::new(topo.d_at(i), topo.u_at(i), width, l, topology, policy),
                Some(s) => SwitchParams::per_level(s, i, width, topology, policy),
            })
            .collect::<Result<Vec<_>, ParamError>>()?;
        if msg_bits == 0 || msg_bits > MAX_MSG_BITS {
            return Err(NetParamError::MessageBits(msg_bits));
        }
        let fmt = network_format(&switches);
        let n = topo.n();
        let abin = clog2(n).max(1);
        // Π networks route by plain PE numbers; T and CB by label digits.
        let convert =
            topo.kind() != Kind::File && fmt.digits.iter().any(|&(_, _, r)| !r.is_power_of_two());
        let r3 = algorithm == Algorithm::R3;
        // R3: the destination receives V, then the payload (docs/interface.md §11.1).
        let nf = if r3 {
            1 + msg_bits.div_ceil(width)
        } else {
            (1 + msg_bits).div_ceil(width)
        };
        let longest = if r3 {
            let nfld = switches[0].route_field_bits().div_ceil(width);
            let bits = (1 + (2 * l - 1) * nfld + msg_bits.div_ceil(width)) * width;
            if bits > MAX_R3_STREAM_BITS {
                return Err(NetParamError::StreamTooLong {
                    bits,
                    max: MAX_R3_STREAM_BITS,
                });
            }
            (2 * l - 1) * (nfld + 1) + msg_bits.div_ceil(width) + 2
        } else {
            nf + 2 * (l - 1) + 2
        };
        if longest > MAX_STEP {
            return Err(NetParamError::DataTooLong { len: longest });
        }
        Ok(NetParams {
            kind: topo.kind(),
            n,
            switches,
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
    /// (`docs/protocol.md` §13): only the `UP`, `DOWN` and `PROBE` step lengths change.
    pub fn with_setup(self, setup: SetupMode) -> Result<Self, NetParamError> {
        let switches = self
            .switches
            .iter()
            .map(|s| s.with_setup(setup))
            .collect::<Result<Vec<_>, _>>()?;
        let fmt = network_format(&switches);
        Ok(NetParams {
            switches,
            fmt,
            ..self
        })
    }

    /// The switch of level `level`.
    pub fn switch_at(&self, level: usize) -> &SwitchParams {
        &self.switches[level]
    }

    /// The distinct switches of the network (one per switch shape), in the order of the
    /// first level that has each.
    pub fn distinct_switches(&self) -> Vec<SwitchParams> {
        let mut out: Vec<SwitchParams> = Vec::new();
        for s in &self.switches {
            if !out.contains(s) {
                out.push(*s);
            }
        }
        out
    }

    /// Whether the switch sizes vary by level.
    pub fn per_level(&self) -> bool {
        self.switches[0].shapes.is_some()
    }

    /// The switches' set-up arbitration.
    pub fn setup(&self) -> SetupMode {
        self.switches[0].setup
    }

    /// The arbiter policy.
    pub fn policy(&self) -> ArbiterPolicy {
        self.switches[0].policy
    }

    /// The switches' topology kind (address decoding).
    pub fn switch_topology(&self) -> SwitchTopology {
        self.switches[0].topology
    }

    /// Levels `l`.
    pub fn levels(&self) -> usize {
        self.switches[0].levels
    }

    /// Link width `W`.
    pub fn width(&self) -> usize {
        self.switches[0].width
    }

    /// Length in bit-times of a step of `phase` in a pass whose highest LCA level is `h`
    /// (`docs/protocol.md` §9, `docs/interface.md` §11.2); `None` for `IDLE` and `DONE`,
    /// which do not end by themselves, and for the phases this algorithm does not have (R3:
    /// `UP`, `DOWN`, `PROBE`, `DELIV`, `DATA`; R1/R2: `SRC`).
    pub fn step_len(&self, phase: Phase, h: usize) -> Option<usize> {
        let f = &self.fmt;
        let r3_only = phase == Phase::Src;
        let r3_lacks = matches!(
            phase,
            Phase::Up | Phase::Down | Phase::Probe | Phase::Deliv | Phase::Data
        );
        if (self.algorithm == Algorithm::R3 && r3_lacks)
            || (self.algorithm != Algorithm::R3 && r3_only)
        {
            return None;
        }
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
            Phase::Src => (2 * h + 1) * (self.field_bit_times() + 1) + self.msg_bit_times() + 2,
        })
    }

    /// R3: bits of an output-port field `f` (`docs/protocol.md` §12.1; the largest of any
    /// level's switch when the sizes vary by level).
    pub fn route_field_bits(&self) -> usize {
        self.switches[0].route_field_bits()
    }

    /// R3: bit-times of a field `nf`.
    pub fn field_bit_times(&self) -> usize {
        self.route_field_bits().div_ceil(self.width())
    }

    /// R3: bits of a PE's route, `RB = (2l − 1)·f` (`docs/interface.md` §11.1).
    pub fn route_bits(&self) -> usize {
        (2 * self.levels() - 1) * self.route_field_bits()
    }

    /// R3: bits of a pass number, `PB = AB`.
    pub fn pass_bits(&self) -> usize {
        self.abin
    }

    /// R3: bit-times of the payload, `NM = ⌈M/W⌉`.
    pub fn msg_bit_times(&self) -> usize {
        self.msg_bits.div_ceil(self.width())
    }

    /// Bit-times of one pass with highest LCA level `h`, from its `PLAN` step to the end of
    /// its `ACK` step.
    pub fn pass_len(&self, h: usize) -> usize {
        let len = |p| self.step_len(p, h).unwrap_or(0);
        let setup = match self.algorithm {
            Algorithm::R1 => (h + 1) * (len(Phase::Up) + len(Phase::Down)),
            Algorithm::R2 => (2 * h + 1) * len(Phase::Probe),
            Algorithm::R3 => {
                return len(Phase::Plan) + len(Phase::Arm) + len(Phase::Src) + len(Phase::Ack)
            }
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
            Algorithm::R3 => {
                return (1
                    + (2 * self.levels() - 1) * self.field_bit_times()
                    + self.msg_bit_times())
                    * self.width()
            }
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

/// Serializes the level-0 switch of `switches`.
fn level0<S: serde::Serializer>(switches: &[SwitchParams], ser: S) -> Result<S::Ok, S::Error> {
    switches[0].serialize(ser)
}

/// The network's packet format: every switch's (they share the address and level fields),
/// with the longest step lengths of any of them (a step is as long as its slowest switch
/// needs, `docs/protocol.md` §3).
fn network_format(switches: &[SwitchParams]) -> PacketFormat {
    let mut fmt = switches[0].format();
    for s in &switches[1..] {
        let f = s.format();
        fmt.t_up = fmt.t_up.max(f.t_up);
        fmt.t_down = fmt.t_down.max(f.t_down);
        fmt.t_probe = fmt.t_probe.max(f.t_probe);
    }
    fmt
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
    /// R3: source-routed set-up and data in one step (`docs/interface.md` §11.2, code 11).
    Src,
}

impl Phase {
    /// The RTL's state code.
    pub fn code(self) -> u64 {
        self as u64
    }

    /// The phase of a state code (`None` for codes above 11).
    pub fn from_code(code: u64) -> Option<Phase> {
        use Phase::*;
        [
            Idle, Load, Plan, Arm, Up, Down, Probe, Deliv, Data, Ack, Done, Src,
        ]
        .get(code as usize)
        .copied()
    }
}
