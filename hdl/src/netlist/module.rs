//! The data model: modules with ports, whose body is either a leaf (Verilog text produced
//! by rust-hdl, already sanitized) or structural (nets, instances, continuous assigns).

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

/// A module port.
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

impl Module {
    /// The port called `name`.
    pub fn port(&self, name: &str) -> Option<&Port> {
        self.ports.iter().find(|p| p.name == name)
    }

    /// Names of the modules this module instantiates, in order of first appearance.
    pub fn instantiated_modules(&self) -> Vec<&str> {
        let mut seen = BTreeSet::new();
        let all: Vec<&str> = match &self.body {
            Body::Leaf(l) => l
                .lines
                .iter()
                .filter_map(|line| match line {
                    LeafLine::Instance { module, .. } => Some(module.as_str()),
                    LeafLine::Text(_) => None,
                })
                .collect(),
            Body::Structural(s) => s.instances.iter().map(|i| i.module.as_str()).collect(),
        };
        all.into_iter().filter(|m| seen.insert(*m)).collect()
    }
}

/// The contents of a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// Verilog text written by rust-hdl (see [`crate::rusthdl`]).
    Leaf(Leaf),
    /// Nets, instances and assigns.
    Structural(Structural),
}

/// How a leaf declares one port in its ANSI header (`output reg`, `input wire signed`...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PortStyle {
    /// Declared `reg` (outputs written by an `always` block) rather than `wire`.
    pub reg: bool,
    /// Declared `signed`.
    pub signed: bool,
}

/// A leaf module body: everything between the port list and `endmodule`, as lines.
///
/// Lines that start an instance of another module are kept apart so that the instantiated
/// module can be renamed (child modules shared between leaves).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Leaf {
    /// One style per port of the module, in the same order.
    pub port_styles: Vec<PortStyle>,
    /// Body lines, without trailing newline.
    pub lines: Vec<LeafLine>,
}

/// One line of a leaf body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LeafLine {
    /// Verbatim text.
    Text(String),
    /// The first line of an instance: `<indent><module><rest>`, e.g. `    dff_4 state(`.
    Instance {
        /// Leading whitespace.
        indent: String,
        /// The instantiated module.
        module: String,
        /// The rest of the line, starting with the space before the instance name.
        rest: String,
    },
}

/// A structural module body.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Structural {
    /// Internal nets.
    pub nets: Vec<Net>,
    /// Instances of other modules.
    pub instances: Vec<Instance>,
    /// Continuous assigns, `assign lhs = rhs;`.
    pub assigns: Vec<Assign>,
    /// Nets and input ports that may be left (partly) unread. Emission wraps their
    /// declaration in `verilator lint_off UNUSEDSIGNAL` comments.
    pub allow_unread: BTreeSet<String>,
}

/// An internal net (`wire`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Net {
    /// Net name.
    pub name: String,
    /// Width in bits, at least 1.
    pub width: usize,
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
    /// Driven side: nets, output ports, slices and concatenations of those.
    pub lhs: Expr,
    /// Driving side.
    pub rhs: Expr,
}
