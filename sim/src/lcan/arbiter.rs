//! The contention arbiter of docs/routing.md §2, bit-exact, so that the hardware can
//! reproduce it: policies `fixed`, `round-robin` and `random` (a 16-bit Galois LFSR).
//!
//! Every switch has two arbiters: UP (requesters `A(x)`, `R = d`; wires: the `u` uppers)
//! and DOWN (requesters `B(k)` → `k`, `A(x)` → `u + x`, `R = u + d`; wires: the `d` downers
//! in two classes, the down-wire `C(x)` and the up-wire `A(x)`). One call of
//! [`Arbiter::arbitrate`] is one *arbitration*:
//!
//! 1. pointers `(p, q)`: fixed `(0, 0)`; round-robin the registers; random from the LFSR
//!    state `L` before the arbitration: `p = ((L & 0xFF)·R) >> 8`, `q = ((L >> 8)·W) >> 8`;
//! 2. service order: by `(tier, key, (r − p) mod R)` ascending;
//! 3. each request takes, for each need, the first wire in cyclic order `q, q+1, …` that is
//!    allowed and free in its class; granted only if every need found one;
//! 4. update: round-robin (if anything was granted) `p ← r_last + 1`, `q ← q + 1`;
//!    random: one LFSR step `lsb = L & 1; L >>= 1; if lsb { L ^= 0xB400 }`.

use crate::rng::{derive, splitmix64};

/// An arbitration policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Policy {
    /// Fixed priority: `p = q = 0` always.
    #[serde(rename = "fixed")]
    Fixed,
    /// Round-robin registers `p`, `q`, reset to 0.
    #[serde(rename = "round-robin")]
    RoundRobin,
    /// Pointers drawn from a 16-bit LFSR per arbiter.
    #[serde(rename = "random")]
    Random,
}

impl Policy {
    /// The CLI/JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Fixed => "fixed",
            Policy::RoundRobin => "round-robin",
            Policy::Random => "random",
        }
    }
}

/// Which of a switch's two arbiters (the `a` of the LFSR salt).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The UP arbiter (`a = 0`).
    Up = 0,
    /// The DOWN arbiter (`a = 1`).
    Down = 1,
}

/// One need of a request: a wire of class `class` among the `allowed` ones (bit mask).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Need {
    /// Wire class (index into the `free` masks of [`Arbiter::arbitrate`]).
    pub class: usize,
    /// Allowed wires, bit `w` = wire `w`.
    pub allowed: u64,
}

/// One request of an arbitration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Requester index `r` (docs/routing.md §2 table).
    pub requester: usize,
    /// Tier (lower first).
    pub tier: u8,
    /// Key (lower first; 0 except for R1's incoming claims).
    pub key: u64,
    /// One or two needs, all of which must be met.
    pub needs: Vec<Need>,
    /// `false`: rejected without looking at wires (the `switch` conflict model's owned
    /// switch); still part of the arbitration.
    pub eligible: bool,
}

/// The LFSR step (Galois, x¹⁶+x¹⁴+x¹³+x¹¹+1).
pub fn lfsr_step(l: u16) -> u16 {
    let lsb = l & 1;
    let l = l >> 1;
    if lsb == 1 {
        l ^ 0xB400
    } else {
        l
    }
}

/// The 16-bit seed the hardware receives on its top-level port:
/// `derive(seed, "lcan-arbiter")` truncated to its low 16 bits.
pub fn seed16(seed: u64) -> u16 {
    derive(seed, "lcan-arbiter") as u16
}

/// Initial LFSR state of arbiter `role` of the switch with global index `g`:
/// `seed16 ^ (splitmix64(2g + a) as u16)`, replaced by 1 if zero.
pub fn lfsr_init(seed16: u16, g: usize, role: Role) -> u16 {
    let salt = splitmix64(2 * g as u64 + role as u64) as u16;
    match seed16 ^ salt {
        0 => 1,
        l => l,
    }
}

/// One arbiter and its state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arbiter {
    policy: Policy,
    requesters: u8,
    wires: u8,
    p: u8,
    q: u8,
    lfsr: u16,
}

impl Arbiter {
    /// A reset arbiter with `R = requesters`, `W = wires` (each at most 255) for switch
    /// `g` (global index).
    pub fn new(
        policy: Policy,
        role: Role,
        requesters: usize,
        wires: usize,
        g: usize,
        seed16: u16,
    ) -> Self {
        Arbiter {
            policy,
            requesters: requesters.min(255) as u8,
            wires: wires.min(255) as u8,
            p: 0,
            q: 0,
            lfsr: lfsr_init(seed16, g, role),
        }
    }

    /// The pointers `(p, q)` the next arbitration will use.
    pub fn pointers(&self) -> (usize, usize) {
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

    /// The LFSR state (meaningful for the `random` policy).
    pub fn lfsr(&self) -> u16 {
        self.lfsr
    }

    /// Runs one arbitration. `free[class]` has bit `w` set when wire `w` of that class is
    /// free; granted wires are cleared. At most `max_grants` requests are granted (the
    /// rest are rejected in service order). Returns, per request (input order), the
    /// wires granted for its needs, or `None` if rejected. An empty list is not an
    /// arbitration and changes nothing.
    pub fn arbitrate(
        &mut self,
        requests: &[Request],
        free: &mut [u64],
        max_grants: usize,
    ) -> Vec<Option<Vec<usize>>> {
        let mut out = vec![None; requests.len()];
        if requests.is_empty() {
            return out;
        }
        let (p, q) = self.pointers();
        let r_mod = usize::from(self.requesters).max(1);
        let mut order: Vec<usize> = (0..requests.len()).collect();
        order.sort_by_key(|&i| {
            let r = &requests[i];
            (r.tier, r.key, (r.requester + r_mod - p % r_mod) % r_mod)
        });
        let mut granted = 0;
        let mut last = None;
        for i in order {
            let req = &requests[i];
            if !req.eligible || granted >= max_grants {
                continue;
            }
            let mut taken = Vec::with_capacity(req.needs.len());
            let mut ok = true;
            for need in &req.needs {
                let cand = need.allowed & free[need.class];
                match first_from(cand, q) {
                    Some(w) => {
                        free[need.class] &= !(1u64 << w);
                        taken.push(w);
                    }
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                granted += 1;
                last = Some(req.requester);
                out[i] = Some(taken);
            } else {
                for (need, &w) in req.needs.iter().zip(&taken) {
                    free[need.class] |= 1u64 << w;
                }
            }
        }
        match self.policy {
            Policy::Fixed => {}
            Policy::RoundRobin => {
                if let Some(r) = last {
                    self.p = ((r + 1) % r_mod) as u8;
                    self.q = ((usize::from(self.q) + 1) % usize::from(self.wires).max(1)) as u8;
                }
            }
            Policy::Random => self.lfsr = lfsr_step(self.lfsr),
        }
        out
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
#[path = "tests/arbiter_tests.rs"]
mod tests;
