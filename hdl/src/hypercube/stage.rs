//! One stage of a node's routing pipeline (`docs/hypercube.md` §3.2): the switch for
//! dimension `d`.
//!
//! The same block serves every dimension of every node (one Verilog module). The node
//! wires it to its pipeline registers `P_d` (`p_lo`) and `P_{d+1}` (`p_hi`) and to the
//! dimension-`d` link; in an ascending phase the stage reads `P_d`, in a descending one
//! `P_{d+1}`.
//!
//! State (`s1 s0`): 00 IDLE, 01 HEAD (start bit seen), 10 PASS-STAY, 11 PASS-CROSS. In
//! HEAD the input bit is the stage's address bit: the stage consumes it, emits the start
//! bit in its place on the chosen side, and streams the rest of the frame after it.
//! Outside routing phases the input is 0 and the outputs are 0.

use rust_hdl::prelude::*;

/// The switch of one dimension.
#[derive(LogicBlock, Default)]
pub struct Stage {
    /// Bit-time clock.
    pub clock: Signal<In, Clock>,
    /// End of phase (or reset): back to IDLE.
    pub clear: Signal<In, Bit>,
    /// An ascending routing phase is running (input `P_d`).
    pub fwd: Signal<In, Bit>,
    /// A descending routing phase is running (input `P_{d+1}`).
    pub bwd: Signal<In, Bit>,
    /// Pipeline register `P_d`.
    pub p_lo: Signal<In, Bit>,
    /// Pipeline register `P_{d+1}`.
    pub p_hi: Signal<In, Bit>,
    /// Stay output (to this node's next pipeline register).
    pub stay: Signal<Out, Bit>,
    /// Cross output (to the neighbour across dimension `d`).
    pub cross_out: Signal<Out, Bit>,
    inp: Signal<Local, Bit>,
    /// State bit 1: PASS (the direction is `s0`).
    s1: DFF<Bit>,
    /// State bit 0: HEAD when `s1 = 0`; the direction (1 = cross) when `s1 = 1`.
    s0: DFF<Bit>,
}

impl Logic for Stage {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s1, s0);
        self.inp.next = (self.fwd.val() & self.p_lo.val()) | (self.bwd.val() & self.p_hi.val());
        self.stay.next = false;
        self.cross_out.next = false;
        if self.s1.q.val() {
            // PASS-STAY or PASS-CROSS: stream the frame on.
            self.stay.next = self.inp.val() & !self.s0.q.val();
            self.cross_out.next = self.inp.val() & self.s0.q.val();
        } else if self.s0.q.val() {
            // HEAD: consume the address bit, emit the start bit on the chosen side.
            self.stay.next = !self.inp.val();
            self.cross_out.next = self.inp.val();
            self.s1.d.next = true;
            self.s0.d.next = self.inp.val();
        } else if self.inp.val() {
            // IDLE and a start bit.
            self.s0.d.next = true;
        }
        if self.clear.val() {
            self.s1.d.next = false;
            self.s0.d.next = false;
        }
    }
}
