//! R1, one pass of the LCA-priority three-phase algorithm (docs/routing.md §3; 003 §3.2).
//!
//! - Phase 1 (steps `0..=H`): a level-`h` packet is injected at step `H − h` and climbs one
//!   level per step; at each switch the UP arbiter grants uppers from `up(X, c)` among the
//!   packets of that step (claims reset every step); a packet at its LCA level becomes a
//!   waiting winner.
//! - Phase 2 (steps `H+1..=2H+1`, level `H` down to 0): at each switch one DOWN
//!   arbitration serves incoming S/D-claims (tier 0, key `(l−1−h, s)`) then waiting winners
//!   (tier 1); grants close crosspoints and forward the claims one level down; rejected
//!   claims die.
//! - Phase 3: senders (PEs that received an S-claim) send; acknowledged ones are delivered.

use super::state::{Arbiters, PassState, Port, CLASS_A, CLASS_C};
use super::{Conflict, Pass, RoutingError};
use crate::lcan::arbiter::{Need, Request};
use crate::lcan::paths::Connection;
use crate::lcan::topology::{DownEnd, Topology};
use std::collections::{BTreeMap, HashMap};

/// A phase-1 packet (or a waiting winner) at a switch, arrived on `A(x)`.
#[derive(Clone, Copy)]
struct Packet {
    conn: usize,
    switch: usize,
    x: usize,
}

/// A phase-2 claim at a switch, arrived on `B(k)`: S (`src_side`) or D.
#[derive(Clone, Copy)]
struct Claim {
    conn: usize,
    switch: usize,
    k: usize,
    src_side: bool,
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
    let one = if conflict == Conflict::Switch {
        1
    } else {
        usize::MAX
    };

    // Phase 1. `moving` holds the packets that won an upper and arrive one level
    // higher next step, by global switch index.
    let mut waiting: Vec<Vec<Packet>> = vec![Vec::new(); h_top + 1];
    let mut moving: BTreeMap<usize, Vec<Packet>> = BTreeMap::new();
    for step in 0..=h_top {
        // Packets injected now arrive at level 0; those moved last step are one higher.
        let mut at: BTreeMap<usize, Vec<Packet>> = std::mem::take(&mut moving);
        for &i in pending.iter().filter(|&&i| lca[i] == h_top - step) {
            let (sw, x) = topo.pe_port(conns[i].src);
            at.entry(topo.global_index(0, sw))
                .or_default()
                .push(Packet {
                    conn: i,
                    switch: sw,
                    x,
                });
        }
        for (g, packets) in at {
            let (level, sw) = topo.from_global(g);
            let mut reqs = Vec::new();
            let mut who = Vec::new();
            for p in packets {
                let c = conns[p.conn];
                if lca[p.conn] == level {
                    waiting[level].push(p);
                    continue;
                }
                reqs.push(Request {
                    requester: p.x,
                    tier: 0,
                    key: 0,
                    needs: vec![Need {
                        class: 0,
                        allowed: topo.up(level, sw, c.src, c.dst),
                    }],
                    eligible: true,
                });
                who.push(p);
            }
            let mut free = [topo.all_uppers()];
            for (p, grant) in who.iter().zip(arb.up(g).arbitrate(&reqs, &mut free, one)) {
                if let Some(w) = grant {
                    let (parent, x) = topo
                        .up_link(level, sw, w[0])
                        .ok_or_else(|| RoutingError::Internal("phase 1 above the top".into()))?;
                    moving
                        .entry(topo.global_index(level + 1, parent))
                        .or_default()
                        .push(Packet {
                            conn: p.conn,
                            switch: parent,
                            x,
                        });
                }
            }
        }
    }
    if !moving.is_empty() {
        return Err(RoutingError::Internal(
            "phase-1 packet above its LCA level".into(),
        ));
    }

