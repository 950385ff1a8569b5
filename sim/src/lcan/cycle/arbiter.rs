//! The contention arbiter of `docs/routing.md` §2, bit-exact: pointers by policy, service
//! order, first free allowed wire from `q`, state update.
//!
//! One [`Arbiter`] is one arbiter of one switch (UP or DOWN). [`Arbiter::arbitrate`] is one
//! arbitration: it takes the requests of a commit and the free wires of each class, and
//! returns a [`Decision`] per request in the caller's order.

use super::params::ArbiterPolicy;
use serde::Serialize;

/// Galois LFSR taps, polynomial x¹⁶+x¹⁴+x¹³+x¹¹+1.
pub const LFSR_TAPS: u16 = 0xB400;

/// One step of the 16-bit Galois LFSR.
pub fn lfsr_step(l: u16) -> u16 {
    let lsb = l & 1;
    let mut l = l >> 1;
    if lsb == 1 {
        l ^= LFSR_TAPS;
    }
    l
}

/// The LFSR's initial value `seed16 ^ salt`, replaced by 1 if zero.
pub fn lfsr_initial(seed16: u16, salt: u16) -> u16 {
    match seed16 ^ salt {
        0 => 1,
        v => v,
    }
}

/// One need of a request: a wire of class `class` from the set `allowed` (bit `w` = wire `w`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Need {
    /// Wire class (an index into the free sets given to [`Arbiter::arbitrate`]).
    pub class: usize,
    /// Allowed wires.
    pub allowed: u64,
}

/// A request to an arbiter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Requester index `r` in `0..R`.
    pub requester: usize,
    /// Tier (served in increasing order).
    pub tier: u8,
    /// Key, compared lexicographically (R1's `(l−1−h, s)`; zero otherwise).
    pub key: (i64, u64),
    /// Last tie-break: 0 for an S-claim, 1 otherwise (`docs/protocol.md` §7).
    pub class_order: u8,
    /// One or two needs.
    pub needs: Vec<Need>,
    /// A **guard** of `docs/protocol.md`: if false the request is rejected.
    pub guard: bool,
}

/// The outcome of one request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// Whether every need found a wire (and the guard held).
    pub granted: bool,
    /// The wire chosen for each need (meaningful only when granted).
    pub wires: Vec<usize>,
}

/// The observable state of one arbiter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Arbiter {
    policy: ArbiterPolicy,
    requesters: usize,
    wires: usize,
    p: usize,
    q: usize,
    lfsr: u16,
}

impl Arbiter {
    /// An arbiter with `requesters` requesters over `wires` wires, in its power-up state
    /// (all registers zero, as the hardware before its first `ctl_init`).
    pub fn new(policy: ArbiterPolicy, requesters: usize, wires: usize) -> Self {
        Arbiter {
            policy,
            requesters,
            wires,
            p: 0,
            q: 0,
            lfsr: 0,
        }
    }

    /// Resets for a new permutation: `p = q = 0`, `L = lfsr_initial(seed16, salt)`.
    pub fn reset(&mut self, seed16: u16, salt: u16) {
        self.p = 0;
        self.q = 0;
        self.lfsr = match self.policy {
            ArbiterPolicy::Random => lfsr_initial(seed16, salt),
            _ => 0,
        };
    }

    /// The round-robin registers `(p, q)` (zero for the other policies).
    pub fn registers(&self) -> (usize, usize) {
        (self.p, self.q)
    }

    /// The LFSR state (zero unless the policy is random).
    pub fn lfsr(&self) -> u16 {
        self.lfsr
    }

    /// The pointers `(p, q)` the next arbitration will use.
    pub fn pointers(&self) -> (usize, usize) {
        match self.policy {
            ArbiterPolicy::Fixed => (0, 0),
            ArbiterPolicy::RoundRobin => (self.p, self.q),
            ArbiterPolicy::Random => {
                let l = usize::from(self.lfsr);
                (
                    ((l & 0xFF) * self.requesters) >> 8,
                    ((l >> 8) * self.wires) >> 8,
                )
            }
        }
    }

