//! Translation of small fixed-width rust-hdl blocks: the shape of what comes out, and a
//! clear refusal of what is not supported. (Behaviour against an independent reference is
//! checked by co-simulation in `testbench/tests/rusthdl_blocks.rs`.)

use super::translate;
use crate::netlist::{Design, Item, Stmt};
use rust_hdl_core::prelude::*;
use rust_hdl_widgets::prelude::*;

/// A 16-bit Galois LFSR with a seeded load, as the random arbiter uses
/// (`docs/routing.md` §2: `lsb = L & 1; L >>= 1; if lsb { L ^= 0xB400 }`; a zero seed
/// loads 1).
#[derive(LogicBlock)]
pub struct Lfsr16 {
    pub clock: Signal<In, Clock>,
    pub load: Signal<In, Bit>,
    pub seed: Signal<In, Bits<16>>,
    pub step: Signal<In, Bit>,
    pub state: Signal<Out, Bits<16>>,
    l: DFF<Bits<16>>,
    taps: Constant<Bits<16>>,
    zero: Constant<Bits<16>>,
    one: Constant<Bits<16>>,
}

impl Default for Lfsr16 {
    fn default() -> Self {
        Lfsr16 {
            clock: Default::default(),
            load: Default::default(),
            seed: Default::default(),
            step: Default::default(),
            state: Default::default(),
            l: Default::default(),
            taps: Constant::new(0xB400.into()),
            zero: Constant::new(0.into()),
            one: Constant::new(1.into()),
        }
    }
}

impl Logic for Lfsr16 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, l);
        self.state.next = self.l.q.val();
        if self.step.val() {
            self.l.d.next = self.l.q.val() >> 1;
            if self.l.q.val().get_bit(0) {
                self.l.d.next = (self.l.q.val() >> 1) ^ self.taps.val();
            }
        }
        if self.load.val() {
            self.l.d.next = self.seed.val();
            if self.seed.val() == self.zero.val() {
                self.l.d.next = self.one.val();
            }
        }
    }
}

/// A block with a local, an output assigned on both branches, and a match.
#[derive(LogicBlock, Default)]
pub struct Mixer {
    pub clock: Signal<In, Clock>,
    pub a: Signal<In, Bits<4>>,
    pub sel: Signal<In, Bits<2>>,
    pub y: Signal<Out, Bits<4>>,
    pub hi: Signal<Out, Bit>,
    t: Signal<Local, Bits<4>>,
    r: DFF<Bits<4>>,
}

impl Logic for Mixer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r);
        self.t.next = self.a.val() ^ self.r.q.val();
        if self.t.val().get_bit(3) {
            self.y.next = self.t.val();
        } else {
            self.y.next = self.r.q.val();
        }
        self.hi.next = self.t.val().get_bits::<2>(2).any();
        match self.sel.val().index() {
            0 => {
                self.r.d.next = self.a.val();
            }
            1 => {
                self.r.d.next = self.t.val();
            }
            _ => {}
        }
    }
}

fn text(m: crate::netlist::Module) -> String {
    let mut d = Design::new(m.name.clone());
    d.add_module(m).expect("new");
    let e = d.emit().expect("the translation validates");
    e.modules[0].contents.clone()
}

#[test]
fn the_lfsr_becomes_one_register_loaded_in_the_clocked_process() {
    let m = translate("lfsr16", &mut Lfsr16::default()).expect("translates");
    let regs: Vec<_> = m.body.regs().map(|r| (r.name.clone(), r.width)).collect();
    assert_eq!(regs, [("l".to_string(), 16)]);
    assert!(matches!(
        m.body.process.as_slice(),
        [Stmt::If { .. }, Stmt::If { .. }]
    ));
    let t = text(m);
    assert!(t.contains("always @(posedge clock) begin"), "{t}");
    assert!(t.contains("l <= (l >> 1) ^ 16'd46080;"), "{t}");
    assert!(t.contains("if (seed == 16'd0) l <= 16'd1;"), "{t}");
    assert!(t.contains("assign state = l;"), "{t}");
    assert!(!t.contains('$') && !t.contains("always @(*)"), "{t}");
    let issues = crate::style::check_files([("lfsr16.v", t.as_str())]);
    assert!(issues.is_empty(), "{issues:?}");
}

#[test]
fn locals_and_outputs_become_wires_merged_across_branches() {
    let t = text(translate("mixer", &mut Mixer::default()).expect("translates"));
    assert!(t.contains("wire [3:0] t = a ^ r;"), "{t}");
    assert!(t.contains("wire [3:0] y_1 = t[3] ? t : r;"), "{t}");
    assert!(t.contains("assign y = y_1;"), "{t}");
    assert!(t.contains("assign hi = |t[3:2];"), "{t}");
    let issues = crate::style::check_files([("mixer.v", t.as_str())]);
    assert!(issues.is_empty(), "{issues:?}");
    assert!(t.contains("if (sel == 2'd0) r <= a;"), "{t}");
    assert!(t.contains("else if (sel == 2'd1) r <= t;"), "{t}");
}

#[derive(LogicBlock, Default)]
pub struct Looped {
    pub clock: Signal<In, Clock>,
    pub a: Signal<In, Bits<4>>,
    pub y: Signal<Out, Bit>,
}

impl Logic for Looped {
    #[hdl_gen]
    fn update(&mut self) {
        self.y.next = false;
        for i in 0..4 {
            if self.a.val().get_bit(i) {
                self.y.next = true;
            }
        }
    }
}

#[derive(LogicBlock, Default)]
pub struct Latchy {
    pub clock: Signal<In, Clock>,
    pub a: Signal<In, Bit>,
    pub y: Signal<Out, Bit>,
}

impl Logic for Latchy {
    #[hdl_gen]
    fn update(&mut self) {
        if self.a.val() {
            self.y.next = true;
        }
    }
}

#[derive(LogicBlock, Default)]
pub struct Nested {
    pub clock: Signal<In, Clock>,
    pub a: Signal<In, Bit>,
    pub y: Signal<Out, Bit>,
    inner: Latchy,
}

impl Logic for Nested {
    #[hdl_gen]
    fn update(&mut self) {
        self.inner.clock.next = self.clock.val();
        self.inner.a.next = self.a.val();
        self.y.next = self.inner.y.val();
    }
}

#[test]
fn unsupported_blocks_are_refused_naming_the_reason() {
    let e = translate("looped", &mut Looped::default()).unwrap_err();
    assert!(e.to_string().contains("for loops are not supported"), "{e}");
    assert!(e.to_string().contains("`looped`"), "{e}");
    let e = translate("latchy", &mut Latchy::default()).unwrap_err();
    assert!(e.to_string().contains("it would latch"), "{e}");
    let e = translate("nested", &mut Nested::default()).unwrap_err();
    assert!(e.to_string().contains("is not a DFF"), "{e}");
}

#[test]
fn literals_read_like_rust_hdl_prints_them() {
    assert_eq!(super::literal_value("4'h3"), Some(3));
    assert_eq!(super::literal_value("1'b1"), Some(1));
    assert_eq!(super::literal_value("10'd1023"), Some(1023));
    assert_eq!(super::literal_value("b400"), Some(0xb400));
    assert_eq!(super::literal_value("x"), None);
}

#[test]
fn the_block_is_its_own_single_module() {
    let m = translate("mixer", &mut Mixer::default()).expect("translates");
    assert!(!m.body.items.iter().any(|i| matches!(i, Item::Instance(_))));
    assert_eq!(m.ports.first().map(|p| p.name.as_str()), Some("clock"));
}
