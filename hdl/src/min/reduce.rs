//! `AnyOf`: the OR of `k` one-bit inputs (a stage's conflict flags).

use rust_hdl::prelude::*;

/// `y = x[0] ∨ … ∨ x[k-1]`, combinational.
#[derive(Clone, Debug, LogicBlock)]
pub struct AnyOf {
    /// The inputs.
    pub x: Vec<Signal<In, Bit>>,
    /// Their OR.
    pub y: Signal<Out, Bit>,
    _k: usize,
}

impl AnyOf {
    /// An OR of `k ≥ 1` inputs.
    pub fn new(k: usize) -> Self {
        assert!(k >= 1);
        Self {
            x: (0..k).map(|_| Default::default()).collect(),
            y: Default::default(),
            _k: k,
        }
    }
}

impl Logic for AnyOf {
    #[hdl_gen]
    fn update(&mut self) {
        self.y.next = false;
        for i in 0..self._k {
            if self.x[i].val() {
                self.y.next = true;
            }
        }
    }
}
