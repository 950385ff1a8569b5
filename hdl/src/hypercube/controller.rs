//! The cube's controller (`docs/hypercube.md` §5–§6): sequences the phases of
//! Algorithm 1 (`semi`) or Algorithm 2 (`full`), counts phase cycles, and broadcasts the
//! strobes, the one-hot `sel` and the thermometer `low` to every node.
//!
//! Phase lengths depend on `k` and `L`; they are sized constants of the block
//! (`localparam`s in Verilog), compared with an 8-bit phase counter.

use rust_hdl::prelude::*;

/// The controller block.
#[derive(LogicBlock)]
pub struct Controller {
    /// Bit-time clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: idle, not done.
    pub reset: Signal<In, Bit>,
    /// Start a run (sampled while not busy).
    pub start: Signal<In, Bit>,
    /// 0 = `semi` (Algorithm 1), 1 = `full` (Algorithm 2).
    pub algorithm: Signal<In, Bit>,
    /// Stage/enumeration clear (last cycle of a phase, or reset).
    pub clear: Signal<Out, Bit>,
    /// The load cycle.
    pub load: Signal<Out, Bit>,
    /// The run is over.
    pub done: Signal<Out, Bit>,
    /// Ascending routing phase.
    pub fwd: Signal<Out, Bit>,
    /// Descending routing phase.
    pub bwd: Signal<Out, Bit>,
    /// Enumeration phase.
    pub enum_on: Signal<Out, Bit>,
    /// Step 1.
    pub xdim_on: Signal<Out, Bit>,
    /// Phase `semi`.
    pub k_semi: Signal<Out, Bit>,
    /// Phase `pack2`.
    pub k_pack2: Signal<Out, Bit>,
    /// Phase `pack0`.
    pub k_pack0: Signal<Out, Bit>,
    /// Phase `rdv`.
    pub k_rdv: Signal<Out, Bit>,
    /// Phase `enum2`.
    pub k_enum2: Signal<Out, Bit>,
    /// Routing cycle 0.
    pub c_start: Signal<Out, Bit>,
    /// Routing cycles `1..=k`.
    pub c_addr: Signal<Out, Bit>,
    /// Routing body cycles.
    pub c_body: Signal<Out, Bit>,
    /// Routing cycle `2k+1`.
    pub c_rxstart: Signal<Out, Bit>,
    /// Routing cycles `2k+2..=2k+B+1`.
    pub c_rxbody: Signal<Out, Bit>,
    /// Routing cycles `k+1..=2k+B+1`.
    pub c_window: Signal<Out, Bit>,
    /// Last cycle of a phase.
    pub last: Signal<Out, Bit>,
    /// Enumeration cycle 0.
    pub e_inject: Signal<Out, Bit>,
    /// Enumeration cycles `k+1..=2k`.
    pub e_capture: Signal<Out, Bit>,
    /// Step-1 cycle 0.
    pub x_decide: Signal<Out, Bit>,
    /// One-hot dimension selector.
    pub sel: Vec<Signal<Out, Bit>>,
    /// Thermometer of the loop index `i`.
    pub low: Vec<Signal<Out, Bit>>,
    /// Bit times of the run so far.
    pub bit_time: Signal<Out, Bits<16>>,
    busy: DFF<Bit>,
    done_r: DFF<Bit>,
    ph_semi: DFF<Bit>,
    ph_cross: DFF<Bit>,
    ph_enum2: DFF<Bit>,
    ph_pack2: DFF<Bit>,
    ph_enum0: DFF<Bit>,
    ph_pack0: DFF<Bit>,
    ph_rdv: DFF<Bit>,
    cnt: DFF<Bits<8>>,
    bt: DFF<Bits<16>>,
    low_r: Vec<DFF<Bit>>,
    sel_r: Vec<DFF<Bit>>,
    routing: Signal<Local, Bit>,
    body_end: Signal<Local, Bits<8>>,
    route_last: Signal<Local, Bits<8>>,
    is_last: Signal<Local, Bit>,
    zero8: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    c_k: Constant<Bits<8>>,
    c_k1: Constant<Bits<8>>,
    c_2k: Constant<Bits<8>>,
    c_2k1: Constant<Bits<8>>,
    c_2k2: Constant<Bits<8>>,
    c_m: Constant<Bits<8>>,
    c_kl: Constant<Bits<8>>,
    c_km: Constant<Bits<8>>,
    c_last_semi: Constant<Bits<8>>,
    c_last_m: Constant<Bits<8>>,
    c_last_p0: Constant<Bits<8>>,
    _k: usize,
}

fn c8(v: usize) -> Constant<Bits<8>> {
    Constant::new((v as u64).to_bits())
}

