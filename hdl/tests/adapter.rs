//! The rust-hdl adapter: port extraction, renaming, child sharing, and every way an import
//! can be refused (collisions from `$` -> `_`, keywords, rust-hdl check failures and
//! panics, unsupported constructs).

mod common;

use common::blocks::Cell;
use lcanet_hdl::netlist::{Body, Design, Direction, IdentIssue, LeafLine, Port, PortStyle};
use lcanet_hdl::rusthdl::{add_block, import_block, import_verilog, ImportError};
use rust_hdl::prelude::*;

#[test]
fn extracts_ports_with_direction_width_and_style() {
    let tree = import_block("cell_d3", &mut Cell::new(3)).expect("imports");
    let names: Vec<&str> = tree.iter().map(|m| m.name.as_str()).collect();
    // The DFF children (`phase`, `state`) become flops written in the block itself.
    assert_eq!(names, ["cell_d3"]);
    let top = &tree[0];
    let expect = [
        Port::input("clock", 1),
        Port::input("req_0", 1),
        Port::input("req_1", 1),
        Port::input("req_2", 1),
        Port::output("grant_0", 1),
        Port::output("grant_1", 1),
        Port::output("grant_2", 1),
        Port::output("count", 4),
    ];
    assert_eq!(top.ports, expect);
    let Body::Leaf(leaf) = &top.body else {
        panic!("leaf expected")
    };
    let reg = PortStyle {
        reg: true,
        signed: false,
    };
    assert_eq!(leaf.port_styles[0], PortStyle::default());
    assert_eq!(leaf.port_styles[7], reg);
    let text: String = leaf
        .lines
        .iter()
        .map(|l| match l {
            LeafLine::Text(t) => t.clone(),
            LeafLine::Instance {
                indent,
                module,
                rest,
            } => format!("{indent}{module}{rest}"),
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!text.contains('$'), "no `$` may survive:\n{text}");
    assert!(text.contains("state_d__c = state_q + one;"));
    assert!(text.contains("state_d = state_d__c;"));
    for line in [
        "reg [3:0] state;",
        "initial state = 4'h0;",
        "always @(posedge state_clock) state <= state_d;",
        "assign state_q = state;",
    ] {
        assert!(text.contains(line), "`{line}` missing:\n{text}");
    }
    assert!(
        !text.contains("state("),
        "no DFF instance may remain:\n{text}"
    );
}

#[derive(LogicBlock, Default)]
struct Inv {
    pub a: Signal<In, Bit>,
    pub y: Signal<Out, Bit>,
}

impl Logic for Inv {
    #[hdl_gen]
    fn update(&mut self) {
        self.y.next = !self.a.val();
    }
}

#[derive(LogicBlock, Default)]
struct Twin {
    pub clock: Signal<In, Clock>,
    pub x: Signal<In, Bit>,
    pub y: Signal<Out, Bit>,
    invs: [Inv; 2],
    hold: DFF<Bit>,
}

impl Logic for Twin {
    #[hdl_gen]
    fn update(&mut self) {
        self.hold.clock.next = self.clock.val();
        self.invs[0].a.next = self.x.val();
        self.hold.d.next = self.invs[0].y.val();
        self.invs[1].a.next = self.hold.q.val();
        self.y.next = self.invs[1].y.val();
    }
}

#[test]
fn identical_children_of_one_block_are_defined_once() {
    let mut design = Design::new("twin");
    add_block(&mut design, "twin", &mut Twin::default()).expect("imports");
    let names: Vec<&str> = design.modules().iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        names,
        ["twin__invs__0", "twin"],
        "invs[1] shares invs[0]'s module (and the DFF is written in `twin`)"
    );
    let emitted = design.emit().expect("valid");
    let top = &emitted.modules[1].contents;
    assert!(top.contains("twin__invs__0 invs_0("), "{top}");
    assert!(top.contains("twin__invs__0 invs_1("), "{top}");
    assert!(
        top.contains("always @(posedge hold_clock) hold <= hold_d;"),
        "{top}"
    );
}

#[derive(LogicBlock)]
struct Clash {
    pub a: Vec<Signal<In, Bit>>,
    pub a_0: Signal<In, Bit>,
    pub y: Signal<Out, Bit>,
}

impl Logic for Clash {
    #[hdl_gen]
    fn update(&mut self) {
        self.y.next = self.a[0].val() ^ self.a_0.val();
    }
}

