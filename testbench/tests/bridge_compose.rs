//! Composed models (`bridge::compose`: one Verilated model per block instance, wired by
//! generated glue) keep the semantics of one Verilog simulation: a chain of registers shifts
//! one stage per clock (every register samples before any changes), a chain of
//! combinational blocks settles within one evaluation, assigns, slices, concatenations and
//! constants wire as written, and internal signals are found by hierarchical name. Expected
//! values come from the circuit's definition, computed here in Rust.

use lcanet_hdl::netlist::{
    Body, Design as Netlist, Expr, Leaf, LeafLine, Module, ModuleBuilder, Port, PortStyle,
};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::bridge::compose::build_composed;
use lcanet_testbench::bridge::{Design, Model, ModelLibrary, ModelOptions};

fn leaf(name: &str, ports: Vec<Port>, regs: &[bool], lines: &[&str]) -> Module {
    Module {
        name: name.into(),
        ports,
        body: Body::Leaf(Leaf {
            port_styles: regs
                .iter()
                .map(|&reg| PortStyle { reg, signed: false })
                .collect(),
            lines: lines
                .iter()
                .map(|l| LeafLine::Text(l.to_string()))
                .collect(),
        }),
    }
}

/// A 2-bit register, a 2-bit inverter (combinational) and the top wiring three registers
/// and three inverters in a chain: `q0 <- in`, `q1 <- ~~~q0` (through the inverters, with
/// the bits swapped by a concatenation), `q2 <- q1`.
fn netlist() -> Netlist {
    let reg = leaf(
        "reg2",
        vec![
            Port::input("clock", 1),
            Port::input("d", 2),
            Port::output("q", 2),
        ],
        &[false, false, true],
        &[
            "    initial q = 2'd0;",
            "    always @(posedge clock) q <= d;",
        ],
    );
    let inv = leaf(
        "inv2",
        vec![Port::input("a", 2), Port::output("y", 2)],
        &[false, false],
        &["    assign y = ~a;"],
    );
    let mut t = ModuleBuilder::new("chain");
    t.input("clock", 1)
        .input("din", 2)
        .output("dout", 2)
        .output("mid", 3);
    t.instance_of("r0", &reg)
        .pin("clock", "clock")
        .pin("d", "din");
    t.instance_of("i0", &inv).pin(
        "a",
        Expr::concat([Expr::bit("r0_q", 0), Expr::bit("r0_q", 1)]),
    );
    t.instance_of("i1", &inv).pin("a", "i0_y");
    t.instance_of("i2", &inv).pin("a", "i1_y");
    t.instance_of("r1", &reg)
        .pin("clock", "clock")
        .pin("d", "i2_y");
    t.instance_of("r2", &reg)
        .pin("clock", "clock")
        .pin("d", "r1_q");
    t.assign(Expr::sig("dout"), Expr::sig("r2_q"));
    t.assign(
        Expr::sig("mid"),
        Expr::concat([Expr::constant(1, 1), Expr::sig("r1_q")]),
    );
    let mut d = Netlist::new("chain");
    d.add_module(reg).unwrap();
    d.add_module(inv).unwrap();
    d.add_module(t.build()).unwrap();
    d
}

fn swap_invert(v: u64) -> u64 {
    (((v & 1) << 1) | (v >> 1)) ^ 3
}

#[test]
fn registers_shift_one_stage_per_clock_and_combinational_chains_settle() {
    let dir = artifact_dir!("compose_chain".to_string()).unwrap();
    let rtl = dir.file("rtl");
    let nl = netlist();
    let emitted = nl.emit().unwrap();
    emitted.write_to(&rtl).unwrap();
    let design = Design::from_file_list(&rtl.join(&emitted.file_list.name), "chain").unwrap();
    let options = ModelOptions {
        trace: false,
        ..ModelOptions::default()
    };
    let info = build_composed(&nl, &design, &options).unwrap();
    let lib = ModelLibrary::load(&info).unwrap();
    let mut m = Model::new(&lib, None).unwrap();
    let (clock, din) = (m.input("clock").unwrap(), m.input("din").unwrap());
    let (dout, mid) = (m.port("dout").unwrap(), m.port("mid").unwrap());
    let q1 = m.signal("chain.r1.q").unwrap();
    let i1 = m.signal("chain.i1_y").unwrap();

    // Reference: the three registers of the definition.
    let (mut r0, mut r1) = (0u64, 0u64);
    let inputs = [3u64, 1, 2, 0, 2, 3, 3, 1, 0, 0];
    m.eval();
    for (t, &x) in inputs.iter().enumerate() {
        m.set(din, x);
        m.tick(clock);
        // Every register samples the values before the edge.
        let r2 = r1;
        r1 = swap_invert(r0);
        r0 = x;
        assert_eq!(m.get(dout), r2, "dout after clock {t}");
        assert_eq!(m.get(mid), 4 | r1, "mid = {{1, r1.q}} after clock {t}");
        assert_eq!(m.read_signal(q1), r1, "r1.q after clock {t}");
        // i1 = ~i0 = ~~{r0[0], r0[1]}: the swapped r0, settled within this evaluation.
        let swapped = ((r0 & 1) << 1) | (r0 >> 1);
        assert_eq!(m.read_signal(i1), swapped, "i1_y after clock {t}");
    }
    assert!(m.signal("chain.nope.q").is_err());
    assert!(m.signal("chain.r1.nope").is_err());
    assert!(
        Model::new(&lib, Some(&dir.file("x.vcd"))).is_err(),
        "no VCD from a composed model"
    );
}