impl Controller {
    /// The controller of a `k`-cube with `payload_bits`-bit payloads. The longest phase,
    /// `3k + L + 2` cycles, must fit the 8-bit phase counter (checked by the generator).
    pub fn new(k: usize, payload_bits: usize) -> Self {
        let (l, m) = (payload_bits, k + payload_bits);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            algorithm: Default::default(),
            clear: Default::default(),
            load: Default::default(),
            done: Default::default(),
            fwd: Default::default(),
            bwd: Default::default(),
            enum_on: Default::default(),
            xdim_on: Default::default(),
            k_semi: Default::default(),
            k_pack2: Default::default(),
            k_pack0: Default::default(),
            k_rdv: Default::default(),
            k_enum2: Default::default(),
            c_start: Default::default(),
            c_addr: Default::default(),
            c_body: Default::default(),
            c_rxstart: Default::default(),
            c_rxbody: Default::default(),
            c_window: Default::default(),
            last: Default::default(),
            e_inject: Default::default(),
            e_capture: Default::default(),
            x_decide: Default::default(),
            sel: (0..k).map(|_| Default::default()).collect(),
            low: (0..k).map(|_| Default::default()).collect(),
            bit_time: Default::default(),
            busy: Default::default(),
            done_r: Default::default(),
            ph_semi: Default::default(),
            ph_cross: Default::default(),
            ph_enum2: Default::default(),
            ph_pack2: Default::default(),
            ph_enum0: Default::default(),
            ph_pack0: Default::default(),
            ph_rdv: Default::default(),
            cnt: Default::default(),
            bt: Default::default(),
            low_r: (0..k).map(|_| Default::default()).collect(),
            sel_r: (0..k).map(|_| Default::default()).collect(),
            routing: Default::default(),
            body_end: Default::default(),
            route_last: Default::default(),
            is_last: Default::default(),
            zero8: c8(0),
            one8: c8(1),
            one16: Constant::new(1u64.to_bits()),
            zero16: Constant::new(0u64.to_bits()),
            c_k: c8(k),
            c_k1: c8(k + 1),
            c_2k: c8(2 * k),
            c_2k1: c8(2 * k + 1),
            c_2k2: c8(2 * k + 2),
            c_m: c8(m),
            c_kl: c8(k + l),
            c_km: c8(k + m),
            c_last_semi: c8(2 * k + l + 1),
            c_last_m: c8(2 * k + m + 1),
            c_last_p0: c8(3 * k + 1),
            _k: k,
        }
    }
}

