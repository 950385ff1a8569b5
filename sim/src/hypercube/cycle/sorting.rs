//! The replay of sort-then-pack (`docs/hypercube.md` §13, [`crate::hypercube::sort`]):
//! `k` passes of the mirrored bitonic sort on the nodes' records (`!va`, then A), each
//! delivering the node's new record through its delivery register, then one `semi`
//! pass that unpacks the sorted messages to their destinations.

use super::steps::semi;
use super::{CycleTrace, Delivery, NodeState, PhaseRecord};
use crate::hypercube::sort::{pass_len, record, sort_pass_by};
use crate::hypercube::timing::Phase;
use crate::hypercube::HypercubeError;

/// Replays the sort passes and the unpacking on the loaded state.
pub(crate) fn replay(st: &mut [NodeState], tr: &mut CycleTrace) -> Result<(), HypercubeError> {
    let p = tr.params;
    let k = p.k();
    let mut t = 1;
    for s in 0..k {
        let mut recs: Vec<(Vec<bool>, usize)> = st
            .iter()
            .enumerate()
            .map(|(x, n)| (record(n.va, &n.a), x))
            .collect();
        sort_pass_by(k, s, &mut recs, |r| r.0.clone());
        let mut moves = Vec::new();
        for (x, (rec, src)) in recs.into_iter().enumerate() {
            if src != x {
                moves.push((src, x));
            }
            // Record bit q is in the delivery register at pass cycle q + s + 2.
            tr.deliveries[x].push(Delivery {
                start: t + (s + 2) as u64,
                bits: rec.clone(),
                sources: vec![src],
            });
            st[x].va = !rec[0];
            st[x].a = rec[1..].to_vec();
        }
        moves.sort_unstable();
        tr.phases.push(PhaseRecord {
            phase: Phase::SortPass,
            dim: Some(s),
            start: t,
            moves,
            collisions: Vec::new(),
        });
        t += pass_len(p, s);
    }
    let out = semi(st, k, t);
    tr.absorb(&out);
    if let Some((_, c)) = out.collisions.first() {
        return Err(HypercubeError::Bug(format!(
            "sort-then-pack: the unpacking collides: {c}"
        )));
    }
    tr.phases.push(PhaseRecord {
        phase: Phase::Semi,
        dim: None,
        start: t,
        moves: out.moves,
        collisions: Vec::new(),
    });
    Ok(())
}
