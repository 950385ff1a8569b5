//! The replay of the sequential controller (`docs/hypercube.md` §5–§6): `semi`
//! (Algorithm 1) and `full-sequential` (Algorithm 2 with the paper's six phases one
//! after the other, every loop walking all `k` dimensions; the dimensions `<= i` of
//! loop `i` are passed through with address bit 0).

use super::steps::{cross, frame, route_phase, semi, xb};
use super::{bits, mark_collision, CycleTrace, NodeState, PhaseRecord};
use crate::hypercube::enumerate::butterfly;
use crate::hypercube::timing::{schedule, Phase};

/// Replays the run of `tr.algorithm` (`Semi` or `FullSequential`) on the loaded state.
pub(crate) fn replay(st: &mut [NodeState], tr: &mut CycleTrace) {
    let params = tr.params;
    let (k, n, m) = (params.k(), params.n(), params.message_bits());
    for sp in schedule(params, tr.algorithm) {
        let i = sp.dim.unwrap_or(0);
        let mut moves = Vec::new();
        let mut collisions = Vec::new();
        match sp.phase {
            Phase::Cross => moves = cross(st, i),
            Phase::Semi => {
                let out = semi(st, k, sp.start);
                tr.absorb(&out);
                moves = out.moves;
                collisions = out.collisions.into_iter().map(|(_, c)| c).collect();
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
                        let (send, addr, body) = match phase {
                            Phase::PackDoubles | Phase::PackEmpties => (
                                if phase == Phase::PackDoubles {
                                    s.va && s.vb
                                } else {
                                    !s.va
                                },
                                (0..k)
                                    .map(|d| d > i && (xb(x, d) ^ s.e[d - i - 1]))
                                    .collect::<Vec<_>>(),
                                if phase == Phase::PackDoubles {
                                    s.b.clone()
                                } else {
                                    (0..k).rev().map(|d| xb(x, d)).collect()
                                },
                            ),
                            _ => (
                                s.vb,
                                (0..k).map(|j| xb(x, k - 1 - j) ^ s.e[j]).collect(),
                                s.b.clone(),
                            ),
                        };
                        send.then(|| frame(x, addr, body))
                    })
                    .collect();
                let out = route_phase(k, order, frames, sp.start, k, 0);
                tr.absorb(&out);
                moves = out.moves;
                collisions = out.collisions.into_iter().map(|(_, c)| c).collect();
                for (y, f) in out.arrivals.iter().enumerate() {
                    let got = f.as_ref().map(|f| f.body.clone());
                    let s = &mut st[y];
                    match phase {
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
        tr.phases.push(PhaseRecord {
            phase: sp.phase,
            dim: sp.dim,
            start: sp.start,
            moves,
            collisions,
        });
    }
}

impl CycleTrace {
    /// Adds a routing phase's deliveries and collision flags to the trace.
    pub(crate) fn absorb(&mut self, out: &super::steps::Routed) {
        for (y, d) in &out.deliveries {
            self.deliveries[*y].push(d.clone());
        }
        for (at, c) in &out.collisions {
            mark_collision(&mut self.collision_at, c.node, *at);
        }
    }
}
