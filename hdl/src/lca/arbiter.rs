//! The contention arbiter (`docs/routing.md` §2, `docs/protocol.md` §7) as a sequential
//! engine: one request is decided per bit-time of the arbitration window, in service order
//! `(tier, key, (r − p) mod R, slot)`, each need taking the first free allowed wire from `q`.
//!
//! Its working registers (`pend`, `gnt_r`, `rej_r`, `ch0_r`, `ch1_r`, `used0`, `used1`,
//! `lastr`, `anyg`, `nonempty`) are initialized at `prep` from the requests, hold the step
//! outcome from the end of the window to the commit, and are cleared by the commit, which
//! also updates the policy state: round-robin pointers `rr_p`, `rr_q` (one-hot) or the LFSR
//! `lfsr`.
//!
//! Need class `c` applies to a contiguous range of slots (`class_slots[c]`), so that every
//! register and port exists only where a need of that class can occur.

use lcanet_sim::lcan::cycle::ArbiterPolicy;
use rust_hdl::prelude::*;

/// Shape of one arbiter: slot `s` belongs to requester `requester[s] < r`; need class `c`
/// (at most two) applies to the slots `class_slots[c]` and has `wires` wires; every slot
/// may carry a key (the `lt` matrix is `n × n`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArbiterShape {
    /// Requester index of each slot.
    pub requester: Vec<usize>,
    /// Number of requesters `R`.
    pub r: usize,
    /// Wires per class `Wn`.
    pub wires: usize,
    /// Slot range of each need class (one range for UP, two for DOWN).
    pub class_slots: Vec<std::ops::Range<usize>>,
    /// Policy.
    pub policy: ArbiterPolicy,
}

