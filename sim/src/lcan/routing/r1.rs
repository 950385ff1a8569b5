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

use super::arbitrate::Requests;
use super::state::{Arbiters, PassState, Port, CLASS_A, CLASS_C};
use super::{Conflict, Pass, RoutingError};
use crate::lcan::arbiter::Need;
use crate::lcan::paths::Connection;
use crate::lcan::topology::{DownEnd, Topology};

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

/// Runs one pass over the `pending` connections (`st` reset, `by_src` the connection of
/// each source PE).
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
    let one = if conflict == Conflict::Switch {
        1
    } else {
        usize::MAX
    };
    let mut reqs = Requests::default();

    // Phase 1. `moving` holds the packets that won an upper and arrive one level
    // higher next step, with the global index of that switch and its level. Packets are
    // processed by switch in ascending global index, in arrival order within a switch.
    let mut by_level: Vec<Vec<usize>> = vec![Vec::new(); h_top + 1];
    for &i in pending {
        by_level[lca[i]].push(i);
    }
    let mut waiting: Vec<Vec<Packet>> = vec![Vec::new(); h_top + 1];
    let mut moving: Vec<(usize, usize, Packet)> = Vec::new();
    let mut at: Vec<(usize, usize, Packet)> = Vec::new();
    let mut who: Vec<Packet> = Vec::new();
    for step in 0..=h_top {
        // Packets injected now arrive at level 0; those moved last step are one higher.
        std::mem::swap(&mut at, &mut moving);
        moving.clear();
        for &i in &by_level[h_top - step] {
            let (sw, x) = topo.pe_port(conns[i].src);
            at.push((
                topo.global_index(0, sw),
                0,
                Packet {
                    conn: i,
                    switch: sw,
                    x,
                },
            ));
        }
        at.sort_by_key(|e| e.0);
        let mut lo = 0;
        while lo < at.len() {
            let (g, level) = (at[lo].0, at[lo].1);
            let hi = lo + at[lo..].iter().take_while(|e| e.0 == g).count();
            reqs.clear();
            who.clear();
            for &(_, _, p) in &at[lo..hi] {
                if lca[p.conn] == level {
                    waiting[level].push(p);
                    continue;
                }
                let allowed = topo.up_towards(level, p.switch, conns[p.conn].dst, lca[p.conn]);
                reqs.push(p.x, 0, 0, &[Need { class: 0, allowed }], true);
                who.push(p);
            }
            lo = hi;
            if who.is_empty() {
                continue;
            }
            let mut free = [topo.all_uppers(level)];
            let grants = reqs.arbitrate(arb.up(g), &mut free, one);
            for (p, grant) in who.iter().zip(grants) {
                if let Some(w) = grant {
                    let (parent, x) = topo
                        .up_link(level, p.switch, w[0])
                        .ok_or_else(|| RoutingError::Internal("phase 1 above the top".into()))?;
                    moving.push((
                        topo.global_index(level + 1, parent),
                        level + 1,
                        Packet {
                            conn: p.conn,
                            switch: parent,
                            x,
                        },
                    ));
                }
            }
        }
        at.clear();
    }
    if !moving.is_empty() {
        return Err(RoutingError::Internal(
            "phase-1 packet above its LCA level".into(),
        ));
    }

    // Phase 2: level H down to 0. At each switch (ascending global index) the incoming
    // claims in arrival order, then the waiting winners in the order they arrived.
    let mut claims: Vec<Claim> = Vec::new();
    let mut senders = Vec::new();
    let levels = topo.levels();
    let mut here: Vec<(usize, Arrival)> = Vec::new();
    let mut incoming: Vec<Claim> = Vec::new();
    let mut winners: Vec<Packet> = Vec::new();
    for level in (0..=h_top).rev() {
        here.clear();
        let arrived = std::mem::take(&mut claims);
        for (i, c) in arrived.iter().enumerate() {
            here.push((topo.global_index(level, c.switch), Arrival::Claim(i)));
        }
        for (i, p) in waiting[level].iter().enumerate() {
            here.push((topo.global_index(level, p.switch), Arrival::Winner(i)));
        }
        here.sort_by_key(|e| e.0);
        let base = topo.global_index(level, 0);
        let mut lo = 0;
        while lo < here.len() {
            let g = here[lo].0;
            let hi = lo + here[lo..].iter().take_while(|e| e.0 == g).count();
            incoming.clear();
            winners.clear();
            for &(_, a) in &here[lo..hi] {
                match a {
                    Arrival::Claim(i) => incoming.push(arrived[i]),
                    Arrival::Winner(i) => winners.push(waiting[level][i]),
                }
            }
            lo = hi;
            let sw = g - base;
            reqs.clear();
            for c in &incoming {
                let conn = conns[c.conn];
                let (class, pe) = if c.src_side {
                    (CLASS_A, conn.src)
                } else {
                    (CLASS_C, conn.dst)
                };
                reqs.push(
                    c.k,
                    0,
                    (((levels - 1 - lca[c.conn]) as u64) << 32) | conn.src as u64,
                    &[Need {
                        class,
                        allowed: topo.down(level, sw, pe),
                    }],
                    st.eligible(g, c.conn),
                );
            }
            for p in &winners {
                let conn = conns[p.conn];
                reqs.push(
                    topo.u_at(level) + p.x,
                    1,
                    0,
                    &[
                        Need {
                            class: CLASS_A,
                            allowed: topo.down(level, sw, conn.src),
                        },
                        Need {
                            class: CLASS_C,
                            allowed: topo.down(level, sw, conn.dst),
                        },
                    ],
                    st.eligible(g, p.conn),
                );
            }
            let max = st.max_grants();
            let mut free = {
                let f = st.free(g);
                [f[CLASS_C], f[CLASS_A]]
            };
            let grants = reqs.arbitrate(arb.down(g), &mut free, max);
            {
                let f = st.free(g);
                f[CLASS_C] = free[0];
                f[CLASS_A] = free[1];
            }
            let n_in = incoming.len();
            for (r, grant) in grants.iter().enumerate() {
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

/// What arrived at a switch in a phase-2 step: an incoming claim or a waiting winner
/// (index into this step's list of each).
#[derive(Clone, Copy)]
enum Arrival {
    Claim(usize),
    Winner(usize),
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
