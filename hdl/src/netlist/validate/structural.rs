//! Rules inside a structural module: legal and unique names; every instance port connected
//! exactly once with matching width (outputs may be left open explicitly, inputs not);
//! well-formed expressions (known signals, slices in range, constants that fit, non-empty
//! concatenations, drivable targets); every bit of every net and output port driven
//! exactly once and no input port driven inside; every bit of every net and input port read
//! (unless listed in `allow_unread`); no combinational loop through assigns.

use super::bits::{SigKind, SigTable};
use crate::netlist::design::Design;
use crate::netlist::error::{Site, ValidationError};
use crate::netlist::expr::Expr;
use crate::netlist::ident::check_identifier;
use crate::netlist::module::{Direction, Module, Pin, Structural};
use std::collections::HashMap;

/// Who drives a bit.
pub(super) enum Driver<'a> {
    Pin { instance: &'a str, port: &'a str },
    Assign(usize),
}

pub(super) struct Checker<'a> {
    pub(super) module: &'a str,
    pub(super) table: SigTable<'a>,
    /// Per global bit: 0 = undriven, else 1 + index into `drivers`.
    pub(super) driver: Vec<u32>,
    pub(super) read: Vec<bool>,
    pub(super) drivers: Vec<Driver<'a>>,
    pub(super) edges: Vec<(u32, u32)>,
    /// Per signal: listed in `allow_unread`.
    pub(super) unread_ok: Vec<bool>,
    /// False once a connection error makes driver/reader completeness meaningless.
    pub(super) clean: bool,
    pub(super) errs: &'a mut Vec<ValidationError>,
}

pub(super) fn check(design: &Design, m: &Module, s: &Structural, errs: &mut Vec<ValidationError>) {
    let mut c = Checker {
        module: &m.name,
        table: SigTable::default(),
        driver: Vec::new(),
        read: Vec::new(),
        drivers: Vec::new(),
        edges: Vec::new(),
        unread_ok: Vec::new(),
        clean: true,
        errs,
    };
    c.declare(m, s);
    c.driver = vec![0; c.table.total_bits];
    c.read = vec![false; c.table.total_bits];
    let mut port_maps: HashMap<&str, HashMap<&str, usize>> = HashMap::new();
    for inst in &s.instances {
        let Some(target) = design.module(&inst.module) else {
            c.clean = false;
            c.errs.push(ValidationError::UndefinedModule {
                module: m.name.clone(),
                instance: inst.name.clone(),
                target: inst.module.clone(),
            });
            continue;
        };
        let pmap = port_maps.entry(&target.name).or_insert_with(|| {
            target
                .ports
                .iter()
                .enumerate()
                .map(|(i, p)| (p.name.as_str(), i))
                .collect()
        });
        c.instance(&inst.name, target, &inst.pins, pmap);
    }
    for (i, a) in s.assigns.iter().enumerate() {
        c.assign(i, &a.lhs, &a.rhs);
    }
    if c.clean {
        c.completeness();
    }
    c.loops();
}

impl<'a> Checker<'a> {
    pub(super) fn err(&mut self, e: ValidationError) {
        self.clean = false;
        self.errs.push(e);
    }

    fn declare(&mut self, m: &'a Module, s: &'a Structural) {
        for p in &m.ports {
            let kind = match p.direction {
                Direction::Input => SigKind::Input,
                Direction::Output => SigKind::Output,
            };
            // Duplicate ports are reported by the design-wide port check.
            let _ = self.table.add(&p.name, p.width, kind);
        }
        for n in &s.nets {
            self.ident("net", &n.name);
            if n.width == 0 {
                self.err(ValidationError::ZeroWidth {
                    module: self.module.to_owned(),
                    kind: "net",
                    name: n.name.clone(),
                });
            }
            if let Err(i) = self.table.add(&n.name, n.width, SigKind::Net) {
                let first = self.table.sigs[i].kind.noun();
                self.duplicate(&n.name, first, "net");
            }
        }
        let mut instances: HashMap<&str, ()> = HashMap::with_capacity(s.instances.len());
        for inst in &s.instances {
            self.ident("instance", &inst.name);
            if let Some(&i) = self.table.by_name.get(inst.name.as_str()) {
                let first = self.table.sigs[i].kind.noun();
                self.duplicate(&inst.name, first, "instance");
            } else if instances.insert(&inst.name, ()).is_some() {
                self.duplicate(&inst.name, "instance", "instance");
            }
        }
        self.unread_ok = vec![false; self.table.sigs.len()];
        for name in &s.allow_unread {
            let found = self.table.by_name.get(name.as_str()).copied();
            if let Some(i) = found.filter(|&i| self.table.sigs[i].kind != SigKind::Output) {
                self.unread_ok[i] = true;
            } else {
                self.err(ValidationError::AllowUnreadUnknown {
                    module: self.module.to_owned(),
                    name: name.clone(),
                });
            }
        }
    }

