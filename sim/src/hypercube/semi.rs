//! Algorithm 1: route a semi-contraction (or a packing) through dimensions `0..k-1` in
//! order, one dimension per step, with a collision check that reports instead of
//! dropping.
//!
//! The model moves **frames** the way the pipeline of `docs/hypercube.md` does: a frame
//! carries its address bits in transmission order and a body; at step `j` of the
//! dimension order it consumes address bit `j` and crosses dimension `d = order[j]` when
//! that bit is 1. A node holds one frame per pipeline stage, so two frames meeting at a
//! node after a dimension is a **collision**: it is recorded (node, dimension, the
//! sources of the frame that stayed and of the frame that crossed) and, as in the
//! hardware, the two frames continue as their bitwise OR, keeping both source lists —
//! nothing is dropped silently.
//!
//! **Lemma 1 and more.** For a semi-contraction `f`, after dimensions `0..l-1` a message
//! from `j` sits at the node with bits `0..l-1` of `f(j)` and bits `l..k-1` of `j`. Two
//! messages at one node then have `|j1 - j2| < 2^l` and `f(j1) ≡ f(j2) mod 2^l` with
//! `f(j1) ≠ f(j2)`, so `|f(j1) - f(j2)| >= 2^l > |j1 - j2|`: impossible. So every node
//! holds at most one message at every step (which implies the paper's Lemma 1) and the
//! one-frame-per-stage pipeline never collides on a semi-contraction.
//!
//! [`DimOrder::Descending`] runs the dimensions `k-1..0`: the rendezvous of Algorithm 2
//! (step 5 "run backwards") retraces a packing's paths in reverse and so never collides.

use super::HypercubeError;
use crate::perm::PartialPermutation;
use serde::Serialize;
use std::fmt;

/// The order in which the pipeline's stages switch dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum DimOrder {
    /// Dimensions `0, 1, …, k-1` (Algorithm 1, packings).
    Ascending,
    /// Dimensions `k-1, …, 0` (the rendezvous: a packing run backwards).
    Descending,
}

impl DimOrder {
    /// The dimension switched at step `j` (`0 <= j < k`).
    pub fn dim_at(self, k: usize, j: usize) -> usize {
        match self {
            DimOrder::Ascending => j,
            DimOrder::Descending => k - 1 - j,
        }
    }

    /// The step at which dimension `d` is switched.
    pub fn step_of(self, k: usize, d: usize) -> usize {
        self.dim_at(k, d)
    }
}

/// A frame in the pipeline: address bits in transmission order, then a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Relative-address bits in the order the stages consume them (`k` of them).
    pub addr: Vec<bool>,
    /// The bits that follow the address.
    pub body: Vec<bool>,
    /// The nodes whose frames make up this one (one unless frames collided).
    pub sources: Vec<usize>,
}

impl Frame {
    /// The frame sent from `from` to `to` through the dimensions in `order`.
    pub fn routed(k: usize, order: DimOrder, from: usize, to: usize, body: Vec<bool>) -> Self {
        let rel = from ^ to;
        Self {
            addr: (0..k).map(|j| rel >> order.dim_at(k, j) & 1 == 1).collect(),
            body,
            sources: vec![from],
        }
    }

    fn merge(&mut self, other: Frame) {
        for (a, b) in self.addr.iter_mut().zip(other.addr) {
            *a |= b;
        }
        if self.body.len() < other.body.len() {
            self.body.resize(other.body.len(), false);
        }
        for (a, b) in self.body.iter_mut().zip(other.body) {
            *a |= b;
        }
        self.sources.extend(other.sources);
        self.sources.sort_unstable();
    }
}

/// Two frames met at a node: the stage after `dim` would have to hold both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Collision {
    /// The node where they met.
    pub node: usize,
    /// The dimension just switched.
    pub dim: usize,
    /// The step of the dimension order (0-based) at which it happened.
    pub step: usize,
    /// Sources of the frame that stayed at `node`.
    pub staying: Vec<usize>,
    /// Sources of the frame that crossed `dim` into `node`.
    pub crossing: Vec<usize>,
}

impl fmt::Display for Collision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "collision at node {} after dimension {}: message(s) from {:?} stayed, message(s) from {:?} crossed in",
            self.node, self.dim, self.staying, self.crossing
        )
    }
}

