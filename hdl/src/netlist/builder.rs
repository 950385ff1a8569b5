//! [`ModuleBuilder`]: elaborates a module from parameters known at run time, Amaranth- or
//! Chisel-style. Declaring a port, wire or register returns its [`V`]; continuous logic is
//! `def` (a named wire with its value) and `assign`; registers are loaded in the one
//! clocked process, written with [`Proc`] (`load`, `if_`/`elif`/`else_`, `case`).
//!
//! ```
//! use lcanet_hdl::netlist::{lit, ModuleBuilder};
//! let mut m = ModuleBuilder::new("counter");
//! let clear = m.input("clear", 1);
//! let count = m.output("count", 4);
//! let r = m.reg("r", 4);
//! m.assign(&count, &r);
//! m.always(|p| {
//!     p.if_(&clear, |p| p.load(&r, lit(4, 0)))
//!         .else_(|p| p.load(&r, r.plus(1)));
//! });
//! let module = m.build();
//! assert_eq!(module.ports.len(), 3); // clock, clear, count
//! ```
//! Widths are checked as values are combined ([`V`]); names, drivers and readers by
//! [`crate::netlist::Design::validate`], which reports every problem at once.

use super::expr::Expr;
use super::module::{
    Assign, Body, Direction, Instance, Item, Memory, Module, Net, Pin, Port, Reg, Stmt, CLOCK,
};
use super::value::{Mem, V};

/// Names used throughout the generated networks, so that GTKWave shows the structure.
pub mod names {
    /// The instance name of switch `sw` of level `level`: `lvl2_sw13`.
    pub fn lvl_sw(level: usize, sw: usize) -> String {
        format!("lvl{level}_sw{sw}")
    }

    /// The wire carrying output `port` of `instance`, as made by
    /// [`super::ModuleBuilder::instance_of`]: `lvl2_sw13_grant`.
    pub fn output_net(instance: &str, port: &str) -> String {
        format!("{instance}_{port}")
    }
}

/// Builds a [`Module`].
#[derive(Debug, Clone)]
pub struct ModuleBuilder {
    name: String,
    ports: Vec<Port>,
    body: Body,
    clock: Option<V>,
}

impl ModuleBuilder {
    /// A new, empty module.
    pub fn new(name: impl Into<String>) -> Self {
        ModuleBuilder {
            name: name.into(),
            ports: Vec::new(),
            body: Body::default(),
            clock: None,
        }
    }

    /// The name of the module being built.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The ports declared so far.
    pub fn ports(&self) -> &[Port] {
        &self.ports
    }

    /// Adds an input port.
    pub fn input(&mut self, name: impl Into<String>, width: usize) -> V {
        let name = name.into();
        let v = V::signal(name.as_str(), width);
        self.ports.push(Port::input(name, width));
        v
    }

    /// Adds an output port; drive it with [`ModuleBuilder::assign`] or an instance output.
    pub fn output(&mut self, name: impl Into<String>, width: usize) -> V {
        let name = name.into();
        let v = V::signal(name.as_str(), width);
        self.ports.push(Port::output(name, width));
        v
    }

    /// The `clock` input (declared the first time it is asked for, as the next port).
    pub fn clock(&mut self) -> V {
        if let Some(c) = &self.clock {
            return c.clone();
        }
        let c = self.input(CLOCK, 1);
        self.clock = Some(c.clone());
        c
    }

    /// A `// comment` line among the declarations.
    pub fn comment(&mut self, text: impl Into<String>) {
        self.body.items.push(Item::Comment(text.into()));
    }

    /// Declares a wire, to be driven by an assign or an instance output.
    pub fn wire(&mut self, name: impl Into<String>, width: usize) -> V {
        let name = name.into();
        let v = V::signal(name.as_str(), width);
        self.body.items.push(Item::Wire(Net { name, width }, None));
        v
    }

    /// Declares a wire holding `value` (`wire [w-1:0] name = value;`) and returns it.
    pub fn def(&mut self, name: impl Into<String>, value: impl Into<V>) -> V {
        let (name, value) = (name.into(), value.into());
        let v = V::signal(name.as_str(), value.width());
        self.body.items.push(Item::Wire(
            Net {
                name,
                width: value.width(),
            },
            Some(value.into_expr()),
        ));
        v
    }

    /// Declares a register that powers up at zero.
    pub fn reg(&mut self, name: impl Into<String>, width: usize) -> V {
        self.reg_init(name, width, 0)
    }

    /// Declares a register that powers up at `init`.
    pub fn reg_init(&mut self, name: impl Into<String>, width: usize, init: u64) -> V {
        self.reg_init_words(name, width, vec![init])
    }

