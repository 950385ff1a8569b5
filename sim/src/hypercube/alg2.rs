//! Algorithm 2: any (partial) permutation in `O(k²)` bit times, at the level of
//! messages, with the paper's invariants checked at every loop.
//!
//! For each dimension `i = 0..k-1`, with `f = i + 1` (see [`super::subcube`] for why
//! steps 2–6 work in (i+1)-subcubes):
//! 1. every message whose destination differs from its node in bit `i` crosses
//!    dimension `i`. A node that keeps its own message stores an arriving one in slot
//!    **B**; otherwise the arriving message goes to slot **A**. (So B is used only
//!    when A is.)
//! 2. enumerate the nodes holding two messages in each f-subcube ([`enumerate_subcubes`]);
//! 3. every such node `x` sends its **B** message to `member(x, f, E₂(x) - 1)` (a packing
//!    inside the f-subcube, routed by Algorithm 1); the receiver stores it in B (the
//!    *transit* message);
//! 4. enumerate the nodes with an empty slot A (no message of their own after step 1);
//! 5. every such node `e` sends its own address to `member(e, f, E₀(e) - 1)` (a packing);
//! 6. every node holding a transit message sends it to the address it received in step 5,
//!    through the dimensions in descending order: the packing of step 5 run backwards
//!    (rendezvous); the receiver `e` stores it in A.
//!
//! Invariants checked (a failure is reported as [`HypercubeError::Bug`]):
//! - at the start of loop `i`: every message is in its correct i-subcube (bits `0..i-1`
//!   agree with its destination) and no node holds more than one message;
//! - after step 1: every message is in its correct (i+1)-subcube, no node holds more
//!   than two, and each (i+1)-subcube has at least as many empty nodes as double nodes;
//! - steps 3, 5 and 6 route without any collision (Algorithm 1 model), every node that
//!   received a message in step 3 received an address in step 5, and step 6 only
//!   delivers into empty slots;
//! - after step 6: every message is in its correct (i+1)-subcube, at most one per node;
//! - at the end: every message is at its destination.

use super::enumerate::enumerate_subcubes;
use super::semi::{route_frames, DimOrder, Frame};
use super::subcube::{member, same_subcube};
use super::{messages, CubeParams, HypercubeError, Message};
use crate::perm::PartialPermutation;
use serde::Serialize;

/// Slots A and B of every node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Slots {
    /// Slot A: the node's own message.
    pub a: Vec<Option<Message>>,
    /// Slot B: a second message (after step 1) or a transit message (after step 3).
    pub b: Vec<Option<Message>>,
}

/// One message moving from node `from` to node `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Transfer {
    /// Sending node.
    pub from: usize,
    /// Receiving node.
    pub to: usize,
    /// The message.
    pub msg: Message,
}

/// Everything that happened in one loop of Algorithm 2.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Iteration {
    /// The dimension `i` of this loop.
    pub dim: usize,
    /// Step 1: messages that crossed dimension `i`.
    pub crossed: Vec<Transfer>,
    /// Slots after step 1.
    pub after_cross: Slots,
    /// Step 2: `E_{C,2-messages}` (1-based) of every double node.
    pub doubles: Vec<Option<usize>>,
    /// Step 3: the packing of the B messages of double nodes.
    pub pack_doubles: Vec<Transfer>,
    /// Step 4: `E_{C,0-messages}` (1-based) of every node with slot A empty.
    pub empties: Vec<Option<usize>>,
    /// Step 5: `(e, y)`: empty node `e` sent its address to `y`.
    pub pack_empties: Vec<(usize, usize)>,
    /// Step 6: the rendezvous.
    pub rendezvous: Vec<Transfer>,
    /// Slots after step 6.
    pub after: Slots,
}

/// The full run of Algorithm 2.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Alg2Trace {
    /// Cube dimension.
    pub k: usize,
    /// One entry per dimension.
    pub iterations: Vec<Iteration>,
    /// Final slot A of every node: the message destined to it, if any.
    pub placement: Vec<Option<Message>>,
}

/// Routes `routing` (payload `payloads[src]`) by Algorithm 2.
pub fn route_full(
    params: CubeParams,
    routing: &PartialPermutation,
    payloads: &[u64],
) -> Result<Alg2Trace, HypercubeError> {
    let msgs = messages(params, routing, payloads)?;
    run(params.k(), &msgs, |i| i + 1)
}

fn bug(i: usize, what: String) -> HypercubeError {
    HypercubeError::Bug(format!("Algorithm 2, loop {i}: {what}"))
}

