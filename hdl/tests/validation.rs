//! Validation rejects each class of error with a message naming the culprit: a table of
//! cases, each a small valid design with one defect.

use lcanet_hdl::netlist::{
    Body, Design, Expr, Leaf, LeafLine, Module, ModuleBuilder, Port, PortStyle, ValidationError,
};

/// A hand-written leaf: `q` is `d` registered.
fn reg2() -> Module {
    Module {
        name: "reg2".into(),
        ports: vec![
            Port::input("clock", 1),
            Port::input("d", 2),
            Port::output("q", 2),
        ],
        body: Body::Leaf(Leaf {
            port_styles: vec![
                PortStyle::default(),
                PortStyle::default(),
                PortStyle {
                    reg: true,
                    signed: false,
                },
            ],
            lines: vec![LeafLine::Text("    always @(posedge clock) q <= d;".into())],
        }),
    }
}

/// The valid base: `a` registered into net `n`, driven out on `y`.
fn base(edit: impl FnOnce(&mut ModuleBuilder)) -> Design {
    let mut d = Design::new("top");
    d.add_module(reg2()).expect("new");
    let mut m = ModuleBuilder::new("top");
    m.input("clock", 1).input("a", 2).output("y", 2);
    m.net("n", 2);
    edit(&mut m);
    d.add_module(m.build()).expect("new");
    d
}

fn standard(m: &mut ModuleBuilder) {
    m.instance("u0", "reg2")
        .pin("clock", "clock")
        .pin("d", "a")
        .pin("q", "n");
    m.assign("y", "n");
}

type Case = (
    &'static str,
    Design,
    fn(&ValidationError) -> bool,
    &'static [&'static str],
);

