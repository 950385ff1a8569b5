//! Errors of the netlist: validation findings (each names the module, instance, port or
//! signal and the widths involved) and the errors of building and writing a design.

use super::expr::WidthError;
use super::ident::IdentIssue;
use std::fmt;
use std::path::PathBuf;

/// Where in a module an expression sits; used in messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Site {
    /// Port `port` of instance `instance` (of module `target`).
    Pin {
        /// Instance name.
        instance: String,
        /// Instantiated module.
        target: String,
        /// Port name.
        port: String,
    },
    /// Continuous assign number `index` (0-based, in declaration order).
    Assign {
        /// Position among the module's assigns.
        index: usize,
        /// The assign, as text.
        text: String,
    },
    /// The value of a wire declared with one.
    Wire {
        /// The wire.
        name: String,
    },
    /// Statement number `index` (1-based, in order) of the clocked process.
    Process {
        /// Position in the process.
        index: usize,
        /// The statement, as text.
        text: String,
    },
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Site::Pin {
                instance,
                target,
                port,
            } => write!(f, "instance `{instance}` (of `{target}`) port `{port}`"),
            Site::Assign { index, text } => write!(f, "assign #{index} `{text}`"),
            Site::Wire { name } => write!(f, "the value of wire `{name}`"),
            Site::Process { index, text } => {
                write!(f, "statement #{index} of the clocked process `{text}`")
            }
        }
    }
}