    /// One arbitration. `free[class]` is the set of free wires of each class; grants remove
    /// the wires they take. Returns one decision per request, in the order given. An empty
    /// request list is not an arbitration and leaves the state alone.
    pub fn arbitrate(&mut self, requests: &[Request], free: &mut [u64]) -> Vec<Decision> {
        let mut out: Vec<Decision> = requests
            .iter()
            .map(|r| Decision {
                granted: false,
                wires: vec![0; r.needs.len()],
            })
            .collect();
        if requests.is_empty() {
            return out;
        }
        let (p, q) = self.pointers();
        let rr = self.requesters;
        let mut order: Vec<usize> = (0..requests.len()).collect();
        order.sort_by_key(|&i| {
            let r = &requests[i];
            (
                r.tier,
                r.key,
                (r.requester + rr - p % rr) % rr,
                r.class_order,
            )
        });
        let mut last_grant = None;
        for &i in &order {
            let req = &requests[i];
            // Each need takes its wire tentatively (so two needs of one class cannot take
            // the same wire); a rejected request gives them back.
            let mut chosen = Vec::with_capacity(req.needs.len());
            for need in &req.needs {
                let avail = need.allowed & free[need.class];
                let pick = (0..self.wires)
                    .map(|o| (q + o) % self.wires)
                    .find(|&w| avail >> w & 1 == 1);
                match pick {
                    Some(w) => {
                        free[need.class] &= !(1u64 << w);
                        chosen.push(w);
                    }
                    None => break,
                }
            }
            if req.guard && chosen.len() == req.needs.len() {
                out[i] = Decision {
                    granted: true,
                    wires: chosen,
                };
                last_grant = Some(req.requester);
            } else {
                for (need, &w) in req.needs.iter().zip(&chosen) {
                    free[need.class] |= 1u64 << w;
                }
            }
        }
        match self.policy {
            ArbiterPolicy::Fixed => {}
            ArbiterPolicy::RoundRobin => {
                if let Some(r) = last_grant {
                    self.p = (r + 1) % rr;
                    self.q = (self.q + 1) % self.wires;
                }
            }
            ArbiterPolicy::Random => self.lfsr = lfsr_step(self.lfsr),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn up_req(r: usize) -> Request {
        Request {
            requester: r,
            tier: 0,
            key: (0, 0),
            class_order: 1,
            needs: vec![Need {
                class: 0,
                allowed: 0b11,
            }],
            guard: true,
        }
    }

    fn granted(decs: &[Decision]) -> Vec<Option<usize>> {
        decs.iter().map(|d| d.granted.then(|| d.wires[0])).collect()
    }

    #[test]
    fn lfsr_sequence_by_hand() {
        // 0xACE1 = ...0001: lsb 1 -> 0x5670 ^ 0xB400 = 0xE270; then two plain shifts.
        assert_eq!(lfsr_step(0xACE1), 0xE270);
        assert_eq!(lfsr_step(0xE270), 0x7138);
        assert_eq!(lfsr_step(0x7138), 0x389C);
        assert_eq!(lfsr_initial(0x1234, 0x1234), 1, "a zero seed becomes 1");
        assert_eq!(lfsr_initial(0x00F0, 0x0F00), 0x0FF0);
    }

    #[test]
    fn fixed_priority_serves_from_requester_zero_and_wire_zero() {
        // UP arbiter of a d = 4, u = 2 switch.
        let mut a = Arbiter::new(ArbiterPolicy::Fixed, 4, 2);
        a.reset(0, 0);
        for _ in 0..2 {
            let decs = a.arbitrate(&[up_req(3), up_req(1), up_req(2)], &mut [0b11]);
            assert_eq!(granted(&decs), vec![None, Some(0), Some(1)]);
        }
        assert_eq!(a.pointers(), (0, 0));
    }

    #[test]
    fn round_robin_sequence_by_hand() {
        let mut a = Arbiter::new(ArbiterPolicy::RoundRobin, 4, 2);
        a.reset(0, 0);
        // p = 0, q = 0: order 1, 2, 3; wires 0, 1; last grant r = 2.
        let decs = a.arbitrate(&[up_req(1), up_req(2), up_req(3)], &mut [0b11]);
        assert_eq!(granted(&decs), vec![Some(0), Some(1), None]);
        assert_eq!(a.registers(), (3, 1));
        // p = 3, q = 1: order 3, 0, 1, 2; r3 -> wire 1, r0 -> wire 0; last grant r = 0.
        let decs = a.arbitrate(&[up_req(0), up_req(1), up_req(2), up_req(3)], &mut [0b11]);
        assert_eq!(granted(&decs), vec![Some(0), None, None, Some(1)]);
        assert_eq!(a.registers(), (1, 0));
        // Only wire 1 free: r2 takes it.
        let decs = a.arbitrate(&[up_req(2)], &mut [0b10]);
        assert_eq!(granted(&decs), vec![Some(1)]);
        assert_eq!(a.registers(), (3, 1));
        // Nothing granted: no update; empty list: not an arbitration.
        a.arbitrate(&[up_req(0)], &mut [0]);
        a.arbitrate(&[], &mut [0b11]);
        assert_eq!(a.registers(), (3, 1));
    }

    #[test]
    fn random_pointers_follow_the_lfsr() {
        let mut a = Arbiter::new(ArbiterPolicy::Random, 4, 2);
        a.reset(0xACE1, 0); // L = 0xACE1: p = (0xE1*4)>>8 = 3, q = (0xAC*2)>>8 = 1
        assert_eq!(a.pointers(), (3, 1));
        let all = [up_req(0), up_req(1), up_req(2), up_req(3)];
        let decs = a.arbitrate(&all, &mut [0b11]);
        assert_eq!(granted(&decs), vec![Some(0), None, None, Some(1)]);
        assert_eq!(a.lfsr(), 0xE270); // p = (0x70*4)>>8 = 1, q = (0xE2*2)>>8 = 1
        assert_eq!(a.pointers(), (1, 1));
        let decs = a.arbitrate(&all, &mut [0b11]);
        assert_eq!(granted(&decs), vec![None, Some(1), Some(0), None]);
        // An arbitration without grants still advances the LFSR.
        a.arbitrate(&all, &mut [0]);
        assert_eq!(a.lfsr(), 0x389C);
    }

    #[test]
    fn tiers_then_keys_then_rotation_and_two_needs() {
        // DOWN arbiter of d = 2, u = 1: R = 3, two classes of 2 wires.
        let mut a = Arbiter::new(ArbiterPolicy::Fixed, 3, 2);
        a.reset(0, 0);
        let need = |class, allowed| Need { class, allowed };
        let req = |r, tier, key, needs| Request {
            requester: r,
            tier,
            key,
            class_order: 1,
            needs,
            guard: true,
        };
        let reqs = [
            req(1, 1, (0, 0), vec![need(0, 0b01), need(1, 0b10)]), // winner: A0 and C1
            req(0, 0, (1, 9), vec![need(0, 0b01)]),                // claim, later key
            req(0, 0, (0, 9), vec![need(1, 0b10)]),                // claim, first key
            req(2, 1, (0, 0), vec![need(0, 0b10), need(1, 0b01)]), // winner: A1 and C0
        ];
        let mut free = [0b11, 0b11];
        let decs = a.arbitrate(&reqs, &mut free);
        // Served: key (0,9) takes C1; key (1,9) takes A0; winner r=1 needs A0: rejected;
        // winner r=2 takes A1 and C0.
        let g: Vec<bool> = decs.iter().map(|d| d.granted).collect();
        assert_eq!(g, vec![false, true, true, true]);
        assert_eq!(decs[3].wires, vec![1, 0]);
        assert_eq!(free, [0, 0]);
    }
}