/// What Algorithm 1 did with a set of frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alg1Outcome {
    /// The frame at each node after the last dimension (merged frames after collisions).
    pub arrivals: Vec<Option<Frame>>,
    /// Every collision, in step order then node order.
    pub collisions: Vec<Collision>,
}

/// Runs Algorithm 1 on `frames` (one optional frame per node, each with `k` address
/// bits) through the dimensions in `order`.
///
/// # Panics
/// If `frames.len() != 2^k` or a frame has fewer than `k` address bits (programming
/// errors: [`route_semi`] and [`Frame::routed`] build them from validated input).
pub fn route_frames(k: usize, order: DimOrder, frames: Vec<Option<Frame>>) -> Alg1Outcome {
    let n = 1usize << k;
    assert_eq!(frames.len(), n, "one frame slot per node");
    let mut at = frames;
    let mut collisions = Vec::new();
    for j in 0..k {
        let d = order.dim_at(k, j);
        let mut next: Vec<Option<Frame>> = vec![None; n];
        let mut crossing: Vec<Option<Frame>> = vec![None; n];
        for (x, slot) in at.into_iter().enumerate() {
            let Some(fr) = slot else { continue };
            if fr.addr[j] {
                crossing[x ^ (1 << d)] = Some(fr);
            } else {
                next[x] = Some(fr);
            }
        }
        for (x, c) in crossing.into_iter().enumerate() {
            let Some(c) = c else { continue };
            match &mut next[x] {
                Some(stay) => {
                    collisions.push(Collision {
                        node: x,
                        dim: d,
                        step: j,
                        staying: stay.sources.clone(),
                        crossing: c.sources.clone(),
                    });
                    stay.merge(c);
                }
                slot => *slot = Some(c),
            }
        }
        at = next;
    }
    Alg1Outcome {
        arrivals: at,
        collisions,
    }
}

/// Algorithm 1 applied to a routing (messages without bodies).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SemiOutcome {
    /// For each node, the sources of the message(s) that arrived there.
    pub delivered: Vec<Vec<usize>>,
    /// Every collision (empty for semi-contractions).
    pub collisions: Vec<Collision>,
}

impl SemiOutcome {
    /// True when nothing collided and every message reached its destination alone.
    pub fn delivers(&self, routing: &PartialPermutation) -> bool {
        self.collisions.is_empty()
            && routing
                .pairs()
                .all(|(s, d)| self.delivered[d].as_slice() == [s])
    }
}

/// Routes `routing` on a k-cube by Algorithm 1.
pub fn route_semi(k: usize, routing: &PartialPermutation) -> Result<SemiOutcome, HypercubeError> {
    check_size(k, routing)?;
    let frames = (0..routing.len())
        .map(|s| {
            routing
                .dst(s)
                .map(|d| Frame::routed(k, DimOrder::Ascending, s, d, Vec::new()))
        })
        .collect();
    let out = route_frames(k, DimOrder::Ascending, frames);
    Ok(SemiOutcome {
        delivered: out
            .arrivals
            .into_iter()
            .map(|f| f.map(|f| f.sources).unwrap_or_default())
            .collect(),
        collisions: out.collisions,
    })
}

/// `k` in range and one routing entry per node.
pub fn check_size(k: usize, routing: &PartialPermutation) -> Result<(), HypercubeError> {
    if !(1..=super::MAX_K).contains(&k) {
        return Err(HypercubeError::KOutOfRange {
            k,
            max: super::MAX_K,
        });
    }
    if routing.len() != 1 << k {
        return Err(HypercubeError::SizeMismatch {
            k,
            n: 1 << k,
            found: routing.len(),
        });
    }
    Ok(())
}

/// A pair of messages that violates Definition 3: `|f(a) - f(b)| > |a - b|`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a semi-contraction: PEs {a} and {b} are {} apart but their destinations {fa} and {fb} are {} apart", b - a, fa.abs_diff(*fb))]
pub struct NotSemiContraction {
    /// The lower source.
    pub a: usize,
    /// The higher source.
    pub b: usize,
    /// Destination of `a`.
    pub fa: usize,
    /// Destination of `b`.
    pub fb: usize,
}

