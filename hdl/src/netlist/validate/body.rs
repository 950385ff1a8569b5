//! Rules inside a module body (`docs/netlist.md`, "Validation"): legal and unique names;
//! every instance port connected exactly once with matching width; well-formed expressions
//! of the right widths; every bit of every wire and output port driven exactly once (by an
//! assign, a wire's value or an instance output), registers loaded only by the clocked
//! process and every bit of them loaded somewhere; inputs never driven inside; every bit
//! of every wire, register and input read (unless `allow_unread`); one clock, the input
//! `clock`, passed unchanged to instances' `clock` ports and used for nothing else; no
//! combinational loop through assigns (a signal depending on itself, even through other
//! bits: Verilator's UNOPTFLAT).

use super::bits::{ranges, SigKind, SigTable};
use super::loops::find_cycle;
use crate::netlist::design::Design;
use crate::netlist::error::{Site, ValidationError};
use crate::netlist::expr::{Expr, WidthError};
use crate::netlist::ident::check_identifier;
use crate::netlist::module::{Body, Direction, Item, Module, Pin, Stmt, CLOCK};
use std::collections::{BTreeMap, HashMap};

/// Who drives a bit.
enum Driver<'a> {
    Pin { instance: &'a str, port: &'a str },
    Assign(usize),
    Wire(&'a str),
    Comb,
}

struct Checker<'a> {
    module: &'a str,
    table: SigTable<'a>,
    /// Per global bit: 0 = undriven, else 1 + index into `drivers` (wires, outputs); for
    /// registers, 1 once loaded somewhere in the process.
    driver: Vec<u32>,
    read: Vec<bool>,
    drivers: Vec<Driver<'a>>,
    /// Signal-level dependencies of continuous logic: (read signal, driven signal).
    edges: Vec<(u32, u32)>,
    unread_ok: Vec<bool>,
    /// False once a connection error makes driver/reader completeness meaningless.
    clean: bool,
    /// Checking the combinational process: lets may target output ports too.
    in_comb: bool,
    /// The output bits the combinational process gives values.
    comb_bits: Vec<usize>,
    /// The signals the combinational process reads (for loop edges).
    comb_reads: Vec<u32>,
    errs: &'a mut Vec<ValidationError>,
}