/// The arbiter. Inputs are sampled every bit-time of the window and must be stable in it.
#[derive(LogicBlock)]
pub struct Arbiter {
    /// One edge per bit-time.
    pub clock: Signal<In, Clock>,
    /// Reset for a new permutation.
    pub init: Signal<In, Bit>,
    /// First bit-time of the window: take `req`, `free*` as the initial state.
    pub prep: Signal<In, Bit>,
    /// Commit: update the policy state, clear the working registers.
    pub commit: Signal<In, Bit>,
    /// Requests present (sampled at `prep`).
    pub req: Vec<Signal<In, Bit>>,
    /// Slot is of tier 1.
    pub tier1: Vec<Signal<In, Bit>>,
    /// `lt[i·n + j]`: key of slot `i` < key of slot `j`.
    pub lt: Vec<Signal<In, Bit>>,
    /// A **[guard]**: if 0 the slot is rejected.
    pub guard: Vec<Signal<In, Bit>>,
    /// Class 0: `need0[s − lo0]`: the slot needs a wire of class 0.
    pub need0: Vec<Signal<In, Bit>>,
    /// Class 0: `allow0[(s − lo0)·Wn + w]`.
    pub allow0: Vec<Signal<In, Bit>>,
    /// Class 0 wires free at `prep`.
    pub free0: Vec<Signal<In, Bit>>,
    /// Class 1 (absent for a one-class arbiter), as class 0.
    pub need1: Vec<Signal<In, Bit>>,
    /// See `need1`.
    pub allow1: Vec<Signal<In, Bit>>,
    /// See `need1`.
    pub free1: Vec<Signal<In, Bit>>,
    /// `seed16` (random policy only).
    pub seed16: Vec<Signal<In, Bits<16>>>,
    /// The instance's salt (random policy only).
    pub salt: Vec<Signal<In, Bits<16>>>,
    /// Granted slots (working register).
    pub gnt: Vec<Signal<Out, Bit>>,
    /// `ch0[(s − lo0)·Wn + w]`: the slot got class-0 wire `w` (working register).
    pub ch0: Vec<Signal<Out, Bit>>,
    /// As `ch0` for class 1.
    pub ch1: Vec<Signal<Out, Bit>>,
    /// Working registers (observed by the co-simulation by name).
    pub pend: Vec<DFF<Bit>>,
    /// Granted slots.
    pub gnt_r: Vec<DFF<Bit>>,
    /// Rejected slots.
    pub rej_r: Vec<DFF<Bit>>,
    /// Chosen class-0 wires.
    pub ch0_r: Vec<DFF<Bit>>,
    /// Chosen class-1 wires.
    pub ch1_r: Vec<DFF<Bit>>,
    used0: Vec<DFF<Bit>>,
    used1: Vec<DFF<Bit>>,
    lastr: Vec<DFF<Bit>>,
    anyg: DFF<Bit>,
    nonempty: DFF<Bit>,
    /// Round-robin `p`, one-hot over requesters.
    pub rr_p: Vec<DFF<Bit>>,
    /// Round-robin `q`, one-hot over wires.
    pub rr_q: Vec<DFF<Bit>>,
    /// Random policy: the LFSR `L`.
    pub lfsr: Vec<DFF<Bits<16>>>,
    sel_req: Vec<Signal<Local, Bit>>,
    sel_gnt: Vec<Signal<Local, Bit>>,
    sel_any: Signal<Local, Bit>,
    pick_req: Vec<Signal<Local, Bit>>,
    pick_gnt: Vec<Signal<Local, Bit>>,
    pick_any: Vec<Signal<Local, Bit>>,
    act: Signal<Local, Bit>,
    e_pend: Vec<Signal<Local, Bit>>,
    e_used0: Vec<Signal<Local, Bit>>,
    e_used1: Vec<Signal<Local, Bit>>,
    base: Vec<Signal<Local, Bit>>,
    km: Vec<Signal<Local, Bit>>,
    csel: Vec<Signal<Local, Bit>>,
    p1h: Vec<Signal<Local, Bit>>,
    q1h: Vec<Signal<Local, Bit>>,
    need_on0: Signal<Local, Bit>,
    need_on1: Vec<Signal<Local, Bit>>,
    t0any: Signal<Local, Bit>,
    found: Signal<Local, Bit>,
    hit: Signal<Local, Bit>,
    g: Signal<Local, Bit>,
    ok: Signal<Local, Bit>,
    lo: Vec<Signal<Local, Bits<16>>>,
    hi: Vec<Signal<Local, Bits<16>>>,
    l0: Vec<Signal<Local, Bits<16>>>,
    lnext: Vec<Signal<Local, Bits<16>>>,
    map: Vec<Constant<Bit>>,
    th_p: Vec<Constant<Bits<16>>>,
    th_q: Vec<Constant<Bits<16>>>,
    c16: Vec<Constant<Bits<16>>>,
    _n: usize,
    _r: usize,
    _wn: usize,
    _lo0: usize,
    _n0: usize,
    _c1: usize,
    _lo1: usize,
    _n1: usize,
    _fixed: usize,
    _rr: usize,
    _rnd: usize,
}

/// `n` default values (signals, registers).
fn v<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}

/// Thresholds `⌈256·i/m⌉` for `i = 1..=m`: pointer `i` iff `th[i−1] ≤ v < th[i]`, which is
/// `(v·m) >> 8 = i` for an 8-bit `v`.
fn thresholds(m: usize) -> Vec<Constant<Bits<16>>> {
    (1..=m)
        .map(|i| Constant::new(((256 * i).div_ceil(m) as u64).into()))
        .collect()
}

