//! Builders for structural modules and the naming scheme of network instances and nets.
//!
//! ```
//! use lcanet_hdl::netlist::{names, Expr, ModuleBuilder};
//! let mut m = ModuleBuilder::new("pair");
//! m.input("clock", 1).input("a", 2).output("y", 2);
//! for sw in 0..2 {
//!     let inst = names::lvl_sw(0, sw); // "lvl0_sw0", "lvl0_sw1"
//!     m.instance(&inst, "inverter")
//!         .pin("clock", "clock")
//!         .pin("x", Expr::bit("a", sw))
//!         .pin("y", Expr::bit("y", sw));
//! }
//! let pair = m.build();
//! assert_eq!(pair.ports.len(), 3);
//! ```
//! Nothing is checked while building: [`crate::netlist::Design::validate`] reports every
//! problem at once, naming the instance, port, net and widths.

use super::expr::Expr;
use super::module::{Assign, Body, Direction, Instance, Module, Net, Pin, Port, Structural};

/// Names used throughout the generated networks, so that GTKWave shows the structure.
pub mod names {
    /// The instance name of switch `sw` of level `level`: `lvl2_sw13`.
    pub fn lvl_sw(level: usize, sw: usize) -> String {
        format!("lvl{level}_sw{sw}")
    }

    /// The net for `port` number `index` of an instance: `lvl2_sw13_up0`.
    pub fn pin_net(instance: &str, port: &str, index: usize) -> String {
        format!("{instance}_{port}{index}")
    }

    /// The net carrying output `port` of `instance`, as made by
    /// [`super::ModuleBuilder::instance_of`]: `lvl2_sw13_grant_0`.
    pub fn output_net(instance: &str, port: &str) -> String {
        format!("{instance}_{port}")
    }
}

/// Builds a structural [`Module`].
#[derive(Debug, Clone)]
pub struct ModuleBuilder {
    name: String,
    ports: Vec<Port>,
    body: Structural,
}

impl ModuleBuilder {
    /// A new, empty structural module.
    pub fn new(name: impl Into<String>) -> Self {
        ModuleBuilder {
            name: name.into(),
            ports: Vec::new(),
            body: Structural::default(),
        }
    }

    fn body(&mut self) -> &mut Structural {
        &mut self.body
    }

    /// Adds an input port.
    pub fn input(&mut self, name: impl Into<String>, width: usize) -> &mut Self {
        self.ports.push(Port::input(name, width));
        self
    }

    /// Adds an output port.
    pub fn output(&mut self, name: impl Into<String>, width: usize) -> &mut Self {
        self.ports.push(Port::output(name, width));
        self
    }

    /// Declares a net and returns it as an expression.
    pub fn net(&mut self, name: impl Into<String>, width: usize) -> Expr {
        let name = name.into();
        let e = Expr::sig(name.as_str());
        self.body().nets.push(Net { name, width });
        e
    }

    /// Allows the net or input port `name` to be left (partly) unread.
    pub fn allow_unread(&mut self, name: impl Into<String>) -> &mut Self {
        self.body().allow_unread.insert(name.into());
        self
    }

    /// Adds an instance of `module`; connect its ports on the returned builder.
    pub fn instance(
        &mut self,
        name: impl Into<String>,
        module: impl Into<String>,
    ) -> InstanceBuilder<'_> {
        let body = self.body();
        body.instances.push(Instance {
            name: name.into(),
            module: module.into(),
            pins: Vec::new(),
        });
        let inst = body.instances.last_mut().expect("just pushed");
        InstanceBuilder { inst }
    }

    /// Adds an instance of `module` and, for every output port `p` of it, declares a net
    /// [`names::output_net`]`(name, p)` of the port's width and connects the port to it.
    /// Connect the inputs on the returned builder.
    pub fn instance_of(&mut self, name: impl Into<String>, module: &Module) -> InstanceBuilder<'_> {
        let name = name.into();
        let outputs: Vec<&Port> = module
            .ports
            .iter()
            .filter(|p| p.direction == Direction::Output)
            .collect();
        let mut pins = Vec::with_capacity(module.ports.len());
        for p in outputs {
            let net = self.net(names::output_net(&name, &p.name), p.width);
            pins.push(Pin {
                port: p.name.clone(),
                expr: Some(net),
            });
        }
        let body = self.body();
        body.instances.push(Instance {
            name,
            module: module.name.clone(),
            pins,
        });
        let inst = body.instances.last_mut().expect("just pushed");
        InstanceBuilder { inst }
    }

    /// Adds `assign lhs = rhs;`.
    pub fn assign(&mut self, lhs: impl Into<Expr>, rhs: impl Into<Expr>) -> &mut Self {
        self.body().assigns.push(Assign {
            lhs: lhs.into(),
            rhs: rhs.into(),
        });
        self
    }

    /// The name of the module being built.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The ports declared so far.
    pub fn ports(&self) -> &[Port] {
        &self.ports
    }

    /// Finishes the module.
    pub fn build(self) -> Module {
        Module {
            name: self.name,
            ports: self.ports,
            body: Body::Structural(self.body),
        }
    }
}

/// Connects the ports of one instance; see [`ModuleBuilder::instance`].
#[derive(Debug)]
pub struct InstanceBuilder<'a> {
    inst: &'a mut Instance,
}

impl InstanceBuilder<'_> {
    /// Connects `port` to `expr` (a net or port name converts into an [`Expr`]).
    pub fn pin(self, port: impl Into<String>, expr: impl Into<Expr>) -> Self {
        self.inst.pins.push(Pin {
            port: port.into(),
            expr: Some(expr.into()),
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
