//! `replicate`: a block as rows of one module. The rows module validates, follows the
//! style rules and lints clean; its text is what the transformation promises (loop over
//! rows, registers read and loaded at row `j`, outputs as static slices, or, when some
//! output is logic, every output in a combinational loop). Behaviour (row
//! `j` = instance `j`, bit for bit) is co-simulated in `testbench/tests/lca_net_cosim.rs`.

mod common;

use common::tools::{scratch_dir, verilator_lint};
use lcanet_hdl::lca::{add_switch, Layout};
use lcanet_hdl::lca_net::fabric::OBSERVED;
use lcanet_hdl::netlist::{replicate, Design, ModuleBuilder};
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams, SwitchTopology};

const SHARED: [&str; 7] = [
    "level",
    "ctl_init",
    "ctl_mode",
    "ctl_last",
    "ctl_clear",
    "ctl_level",
    "seed16",
];

fn switch(policy: ArbiterPolicy) -> lcanet_hdl::netlist::Module {
    let params = SwitchParams {
        d: 2,
        u: 2,
        width: 1,
        levels: 3,
        topology: SwitchTopology::Cb,
        policy,
        setup: Default::default(),
        shapes: None,
    };
    let lay = Layout::new(params);
    let mut d = Design::new("x");
    add_switch(&mut d, &lay).expect("generates")
}

#[test]
fn the_switch_as_rows_validates_lints_and_reads_like_the_switch() {
    for policy in [ArbiterPolicy::RoundRobin, ArbiterPolicy::Random] {
        let sw = switch(policy);
        let rows = replicate(&sw, 5, &SHARED, &OBSERVED, "sw_rows").expect("replicates");
        let ports: Vec<(&str, usize)> = rows
            .ports
            .iter()
            .map(|p| (p.name.as_str(), p.width))
            .collect();
        assert!(
            ports.contains(&("a", 10)) && ports.contains(&("c", 10)),
            "{ports:?}"
        );
        assert!(ports.contains(&("ctl_mode", 3)) && ports.contains(&("level", 4)));
        let mut d = Design::new("sw_rows");
        d.add_module(rows).expect("new");
        let e = d.emit().expect("the rows module validates");
        let text = &e.modules[0].contents;
        assert!(
            text.contains("always @(posedge clock) begin : update"),
            "{text}"
        );
        assert!(
            text.contains("for (j = 0; j < 5; j = j + 1) begin"),
            "{text}"
        );
        assert!(text.contains("xp_ac[j*4 +: 4] <= "), "{text}");
        assert!(text.contains("assign c[9:8] = {tx_c["), "{text}");
        // The step counter and the windows move with the broadcast control only: one
        // copy, loaded before the loop; the crosspoints stay rows even where never set.
        let (before, inside) = text.split_once("for (j = 0;").expect("a loop");
        assert!(text.contains("reg [9:0] bt;"), "{text}");
        assert!(before.contains("bt <= bt + 10'd1;"), "{text}");
        assert!(before.contains("up_window <= "), "{text}");
        assert!(text.contains("reg [19:0] xp_bd;"), "{text}");
        // The arbiters' wires are computed in their windows only.
        let window = inside
            .split_once("end else if (up_window) begin")
            .expect("gated")
            .1;
        assert!(window.trim_start().starts_with("_up_free = "), "{text}");
        assert!(!inside
            .split_once("end else if (up_window)")
            .unwrap()
            .0
            .contains("up_pend = "));
        let issues = lcanet_hdl::style::check_files(
            e.modules
                .iter()
                .map(|f| (f.name.as_str(), f.contents.as_str())),
        );
        assert!(issues.is_empty(), "{issues:?}");
        let dir = scratch_dir(&format!("rows_{policy:?}"));
        e.write_to(&dir).expect("written");
        verilator_lint(&dir, &e).unwrap_or_else(|m| panic!("{m}"));
    }
}

#[test]
fn blocks_with_instances_are_refused() {
    let mut leaf = ModuleBuilder::new("leaf");
    let i = leaf.input("i", 1);
    let o = leaf.output("o", 1);
    leaf.assign(&o, &i);
    let leaf = leaf.build();
    let mut m = ModuleBuilder::new("parent");
    let a = m.input("a", 1);
    let y = m.output("y", 1);
    let _ = m.instance("u0", &leaf).pin("i", &a).pin("o", &y);
    let e = replicate(&m.build(), 3, &[], &[], "x").unwrap_err();
    assert!(e.to_string().contains("instance"), "{e}");
}

/// Outputs that are logic of the row's wires (and inputs) are computed in the rows
/// module's combinational process, one loop over the rows, the wires they read as its
/// temporaries `<wire>_o`; a bit-major output has bit `b` of row `j` at `b·count + j`.
/// Then every output is computed there, the registered ones too.
#[test]
fn logic_outputs_are_a_combinational_loop_over_the_rows() {
    let mut m = ModuleBuilder::new("logic_out");
    m.clock();
    let a = m.input("a", 2);
    let y = m.output("y", 2);
    let q = m.output("q", 2);
    let hot = m.output("hot", 2);
    let r = m.reg("r", 2);
    let x = m.def("x", &r ^ &a);
    m.assign(&y, &x);
    m.assign(&q, &r);
    m.assign(
        &hot,
        lcanet_hdl::netlist::cat([x.bit(1) & r.bit(0), x.bit(0)]),
    );
    m.always(|p| p.load(&r, &a));
    let rows = lcanet_hdl::netlist::replicate_with(&m.build(), 3, &[], &[], &["hot"], "x3")
        .expect("replicates");
    let mut d = Design::new("x3");
    d.add_module(rows).expect("new");
    let e = d.emit().expect("the rows module validates");
    let text = &e.modules[0].contents;
    for line in [
        "output reg [5:0] y,",
        "output reg [5:0] q,",
        "output reg [5:0] hot",
        "always @* begin : outputs",
        "reg [1:0] x_o;",
        "x_o = r[j*2 +: 2] ^ a[j*2 +: 2];",
        "y[j*2 +: 2] = x_o;",
        "q[j*2 +: 2] = r[j*2 +: 2];",
        "hot[j +: 1] = x_o[0];",
        "hot[j + 3 +: 1] = x_o[1] & r[j*2 +: 1];",
    ] {
        assert!(text.contains(line), "`{line}` missing:\n{text}");
    }
    // The clocked loop does not compute `x`, which only the outputs read.
    let clocked = text.split("always @* begin").next().unwrap();
    assert!(!clocked.contains("x ="), "{text}");
    let issues = lcanet_hdl::style::check_files([(e.modules[0].name.as_str(), text.as_str())]);
    assert!(issues.is_empty(), "{issues:?}");
    let dir = scratch_dir("rows_comb");
    e.write_to(&dir).expect("written");
    verilator_lint(&dir, &e).unwrap_or_else(|m| panic!("{m}"));
}
