//! R2, one pass of randomized bi-directional circuit routing (docs/routing.md §4; 002
//! §3.1, §3.3).
//!
//! Every undelivered source injects a probe at step 0; a probe moves one hop per step
//! and claims the wire it moves on until the end of the pass. At a switch in one step
//! the DOWN arbiter serves turning (`A(x)`, `h = level`) and descending (`B(k)`) probes,
//! which need a down-wire `C(x')` with `x' ∈ down(X, t)`; then the UP arbiter serves
//! climbing probes, which need an upper from `up(X, c)`. Rejected probes die (their
//! claims stay). Phase 3 is R1's.

use super::state::{Arbiters, PassState, Port, CLASS_C};
use super::{Conflict, Pass, RoutingError};
use crate::lcan::arbiter::{Need, Request};
use crate::lcan::paths::Connection;
use crate::lcan::topology::{DownEnd, Topology};
use std::collections::{BTreeMap, HashMap};

/// Index of the uppers' up-wires `D(k)` in [`PassState::free`].
const FREE_D: usize = 2;

#[derive(Clone, Copy)]
struct Probe {
    conn: usize,
    arrived: Port,
}

/// Runs one pass over the `pending` connections.
pub(super) fn pass(
    topo: &Topology,
    conns: &[Connection],
    lca: &[usize],
    pending: &[usize],
    arb: &mut Arbiters,
    conflict: Conflict,
) -> Result<Pass, RoutingError> {
    let h_top = pending.iter().map(|&i| lca[i]).max().unwrap_or(0);
    let mut st = PassState::new(topo, conflict);
    let mut at: BTreeMap<usize, Vec<Probe>> = BTreeMap::new();
    for &i in pending {
        let (sw, x) = topo.pe_port(conns[i].src);
        at.entry(topo.global_index(0, sw)).or_default().push(Probe {
            conn: i,
            arrived: Port::A(x),
        });
    }
    // Switch model: priority key (l − 1 − h, s), as R1's claims (docs/routing.md §5).
    let levels = topo.levels();
    let key = |i: usize| match conflict {
        Conflict::Wire => 0,
        Conflict::Switch => (((levels - 1 - lca[i]) as u64) << 32) | conns[i].src as u64,
    };
    let mut steps_run = 0;
    while !at.is_empty() {
        steps_run += 1;
        if steps_run > 2 * h_top + 2 {
            return Err(RoutingError::Internal(
                "an R2 probe outlived its pass".into(),
            ));
        }
        let mut next: BTreeMap<usize, Vec<Probe>> = BTreeMap::new();
        for (g, probes) in std::mem::take(&mut at) {
            let (level, sw) = topo.from_global(g);
            let (mut downs, mut ups) = (Vec::new(), Vec::new());
            for p in probes {
                match p.arrived {
                    Port::A(_) if lca[p.conn] > level => ups.push(p),
                    _ => downs.push(p),
                }
            }
            // DOWN arbitration: turning and descending probes.
            if let Some(best) = downs.iter().map(|p| key(p.conn)).min() {
                st.preempt(g, best);
            }
            let reqs: Vec<Request> = downs
                .iter()
                .map(|p| Request {
                    requester: match p.arrived {
                        Port::B(k) => k,
                        Port::A(x) => topo.u() + x,
                        _ => 0,
                    },
                    tier: 0,
                    key: key(p.conn),
                    needs: vec![Need {
                        class: 0,
                        allowed: topo.down(level, sw, conns[p.conn].dst),
                    }],
                    eligible: st.eligible(g, p.conn),
                })
                .collect();
            let max = st.max_grants();
            let mut free = [st.free(g)[CLASS_C]];
            let grants = arb.down(g).arbitrate(&reqs, &mut free, max);
            st.free(g)[CLASS_C] = free[0];
            for (p, grant) in downs.iter().zip(grants) {
                let Some(w) = grant else { continue };
                st.own(g, p.conn, key(p.conn));
                st.close(g, p.conn, p.arrived, Port::C(w[0]))?;
                if let DownEnd::Switch { switch, upper } = topo.down_link(level, sw, w[0]) {
                    next.entry(topo.global_index(level - 1, switch))
                        .or_default()
                        .push(Probe {
                            conn: p.conn,
                            arrived: Port::B(upper),
                        });
                }
            }
            // UP arbitration: climbing probes.
            if let Some(best) = ups.iter().map(|p| key(p.conn)).min() {
                st.preempt(g, best);
            }
            let reqs: Vec<Request> = ups
                .iter()
                .map(|p| {
                    let c = conns[p.conn];
                    Request {
                        requester: match p.arrived {
                            Port::A(x) => x,
                            _ => 0,
                        },
                        tier: 0,
                        key: key(p.conn),
                        needs: vec![Need {
                            class: 0,
                            allowed: topo.up(level, sw, c.src, c.dst),
                        }],
                        eligible: st.eligible(g, p.conn),
                    }
                })
                .collect();
            let mut free = [st.free(g)[FREE_D]];
            let grants = arb.up(g).arbitrate(&reqs, &mut free, max);
            st.free(g)[FREE_D] = free[0];
            for (p, grant) in ups.iter().zip(grants) {
                let Some(w) = grant else { continue };
                st.own(g, p.conn, key(p.conn));
                st.close(g, p.conn, p.arrived, Port::D(w[0]))?;
                let (parent, x) = topo
                    .up_link(level, sw, w[0])
                    .ok_or_else(|| RoutingError::Internal("R2 probe above the top".into()))?;
                next.entry(topo.global_index(level + 1, parent))
                    .or_default()
                    .push(Probe {
                        conn: p.conn,
                        arrived: Port::A(x),
                    });
            }
        }
        at = next;
    }
    let by_src: HashMap<usize, usize> = pending.iter().map(|&i| (conns[i].src, i)).collect();
    let mut senders: Vec<usize> = pending.iter().map(|&i| conns[i].src).collect();
    senders.sort_unstable();
    let delivered = st.deliver(conns, lca, &by_src, &senders)?;
    Ok(Pass {
        delivered,
        steps: 2 * h_top + 2,
        top_level: h_top,
        attempted: pending.len(),
        senders,
        crosspoints: st.crosspoints(),
    })
}
