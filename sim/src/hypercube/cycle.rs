//! The cycle-level (bit-time) golden model: every node-facing output of the k-cube at
//! every bit time, for `semi` (Algorithm 1) and `full` (Algorithm 2).
//!
//! It replays the protocol of `docs/hypercube.md` phase by phase at the level of
//! **frames and registers**: it builds every frame bit by bit exactly as a node's
//! sender does (start bit, relative-address bits in transmission order computed from
//! the node's address and its E register, body bits from a buffer), routes the frames
//! with the algorithm-level [`route_frames`] (which merges colliding frames by OR, as
//! the pipeline does), computes enumerations with the algorithm-level
//! [`butterfly`], and lets receivers decode what arrives (buffers, E register, flags).
//! The timing formulas of [`super::timing`] then place every delivered bit and every
//! collision in time. Nothing here reads the RTL; the tests check that the replay
//! ends with the algorithm-level model's placement.

use super::enumerate::butterfly;
use super::semi::{route_frames, Collision, Frame};
use super::timing::{
    collision_visible, delivery_start, schedule, total_bit_times, Algorithm, Phase,
};
use super::{messages, CubeParams, HypercubeError};
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

/// A frame reaching a node's delivery register.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Delivery {
    /// Bit time at which the delivery register holds the start bit.
    pub start: u64,
    /// The body bits that follow, one per bit time.
    pub body: Vec<bool>,
    /// The nodes whose frames make it up.
    pub sources: Vec<usize>,
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
        let rx_bit = self.deliveries[x].iter().any(|d| {
            t == d.start
                || (t > d.start
                    && t <= d.start + d.body.len() as u64
                    && d.body[(t - d.start - 1) as usize])
        });
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

fn bits(v: usize, w: usize) -> Vec<bool> {
    (0..w).map(|j| v >> j & 1 == 1).collect()
}

fn value(b: &[bool]) -> u64 {
    b.iter().rev().fold(0, |acc, &x| acc << 1 | u64::from(x))
}

/// Register state of one node in the replay.
#[derive(Debug, Clone, Default)]
struct NodeState {
    a: Vec<bool>,
    b: Vec<bool>,
    e: Vec<bool>,
    va: bool,
    vb: bool,
}

