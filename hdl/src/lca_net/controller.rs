//! The network controller (`docs/interface.md` §4): the phase register, a count-down step
//! timer, the set-up step/level register, the pass and bit-time counters and the sticky
//! error flag; it broadcasts `ctl_*` to every switch and phase strobes to every PE
//! interface, and reduces the PEs' status (pending, one-hot LCA level, range and
//! duplicate-frame errors).
//!
//! Registers: `phase` (4), `bt` (10, counts down to 0 in the phase's/step's last
//! bit-time), `lv` (5: R1 `UP` step `s` holds `H−1−s` mod 32, `DOWN` holds the served
//! level, R2 `PROBE` holds the steps left), `hreg`/`hm1`/`h2` (5: `H`, `H−1`, `2H`),
//! `dlen`/`alen` (10: `NF+2H+1`, `2H+1`), `passes` (16), `bits` (32), `err`, `seed` (16,
//! random policy only).

use rust_hdl::prelude::*;

/// Phase codes (`docs/interface.md` §4).
pub const PHASES: [&str; 11] = [
    "IDLE", "LOAD", "PLAN", "ARM", "UP", "DOWN", "PROBE", "DELIV", "DATA", "ACK", "DONE",
];

/// Generation parameters of the controller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CtrlShape {
    /// PEs.
    pub n: usize,
    /// Levels.
    pub l: usize,
    /// Bits of a plain PE number (`AB`); conversion selects one of them per `LOAD` bit-time.
    pub abin: usize,
    /// Label conversion in `LOAD` (`CONV`).
    pub conv: bool,
    /// `T_LOAD`, `T_UP`, `T_DOWN`, `T_PROBE`, `NF`.
    pub t_load: usize,
    /// See `t_load`.
    pub t_up: usize,
    /// See `t_load`.
    pub t_down: usize,
    /// See `t_load`.
    pub t_probe: usize,
    /// See `t_load`.
    pub nf: usize,
    /// R1 (else R2).
    pub r1: bool,
    /// Random policy: latch and broadcast the seed.
    pub random: bool,
}

/// The controller block; see the module documentation.
#[derive(LogicBlock)]
pub struct Controller {
    /// One edge per bit-time.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Load and go.
    pub start: Signal<In, Bit>,
    /// The top-level seed (random policy only: one element).
    pub seed_in: Vec<Signal<In, Bits<16>>>,
    /// Per PE: `act ∧ ¬sent`.
    pub pend: Vec<Signal<In, Bit>>,
    /// Per PE `p`, level `j` at `p·l + j`: pending and `h_p = j`.
    pub hot: Vec<Signal<In, Bit>>,
    /// Per PE: `act ∧ dst ≥ n`.
    pub bad: Vec<Signal<In, Bit>>,
    /// Per PE: a second frame arrives this `DATA` bit-time.
    pub dup: Vec<Signal<In, Bit>>,
    /// Switch broadcast.
    pub ctl_init: Signal<Out, Bit>,
    /// See `ctl_init`.
    pub ctl_mode: Signal<Out, Bits<3>>,
    /// See `ctl_init`.
    pub ctl_last: Signal<Out, Bit>,
    /// See `ctl_init`.
    pub ctl_clear: Signal<Out, Bit>,
    /// See `ctl_init`.
    pub ctl_level: Signal<Out, Bits<4>>,
    /// The latched seed (random policy only: one element).
    pub seed16: Vec<Signal<Out, Bits<16>>>,
    /// Top-level status.
    pub phase: Signal<Out, Bits<4>>,
    /// See `phase`.
    pub done: Signal<Out, Bit>,
    /// See `phase`.
    pub error: Signal<Out, Bit>,
    /// See `phase`.
    pub passes: Signal<Out, Bits<16>>,
    /// See `phase`.
    pub bit_times: Signal<Out, Bits<32>>,
    /// PE strobes: the start edge is taken.
    pub go: Signal<Out, Bit>,
    /// `LOAD` bit-time selecting `dst` bit `k` for the label conversion (`CONV` only).
    pub lsel: Vec<Signal<Out, Bit>>,
    /// `PLAN`.
    pub plan: Signal<Out, Bit>,
    /// `ARM`.
    pub arm: Signal<Out, Bit>,
    /// Last bit-time of an R1 `UP` step that is not the last one.
    pub up_load: Signal<Out, Bit>,
    /// The LCA level whose PEs load `P1` at `arm`/`up_load`.
    pub sel_lvl: Signal<Out, Bits<4>>,
    /// `DELIV` bit-times 0 and 1.
    pub deliv0: Signal<Out, Bit>,
    /// See `deliv0`.
    pub deliv1: Signal<Out, Bit>,
    /// `DATA`, and its last bit-time.
    pub data: Signal<Out, Bit>,
    /// See `data`.
    pub data_last: Signal<Out, Bit>,
    /// `ACK`.
    pub ack: Signal<Out, Bit>,
    ph: DFF<Bits<4>>,
    bt: DFF<Bits<10>>,
    lv: DFF<Bits<5>>,
    hreg: DFF<Bits<5>>,
    hm1: DFF<Bits<5>>,
    h2: DFF<Bits<5>>,
    dlen: DFF<Bits<10>>,
    alen: DFF<Bits<10>>,
    npass: DFF<Bits<16>>,
    nbits: DFF<Bits<32>>,
    err: DFF<Bit>,
    seed: Vec<DFF<Bits<16>>>,
    any_pend: Signal<Local, Bit>,
    any_bad: Signal<Local, Bit>,
    any_dup: Signal<Local, Bit>,
    lvl_any: Vec<Signal<Local, Bit>>,
    last: Signal<Local, Bit>,
    c_ph: Vec<Constant<Bits<4>>>,
    c_m: Vec<Constant<Bits<3>>>,
    c_lv: Vec<Constant<Bits<5>>>,
    c_lvm1: Vec<Constant<Bits<5>>>,
    c_lv2: Vec<Constant<Bits<5>>>,
    c_dlen: Vec<Constant<Bits<10>>>,
    c_alen: Vec<Constant<Bits<10>>>,
    c_k: Vec<Constant<Bits<10>>>,
    c_tload: Constant<Bits<10>>,
    c_tup: Constant<Bits<10>>,
    c_tdown: Constant<Bits<10>>,
    c_tprobe: Constant<Bits<10>>,
    c_zero10: Constant<Bits<10>>,
    c_one10: Constant<Bits<10>>,
    c_zero5: Constant<Bits<5>>,
    c_ones5: Constant<Bits<5>>,
    c_one5: Constant<Bits<5>>,
    c_zero4: Constant<Bits<4>>,
    c_zero16: Constant<Bits<16>>,
    c_one16: Constant<Bits<16>>,
    c_zero32: Constant<Bits<32>>,
    c_one32: Constant<Bits<32>>,
    c_r1: Constant<Bit>,
    _n: usize,
    _l: usize,
    _ab: usize,
    _rnd: usize,
}

