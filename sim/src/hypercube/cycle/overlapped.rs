//! The replay of Algorithm 2 with the overlapped schedule (`docs/hypercube.md` §12,
//! [`crate::hypercube::overlap`]): per loop `i`, the cross, one enumeration of two values
//! (doubles, empties) over the `f = k − 1 − i` dimensions `i+1..k-1`, the two packings
//! back to back and the rendezvous, each placed at its loop cycle.
//!
//! Register E is kept **aligned with the dimensions**: after an enumeration or after
//! step 5, `E[d]` (for `d > i`) is the bit of the value that concerns dimension `d`
//! (`o_{d−i−1}`, or bit `d` of the empty node's address), which is what the hardware's
//! shift register holds after `f` shifts from its top end.

use super::steps::{cross, frame, route_phase, xb, Routed};
use super::{CycleTrace, NodeState, PhaseRecord};
use crate::hypercube::enumerate::butterfly;
use crate::hypercube::overlap::{loop_timing, loops};
use crate::hypercube::semi::DimOrder;
use crate::hypercube::timing::Phase;
use crate::hypercube::CubeParams;

/// What one loop did: its phase records and its routing phases (placed in time).
#[derive(Debug, Clone, Default)]
pub(crate) struct LoopRun {
    pub(crate) records: Vec<PhaseRecord>,
    pub(crate) routed: Vec<Routed>,
}

/// Replays every loop of the overlapped schedule on the loaded state.
pub(crate) fn replay(st: &mut [NodeState], tr: &mut CycleTrace) {
    for (start, lt) in loops(tr.params) {
        let run = run_loop(st, tr.params, lt.dim, start);
        for r in &run.routed {
            tr.absorb(r);
        }
        tr.phases.extend(run.records);
    }
}

/// Loop `i` of Algorithm 2 on `st`, its loop cycle 0 at bit time `t`.
pub(crate) fn run_loop(st: &mut [NodeState], p: CubeParams, i: usize, t: u64) -> LoopRun {
    let (k, n, m) = (p.k(), p.n(), p.message_bits());
    let lt = loop_timing(p, i);
    let f = lt.f;
    let mut run = LoopRun::default();
    let record = |phase, start, moves, routed: Option<&Routed>| PhaseRecord {
        phase,
        dim: Some(i),
        start,
        moves,
        collisions: routed.map_or_else(Vec::new, |r| {
            r.collisions.iter().map(|(_, c)| c.clone()).collect()
        }),
    };
    let moves = cross(st, i);
    run.records.push(record(Phase::Cross, t, moves, None));
    if f == 0 {
        return run;
    }
    // Steps 2 and 4: one enumeration, doubles then empties, over dimensions i+1..k-1.
    let doubles: Vec<bool> = st.iter().map(|s| s.va && s.vb).collect();
    let empties: Vec<bool> = st.iter().map(|s| !s.va).collect();
    let o2 = butterfly(k, &doubles, i + 1).o.pop().expect("k + 1 ranks");
    let o0 = butterfly(k, &empties, i + 1).o.pop().expect("k + 1 ranks");
    for x in 0..n {
        let o = if doubles[x] {
            o2[x]
        } else if empties[x] {
            o0[x]
        } else {
            continue;
        };
        for d in i + 1..k {
            st[x].e[d] = o >> (d - i - 1) & 1 == 1;
        }
    }
    run.records
        .push(record(Phase::EnumDoubles, t, Vec::new(), None));
    run.records
        .push(record(Phase::EnumEmpties, t + f as u64, Vec::new(), None));
    // The packings' address: bit d of the target, member(x, i+1, o) = x's bits 0..i, o above.
    let pack_addr = |x: usize, e: &[bool]| -> Vec<bool> {
        (0..k).map(|d| d > i && (xb(x, d) ^ e[d])).collect()
    };
    // Step 3: doubles send B.
    let frames = (0..n)
        .map(|x| {
            let s = &st[x];
            (s.va && s.vb).then(|| frame(x, pack_addr(x, &s.e), s.b.clone()))
        })
        .collect();
    let t2 = t + lt.pack2;
    let out = route_phase(k, DimOrder::Ascending, frames, t2, f, i + 1);
    for (y, fr) in out.arrivals.iter().enumerate() {
        st[y].b = fr
            .as_ref()
            .map_or_else(|| vec![false; m], |fr| fr.body.clone());
        st[y].vb = fr.is_some();
    }
    run.records.push(record(
        Phase::PackDoubles,
        t2,
        out.moves.clone(),
        Some(&out),
    ));
    run.routed.push(out);
    // Step 5: empties send their address bits i+1..k-1, lowest first.
    let frames = (0..n)
        .map(|x| {
            let s = &st[x];
            let body = (i + 1..k).map(|d| xb(x, d)).collect();
            (!s.va).then(|| frame(x, pack_addr(x, &s.e), body))
        })
        .collect();
    let t0 = t + lt.pack0;
    let out = route_phase(k, DimOrder::Ascending, frames, t0, f, i + 1);
    for (y, fr) in out.arrivals.iter().enumerate() {
        for (j, d) in (i + 1..k).enumerate() {
            st[y].e[d] = fr.as_ref().is_some_and(|fr| fr.body[j]);
        }
    }
    run.records.push(record(
        Phase::PackEmpties,
        t0,
        out.moves.clone(),
        Some(&out),
    ));
    run.routed.push(out);
    // Step 6: the rendezvous, dimensions k-1 down to i+1, relative address y ^ e.
    let frames = (0..n)
        .map(|y| {
            let s = &st[y];
            let addr = (0..k)
                .map(|j| j < f && (xb(y, k - 1 - j) ^ s.e[k - 1 - j]))
                .collect();
            s.vb.then(|| frame(y, addr, s.b.clone()))
        })
        .collect();
    let tr6 = t + lt.rdv;
    let out = route_phase(k, DimOrder::Descending, frames, tr6, f, 0);
    for (y, fr) in out.arrivals.iter().enumerate() {
        if let Some(fr) = fr {
            st[y].a = fr.body.clone();
            st[y].va = true;
        }
        st[y].vb = false;
    }
    run.records.push(record(
        Phase::Rendezvous,
        tr6,
        out.moves.clone(),
        Some(&out),
    ));
    run.routed.push(out);
    run
}