pub(super) fn check(design: &Design, m: &Module, errs: &mut Vec<ValidationError>) {
    let mut c = Checker {
        module: &m.name,
        table: SigTable::default(),
        driver: Vec::new(),
        read: Vec::new(),
        drivers: Vec::new(),
        edges: Vec::new(),
        unread_ok: Vec::new(),
        clean: true,
        in_comb: false,
        comb_bits: Vec::new(),
        comb_reads: Vec::new(),
        errs,
    };
    c.declare(m, &m.body);
    c.driver = vec![0; c.table.total_bits];
    c.read = vec![false; c.table.total_bits];
    let mut port_maps: HashMap<&str, HashMap<&str, usize>> = HashMap::new();
    let mut assign_index = 0;
    for item in &m.body.items {
        match item {
            Item::Comment(_) | Item::Reg(_) | Item::Memory(_) => {}
            Item::Wire(net, Some(value)) => c.wire_value(&net.name, value),
            Item::Wire(_, None) => {}
            Item::Assign(a) => {
                c.assign(assign_index, &a.lhs, &a.rhs);
                assign_index += 1;
            }
            Item::Instance(inst) => {
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
        }
    }
    c.process(m);
    c.comb(m);
    if c.clean {
        c.completeness();
    }
    c.loops();
}

impl<'a> Checker<'a> {
    fn err(&mut self, e: ValidationError) {
        self.clean = false;
        self.errs.push(e);
    }

    fn declare(&mut self, m: &'a Module, body: &'a Body) {
        for p in &m.ports {
            let kind = match p.direction {
                Direction::Input => SigKind::Input,
                Direction::Output => SigKind::Output,
            };
            // Duplicate ports are reported by the design-wide port check.
            let _ = self.table.add(&p.name, p.width, kind);
        }
        let mut instances: HashMap<&str, ()> = HashMap::new();
        for item in &body.items {
            let (name, width, kind) = match item {
                Item::Wire(n, _) => (n.name.as_str(), n.width, SigKind::Net),
                Item::Reg(r) => (r.name.as_str(), r.width, SigKind::Reg),
                Item::Memory(mem) => (mem.name.as_str(), mem.width * mem.depth, SigKind::Memory),
                Item::Instance(inst) => {
                    self.ident("instance", &inst.name);
                    if let Some(&i) = self.table.by_name.get(inst.name.as_str()) {
                        let first = self.table.sigs[i].kind.noun();
                        self.duplicate(&inst.name, first, "instance");
                    } else if instances.insert(&inst.name, ()).is_some() {
                        self.duplicate(&inst.name, "instance", "instance");
                    }
                    continue;
                }
                _ => continue,
            };
            let noun = kind.noun();
            self.ident(noun, name);
            if width == 0 {
                self.err(ValidationError::ZeroWidth {
                    module: self.module.to_owned(),
                    kind: noun,
                    name: name.to_owned(),
                });
            }
            if instances.contains_key(name) {
                self.duplicate(name, "instance", noun);
            } else if let Err(i) = self.table.add(name, width, kind) {
                let first = self.table.sigs[i].kind.noun();
                self.duplicate(name, first, noun);
            }
        }
        for t in body.temps.iter().chain(&body.comb_temps) {
            self.ident("temporary", &t.name);
            if t.width == 0 {
                self.err(ValidationError::ZeroWidth {
                    module: self.module.to_owned(),
                    kind: "temporary",
                    name: t.name.clone(),
                });
            }
            if instances.contains_key(t.name.as_str()) {
                self.duplicate(&t.name, "instance", "temporary");
            } else if let Err(i) = self.table.add(&t.name, t.width, SigKind::Temp) {
                let first = self.table.sigs[i].kind.noun();
                self.duplicate(&t.name, first, "temporary");
            }
        }
        self.unread_ok = vec![false; self.table.sigs.len()];
        for name in &body.allow_unread {
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

    fn kind(&self, name: &str) -> Option<SigKind> {
        self.table
            .by_name
            .get(name)
            .map(|&i| self.table.sigs[i].kind)
    }

    /// The width of `e`, or an error at `site`. A memory is only ever named by a word
    /// (`mem[i]`), and only a memory has words.
    fn width(&mut self, e: &Expr, site: &dyn Fn() -> Site) -> Option<usize> {
        let mut misuse = Vec::new();
        memory_uses(e, &mut |name, word| {
            if (self.kind(name) == Some(SigKind::Memory)) != word {
                misuse.push((name.to_owned(), word));
            }
        });
        if let Some((name, word)) = misuse.into_iter().next() {
            self.err(ValidationError::MemoryUse {
                module: self.module.to_owned(),
                site: site(),
                name,
                problem: if word {
                    "only a memory has words (`name[index]` of a memory)"
                } else {
                    "a memory is read and written a word at a time, `name[index]`"
                },
            });
            return None;
        }
        let table = &self.table;
        let width_of = |n: &str| table.by_name.get(n).map(|&i| table.sigs[i].width);
        match e.width(&width_of) {
            Ok(w) => Some(w),
            Err(problem) => {
                self.err(ValidationError::BadExpr {
                    module: self.module.to_owned(),
                    site: site(),
                    expr: e.to_string(),
                    problem,
                });
                None
            }
        }
    }

    /// Marks every bit `e` reads; reading the clock here is an error (a derived clock).
    fn read_expr(&mut self, e: &Expr, site: &dyn Fn() -> Site) {
        let mut bits: Vec<(usize, usize)> = Vec::new();
        let mut clock = false;
        collect_reads(e, &self.table, &mut bits, &mut clock);
        if clock {
            self.err(ValidationError::DerivedClock {
                module: self.module.to_owned(),
                site: site(),
            });
        }
        for (lo, hi) in bits {
            self.read[lo..hi].iter_mut().for_each(|r| *r = true);
        }
    }

    /// The signals `e` reads (for loop edges).
    fn read_signals(&self, e: &Expr) -> Vec<u32> {
        let mut out = Vec::new();
        e.for_each_signal(&mut |s| {
            if let Some(&i) = self.table.by_name.get(s) {
                out.push(i as u32);
            }
        });
        out
    }

    /// The global bits of an lvalue (signals, slices, concatenations), least significant
    /// first; `None` if it is not one (already reported by the width check).
    fn lvalue_bits(&self, e: &Expr) -> Option<Vec<usize>> {
        match e {
            Expr::Signal(s) => {
                let sig = &self.table.sigs[*self.table.by_name.get(s.as_str())?];
                Some((sig.offset..sig.offset + sig.width).collect())
            }
            Expr::Slice { signal, msb, lsb } => {
                let sig = &self.table.sigs[*self.table.by_name.get(signal.as_str())?];
                Some((sig.offset + lsb..=sig.offset + msb).collect())
            }
            Expr::Concat(parts) => {
                let mut bits = Vec::new();
                for p in parts.iter().rev() {
                    bits.extend(self.lvalue_bits(p)?);
                }
                Some(bits)
            }
            _ => None,
        }
    }

    fn wire_value(&mut self, name: &'a str, value: &Expr) {
        let site = || Site::Wire {
            name: name.to_owned(),
        };
        let Some(w) = self.width(value, &site) else {
            return;
        };
        let Some(&i) = self.table.by_name.get(name) else {
            return;
        };
        let (offset, width) = (self.table.sigs[i].offset, self.table.sigs[i].width);
        if w != width {
            self.err(ValidationError::AssignWidthMismatch {
                module: self.module.to_owned(),
                site: site(),
                lhs_width: width,
                rhs_width: w,
            });
            return;
        }
        self.read_expr(value, &site);
        let bits: Vec<usize> = (offset..offset + width).collect();
        self.drive(&bits, Driver::Wire(name));
        for from in self.read_signals(value) {
            self.edges.push((from, i as u32));
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
        let (Some(l), Some(r)) = (self.width(lhs, &site), self.width(rhs, &site)) else {
            return;
        };
        if l != r {
            self.err(ValidationError::AssignWidthMismatch {
                module: self.module.to_owned(),
                site: site(),
                lhs_width: l,
                rhs_width: r,
            });
            return;
        }
        self.read_expr(rhs, &site);
        let bits = self.lvalue_bits(lhs).unwrap_or_default();
        self.drive(&bits, Driver::Assign(index));
        let targets = self.read_signals(lhs);
        for from in self.read_signals(rhs) {
            for &to in &targets {
                self.edges.push((from, to));
            }
        }
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
            let Some(w) = self.width(expr, &|| site(&port.name)) else {
                continue;
            };
            if w != port.width {
                self.err(ValidationError::PortWidthMismatch {
                    module: self.module.to_owned(),
                    site: site(&port.name),
                    port_width: port.width,
                    expr: expr.to_string(),
                    expr_width: w,
                });
            } else if output {
                let bits = self.lvalue_bits(expr).unwrap_or_default();
                self.drive(
                    &bits,
                    Driver::Pin {
                        instance: name,
                        port: &port.name,
                    },
                );
            } else if port.name == CLOCK {
                // The clock goes to instances unchanged, and to nothing else.
                if *expr == Expr::sig(CLOCK) && self.kind(CLOCK) == Some(SigKind::Input) {
                    let i = self.table.by_name[CLOCK];
                    let off = self.table.sigs[i].offset;
                    self.read[off] = true;
                } else {
                    self.err(ValidationError::ClockPin {
                        module: self.module.to_owned(),
                        site: site(&port.name),
                        expr: expr.to_string(),
                    });
                }
            } else {
                self.read_expr(expr, &|| site(&port.name));
            }
        }
    }

    fn process(&mut self, m: &'a Module) {
        let has_regs = m.body.regs().next().is_some();
        if m.body.process.is_empty() && !has_regs && m.body.temps.is_empty() {
            return;
        }
        if !matches!(m.port(CLOCK), Some(p) if p.direction == Direction::Input && p.width == 1) {
            self.err(ValidationError::NoClock {
                module: self.module.to_owned(),
            });
            return;
        }
        let i = self.table.by_name[CLOCK];
        let off = self.table.sigs[i].offset;
        self.read[off] = true;
        let mut n = 0;
        let mut loops = Vec::new();
        self.stmts(&m.body.process, &mut n, &mut loops);
    }

    /// The combinational process: lets of temporaries and output ports (each output it
    /// drives is driven by it alone), no loads.
    fn comb(&mut self, m: &'a Module) {
        if m.body.comb.is_empty() {
            return;
        }
        self.in_comb = true;
        let mut n = 0;
        let mut loops = Vec::new();
        self.stmts(&m.body.comb, &mut n, &mut loops);
        self.in_comb = false;
        let mut bits = std::mem::take(&mut self.comb_bits);
        bits.sort_unstable();
        bits.dedup();
        let outs: Vec<u32> = {
            let mut o: Vec<u32> = bits.iter().map(|&b| self.table.owner(b) as u32).collect();
            o.dedup();
            o
        };
        self.drive(&bits, Driver::Comb);
        let reads = std::mem::take(&mut self.comb_reads);
        for &from in &reads {
            for &to in &outs {
                self.edges.push((from, to));
            }
        }
    }

    fn stmts(&mut self, stmts: &[Stmt], n: &mut usize, loops: &mut Vec<String>) {
        for s in stmts {
            *n += 1;
            let index = *n;
            let site = || Site::Process {
                index,
                text: stmt_text(s),
            };
            match s {
                Stmt::Comment(_) => {}
                Stmt::Load { target, .. } if self.in_comb => {
                    self.err(ValidationError::NotAssignable {
                        module: self.module.to_owned(),
                        site: site(),
                        expr: format!("{target} (a `<=` in the combinational process)"),
                    });
                }
                Stmt::Load { target, value } => {
                    self.loop_vars(target, loops, &site);
                    self.loop_vars(value, loops, &site);
                    self.load(target, value, &site, SigKind::Reg)
                }
                Stmt::Let { target, value } => {
                    self.loop_vars(target, loops, &site);
                    self.loop_vars(value, loops, &site);
                    self.load(target, value, &site, SigKind::Temp)
                }
                Stmt::For { var, body, .. } => {
                    if loops.contains(var) {
                        self.err(ValidationError::LoopVarReused {
                            module: self.module.to_owned(),
                            site: site(),
                            var: var.clone(),
                        });
                    }
                    loops.push(var.clone());
                    self.stmts(body, n, loops);
                    loops.pop();
                }
                Stmt::If { cond, then, els } => {
                    if self.in_comb {
                        let r = self.read_signals(cond);
                        self.comb_reads.extend(r);
                    }
                    if let Some(w) = self.width(cond, &site) {
                        if w != 1 {
                            self.err(ValidationError::BadExpr {
                                module: self.module.to_owned(),
                                site: site(),
                                expr: cond.to_string(),
                                problem: WidthError::Condition(w),
                            });
                        }
                        self.read_expr(cond, &site);
                    }
                    self.stmts(then, n, loops);
                    self.stmts(els, n, loops);
                }
                Stmt::Case {
                    subject,
                    arms,
                    default,
                } => {
                    if let Some(w) = self.width(subject, &site) {
                        self.read_expr(subject, &site);
                        for (values, body) in arms {
                            for &v in values {
                                if w < 64 && v >> w != 0 {
                                    self.err(ValidationError::BadExpr {
                                        module: self.module.to_owned(),
                                        site: site(),
                                        expr: format!("case value {v}"),
                                        problem: WidthError::BadConst {
                                            text: v.to_string(),
                                            width: w,
                                        },
                                    });
                                }
                            }
                            self.stmts(body, n, loops);
                        }
                    }
                    self.stmts(default, n, loops);
                }
            }
        }
    }

    /// Every loop variable `e` uses must belong to an enclosing `for`.
    fn loop_vars(&mut self, e: &Expr, loops: &[String], site: &dyn Fn() -> Site) {
        let mut bad = Vec::new();
        each_loop_var(e, &mut |v| {
            if !loops.iter().any(|l| l == v) {
                bad.push(v.to_owned());
            }
        });
        for var in bad {
            self.err(ValidationError::LoopVarOutside {
                module: self.module.to_owned(),
                site: site(),
                var,
            });
        }
    }

    /// A load (`<=`, of a register) or a let (`=`, of a temporary), as `kind` says.
    fn load(&mut self, target: &Expr, value: &Expr, site: &dyn Fn() -> Site, kind: SigKind) {
        if !target.is_register_target() {
            self.err(ValidationError::NotAssignable {
                module: self.module.to_owned(),
                site: site(),
                expr: target.to_string(),
            });
            return;
        }
        let (Some(l), Some(r)) = (self.width(target, site), self.width(value, site)) else {
            return;
        };
        if l != r {
            self.err(ValidationError::AssignWidthMismatch {
                module: self.module.to_owned(),
                site: site(),
                lhs_width: l,
                rhs_width: r,
            });
            return;
        }
        self.read_expr(value, site);
        if self.in_comb {
            let mut r = self.read_signals(value);
            if let Expr::Part { terms, .. } = target {
                for (t, _) in terms {
                    r.extend(self.read_signals(t));
                }
            }
            self.comb_reads.extend(r);
        }
        let bits = match target {
            Expr::Row { signal, index, .. }
            | Expr::Word {
                memory: signal,
                index,
                ..
            } => {
                self.read_expr(index, site);
                self.lvalue_bits(&Expr::sig(signal.as_str()))
            }
            Expr::Part { signal, terms, .. } => {
                for (t, _) in terms {
                    self.read_expr(t, site);
                }
                self.lvalue_bits(&Expr::sig(signal.as_str()))
            }
            t => self.lvalue_bits(t),
        }
        .unwrap_or_default();
        let kind = if matches!(target, Expr::Word { .. }) {
            SigKind::Memory
        } else {
            kind
        };
        let mut wrong: Vec<&str> = Vec::new();
        for &b in &bits {
            let sig = &self.table.sigs[self.table.owner(b)];
            if sig.kind == kind {
                self.driver[b] = 1;
            } else if self.in_comb && sig.kind == SigKind::Output {
                self.comb_bits.push(b);
            } else if !wrong.contains(&sig.name) {
                wrong.push(sig.name);
            }
        }
        for name in wrong {
            let found = self.kind(name).map_or("signal", SigKind::noun);
            self.err(ValidationError::LoadsNonRegister {
                module: self.module.to_owned(),
                site: site(),
                name: name.to_owned(),
                kind: found,
                expected: kind.noun(),
            });
        }
    }

    fn drive(&mut self, bits: &[usize], driver: Driver<'a>) {
        self.drivers.push(driver);
        let id = self.drivers.len() as u32;
        let mut wrong: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        let mut twice: BTreeMap<(usize, u32), Vec<usize>> = BTreeMap::new();
        for &b in bits {
            let sig = self.table.owner(b);
            let bit = b - self.table.sigs[sig].offset;
            if matches!(
                self.table.sigs[sig].kind,
                SigKind::Input | SigKind::Reg | SigKind::Temp
            ) {
                wrong.entry(sig).or_default().push(bit);
            } else if self.driver[b] != 0 {
                twice.entry((sig, self.driver[b])).or_default().push(bit);
            } else {
                self.driver[b] = id;
            }
        }
        for (sig, bits) in wrong {
            let s = &self.table.sigs[sig];
            self.err(ValidationError::DrivesInput {
                module: self.module.to_owned(),
                kind: s.kind.noun(),
                port: s.name.to_owned(),
                bits: ranges(&bits),
                driver: self.describe(id),
            });
        }
        for ((sig, first), bits) in twice {
            let s = &self.table.sigs[sig];
            self.err(ValidationError::MultipleDrivers {
                module: self.module.to_owned(),
                kind: s.kind.noun(),
                name: s.name.to_owned(),
                bits: ranges(&bits),
                first: self.describe(first),
                second: self.describe(id),
            });
        }
    }

    fn describe(&self, id: u32) -> String {
        match &self.drivers[id as usize - 1] {
            Driver::Pin { instance, port } => format!("instance `{instance}` port `{port}`"),
            Driver::Assign(i) => format!("assign #{i}"),
            Driver::Wire(name) => format!("the value of wire `{name}`"),
            Driver::Comb => "the combinational process".to_string(),
        }
    }

    fn completeness(&mut self) {
        let mut found = Vec::new();
        for (i, sig) in self.table.sigs.iter().enumerate() {
            let bits = sig.offset..sig.offset + sig.width;
            if sig.kind != SigKind::Input {
                let undriven: Vec<usize> = bits
                    .clone()
                    .filter(|&b| self.driver[b] == 0)
                    .map(|b| b - sig.offset)
                    .collect();
                if !undriven.is_empty() {
                    found.push(ValidationError::Undriven {
                        module: self.module.to_owned(),
                        kind: sig.kind.noun(),
                        name: sig.name.to_owned(),
                        width: sig.width,
                        bits: ranges(&undriven),
                    });
                }
            }
            if sig.kind != SigKind::Output && !self.unread_ok[i] {
                let unread: Vec<usize> = bits
                    .filter(|&b| !self.read[b])
                    .map(|b| b - sig.offset)
                    .collect();
                if !unread.is_empty() {
                    found.push(ValidationError::Unread {
                        module: self.module.to_owned(),
                        kind: sig.kind.noun(),
                        name: sig.name.to_owned(),
                        width: sig.width,
                        bits: ranges(&unread),
                    });
                }
            }
        }
        self.errs.extend(found);
    }

    fn loops(&mut self) {
        if let Some(cycle) = find_cycle(self.table.sigs.len(), &self.edges) {
            let path = cycle
                .into_iter()
                .map(|s| self.table.sigs[s].name.to_owned())
                .collect();
            self.errs.push(ValidationError::CombinationalLoop {
                module: self.module.to_owned(),
                path,
            });
        }
    }
}

/// The bit ranges `[lo, hi)` of the module's bit space that `e` reads; sets `clock` if it
/// reads the clock.
fn collect_reads(e: &Expr, table: &SigTable<'_>, out: &mut Vec<(usize, usize)>, clock: &mut bool) {
    let whole = |s: &str, out: &mut Vec<(usize, usize)>, clock: &mut bool| {
        if s == CLOCK {
            *clock = true;
        }
        if let Some(&i) = table.by_name.get(s) {
            let sig = &table.sigs[i];
            out.push((sig.offset, sig.offset + sig.width));
        }
    };
    match e {
        Expr::Signal(s) => whole(s, out, clock),
        Expr::Slice { signal, msb, lsb } => {
            if signal == CLOCK {
                *clock = true;
            }
            if let Some(&i) = table.by_name.get(signal.as_str()) {
                let off = table.sigs[i].offset;
                out.push((off + lsb, off + msb + 1));
            }
        }
        Expr::Row { signal, index, .. }
        | Expr::Word {
            memory: signal,
            index,
            ..
        } => {
            whole(signal, out, clock);
            collect_reads(index, table, out, clock);
        }
        Expr::Part { signal, terms, .. } => {
            whole(signal, out, clock);
            for (t, _) in terms {
                collect_reads(t, table, out, clock);
            }
        }
        Expr::Const { .. } | Expr::LoopVar(_) => {}
        Expr::Concat(parts) => parts
            .iter()
            .for_each(|p| collect_reads(p, table, out, clock)),
        Expr::Repeat { expr, .. } | Expr::Unary { arg: expr, .. } => {
            collect_reads(expr, table, out, clock)
        }
        Expr::Binary { lhs, rhs, .. } => {
            collect_reads(lhs, table, out, clock);
            collect_reads(rhs, table, out, clock);
        }
        Expr::Mux { cond, then, els } => {
            collect_reads(cond, table, out, clock);
            collect_reads(then, table, out, clock);
            collect_reads(els, table, out, clock);
        }
    }
}

/// Calls `f(name, is_word)` on every signal `e` names: words of memories with `true`, the
/// rest (whole signals, slices, rows, parts) with `false`.
fn memory_uses<'e>(e: &'e Expr, f: &mut impl FnMut(&'e str, bool)) {
    match e {
        Expr::Word { memory, index, .. } => {
            f(memory, true);
            memory_uses(index, f);
        }
        Expr::Signal(s) | Expr::Slice { signal: s, .. } => f(s, false),
        Expr::Row { signal, index, .. } => {
            f(signal, false);
            memory_uses(index, f);
        }
        Expr::Part { signal, terms, .. } => {
            f(signal, false);
            terms.iter().for_each(|(t, _)| memory_uses(t, f));
        }
        Expr::Const { .. } | Expr::LoopVar(_) => {}
        Expr::Concat(parts) => parts.iter().for_each(|p| memory_uses(p, f)),
        Expr::Repeat { expr, .. } | Expr::Unary { arg: expr, .. } => memory_uses(expr, f),
        Expr::Binary { lhs, rhs, .. } => {
            memory_uses(lhs, f);
            memory_uses(rhs, f);
        }
        Expr::Mux { cond, then, els } => {
            memory_uses(cond, f);
            memory_uses(then, f);
            memory_uses(els, f);
        }
    }
}

/// Calls `f` on every loop variable in `e`.
fn each_loop_var<'e>(e: &'e Expr, f: &mut impl FnMut(&'e str)) {
    match e {
        Expr::LoopVar(v) => f(v),
        Expr::Part { terms, .. } => terms.iter().for_each(|(t, _)| each_loop_var(t, f)),
        Expr::Row { index, .. } | Expr::Word { index, .. } => each_loop_var(index, f),
        Expr::Concat(parts) => parts.iter().for_each(|p| each_loop_var(p, f)),
        Expr::Repeat { expr, .. } | Expr::Unary { arg: expr, .. } => each_loop_var(expr, f),
        Expr::Binary { lhs, rhs, .. } => {
            each_loop_var(lhs, f);
            each_loop_var(rhs, f);
        }
        Expr::Mux { cond, then, els } => {
            each_loop_var(cond, f);
            each_loop_var(then, f);
            each_loop_var(els, f);
        }
        Expr::Signal(_) | Expr::Slice { .. } | Expr::Const { .. } => {}
    }
}

/// A statement as one line of text, for messages.
fn stmt_text(s: &Stmt) -> String {
    match s {
        Stmt::Load { target, value } => format!("{target} <= {value};"),
        Stmt::Let { target, value } => format!("{target} = {value};"),
        Stmt::For { var, count, .. } => {
            format!("for ({var} = 0; {var} < {count}; {var} = {var} + 1)")
        }
        Stmt::If { cond, .. } => format!("if ({cond})"),
        Stmt::Case { subject, .. } => format!("case ({subject})"),
        Stmt::Comment(c) => format!("// {c}"),
    }
}