/// Runs the cycle-level model on `routing` with `payloads[src]`.
pub fn simulate(
    params: CubeParams,
    algorithm: Algorithm,
    routing: &PartialPermutation,
    payloads: &[u64],
) -> Result<CycleTrace, HypercubeError> {
    let msgs = messages(params, routing, payloads)?;
    let (k, n, m) = (params.k(), params.n(), params.message_bits());
    let mut st: Vec<NodeState> = msgs
        .iter()
        .map(|msg| {
            // The load cycle copies (dest, payload) into A; a silent PE's A is unused.
            let (dest, payload) = msg.map_or((0, 0), |m| (m.dest, m.payload));
            let mut a = bits(dest, k);
            a.extend((0..params.payload_bits()).map(|j| payload >> j & 1 == 1));
            NodeState {
                a,
                b: vec![false; m],
                e: vec![false; k],
                va: msg.is_some(),
                vb: false,
            }
        })
        .collect();
    let mut tr = CycleTrace {
        params,
        algorithm,
        total: total_bit_times(params, algorithm),
        deliveries: vec![Vec::new(); n],
        collision_at: vec![None; n],
        placement: vec![None; n],
        phases: Vec::new(),
    };
    for sp in schedule(params, algorithm) {
        let i = sp.dim.unwrap_or(0);
        let mut moves = Vec::new();
        let mut collisions = Vec::new();
        match sp.phase {
            Phase::Cross => {
                let go: Vec<bool> = (0..n)
                    .map(|x| st[x].va && st[x].a[i] != (x >> i & 1 == 1))
                    .collect();
                let old = st.clone();
                for x in 0..n {
                    let y = x ^ (1 << i);
                    let keep = old[x].va && !go[x];
                    let (va, vb) = (keep || go[y], keep && go[y]);
                    if go[y] {
                        moves.push((y, x));
                        if keep {
                            st[x].b = old[y].a.clone();
                        } else {
                            st[x].a = old[y].a.clone();
                        }
                    } else if go[x] {
                        st[x].a = vec![false; m];
                    }
                    (st[x].va, st[x].vb) = (va, vb);
                }
            }
            Phase::EnumDoubles | Phase::EnumEmpties => {
                let s: Vec<bool> = st
                    .iter()
                    .map(|s| match sp.phase {
                        Phase::EnumDoubles => s.va && s.vb,
                        _ => !s.va,
                    })
                    .collect();
                let o = butterfly(k, &s, i + 1).o.pop().expect("k + 1 ranks");
                for x in 0..n {
                    st[x].e = bits(o[x], k);
                }
            }
            phase => {
                let order = phase.order().expect("a routing phase");
                let frames = (0..n)
                    .map(|x| {
                        let s = &st[x];
                        let xb = |d: usize| x >> d & 1 == 1;
                        let (send, addr, body) = match phase {
                            Phase::Semi => (
                                s.va,
                                (0..k).map(|d| s.a[d] ^ xb(d)).collect::<Vec<_>>(),
                                s.a[k..].to_vec(),
                            ),
                            Phase::PackDoubles | Phase::PackEmpties => (
                                if phase == Phase::PackDoubles {
                                    s.va && s.vb
                                } else {
                                    !s.va
                                },
                                (0..k).map(|d| d > i && (xb(d) ^ s.e[d - i - 1])).collect(),
                                if phase == Phase::PackDoubles {
                                    s.b.clone()
                                } else {
                                    (0..k).rev().map(xb).collect()
                                },
                            ),
                            _ => (
                                s.vb,
                                (0..k).map(|j| xb(k - 1 - j) ^ s.e[j]).collect(),
                                s.b.clone(),
                            ),
                        };
                        send.then(|| Frame {
                            addr,
                            body,
                            sources: vec![x],
                        })
                    })
                    .collect();
                let out = route_frames(k, order, frames);
                for c in &out.collisions {
                    let at = sp.start + collision_visible(c.step);
                    let slot = &mut tr.collision_at[c.node];
                    *slot = Some(slot.map_or(at, |old| old.min(at)));
                }
                collisions = out.collisions;
                let hit: Vec<Option<Frame>> = out.arrivals;
                for (y, f) in hit.iter().enumerate() {
                    if let Some(f) = f {
                        moves.extend(f.sources.iter().map(|&s| (s, y)));
                        tr.deliveries[y].push(Delivery {
                            start: sp.start + delivery_start(k),
                            body: f.body.clone(),
                            sources: f.sources.clone(),
                        });
                    }
                    let got = f.as_ref().map(|f| f.body.clone());
                    let s = &mut st[y];
                    match phase {
                        Phase::Semi => {
                            let zeros = vec![false; params.payload_bits()];
                            s.a.truncate(k);
                            s.a.extend(got.clone().unwrap_or(zeros));
                            s.va = got.is_some();
                        }
                        Phase::PackDoubles => {
                            s.b = got.clone().unwrap_or_else(|| vec![false; m]);
                            s.vb = got.is_some();
                        }
                        Phase::PackEmpties => s.e = got.unwrap_or_else(|| vec![false; k]),
                        _ => {
                            if let Some(body) = got {
                                s.a = body;
                                s.va = true;
                            }
                            s.vb = false;
                        }
                    }
                }
            }
        }
        moves.sort_unstable();
        tr.phases.push(PhaseRecord {
            phase: sp.phase,
            dim: sp.dim,
            start: sp.start,
            moves,
            collisions,
        });
    }
    for (x, s) in st.iter().enumerate() {
        if s.va {
            let dest = match algorithm {
                Algorithm::Semi => x,
                Algorithm::Full => value(&s.a[..k]) as usize,
            };
            tr.placement[x] = Some((dest, value(&s.a[k..])));
        }
    }
    Ok(tr)
}

pub mod ports;
#[cfg(test)]
mod tests;