fn v<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}

impl Controller {
    /// A controller for `shape`.
    pub fn new(s: &CtrlShape) -> Self {
        let rnd = usize::from(s.random);
        let c10 = |x: usize| Constant::new((x as u64).into());
        let c5 = |x: usize| Constant::new(((x % 32) as u64).into());
        let nsel = if s.conv { s.abin } else { 0 };
        Controller {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            seed_in: v(rnd),
            pend: v(s.n),
            hot: v(s.n * s.l),
            bad: v(s.n),
            dup: v(s.n),
            ctl_init: Default::default(),
            ctl_mode: Default::default(),
            ctl_last: Default::default(),
            ctl_clear: Default::default(),
            ctl_level: Default::default(),
            seed16: v(rnd),
            phase: Default::default(),
            done: Default::default(),
            error: Default::default(),
            passes: Default::default(),
            bit_times: Default::default(),
            go: Default::default(),
            lsel: v(nsel),
            plan: Default::default(),
            arm: Default::default(),
            up_load: Default::default(),
            sel_lvl: Default::default(),
            deliv0: Default::default(),
            deliv1: Default::default(),
            data: Default::default(),
            data_last: Default::default(),
            ack: Default::default(),
            ph: Default::default(),
            bt: Default::default(),
            lv: Default::default(),
            hreg: Default::default(),
            hm1: Default::default(),
            h2: Default::default(),
            dlen: Default::default(),
            alen: Default::default(),
            npass: Default::default(),
            nbits: Default::default(),
            err: Default::default(),
            seed: v(rnd),
            any_pend: Default::default(),
            any_bad: Default::default(),
            any_dup: Default::default(),
            lvl_any: v(s.l),
            last: Default::default(),
            c_ph: (0..11).map(|p| Constant::new((p as u64).into())).collect(),
            c_m: (0..6).map(|m| Constant::new((m as u64).into())).collect(),
            c_lv: (0..s.l).map(c5).collect(),
            c_lvm1: (0..s.l).map(|j| c5(j + 31)).collect(),
            c_lv2: (0..s.l).map(|j| c5(2 * j)).collect(),
            c_dlen: (0..s.l).map(|j| c10(s.nf + 2 * j + 1)).collect(),
            c_alen: (0..s.l).map(|j| c10(2 * j + 1)).collect(),
            c_k: (0..nsel).map(c10).collect(),
            c_tload: c10(s.t_load - 1),
            c_tup: c10(s.t_up - 1),
            c_tdown: c10(s.t_down - 1),
            c_tprobe: c10(s.t_probe - 1),
            c_zero10: c10(0),
            c_one10: c10(1),
            c_zero5: c5(0),
            c_ones5: c5(31),
            c_one5: c5(1),
            c_zero4: Constant::new(0u64.into()),
            c_zero16: Constant::new(0u64.into()),
            c_one16: Constant::new(1u64.into()),
            c_zero32: Constant::new(0u64.into()),
            c_one32: Constant::new(1u64.into()),
            c_r1: Constant::new(s.r1),
            _n: s.n,
            _l: s.l,
            _ab: nsel,
            _rnd: rnd,
        }
    }
}

