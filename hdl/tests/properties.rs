//! Property tests over random word-level netlists: every netlist built by the random
//! recipe (instances of word-level cells wired as a DAG through slices, concatenations,
//! constants, operators and muxes) validates, emits deterministically, follows the RTL style
//! rules and lints clean under `verilator -Wall`; and removing or widening any one
//! connection is caught by validation, naming the instance and port.

mod common;

use common::tools::{scratch_dir, verilator_lint};
use lcanet_hdl::netlist::{
    names, Assign, BinaryOp, Body, Design, Direction, Expr, Instance, Item, Module, Net, Pin, Port,
    ValidationError,
};
use proptest::prelude::*;
use std::collections::HashMap;

/// The cells a random netlist instantiates.
fn leaves() -> Vec<Module> {
    vec![common::cell(2, 3), common::cell(3, 2)]
}

/// Consumes random numbers from a recipe.
struct Dice<'a> {
    rolls: &'a [u32],
    next: usize,
}

impl Dice<'_> {
    fn roll(&mut self, n: usize) -> usize {
        let r = self.rolls[self.next % self.rolls.len()] as usize;
        self.next += 1;
        r % n.max(1)
    }
}

/// What a random netlist may read, with per-bit "was read" flags.
#[derive(Default)]
struct Pool {
    sigs: Vec<(String, usize)>,
    read: HashMap<String, Vec<bool>>,
}

impl Pool {
    fn add(&mut self, name: &str, width: usize) {
        self.sigs.push((name.to_owned(), width));
        self.read.insert(name.to_owned(), vec![false; width]);
    }

    /// A random slice (or whole signal) of at most `max` bits, marked read.
    fn slice(&mut self, dice: &mut Dice, max: usize) -> Expr {
        let (name, w) = self.sigs[dice.roll(self.sigs.len())].clone();
        let lsb = dice.roll(w);
        let msb = lsb + dice.roll((w - lsb).min(max));
        self.read.get_mut(&name).expect("tracked")[lsb..=msb]
            .iter_mut()
            .for_each(|b| *b = true);
        if lsb == 0 && msb + 1 == w {
            Expr::sig(name)
        } else {
            Expr::slice(name, msb, lsb)
        }
    }
}

fn width_of(e: &Expr, pool: &Pool) -> usize {
    let widths: HashMap<&str, usize> = pool.sigs.iter().map(|(n, w)| (n.as_str(), *w)).collect();
    e.width(&|n| widths.get(n).copied()).expect("well-formed")
}

/// A `width`-bit expression: a concatenation of constants, slices, binary operators and
/// muxes (nested at most two deep).
fn random_expr(dice: &mut Dice, width: usize, pool: &mut Pool) -> Expr {
    expr_at(dice, width, pool, 0)
}

fn expr_at(dice: &mut Dice, width: usize, pool: &mut Pool, depth: usize) -> Expr {
    let mut parts = Vec::new();
    let mut left = width;
    while left > 0 {
        let kinds = if depth >= 2 { 3 } else { 5 };
        let part = match dice.roll(kinds) {
            0 => {
                let cw = 1 + dice.roll(left);
                Expr::constant(cw, dice.roll(1 << cw.min(16)) as u64)
            }
            1 | 2 => pool.slice(dice, left),
            3 => {
                let a = pool.slice(dice, left);
                let w = width_of(&a, pool);
                let b = expr_at(dice, w, pool, depth + 1);
                let ops = [BinaryOp::And, BinaryOp::Or, BinaryOp::Xor, BinaryOp::Add];
                Expr::Binary {
                    op: ops[dice.roll(ops.len())],
                    lhs: Box::new(a),
                    rhs: Box::new(b),
                }
            }
            _ => {
                let a = pool.slice(dice, left);
                let w = width_of(&a, pool);
                let cond = pool.slice(dice, 1);
                let b = expr_at(dice, w, pool, depth + 1);
                Expr::Mux {
                    cond: Box::new(cond),
                    then: Box::new(a),
                    els: Box::new(b),
                }
            }
        };
        left -= width_of(&part, pool);
        parts.push(part);
    }
    if parts.len() == 1 {
        parts.pop().expect("one part")
    } else {
        Expr::concat(parts)
    }
}