impl Arbiter {
    /// An arbiter of the given shape.
    pub fn new(shape: &ArbiterShape) -> Self {
        let (n, r, wn) = (shape.requester.len(), shape.r, shape.wires);
        assert!(
            (1..=2).contains(&shape.class_slots.len())
                && shape.class_slots.iter().all(|c| c.end <= n),
            "Arbiter: bad class ranges (bug)"
        );
        let c0 = shape.class_slots[0].clone();
        let c1 = shape.class_slots.get(1).cloned().unwrap_or(0..0);
        let (n0, n1) = (c0.len(), c1.len());
        let has1 = usize::from(shape.class_slots.len() == 2);
        let rnd = usize::from(shape.policy == ArbiterPolicy::Random);
        let rr = usize::from(shape.policy == ArbiterPolicy::RoundRobin);
        let fixed = usize::from(shape.policy == ArbiterPolicy::Fixed);
        let map = (0..n * r)
            .map(|k| Constant::new(shape.requester[k / r] == k % r))
            .collect();
        // c16 = [0x00FF, 0x0001, 0x0000, 0xB400] (random only).
        let c16 = [0x00FFu64, 1, 0, 0xB400]
            .iter()
            .take(4 * rnd)
            .map(|&v| Constant::new(v.into()))
            .collect();
        Arbiter {
            clock: Default::default(),
            init: Default::default(),
            prep: Default::default(),
            commit: Default::default(),
            req: v(n),
            tier1: v(n),
            lt: v(n * n),
            guard: v(n),
            need0: v(n0),
            allow0: v(n0 * wn),
            free0: v(wn),
            need1: v(n1),
            allow1: v(n1 * wn),
            free1: v(has1 * wn),
            seed16: v(rnd),
            salt: v(rnd),
            gnt: v(n),
            ch0: v(n0 * wn),
            ch1: v(n1 * wn),
            pend: v(n),
            gnt_r: v(n),
            rej_r: v(n),
            ch0_r: v(n0 * wn),
            ch1_r: v(n1 * wn),
            used0: v(wn),
            used1: v(has1 * wn),
            lastr: v(r),
            anyg: Default::default(),
            nonempty: Default::default(),
            rr_p: v(rr * r),
            rr_q: v(rr * wn),
            lfsr: v(rnd),
            sel_req: v(r),
            sel_gnt: v(r),
            sel_any: Default::default(),
            pick_req: v((1 + has1) * wn),
            pick_gnt: v((1 + has1) * wn),
            pick_any: v(1 + has1),
            act: Default::default(),
            e_pend: v(n),
            e_used0: v(wn),
            e_used1: v(has1 * wn),
            base: v(n),
            km: v(n),
            csel: v(n),
            p1h: v(r),
            q1h: v(wn),
            need_on0: Default::default(),
            need_on1: v(has1),
            t0any: Default::default(),
            found: Default::default(),
            hit: Default::default(),
            g: Default::default(),
            ok: Default::default(),
            lo: v(rnd),
            hi: v(rnd),
            l0: v(rnd),
            lnext: v(rnd),
            map,
            th_p: if rnd == 1 { thresholds(r) } else { vec![] },
            th_q: if rnd == 1 { thresholds(wn) } else { vec![] },
            c16,
            _n: n,
            _r: r,
            _wn: wn,
            _lo0: c0.start,
            _n0: n0,
            _c1: has1,
            _lo1: c1.start,
            _n1: n1,
            _fixed: fixed,
            _rr: rr,
            _rnd: rnd,
        }
    }
}

