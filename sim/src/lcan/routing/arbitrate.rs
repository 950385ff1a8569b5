//! The arbiter of docs/routing.md §2 as the step models run it: the same state, the same
//! decisions as [`crate::lcan::arbiter::Arbiter`] (the reference, which the tests below
//! compare it with on random arbitration sequences), without allocating per arbitration
//! (requests of at most two needs in a reused list, grants as fixed arrays), since R1 and
//! R2 arbitrate millions of times per permutation at n = 4096.

use crate::lcan::arbiter::{lfsr_init, lfsr_step, Need, Policy, Role};

/// One arbiter and its state (`arbiter::Arbiter`'s fields and semantics).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Arb {
    policy: Policy,
    requesters: u8,
    wires: u8,
    p: u8,
    q: u8,
    lfsr: u16,
}

impl Arb {
    /// A reset arbiter with `R = requesters`, `W = wires` for switch `g` (as
    /// `Arbiter::new`).
    pub(crate) fn new(
        policy: Policy,
        role: Role,
        requesters: usize,
        wires: usize,
        g: usize,
        seed16: u16,
    ) -> Self {
        Arb {
            policy,
            requesters: requesters.min(255) as u8,
            wires: wires.min(255) as u8,
            p: 0,
            q: 0,
            lfsr: lfsr_init(seed16, g, role),
        }
    }

    /// The pointers `(p, q)` the next arbitration will use.
    fn pointers(&self) -> (usize, usize) {
        match self.policy {
            Policy::Fixed => (0, 0),
            Policy::RoundRobin => (usize::from(self.p), usize::from(self.q)),
            Policy::Random => {
                let l = usize::from(self.lfsr);
                (
                    ((l & 0xFF) * usize::from(self.requesters)) >> 8,
                    ((l >> 8) * usize::from(self.wires)) >> 8,
                )
            }
        }
    }
}

/// One request: at most two needs.
#[derive(Debug, Clone, Copy)]
struct Req {
    requester: usize,
    tier: u8,
    key: u64,
    needs: [Need; 2],
    count: u8,
    eligible: bool,
}

/// The requests of one arbitration and its grants, kept from one arbitration to the next.
#[derive(Default)]
pub(crate) struct Requests {
    list: Vec<Req>,
    order: Vec<(u128, usize)>,
    grants: Vec<Option<[usize; 2]>>,
}

const NO_NEED: Need = Need {
    class: 0,
    allowed: 0,
};

impl Requests {
    /// Empties the list.
    pub(crate) fn clear(&mut self) {
        self.list.clear();
    }

    /// Appends a request with one or two needs.
    pub(crate) fn push(
        &mut self,
        requester: usize,
        tier: u8,
        key: u64,
        needs: &[Need],
        eligible: bool,
    ) {
        assert!(
            (1..=2).contains(&needs.len()),
            "a step-model request has one or two needs"
        );
        let mut n = [NO_NEED; 2];
        n[..needs.len()].copy_from_slice(needs);
        self.list.push(Req {
            requester,
            tier,
            key,
            needs: n,
            count: needs.len() as u8,
            eligible,
        });
    }

