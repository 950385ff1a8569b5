//! The emitted files of word-level designs pass `verilator --lint-only -Wall` (the pinned
//! Verilator in .tools/), compile with `iverilog -g2005 -Wall` and synthesize with Yosys.
//! A missing tool fails with a message to run scripts/setup.

mod common;

use common::tools::{iverilog_compile, scratch_dir, verilator_lint, yosys_synth};
use lcanet_hdl::netlist::Design;

fn check_all_tools(name: &str, design: &Design) {
    let emitted = design.emit().expect("valid design");
    let dir = scratch_dir(name);
    emitted.write_to(&dir).expect("written");
    verilator_lint(&dir, &emitted).unwrap_or_else(|e| panic!("{e}"));
    iverilog_compile(&dir, &emitted).unwrap_or_else(|e| panic!("{e}"));
    yosys_synth(&dir, &emitted).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn demo_design_is_clean_in_every_tool() {
    check_all_tools("demo", &common::demo_design());
}

#[test]
fn a_lone_cell_is_clean_in_every_tool() {
    let mut d = Design::new("cell_d3_h4");
    d.add_module(common::cell(3, 4)).expect("new");
    check_all_tools("cell", &d);
}

#[test]
fn demo_design_follows_the_rtl_style_rules() {
    let emitted = common::demo_design().emit().expect("valid");
    let issues = lcanet_hdl::style::check_files(
        emitted
            .modules
            .iter()
            .map(|f| (f.name.as_str(), f.contents.as_str())),
    );
    assert!(issues.is_empty(), "{issues:?}");
}
