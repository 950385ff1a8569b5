//! Validation rejects each class of error with a message naming the culprit: a table of
//! cases, each a small valid design with one defect. Defects the builder would refuse
//! while elaborating (width mismatches) are written into the module by hand, as a buggy
//! generator or a hand-made netlist could.

use lcanet_hdl::netlist::{
    lit, Assign, BinaryOp, Design, Expr, Instance, Item, Module, ModuleBuilder, Net, Pin, Stmt,
    ValidationError, V,
};

/// `q` is `d` registered.
fn reg2() -> Module {
    let mut m = ModuleBuilder::new("reg2");
    m.clock();
    let d = m.input("d", 2);
    let q = m.output("q", 2);
    let r = m.reg("r", 2);
    m.assign(&q, &r);
    m.always(|p| p.load(&r, &d));
    m.build()
}

/// The valid base: `a` registered into wire `n`, driven out on `y`; `edit` changes the top.
fn base(edit: impl FnOnce(&mut Module)) -> Design {
    let mut d = Design::new("top");
    d.add_module(reg2()).expect("new");
    let mut m = ModuleBuilder::new("top");
    let clock = m.clock();
    let a = m.input("a", 2);
    let y = m.output("y", 2);
    let n = m.wire("n", 2);
    m.instance("u0", &reg2())
        .pin("clock", &clock)
        .pin("d", &a)
        .pin("q", &n);
    m.assign(&y, &n);
    let mut top = m.build();
    edit(&mut top);
    d.add_module(top).expect("new");
    d
}

fn push(m: &mut Module, item: Item) {
    m.body.items.push(item);
}

fn wire(m: &mut Module, name: &str, width: usize) {
    push(
        m,
        Item::Wire(
            Net {
                name: name.into(),
                width,
            },
            None,
        ),
    );
}

fn assign(m: &mut Module, lhs: Expr, rhs: Expr) {
    push(m, Item::Assign(Assign { lhs, rhs }));
}

/// The first instance's pins.
fn pins(m: &mut Module) -> &mut Vec<Pin> {
    m.body
        .items
        .iter_mut()
        .find_map(|i| match i {
            Item::Instance(inst) => Some(&mut inst.pins),
            _ => None,
        })
        .expect("an instance")
}

fn set_pin(m: &mut Module, port: &str, expr: Option<Expr>) {
    let p = pins(m).iter_mut().find(|p| p.port == port).expect("pin");
    p.expr = expr;
}

/// Removes the top's `assign y = n;` (the last assign).
fn drop_output_assign(m: &mut Module) {
    let i = m
        .body
        .items
        .iter()
        .rposition(|i| matches!(i, Item::Assign(_)))
        .expect("an assign");
    m.body.items.remove(i);
}

fn bin(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    Expr::Binary {
        op,
        lhs: Box::new(a),
        rhs: Box::new(b),
    }
}

type Case = (
    &'static str,
    Design,
    fn(&ValidationError) -> bool,
    &'static [&'static str],
);

