//! The OR of every node's collision flag: the cube's global `collision` output.

use rust_hdl::prelude::*;

/// `any = OR of inputs` (combinational).
#[derive(LogicBlock, Default)]
pub struct AnyOf {
    /// The flags.
    pub inputs: Vec<Signal<In, Bit>>,
    /// Their OR.
    pub any: Signal<Out, Bit>,
    _n: usize,
}

impl AnyOf {
    /// An OR of `n` flags.
    pub fn new(n: usize) -> Self {
        Self {
            inputs: (0..n).map(|_| Default::default()).collect(),
            _n: n,
            ..Default::default()
        }
    }
}

impl Logic for AnyOf {
    #[hdl_gen]
    fn update(&mut self) {
        self.any.next = false;
        for i in 0..self._n {
            if self.inputs[i].val() {
                self.any.next = true;
            }
        }
    }
}
