//! Helpers shared by the integration tests: a small word-level block, the golden demo
//! design built from it, the golden-file comparison, and runners for Verilator, Icarus Verilog and Yosys.
#![allow(dead_code)]

pub mod golden;
pub mod tools;

use lcanet_hdl::netlist::{cat, lit, zero, Design, Module, ModuleBuilder, V};

/// A cell with `d` request lines: grants each request on every other clock (`phase`),
/// counts the clocks on which request 0 was high, keeps the last `depth` request words in
/// a row-organized history and reports the row selected by `pick`.
pub fn cell(d: usize, depth: usize) -> Module {
    let mut m = ModuleBuilder::new(format!("cell_d{d}_h{depth}"));
    let clock = m.clock();
    let _ = clock;
    let clear = m.input("clear", 1);
    let req = m.input("req", d);
    let pick = m.input("pick", lcanet_hdl::netlist::index_bits(depth));
    let grant = m.output("grant", d);
    let count = m.output("count", 4);
    let seen = m.output("seen", d);
    m.comment("State");
    let phase = m.reg("phase", 1);
    let cnt = m.reg("cnt", 4);
    let hist = m.reg("hist", depth * d);
    let mode = m.reg_init("mode", 2, 1);
    m.comment("Outputs");
    let full = m.def("full", cnt.is(15));
    m.assign(&grant, req.clone() & phase.repeat(d));
    m.assign(&count, &cnt);
    m.assign(&seen, hist.row_at(&pick, d));
    m.always(|p| {
        p.comment("Phase and request counter");
        p.load(&phase, !&phase);
        p.if_(&clear, |p| p.load(&cnt, zero(4)))
            .elif(req.bit(0) & !&full, |p| p.load(&cnt, cnt.plus(1)))
            .else_(|p| p.load(&cnt, &cnt));
        p.load(
            &hist,
            cat([hist.low((depth - 1) * d), req.clone()]).bits(depth * d - 1, 0),
        );
        p.case(&mode, |c| {
            c.arm(&[0], |p| p.load(&mode, lit(2, 1)));
            c.arm(&[1, 2], |p| p.load(&mode, mode.plus(1)));
            c.default(|p| p.load(&mode, zero(2)));
        });
    });
    m.build()
}

/// The design whose emitted files are kept under `tests/golden/demo_top/`: two cells
/// chained (the second's requests are the first's grants), showing slices,
/// concatenation, constants, an explicitly open output and an `allow_unread` wire.
pub fn demo_design() -> Design {
    let mut design = Design::new("demo_top");
    design.param("d", 2).param("levels", 2);
    let c = cell(2, 3);
    design.add_module(c.clone()).expect("new");
    let mut m = ModuleBuilder::new("demo_top");
    let clock = m.clock();
    let clear = m.input("clear", 1);
    let a = m.input("a", 2);
    let y = m.output("y", 3);
    let total = m.output("total", 8);
    let (u0, outs0) = m.instance_of("u0", &c);
    let _ = u0
        .pin("clock", &clock)
        .pin("clear", &clear)
        .pin("req", cat([a.bit(0), a.bit(1)]))
        .pin("pick", lit(2, 2));
    let [g0, count0, seen0] = <[V; 3]>::try_from(outs0).expect("three outputs");
    let g1 = m.wire("u1_grant", 2);
    let count1 = m.wire("u1_count", 4);
    m.allow_unread("u1_grant");
    m.instance("u1", &c)
        .pin("clock", &clock)
        .pin("clear", lit(1, 0))
        .pin("req", &g0)
        .pin("pick", seen0.bits(1, 0) ^ lit(2, 1))
        .pin("grant", &g1)
        .pin("count", &count1)
        .open("seen");
    m.assign(&y, cat([g1.bit(0), seen0.bit(1) | g0.bit(1), lit(1, 1)]));
    m.assign(&total, cat([count1, count0]));
    design.add_module(m.build()).expect("new");
    design
}
