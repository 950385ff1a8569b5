//! One module definition per distinct block: many instances share one definition, and
//! identical child modules of rust-hdl blocks are shared across blocks (DFFs are not
//! modules at all: they are written inside their parents).

mod common;

use common::blocks::Cell;
use lcanet_hdl::netlist::{names, Design, Expr, ModuleBuilder, NetlistError};
use lcanet_hdl::rusthdl::{add_block, ImportError};
use rust_hdl::prelude::*;

/// A chain of `n` cells with one request line each.
pub fn chain(n: usize) -> Design {
    let mut design = Design::new("chain");
    design.param("instances", n);
    let cell = add_block(&mut design, "cell_d1", &mut Cell::new(1)).expect("imports");
    let cell = design.module(&cell).expect("added").clone();
    let mut m = ModuleBuilder::new("chain");
    m.input("clock", 1).input("req", 1).output("grant", 1);
    for i in 0..n {
        let inst = names::lvl_sw(0, i);
        let req = if i == 0 {
            Expr::sig("req")
        } else {
            Expr::sig(names::output_net(&names::lvl_sw(0, i - 1), "grant_0"))
        };
        m.instance_of(&inst, &cell)
            .pin("clock", "clock")
            .pin("req_0", req);
        m.allow_unread(names::output_net(&inst, "count"));
    }
    m.assign(
        "grant",
        names::output_net(&names::lvl_sw(0, n - 1), "grant_0"),
    );
    design.add_module(m.build()).expect("new");
    design
}

#[test]
fn hundred_instances_give_one_definition() {
    let emitted = chain(100).emit().expect("valid");
    let all: String = emitted
        .modules
        .iter()
        .map(|f| f.contents.as_str())
        .collect();
    assert_eq!(all.matches("\nmodule cell_d1 (").count(), 1);
    assert_eq!(
        all.matches("\nmodule ").count(),
        2,
        "chain + cell (its DFFs are flops inside it)"
    );
    assert_eq!(all.matches("    cell_d1 lvl0_sw").count(), 100);
    assert!(all.contains("    cell_d1 lvl0_sw99 ("));
}

#[derive(LogicBlock, Default)]
struct Inv4 {
    pub a: Signal<In, Bits<4>>,
    pub y: Signal<Out, Bits<4>>,
}

impl Logic for Inv4 {
    #[hdl_gen]
    fn update(&mut self) {
        self.y.next = !self.a.val();
    }
}

/// `y = !x`, through an `Inv4` child.
#[derive(LogicBlock, Default)]
struct Front {
    pub x: Signal<In, Bits<4>>,
    pub y: Signal<Out, Bits<4>>,
    inv: Inv4,
}

impl Logic for Front {
    #[hdl_gen]
    fn update(&mut self) {
        self.inv.a.next = self.x.val();
        self.y.next = self.inv.y.val();
    }
}

/// `y = !(x + 1)`, through an `Inv4` child of another name.
#[derive(LogicBlock, Default)]
struct Back {
    pub x: Signal<In, Bits<4>>,
    pub y: Signal<Out, Bits<4>>,
    neg: Inv4,
}

impl Logic for Back {
    #[hdl_gen]
    fn update(&mut self) {
        self.neg.a.next = self.x.val() + 1;
        self.y.next = self.neg.y.val();
    }
}

#[test]
fn identical_children_are_shared_across_blocks() {
    let mut design = Design::new("unused_top");
    let front = add_block(&mut design, "front", &mut Front::default()).expect("imports");
    let back = add_block(&mut design, "back", &mut Back::default()).expect("imports");
    let names: Vec<&str> = design.modules().iter().map(|m| m.name.as_str()).collect();
    // `back` reuses the inverter first defined for `front`.
    assert_eq!(names, ["front__inv", "front", "back"]);
    for leaf in [&front, &back] {
        let m = design.module(leaf).expect("present");
        assert_eq!(m.instantiated_modules(), ["front__inv"], "{leaf}");
    }
}

#[test]
fn importing_a_block_twice_is_idempotent_but_a_different_one_conflicts() {
    let mut design = Design::new("t");
    add_block(&mut design, "blk", &mut Cell::new(2)).expect("first import");
    let before = design.modules().len();
    add_block(&mut design, "blk", &mut Cell::new(2)).expect("same block again");
    assert_eq!(design.modules().len(), before);
    let err = add_block(&mut design, "blk", &mut Cell::new(3)).expect_err("different block");
    match err {
        ImportError::Netlist(NetlistError::ConflictingModule { name, reason }) => {
            assert_eq!(name, "blk");
            assert_eq!(reason, "different ports");
        }
        other => panic!("unexpected error {other}"),
    }
    assert_eq!(design.modules().len(), before, "nothing added on error");
}
