//! The cycle-level (bit-time) golden model: every node-facing output of the k-cube at
//! every bit time, for `semi` (Algorithm 1), `full` (Algorithm 2, overlapped schedule),
//! `full-sequential` (Algorithm 2, the paper's schedule) and `sort` (sort-then-pack).
//!
//! It replays the protocol of `docs/hypercube.md` phase by phase at the level of
//! **frames and registers**: it builds every frame bit by bit exactly as a node's
//! sender does (start bit, relative-address bits in transmission order computed from
//! the node's address and its E register, body bits from a buffer), routes the frames
//! with the algorithm-level [`route_frames`](super::semi::route_frames) (which merges
//! colliding frames by OR, as the pipeline does), computes enumerations with the
//! algorithm-level [`butterfly`](super::enumerate::butterfly), sorts with the
//! algorithm-level compare-exchange of [`super::sort`], and lets receivers decode what
//! arrives (buffers, E register, flags). The timing formulas of [`super::timing`],
//! [`super::overlap`] and [`super::sort`] then place every delivered bit and every
//! collision in time. Nothing here reads the RTL; the tests check that the replay ends
//! with the algorithm-level model's placement. One module per schedule:
//! [`sequential`], [`overlapped`], [`sorting`].

use super::semi::Collision;
use super::timing::{total_bit_times, Algorithm, Phase};
use super::{CubeParams, HypercubeError};
use crate::perm::PartialPermutation;
use serde::Serialize;

/// What one node shows on its outputs at one bit time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct NodeOutputs {
    /// The node's delivery register (bit-serial arrivals of every routing phase).
    pub rx_bit: bool,
    /// `done` and the node holds a delivered message.
    pub rx_valid: bool,
    /// The delivered payload while `rx_valid`, else 0.
    pub rx_payload: u64,
    /// Sticky: two frames met in this node's pipeline during this run.
    pub collision: bool,
}

/// The cube's global outputs at one bit time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct GlobalOutputs {
    /// The run is over; results are valid.
    pub done: bool,
    /// Bit times elapsed in the run (frozen once `done`).
    pub bit_time: u64,
    /// OR of every node's collision flag.
    pub collision: bool,
}

/// A stream of bits through a node's delivery register: a frame (start bit, then its
/// body) or, in a sort pass, a record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Delivery {
    /// Bit time at which the delivery register holds `bits[0]`.
    pub start: u64,
    /// The bits, one per bit time (a frame's start bit first).
    pub bits: Vec<bool>,
    /// The nodes whose frames make it up.
    pub sources: Vec<usize>,
}

impl Delivery {
    /// A frame whose start bit is in the delivery register at `start`.
    pub fn frame(start: u64, body: &[bool], sources: Vec<usize>) -> Self {
        let mut bits = Vec::with_capacity(body.len() + 1);
        bits.push(true);
        bits.extend_from_slice(body);
        Self {
            start,
            bits,
            sources,
        }
    }

    /// The bit in the delivery register at `t` (0 outside the stream).
    pub fn bit_at(&self, t: u64) -> bool {
        t >= self.start && self.bits.get((t - self.start) as usize) == Some(&true)
    }
}

/// Who sent to whom in one phase, as seen by the replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PhaseRecord {
    /// The phase.
    pub phase: Phase,
    /// Loop of Algorithm 2 (`None` for `semi`).
    pub dim: Option<usize>,
    /// Bit time of phase cycle 0.
    pub start: u64,
    /// `(from, to)` of every frame (or crossing message), sorted.
    pub moves: Vec<(usize, usize)>,
    /// Collisions of this phase.
    pub collisions: Vec<Collision>,
}

/// The predicted behaviour of a whole run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CycleTrace {
    /// Parameters.
    pub params: CubeParams,
    /// Algorithm run.
    pub algorithm: Algorithm,
    /// Bit times of the run ([`total_bit_times`]); `done` is visible from `total + 1`.
    pub total: u64,
    /// Per node, the frames it receives, in time order.
    pub deliveries: Vec<Vec<Delivery>>,
    /// Per node, the first bit time at which its collision flag reads 1.
    pub collision_at: Vec<Option<u64>>,
    /// Per node, the final (destination field, payload) in buffer A, when valid. In
    /// `semi` mode the destination field is the node itself.
    pub placement: Vec<Option<(usize, u64)>>,
    /// Per phase, what moved.
    pub phases: Vec<PhaseRecord>,
}

