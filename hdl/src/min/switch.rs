//! The bit-serial 2x2 self-routing switch of the MINs (docs/min.md §3).
//!
//! While its stage's decision strobe `dec` is high, the bits at the inputs are the
//! frame's tag bits for this stage: the upper input's tag sets the switch
//! (`cross ← in0`), a conflict is flagged when both inputs ask for the same output
//! (`conflict ← in0 == in1`, the lower message is then deflected), and both outputs
//! send 0 (the tag is consumed). Otherwise the outputs pass the inputs, crossed or
//! not. Every output is a register: the switch's latency is one bit-time.

use rust_hdl::prelude::*;

/// A 2x2 bit-serial self-routing switch.
#[derive(Clone, Debug, Default, LogicBlock)]
pub struct MinSwitch {
    /// The bit clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: outputs, setting and flag to 0.
    pub reset: Signal<In, Bit>,
    /// Upper input (port 0).
    pub in0: Signal<In, Bit>,
    /// Lower input (port 1).
    pub in1: Signal<In, Bit>,
    /// Decision strobe: the inputs carry this stage's tag bits.
    pub dec: Signal<In, Bit>,
    /// Upper output (port 0).
    pub out0: Signal<Out, Bit>,
    /// Lower output (port 1).
    pub out1: Signal<Out, Bit>,
    /// The switch is crossed (in0 → out1, in1 → out0).
    pub crossed: Signal<Out, Bit>,
    /// The frame decided last had both inputs asking for one output.
    pub conflict: Signal<Out, Bit>,
    o0: DFF<Bit>,
    o1: DFF<Bit>,
    x: DFF<Bit>,
    c: DFF<Bit>,
}

impl Logic for MinSwitch {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, o0, o1, x, c);
        self.out0.next = self.o0.q.val();
        self.out1.next = self.o1.q.val();
        self.crossed.next = self.x.q.val();
        self.conflict.next = self.c.q.val();
        if self.x.q.val() {
            self.o0.d.next = self.in1.val();
            self.o1.d.next = self.in0.val();
        } else {
            self.o0.d.next = self.in0.val();
            self.o1.d.next = self.in1.val();
        }
        if self.dec.val() {
            self.x.d.next = self.in0.val();
            self.c.d.next = self.in0.val() == self.in1.val();
            self.o0.d.next = false;
            self.o1.d.next = false;
        }
        if self.reset.val() {
            self.x.d.next = false;
            self.c.d.next = false;
            self.o0.d.next = false;
            self.o1.d.next = false;
        }
    }
}