    fn ident(&mut self, kind: &'static str, name: &str) {
        if let Err(issue) = check_identifier(name) {
            self.err(ValidationError::IllegalIdentifier {
                module: self.module.to_owned(),
                kind,
                name: name.to_owned(),
                issue,
            });
        }
    }

    fn duplicate(&mut self, name: &str, first: &'static str, second: &'static str) {
        self.err(ValidationError::DuplicateName {
            module: self.module.to_owned(),
            name: name.to_owned(),
            first,
            second,
        });
    }

    fn instance(
        &mut self,
        name: &'a str,
        target: &'a Module,
        pins: &'a [Pin],
        pmap: &HashMap<&str, usize>,
    ) {
        let site = |port: &str| Site::Pin {
            instance: name.to_owned(),
            target: target.name.clone(),
            port: port.to_owned(),
        };
        let mut conn: Vec<Option<&'a Pin>> = vec![None; target.ports.len()];
        for pin in pins {
            match pmap.get(pin.port.as_str()) {
                None => self.err(ValidationError::UnknownPort {
                    module: self.module.to_owned(),
                    site: site(&pin.port),
                }),
                Some(&pi) if conn[pi].is_some() => self.err(ValidationError::PortConnectedTwice {
                    module: self.module.to_owned(),
                    site: site(&pin.port),
                }),
                Some(&pi) => conn[pi] = Some(pin),
            }
        }
        for (port, pin) in target.ports.iter().zip(conn) {
            let Some(pin) = pin else {
                self.err(ValidationError::PortUnconnected {
                    module: self.module.to_owned(),
                    site: site(&port.name),
                    direction: port.direction,
                    width: port.width,
                });
                continue;
            };
            let Some(expr) = &pin.expr else {
                if port.direction == Direction::Input {
                    self.err(ValidationError::InputOpen {
                        module: self.module.to_owned(),
                        site: site(&port.name),
                    });
                }
                continue;
            };
            let output = port.direction == Direction::Output;
            if output && !expr.is_lvalue() {
                self.err(ValidationError::NotAssignable {
                    module: self.module.to_owned(),
                    site: site(&port.name),
                    expr: expr.to_string(),
                });
                continue;
            }
            let Some(bits) = self.flatten(expr, &|| site(&port.name)) else {
                continue;
            };
            if bits.len() != port.width {
                self.err(ValidationError::PortWidthMismatch {
                    module: self.module.to_owned(),
                    site: site(&port.name),
                    port_width: port.width,
                    expr: expr.to_string(),
                    expr_width: bits.len(),
                });
            } else if output {
                self.drive(
                    &bits,
                    Driver::Pin {
                        instance: name,
                        port: &port.name,
                    },
                );
            } else {
                self.mark_read(&bits);
            }
        }
    }

    fn assign(&mut self, index: usize, lhs: &Expr, rhs: &Expr) {
        let site = || Site::Assign {
            index,
            text: format!("assign {lhs} = {rhs};"),
        };
        if !lhs.is_lvalue() {
            self.err(ValidationError::NotAssignable {
                module: self.module.to_owned(),
                site: site(),
                expr: lhs.to_string(),
            });
            return;
        }
        let (Some(l), Some(r)) = (self.flatten(lhs, &site), self.flatten(rhs, &site)) else {
            return;
        };
        if l.len() != r.len() {
            self.err(ValidationError::AssignWidthMismatch {
                module: self.module.to_owned(),
                site: site(),
                lhs_width: l.len(),
                rhs_width: r.len(),
            });
            return;
        }
        self.drive(&l, Driver::Assign(index));
        self.mark_read(&r);
        for (to, from) in l.iter().zip(&r) {
            if let (Some(to), Some(from)) = (to, from) {
                self.edges.push((*from, *to));
            }
        }
    }
}
