//! The data model: a module has ports and one body of word-level declarations —
//! wires, registers, continuous assigns, instances of other modules — and at most one
//! clocked process, printed as the module's single `always @(posedge clock)` block, plus,
//! for blocks replicated as rows whose outputs are logic, one combinational process
//! (`always @*`, blocking assignments only: no flip-flop, no latch).

use super::expr::Expr;
use std::collections::BTreeSet;
use std::fmt;

/// Direction of a module port. Bi-directional links are modelled as two wires, so there is
/// no `inout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Driven from outside the module.
    Input,
    /// Driven by the module.
    Output,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Input => "input",
            Direction::Output => "output",
        })
    }
}

/// A module port (always a `wire`; a registered output is a register assigned to it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Port {
    /// Port name (a legal identifier).
    pub name: String,
    /// Direction.
    pub direction: Direction,
    /// Width in bits, at least 1.
    pub width: usize,
}

impl Port {
    /// An input port.
    pub fn input(name: impl Into<String>, width: usize) -> Port {
        Port {
            name: name.into(),
            direction: Direction::Input,
            width,
        }
    }

    /// An output port.
    pub fn output(name: impl Into<String>, width: usize) -> Port {
        Port {
            name: name.into(),
            direction: Direction::Output,
            width,
        }
    }
}

/// A module definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    /// Module name; the emitted file is `<name>.v`.
    pub name: String,
    /// Ports, in declaration order.
    pub ports: Vec<Port>,
    /// What the module contains.
    pub body: Body,
}

/// The name of the one clock input a module with registers has; every register is loaded
/// at its rising edge (`always @(posedge clock)`), and it may only be passed on, unchanged,
/// to the `clock` port of instances.
pub const CLOCK: &str = "clock";

impl Module {
    /// The port called `name`.
    pub fn port(&self, name: &str) -> Option<&Port> {
        self.ports.iter().find(|p| p.name == name)
    }

    /// Names of the modules this module instantiates, in order of first appearance.
    pub fn instantiated_modules(&self) -> Vec<&str> {
        let mut seen = BTreeSet::new();
        self.body
            .instances()
            .map(|i| i.module.as_str())
            .filter(|m| seen.insert(*m))
            .collect()
    }
}

/// The contents of a module: declarations and continuous logic in the order they are
/// printed, then the clocked process.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Body {
    /// Wires, registers, assigns, instances and comments, in order.
    pub items: Vec<Item>,
    /// The statements of `always @(posedge clock)` (empty: the module has no register).
    pub process: Vec<Stmt>,
    /// Temporaries of the process: variables declared in its named block, given values by
    /// [`Stmt::Let`] (`=`) before they are read in the same pass; never flip-flops.
    pub temps: Vec<Net>,
    /// The combinational process, printed `always @* begin : outputs … end` (empty: none):
    /// only [`Stmt::Let`] (`=`), `for`, `if` and comments, every [`Stmt::Let`] of an output
    /// port or of one of [`Body::comb_temps`], every bit of the outputs it drives given a
    /// value in every pass (no latch). Output ports it drives are printed `output reg`.
    /// [`crate::netlist::replicate`] writes it for output ports that are logic of a row's
    /// wires, so that the rows' outputs are one loop instead of one assign per row.
    pub comb: Vec<Stmt>,
    /// Temporaries of the combinational process (declared in its named block; their names
    /// differ from those of [`Body::temps`]).
    pub comb_temps: Vec<Net>,
    /// Wires, registers and input ports that may be left (partly) unread. Emission wraps
    /// their declaration in `verilator lint_off UNUSEDSIGNAL` comments.
    pub allow_unread: BTreeSet<String>,
    /// The registers are deliberate copies of registers elsewhere (a fan-out tree): the
    /// process is printed `(* keep *) always`, so that synthesis does not merge identical
    /// copies of different instances back into one flip-flop.
    pub keep: bool,
}

impl Body {
    /// The instances, in order.
    pub fn instances(&self) -> impl Iterator<Item = &Instance> {
        self.items.iter().filter_map(|i| match i {
            Item::Instance(inst) => Some(inst),
            _ => None,
        })
    }

    /// The wires (with their declaration assignment, if any), in order.
    pub fn wires(&self) -> impl Iterator<Item = (&Net, Option<&Expr>)> {
        self.items.iter().filter_map(|i| match i {
            Item::Wire(n, e) => Some((n, e.as_ref())),
            _ => None,
        })
    }

    /// The registers, in order.
    pub fn regs(&self) -> impl Iterator<Item = &Reg> {
        self.items.iter().filter_map(|i| match i {
            Item::Reg(r) => Some(r),
            _ => None,
        })
    }

