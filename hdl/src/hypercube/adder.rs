//! A bit-serial adder with a registered sum (`docs/hypercube.md` §4): the building block
//! of the pipelined enumeration.
//!
//! Operands arrive LSB first, one bit per bit time; the sum leaves one bit time later.
//! While `add` is 0 the adder passes `a` through (the carry stays 0): the enumeration's
//! ranks for dimensions `d <= i` and the offset of nodes in the low half. A node has `k`
//! offset adders (`o`) and `k - 1` count adders (`t`; the total `t_k` is not needed).

use rust_hdl::prelude::*;

/// The serial adder.
#[derive(LogicBlock, Default)]
pub struct SerialAdder {
    /// Bit-time clock.
    pub clock: Signal<In, Clock>,
    /// End of phase (or reset): sum and carry to 0.
    pub clear: Signal<In, Bit>,
    /// An enumeration is running (otherwise the sum register is held at 0).
    pub run: Signal<In, Bit>,
    /// Add `b` (otherwise pass `a` through).
    pub add: Signal<In, Bit>,
    /// First operand bit.
    pub a: Signal<In, Bit>,
    /// Second operand bit.
    pub b: Signal<In, Bit>,
    /// Registered sum bit.
    pub sum: Signal<Out, Bit>,
    bb: Signal<Local, Bit>,
    s: DFF<Bit>,
    carry: DFF<Bit>,
}

impl Logic for SerialAdder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s, carry);
        self.sum.next = self.s.q.val();
        self.bb.next = self.add.val() & self.b.val();
        self.s.d.next = false;
        if self.run.val() {
            self.s.d.next = self.a.val() ^ self.bb.val() ^ self.carry.q.val();
            self.carry.d.next = (self.a.val() & self.bb.val())
                | (self.a.val() & self.carry.q.val())
                | (self.bb.val() & self.carry.q.val());
        }
        if self.clear.val() {
            self.s.d.next = false;
            self.carry.d.next = false;
        }
    }
}