    /// Runs one arbitration of `arb` over the requests (`Arbiter::arbitrate`): returns,
    /// per request in push order, the wires granted for its needs, or `None`.
    pub(crate) fn arbitrate(
        &mut self,
        arb: &mut Arb,
        free: &mut [u64],
        max_grants: usize,
    ) -> &[Option<[usize; 2]>] {
        self.grants.clear();
        self.grants.resize(self.list.len(), None);
        if self.list.is_empty() {
            return &self.grants;
        }
        let (p, q) = arb.pointers();
        let r_mod = usize::from(arb.requesters).max(1);
        // Service order: by (tier, key, (r − p) mod R), ties in push order — one packed
        // sort key per request (R ≤ 255: the rotation fits in 8 bits), then the index.
        self.order.clear();
        let p_mod = p % r_mod;
        for (i, r) in self.list.iter().enumerate() {
            let rot = (r.requester + r_mod - p_mod) % r_mod;
            let packed = (u128::from(r.tier) << 72) | (u128::from(r.key) << 8) | rot as u128;
            self.order.push((packed, i));
        }
        if self.order.len() > 1 {
            self.order.sort_unstable();
        }
        let mut granted = 0;
        let mut last = None;
        for &(_, i) in &self.order {
            let req = &self.list[i];
            if !req.eligible || granted >= max_grants {
                continue;
            }
            let mut taken = [0usize; 2];
            let mut got = 0;
            for need in &req.needs[..usize::from(req.count)] {
                match first_from(need.allowed & free[need.class], q) {
                    Some(w) => {
                        free[need.class] &= !(1u64 << w);
                        taken[got] = w;
                        got += 1;
                    }
                    None => break,
                }
            }
            if got == usize::from(req.count) {
                granted += 1;
                last = Some(req.requester);
                self.grants[i] = Some(taken);
            } else {
                for (need, &w) in req.needs.iter().zip(&taken[..got]) {
                    free[need.class] |= 1u64 << w;
                }
            }
        }
        match arb.policy {
            Policy::Fixed => {}
            Policy::RoundRobin => {
                if let Some(r) = last {
                    arb.p = ((r + 1) % r_mod) as u8;
                    arb.q = ((usize::from(arb.q) + 1) % usize::from(arb.wires).max(1)) as u8;
                }
            }
            Policy::Random => arb.lfsr = lfsr_step(arb.lfsr),
        }
        &self.grants
    }
}

/// The first set bit of `cand` in cyclic order `q, q+1, …, 63, 0, …`.
fn first_from(cand: u64, q: usize) -> Option<usize> {
    if cand == 0 {
        return None;
    }
    let high = if q >= 64 { 0 } else { cand & (u64::MAX << q) };
    Some(if high != 0 {
        high.trailing_zeros()
    } else {
        cand.trailing_zeros()
    } as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcan::arbiter::{Arbiter, Request};
    use crate::rng::seeded;
    use rand::Rng;

    /// Random sequences of arbitrations (every policy, role, size, 1–2 needs, tiers,
    /// keys, ineligible requests, grant limits): the same grants, the same free masks and
    /// the same pointers as the reference arbiter, arbitration after arbitration.
    #[test]
    fn same_as_the_reference_arbiter() {
        let mut rng = seeded(14);
        for case in 0..600 {
            let policy = [Policy::Fixed, Policy::RoundRobin, Policy::Random][case % 3];
            let role = if case % 2 == 0 { Role::Up } else { Role::Down };
            let (requesters, wires) = (rng.gen_range(1..10), rng.gen_range(1..10));
            let (g, seed16) = (rng.gen_range(0..1000), rng.gen::<u16>());
            let mut reference = Arbiter::new(policy, role, requesters, wires, g, seed16);
            let mut fast = Arb::new(policy, role, requesters, wires, g, seed16);
            let mut reqs = Requests::default();
            for _ in 0..30 {
                let count = rng.gen_range(0..6);
                let mut list = Vec::new();
                reqs.clear();
                for _ in 0..count {
                    let needs: Vec<Need> = (0..rng.gen_range(1..=2))
                        .map(|j| Need {
                            class: j,
                            allowed: rng.gen::<u64>() & ((1 << wires) - 1),
                        })
                        .collect();
                    let r = Request {
                        requester: rng.gen_range(0..requesters),
                        tier: rng.gen_range(0..2),
                        key: rng.gen_range(0..3),
                        needs,
                        eligible: rng.gen_bool(0.9),
                    };
                    reqs.push(r.requester, r.tier, r.key, &r.needs, r.eligible);
                    list.push(r);
                }
                let max = if rng.gen_bool(0.3) { 1 } else { usize::MAX };
                let start = [rng.gen::<u64>(), rng.gen::<u64>()];
                let (mut f1, mut f2) = (start, start);
                let want = reference.arbitrate(&list, &mut f1, max);
                let got = reqs.arbitrate(&mut fast, &mut f2, max);
                let got: Vec<Option<Vec<usize>>> = got
                    .iter()
                    .zip(&list)
                    .map(|(g, r)| g.map(|w| w[..r.needs.len()].to_vec()))
                    .collect();
                assert_eq!(got, want, "case {case}");
                assert_eq!(f1, f2, "case {case}");
                assert_eq!(fast.pointers(), reference.pointers(), "case {case}");
            }
        }
    }
}