    /// The output ports the combinational process drives (the signals of its lets'
    /// targets that are not its temporaries), once each, in order of first assignment.
    pub fn comb_outputs(&self) -> Vec<&str> {
        fn walk<'a>(list: &'a [Stmt], temps: &[Net], out: &mut Vec<&'a str>) {
            for s in list {
                match s {
                    Stmt::Let { target, .. } => {
                        let mut base = None;
                        // The target's own signal (a part's position terms are reads).
                        target.for_each_signal(&mut |n| {
                            base.get_or_insert(n);
                        });
                        if let Some(n) = base {
                            if !temps.iter().any(|t| t.name == n) && !out.contains(&n) {
                                out.push(n);
                            }
                        }
                    }
                    Stmt::If { then, els, .. } => {
                        walk(then, temps, out);
                        walk(els, temps, out);
                    }
                    Stmt::Case { arms, default, .. } => {
                        arms.iter().for_each(|(_, b)| walk(b, temps, out));
                        walk(default, temps, out);
                    }
                    Stmt::For { body, .. } => walk(body, temps, out),
                    Stmt::Load { .. } | Stmt::Comment(_) => {}
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.comb, &self.comb_temps, &mut out);
        out
    }

    /// The continuous assigns, in order.
    pub fn assigns(&self) -> impl Iterator<Item = &Assign> {
        self.items.iter().filter_map(|i| match i {
            Item::Assign(a) => Some(a),
            _ => None,
        })
    }
}

impl Stmt {
    /// Calls `f` on every signal the statements of `list` mention (targets included), in
    /// order.
    pub fn for_each_signal<'a>(list: &'a [Stmt], f: &mut impl FnMut(&'a str)) {
        for s in list {
            match s {
                Stmt::Load { target, value } | Stmt::Let { target, value } => {
                    target.for_each_signal(f);
                    value.for_each_signal(f);
                }
                Stmt::If { cond, then, els } => {
                    cond.for_each_signal(f);
                    Self::for_each_signal(then, f);
                    Self::for_each_signal(els, f);
                }
                Stmt::Case {
                    subject,
                    arms,
                    default,
                } => {
                    subject.for_each_signal(f);
                    arms.iter().for_each(|(_, b)| Self::for_each_signal(b, f));
                    Self::for_each_signal(default, f);
                }
                Stmt::For { body, .. } => Self::for_each_signal(body, f),
                Stmt::Comment(_) => {}
            }
        }
    }
}

/// One declaration or piece of continuous logic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A `// comment` line (a section title in the printed module).
    Comment(String),
    /// `wire [w-1:0] name;`, or with a value, `wire [w-1:0] name = expr;`.
    Wire(Net, Option<Expr>),
    /// `reg [w-1:0] name;` with its power-up value.
    Reg(Reg),
    /// `assign lhs = rhs;`.
    Assign(Assign),
    /// An instance of another module.
    Instance(Instance),
    /// `reg [width-1:0] name [0:depth-1];`: a memory, read and written a word at a time
    /// by the clocked process ([`Expr::Word`]), with no power-up value (a generator writes
    /// a word before it reads it). A word read into a register is a synchronous read
    /// port: Yosys maps such a memory to block RAM.
    Memory(Memory),
}

/// A memory: `depth` words of `width` bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    /// Name.
    pub name: String,
    /// Bits per word, at least 1.
    pub width: usize,
    /// Words, at least 2.
    pub depth: usize,
}

/// A wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Net {
    /// Name.
    pub name: String,
    /// Width in bits, at least 1.
    pub width: usize,
}

/// A register: loaded only by the clocked process, powers up at `init` (an `initial`
/// value, which Verilator, Icarus and Yosys all honour).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reg {
    /// Name.
    pub name: String,
    /// Width in bits, at least 1.
    pub width: usize,
    /// Power-up value, 64-bit words, least significant first (empty: zero).
    pub init: Vec<u64>,
}

/// An instance of a module, with named port connections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// Instance name, e.g. `lvl2_sw13`.
    pub name: String,
    /// The instantiated module.
    pub module: String,
    /// Port connections, emitted in the instantiated module's port order.
    pub pins: Vec<Pin>,
}

/// One named port connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pin {
    /// Port of the instantiated module.
    pub port: String,
    /// What it connects to; `None` leaves an output explicitly open (`.port()`).
    pub expr: Option<Expr>,
}

/// A continuous assign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assign {
    /// Driven side: wires, output ports, slices and concatenations of those.
    pub lhs: Expr,
    /// Driving side.
    pub rhs: Expr,
}

/// A statement of the clocked process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stmt {
    /// `target <= value;` — the target is a register, a slice of one, or a row of one.
    Load {
        /// Register, slice or row.
        target: Expr,
        /// New value (same width).
        value: Expr,
    },
    /// `if (cond) … else …` (`cond` 1 bit). An `else` holding only another `If` is printed
    /// as `else if`.
    If {
        /// Condition.
        cond: Expr,
        /// Statements when it holds.
        then: Vec<Stmt>,
        /// Statements otherwise.
        els: Vec<Stmt>,
    },
    /// `case (subject) v1, v2: … default: … endcase`.
    Case {
        /// The value switched on.
        subject: Expr,
        /// Arms: the values (of the subject's width) and their statements.
        arms: Vec<(Vec<u64>, Vec<Stmt>)>,
        /// The `default` arm (always printed, so that no case is incomplete).
        default: Vec<Stmt>,
    },
    /// A `// comment` line.
    Comment(String),
    /// `for (var = 0; var < count; var = var + 1) begin … end` (`var` an integer declared in
    /// the process's named block; it positions parts, [`Expr::Part`]).
    For {
        /// The loop variable.
        var: String,
        /// Iterations.
        count: usize,
        /// The body.
        body: Vec<Stmt>,
    },
    /// `target = value;`: a value for a temporary (or a slice of one), read later in the
    /// same pass of the process.
    Let {
        /// A temporary or a slice of one.
        target: Expr,
        /// Its value.
        value: Expr,
    },
}
