//! R2, one pass of randomized bi-directional circuit routing (docs/routing.md §4; 002
//! §3.1, §3.3).
//!
//! Every undelivered source injects a probe at step 0; a probe moves one hop per step
//! and claims the wire it moves on until the end of the pass. At a switch in one step
//! the DOWN arbiter serves turning (`A(x)`, `h = level`) and descending (`B(k)`) probes,
//! which need a down-wire `C(x')` with `x' ∈ down(X, t)`; then the UP arbiter serves
//! climbing probes, which need an upper from `up(X, c)`. Rejected probes die (their
//! claims stay). Phase 3 is R1's.

use super::arbitrate::Requests;
use super::state::{Arbiters, PassState, Port, CLASS_C};
use super::{Conflict, Pass, RoutingError};
use crate::lcan::arbiter::Need;
use crate::lcan::paths::Connection;
use crate::lcan::topology::{DownEnd, Topology};

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
    st: &mut PassState,
    by_src: &[u32],
) -> Result<Pass, RoutingError> {
    let conflict = st.conflict();
    let h_top = pending.iter().map(|&i| lca[i]).max().unwrap_or(0);
    // Probes by the switch they are at (global index, level, switch), processed by switch
    // in ascending global index, in arrival order within a switch.
    let mut at: Vec<(usize, usize, usize, Probe)> = Vec::with_capacity(pending.len());
    for &i in pending {
        let (sw, x) = topo.pe_port(conns[i].src);
        at.push((
            topo.global_index(0, sw),
            0,
            sw,
            Probe {
                conn: i,
                arrived: Port::A(x),
            },
        ));
    }
    // Switch model: priority key (l − 1 − h, s), as R1's claims (docs/routing.md §5).
    let levels = topo.levels();
    let key = |i: usize| match conflict {
        Conflict::Wire => 0,
        Conflict::Switch => (((levels - 1 - lca[i]) as u64) << 32) | conns[i].src as u64,
    };
    let mut reqs = Requests::default();
    let (mut downs, mut ups) = (Vec::new(), Vec::new());
    let mut next: Vec<(usize, usize, usize, Probe)> = Vec::new();
    let mut steps_run = 0;
    while !at.is_empty() {
        steps_run += 1;
        if steps_run > 2 * h_top + 2 {
            return Err(RoutingError::Internal(
                "an R2 probe outlived its pass".into(),
            ));
        }
        next.clear();
        at.sort_by_key(|e| e.0);
        let mut lo = 0;
        while lo < at.len() {
            let (g, level, sw) = (at[lo].0, at[lo].1, at[lo].2);
            let hi = lo + at[lo..].iter().take_while(|e| e.0 == g).count();
            downs.clear();
            ups.clear();
            for &(_, _, _, p) in &at[lo..hi] {
                match p.arrived {
                    Port::A(_) if lca[p.conn] > level => ups.push(p),
                    _ => downs.push(p),
                }
            }
            lo = hi;
            let max = st.max_grants();
            // DOWN arbitration: turning and descending probes.
            if !downs.is_empty() {
                if let Some(best) = downs.iter().map(|p| key(p.conn)).min() {
                    st.preempt(g, best);
                }
                reqs.clear();
                for p in &downs {
                    let requester = match p.arrived {
                        Port::B(k) => k,
                        Port::A(x) => topo.u_at(level) + x,
                        _ => 0,
                    };
                    let allowed = topo.down(level, sw, conns[p.conn].dst);
                    let eligible = st.eligible(g, p.conn);
                    reqs.push(
                        requester,
                        0,
                        key(p.conn),
                        &[Need { class: 0, allowed }],
                        eligible,
                    );
                }
                let mut free = [st.free(g)[CLASS_C]];
                let grants = reqs.arbitrate(arb.down(g), &mut free, max);
                st.free(g)[CLASS_C] = free[0];
                for (p, grant) in downs.iter().zip(grants) {
                    let Some(w) = grant else { continue };
                    st.own(g, p.conn, key(p.conn));
                    st.close(g, p.conn, p.arrived, Port::C(w[0]))?;
                    if let DownEnd::Switch { switch, upper } = topo.down_link(level, sw, w[0]) {
                        next.push((
                            topo.global_index(level - 1, switch),
                            level - 1,
                            switch,
                            Probe {
                                conn: p.conn,
                                arrived: Port::B(upper),
                            },
                        ));
                    }
                }
            }
            // UP arbitration: climbing probes.
            if !ups.is_empty() {
                if let Some(best) = ups.iter().map(|p| key(p.conn)).min() {
                    st.preempt(g, best);
                }
                reqs.clear();
                for p in &ups {
                    let requester = match p.arrived {
                        Port::A(x) => x,
                        _ => 0,
                    };
                    let allowed = topo.up_towards(level, sw, conns[p.conn].dst, lca[p.conn]);
                    let eligible = st.eligible(g, p.conn);
                    reqs.push(
                        requester,
                        0,
                        key(p.conn),
                        &[Need { class: 0, allowed }],
                        eligible,
                    );
                }
                let mut free = [st.free(g)[FREE_D]];
                let grants = reqs.arbitrate(arb.up(g), &mut free, max);
                st.free(g)[FREE_D] = free[0];
                for (p, grant) in ups.iter().zip(grants) {
                    let Some(w) = grant else { continue };
                    st.own(g, p.conn, key(p.conn));
                    st.close(g, p.conn, p.arrived, Port::D(w[0]))?;
                    let (parent, x) = topo
                        .up_link(level, sw, w[0])
                        .ok_or_else(|| RoutingError::Internal("R2 probe above the top".into()))?;
                    next.push((
                        topo.global_index(level + 1, parent),
                        level + 1,
                        parent,
                        Probe {
                            conn: p.conn,
                            arrived: Port::A(x),
                        },
                    ));
                }
            }
        }
        std::mem::swap(&mut at, &mut next);
    }
    let mut senders: Vec<usize> = pending.iter().map(|&i| conns[i].src).collect();
    senders.sort_unstable();
    let delivered = st.deliver(conns, lca, by_src, &senders)?;
    Ok(Pass {
        delivered,
        steps: 2 * h_top + 2,
        top_level: h_top,
        attempted: pending.len(),
        senders,
        crosspoints: st.crosspoints(),
    })
}
