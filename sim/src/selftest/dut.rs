//! The network under test, one of the three families (`docs/selftest.md` §1–§2), with
//! what the shared parts of the self-test need to know about it: PEs, message width,
//! messages per round, the kind of stimulus, and the names on the report line.

use super::line::LineFormat;
use super::params::{SelftestError, MAX_MIN_M, MAX_MSG_BITS};
use crate::hypercube::timing::Algorithm as CubeAlgorithm;
use crate::hypercube::CubeParams;
use crate::lcan::cycle::network::NetParams;
use crate::lcan::Topology;
use crate::min::Min;

/// An LCA network under test.
#[derive(Debug, Clone)]
pub struct LcaNet {
    /// Its topology.
    pub topo: Topology,
    /// Its hardware parameters.
    pub np: NetParams,
}

/// The network under test.
#[derive(Debug, Clone)]
pub enum Dut {
    /// An LCA network routing one random full permutation per round (R1, R2).
    Lca(Box<LcaNet>),
    /// Kuszmaul's k-cube: a random full permutation per round by Algorithm 2 (`full`), or
    /// a random packing per round by Algorithm 1 (`semi`).
    Cube {
        /// `k` and the payload width `L`.
        params: CubeParams,
        /// `semi` or `full`.
        algorithm: CubeAlgorithm,
    },
    /// A baseline, omega or cube MIN: one ATAPE exchange (n frames, n² messages) per round.
    Min {
        /// The network.
        min: Min,
        /// Payload bits `B`.
        message_bits: u32,
    },
}

/// What a round drives into the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StimulusKind {
    /// `n` messages, then a Fisher–Yates shuffle of the destination table.
    Shuffle,
    /// `n` messages and sender bits, then the start of the packing's interval.
    Packing,
    /// `n²` messages, then the row offset.
    Exchange,
}

fn msg_bits_ok(flag: &'static str, bits: usize) -> Result<(), SelftestError> {
    if !(1..=MAX_MSG_BITS).contains(&bits) {
        return Err(SelftestError::MsgBits { flag, bits });
    }
    Ok(())
}

impl Dut {
    /// An LCA network (`n ≥ 2`, `M ≤ 32`, R1 or R2).
    pub fn lca(topo: Topology, np: NetParams) -> Result<Self, SelftestError> {
        msg_bits_ok("--message-bits", np.msg_bits)?;
        if np.algorithm == crate::lcan::routing::Algorithm::R3 {
            return Err(SelftestError::R3);
        }
        if np.n < 2 {
            return Err(SelftestError::TooFewPes(np.n));
        }
        Ok(Dut::Lca(Box::new(LcaNet { topo, np })))
    }

    /// A k-cube (`L ≤ 32`).
    pub fn cube(params: CubeParams, algorithm: CubeAlgorithm) -> Result<Self, SelftestError> {
        msg_bits_ok("--payload-bits", params.payload_bits())?;
        Ok(Dut::Cube { params, algorithm })
    }

    /// A MIN (`m ≤ MAX_MIN_M`, `B ≤ 32`).
    pub fn min(min: Min, message_bits: u32) -> Result<Self, SelftestError> {
        msg_bits_ok("--message-bits", message_bits as usize)?;
        if min.m() > MAX_MIN_M {
            return Err(SelftestError::MinTooLarge(min.m()));
        }
        Ok(Dut::Min { min, message_bits })
    }

    /// PEs `n` (also the clocks of the `CHECK` state).
    pub fn pes(&self) -> usize {
        match self {
            Dut::Lca(l) => l.np.n,
            Dut::Cube { params, .. } => params.n(),
            Dut::Min { min, .. } => min.n(),
        }
    }

    /// Clocks between the sequencer's `START` and the network's `start`
    /// (`docs/selftest.md` §3): 2 for an LCA network and the cube, whose adapters start the
    /// network from a register two clocks after `START` because a shuffle's last swap is
    /// written at the end of the clock after `START` (the cube's for packings too); 0 for
    /// a MIN.
    pub fn start_delay(&self) -> u64 {
        match self {
            Dut::Lca(_) | Dut::Cube { .. } => 2,
            Dut::Min { .. } => 0,
        }
    }

    /// Message (payload) bits.
    pub fn msg_bits(&self) -> usize {
        match self {
            Dut::Lca(l) => l.np.msg_bits,
            Dut::Cube { params, .. } => params.payload_bits(),
            Dut::Min { message_bits, .. } => *message_bits as usize,
        }
    }

    /// Messages drawn per round: `n`, or `n²` for an exchange.
    pub fn messages(&self) -> usize {
        match self.stimulus() {
            StimulusKind::Exchange => self.pes() * self.pes(),
            _ => self.pes(),
        }
    }

    /// What a round drives.
    pub fn stimulus(&self) -> StimulusKind {
        match self {
            Dut::Lca(_) => StimulusKind::Shuffle,
            Dut::Cube { algorithm, .. } if algorithm.routes_any_permutation() => {
                StimulusKind::Shuffle
            }
            Dut::Cube { .. } => StimulusKind::Packing,
            Dut::Min { .. } => StimulusKind::Exchange,
        }
    }

    /// The names on the report line.
    pub fn line(&self) -> LineFormat {
        match self {
            Dut::Lca(_) => LineFormat {
                rounds: "perms",
                ratio: "passes/perm",
                names: ["passes", "bit-times"],
            },
            Dut::Cube { algorithm, .. } => {
                let rounds = if algorithm.routes_any_permutation() {
                    "perms"
                } else {
                    "packings"
                };
                LineFormat {
                    rounds,
                    ratio: if rounds == "perms" {
                        "bit-times/perm"
                    } else {
                        "bit-times/packing"
                    },
                    names: ["bit-times", "messages"],
                }
            }
            Dut::Min { .. } => LineFormat {
                rounds: "exchanges",
                ratio: "bit-times/exchange",
                names: ["bit-times", "messages"],
            },
        }
    }
}