    // Phase 2: level H down to 0.
    let by_src: HashMap<usize, usize> = pending.iter().map(|&i| (conns[i].src, i)).collect();
    let mut claims: Vec<Claim> = Vec::new();
    let mut senders = Vec::new();
    let levels = topo.levels();
    for level in (0..=h_top).rev() {
        let mut at: BTreeMap<usize, (Vec<Claim>, Vec<Packet>)> = BTreeMap::new();
        for c in claims.drain(..) {
            at.entry(topo.global_index(level, c.switch))
                .or_default()
                .0
                .push(c);
        }
        for p in waiting[level].drain(..) {
            at.entry(topo.global_index(level, p.switch))
                .or_default()
                .1
                .push(p);
        }
        for (g, (incoming, winners)) in at {
            let sw = g - topo.global_index(level, 0);
            let mut reqs = Vec::new();
            for c in &incoming {
                let conn = conns[c.conn];
                let (class, pe) = if c.src_side {
                    (CLASS_A, conn.src)
                } else {
                    (CLASS_C, conn.dst)
                };
                reqs.push(Request {
                    requester: c.k,
                    tier: 0,
                    key: (((levels - 1 - lca[c.conn]) as u64) << 32) | conn.src as u64,
                    needs: vec![Need {
                        class,
                        allowed: topo.down(level, sw, pe),
                    }],
                    eligible: st.eligible(g, c.conn),
                });
            }
            for p in &winners {
                let conn = conns[p.conn];
                reqs.push(Request {
                    requester: topo.u() + p.x,
                    tier: 1,
                    key: 0,
                    needs: vec![
                        Need {
                            class: CLASS_A,
                            allowed: topo.down(level, sw, conn.src),
                        },
                        Need {
                            class: CLASS_C,
                            allowed: topo.down(level, sw, conn.dst),
                        },
                    ],
                    eligible: st.eligible(g, p.conn),
                });
            }
            let max = st.max_grants();
            let mut free = {
                let f = st.free(g);
                [f[CLASS_C], f[CLASS_A]]
            };
            let grants = arb.down(g).arbitrate(&reqs, &mut free, max);
            {
                let f = st.free(g);
                f[CLASS_C] = free[0];
                f[CLASS_A] = free[1];
            }
            let n_in = incoming.len();
            for (r, grant) in grants.into_iter().enumerate() {
                let Some(w) = grant else { continue };
                if r < n_in {
                    let c = incoming[r];
                    st.own(g, c.conn, 0);
                    let x = w[0];
                    if c.src_side {
                        st.close(g, c.conn, Port::A(x), Port::D(c.k))?;
                    } else {
                        st.close(g, c.conn, Port::B(c.k), Port::C(x))?;
                    }
                    forward(
                        topo,
                        level,
                        sw,
                        x,
                        c.conn,
                        c.src_side,
                        &mut claims,
                        &mut senders,
                    );
                } else {
                    let p = winners[r - n_in];
                    st.own(g, p.conn, 0);
                    let (xs, xt) = (w[0], w[1]);
                    st.close(g, p.conn, Port::A(xs), Port::C(xt))?;
                    forward(topo, level, sw, xs, p.conn, true, &mut claims, &mut senders);
                    forward(
                        topo,
                        level,
                        sw,
                        xt,
                        p.conn,
                        false,
                        &mut claims,
                        &mut senders,
                    );
                }
            }
        }
    }
    senders.sort_unstable();
    let senders: Vec<usize> = senders.into_iter().map(|i| conns[i].src).collect();
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

/// Sends a granted claim one level down through downer `x` (or to the PE at level 0).
#[allow(clippy::too_many_arguments)]
fn forward(
    topo: &Topology,
    level: usize,
    sw: usize,
    x: usize,
    conn: usize,
    src_side: bool,
    claims: &mut Vec<Claim>,
    senders: &mut Vec<usize>,
) {
    match topo.down_link(level, sw, x) {
        DownEnd::Pe(_) => {
            if src_side {
                senders.push(conn);
            }
        }
        DownEnd::Switch { switch, upper } => claims.push(Claim {
            conn,
            switch,
            k: upper,
            src_side,
        }),
    }
}