/// One problem found by [`crate::netlist::Design::validate`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    /// The design's top module is not among its modules.
    #[error("top module `{top}` is not defined in the design")]
    MissingTop {
        /// The top module name.
        top: String,
    },
    /// A module, port, net or instance name is not a legal identifier.
    #[error("module `{module}`: {kind} name `{name}` is not a legal Verilog identifier: {issue}")]
    IllegalIdentifier {
        /// Module in which the name is declared (the module itself for a module name).
        module: String,
        /// "module", "port", "net" or "instance".
        kind: &'static str,
        /// The offending name.
        name: String,
        /// Why it is illegal.
        issue: IdentIssue,
    },
    /// Two declarations of one module share a name (ports, nets, instances share a scope).
    #[error("module `{module}`: `{name}` is declared twice, as {first} and as {second}")]
    DuplicateName {
        /// Module.
        module: String,
        /// Shared name.
        name: String,
        /// Kind of the first declaration.
        first: &'static str,
        /// Kind of the second declaration.
        second: &'static str,
    },
    /// Two module names differ only in letter case, so their files would collide.
    #[error("modules `{a}` and `{b}` differ only in letter case; files `{a}.v` and `{b}.v` would collide on case-insensitive file systems")]
    ModuleCaseClash {
        /// First module.
        a: String,
        /// Second module.
        b: String,
    },
    /// A port, net or constant of width 0.
    #[error("module `{module}`: {kind} `{name}` has width 0")]
    ZeroWidth {
        /// Module.
        module: String,
        /// "port", "net" or "constant".
        kind: &'static str,
        /// Name or position.
        name: String,
    },
    /// An instance of a module the design does not define.
    #[error("module `{module}`: instance `{instance}` refers to undefined module `{target}`")]
    UndefinedModule {
        /// Module containing the instance.
        module: String,
        /// Instance name.
        instance: String,
        /// The missing module.
        target: String,
    },
    /// A module instantiates itself, directly or not.
    #[error("module hierarchy is recursive: {}", path.join(" -> "))]
    RecursiveHierarchy {
        /// The cycle of module names, first repeated at the end.
        path: Vec<String>,
    },
    /// A connection to a port the instantiated module lacks.
    #[error("module `{module}`: {site}: `{target}` has no such port", target = site_target(site))]
    UnknownPort {
        /// Module containing the instance.
        module: String,
        /// The connection.
        site: Site,
    },
    /// A port connected twice.
    #[error("module `{module}`: {site} is connected more than once")]
    PortConnectedTwice {
        /// Module containing the instance.
        module: String,
        /// The connection.
        site: Site,
    },
    /// A port left out of the connection list.
    #[error("module `{module}`: {site} ({direction}, {width} bits) is not connected; connect it (outputs may be left open explicitly)")]
    PortUnconnected {
        /// Module containing the instance.
        module: String,
        /// The missing connection.
        site: Site,
        /// Port direction.
        direction: super::Direction,
        /// Port width.
        width: usize,
    },
    /// An input port connected as open.
    #[error("module `{module}`: {site} is an input left open; every input must be driven")]
    InputOpen {
        /// Module containing the instance.
        module: String,
        /// The connection.
        site: Site,
    },
    /// A port and the expression connected to it differ in width.
    #[error("module `{module}`: {site} is {port_width} bits wide but is connected to `{expr}`, {expr_width} bits wide")]
    PortWidthMismatch {
        /// Module containing the instance.
        module: String,
        /// The connection.
        site: Site,
        /// Port width.
        port_width: usize,
        /// The connected expression.
        expr: String,
        /// Its width.
        expr_width: usize,
    },
    /// An instance output or assign target that cannot be driven (contains a constant).
    #[error("module `{module}`: {site}: `{expr}` cannot be driven (only nets, ports, their slices and concatenations of those can)")]
    NotAssignable {
        /// Module.
        module: String,
        /// Where.
        site: Site,
        /// The expression.
        expr: String,
    },
    /// An expression that names an unknown signal, slices out of range, or combines
    /// operands of the wrong widths.
    #[error("module `{module}`: {site}: `{expr}`: {problem}")]
    BadExpr {
        /// Module.
        module: String,
        /// Where.
        site: Site,
        /// The expression.
        expr: String,
        /// The rule it breaks.
        problem: WidthError,
    },
    /// The clock read by logic, or passed on modified (a derived clock).
    #[error("module `{module}`: {site} reads `clock`: the clock may only clock this module's registers and be passed unchanged to instances' `clock` ports (no derived clocks)")]
    DerivedClock {
        /// Module.
        module: String,
        /// Where.
        site: Site,
    },
    /// An instance's `clock` port connected to something other than the module's clock.
    #[error("module `{module}`: {site} is connected to `{expr}`; a `clock` port must be connected to the input `clock` itself (no derived clocks)")]
    ClockPin {
        /// Module.
        module: String,
        /// The connection.
        site: Site,
        /// What it is connected to.
        expr: String,
    },
    /// Registers without a 1-bit input `clock`.
    #[error("module `{module}` has registers but no 1-bit input port `clock` to load them")]
    NoClock {
        /// Module.
        module: String,
    },
    /// The clocked process loads (`<=`) something that is not a register, or gives a value
    /// (`=`) to something that is not a temporary.
    #[error("module `{module}`: {site} assigns {kind} `{name}`; this statement may only assign a {expected}")]
    LoadsNonRegister {
        /// Module.
        module: String,
        /// Where.
        site: Site,
        /// The target.
        name: String,
        /// What it is.
        kind: &'static str,
        /// What the statement assigns: "register" (`<=`) or "temporary" (`=`).
        expected: &'static str,
    },
    /// A memory named other than by a word, or a word of something that is not a memory.
    #[error("module `{module}`: {site} uses `{name}` wrongly: {problem}")]
    MemoryUse {
        /// Module.
        module: String,
        /// Where.
        site: Site,
        /// The signal or memory.
        name: String,
        /// The rule.
        problem: &'static str,
    },
    /// A loop variable used outside the `for` that declares it.
    #[error("module `{module}`: {site} uses loop variable `{var}` outside its `for`")]
    LoopVarOutside {
        /// Module.
        module: String,
        /// Where.
        site: Site,
        /// The variable.
        var: String,
    },
    /// A `for` reusing the variable of an enclosing `for`.
    #[error("module `{module}`: {site} reuses the variable `{var}` of an enclosing `for`")]
    LoopVarReused {
        /// Module.
        module: String,
        /// Where.
        site: Site,
        /// The variable.
        var: String,
    },
    /// The two sides of an assign differ in width.
    #[error("module `{module}`: {site}: left side is {lhs_width} bits wide, right side {rhs_width} bits")]
    AssignWidthMismatch {
        /// Module.
        module: String,
        /// The assign.
        site: Site,
        /// Left width.
        lhs_width: usize,
        /// Right width.
        rhs_width: usize,
    },
    /// An assign or instance drives an input port or a register.
    #[error("module `{module}`: {driver} drives {kind} `{port}` at {bits}; inputs are driven from outside and registers by the clocked process only")]
    DrivesInput {
        /// Module.
        module: String,
        /// "input port" or "register".
        kind: &'static str,
        /// The input port.
        port: String,
        /// Bits concerned, e.g. `[3:0]`.
        bits: String,
        /// The internal driver.
        driver: String,
    },
    /// A bit with two drivers.
    #[error(
        "module `{module}`: {kind} `{name}` is driven twice at {bits}: by {first} and by {second}"
    )]
    MultipleDrivers {
        /// Module.
        module: String,
        /// "net" or "output port".
        kind: &'static str,
        /// The signal.
        name: String,
        /// Bits concerned.
        bits: String,
        /// First driver.
        first: String,
        /// Second driver.
        second: String,
    },
    /// A net or output port with undriven bits.
    #[error("module `{module}`: {kind} `{name}` ({width} bits) is not driven at {bits}")]
    Undriven {
        /// Module.
        module: String,
        /// "net" or "output port".
        kind: &'static str,
        /// The signal.
        name: String,
        /// Its width.
        width: usize,
        /// Undriven bits.
        bits: String,
    },
    /// A net or input port with bits nobody reads (Verilator -Wall: UNUSEDSIGNAL).
    #[error("module `{module}`: {kind} `{name}` ({width} bits) is never read at {bits} (Verilator -Wall warns UNUSEDSIGNAL); read it or list it in allow_unread")]
    Unread {
        /// Module.
        module: String,
        /// "net" or "input port".
        kind: &'static str,
        /// The signal.
        name: String,
        /// Its width.
        width: usize,
        /// Unread bits.
        bits: String,
    },
    /// `allow_unread` names something that is not a net or input port.
    #[error("module `{module}`: allow_unread lists `{name}`, which is not a net or input port of the module")]
    AllowUnreadUnknown {
        /// Module.
        module: String,
        /// The listed name.
        name: String,
    },
    /// Assigns that feed back on themselves.
    #[error("module `{module}`: combinational loop through assigns: {}", path.join(" -> "))]
    CombinationalLoop {
        /// Module.
        module: String,
        /// Bits around the loop, first repeated at the end, e.g. `a[0] -> b[0] -> a[0]`.
        path: Vec<String>,
    },
    /// A header parameter that cannot be written in a `//` comment.
    #[error("header parameter `{key}` = {value:?}: {reason}")]
    BadHeaderParam {
        /// Parameter name.
        key: String,
        /// Parameter value.
        value: String,
        /// What is wrong.
        reason: &'static str,
    },
}