impl Logic for Arbiter {
    #[hdl_gen]
    fn update(&mut self) {
        // Clocks.
        for s in 0..self._n {
            self.pend[s].clock.next = self.clock.val();
            self.gnt_r[s].clock.next = self.clock.val();
            self.rej_r[s].clock.next = self.clock.val();
        }
        for i in 0..(self._n0 * self._wn) {
            self.ch0_r[i].clock.next = self.clock.val();
        }
        for i in 0..(self._n1 * self._wn) {
            self.ch1_r[i].clock.next = self.clock.val();
        }
        for w in 0..self._wn {
            self.used0[w].clock.next = self.clock.val();
        }
        for w in 0..(self._c1 * self._wn) {
            self.used1[w].clock.next = self.clock.val();
        }
        for r in 0..self._r {
            self.lastr[r].clock.next = self.clock.val();
        }
        self.anyg.clock.next = self.clock.val();
        self.nonempty.clock.next = self.clock.val();
        // Pointers (p, q) as one-hot vectors, by policy.
        for r in 0..self._r {
            self.p1h[r].next = false;
        }
        for w in 0..self._wn {
            self.q1h[w].next = false;
        }
        for _once in 0..self._fixed {
            self.p1h[0].next = true;
            self.q1h[0].next = true;
        }
        for _once in 0..self._rr {
            for r in 0..self._r {
                self.rr_p[r].clock.next = self.clock.val();
                self.p1h[r].next = self.rr_p[r].q.val();
            }
            for w in 0..self._wn {
                self.rr_q[w].clock.next = self.clock.val();
                self.q1h[w].next = self.rr_q[w].q.val();
            }
        }
        for _once in 0..self._rnd {
            self.lfsr[0].clock.next = self.clock.val();
            self.lo[0].next = self.lfsr[0].q.val() & self.c16[0].val();
            self.hi[0].next = self.lfsr[0].q.val() >> 8;
            self.p1h[0].next = self.lo[0].val() < self.th_p[0].val();
            for r in 1..self._r {
                self.p1h[r].next = (self.lo[0].val() >= self.th_p[r - 1].val())
                    & (self.lo[0].val() < self.th_p[r].val());
            }
            self.q1h[0].next = self.hi[0].val() < self.th_q[0].val();
            for w in 1..self._wn {
                self.q1h[w].next = (self.hi[0].val() >= self.th_q[w - 1].val())
                    & (self.hi[0].val() < self.th_q[w].val());
            }
        }
        // Working state in effect this bit-time (fresh at `prep`).
        for s in 0..self._n {
            self.e_pend[s].next = self.pend[s].q.val();
            if self.prep.val() {
                self.e_pend[s].next = self.req[s].val();
            }
        }
        for w in 0..self._wn {
            self.e_used0[w].next = self.used0[w].q.val();
            if self.prep.val() {
                self.e_used0[w].next = !self.free0[w].val();
            }
        }
        for w in 0..(self._c1 * self._wn) {
            self.e_used1[w].next = self.used1[w].q.val();
            if self.prep.val() {
                self.e_used1[w].next = !self.free1[w].val();
            }
        }
        // Service order: tier 0 first, then smallest key, then (r - p) mod R, then slot.
        self.t0any.next = false;
        for s in 0..self._n {
            self.t0any.next = self.t0any.val() | (self.e_pend[s].val() & !self.tier1[s].val());
        }
        for s in 0..self._n {
            self.base[s].next = self.e_pend[s].val() & (!self.t0any.val() | !self.tier1[s].val());
        }
        for n in self._n..(self._n + 1) {
            for s in 0..self._n {
                self.km[s].next = self.base[s].val();
                for j in 0..self._n {
                    self.km[s].next =
                        self.km[s].val() & !(self.base[j].val() & self.lt[j * n + s].val());
                }
            }
        }
        for rr in self._r..(self._r + 1) {
            for r in 0..self._r {
                self.sel_req[r].next = false;
                for s in 0..self._n {
                    self.sel_req[r].next =
                        self.sel_req[r].val() | (self.km[s].val() & self.map[s * rr + r].val());
                }
            }
            // Cyclic search from p: first lap from the pointer on, second lap wraps.
            self.act.next = false;
            self.sel_any.next = false;
            for r in 0..self._r {
                self.act.next = self.act.val() | self.p1h[r].val();
                self.sel_gnt[r].next = self.act.val() & self.sel_req[r].val() & !self.sel_any.val();
                self.sel_any.next = self.sel_any.val() | self.sel_gnt[r].val();
            }
            for r in 0..self._r {
                self.sel_gnt[r].next =
                    self.sel_gnt[r].val() | (self.sel_req[r].val() & !self.sel_any.val());
                self.sel_any.next = self.sel_any.val() | self.sel_req[r].val();
            }
            self.found.next = false;
            for s in 0..self._n {
                self.hit.next = false;
                for r in 0..self._r {
                    self.hit.next =
                        self.hit.val() | (self.map[s * rr + r].val() & self.sel_gnt[r].val());
                }
                self.csel[s].next = self.km[s].val() & self.hit.val() & !self.found.val();
                self.found.next = self.found.val() | self.csel[s].val();
            }
        }
        // The chosen slot's needs: first free allowed wire from q, per class.
        self.g.next = false;
        for s in 0..self._n {
            self.g.next = self.g.val() | (self.csel[s].val() & self.guard[s].val());
        }
        self.ok.next = self.sel_any.val() & self.g.val();
        for wn in self._wn..(self._wn + 1) {
            for lo in self._lo0..(self._lo0 + 1) {
                self.need_on0.next = false;
                for i in 0..self._n0 {
                    self.need_on0.next =
                        self.need_on0.val() | (self.csel[lo + i].val() & self.need0[i].val());
                }
                for w in 0..self._wn {
                    self.pick_req[w].next = false;
                    for i in 0..self._n0 {
                        self.pick_req[w].next = self.pick_req[w].val()
                            | (self.csel[lo + i].val() & self.allow0[i * wn + w].val());
                    }
                    self.pick_req[w].next = self.pick_req[w].val() & !self.e_used0[w].val();
                }
                self.act.next = false;
                self.pick_any[0].next = false;
                for w in 0..self._wn {
                    self.act.next = self.act.val() | self.q1h[w].val();
                    self.pick_gnt[w].next =
                        self.act.val() & self.pick_req[w].val() & !self.pick_any[0].val();
                    self.pick_any[0].next = self.pick_any[0].val() | self.pick_gnt[w].val();
                }
                for w in 0..self._wn {
                    self.pick_gnt[w].next =
                        self.pick_gnt[w].val() | (self.pick_req[w].val() & !self.pick_any[0].val());
                    self.pick_any[0].next = self.pick_any[0].val() | self.pick_req[w].val();
                }
                self.ok.next = self.ok.val() & (!self.need_on0.val() | self.pick_any[0].val());
            }
            for lo in self._lo1..(self._lo1 + 1) {
                for _once in 0..self._c1 {
                    self.need_on1[0].next = false;
                    for i in 0..self._n1 {
                        self.need_on1[0].next = self.need_on1[0].val()
                            | (self.csel[lo + i].val() & self.need1[i].val());
                    }
                    for w in 0..self._wn {
                        self.pick_req[wn + w].next = false;
                        for i in 0..self._n1 {
                            self.pick_req[wn + w].next = self.pick_req[wn + w].val()
                                | (self.csel[lo + i].val() & self.allow1[i * wn + w].val());
                        }
                        self.pick_req[wn + w].next =
                            self.pick_req[wn + w].val() & !self.e_used1[w].val();
                    }
                    self.act.next = false;
                    self.pick_any[1].next = false;
                    for w in 0..self._wn {
                        self.act.next = self.act.val() | self.q1h[w].val();
                        self.pick_gnt[wn + w].next =
                            self.act.val() & self.pick_req[wn + w].val() & !self.pick_any[1].val();
                        self.pick_any[1].next =
                            self.pick_any[1].val() | self.pick_gnt[wn + w].val();
                    }
                    for w in 0..self._wn {
                        self.pick_gnt[wn + w].next = self.pick_gnt[wn + w].val()
                            | (self.pick_req[wn + w].val() & !self.pick_any[1].val());
                        self.pick_any[1].next =
                            self.pick_any[1].val() | self.pick_req[wn + w].val();
                    }
                    self.ok.next =
                        self.ok.val() & (!self.need_on1[0].val() | self.pick_any[1].val());
                }
            }
            // Next working state.
            for s in 0..self._n {
                self.pend[s].d.next = self.e_pend[s].val() & !self.csel[s].val();
                self.gnt_r[s].d.next = (self.gnt_r[s].q.val() & !self.prep.val())
                    | (self.csel[s].val() & self.ok.val());
                self.rej_r[s].d.next = (self.rej_r[s].q.val() & !self.prep.val())
                    | (self.csel[s].val() & !self.ok.val());
                self.gnt[s].next = self.gnt_r[s].q.val();
            }
            for lo in self._lo0..(self._lo0 + 1) {
                for i in 0..self._n0 {
                    for w in 0..self._wn {
                        self.ch0_r[i * wn + w].d.next = (self.ch0_r[i * wn + w].q.val()
                            & !self.prep.val())
                            | (self.csel[lo + i].val()
                                & self.ok.val()
                                & self.need0[i].val()
                                & self.pick_gnt[w].val());
                        self.ch0[i * wn + w].next = self.ch0_r[i * wn + w].q.val();
                    }
                }
            }
            for w in 0..self._wn {
                self.used0[w].d.next = self.e_used0[w].val()
                    | (self.ok.val() & self.need_on0.val() & self.pick_gnt[w].val());
            }
            for lo in self._lo1..(self._lo1 + 1) {
                for i in 0..self._n1 {
                    for w in 0..self._wn {
                        self.ch1_r[i * wn + w].d.next = (self.ch1_r[i * wn + w].q.val()
                            & !self.prep.val())
                            | (self.csel[lo + i].val()
                                & self.ok.val()
                                & self.need1[i].val()
                                & self.pick_gnt[wn + w].val());
                        self.ch1[i * wn + w].next = self.ch1_r[i * wn + w].q.val();
                    }
                }
            }
            for _once in 0..self._c1 {
                for w in 0..self._wn {
                    self.used1[w].d.next = self.e_used1[w].val()
                        | (self.ok.val() & self.need_on1[0].val() & self.pick_gnt[wn + w].val());
                }
            }
        }
        for r in 0..self._r {
            self.lastr[r].d.next = self.lastr[r].q.val() & !self.prep.val();
            if self.ok.val() {
                self.lastr[r].d.next = self.sel_gnt[r].val();
            }
        }
        self.anyg.d.next = (self.anyg.q.val() & !self.prep.val()) | self.ok.val();
        self.nonempty.d.next = self.nonempty.q.val();
        if self.prep.val() {
            self.nonempty.d.next = false;
            for s in 0..self._n {
                self.nonempty.d.next = self.nonempty.d.val() | self.req[s].val();
            }
        }
        // The commit (and init) clears the working registers.
        if self.commit.val() | self.init.val() {
            for s in 0..self._n {
                self.pend[s].d.next = false;
                self.gnt_r[s].d.next = false;
                self.rej_r[s].d.next = false;
            }
            for i in 0..(self._n0 * self._wn) {
                self.ch0_r[i].d.next = false;
            }
            for i in 0..(self._n1 * self._wn) {
                self.ch1_r[i].d.next = false;
            }
            for w in 0..self._wn {
                self.used0[w].d.next = false;
            }
            for w in 0..(self._c1 * self._wn) {
                self.used1[w].d.next = false;
            }
            for r in 0..self._r {
                self.lastr[r].d.next = false;
            }
            self.anyg.d.next = false;
            self.nonempty.d.next = false;
        }
        // Policy state. Round-robin: after a grant p <- r_last + 1, q <- q + 1.
        for _once in 0..self._rr {
            for rr in self._r..(self._r + 1) {
                for r in 0..self._r {
                    self.rr_p[r].d.next = self.rr_p[r].q.val();
                    if self.commit.val() & self.nonempty.q.val() & self.anyg.q.val() {
                        self.rr_p[r].d.next = self.lastr[(r + rr - 1) % rr].q.val();
                    }
                    if self.init.val() {
                        self.rr_p[r].d.next = false;
                    }
                }
            }
            for wn in self._wn..(self._wn + 1) {
                for w in 0..self._wn {
                    self.rr_q[w].d.next = self.rr_q[w].q.val();
                    if self.commit.val() & self.nonempty.q.val() & self.anyg.q.val() {
                        self.rr_q[w].d.next = self.rr_q[(w + wn - 1) % wn].q.val();
                    }
                    if self.init.val() {
                        self.rr_q[w].d.next = false;
                    }
                }
            }
            if self.init.val() {
                self.rr_p[0].d.next = true;
                self.rr_q[0].d.next = true;
            }
        }
        // Random: one Galois step per arbitration; L0 = seed16 ^ salt (1 if zero).
        for _once in 0..self._rnd {
            self.lnext[0].next = self.lfsr[0].q.val() >> 1;
            if (self.lfsr[0].q.val() & self.c16[1].val()) == self.c16[1].val() {
                self.lnext[0].next = (self.lfsr[0].q.val() >> 1) ^ self.c16[3].val();
            }
            self.l0[0].next = self.seed16[0].val() ^ self.salt[0].val();
            if self.l0[0].val() == self.c16[2].val() {
                self.l0[0].next = self.c16[1].val();
            }
            self.lfsr[0].d.next = self.lfsr[0].q.val();
            if self.commit.val() & self.nonempty.q.val() {
                self.lfsr[0].d.next = self.lnext[0].val();
            }
            if self.init.val() {
                self.lfsr[0].d.next = self.l0[0].val();
            }
        }
    }
}
