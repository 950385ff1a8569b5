//! The bit-serial 2x2 self-routing switch of the MINs (docs/min.md §3), one module for
//! every switch of every network: `min_switch_2x2`.
//!
//! Its widths are fixed, so it is written in rust-hdl and translated into the project's
//! word-level RTL by [`crate::rusthdl::translate`] (`docs/decisions/word-level-rtl.md`).
//! Ports 0 (upper) and 1 (lower) are the bits of two-bit vectors: `din[p]`, `dout[p]`.
//! While its stage's decision strobe `dec` is high the bits at `din` are the frame's tag
//! bits for this stage: the upper input's tag sets the switch (`crossed ← din[0]`), a
//! conflict is flagged when both inputs ask for the same output (`conflict ← din[0] ==
//! din[1]`; the lower message is then deflected to the other output), and both outputs
//! send 0 (the tag is consumed). Otherwise the outputs pass the inputs, crossed or not.
//! Every output is a register: the switch's latency is one bit-time.

use crate::netlist::Module;
use crate::rusthdl::{translate, TranslateError};
use rust_hdl_core::prelude::*;
use rust_hdl_widgets::prelude::*;

/// The module name of the switch (it has no parameter).
pub const SWITCH_MODULE: &str = "min_switch_2x2";

/// The 2x2 switch: `clock, reset, dec, din[2]` → `dout[2], crossed, conflict`.
#[derive(LogicBlock)]
pub struct MinSwitch {
    /// One edge per bit-time.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: outputs, setting and flag to 0.
    pub reset: Signal<In, Bit>,
    /// Decision strobe: `din` carries this stage's tag bits.
    pub dec: Signal<In, Bit>,
    /// Input bits: port 0 (upper) is bit 0.
    pub din: Signal<In, Bits<2>>,
    /// Output bits.
    pub dout: Signal<Out, Bits<2>>,
    /// The switch is crossed (`din[0]` → `dout[1]`, `din[1]` → `dout[0]`).
    pub crossed: Signal<Out, Bit>,
    /// The frame decided last had both inputs asking for one output.
    pub conflict: Signal<Out, Bit>,
    out_q: DFF<Bits<2>>,
    crossed_q: DFF<Bit>,
    conflict_q: DFF<Bit>,
    zero: Constant<Bits<2>>,
}

impl Default for MinSwitch {
    fn default() -> Self {
        MinSwitch {
            clock: Default::default(),
            reset: Default::default(),
            dec: Default::default(),
            din: Default::default(),
            dout: Default::default(),
            crossed: Default::default(),
            conflict: Default::default(),
            out_q: Default::default(),
            crossed_q: Default::default(),
            conflict_q: Default::default(),
            zero: Constant::new(0.into()),
        }
    }
}

impl Logic for MinSwitch {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, out_q, crossed_q, conflict_q);
        self.dout.next = self.out_q.q.val();
        self.crossed.next = self.crossed_q.q.val();
        self.conflict.next = self.conflict_q.q.val();
        // Data through the setting; crossed swaps the two bits.
        if self.crossed_q.q.val() {
            self.out_q.d.next = (self.din.val() >> 1) | (self.din.val() << 1);
        } else {
            self.out_q.d.next = self.din.val();
        }
        // Tag bit-time: the upper input's tag sets the switch; the tag is consumed.
        if self.dec.val() {
            self.crossed_q.d.next = self.din.val().get_bit(0);
            self.conflict_q.d.next = self.din.val().get_bit(0) == self.din.val().get_bit(1);
            self.out_q.d.next = self.zero.val();
        }
        if self.reset.val() {
            self.out_q.d.next = self.zero.val();
            self.crossed_q.d.next = false;
            self.conflict_q.d.next = false;
        }
    }
}

/// The switch as a word-level module.
pub fn switch() -> Result<Module, TranslateError> {
    translate(SWITCH_MODULE, &mut MinSwitch::default())
}