fn check_placed(i: usize, when: &str, slots: &Slots, f: usize) -> Result<(), HypercubeError> {
    for (x, m) in slots.a.iter().chain(slots.b.iter()).enumerate() {
        let x = x % slots.a.len();
        if let Some(m) = m {
            if !same_subcube(x, m.dest, f) {
                return Err(bug(
                    i,
                    format!(
                        "{when}: message from {} (to {}) at node {x} is not in its correct {f}-subcube",
                        m.src, m.dest
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Routes `sends` (from, to, body) through Algorithm 1 in `order`; no collision allowed.
fn route_checked(
    k: usize,
    i: usize,
    what: &str,
    order: DimOrder,
    sends: &[(usize, usize)],
) -> Result<(), HypercubeError> {
    let mut frames = vec![None; 1 << k];
    for &(from, to) in sends {
        frames[from] = Some(Frame::routed(k, order, from, to, Vec::new()));
    }
    let out = route_frames(k, order, frames);
    if let Some(c) = out.collisions.first() {
        return Err(bug(i, format!("{what}: {c}")));
    }
    for &(from, to) in sends {
        if out.arrivals[to].as_ref().map(|f| f.sources.as_slice()) != Some(&[from][..]) {
            return Err(bug(i, format!("{what}: the frame from {from} missed {to}")));
        }
    }
    Ok(())
}

/// Algorithm 2 with steps 2–6 working in the `fix(i)`-subcubes (`fix(i) = i + 1` is the
/// resolution; tests run the printed `fix(i) = i` to show it fails).
fn run(
    k: usize,
    msgs: &[Option<Message>],
    fix: impl Fn(usize) -> usize,
) -> Result<Alg2Trace, HypercubeError> {
    let n = 1usize << k;
    let mut slots = Slots {
        a: msgs.to_vec(),
        b: vec![None; n],
    };
    let mut iterations = Vec::with_capacity(k);
    for i in 0..k {
        let f = fix(i);
        check_placed(i, "at the start of the loop", &slots, i)?;
        if slots.b.iter().any(Option::is_some) {
            return Err(bug(i, "a node holds two messages at the start".into()));
        }
        // Step 1.
        let mut crossed = Vec::new();
        let mut next = Slots {
            a: vec![None; n],
            b: vec![None; n],
        };
        let wants = |x: usize, m: &Message| (m.dest ^ x) >> i & 1 == 1;
        for x in 0..n {
            let keep = slots.a[x].filter(|m| !wants(x, m));
            let y = x ^ (1 << i);
            let incoming = slots.a[y].filter(|m| wants(y, m));
            if let Some(m) = incoming {
                crossed.push(Transfer {
                    from: y,
                    to: x,
                    msg: m,
                });
            }
            (next.a[x], next.b[x]) = match (keep, incoming) {
                (Some(a), b) => (Some(a), b),
                (None, b) => (b, None),
            };
        }
        crossed.sort_by_key(|t| t.from);
        slots = next;
        let after_cross = slots.clone();
        check_placed(i, "after step 1", &slots, i + 1)?;
        for l in 0..1usize << f {
            let members = (0..1usize << (k - f)).map(|r| member(l, f, r));
            let dbl = members.clone().filter(|&y| slots.b[y].is_some()).count();
            let empty = members.filter(|&y| slots.a[y].is_none()).count();
            if empty < dbl {
                return Err(bug(
                    i,
                    format!("after step 1, the {f}-subcube of {l} has {dbl} double nodes but only {empty} empty ones"),
                ));
            }
        }
        // Steps 2-3.
        let s2: Vec<bool> = slots.b.iter().map(Option::is_some).collect();
        let doubles = enumerate_subcubes(k, &s2, f);
        let pack_doubles: Vec<Transfer> = (0..n)
            .filter_map(|x| match (doubles[x], slots.b[x]) {
                (Some(e), Some(m)) => Some(Transfer {
                    from: x,
                    to: member(x, f, e - 1),
                    msg: m,
                }),
                _ => None,
            })
            .collect();
        let sends: Vec<(usize, usize)> = pack_doubles.iter().map(|t| (t.from, t.to)).collect();
        route_checked(k, i, "step 3", DimOrder::Ascending, &sends)?;
        slots.b = vec![None; n];
        for t in &pack_doubles {
            slots.b[t.to] = Some(t.msg);
        }
        // Steps 4-5.
        let s0: Vec<bool> = slots.a.iter().map(Option::is_none).collect();
        let empties = enumerate_subcubes(k, &s0, f);
        let pack_empties: Vec<(usize, usize)> = (0..n)
            .filter_map(|e| empties[e].map(|r| (e, member(e, f, r - 1))))
            .collect();
        route_checked(k, i, "step 5", DimOrder::Ascending, &pack_empties)?;
        let mut addr_at = vec![None; n];
        for &(e, y) in &pack_empties {
            addr_at[y] = Some(e);
        }
        // Step 6.
        let mut rendezvous = Vec::new();
        for (y, (b, addr)) in slots.b.iter().zip(&addr_at).enumerate() {
            if let Some(m) = *b {
                let Some(e) = *addr else {
                    return Err(bug(
                        i,
                        format!("node {y} received a message in step 3 but no address in step 5"),
                    ));
                };
                rendezvous.push(Transfer {
                    from: y,
                    to: e,
                    msg: m,
                });
            }
        }
        let sends: Vec<(usize, usize)> = rendezvous.iter().map(|t| (t.from, t.to)).collect();
        route_checked(k, i, "step 6", DimOrder::Descending, &sends)?;
        for t in &rendezvous {
            if slots.a[t.to].is_some() {
                return Err(bug(
                    i,
                    format!("step 6 delivers into the full node {}", t.to),
                ));
            }
            slots.a[t.to] = Some(t.msg);
        }
        slots.b = vec![None; n];
        check_placed(i, "after step 6", &slots, i + 1)?;
        iterations.push(Iteration {
            dim: i,
            crossed,
            after_cross,
            doubles,
            pack_doubles,
            empties,
            pack_empties,
            rendezvous,
            after: slots.clone(),
        });
    }
    for (x, m) in slots.a.iter().enumerate() {
        if let Some(m) = m {
            if m.dest != x {
                return Err(HypercubeError::Bug(format!(
                    "Algorithm 2 ended with the message from {} (to {}) at node {x}",
                    m.src, m.dest
                )));
            }
        }
    }
    Ok(Alg2Trace {
        k,
        iterations,
        placement: slots.a,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perm::Permutation;
    use crate::rng::seeded;
    use proptest::prelude::*;
    use rand::Rng;

    fn random_msgs(
        k: usize,
        seed: u64,
        partial: bool,
    ) -> (CubeParams, PartialPermutation, Vec<u64>) {
        let mut rng = seeded(seed);
        let n = 1 << k;
        let p = Permutation::random(n, &mut rng);
        let dst = (0..n)
            .map(|s| (!partial || rng.gen_bool(0.6)).then(|| p.dst(s)))
            .collect();
        let payloads = (0..n).map(|_| rng.gen_range(0..256)).collect();
        (
            CubeParams::new(k, 8).unwrap(),
            PartialPermutation::new(dst).unwrap(),
            payloads,
        )
    }

    proptest! {
        #[test]
        fn delivers_every_message_with_invariants(k in 1usize..=6, seed: u64, partial: bool) {
            let (p, r, pay) = random_msgs(k, seed, partial);
            let tr = route_full(p, &r, &pay).unwrap();
            prop_assert_eq!(tr.iterations.len(), k);
            for (s, d) in r.pairs() {
                prop_assert_eq!(tr.placement[d], Some(Message { src: s, dest: d, payload: pay[s] }));
            }
            prop_assert_eq!(tr.placement.iter().flatten().count(), r.senders());
        }
    }

    #[test]
    fn bit_reversal_on_a_4_cube() {
        let n = 16;
        let dst: Vec<usize> = (0..n)
            .map(|x: usize| x.reverse_bits() >> (usize::BITS - 4))
            .collect();
        let r = Permutation::new(dst).unwrap().to_partial();
        let p = CubeParams::new(4, 8).unwrap();
        let tr = route_full(p, &r, &[7; 16]).unwrap();
        assert!(tr.iterations.iter().any(|it| !it.rendezvous.is_empty()));
        for (s, d) in r.pairs() {
            assert_eq!(tr.placement[d].unwrap().src, s);
        }
    }

    #[test]
    fn the_printed_i_subcube_loses_messages() {
        // Steps 2-6 inside the i-subcube (bits 0..i-1) as printed: some permutation ends
        // a loop with a message on the wrong side of dimension i.
        let mut failures = 0;
        for seed in 0..40 {
            let (p, r, pay) = random_msgs(3, seed, false);
            let msgs = messages(p, &r, &pay).unwrap();
            assert!(run(3, &msgs, |i| i + 1).is_ok());
            if let Err(HypercubeError::Bug(what)) = run(3, &msgs, |i| i) {
                assert!(what.contains("after step 6"), "{what}");
                failures += 1;
            }
        }
        assert!(failures > 0, "the printed reading never failed");
    }
}
