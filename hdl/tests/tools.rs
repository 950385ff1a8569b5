//! The emitted files of rust-hdl-based designs pass `verilator --lint-only -Wall` (the
//! pinned Verilator in .tools/), compile with `iverilog -g2005 -Wall` and synthesize with
//! Yosys. A missing tool fails with a message to run scripts/setup.

mod common;

use common::blocks::{Cell, Delay};
use common::tools::{iverilog_compile, scratch_dir, verilator_lint, yosys_synth};
use lcanet_hdl::netlist::{Design, EmitOptions, Expr, ModuleBuilder};
use lcanet_hdl::rusthdl::add_block;

fn check_all_tools(name: &str, design: &Design) {
    let emitted = design.emit().expect("valid design");
    let dir = scratch_dir(name);
    emitted.write_to(&dir).expect("written");
    verilator_lint(&dir, &emitted).unwrap_or_else(|e| panic!("{e}"));
    iverilog_compile(&dir, &emitted).unwrap_or_else(|e| panic!("{e}"));
    yosys_synth(&dir, &emitted).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn demo_design_lints_compiles_and_synthesizes() {
    check_all_tools("tools_demo", &common::demo_design());
}

#[test]
fn shared_children_across_blocks_lint_compile_and_synthesize() {
    let mut design = Design::new("mixed");
    let cell = add_block(&mut design, "cell_d2", &mut Cell::new(2)).expect("imports");
    let delay = add_block(&mut design, "delay4", &mut Delay::default()).expect("imports");
    let delay = design.module(&delay).expect("added").clone();
    let mut m = ModuleBuilder::new("mixed");
    m.input("clock", 1)
        .input("req", 2)
        .output("q", 4)
        .output("grant", 2);
    m.instance(&cell, &cell)
        .pin("clock", "clock")
        .pin("req_0", Expr::bit("req", 0))
        .pin("req_1", Expr::bit("req", 1))
        .pin("grant_0", Expr::bit("grant", 0))
        .pin("grant_1", Expr::bit("grant", 1))
        .pin("count", "cnt");
    m.net("cnt", 4);
    m.instance_of("dly", &delay)
        .pin("clock", "clock")
        .pin("d", "cnt");
    m.assign("q", "dly_q");
    design.add_module(m.build()).expect("new");
    check_all_tools("tools_mixed", &design);
}

#[test]
fn bundle_holds_every_module_once() {
    let design = common::demo_design();
    let emitted = design
        .emit_with(EmitOptions { bundle: true })
        .expect("valid");
    let bundle = emitted.bundle.as_ref().expect("asked for");
    assert_eq!(bundle.name, "demo_top.bundle.v");
    assert_eq!(
        bundle.contents.matches("\nmodule ").count(),
        emitted.modules.len()
    );
    let dir = scratch_dir("tools_bundle");
    emitted.write_to(&dir).expect("written");
    let out = std::process::Command::new("iverilog")
        .args(["-g2005", "-Wall", "-o", "/dev/null", "demo_top.bundle.v"])
        .current_dir(&dir)
        .output()
        .expect("iverilog runs (else run scripts/setup)");
    assert!(out.status.success() && out.stderr.is_empty(), "{out:?}");
}

#[test]
fn the_tool_checks_can_fail() {
    use lcanet_hdl::netlist::{Body, Leaf, LeafLine, Module, Port, PortStyle};
    // Leaf text is trusted by validation, so a broken leaf reaches the tools.
    let leaf = |name: &str, body: &str| {
        let mut design = Design::new(name);
        design
            .add_module(Module {
                name: name.into(),
                ports: vec![Port::input("a", 2), Port::output("y", 1)],
                body: Body::Leaf(Leaf {
                    port_styles: vec![PortStyle::default(); 2],
                    lines: vec![LeafLine::Text(body.into())],
                }),
            })
            .expect("new");
        let emitted = design.emit().expect("valid netlist");
        let dir = scratch_dir(&format!("tools_fail_{name}"));
        emitted.write_to(&dir).expect("written");
        (dir, emitted)
    };
    let (dir, emitted) = leaf("unused_bit", "    assign y = a[0];");
    let err = verilator_lint(&dir, &emitted).expect_err("a[1] is unused");
    assert!(err.contains("UNUSEDSIGNAL"), "{err}");
    let (dir, emitted) = leaf("broken", "    assign y = a[0] +;");
    assert!(verilator_lint(&dir, &emitted).is_err());
    assert!(iverilog_compile(&dir, &emitted).is_err());
    assert!(yosys_synth(&dir, &emitted).is_err());
}