impl CycleTrace {
    /// Outputs of node `x` at bit time `t` (`t = 0` is the cycle `start` is sampled).
    pub fn node(&self, t: u64, x: usize) -> NodeOutputs {
        let rx_bit = self.deliveries[x].iter().any(|d| d.bit_at(t));
        let placed = self.placement[x].filter(|_| t > self.total);
        NodeOutputs {
            rx_bit,
            rx_valid: placed.is_some(),
            rx_payload: placed.map_or(0, |p| p.1),
            collision: self.collision_at[x].is_some_and(|c| t >= c),
        }
    }

    /// Global outputs at bit time `t`.
    pub fn global(&self, t: u64) -> GlobalOutputs {
        GlobalOutputs {
            done: t > self.total,
            bit_time: t.saturating_sub(1).min(self.total),
            collision: self.collision_at.iter().flatten().any(|&c| t >= c),
        }
    }

    /// Every collision of the run, with the phase it happened in.
    pub fn collisions(&self) -> impl Iterator<Item = &Collision> {
        self.phases.iter().flat_map(|p| p.collisions.iter())
    }
}

pub(crate) fn bits(v: usize, w: usize) -> Vec<bool> {
    (0..w).map(|j| v >> j & 1 == 1).collect()
}

pub(crate) fn value(b: &[bool]) -> u64 {
    b.iter().rev().fold(0, |acc, &x| acc << 1 | u64::from(x))
}

/// Register state of one node (or one loop unit of the quadratic cube) in the replay.
#[derive(Debug, Clone, Default)]
pub(crate) struct NodeState {
    /// Buffer A, head (bit 0) first: destination LSB first, then the payload.
    pub(crate) a: Vec<bool>,
    /// Buffer B.
    pub(crate) b: Vec<bool>,
    /// Register E.
    pub(crate) e: Vec<bool>,
    /// A holds a message.
    pub(crate) va: bool,
    /// B holds a message.
    pub(crate) vb: bool,
}

/// The registers after the load cycle: `A = {payload, dest}` as the PE drives them
/// (`dest = 0` for a silent PE, whose payload input is still loaded), `va = send`.
pub(crate) fn load(
    params: CubeParams,
    routing: &PartialPermutation,
    payloads: &[u64],
) -> Result<Vec<NodeState>, HypercubeError> {
    // Validates sizes and payload widths.
    super::messages(params, routing, payloads)?;
    let (k, m) = (params.k(), params.message_bits());
    Ok((0..params.n())
        .map(|x| {
            let dest = routing.dst(x);
            let mut a = bits(dest.unwrap_or(0), k);
            a.extend((0..params.payload_bits()).map(|j| payloads[x] >> j & 1 == 1));
            NodeState {
                a,
                b: vec![false; m],
                e: vec![false; k],
                va: dest.is_some(),
                vb: false,
            }
        })
        .collect())
}

/// Records a collision of node `node` visible from bit time `at` (the earliest wins).
pub(crate) fn mark_collision(collision_at: &mut [Option<u64>], node: usize, at: u64) {
    let slot = &mut collision_at[node];
    *slot = Some(slot.map_or(at, |old| old.min(at)));
}

/// Runs the cycle-level model on `routing` with `payloads[src]`.
pub fn simulate(
    params: CubeParams,
    algorithm: Algorithm,
    routing: &PartialPermutation,
    payloads: &[u64],
) -> Result<CycleTrace, HypercubeError> {
    let mut st = load(params, routing, payloads)?;
    let n = params.n();
    let mut tr = CycleTrace {
        params,
        algorithm,
        total: total_bit_times(params, algorithm),
        deliveries: vec![Vec::new(); n],
        collision_at: vec![None; n],
        placement: vec![None; n],
        phases: Vec::new(),
    };
    match algorithm {
        Algorithm::Semi | Algorithm::FullSequential => sequential::replay(&mut st, &mut tr),
        Algorithm::Full => overlapped::replay(&mut st, &mut tr),
        Algorithm::Sort => sorting::replay(&mut st, &mut tr)?,
    }
    let k = params.k();
    for (x, s) in st.iter().enumerate() {
        if s.va {
            // Algorithm 1 (also the last pass of sort-then-pack) consumes the address:
            // its destination is the node itself. Algorithm 2 keeps the field.
            let dest = match algorithm {
                Algorithm::Semi | Algorithm::Sort => x,
                _ => value(&s.a[..k]) as usize,
            };
            tr.placement[x] = Some((dest, value(&s.a[k..])));
        }
    }
    Ok(tr)
}

pub mod overlapped;
pub mod ports;
pub mod sequential;
pub mod sorting;
pub(crate) mod steps;
#[cfg(test)]
mod tests;