#[test]
fn dollar_collisions_are_reported() {
    let mut block = Clash {
        a: vec![Signal::default()],
        a_0: Signal::default(),
        y: Signal::default(),
    };
    match import_block("clash", &mut block) {
        Err(ImportError::Collision {
            module,
            first,
            second,
            sanitized,
            ..
        }) => {
            assert_eq!(module, "clash");
            assert_eq!(sanitized, "a_0");
            let mut pair = [first, second];
            pair.sort();
            assert_eq!(pair, ["a$0".to_owned(), "a_0".to_owned()]);
        }
        other => panic!("expected a collision, got {other:?}"),
    }
}

#[derive(LogicBlock, Default)]
struct Keyword {
    pub end: Signal<In, Bit>,
    pub y: Signal<Out, Bit>,
}

impl Logic for Keyword {
    #[hdl_gen]
    fn update(&mut self) {
        self.y.next = self.end.val();
    }
}

#[test]
fn keyword_names_are_reported() {
    match import_block("kw", &mut Keyword::default()) {
        Err(ImportError::IllegalIdentifier {
            kind, name, issue, ..
        }) => {
            assert_eq!((kind, name.as_str()), ("port", "end"));
            assert_eq!(issue, IdentIssue::Keyword("Verilog-2005"));
        }
        other => panic!("expected an illegal identifier, got {other:?}"),
    }
    let err = import_block("cell", &mut Cell::new(1)).expect_err("`cell` is a keyword");
    assert!(err.to_string().contains("`cell`"), "{err}");
}

#[derive(LogicBlock, Default)]
struct Unfed {
    pub clock: Signal<In, Clock>,
    pub y: Signal<Out, Bit>,
    r: DFF<Bit>,
}

impl Logic for Unfed {
    #[hdl_gen]
    fn update(&mut self) {
        self.r.clock.next = self.clock.val();
        self.y.next = self.r.q.val();
    }
}

#[test]
fn rust_hdl_check_failures_are_reported() {
    match import_block("unfed", &mut Unfed::default()) {
        Err(ImportError::Check { block, detail }) => {
            assert_eq!(block, "unfed");
            assert!(detail.contains("OpenSignal"), "{detail}");
        }
        other => panic!("expected a check failure, got {other:?}"),
    }
}

#[derive(LogicBlock)]
struct BadIndex {
    pub x: Vec<Signal<In, Bit>>,
    pub y: Signal<Out, Bit>,
    _k: usize,
}

impl Logic for BadIndex {
    #[hdl_gen]
    fn update(&mut self) {
        self.y.next = self.x[self._k].val();
    }
}

#[test]
fn rust_hdl_panics_are_caught() {
    let mut block = BadIndex {
        x: vec![Signal::default(), Signal::default()],
        y: Signal::default(),
        _k: 1,
    };
    match import_block("bad_index", &mut block) {
        Err(ImportError::Panicked { block, message }) => {
            assert_eq!(block, "bad_index");
            assert!(!message.is_empty());
        }
        other => panic!("expected a caught panic, got {other:?}"),
    }
}

#[test]
fn foreign_text_is_refused_with_a_reason() {
    let blackbox =
        "module top(a);\n    input wire a;\nendmodule // top\nmodule my_core(a);\nendmodule\n";
    assert!(matches!(
        import_verilog("bb", blackbox),
        Err(ImportError::Parse { line: 4, .. })
    ));
    let inout = "module top(p);\n    inout wire p;\nendmodule // top\n";
    let err = import_verilog("io", inout).expect_err("inout");
    assert!(matches!(err, ImportError::Unsupported { .. }), "{err}");
    assert!(err.to_string().contains("inout port `p`"), "{err}");
    let undeclared = "module top(p);\nendmodule // top\n";
    let err = import_verilog("u", undeclared).expect_err("undeclared port");
    assert!(err.to_string().contains("port `p`"), "{err}");
    let reg_keyword = "module top(a);\n    input wire a;\n    reg  begin;\nendmodule // top\n";
    assert!(matches!(
        import_verilog("k", reg_keyword),
        Err(ImportError::IllegalIdentifier { kind: "signal", .. })
    ));
    let ok = import_verilog("fine", "module top(a,y);\n    input wire a;\n    output reg y;\n    always @(*) y = a;\nendmodule // top\n")
        .expect("plain module imports");
    assert_eq!(ok[0].ports[1].direction, Direction::Output);
}