/// Checks Definition 3. Consecutive senders suffice: if `|f(s_{i+1}) - f(s_i)| <=
/// s_{i+1} - s_i` for every pair of consecutive senders, the triangle inequality gives
/// the condition for every pair. Reports the first consecutive pair that violates it.
pub fn check_semi_contraction(routing: &PartialPermutation) -> Result<(), NotSemiContraction> {
    let pairs: Vec<(usize, usize)> = routing.pairs().collect();
    for w in pairs.windows(2) {
        let ((a, fa), (b, fb)) = (w[0], w[1]);
        if fa.abs_diff(fb) > b - a {
            return Err(NotSemiContraction { a, b, fa, fb });
        }
    }
    Ok(())
}

/// Definition 2: monotone onto an interval.
pub fn is_packing(routing: &PartialPermutation) -> bool {
    let pairs: Vec<(usize, usize)> = routing.pairs().collect();
    pairs.windows(2).all(|w| w[1].1 == w[0].1 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pp(text: &str, n: usize) -> PartialPermutation {
        PartialPermutation::parse(text, n).unwrap()
    }

    #[test]
    fn a_packing_routes_without_collision() {
        let r = pp("- 0 - 1 2 - - 3", 8);
        assert!(is_packing(&r));
        assert!(check_semi_contraction(&r).is_ok());
        let out = route_semi(3, &r).unwrap();
        assert!(out.delivers(&r), "{out:?}");
    }

    #[test]
    fn a_reversal_is_a_semi_contraction_but_not_a_packing() {
        let r = pp("7 6 5 4 3 2 1 0", 8);
        assert!(!is_packing(&r));
        assert!(check_semi_contraction(&r).is_ok());
        assert!(route_semi(3, &r).unwrap().delivers(&r));
    }

    #[test]
    fn an_expansion_collides_and_is_reported_not_dropped() {
        // 0 -> 0 and 1 -> 4: 1 crosses dimension 0 into node 0 where 0's message stays.
        let r = pp("0 4 - - - - - -", 8);
        let e = check_semi_contraction(&r).unwrap_err();
        assert_eq!((e.a, e.b, e.fa, e.fb), (0, 1, 0, 4));
        let out = route_semi(3, &r).unwrap();
        assert_eq!(
            out.collisions,
            vec![Collision {
                node: 0,
                dim: 0,
                step: 0,
                staying: vec![0],
                crossing: vec![1],
            }]
        );
        assert!(out.collisions[0]
            .to_string()
            .contains("node 0 after dimension 0"));
        // Both messages are still accounted for, merged.
        let merged: Vec<usize> = out.delivered.iter().flatten().copied().collect();
        assert_eq!(merged, vec![0, 1]);
        assert!(!out.delivers(&r));
    }

    #[test]
    fn lemma_1_is_sufficient_not_necessary() {
        // 0 -> 0 and 1 -> 3 violate Definition 3, but the frames never share a node: 0
        // stays put, 1 stays after dimension 0 and crosses dimension 1.
        let r = pp("0 3 - -", 4);
        assert!(check_semi_contraction(&r).is_err());
        let out = route_semi(2, &r).unwrap();
        assert!(out.collisions.is_empty());
        assert!(out.delivers(&r));
    }

    #[test]
    fn descending_order_retraces_an_unpacking() {
        // The inverse of the packing {0->0, 4->1}: ascending collides, descending does not.
        let k = 3;
        let asc = route_frames(
            k,
            DimOrder::Ascending,
            (0..8)
                .map(|x| match x {
                    0 => Some(Frame::routed(k, DimOrder::Ascending, 0, 0, vec![])),
                    1 => Some(Frame::routed(k, DimOrder::Ascending, 1, 4, vec![])),
                    _ => None,
                })
                .collect(),
        );
        assert_eq!(asc.collisions.len(), 1);
        let desc = route_frames(
            k,
            DimOrder::Descending,
            (0..8)
                .map(|x| match x {
                    0 => Some(Frame::routed(k, DimOrder::Descending, 0, 0, vec![])),
                    1 => Some(Frame::routed(k, DimOrder::Descending, 1, 4, vec![true])),
                    _ => None,
                })
                .collect(),
        );
        assert!(desc.collisions.is_empty());
        assert_eq!(desc.arrivals[4].as_ref().unwrap().body, vec![true]);
    }

    #[test]
    fn sizes_are_checked() {
        let r = pp("0 1 2 3", 4);
        assert!(matches!(
            route_semi(3, &r),
            Err(HypercubeError::SizeMismatch { .. })
        ));
        assert!(matches!(
            route_semi(0, &r),
            Err(HypercubeError::KOutOfRange { .. })
        ));
    }
}
