//! Evidence for the rules in docs/netlist.md, "Writing rust-hdl blocks that lint clean":
//! each "bad" block shows a pattern that makes `verilator -Wall` warn (and which warning),
//! and the "good" block shows the replacements linting clean.

mod common;

use common::tools::{scratch_dir, verilator_lint};
use lcanet_hdl::netlist::Design;
use lcanet_hdl::rusthdl::add_block;
use rust_hdl::prelude::*;

/// Emits `block` alone (as the top) and lints it.
fn lint<B: Block>(name: &str, block: &mut B) -> Result<(), String> {
    let mut design = Design::new(name);
    add_block(&mut design, name, block).map_err(|e| e.to_string())?;
    let emitted = design.emit().map_err(|e| e.to_string())?;
    let dir = scratch_dir(&format!("lint_rules_{name}"));
    emitted.write_to(&dir).map_err(|e| e.to_string())?;
    verilator_lint(&dir, &emitted)
}

fn assert_warns<B: Block>(name: &str, block: &mut B, warning: &str) {
    let err = lint(name, block).expect_err("the bad pattern should make Verilator warn");
    assert!(
        err.contains(warning),
        "{name}: expected {warning}, got:\n{err}"
    );
}

#[derive(LogicBlock, Default)]
struct IntLiteral {
    pub a: Signal<In, Bits<4>>,
    pub z: Signal<Out, Bit>,
}

impl Logic for IntLiteral {
    #[hdl_gen]
    fn update(&mut self) {
        self.z.next = self.a.val() == 3;
    }
}

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum Phase {
    Idle,
    Busy,
}

#[derive(LogicBlock, Default)]
struct EnumState {
    pub clock: Signal<In, Clock>,
    pub go: Signal<In, Bit>,
    pub busy: Signal<Out, Bit>,
    st: DFF<Phase>,
}

impl Logic for EnumState {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, st);
        self.busy.next = self.st.q.val() == Phase::Busy;
        if self.go.val() {
            self.st.d.next = Phase::Busy;
        }
    }
}

#[derive(LogicBlock, Default)]
struct UnusedInput {
    pub a: Signal<In, Bit>,
    pub b: Signal<In, Bit>,
    pub z: Signal<Out, Bit>,
}

impl Logic for UnusedInput {
    #[hdl_gen]
    fn update(&mut self) {
        self.z.next = self.a.val();
    }
}

#[derive(LogicBlock, Default)]
struct ConditionalOutput {
    pub a: Signal<In, Bit>,
    pub z: Signal<Out, Bit>,
}

impl Logic for ConditionalOutput {
    #[hdl_gen]
    fn update(&mut self) {
        if self.a.val() {
            self.z.next = true;
        }
    }
}

#[derive(LogicBlock, Default)]
struct WideningCast {
    pub a: Signal<In, Bits<4>>,
    pub z: Signal<Out, Bits<8>>,
}

impl Logic for WideningCast {
    #[hdl_gen]
    fn update(&mut self) {
        self.z.next = bit_cast::<8, 4>(self.a.val());
    }
}

#[derive(LogicBlock, Default)]
struct ReplaceBit {
    pub a: Signal<In, Bits<4>>,
    pub b: Signal<In, Bit>,
    pub z: Signal<Out, Bits<4>>,
}

impl Logic for ReplaceBit {
    #[hdl_gen]
    fn update(&mut self) {
        self.z.next = self.a.val().replace_bit(0, self.b.val());
    }
}

#[test]
fn bad_patterns_make_verilator_warn() {
    assert_warns("int_literal", &mut IntLiteral::default(), "WIDTHEXPAND");
    assert_warns("enum_state", &mut EnumState::default(), "WIDTHTRUNC");
    assert_warns("unused_input", &mut UnusedInput::default(), "UNUSEDSIGNAL");
    // Verilator would warn LATCH; the adapter refuses the block first, since its glitch-free
    // rewrite relies on every target being assigned on every path (docs/decisions/comb-blocks.md).
    assert_warns(
        "conditional_output",
        &mut ConditionalOutput::default(),
        "`z` is not assigned on every path through the block (it would be a latch)",
    );
    assert_warns("widening_cast", &mut WideningCast::default(), "WIDTHEXPAND");
    assert_warns("replace_bit", &mut ReplaceBit::default(), "WIDTHEXPAND");
}

/// Every replacement at once: sized constants, a `Bits` state register with constant
/// codes, defaults before conditions, narrowing slices, shifts, reductions, `Vec` ports,
/// an array of DFFs and a local signal, with every input read.
#[derive(LogicBlock)]
struct Good {
    pub clock: Signal<In, Clock>,
    pub go: Signal<In, Bit>,
    pub word: Signal<In, Bits<8>>,
    pub lanes: Vec<Signal<In, Bit>>,
    pub out_lanes: Vec<Signal<Out, Bit>>,
    pub nibble: Signal<Out, Bits<4>>,
    pub busy: Signal<Out, Bit>,
    pub flag: Signal<Out, Bit>,
    st: DFF<Bits<2>>,
    pipe: [DFF<Bit>; 2],
    mix: Signal<Local, Bits<4>>,
    idle: Constant<Bits<2>>,
    running: Constant<Bits<2>>,
    three: Constant<Bits<4>>,
    _n: usize,
}

impl Good {
    fn new(n: usize) -> Self {
        Self {
            clock: Default::default(),
            go: Default::default(),
            word: Default::default(),
            lanes: (0..n).map(|_| Default::default()).collect(),
            out_lanes: (0..n).map(|_| Default::default()).collect(),
            nibble: Default::default(),
            busy: Default::default(),
            flag: Default::default(),
            st: Default::default(),
            pipe: Default::default(),
            mix: Default::default(),
            idle: Constant::new(0.into()),
            running: Constant::new(1.into()),
            three: Constant::new(3.into()),
            _n: n,
        }
    }
}

impl Logic for Good {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, st);
        self.pipe[0].clock.next = self.clock.val();
        self.pipe[1].clock.next = self.clock.val();
        // Defaults first: every output and every DFF input gets a value on every path.
        self.busy.next = self.st.q.val() == self.running.val();
        self.mix.next = self.word.val().get_bits::<4>(4) ^ self.word.val().get_bits::<4>(0);
        self.nibble.next = (self.mix.val() << 1) | (self.mix.val() >> 3);
        self.pipe[0].d.next = self.go.val();
        self.pipe[1].d.next = self.pipe[0].q.val();
        self.flag.next =
            self.pipe[1].q.val() & self.mix.val().any() & (self.mix.val() != self.three.val());
        for i in 0..self._n {
            self.out_lanes[i].next = self.lanes[i].val() ^ self.busy.val();
        }
        if self.go.val() {
            self.st.d.next = self.running.val();
        } else {
            self.st.d.next = self.idle.val();
        }
    }
}

#[test]
fn the_replacements_lint_clean() {
    lint("good", &mut Good::new(3)).unwrap_or_else(|e| panic!("{e}"));
}
