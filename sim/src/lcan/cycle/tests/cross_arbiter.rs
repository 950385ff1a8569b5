//! Cross-check: the cycle model's arbiter and the step-level model's arbiter
//! (`lcan::arbiter`) are two independent implementations of `docs/routing.md` §2; on the same
//! arbitration sequences they must grant the same requests the same wires and walk through
//! the same pointer states.

use crate::lcan::arbiter as step;
use crate::lcan::cycle::arbiter::{Arbiter, Need, Request};
use crate::lcan::cycle::ArbiterPolicy;
use crate::rng::splitmix64;
use proptest::prelude::*;

/// One arbitration: per request `(requester, tier, key, needs as (class, allowed))`.
type Arb = Vec<(usize, u8, u32, Vec<(usize, u64)>)>;

fn arbitrations(r: usize, w: usize) -> impl Strategy<Value = Vec<(Arb, [u64; 2])>> {
    let mask = (1u64 << w) - 1;
    let req = (
        0..r,
        0u8..2,
        any::<u32>(),
        prop::collection::vec((0usize..2, 0..=mask), 1..=2),
    );
    let one = (prop::collection::vec(req, 0..=r + 2), (0..=mask, 0..=mask))
        .prop_map(|(reqs, (f0, f1))| (reqs, [f0, f1]));
    prop::collection::vec(one, 1..12)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn both_arbiters_agree(
        pol in 0usize..3, g in 0usize..50, seed16 in any::<u16>(),
        (r, w, seq) in (1usize..10, 1usize..6)
            .prop_flat_map(|(r, w)| (Just(r), Just(w), arbitrations(r, w))),
    ) {
        let (policy, spol) = [
            (ArbiterPolicy::Fixed, step::Policy::Fixed),
            (ArbiterPolicy::RoundRobin, step::Policy::RoundRobin),
            (ArbiterPolicy::Random, step::Policy::Random),
        ][pol];
        let role = if g % 2 == 0 { step::Role::Up } else { step::Role::Down };
        let salt = splitmix64(2 * g as u64 + role as u64) as u16;
        let mut mine = Arbiter::new(policy, r, w);
        mine.reset(seed16, salt);
        let mut theirs = step::Arbiter::new(spol, role, r, w, g, seed16);
        for (reqs, free) in seq {
            // Keys unique within an arbitration (ties are broken differently by design only
            // between an S- and a D-claim of one link, which legal traffic never has).
            let mut seen = std::collections::HashSet::new();
            let reqs: Vec<_> = reqs
                .into_iter()
                .filter(|q| seen.insert(q.2))
                .collect();
            let a: Vec<Request> = reqs
                .iter()
                .map(|(req, tier, key, needs)| Request {
                    requester: *req,
                    tier: *tier,
                    key: (0, u64::from(*key)),
                    class_order: 1,
                    needs: needs.iter().map(|&(class, allowed)| Need { class, allowed }).collect(),
                    guard: true,
                })
                .collect();
            let b: Vec<step::Request> = reqs
                .iter()
                .map(|(req, tier, key, needs)| step::Request {
                    requester: *req,
                    tier: *tier,
                    key: u64::from(*key),
                    needs: needs.iter().map(|&(class, allowed)| step::Need { class, allowed }).collect(),
                    eligible: true,
                })
                .collect();
            prop_assert_eq!(mine.pointers(), theirs.pointers());
            let (mut fa, mut fb) = (free, free);
            let da = mine.arbitrate(&a, &mut fa);
            let db = theirs.arbitrate(&b, &mut fb, usize::MAX);
            let da: Vec<Option<Vec<usize>>> = da.into_iter().map(|d| d.granted.then_some(d.wires)).collect();
            prop_assert_eq!(da, db);
            prop_assert_eq!(fa, fb);
            prop_assert_eq!(mine.lfsr(), if policy == ArbiterPolicy::Random { theirs.lfsr() } else { 0 });
        }
    }
}
