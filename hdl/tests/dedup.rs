//! One module definition per distinct block: many instances share one definition, and
//! child modules (the DFFs inside rust-hdl blocks) are shared across blocks.

mod common;

use common::blocks::{Cell, Delay};
use lcanet_hdl::netlist::{names, Design, Expr, ModuleBuilder, NetlistError};
use lcanet_hdl::rusthdl::{add_block, ImportError};

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
    assert_eq!(all.matches("\nmodule cell_d1__state (").count(), 1);
    assert_eq!(all.matches("\nmodule cell_d1__phase (").count(), 1);
    assert_eq!(
        all.matches("\nmodule ").count(),
        4,
        "chain + cell + two DFFs"
    );
    assert_eq!(all.matches("    cell_d1 lvl0_sw").count(), 100);
    assert!(all.contains("    cell_d1 lvl0_sw99 ("));
}

#[test]
fn identical_children_are_shared_across_blocks() {
    let mut design = Design::new("unused_top");
    let cell = add_block(&mut design, "cell_d3", &mut Cell::new(3)).expect("imports");
    let cell2 = add_block(&mut design, "cell_d2", &mut Cell::new(2)).expect("imports");
    let delay = add_block(&mut design, "delay4", &mut Delay::default()).expect("imports");
    let names: Vec<&str> = design.modules().iter().map(|m| m.name.as_str()).collect();
    // cell_d2 and delay4 reuse the DFFs first defined for cell_d3.
    assert_eq!(
        names,
        [
            "cell_d3__phase",
            "cell_d3__state",
            "cell_d3",
            "cell_d2",
            "delay4"
        ]
    );
    for (leaf, child) in [
        (&cell, "cell_d3__state"),
        (&cell2, "cell_d3__state"),
        (&delay, "cell_d3__state"),
    ] {
        let m = design.module(leaf).expect("present");
        assert!(
            m.instantiated_modules().contains(&child),
            "{leaf} should use {child}"
        );
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
