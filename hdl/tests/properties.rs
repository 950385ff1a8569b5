//! Property tests over random structural netlists of rust-hdl leaves: every netlist built
//! by the random recipe validates, emits deterministically and lints clean under
//! `verilator -Wall`; and removing or widening any one connection is caught by validation,
//! naming the instance and port.

mod common;

use common::blocks::{Cell, Delay};
use common::tools::{scratch_dir, verilator_lint};
use lcanet_hdl::netlist::{
    names, Body, Design, Direction, Expr, Module, ModuleBuilder, ValidationError,
};
use lcanet_hdl::rusthdl::import_block;
use proptest::prelude::*;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The leaf trees (children first), imported once per test process.
fn leaves() -> &'static [Vec<Module>] {
    static LEAVES: OnceLock<Vec<Vec<Module>>> = OnceLock::new();
    LEAVES.get_or_init(|| {
        vec![
            import_block("cell_d2", &mut Cell::new(2)).expect("cell"),
            import_block("delay4", &mut Delay::default()).expect("delay"),
        ]
    })
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

/// Builds a random, valid netlist: `count` instances wired as a DAG from the input `din`,
/// earlier instances' outputs, constants and intermediate assigned nets; every bit nobody
/// reads goes to the output `dout`.
fn random_design(count: usize, in_width: usize, rolls: &[u32]) -> Design {
    let mut dice = Dice { rolls, next: 0 };
    let mut design = Design::new("rnd");
    design.param("instances", count).param("in_width", in_width);
    let roots: Vec<Module> = leaves()
        .iter()
        .map(|tree| {
            let root = design.add_leaf_tree(tree.clone()).expect("leaf tree");
            design.module(&root).expect("root").clone()
        })
        .collect();
    let mut m = ModuleBuilder::new("rnd");
    m.input("clock", 1).input("din", in_width);
    // Signals that can be read, with per-bit "was read" flags.
    let mut pool: Vec<(String, usize)> = vec![("din".into(), in_width)];
    let mut read: HashMap<String, Vec<bool>> =
        HashMap::from([("din".into(), vec![false; in_width])]);
    let mut wires = 0;
    for i in 0..count {
        let leaf = &roots[dice.roll(roots.len())];
        let inst = names::lvl_sw(i % 3, i);
        let mut pins: Vec<(String, Option<Expr>)> = Vec::new();
        let mut new_outputs = Vec::new();
        for port in &leaf.ports {
            match port.direction {
                Direction::Input if port.name == "clock" => {
                    pins.push((port.name.clone(), Some("clock".into())))
                }
                Direction::Input => {
                    let mut e = random_expr(&mut dice, port.width, &pool, &mut read);
                    if dice.roll(3) == 0 {
                        let w = format!("w{wires}");
                        wires += 1;
                        m.net(&w, port.width);
                        m.assign(w.as_str(), e);
                        read.insert(w.clone(), vec![true; port.width]);
                        e = Expr::sig(w);
                    }
                    pins.push((port.name.clone(), Some(e)));
                }
                Direction::Output if dice.roll(5) == 0 => pins.push((port.name.clone(), None)),
                Direction::Output => {
                    let net = names::output_net(&inst, &port.name);
                    m.net(&net, port.width);
                    new_outputs.push((net.clone(), port.width));
                    pins.push((port.name.clone(), Some(Expr::sig(net))));
                }
            }
        }
        let mut b = m.instance(&inst, &leaf.name);
        for (port, e) in pins {
            b = match e {
                Some(e) => b.pin(port, e),
                None => b.open(port),
            };
        }
        for (net, width) in new_outputs {
            read.insert(net.clone(), vec![false; width]);
            pool.push((net, width));
        }
    }
    // One net may stay unread on purpose, through allow_unread.
    if pool.len() > 1 && dice.roll(2) == 0 {
        let (name, _) = &pool[1 + dice.roll(pool.len() - 1)];
        m.allow_unread(name.as_str());
        read.remove(name);
    }
    let mut unread: Vec<Expr> = Vec::new();
    for (name, width) in &pool {
        if let Some(flags) = read.get(name) {
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
    m.output("dout", unread.len());
    m.assign("dout", Expr::concat(unread));
    design.add_module(m.build()).expect("new");
    design
}

/// A `width`-bit expression: a concatenation of constants, whole signals and slices.
fn random_expr(
    dice: &mut Dice,
    width: usize,
    pool: &[(String, usize)],
    read: &mut HashMap<String, Vec<bool>>,
) -> Expr {
    let mut parts = Vec::new();
    let mut left = width;
    while left > 0 {
        let (name, w) = &pool[dice.roll(pool.len())];
        if dice.roll(4) == 0 {
            let cw = 1 + dice.roll(left);
            parts.push(Expr::constant(cw, (dice.roll(1 << cw.min(16))) as u64));
            left -= cw;
        } else if *w <= left && dice.roll(2) == 0 {
            read.get_mut(name)
                .expect("tracked")
                .iter_mut()
                .for_each(|b| *b = true);
            parts.push(Expr::sig(name.as_str()));
            left -= w;
        } else {
            let lsb = dice.roll(*w);
            let msb = lsb + dice.roll((*w - lsb).min(left));
            read.get_mut(name).expect("tracked")[lsb..=msb]
                .iter_mut()
                .for_each(|b| *b = true);
            parts.push(if *w == 1 {
                Expr::sig(name.as_str())
            } else {
                Expr::slice(name.as_str(), msb, lsb)
            });
            left -= msb - lsb + 1;
        }
    }
    if parts.len() == 1 {
        parts.pop().expect("one part")
    } else {
        Expr::concat(parts)
    }
}

fn recipe() -> impl Strategy<Value = (usize, usize, Vec<u32>)> {
    (
        1usize..=5,
        1usize..=6,
        prop::collection::vec(any::<u32>(), 1..120),
    )
}

/// Applies `edit` to the pins of instance number `pick` (mod count) of the top module.
fn edit_pins(
    design: &Design,
    pick: usize,
    edit: impl FnOnce(&mut Vec<lcanet_hdl::netlist::Pin>) -> Option<(String, String)>,
) -> Option<(Design, String, String)> {
    let mut top = design.module("rnd").expect("top").clone();
    let Body::Structural(s) = &mut top.body else {
        return None;
    };
    let n = s.instances.len();
    let inst = &mut s.instances[pick % n];
    let name = inst.name.clone();
    let (port, _) = edit(&mut inst.pins)?;
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
            let removed = pins.remove(pin % pins.len());
            Some((removed.port, String::new()))
        }).expect("structural top");
        let errs = edited.validate().expect_err("a port is unconnected").0;
        prop_assert!(errs.iter().any(|e| matches!(e, ValidationError::PortUnconnected { .. })
            && e.to_string().contains(&format!("instance `{inst}`")) && e.to_string().contains(&format!("port `{port}`"))), "{:?}", errs);
    }

    #[test]
    fn a_widened_connection_is_reported((count, width, rolls) in recipe(), pick in any::<usize>(), pin in any::<usize>()) {
        let design = random_design(count, width, &rolls);
        let (edited, inst, port) = edit_pins(&design, pick, |pins| {
            let n = pins.len();
            let p = &mut pins[pin % n];
            let e = p.expr.take()?;
            p.expr = Some(Expr::concat([Expr::constant(1, 0), e]));
            Some((p.port.clone(), String::new()))
        }).unwrap_or_else(|| (design.clone(), String::new(), String::new()));
        if !port.is_empty() {
            let errs = edited.validate().expect_err("a width differs").0;
            prop_assert!(errs.iter().any(|e| matches!(e, ValidationError::PortWidthMismatch { .. } | ValidationError::NotAssignable { .. })
                && e.to_string().contains(&format!("instance `{inst}`")) && e.to_string().contains(&format!("port `{port}`"))), "{:?}", errs);
        }
    }
}