fn cases() -> Vec<Case> {
    use ValidationError as E;
    let mut missing_top = base(standard);
    missing_top = {
        let mut d = Design::new("nowhere");
        for m in missing_top.modules() {
            d.add_module(m.clone()).expect("new");
        }
        d
    };
    let mut case_clash = base(standard);
    let mut other = reg2();
    other.name = "REG2".into();
    case_clash.add_module(other).expect("new name");
    let mut bad_param = base(standard);
    bad_param.param("note", "two\nlines");
    let mut recursive = Design::new("top");
    let mut a = ModuleBuilder::new("top");
    a.instance("inner", "sub");
    let mut b = ModuleBuilder::new("sub");
    b.instance("back", "top");
    recursive.add_module(a.build()).expect("new");
    recursive.add_module(b.build()).expect("new");
    vec![
        (
            "missing top",
            missing_top,
            |e| matches!(e, E::MissingTop { .. }),
            &["nowhere"],
        ),
        (
            "dollar in net",
            base(|m| {
                standard(m);
                m.net("a$b", 1);
                m.assign("a$b", Expr::bit("a", 0));
            }),
            |e| matches!(e, E::IllegalIdentifier { kind: "net", .. }),
            &["a$b", "`$`"],
        ),
        (
            "keyword instance",
            base(|m| {
                m.instance("cell", "reg2")
                    .pin("clock", "clock")
                    .pin("d", "a")
                    .pin("q", "n");
                m.assign("y", "n");
            }),
            |e| {
                matches!(
                    e,
                    E::IllegalIdentifier {
                        kind: "instance",
                        ..
                    }
                )
            },
            &["cell", "Verilog-2005 keyword"],
        ),
        (
            "net named like a port",
            base(|m| {
                standard(m);
                m.net("a", 2);
            }),
            |e| {
                matches!(
                    e,
                    E::DuplicateName {
                        first: "input port",
                        second: "net",
                        ..
                    }
                )
            },
            &["`a`"],
        ),
        (
            "module names differ in case",
            case_clash,
            |e| matches!(e, E::ModuleCaseClash { .. }),
            &["reg2", "REG2"],
        ),
        (
            "zero-width net",
            base(|m| {
                standard(m);
                m.net("empty", 0);
            }),
            |e| matches!(e, E::ZeroWidth { kind: "net", .. }),
            &["empty"],
        ),
        (
            "undefined module",
            base(|m| {
                standard(m);
                m.instance("u9", "nothing");
            }),
            |e| matches!(e, E::UndefinedModule { .. }),
            &["u9", "nothing"],
        ),
        (
            "recursive hierarchy",
            recursive,
            |e| matches!(e, E::RecursiveHierarchy { .. }),
            &["top -> sub -> top"],
        ),
        (
            "unknown port",
            base(|m| {
                m.instance("u0", "reg2")
                    .pin("clock", "clock")
                    .pin("d", "a")
                    .pin("q", "n")
                    .pin("rst", "clock");
                m.assign("y", "n");
            }),
            |e| matches!(e, E::UnknownPort { .. }),
            &["u0", "rst", "reg2"],
        ),
        (
            "port connected twice",
            base(|m| {
                m.instance("u0", "reg2")
                    .pin("clock", "clock")
                    .pin("d", "a")
                    .pin("d", "a")
                    .pin("q", "n");
                m.assign("y", "n");
            }),
            |e| matches!(e, E::PortConnectedTwice { .. }),
            &["u0", "`d`"],
        ),
        (
            "port unconnected",
            base(|m| {
                m.instance("u0", "reg2").pin("d", "a").pin("q", "n");
                m.assign("y", "n");
            }),
            |e| matches!(e, E::PortUnconnected { .. }),
            &["u0", "clock", "input, 1 bits"],
        ),
        (
            "input left open",
            base(|m| {
                m.instance("u0", "reg2")
                    .open("clock")
                    .pin("d", "a")
                    .pin("q", "n");
                m.assign("y", "n");
            }),
            |e| matches!(e, E::InputOpen { .. }),
            &["u0", "clock"],
        ),
        (
            "port width mismatch",
            base(|m| {
                m.instance("u0", "reg2")
                    .pin("clock", "clock")
                    .pin("d", Expr::bit("a", 0))
                    .pin("q", "n");
                m.assign("y", "n");
            }),
            |e| {
                matches!(
                    e,
                    E::PortWidthMismatch {
                        port_width: 2,
                        expr_width: 1,
                        ..
                    }
                )
            },
            &["u0", "`d`", "2 bits", "`a[0]`", "1 bits"],
        ),
        (
            "output into a constant",
            base(|m| {
                m.instance("u0", "reg2")
                    .pin("clock", "clock")
                    .pin("d", "a")
                    .pin("q", Expr::constant(2, 0));
                m.assign("y", "a");
                m.allow_unread("n");
            }),
            |e| matches!(e, E::NotAssignable { .. }),
            &["u0", "`q`", "2'b00"],
        ),
        (
            "unknown signal",
            base(|m| {
                m.instance("u0", "reg2")
                    .pin("clock", "clk")
                    .pin("d", "a")
                    .pin("q", "n");
                m.assign("y", "n");
            }),
            |e| matches!(e, E::UnknownSignal { .. }),
            &["clk", "u0"],
        ),
        (
            "slice out of range",
            base(|m| {
                standard(m);
                m.net("s", 1);
                m.assign("s", Expr::bit("a", 2));
            }),
            |e| {
                matches!(
                    e,
                    E::BadSlice {
                        msb: 2,
                        width: 2,
                        ..
                    }
                )
            },
            &["a[2:2]", "lies outside `a`", "2 bits wide ([1:0])"],
        ),
        (
            "reversed slice",
            base(|m| {
                standard(m);
                m.net("s", 2);
                m.assign("s", Expr::slice("a", 0, 1));
            }),
            |e| matches!(e, E::BadSlice { msb: 0, lsb: 1, .. }),
            &["a[0:1]", "msb < lsb"],
        ),
        (
            "constant too wide",
            base(|m| {
                standard(m);
                m.net("s", 2);
                m.assign("s", Expr::constant(2, 4));
            }),
            |e| {
                matches!(
                    e,
                    E::ConstantTooWide {
                        needed: 3,
                        width: 2,
                        ..
                    }
                )
            },
            &["2'b100", "0x4", "needs 3 bits", "declared 2 bits"],
        ),
        (
            "empty concatenation",
            base(|m| {
                standard(m);
                m.net("s", 2);
                m.assign("s", Expr::concat([]));
            }),
            |e| matches!(e, E::EmptyConcat { .. }),
            &["assign #1"],
        ),
        (
            "assign width mismatch",
            base(|m| {
                m.instance("u0", "reg2")
                    .pin("clock", "clock")
                    .pin("d", "a")
                    .pin("q", "n");
                m.assign("y", Expr::concat([Expr::sig("n"), Expr::bit("a", 0)]));
            }),
            |e| {
                matches!(
                    e,
                    E::AssignWidthMismatch {
                        lhs_width: 2,
                        rhs_width: 3,
                        ..
                    }
                )
            },
            &["assign #0", "2 bits", "3 bits"],
        ),
        (
            "drives an input",
            base(|m| {
                standard(m);
                m.assign(Expr::bit("a", 1), Expr::bit("n", 0));
            }),
            |e| matches!(e, E::DrivesInput { .. }),
            &["`a`", "[1]", "assign #1"],
        ),
        (
            "two drivers",
            base(|m| {
                standard(m);
                m.assign(Expr::bit("n", 0), Expr::bit("a", 0));
            }),
            |e| matches!(e, E::MultipleDrivers { .. }),
            &["`n`", "[0]", "instance `u0` port `q`", "assign #1"],
        ),
        (
            "undriven net",
            base(|m| {
                m.instance("u0", "reg2")
                    .pin("clock", "clock")
                    .pin("d", "a")
                    .pin("q", Expr::concat([Expr::bit("n", 1), Expr::bit("y", 0)]));
                m.assign(Expr::bit("y", 1), Expr::bit("n", 1));
            }),
            |e| {
                matches!(
                    e,
                    E::Undriven {
                        kind: "net",
                        width: 2,
                        ..
                    }
                )
            },
            &["`n`", "[0]"],
        ),
        (
            "undriven output port",
            base(|m| {
                m.instance("u0", "reg2")
                    .pin("clock", "clock")
                    .pin("d", "a")
                    .pin("q", "n");
                m.assign(Expr::bit("y", 0), Expr::bit("n", 0));
                m.allow_unread("n");
            }),
            |e| {
                matches!(
                    e,
                    E::Undriven {
                        kind: "output port",
                        ..
                    }
                )
            },
            &["`y`", "[1]"],
        ),
        (
            "unread input bits",
            base(|m| {
                m.instance("u0", "reg2")
                    .pin("clock", "clock")
                    .pin("d", Expr::concat([Expr::bit("a", 0), Expr::bit("a", 0)]))
                    .pin("q", "n");
                m.assign("y", "n");
            }),
            |e| {
                matches!(
                    e,
                    E::Unread {
                        kind: "input port",
                        ..
                    }
                )
            },
            &["`a`", "[1]", "allow_unread"],
        ),
        (
            "allow_unread of an output",
            base(|m| {
                standard(m);
                m.allow_unread("y");
            }),
            |e| matches!(e, E::AllowUnreadUnknown { .. }),
            &["`y`"],
        ),
        (
            "combinational loop",
            base(|m| {
                standard(m);
                m.net("p", 2);
                m.net("q", 2);
                m.assign("p", Expr::concat([Expr::bit("q", 0), Expr::bit("a", 0)]));
                m.assign("q", Expr::concat([Expr::bit("n", 0), Expr::bit("p", 1)]));
                m.allow_unread("p").allow_unread("q");
            }),
            |e| matches!(e, E::CombinationalLoop { .. }),
            &["p[1] -> q[0] -> p[1]"],
        ),
        (
            "bad header parameter",
            bad_param,
            |e| matches!(e, E::BadHeaderParam { .. }),
            &["note", "line breaks"],
        ),
    ]
}

#[test]
fn the_base_design_is_valid() {
    base(standard).validate().expect("valid");
}

#[test]
fn each_class_of_error_is_reported_naming_the_culprit() {
    for (name, design, is_expected, mentions) in cases() {
        let errs = design.validate().expect_err(name).0;
        let hit = errs
            .iter()
            .find(|e| is_expected(e))
            .unwrap_or_else(|| panic!("case `{name}`: expected error not reported; got {errs:#?}"));
        let text = hit.to_string();
        for m in mentions {
            assert!(
                text.contains(m),
                "case `{name}`: message `{text}` does not mention `{m}`"
            );
        }
        assert!(
            design.emit().is_err(),
            "case `{name}`: emit must refuse an invalid design"
        );
    }
}