impl Logic for Controller {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ph, bt, lv, hreg, hm1, h2, dlen, alen, npass, nbits, err);
        for i in 0..self._rnd {
            self.seed[i].clock.next = self.clock.val();
            self.seed[i].d.next = self.seed[i].q.val();
            self.seed16[i].next = self.seed[i].q.val();
        }
        // Reductions over the PEs.
        self.any_pend.next = false;
        self.any_bad.next = false;
        self.any_dup.next = false;
        for j in 0..self._l {
            self.lvl_any[j].next = false;
        }
        for l in self._l..(self._l + 1) {
            for p in 0..self._n {
                self.any_pend.next = self.any_pend.val() | self.pend[p].val();
                self.any_bad.next = self.any_bad.val() | self.bad[p].val();
                self.any_dup.next = self.any_dup.val() | self.dup[p].val();
                for j in 0..self._l {
                    self.lvl_any[j].next = self.lvl_any[j].val() | self.hot[p * l + j].val();
                }
            }
        }
        self.last.next = self.bt.q.val() == self.c_zero10.val();
        // Broadcast outputs: functions of the registers.
        self.phase.next = self.ph.q.val();
        self.done.next = self.ph.q.val() == self.c_ph[10].val();
        self.error.next = self.err.q.val();
        self.passes.next = self.npass.q.val();
        self.bit_times.next = self.nbits.q.val();
        self.ctl_init.next =
            (self.ph.q.val() == self.c_ph[0].val()) | (self.ph.q.val() == self.c_ph[1].val());
        self.ctl_clear.next =
            (self.ph.q.val() == self.c_ph[2].val()) | (self.ph.q.val() == self.c_ph[10].val());
        self.ctl_mode.next = self.c_m[0].val();
        self.ctl_level.next = self.c_zero4.val();
        self.ctl_last.next = self.ctl_clear.val() | (self.ph.q.val() == self.c_ph[3].val());
        if self.ph.q.val() == self.c_ph[4].val() {
            self.ctl_mode.next = self.c_m[1].val();
        }
        if self.ph.q.val() == self.c_ph[5].val() {
            self.ctl_mode.next = self.c_m[2].val();
            self.ctl_level.next = self.lv.q.val().get_bits::<4>(0);
        }
        if self.ph.q.val() == self.c_ph[6].val() {
            self.ctl_mode.next = self.c_m[3].val();
        }
        if self.ph.q.val() == self.c_ph[8].val() {
            self.ctl_mode.next = self.c_m[4].val();
        }
        if self.ph.q.val() == self.c_ph[9].val() {
            self.ctl_mode.next = self.c_m[5].val();
        }
        if (self.ph.q.val() == self.c_ph[4].val())
            | (self.ph.q.val() == self.c_ph[5].val())
            | (self.ph.q.val() == self.c_ph[6].val())
            | (self.ph.q.val() == self.c_ph[7].val())
            | (self.ph.q.val() == self.c_ph[8].val())
            | (self.ph.q.val() == self.c_ph[9].val())
        {
            self.ctl_last.next = self.last.val();
        }
        // PE strobes.
        self.go.next = !self.reset.val()
            & self.start.val()
            & ((self.ph.q.val() == self.c_ph[0].val()) | (self.ph.q.val() == self.c_ph[10].val()));
        for k in 0..self._ab {
            self.lsel[k].next =
                (self.ph.q.val() == self.c_ph[1].val()) & (self.bt.q.val() == self.c_k[k].val());
        }
        self.plan.next = self.ph.q.val() == self.c_ph[2].val();
        self.arm.next = self.ph.q.val() == self.c_ph[3].val();
        self.up_load.next = (self.ph.q.val() == self.c_ph[4].val())
            & self.last.val()
            & (self.lv.q.val() != self.c_ones5.val());
        self.sel_lvl.next = self.lv.q.val().get_bits::<4>(0);
        self.deliv0.next = (self.ph.q.val() == self.c_ph[7].val()) & !self.last.val();
        self.deliv1.next = (self.ph.q.val() == self.c_ph[7].val()) & self.last.val();
        self.data.next = self.ph.q.val() == self.c_ph[8].val();
        self.data_last.next = self.data.val() & self.last.val();
        self.ack.next = self.ph.q.val() == self.c_ph[9].val();
        // Counters.
        self.bt.d.next = self.bt.q.val() - self.c_one10.val();
        if self.last.val() {
            self.bt.d.next = self.c_zero10.val();
        }
        if (self.ph.q.val() != self.c_ph[0].val()) & (self.ph.q.val() != self.c_ph[10].val()) {
            self.nbits.d.next = self.nbits.q.val() + self.c_one32.val();
        }
        if self.data.val() & self.any_dup.val() {
            self.err.d.next = true;
        }
        // Transitions.
        if self.go.val() {
            self.ph.d.next = self.c_ph[1].val();
            self.bt.d.next = self.c_tload.val();
            self.npass.d.next = self.c_zero16.val();
            self.nbits.d.next = self.c_zero32.val();
            self.err.d.next = false;
            for i in 0..self._rnd {
                self.seed[i].d.next = self.seed_in[i].val();
            }
        }
        if (self.ph.q.val() == self.c_ph[1].val()) & self.last.val() {
            self.ph.d.next = self.c_ph[2].val();
            if self.any_bad.val() {
                self.err.d.next = true;
            }
        }
        if self.plan.val() {
            if self.err.q.val() | !self.any_pend.val() {
                self.ph.d.next = self.c_ph[10].val();
            } else {
                self.ph.d.next = self.c_ph[3].val();
                self.npass.d.next = self.npass.q.val() + self.c_one16.val();
            }
            for j in 0..self._l {
                if self.lvl_any[j].val() {
                    self.hreg.d.next = self.c_lv[j].val();
                    self.hm1.d.next = self.c_lvm1[j].val();
                    self.h2.d.next = self.c_lv2[j].val();
                    self.dlen.d.next = self.c_dlen[j].val();
                    self.alen.d.next = self.c_alen[j].val();
                    self.lv.d.next = self.c_lv[j].val();
                }
            }
        }
        if self.arm.val() {
            if self.c_r1.val() {
                self.ph.d.next = self.c_ph[4].val();
                self.bt.d.next = self.c_tup.val();
                self.lv.d.next = self.hm1.q.val();
            } else {
                self.ph.d.next = self.c_ph[6].val();
                self.bt.d.next = self.c_tprobe.val();
                self.lv.d.next = self.h2.q.val();
            }
        }
        if (self.ph.q.val() == self.c_ph[4].val()) & self.last.val() {
            if self.lv.q.val() == self.c_ones5.val() {
                self.ph.d.next = self.c_ph[5].val();
                self.bt.d.next = self.c_tdown.val();
                self.lv.d.next = self.hreg.q.val();
            } else {
                self.bt.d.next = self.c_tup.val();
                self.lv.d.next = self.lv.q.val() - self.c_one5.val();
            }
        }
        if (self.ph.q.val() == self.c_ph[5].val()) & self.last.val() {
            if self.lv.q.val() == self.c_zero5.val() {
                self.ph.d.next = self.c_ph[7].val();
                self.bt.d.next = self.c_one10.val();
            } else {
                self.bt.d.next = self.c_tdown.val();
                self.lv.d.next = self.lv.q.val() - self.c_one5.val();
            }
        }
        if (self.ph.q.val() == self.c_ph[6].val()) & self.last.val() {
            if self.lv.q.val() == self.c_zero5.val() {
                self.ph.d.next = self.c_ph[7].val();
                self.bt.d.next = self.c_one10.val();
            } else {
                self.bt.d.next = self.c_tprobe.val();
                self.lv.d.next = self.lv.q.val() - self.c_one5.val();
            }
        }
        if self.deliv1.val() {
            self.ph.d.next = self.c_ph[8].val();
            self.bt.d.next = self.dlen.q.val();
        }
        if self.data_last.val() {
            self.ph.d.next = self.c_ph[9].val();
            self.bt.d.next = self.alen.q.val();
        }
        if self.ack.val() & self.last.val() {
            self.ph.d.next = self.c_ph[2].val();
        }
        if self.reset.val() {
            self.ph.d.next = self.c_ph[0].val();
            self.bt.d.next = self.c_zero10.val();
            self.lv.d.next = self.c_zero5.val();
            self.hreg.d.next = self.c_zero5.val();
            self.hm1.d.next = self.c_zero5.val();
            self.h2.d.next = self.c_zero5.val();
            self.dlen.d.next = self.c_zero10.val();
            self.alen.d.next = self.c_zero10.val();
            self.npass.d.next = self.c_zero16.val();
            self.nbits.d.next = self.c_zero32.val();
            self.err.d.next = false;
            for i in 0..self._rnd {
                self.seed[i].d.next = self.c_zero16.val();
            }
        }
    }
}