fn site_target(site: &Site) -> &str {
    match site {
        Site::Pin { target, .. } => target,
        Site::Assign { .. } | Site::Wire { .. } | Site::Process { .. } => "the module",
    }
}

/// Every problem validation found, in a deterministic order (the message lists the first
/// 50).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationErrors(pub Vec<ValidationError>);

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 50;
        write!(f, "the netlist is invalid ({} problem(s))", self.0.len())?;
        for e in self.0.iter().take(SHOWN) {
            write!(f, "\n  - {e}")?;
        }
        if self.0.len() > SHOWN {
            write!(f, "\n  ... and {} more", self.0.len() - SHOWN)?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}

/// Errors of assembling, validating and writing a [`crate::netlist::Design`].
#[derive(Debug, thiserror::Error)]
pub enum NetlistError {
    /// A module of this name exists with a different definition.
    #[error("module `{name}` is already defined differently ({reason})")]
    ConflictingModule {
        /// Module name.
        name: String,
        /// How the definitions differ.
        reason: &'static str,
    },
    /// A generator broke an invariant of the netlist (a bug in lcanet, not in the input).
    #[error("internal error (a bug in lcanet-hdl, please report it): {0}")]
    Internal(String),
    /// Validation failed.
    #[error(transparent)]
    Invalid(#[from] ValidationErrors),
    /// Writing the emitted files failed. Every file is first written under a temporary
    /// name and renamed into place only once all were written, so no file is left
    /// half-written.
    #[error("cannot write `{}`: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}