/// A random, valid netlist: `count` cell instances wired as a DAG from the input `din`,
/// earlier instances' outputs, constants and named intermediate wires; every bit nobody
/// reads goes to the output `dout`. The top is written item by item, as a generator would.
fn random_design(count: usize, in_width: usize, rolls: &[u32]) -> Design {
    let mut dice = Dice { rolls, next: 0 };
    let mut design = Design::new("rnd");
    design.param("instances", count).param("in_width", in_width);
    let cells = leaves();
    for c in &cells {
        design.add_module(c.clone()).expect("new");
    }
    let mut top = Module {
        name: "rnd".into(),
        ports: vec![Port::input("clock", 1), Port::input("din", in_width)],
        body: Body::default(),
    };
    let items = &mut top.body.items;
    let mut pool = Pool::default();
    pool.add("din", in_width);
    for i in 0..count {
        let cell = &cells[dice.roll(cells.len())];
        let inst = names::lvl_sw(i % 3, i);
        let mut pins = Vec::new();
        let mut outputs = Vec::new();
        for port in &cell.ports {
            let expr = match port.direction {
                Direction::Input if port.name == "clock" => Some(Expr::sig("clock")),
                Direction::Input if dice.roll(3) == 0 => {
                    // Through a named wire holding the value.
                    let w = format!("w{i}_{}", port.name);
                    let value = random_expr(&mut dice, port.width, &mut pool);
                    items.push(Item::Wire(net(&w, port.width), Some(value)));
                    Some(Expr::sig(w.as_str()))
                }
                Direction::Input => Some(random_expr(&mut dice, port.width, &mut pool)),
                Direction::Output if dice.roll(5) == 0 => None,
                Direction::Output => {
                    let name = names::output_net(&inst, &port.name);
                    items.push(Item::Wire(net(&name, port.width), None));
                    outputs.push((name.clone(), port.width));
                    Some(Expr::sig(name))
                }
            };
            pins.push(Pin {
                port: port.name.clone(),
                expr,
            });
        }
        items.push(Item::Instance(Instance {
            name: inst,
            module: cell.name.clone(),
            pins,
        }));
        for (name, width) in outputs {
            pool.add(&name, width);
        }
    }
    // One wire may stay unread on purpose, through allow_unread.
    if pool.sigs.len() > 1 && dice.roll(2) == 0 {
        let (name, _) = pool.sigs[1 + dice.roll(pool.sigs.len() - 1)].clone();
        top.body.allow_unread.insert(name.clone());
        pool.read.remove(&name);
    }
    let mut unread: Vec<Expr> = Vec::new();
    for (name, width) in &pool.sigs {
        if let Some(flags) = pool.read.get(name) {
            for (bit, was_read) in flags.iter().enumerate() {
                if !was_read {
                    unread.push(if *width == 1 {
                        Expr::sig(name.as_str())
                    } else {
                        Expr::bit(name.as_str(), bit)
                    });
                }
            }
        }
    }
    if unread.is_empty() {
        unread.push(Expr::constant(1, 0));
    }
    top.ports.push(Port::output("dout", unread.len()));
    top.body.items.push(Item::Assign(Assign {
        lhs: Expr::sig("dout"),
        rhs: Expr::concat(unread),
    }));
    design.add_module(top).expect("new");
    design
}

fn net(name: &str, width: usize) -> Net {
    Net {
        name: name.into(),
        width,
    }
}

fn recipe() -> impl Strategy<Value = (usize, usize, Vec<u32>)> {
    (
        1usize..=5,
        1usize..=6,
        prop::collection::vec(any::<u32>(), 1..160),
    )
}

/// Applies `edit` to the pins of instance number `pick` (mod count) of the top module.
fn edit_pins(
    design: &Design,
    pick: usize,
    edit: impl FnOnce(&mut Vec<Pin>) -> Option<String>,
) -> Option<(Design, String, String)> {
    let mut top = design.module("rnd").expect("top").clone();
    let mut insts: Vec<&mut Instance> = top
        .body
        .items
        .iter_mut()
        .filter_map(|i| match i {
            Item::Instance(inst) => Some(inst),
            _ => None,
        })
        .collect();
    let n = insts.len();
    let inst = &mut insts[pick % n];
    let name = inst.name.clone();
    let port = edit(&mut inst.pins)?;
    let mut edited = Design::new("rnd");
    for m in design.modules() {
        edited
            .add_module(if m.name == "rnd" {
                top.clone()
            } else {
                m.clone()
            })
            .expect("fresh");
    }
    Some((edited, name, port))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    #[test]
    fn random_valid_netlists_emit_deterministic_lint_clean_verilog((count, width, rolls) in recipe()) {
        let design = random_design(count, width, &rolls);
        design.validate().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let a = design.emit().expect("valid");
        prop_assert_eq!(&a, &random_design(count, width, &rolls).emit().expect("valid"));
        let issues = lcanet_hdl::style::check_files(
            a.modules.iter().map(|f| (f.name.as_str(), f.contents.as_str())),
        );
        prop_assert!(issues.is_empty(), "{:?}", issues);
        let dir = scratch_dir("prop_lint");
        a.write_to(&dir).expect("written");
        verilator_lint(&dir, &a).map_err(TestCaseError::fail)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn a_dropped_connection_is_reported((count, width, rolls) in recipe(), pick in any::<usize>(), pin in any::<usize>()) {
        let design = random_design(count, width, &rolls);
        let (edited, inst, port) = edit_pins(&design, pick, |pins| {
            Some(pins.remove(pin % pins.len()).port)
        }).expect("an instance");
        let errs = edited.validate().expect_err("a port is unconnected").0;
        prop_assert!(errs.iter().any(|e| matches!(e, ValidationError::PortUnconnected { .. })
            && e.to_string().contains(&format!("instance `{inst}`")) && e.to_string().contains(&format!("port `{port}`"))), "{:?}", errs);
    }

    #[test]
    fn a_widened_connection_is_reported((count, width, rolls) in recipe(), pick in any::<usize>(), pin in any::<usize>()) {
        let design = random_design(count, width, &rolls);
        if let Some((edited, inst, port)) = edit_pins(&design, pick, |pins| {
            let n = pins.len();
            let p = &mut pins[pin % n];
            let e = p.expr.take()?;
            p.expr = Some(Expr::concat([Expr::constant(1, 0), e]));
            Some(p.port.clone())
        }) {
            let errs = edited.validate().expect_err("a width differs").0;
            prop_assert!(errs.iter().any(|e| matches!(e, ValidationError::PortWidthMismatch { .. } | ValidationError::NotAssignable { .. } | ValidationError::ClockPin { .. })
                && e.to_string().contains(&format!("instance `{inst}`")) && e.to_string().contains(&format!("port `{port}`"))), "{:?}", errs);
        }
    }
}
