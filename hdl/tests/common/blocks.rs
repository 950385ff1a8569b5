//! A small rust-hdl block written to lint clean under `verilator -Wall` (see
//! docs/netlist.md, "Writing rust-hdl blocks that lint clean").

use rust_hdl::prelude::*;

/// `d` request lines in, `d` grants out (a request is granted on every other clock), and a
/// 4-bit count of the clocks on which request 0 was high.
#[derive(LogicBlock)]
pub struct Cell {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Request lines.
    pub req: Vec<Signal<In, Bit>>,
    /// Grant lines.
    pub grant: Vec<Signal<Out, Bit>>,
    /// Count of clocks with request 0 high.
    pub count: Signal<Out, Bits<4>>,
    state: DFF<Bits<4>>,
    phase: DFF<Bit>,
    one: Constant<Bits<4>>,
    _d: usize,
}

impl Cell {
    /// A cell with `d` request/grant pairs.
    pub fn new(d: usize) -> Self {
        Self {
            clock: Default::default(),
            req: (0..d).map(|_| Default::default()).collect(),
            grant: (0..d).map(|_| Default::default()).collect(),
            count: Default::default(),
            state: Default::default(),
            phase: Default::default(),
            one: Constant::new(1.into()),
            _d: d,
        }
    }
}

impl Logic for Cell {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, phase);
        self.count.next = self.state.q.val();
        for i in 0..self._d {
            self.grant[i].next = self.req[i].val() & self.phase.q.val();
        }
        if self.req[0].val() {
            self.state.d.next = self.state.q.val() + self.one.val();
        }
        self.phase.d.next = !self.phase.q.val();
    }
}

/// A second block that also holds a `DFF<Bits<4>>`, to show child sharing across blocks.
#[derive(LogicBlock, Default)]
pub struct Delay {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Input word.
    pub d: Signal<In, Bits<4>>,
    /// The input word one clock later.
    pub q: Signal<Out, Bits<4>>,
    word: DFF<Bits<4>>,
}

impl Logic for Delay {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, word);
        self.word.d.next = self.d.val();
        self.q.next = self.word.q.val();
    }
}