    /// Declares a register of any width that powers up at `init`, 64-bit words least
    /// significant first (as [`lit_words`](super::lit_words); missing words are zero,
    /// bits past `width` are dropped by the printer).
    pub fn reg_init_words(
        &mut self,
        name: impl Into<String>,
        width: usize,
        mut init: Vec<u64>,
    ) -> V {
        let name = name.into();
        // All-zero words are not stored (an empty value is zero).
        while init.last() == Some(&0) {
            init.pop();
        }
        let v = V::signal(name.as_str(), width);
        self.clock();
        self.body.items.push(Item::Reg(Reg { name, width, init }));
        v
    }

    /// `assign lhs = rhs;` (equal widths).
    pub fn assign(&mut self, lhs: &V, rhs: impl Into<V>) {
        let rhs = rhs.into();
        assert_eq!(
            lhs.width(),
            rhs.width(),
            "lcanet-hdl bug: `assign {lhs} = {rhs};` has sides of different width"
        );
        self.body.items.push(Item::Assign(Assign {
            lhs: lhs.expr().clone(),
            rhs: rhs.into_expr(),
        }));
    }

    /// Allows the wire, register or input port `name` to be left (partly) unread.
    pub fn allow_unread(&mut self, name: impl Into<String>) {
        self.body.allow_unread.insert(name.into());
    }

    /// Appends statements to the clocked process, `always @(posedge clock)`.
    pub fn always(&mut self, f: impl FnOnce(&mut Proc)) {
        self.clock();
        let mut p = Proc {
            stmts: std::mem::take(&mut self.body.process),
        };
        f(&mut p);
        self.body.process = p.stmts;
    }

    /// Marks the module's registers as copies to keep apart ([`Body::keep`]).
    pub fn keep_registers(&mut self) {
        self.body.keep = true;
    }

    /// Adds an instance of `module`; connect every port on the returned builder.
    pub fn instance(&mut self, name: impl Into<String>, module: &Module) -> InstanceBuilder<'_> {
        self.body.items.push(Item::Instance(Instance {
            name: name.into(),
            module: module.name.clone(),
            pins: Vec::new(),
        }));
        let Some(Item::Instance(inst)) = self.body.items.last_mut() else {
            unreachable!("an instance was just pushed")
        };
        InstanceBuilder {
            inst,
            ports: module.ports.clone(),
        }
    }

    /// Adds an instance of `module` and, for every output port `p` of it, declares a wire
    /// [`names::output_net`]`(name, p)` of the port's width and connects the port to it.
    /// Returns the builder (connect the inputs on it) and the output wires, in port order.
    pub fn instance_of(
        &mut self,
        name: impl Into<String>,
        module: &Module,
    ) -> (InstanceBuilder<'_>, Vec<V>) {
        let name = name.into();
        let outs: Vec<(String, V)> = module
            .ports
            .iter()
            .filter(|p| p.direction == Direction::Output)
            .map(|p| {
                (
                    p.name.clone(),
                    self.wire(names::output_net(&name, &p.name), p.width),
                )
            })
            .collect();
        let wires = outs.iter().map(|(_, v)| v.clone()).collect();
        let mut b = self.instance(name, module);
        for (port, v) in outs {
            b = b.pin(port, &v);
        }
        (b, wires)
    }

    /// Declares a memory of `depth` words of `width` bits (no power-up value: write a word
    /// before reading it); see [`Mem::word`].
    pub fn memory(&mut self, name: impl Into<String>, width: usize, depth: usize) -> Mem {
        let name = name.into();
        assert!(
            width > 0 && depth >= 2,
            "lcanet-hdl bug: memory `{name}` of {depth} words of {width} bits"
        );
        self.body.items.push(Item::Memory(Memory {
            name: name.clone(),
            width,
            depth,
        }));
        Mem::new(name, width, depth)
    }

    /// Finishes the module.
    pub fn build(self) -> Module {
        Module {
            name: self.name,
            ports: self.ports,
            body: self.body,
        }
    }
}

/// Connects the ports of one instance; see [`ModuleBuilder::instance`].
#[derive(Debug)]
pub struct InstanceBuilder<'a> {
    inst: &'a mut Instance,
    ports: Vec<Port>,
}