fn cases() -> Vec<Case> {
    use ValidationError as E;
    let missing_top = {
        let mut d = Design::new("nowhere");
        for m in base(|_| {}).modules() {
            d.add_module(m.clone()).expect("new");
        }
        d
    };
    let mut case_clash = base(|_| {});
    let mut other = reg2();
    other.name = "REG2".into();
    case_clash.add_module(other).expect("new name");
    let mut bad_param = base(|_| {});
    bad_param.param("note", "two\nlines");
    let mut recursive = Design::new("top");
    let inst = |name: &str, module: &str| {
        Item::Instance(Instance {
            name: name.into(),
            module: module.into(),
            pins: Vec::new(),
        })
    };
    let mut a = ModuleBuilder::new("top").build();
    push(&mut a, inst("inner", "sub"));
    let mut b = ModuleBuilder::new("sub").build();
    push(&mut b, inst("back", "top"));
    recursive.add_module(a).expect("new");
    recursive.add_module(b).expect("new");
    let no_clock = {
        let mut d = Design::new("top");
        let mut m = ModuleBuilder::new("top");
        let y = m.output("y", 1);
        let r = m.reg("r", 1);
        m.assign(&y, &r);
        m.always(|p| p.load(&r, !&r));
        let mut top = m.build();
        top.ports.retain(|p| p.name != "clock");
        d.add_module(top).expect("new");
        d
    };
    vec![
        (
            "missing top",
            missing_top,
            |e| matches!(e, E::MissingTop { .. }),
            &["nowhere"],
        ),
        (
            "dollar in a wire name",
            base(|m| {
                wire(m, "a$b", 1);
                assign(m, "a$b".into(), Expr::bit("a", 0));
            }),
            |e| matches!(e, E::IllegalIdentifier { kind: "wire", .. }),
            &["a$b", "`$`"],
        ),
        (
            "keyword instance",
            base(|m| {
                if let Some(Item::Instance(i)) = m
                    .body
                    .items
                    .iter_mut()
                    .find(|i| matches!(i, Item::Instance(_)))
                {
                    i.name = "cell".into();
                }
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
            "wire named like a port",
            base(|m| wire(m, "a", 2)),
            |e| {
                matches!(
                    e,
                    E::DuplicateName {
                        first: "input port",
                        second: "wire",
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
            "zero-width wire",
            base(|m| wire(m, "empty", 0)),
            |e| matches!(e, E::ZeroWidth { kind: "wire", .. }),
            &["empty"],
        ),
        (
            "undefined module",
            base(|m| push(m, inst("u9", "nothing"))),
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
                pins(m).push(Pin {
                    port: "rst".into(),
                    expr: Some("a".into()),
                })
            }),
            |e| matches!(e, E::UnknownPort { .. }),
            &["u0", "rst", "reg2"],
        ),
        (
            "port connected twice",
            base(|m| {
                pins(m).push(Pin {
                    port: "d".into(),
                    expr: Some("a".into()),
                })
            }),
            |e| matches!(e, E::PortConnectedTwice { .. }),
            &["u0", "`d`"],
        ),
        (
            "port unconnected",
            base(|m| pins(m).retain(|p| p.port != "clock")),
            |e| matches!(e, E::PortUnconnected { .. }),
            &["u0", "clock", "input, 1 bits"],
        ),
        (
            "input left open",
            base(|m| set_pin(m, "d", None)),
            |e| matches!(e, E::InputOpen { .. }),
            &["u0", "`d`"],
        ),
        (
            "port width mismatch",
            base(|m| set_pin(m, "d", Some(Expr::bit("a", 0)))),
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
                set_pin(m, "q", Some(Expr::constant(2, 0)));
                drop_output_assign(m);
                assign(m, "y".into(), "a".into());
                m.body.allow_unread.insert("n".into());
            }),
            |e| matches!(e, E::NotAssignable { .. }),
            &["u0", "`q`", "2'd0"],
        ),
        (
            "unknown signal",
            base(|m| set_pin(m, "d", Some("b".into()))),
            |e| {
                matches!(
                    e,
                    E::BadExpr {
                        problem: lcanet_hdl::netlist::WidthError::Unknown(_),
                        ..
                    }
                )
            },
            &["`b`", "u0", "not a port, wire or register"],
        ),
        (
            "slice out of range",
            base(|m| {
                wire(m, "s", 1);
                assign(m, "s".into(), Expr::bit("a", 2));
                m.body.allow_unread.insert("s".into());
            }),
            |e| matches!(e, E::BadExpr { .. }),
            &["a[2]", "lies outside `a`", "2 bits wide"],
        ),
        (
            "reversed slice",
            base(|m| {
                wire(m, "s", 2);
                assign(m, "s".into(), Expr::slice("a", 0, 1));
                m.body.allow_unread.insert("s".into());
            }),
            |e| matches!(e, E::BadExpr { .. }),
            &["a[0:1]", "msb < lsb"],
        ),
        (
            "constant too wide",
            base(|m| {
                wire(m, "s", 2);
                assign(m, "s".into(), Expr::constant(2, 4));
                m.body.allow_unread.insert("s".into());
            }),
            |e| matches!(e, E::BadExpr { .. }),
            &["2'd4", "does not fit in 2 bits"],
        ),
        (
            "empty concatenation",
            base(|m| {
                wire(m, "s", 2);
                assign(m, "s".into(), Expr::concat([]));
                m.body.allow_unread.insert("s".into());
            }),
            |e| matches!(e, E::BadExpr { .. }),
            &["assign #1", "empty concatenation"],
        ),
        (
            "operands of different widths",
            base(|m| {
                wire(m, "s", 2);
                assign(
                    m,
                    "s".into(),
                    bin(BinaryOp::Add, "a".into(), Expr::bit("a", 0)),
                );
                m.body.allow_unread.insert("s".into());
            }),
            |e| matches!(e, E::BadExpr { .. }),
            &["operands of `+` are 2 and 1 bits wide"],
        ),
        (
            "wide mux condition",
            base(|m| {
                wire(m, "s", 2);
                assign(
                    m,
                    "s".into(),
                    Expr::Mux {
                        cond: Box::new("a".into()),
                        then: Box::new("a".into()),
                        els: Box::new("n".into()),
                    },
                );
                m.body.allow_unread.insert("s".into());
            }),
            |e| matches!(e, E::BadExpr { .. }),
            &["condition of `?:` is 2 bits wide"],
        ),
        (
            "row index of the wrong width",
            base(|m| {
                wire(m, "s", 1);
                assign(
                    m,
                    "s".into(),
                    Expr::Row {
                        signal: "a".into(),
                        index: Box::new("n".into()),
                        width: 1,
                    },
                );
                m.body.allow_unread.insert("s".into());
            }),
            |e| matches!(e, E::BadExpr { .. }),
            &["row select of `a`", "2-bit index", "max(1, clog2(rows))"],
        ),
        (
            "assign width mismatch",
            base(|m| {
                drop_output_assign(m);
                assign(
                    m,
                    "y".into(),
                    Expr::concat([Expr::sig("n"), Expr::bit("a", 0)]),
                );
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
            base(|m| assign(m, Expr::bit("a", 1), Expr::bit("n", 0))),
            |e| {
                matches!(
                    e,
                    E::DrivesInput {
                        kind: "input port",
                        ..
                    }
                )
            },
            &["`a`", "[1]", "assign #1"],
        ),
        (
            "a load in the combinational block",
            base(|m| {
                m.body.comb.push(Stmt::Load {
                    target: Expr::sig("y"),
                    value: Expr::sig("a"),
                })
            }),
            |e| matches!(e, E::NotAssignable { .. }),
            &["`<=` in the combinational process"],
        ),
        (
            "an output driven by the combinational block and an assign",
            base(|m| {
                m.body.comb.push(Stmt::Let {
                    target: Expr::bit("y", 0),
                    value: Expr::bit("a", 0),
                })
            }),
            |e| matches!(e, E::MultipleDrivers { .. }),
            &["`y`", "[0]", "assign #0", "the combinational process"],
        ),
        (
            "two drivers",
            base(|m| assign(m, Expr::bit("n", 0), Expr::bit("a", 0))),
            |e| matches!(e, E::MultipleDrivers { .. }),
            &["`n`", "[0]", "instance `u0` port `q`", "assign #1"],
        ),
        (
            "undriven wire",
            base(|m| {
                set_pin(
                    m,
                    "q",
                    Some(Expr::concat([Expr::bit("n", 1), Expr::bit("y", 0)])),
                );
                drop_output_assign(m);
                assign(m, Expr::bit("y", 1), Expr::bit("n", 1));
            }),
            |e| {
                matches!(
                    e,
                    E::Undriven {
                        kind: "wire",
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
                drop_output_assign(m);
                assign(m, Expr::bit("y", 0), Expr::bit("n", 0));
                m.body.allow_unread.insert("n".into());
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
                set_pin(
                    m,
                    "d",
                    Some(Expr::concat([Expr::bit("a", 0), Expr::bit("a", 0)])),
                )
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
                m.body.allow_unread.insert("y".into());
            }),
            |e| matches!(e, E::AllowUnreadUnknown { .. }),
            &["`y`"],
        ),
        (
            "combinational loop",
            base(|m| {
                wire(m, "p", 2);
                wire(m, "q", 2);
                assign(
                    m,
                    "p".into(),
                    Expr::concat([Expr::bit("q", 0), Expr::bit("a", 0)]),
                );
                assign(
                    m,
                    "q".into(),
                    Expr::concat([Expr::bit("n", 0), Expr::bit("p", 1)]),
                );
                m.body.allow_unread.insert("p".into());
                m.body.allow_unread.insert("q".into());
            }),
            |e| matches!(e, E::CombinationalLoop { .. }),
            &["p -> q -> p"],
        ),
        (
            "a wire depending on its own other bits (UNOPTFLAT)",
            base(|m| {
                wire(m, "c", 2);
                assign(m, Expr::bit("c", 0), Expr::bit("a", 0));
                assign(m, Expr::bit("c", 1), Expr::bit("c", 0));
                m.body.allow_unread.insert("c".into());
            }),
            |e| matches!(e, E::CombinationalLoop { .. }),
            &["c -> c"],
        ),
        (
            "a derived clock",
            base(|m| {
                wire(m, "slow", 1);
                assign(m, "slow".into(), "clock".into());
                m.body.allow_unread.insert("slow".into());
            }),
            |e| matches!(e, E::DerivedClock { .. }),
            &["assign #1", "reads `clock`", "no derived clocks"],
        ),
        (
            "an instance clocked by something else",
            base(|m| set_pin(m, "clock", Some(Expr::bit("a", 0)))),
            |e| matches!(e, E::ClockPin { .. }),
            &["u0", "`clock`", "`a[0]`"],
        ),
        (
            "registers without a clock",
            no_clock,
            |e| matches!(e, E::NoClock { .. }),
            &["`top`", "input port `clock`"],
        ),
        (
            "the process loads a wire",
            base(|m| {
                m.body.process.push(Stmt::Load {
                    target: "n".into(),
                    value: "a".into(),
                });
            }),
            |e| matches!(e, E::LoadsNonRegister { kind: "wire", .. }),
            &["statement #1", "`n`", "may only assign a register"],
        ),
        (
            "a let of a register",
            {
                let mut d = Design::new("reg2");
                let mut m = reg2();
                m.body.process.push(Stmt::Let {
                    target: "r".into(),
                    value: "d".into(),
                });
                d.add_module(m).expect("new");
                d
            },
            |e| {
                matches!(
                    e,
                    E::LoadsNonRegister {
                        kind: "register",
                        expected: "temporary",
                        ..
                    }
                )
            },
            &["`r = d;`", "may only assign a temporary"],
        ),
        (
            "a loop variable outside its loop",
            {
                let mut d = Design::new("reg2");
                let mut m = reg2();
                m.body.process = vec![Stmt::Load {
                    target: Expr::Part {
                        signal: "r".into(),
                        terms: vec![(Expr::LoopVar("j".into()), 1)],
                        offset: 0,
                        width: 2,
                    },
                    value: "d".into(),
                }];
                d.add_module(m).expect("new");
                d
            },
            |e| matches!(e, E::LoopVarOutside { .. }),
            &["loop variable `j` outside its `for`"],
        ),
        (
            "a computed part positioned by an expression",
            {
                let mut d = Design::new("reg2");
                let mut m = reg2();
                m.body.process = vec![Stmt::For {
                    var: "j".into(),
                    count: 1,
                    body: vec![Stmt::Load {
                        target: "r".into(),
                        value: Expr::Part {
                            signal: "d".into(),
                            terms: vec![(bin(BinaryOp::Add, "d".into(), "d".into()), 1)],
                            offset: 0,
                            width: 2,
                        },
                    }],
                }];
                d.add_module(m).expect("new");
                d
            },
            |e| matches!(e, E::BadExpr { .. }),
            &["a position term must be a loop variable, a signal or a slice"],
        ),
        (
            "an assign drives a register",
            {
                let mut d = Design::new("reg2");
                let mut m = reg2();
                assign(&mut m, Expr::bit("r", 0), Expr::bit("d", 0));
                d.add_module(m).expect("new");
                d
            },
            |e| {
                matches!(
                    e,
                    E::DrivesInput {
                        kind: "register",
                        ..
                    }
                )
            },
            &["register `r`", "assign #1"],
        ),
        (
            "a register never loaded",
            {
                let mut d = Design::new("reg2");
                let mut m = reg2();
                m.body.process.clear();
                d.add_module(m).expect("new");
                d
            },
            |e| {
                matches!(
                    e,
                    E::Undriven {
                        kind: "register",
                        ..
                    }
                )
            },
            &["register `r`", "[1:0]"],
        ),
        (
            "a wide if condition",
            {
                let mut d = Design::new("reg2");
                let mut m = reg2();
                let load = m.body.process.pop().expect("a load");
                m.body.process.push(Stmt::If {
                    cond: "d".into(),
                    then: vec![load],
                    els: Vec::new(),
                });
                d.add_module(m).expect("new");
                d
            },
            |e| matches!(e, E::BadExpr { .. }),
            &["statement #1", "2 bits wide; it must be 1 bit"],
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
    base(|_| {}).validate().expect("valid");
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

#[test]
fn the_builder_refuses_width_mismatches_as_generator_bugs() {
    let r = std::panic::catch_unwind(|| {
        let mut m = ModuleBuilder::new("x");
        let a = m.input("a", 2);
        let y = m.output("y", 3);
        m.assign(&y, &a);
    });
    let msg = r
        .expect_err("must panic")
        .downcast::<String>()
        .expect("a message");
    assert!(msg.contains("lcanet-hdl bug"), "{msg}");
    let r = std::panic::catch_unwind(|| V::signal("a", 2) + lit(3, 1));
    assert!(r.is_err());
}

/// A memory of four 3-bit words, written and read into a register: the Verilog a block
/// RAM is inferred from. Naming the memory whole, or a word of a register, is refused.
fn memory_module(edit: impl FnOnce(&mut Module)) -> Design {
    let mut m = ModuleBuilder::new("ram4");
    m.clock();
    let we = m.input("we", 1);
    let addr = m.input("addr", 2);
    let d = m.input("d", 3);
    let q = m.output("q", 3);
    let mem = m.memory("mem", 3, 4);
    let r = m.reg("r", 3);
    m.assign(&q, &r);
    m.always(|p| {
        p.if_(we, |p| p.load(&mem.word(&addr), d.clone()));
        p.load(&r, mem.word(&addr));
    });
    let mut module = m.build();
    edit(&mut module);
    let mut design = Design::new("ram4");
    design.add_module(module).expect("new");
    design
}

#[test]
fn memories_are_declared_once_and_named_by_words() {
    let files = memory_module(|_| {}).emit().expect("valid");
    let text = &files.modules[0].contents;
    for line in [
        "reg [2:0] mem [0:3];",
        "if (we) mem[addr] <= d;",
        "r <= mem[addr];",
    ] {
        assert!(text.contains(line), "`{line}` missing in\n{text}");
    }
    let whole = memory_module(|m| {
        m.body.process.push(Stmt::Load {
            target: Expr::sig("r"),
            value: Expr::slice("mem", 2, 0),
        })
    });
    let errs = whole.validate().expect_err("a memory read as a vector").0;
    assert!(
        errs.iter()
            .any(|e| matches!(e, ValidationError::MemoryUse { .. })
                && e.to_string().contains("a word at a time")),
        "{errs:#?}"
    );
    let word_of_reg = memory_module(|m| {
        m.body.process.push(Stmt::Load {
            target: Expr::sig("r"),
            value: Expr::Word {
                memory: "r".into(),
                index: Box::new(Expr::sig("addr")),
                width: 3,
            },
        })
    });
    let errs = word_of_reg.validate().expect_err("a word of a register").0;
    assert!(
        errs.iter()
            .any(|e| e.to_string().contains("only a memory has words")),
        "{errs:#?}"
    );
}