impl Logic for Controller {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, busy, done_r, ph_semi, ph_cross, ph_enum2, ph_pack2, ph_enum0, ph_pack0,
            ph_rdv, cnt, bt
        );
        for d in 0..self._k {
            self.low_r[d].clock.next = self.clock.val();
            self.low_r[d].d.next = self.low_r[d].q.val();
            self.sel_r[d].clock.next = self.clock.val();
            self.sel_r[d].d.next = false;
        }
        // Phase decode.
        self.routing.next = self.ph_semi.q.val()
            | self.ph_pack2.q.val()
            | self.ph_pack0.q.val()
            | self.ph_rdv.q.val();
        self.fwd.next = self.ph_semi.q.val() | self.ph_pack2.q.val() | self.ph_pack0.q.val();
        self.bwd.next = self.ph_rdv.q.val();
        self.enum_on.next = self.ph_enum2.q.val() | self.ph_enum0.q.val();
        self.xdim_on.next = self.ph_cross.q.val();
        self.k_semi.next = self.ph_semi.q.val();
        self.k_pack2.next = self.ph_pack2.q.val();
        self.k_pack0.next = self.ph_pack0.q.val();
        self.k_rdv.next = self.ph_rdv.q.val();
        self.k_enum2.next = self.ph_enum2.q.val();
        self.body_end.next = self.c_km.val();
        self.route_last.next = self.c_last_m.val();
        if self.ph_semi.q.val() {
            self.body_end.next = self.c_kl.val();
            self.route_last.next = self.c_last_semi.val();
        }
        if self.ph_pack0.q.val() {
            self.body_end.next = self.c_2k.val();
            self.route_last.next = self.c_last_p0.val();
        }
        // Strobes.
        self.c_start.next = self.routing.val() & (self.cnt.q.val() == self.zero8.val());
        self.c_addr.next = self.routing.val()
            & (self.cnt.q.val() >= self.one8.val())
            & (self.cnt.q.val() <= self.c_k.val());
        self.c_body.next = self.routing.val()
            & (self.cnt.q.val() >= self.c_k1.val())
            & (self.cnt.q.val() <= self.body_end.val());
        self.c_rxstart.next = self.routing.val() & (self.cnt.q.val() == self.c_2k1.val());
        self.c_rxbody.next = self.routing.val()
            & (self.cnt.q.val() >= self.c_2k2.val())
            & (self.cnt.q.val() <= self.route_last.val());
        self.c_window.next = self.routing.val()
            & (self.cnt.q.val() >= self.c_k1.val())
            & (self.cnt.q.val() <= self.route_last.val());
        self.e_inject.next = self.enum_on.val() & (self.cnt.q.val() == self.zero8.val());
        self.e_capture.next = self.enum_on.val()
            & (self.cnt.q.val() >= self.c_k1.val())
            & (self.cnt.q.val() <= self.c_2k.val());
        self.x_decide.next = self.xdim_on.val() & (self.cnt.q.val() == self.zero8.val());
        self.is_last.next = (self.routing.val() & (self.cnt.q.val() == self.route_last.val()))
            | (self.enum_on.val() & (self.cnt.q.val() == self.c_2k.val()))
            | (self.xdim_on.val() & (self.cnt.q.val() == self.c_m.val()));
        self.last.next = self.is_last.val();
        self.clear.next = self.reset.val() | self.is_last.val();
        self.load.next = self.start.val() & !self.busy.q.val() & !self.reset.val();
        // The `sel` shift register (routing phases).
        if self.c_start.val() {
            if self.ph_rdv.q.val() {
                for d in (self._k - 1)..self._k {
                    self.sel_r[d].d.next = true;
                }
            } else {
                self.sel_r[0].d.next = true;
            }
        }
        if self.c_addr.val() {
            if self.ph_rdv.q.val() {
                for d in 1..self._k {
                    self.sel_r[d - 1].d.next = self.sel_r[d].q.val();
                }
            } else if self.ph_pack0.q.val() & (self.cnt.q.val() == self.c_k.val()) {
                for d in (self._k - 1)..self._k {
                    self.sel_r[d].d.next = true;
                }
            } else {
                for d in 1..self._k {
                    self.sel_r[d].d.next = self.sel_r[d - 1].q.val();
                }
            }
        }
        if self.c_body.val() & self.ph_pack0.q.val() {
            for d in 1..self._k {
                self.sel_r[d - 1].d.next = self.sel_r[d].q.val();
            }
        }
        for d in 0..self._k {
            self.sel[d].next = self.sel_r[d].q.val();
            self.low[d].next = self.low_r[d].q.val();
        }
        if self.xdim_on.val() {
            for d in 1..self._k {
                self.sel[d - 1].next = self.low_r[d - 1].q.val() & !self.low_r[d].q.val();
            }
            for d in (self._k - 1)..self._k {
                self.sel[d].next = self.low_r[d].q.val();
            }
        }
        // Sequencing.
        self.done.next = self.done_r.q.val();
        self.bit_time.next = self.bt.q.val();
        if self.busy.q.val() {
            self.bt.d.next = self.bt.q.val() + self.one16.val();
            self.cnt.d.next = self.cnt.q.val() + self.one8.val();
            if self.is_last.val() {
                self.cnt.d.next = self.zero8.val();
                self.ph_semi.d.next = false;
                self.ph_cross.d.next = false;
                self.ph_enum2.d.next = self.ph_cross.q.val();
                self.ph_pack2.d.next = self.ph_enum2.q.val();
                self.ph_enum0.d.next = self.ph_pack2.q.val();
                self.ph_pack0.d.next = self.ph_enum0.q.val();
                self.ph_rdv.d.next = self.ph_pack0.q.val();
                if self.ph_semi.q.val() {
                    self.busy.d.next = false;
                    self.done_r.d.next = true;
                }
                if self.ph_rdv.q.val() {
                    for d in (self._k - 1)..self._k {
                        if self.low_r[d].q.val() {
                            self.busy.d.next = false;
                            self.done_r.d.next = true;
                        } else {
                            self.ph_cross.d.next = true;
                        }
                    }
                    for d in 1..self._k {
                        self.low_r[d].d.next = self.low_r[d - 1].q.val();
                    }
                }
            }
        }
        if self.load.val() {
            self.busy.d.next = true;
            self.done_r.d.next = false;
            self.bt.d.next = self.zero16.val();
            self.cnt.d.next = self.zero8.val();
            self.ph_semi.d.next = !self.algorithm.val();
            self.ph_cross.d.next = self.algorithm.val();
            for d in 0..self._k {
                self.low_r[d].d.next = false;
            }
            self.low_r[0].d.next = true;
        }
        if self.reset.val() {
            self.busy.d.next = false;
            self.done_r.d.next = false;
            self.bt.d.next = self.zero16.val();
            self.cnt.d.next = self.zero8.val();
            self.ph_semi.d.next = false;
            self.ph_cross.d.next = false;
            self.ph_enum2.d.next = false;
            self.ph_pack2.d.next = false;
            self.ph_enum0.d.next = false;
            self.ph_pack0.d.next = false;
            self.ph_rdv.d.next = false;
        }
    }
}