impl InstanceBuilder<'_> {
    /// Connects `port` to `expr` (checks the width when the port exists; validation reports
    /// unknown ports).
    pub fn pin(self, port: impl Into<String>, expr: impl Into<V>) -> Self {
        let (port, v) = (port.into(), expr.into());
        if let Some(p) = self.ports.iter().find(|p| p.name == port) {
            assert_eq!(
                p.width,
                v.width(),
                "lcanet-hdl bug: instance `{}` port `{port}` is {} bits wide, connected to `{v}` ({} bits)",
                self.inst.name,
                p.width,
                v.width()
            );
        }
        self.inst.pins.push(Pin {
            port,
            expr: Some(v.into_expr()),
        });
        self
    }

    /// Connects each `(port, value)` in order.
    pub fn pins<'p>(mut self, pins: impl IntoIterator<Item = (&'p str, V)>) -> Self {
        for (port, v) in pins {
            self = self.pin(port, v);
        }
        self
    }

    /// Connects `port` to an expression built by hand (validation checks it).
    pub fn pin_expr(self, port: impl Into<String>, expr: Expr) -> Self {
        self.inst.pins.push(Pin {
            port: port.into(),
            expr: Some(expr),
        });
        self
    }

    /// Leaves output `port` explicitly open (`.port()`); validation rejects open inputs.
    pub fn open(self, port: impl Into<String>) -> Self {
        self.inst.pins.push(Pin {
            port: port.into(),
            expr: None,
        });
        self
    }
}

/// The statements of the clocked process (or of one branch of it).
#[derive(Debug, Default)]
pub struct Proc {
    stmts: Vec<Stmt>,
}

impl Proc {
    /// `target <= value;` (equal widths; the target is a register, a slice or a row of one).
    pub fn load(&mut self, target: &V, value: impl Into<V>) {
        let value = value.into();
        assert_eq!(
            target.width(),
            value.width(),
            "lcanet-hdl bug: `{target} <= {value};` has sides of different width"
        );
        self.stmts.push(Stmt::Load {
            target: target.expr().clone(),
            value: value.into_expr(),
        });
    }

    /// A `// comment` line.
    pub fn comment(&mut self, text: impl Into<String>) {
        self.stmts.push(Stmt::Comment(text.into()));
    }

    /// `if (cond) begin … end`; chain `elif` and `else_` on the result.
    pub fn if_(&mut self, cond: impl Into<V>, then: impl FnOnce(&mut Proc)) -> IfChain<'_> {
        self.stmts.push(if_stmt(cond.into(), then));
        IfChain {
            stmt: self.stmts.last_mut().expect("an if was just pushed"),
        }
    }

    /// `case (subject)` with arms added by `arms` on a [`CaseBuilder`]; the `default` arm is
    /// always written (empty if `CaseBuilder::default` is not called).
    pub fn case(&mut self, subject: &V, arms: impl FnOnce(&mut CaseBuilder)) {
        let mut c = CaseBuilder {
            width: subject.width(),
            arms: Vec::new(),
            default: Vec::new(),
        };
        arms(&mut c);
        self.stmts.push(Stmt::Case {
            subject: subject.expr().clone(),
            arms: c.arms,
            default: c.default,
        });
    }
}

fn block(f: impl FnOnce(&mut Proc)) -> Vec<Stmt> {
    let mut p = Proc::default();
    f(&mut p);
    p.stmts
}

fn if_stmt(cond: V, then: impl FnOnce(&mut Proc)) -> Stmt {
    assert_eq!(
        cond.width(),
        1,
        "lcanet-hdl bug: the condition `{cond}` is {} bits wide",
        cond.width()
    );
    Stmt::If {
        cond: cond.into_expr(),
        then: block(then),
        els: Vec::new(),
    }
}

/// An `if` being built: add `else if` and `else` branches.
#[derive(Debug)]
pub struct IfChain<'a> {
    stmt: &'a mut Stmt,
}

impl<'a> IfChain<'a> {
    /// `else if (cond) begin … end`.
    pub fn elif(self, cond: impl Into<V>, then: impl FnOnce(&mut Proc)) -> IfChain<'a> {
        let Stmt::If { els, .. } = self.stmt else {
            unreachable!("an IfChain always points at an if")
        };
        els.push(if_stmt(cond.into(), then));
        IfChain {
            stmt: els.last_mut().expect("an if was just pushed"),
        }
    }

    /// `else begin … end`.
    pub fn else_(self, f: impl FnOnce(&mut Proc)) {
        let Stmt::If { els, .. } = self.stmt else {
            unreachable!("an IfChain always points at an if")
        };
        *els = block(f);
    }
}

/// The arms of a `case`.
#[derive(Debug)]
pub struct CaseBuilder {
    width: usize,
    arms: Vec<(Vec<u64>, Vec<Stmt>)>,
    default: Vec<Stmt>,
}

impl CaseBuilder {
    /// An arm for the values `values` (each must fit the subject's width).
    pub fn arm(&mut self, values: &[u64], f: impl FnOnce(&mut Proc)) {
        for &v in values {
            assert!(
                self.width >= 64 || v >> self.width == 0,
                "lcanet-hdl bug: case value {v} does not fit the {}-bit subject",
                self.width
            );
        }
        self.arms.push((values.to_vec(), block(f)));
    }

    /// The `default` arm.
    pub fn default(&mut self, f: impl FnOnce(&mut Proc)) {
        self.default = block(f);
    }
}
