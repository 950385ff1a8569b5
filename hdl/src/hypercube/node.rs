//! The node router of a k-cube (`docs/hypercube.md` §2–§5): `k` pipeline stages with
//! the pipeline registers `P_0..P_k`, the message buffers A and B, the register E, the
//! enumeration input `T_0`, the sender (frames: start bit, relative address, body), the
//! receiver, and the flags of Algorithm 2.
//!
//! One block (one Verilog module) serves every node of a cube: the node's address comes
//! in on `my_addr` (tied to constants by the cube), everything time-dependent comes from
//! the controller's strobes.

use super::adder::SerialAdder;
use super::control::Control;
use super::stage::Stage;
use rust_hdl::prelude::*;

/// The node router.
#[derive(LogicBlock, Default)]
pub struct Node {
    /// Bit-time clock.
    pub clock: Signal<In, Clock>,
    /// Controller strobes.
    pub ctl: Control,
    /// One-hot: the dimension whose bit is being sent (or `i` in step 1).
    pub sel: Vec<Signal<In, Bit>>,
    /// Thermometer: `low[d] = 1` iff `d <= i`.
    pub low: Vec<Signal<In, Bit>>,
    /// This node's address (constant).
    pub my_addr: Vec<Signal<In, Bit>>,
    /// The PE sends a message.
    pub send: Signal<In, Bit>,
    /// Its destination.
    pub dest: Vec<Signal<In, Bit>>,
    /// Its payload.
    pub payload: Vec<Signal<In, Bit>>,
    /// Incoming link wires, one per dimension.
    pub dim_in: Vec<Signal<In, Bit>>,
    /// Outgoing link wires, one per dimension.
    pub dim_out: Vec<Signal<Out, Bit>>,
    /// The delivery register.
    pub rx_bit: Signal<Out, Bit>,
    /// Done and a message is held.
    pub rx_valid: Signal<Out, Bit>,
    /// Its payload while `rx_valid`.
    pub rx_payload: Vec<Signal<Out, Bit>>,
    /// Sticky collision flag.
    pub collision: Signal<Out, Bit>,
    stage: Vec<Stage>,
    count: Vec<SerialAdder>,
    offset: Vec<SerialAdder>,
    p: Vec<DFF<Bit>>,
    a: Vec<DFF<Bit>>,
    b: Vec<DFF<Bit>>,
    e: Vec<DFF<Bit>>,
    t0: DFF<Bit>,
    va: DFF<Bit>,
    vb: DFF<Bit>,
    xing: DFF<Bit>,
    incoming: DFF<Bit>,
    hit: DFF<Bit>,
    coll: DFF<Bit>,
    count_wire: Vec<Signal<Local, Bit>>,
    cur_x: Signal<Local, Bit>,
    cur_low: Signal<Local, Bit>,
    cur_adest: Signal<Local, Bit>,
    cur_win: Signal<Local, Bit>,
    go: Signal<Local, Bit>,
    keep: Signal<Local, Bit>,
    sending: Signal<Local, Bit>,
    addr_bit: Signal<Local, Bit>,
    body_bit: Signal<Local, Bit>,
    tx: Signal<Local, Bit>,
    deliver: Signal<Local, Bit>,
    coll_now: Signal<Local, Bit>,
    a_shift: Signal<Local, Bit>,
    a_in: Signal<Local, Bit>,
    b_shift: Signal<Local, Bit>,
    b_in: Signal<Local, Bit>,
    e_shift: Signal<Local, Bit>,
    e_in: Signal<Local, Bit>,
    _k: usize,
    _l: usize,
    _m: usize,
}

fn sigs<D: Direction>(n: usize) -> Vec<Signal<D, Bit>> {
    (0..n).map(|_| Default::default()).collect()
}

fn dffs(n: usize) -> Vec<DFF<Bit>> {
    (0..n).map(|_| Default::default()).collect()
}

