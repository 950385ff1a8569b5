//! Helpers shared by the integration tests: a small lint-clean rust-hdl block, the golden
//! demo design built from it, and runners for Verilator, Icarus Verilog and Yosys.
#![allow(dead_code)]

pub mod blocks;
pub mod tools;

use lcanet_hdl::netlist::{Design, Expr, ModuleBuilder};
use lcanet_hdl::rusthdl::add_block;

/// The design whose emitted files are kept under `tests/golden/demo_top/`: two instances of
/// a rust-hdl cell with two request lines, chained, showing slices, concatenation,
/// constants, an explicitly open output and an `allow_unread` net.
pub fn demo_design() -> Design {
    let mut design = Design::new("demo_top");
    design.param("d", 2).param("levels", 2);
    let cell = add_block(&mut design, "cell_d2", &mut blocks::Cell::new(2)).expect("cell imports");
    let cell = design.module(&cell).expect("just added").clone();
    let mut m = ModuleBuilder::new("demo_top");
    m.input("clock", 1)
        .input("req", 2)
        .output("grant", 2)
        .output("counts", 8);
    m.instance_of("lvl0_sw0", &cell)
        .pin("clock", "clock")
        .pin("req_0", Expr::bit("req", 0))
        .pin("req_1", Expr::bit("req", 1));
    m.allow_unread("lvl0_sw0_count");
    m.instance("lvl1_sw0", &cell.name)
        .pin("clock", "clock")
        .pin("req_0", "lvl0_sw0_grant_0")
        .pin("req_1", Expr::constant(1, 1))
        .pin("grant_0", Expr::bit("grant", 0))
        .open("grant_1")
        .pin("count", Expr::slice("counts", 7, 4));
    m.assign(Expr::bit("grant", 1), "lvl0_sw0_grant_1");
    m.assign(
        Expr::slice("counts", 3, 0),
        Expr::concat([Expr::slice("lvl0_sw0_count", 3, 1), Expr::zeros(1)]),
    );
    design.add_module(m.build()).expect("top is new");
    design
}