impl Node {
    /// A node of a `k`-cube with `payload_bits`-bit payloads (`k >= 1`, `payload_bits >= 1`).
    pub fn new(k: usize, payload_bits: usize) -> Self {
        let m = k + payload_bits;
        Self {
            sel: sigs(k),
            low: sigs(k),
            my_addr: sigs(k),
            dest: sigs(k),
            payload: sigs(payload_bits),
            dim_in: sigs(k),
            dim_out: sigs(k),
            rx_payload: sigs(payload_bits),
            stage: (0..k).map(|_| Stage::default()).collect(),
            count: (1..k).map(|_| SerialAdder::default()).collect(),
            offset: (0..k).map(|_| SerialAdder::default()).collect(),
            p: dffs(k + 1),
            a: dffs(m),
            b: dffs(m),
            e: dffs(k),
            count_wire: sigs(k),
            _k: k,
            _l: payload_bits,
            _m: m,
            ..Default::default()
        }
    }
}

impl Logic for Node {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, t0, va, vb, xing, incoming, hit, coll);
        for j in 0..(self._k + 1) {
            self.p[j].clock.next = self.clock.val();
            self.p[j].d.next = false;
        }
        for j in 0..self._m {
            self.a[j].clock.next = self.clock.val();
            self.a[j].d.next = self.a[j].q.val();
            self.b[j].clock.next = self.clock.val();
            self.b[j].d.next = self.b[j].q.val();
        }
        for j in 0..self._k {
            self.e[j].clock.next = self.clock.val();
            self.e[j].d.next = self.e[j].q.val();
        }
        // Bits selected by the controller's one-hot `sel`.
        self.cur_x.next = false;
        self.cur_low.next = false;
        self.cur_adest.next = false;
        self.cur_win.next = false;
        for d in 0..self._k {
            if self.sel[d].val() & self.my_addr[d].val() {
                self.cur_x.next = true;
            }
            if self.sel[d].val() & self.low[d].val() {
                self.cur_low.next = true;
            }
            if self.sel[d].val() & self.a[d].q.val() {
                self.cur_adest.next = true;
            }
            if self.sel[d].val() & self.dim_in[d].val() {
                self.cur_win.next = true;
            }
        }
        // Routing stages.
        for d in 0..self._k {
            self.stage[d].clock.next = self.clock.val();
            self.stage[d].clear.next = self.ctl.clear.val();
            self.stage[d].fwd.next = self.ctl.fwd.val();
            self.stage[d].bwd.next = self.ctl.bwd.val();
            self.stage[d].p_lo.next = self.p[d].q.val();
            self.stage[d].p_hi.next = self.p[d + 1].q.val();
        }
        // Enumeration ranks: rank d + 1 crosses dimension d. T_d goes out on the link.
        for d in 0..self._k {
            self.offset[d].clock.next = self.clock.val();
            self.offset[d].clear.next = self.ctl.clear.val();
            self.offset[d].run.next = self.ctl.enum_on.val();
            self.offset[d].add.next = !self.low[d].val() & self.my_addr[d].val();
            self.offset[d].b.next = self.dim_in[d].val();
        }
        self.offset[0].a.next = false;
        for d in 1..self._k {
            self.offset[d].a.next = self.offset[d - 1].sum.val();
            self.count[d - 1].clock.next = self.clock.val();
            self.count[d - 1].clear.next = self.ctl.clear.val();
            self.count[d - 1].run.next = self.ctl.enum_on.val();
            self.count[d - 1].add.next = !self.low[d - 1].val();
            self.count[d - 1].b.next = self.dim_in[d - 1].val();
        }
        self.count_wire[0].next = self.t0.q.val();
        for d in 1..self._k {
            self.count_wire[d].next = self.count[d - 1].sum.val();
        }
        for d in 1..self._k.min(2) {
            self.count[d - 1].a.next = self.t0.q.val();
        }
        for d in 2..self._k {
            self.count[d - 1].a.next = self.count[d - 2].sum.val();
        }
        // Step 1 decision.
        self.go.next = self.va.q.val() & (self.cur_adest.val() ^ self.cur_x.val());
        self.keep.next = self.va.q.val() & !self.xing.q.val();
        // Sender.
        self.sending.next = (self.ctl.k_semi.val() & self.va.q.val())
            | (self.ctl.k_pack2.val() & self.va.q.val() & self.vb.q.val())
            | (self.ctl.k_pack0.val() & !self.va.q.val())
            | (self.ctl.k_rdv.val() & self.vb.q.val());
        self.addr_bit.next = (self.ctl.k_semi.val() & (self.a[0].q.val() ^ self.cur_x.val()))
            | ((self.ctl.k_pack2.val() | self.ctl.k_pack0.val())
                & !self.cur_low.val()
                & (self.e[0].q.val() ^ self.cur_x.val()))
            | (self.ctl.k_rdv.val() & (self.e[0].q.val() ^ self.cur_x.val()));
        self.body_bit.next = (self.ctl.k_semi.val() & self.a[0].q.val())
            | (self.ctl.k_pack0.val() & self.cur_x.val())
            | ((self.ctl.k_pack2.val() | self.ctl.k_rdv.val()) & self.b[0].q.val());
        self.tx.next = self.sending.val()
            & (self.ctl.c_start.val()
                | (self.ctl.c_addr.val() & self.addr_bit.val())
                | (self.ctl.c_body.val() & self.body_bit.val()));
        // Pipeline registers: OR of the stay output and the wire; AND is a collision.
        self.p[0].d.next = (self.ctl.fwd.val() & self.tx.val())
            | (self.ctl.bwd.val() & (self.stage[0].stay.val() | self.dim_in[0].val()));
        self.coll_now.next = self.ctl.bwd.val() & self.stage[0].stay.val() & self.dim_in[0].val();
        // (A collision is any pipeline register whose two inputs are both 1.)
        for j in 1..self._k {
            self.p[j].d.next = (self.ctl.fwd.val()
                & (self.stage[j - 1].stay.val() | self.dim_in[j - 1].val()))
                | (self.ctl.bwd.val() & (self.stage[j].stay.val() | self.dim_in[j].val()));
            if (self.ctl.fwd.val() & self.stage[j - 1].stay.val() & self.dim_in[j - 1].val())
                | (self.ctl.bwd.val() & self.stage[j].stay.val() & self.dim_in[j].val())
            {
                self.coll_now.next = true;
            }
        }
        for j in self._k..(self._k + 1) {
            self.p[j].d.next = (self.ctl.fwd.val()
                & (self.stage[j - 1].stay.val() | self.dim_in[j - 1].val()))
                | (self.ctl.bwd.val() & self.tx.val());
            if self.ctl.fwd.val() & self.stage[j - 1].stay.val() & self.dim_in[j - 1].val() {
                self.coll_now.next = true;
            }
            self.deliver.next =
                (self.ctl.fwd.val() & self.p[j].q.val()) | (self.ctl.bwd.val() & self.p[0].q.val());
        }
        self.rx_bit.next = self.deliver.val();
        // Link wires.
        for d in 0..self._k {
            self.dim_out[d].next = self.stage[d].cross_out.val()
                | (self.ctl.enum_on.val() & self.count_wire[d].val())
                | (self.ctl.xdim_on.val()
                    & self.sel[d].val()
                    & ((self.ctl.x_decide.val() & self.go.val())
                        | (!self.ctl.x_decide.val() & self.xing.q.val() & self.a[0].q.val())));
        }
        // Buffer A.
        self.a_shift.next = (self.ctl.k_semi.val()
            & (self.ctl.c_addr.val() | self.ctl.c_window.val()))
            | (self.ctl.k_rdv.val() & self.ctl.c_rxbody.val() & self.hit.q.val())
            | (self.ctl.xdim_on.val()
                & !self.ctl.x_decide.val()
                & (self.xing.q.val() | (self.incoming.q.val() & !self.keep.val())));
        self.a_in.next = ((self.ctl.k_semi.val() | self.ctl.k_rdv.val()) & self.deliver.val())
            | (self.ctl.xdim_on.val()
                & self.incoming.q.val()
                & !self.keep.val()
                & self.cur_win.val());
        // Buffer B.
        self.b_shift.next = (self.ctl.k_pack2.val() & self.ctl.c_window.val())
            | (self.ctl.k_rdv.val() & self.ctl.c_body.val())
            | (self.ctl.xdim_on.val()
                & !self.ctl.x_decide.val()
                & self.incoming.q.val()
                & self.keep.val());
        self.b_in.next = (self.ctl.k_pack2.val() & self.deliver.val())
            | (self.ctl.xdim_on.val() & self.cur_win.val());
        if self.a_shift.val() {
            for j in 0..(self._m - 1) {
                self.a[j].d.next = self.a[j + 1].q.val();
            }
            for j in (self._m - 1)..self._m {
                self.a[j].d.next = self.a_in.val();
            }
        }
        if self.b_shift.val() {
            for j in 0..(self._m - 1) {
                self.b[j].d.next = self.b[j + 1].q.val();
            }
            for j in (self._m - 1)..self._m {
                self.b[j].d.next = self.b_in.val();
            }
        }
        if self.ctl.load.val() {
            for j in 0..self._k {
                self.a[j].d.next = self.dest[j].val();
            }
            for s in self._k..(self._k + 1) {
                for j in 0..self._l {
                    self.a[j + s].d.next = self.payload[j].val();
                }
            }
        }
        // Register E.
        self.e_shift.next = (self.ctl.enum_on.val() & self.ctl.e_capture.val())
            | ((self.ctl.k_pack2.val() | self.ctl.k_pack0.val())
                & self.ctl.c_addr.val()
                & !self.cur_low.val())
            | (self.ctl.k_pack0.val() & self.ctl.c_rxbody.val())
            | (self.ctl.k_rdv.val() & self.ctl.c_addr.val());
        self.e_in.next = self.ctl.k_pack0.val() & self.deliver.val();
        for j in (self._k - 1)..self._k {
            if self.ctl.enum_on.val() & self.offset[j].sum.val() {
                self.e_in.next = true;
            }
        }
        if self.e_shift.val() {
            for j in 0..(self._k - 1) {
                self.e[j].d.next = self.e[j + 1].q.val();
            }
            for j in (self._k - 1)..self._k {
                self.e[j].d.next = self.e_in.val();
            }
        }
        // Enumeration input.
        self.t0.d.next = self.ctl.enum_on.val()
            & self.ctl.e_inject.val()
            & ((self.ctl.k_enum2.val() & self.va.q.val() & self.vb.q.val())
                | (!self.ctl.k_enum2.val() & !self.va.q.val()));
        // Flags.
        if self.ctl.x_decide.val() {
            self.xing.d.next = self.go.val();
            self.incoming.d.next = self.cur_win.val();
        }
        if self.ctl.c_rxstart.val() {
            self.hit.d.next = self.deliver.val();
        }
        if self.ctl.last.val() {
            if self.ctl.k_semi.val() {
                self.va.d.next = self.hit.q.val();
            }
            if self.ctl.k_pack2.val() {
                self.vb.d.next = self.hit.q.val();
            }
            if self.ctl.k_rdv.val() {
                self.va.d.next = self.va.q.val() | self.hit.q.val();
                self.vb.d.next = false;
            }
            if self.ctl.xdim_on.val() {
                self.va.d.next = self.keep.val() | self.incoming.q.val();
                self.vb.d.next = self.keep.val() & self.incoming.q.val();
            }
        }
        self.coll.d.next = self.coll.q.val() | self.coll_now.val();
        if self.ctl.load.val() {
            self.va.d.next = self.send.val();
            self.vb.d.next = false;
            self.coll.d.next = false;
        }
        // Outputs.
        self.collision.next = self.coll.q.val();
        self.rx_valid.next = self.ctl.done.val() & self.va.q.val();
        for s in self._k..(self._k + 1) {
            for j in 0..self._l {
                self.rx_payload[j].next =
                    self.ctl.done.val() & self.va.q.val() & self.a[j + s].q.val();
            }
        }
    }
}
