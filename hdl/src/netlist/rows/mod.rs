//! [`replicate`]: a block as `count` rows of one module — the same logic written once, in a
//! `for` loop over the rows, instead of `count` instances.
//!
//! Why: Verilator elaborates every instance's copy of a module's logic before it merges
//! identical code, so its time and memory grow with instances × logic (a network of 5,120
//! LCA switches needed 142 s and 5.5 GB to verilate). A loop over rows is one copy of the
//! logic: the same 512 switches verilate in 0.4 s and 32 MB instead of 8.6 s and 561 MB,
//! and run faster (`docs/decisions/word-level-rtl.md`). The rows are the instances they
//! replace: row `j` is the block's instance `j`, bit for bit.
//!
//! The transformation, on a block without instances:
//! - a port listed as shared (`clock`, broadcast control, constants common to all rows)
//!   stays as it is; every other port becomes `count` rows: `p[j*w +: w]` is row `j`'s `p`;
//! - every register becomes `count` rows of itself (power-up values repeated);
//! - every wire becomes a temporary of the process, given its value at the start of each
//!   pass of the loop, in dependency order (a wire reads registers and inputs of its own
//!   row, so the value is the one the instance's wire would have);
//! - the process becomes `for (j = 0; j < count; j = j + 1) begin <wires> <process> end`,
//!   every register and row port read or loaded at row `j`;
//! - each output port that is wiring of registers and inputs (a registered output) is
//!   assigned row by row with static slices, unless some output is logic:
//! - each output port that is logic (it reads wires, as the PE interface's `pend_next`,
//!   `hot`, `bad`, `dup` read the strobes and the down-wire) is computed in a second loop
//!   over the rows, the module's combinational process (`always @* begin : outputs`): the
//!   wires it reads, as temporaries of that process (named `<wire>_o`), then row `j`'s
//!   value of each output (the registered ones too: one loop, not `count` assigns each).
//!   An output may be laid out **bit-major** instead of by row (bit `b` of row `j` at
//!   `b·count + j`; [`replicate_with`]), so that a reader that reduces each bit over the
//!   rows (the controller's `|hot[k*n +: n]`) gets its vector without a transposition.
//!
//! Two refinements keep the loop from doing work the instances' values do not need:
//! - registers and wires computed only from the shared ports ([`uniform`]: the same in every
//!   row) are kept once, not as rows, and computed once per clock edge before the loop;
//! - each remaining wire is computed in the innermost branch that reads it ([`sink`]), so a
//!   branch not taken costs none of its wires.

mod sink;
mod uniform;

use super::expr::Expr;
use super::module::{Assign, Body, Direction, Item, Module, Net, Port, Reg, Stmt};
use std::collections::{BTreeMap, BTreeSet};

/// Why a block cannot be replicated as rows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot replicate `{module}` as rows: {what}")]
pub struct RowsError {
    /// The block.
    pub module: String,
    /// The reason.
    pub what: String,
}

/// The loop variable of the rows.
pub const ROW: &str = "j";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Shared port: the same for every row.
    Shared,
    /// A register or a port of each row: `width` bits per row.
    Row(usize),
    /// A wire, now a temporary.
    Temp,
    /// A register the same in every row ([`uniform`]): kept once.
    Uniform,
}

struct Rows<'a> {
    module: &'a str,
    kinds: BTreeMap<String, Kind>,
    temps: Vec<Net>,
    made: usize,
    /// While the combinational process is written: the names of its temporaries.
    rename: BTreeMap<String, String>,
}

/// The name of wire `w` as a temporary of the combinational process.
fn comb_temp(w: &str) -> String {
    format!("{w}_o")
}

/// `module` replicated as `count` rows in a module named `name`; the ports in `shared`
/// are common to every row (`clock` always is). The registers in `observed` stay rows even
/// when they are the same in every row (signals read by name from outside, such as the
/// crosspoints a co-simulation compares).
pub fn replicate(
    module: &Module,
    count: usize,
    shared: &[&str],
    observed: &[&str],
    name: &str,
) -> Result<Module, RowsError> {
    replicate_with(module, count, shared, observed, &[], name)
}

/// [`replicate`], with the output ports in `bit_major` laid out bit-major: bit `b` of row
/// `j` at bit `b·count + j` of the port (instead of `j·w + b`). Such outputs are computed in
/// the combinational process.
pub fn replicate_with(
    module: &Module,
    count: usize,
    shared: &[&str],
    observed: &[&str],
    bit_major: &[&str],
    name: &str,
) -> Result<Module, RowsError> {
    let err = |what: String| RowsError {
        module: module.name.clone(),
        what,
    };
    if count < 2 {
        // One row is the block itself; Verilog cannot select a part of a one-bit register.
        return Err(err(format!("{count} rows (replicate two or more)")));
    }
    let mut r = Rows {
        module: &module.name,
        kinds: BTreeMap::new(),
        temps: Vec::new(),
        made: 0,
        rename: BTreeMap::new(),
    };
    let mut ports = Vec::with_capacity(module.ports.len());
    for p in &module.ports {
        if p.name == super::CLOCK || shared.contains(&p.name.as_str()) {
            r.kinds.insert(p.name.clone(), Kind::Shared);
            ports.push(p.clone());
        } else {
            r.kinds.insert(p.name.clone(), Kind::Row(p.width));
            ports.push(Port {
                width: p.width * count,
                ..p.clone()
            });
        }
    }
    let shared_set: BTreeSet<&str> = module
        .ports
        .iter()
        .filter(|p| r.kinds.get(&p.name) == Some(&Kind::Shared))
        .map(|p| p.name.as_str())
        .collect();
    let mut uni = uniform::uniform(module, &shared_set);
    for o in observed {
        uni.remove(*o);
    }
    let mut body = Body {
        allow_unread: module.body.allow_unread.clone(),
        ..Body::default()
    };
    // Wires (in declaration order), their drivers, and the comment that titles each.
    let mut wire_order: Vec<&str> = Vec::new();
    let mut wire_drivers: BTreeMap<&str, Vec<(Expr, &Expr)>> = BTreeMap::new();
    let mut titles: BTreeMap<&str, String> = BTreeMap::new();
    // Output assigns, by their index among the module's items.
    let mut out_assigns: Vec<(usize, &Assign)> = Vec::new();
    // The comment titling each assign (by its item index): its position among the
    // declarations; it moves into the combinational process with an output computed there.
    let mut assign_titles: BTreeMap<usize, usize> = BTreeMap::new();
    let mut pending: Option<&String> = None;
    for (index, item) in module.body.items.iter().enumerate() {
        // A comment titles the next declaration: a register's stays among the
        // declarations, a wire's moves into the loop with the wire.
        match (item, pending.take()) {
            (Item::Comment(c), prev) => {
                if let Some(p) = prev {
                    body.items.push(Item::Comment(p.clone()));
                }
                pending = Some(c);
                continue;
            }
            (Item::Wire(net, _), Some(c)) => {
                titles.insert(&net.name, c.clone());
            }
            (Item::Assign(_), Some(c)) => {
                assign_titles.insert(index, body.items.len());
                body.items.push(Item::Comment(c.clone()));
            }
            (_, Some(c)) => body.items.push(Item::Comment(c.clone())),
            (_, None) => {}
        }
        match item {
            Item::Comment(_) => unreachable!("handled above"),
            Item::Reg(reg) if uni.contains(&reg.name) => {
                r.kinds.insert(reg.name.clone(), Kind::Uniform);
                body.items.push(Item::Reg(reg.clone()));
            }
            Item::Reg(reg) => {
                r.kinds.insert(reg.name.clone(), Kind::Row(reg.width));
                body.items.push(Item::Reg(Reg {
                    name: reg.name.clone(),
                    width: reg.width * count,
                    init: tile(&reg.init, reg.width, count),
                }));
            }
            Item::Wire(net, value) => {
                wire_order.push(&net.name);
                r.kinds.insert(net.name.clone(), Kind::Temp);
                r.temps.push(net.clone());
                let drivers = wire_drivers.entry(&net.name).or_default();
                if let Some(v) = value {
                    drivers.push((Expr::sig(net.name.as_str()), v));
                }
            }
            Item::Assign(a) => {
                let mut targets = BTreeSet::new();
                a.lhs.for_each_signal(&mut |s| {
                    targets.insert(s);
                });
                let port_target = targets.iter().any(|t| {
                    module
                        .port(t)
                        .is_some_and(|p| p.direction == Direction::Output)
                });
                if port_target {
                    out_assigns.push((index, a));
                } else {
                    let t = targets
                        .first()
                        .copied()
                        .ok_or_else(|| err("an assign without a target".into()))?;
                    if targets.len() != 1 {
                        return Err(err(format!(
                            "`assign {} = …` drives several wires at once",
                            a.lhs
                        )));
                    }
                    wire_drivers
                        .entry(t)
                        .or_default()
                        .push((a.lhs.clone(), &a.rhs));
                }
            }
            Item::Instance(i) => {
                return Err(err(format!(
                    "it has an instance (`{}`); only blocks without instances are replicated",
                    i.name
                )))
            }
            Item::Memory(mem) => {
                return Err(err(format!(
                    "it has a memory (`{}`); only blocks without memories are replicated",
                    mem.name
                )))
            }
        }
    }
    let order = dependency_order(&wire_order, &wire_drivers).map_err(err)?;
    // Outputs that are wiring are assigned row by row; the others (and the bit-major ones)
    // are the combinational process's, and once there is one, every output is computed
    // in it: one loop instead of `count` assigns per output.
    let (mut static_outs, mut comb_outs): (Vec<_>, Vec<_>) =
        out_assigns.into_iter().partition(|(_, a)| {
            let port_of = |e: &Expr| match e {
                Expr::Signal(s) => bit_major.contains(&s.as_str()),
                _ => false,
            };
            !port_of(&a.lhs) && r.static_row(&a.rhs, 0).is_ok()
        });
    if !comb_outs.is_empty() {
        comb_outs.splice(0..0, static_outs.drain(..));
    }
    let mut out_titles: BTreeMap<usize, String> = BTreeMap::new();
    let mut moved: Vec<usize> = Vec::new();
    for (index, _) in &comb_outs {
        if let Some(&at) = assign_titles.get(index) {
            if let Item::Comment(c) = &body.items[at] {
                out_titles.insert(*index, c.clone());
                moved.push(at);
            }
        }
    }
    moved.sort_unstable();
    for at in moved.into_iter().rev() {
        body.items.remove(at);
    }
    // The wires each process needs (a wire only the outputs read is not computed in the
    // clocked loop).
    let wire_closure = |roots: Vec<String>| -> BTreeSet<String> {
        let mut need = BTreeSet::new();
        let mut stack = roots;
        while let Some(w) = stack.pop() {
            if !wire_drivers.contains_key(w.as_str()) || !need.insert(w.clone()) {
                continue;
            }
            for (t, v) in &wire_drivers[w.as_str()] {
                t.for_each_signal(&mut |s| stack.push(s.to_owned()));
                v.for_each_signal(&mut |s| stack.push(s.to_owned()));
            }
        }
        need
    };
    let mut comb_roots = Vec::new();
    for (_, a) in &comb_outs {
        a.rhs
            .for_each_signal(&mut |s| comb_roots.push(s.to_owned()));
    }
    let comb_need = wire_closure(comb_roots);
    let mut clocked_roots = Vec::new();
    Stmt::for_each_signal(&module.body.process, &mut |s| {
        clocked_roots.push(s.to_owned())
    });
    let clocked_need = wire_closure(clocked_roots);
    let dropped: BTreeSet<&str> = wire_order
        .iter()
        .copied()
        .filter(|w| comb_need.contains(*w) && !clocked_need.contains(*w))
        .collect();
    r.temps.retain(|t| !dropped.contains(t.name.as_str()));
    body.allow_unread.retain(|n| !dropped.contains(n.as_str()));
    // Once per clock edge: the uniform wires, then the loads of uniform registers.
    let mut once = Vec::new();
    // Per row: each other wire's statements (placed by `sink`), then the process.
    let mut lets: Vec<(String, Vec<Stmt>)> = Vec::new();
    for w in order.iter().copied().filter(|w| !dropped.contains(w)) {
        let stmts = r
            .wire_stmts(w, &wire_drivers, &titles, false)
            .map_err(err)?;
        if uni.contains(w) {
            once.extend(stmts);
        } else {
            lets.push((w.to_owned(), stmts));
        }
    }
    let is_uniform = |name: &str| uni.contains(name);
    for s in uniform::filter(&module.body.process, &is_uniform) {
        once.extend(r.stmt(&s).map_err(err)?);
    }
    let mut rest = Vec::new();
    for s in uniform::filter(&module.body.process, &|name| !is_uniform(name)) {
        rest.extend(r.stmt(&s).map_err(err)?);
    }
    let mut pass = vec![Stmt::Comment(format!(
        "Row {ROW} is instance {ROW} of {}: its wires where they are read, its registers",
        module.name
    ))];
    pass.extend(sink::place_all(rest, lets));
    let (comb, comb_temps) = r
        .comb_process(
            module,
            count,
            &order,
            &comb_need,
            &wire_drivers,
            &titles,
            &uni,
            &comb_outs,
            &out_titles,
            bit_major,
        )
        .map_err(err)?;
    for t in &comb_temps {
        if let Some(w) = t.name.strip_suffix("_o") {
            if module.body.allow_unread.contains(w) {
                body.allow_unread.insert(t.name.clone());
            }
        }
    }
    for (_, a) in static_outs {
        for j in 0..count {
            let lhs = r.static_row(&a.lhs, j).map_err(err)?;
            let rhs = r.static_row(&a.rhs, j).map_err(err)?;
            body.items.push(Item::Assign(Assign { lhs, rhs }));
        }
    }
    if !once.is_empty() {
        once.insert(
            0,
            Stmt::Comment("The same in every row: computed once".into()),
        );
    }
    once.push(Stmt::For {
        var: ROW.into(),
        count,
        body: pass,
    });
    body.process = once;
    body.temps = r.temps;
    body.comb = comb;
    body.comb_temps = comb_temps;
    Ok(Module {
        name: name.to_owned(),
        ports,
        body,
    })
}

/// `init` (a `width`-bit value) repeated `count` times.
fn tile(init: &[u64], width: usize, count: usize) -> Vec<u64> {
    if init.iter().all(|&w| w == 0) {
        return Vec::new();
    }
    let mut out = vec![0u64; (width * count).div_ceil(64)];
    for j in 0..count {
        for i in 0..width {
            if super::expr::word_bit(init, i) {
                let b = j * width + i;
                out[b / 64] |= 1 << (b % 64);
            }
        }
    }
    out
}

/// Wires in an order where each comes after every wire its drivers read, otherwise in
/// declaration order.
fn dependency_order<'a>(
    declared: &[&'a str],
    drivers: &BTreeMap<&'a str, Vec<(Expr, &Expr)>>,
) -> Result<Vec<&'a str>, String> {
    let mut order = Vec::new();
    let mut state: BTreeMap<&str, u8> = BTreeMap::new();
    fn visit<'a>(
        w: &'a str,
        drivers: &BTreeMap<&'a str, Vec<(Expr, &Expr)>>,
        state: &mut BTreeMap<&'a str, u8>,
        order: &mut Vec<&'a str>,
    ) -> Result<(), String> {
        match state.get(w) {
            Some(2) => return Ok(()),
            Some(1) => return Err(format!("wire `{w}` depends on itself")),
            _ => {}
        }
        state.insert(w, 1);
        let mut deps = Vec::new();
        for (_, v) in drivers.get(w).into_iter().flatten() {
            v.for_each_signal(&mut |s| deps.push(s.to_owned()));
        }
        for d in deps {
            if let Some((&k, _)) = drivers.get_key_value(d.as_str()) {
                if k != w {
                    visit(k, drivers, state, order)?;
                }
            }
        }
        state.insert(w, 2);
        order.push(w);
        Ok(())
    }
    for &w in declared {
        visit(w, drivers, &mut state, &mut order)?;
    }
    Ok(order)
}

impl Rows<'_> {
    /// The combinational process computing the outputs `outs` (logic of the row's wires)
    /// and its temporaries: the wires in `need` (uniform ones once, before the loop), then
    /// every row's value of each output.
    #[allow(clippy::too_many_arguments)]
    fn comb_process(
        &mut self,
        module: &Module,
        count: usize,
        order: &[&str],
        need: &BTreeSet<String>,
        drivers: &BTreeMap<&str, Vec<(Expr, &Expr)>>,
        titles: &BTreeMap<&str, String>,
        uni: &BTreeSet<String>,
        outs: &[(usize, &Assign)],
        out_titles: &BTreeMap<usize, String>,
        bit_major: &[&str],
    ) -> Result<(Vec<Stmt>, Vec<Net>), String> {
        if outs.is_empty() {
            return Ok((Vec::new(), Vec::new()));
        }
        let first_made = self.temps.len();
        let mut temps = Vec::new();
        for &w in order.iter().filter(|w| need.contains(**w)) {
            let name = comb_temp(w);
            if self.kinds.contains_key(&name) {
                return Err(format!(
                    "`{name}` (wire `{w}` in the combinational process) is already a signal"
                ));
            }
            let width = self
                .temps
                .iter()
                .chain(module.body.wires().map(|(n, _)| n))
                .find(|t| t.name == w)
                .map(|t| t.width)
                .ok_or_else(|| format!("wire `{w}` has no declaration"))?;
            temps.push(Net {
                name: name.clone(),
                width,
            });
            self.rename.insert(w.to_owned(), name);
        }
        let mut once = Vec::new();
        let mut pass = vec![Stmt::Comment(format!(
            "Row {ROW}'s outputs, as instance {ROW} of {} computes them: the wires they read, then their values",
            module.name
        ))];
        for &w in order.iter().filter(|w| need.contains(**w)) {
            let stmts = self.wire_stmts(w, drivers, titles, true)?;
            if uni.contains(w) {
                once.extend(stmts);
            } else {
                pass.extend(stmts);
            }
        }
        for (index, a) in outs {
            let Expr::Signal(port) = &a.lhs else {
                return Err(format!("output assign `{}` is not of a whole port", a.lhs));
            };
            let width = module
                .port(port)
                .map(|p| p.width)
                .ok_or_else(|| format!("`{port}` is not a port"))?;
            if let Some(t) = out_titles.get(index) {
                pass.push(Stmt::Comment(t.clone()));
            }
            let value = self.expr(&a.rhs, &mut pass)?;
            let part = |offset: usize, row: usize, width: usize| Expr::Part {
                signal: port.clone(),
                terms: vec![(Expr::LoopVar(ROW.into()), row)],
                offset,
                width,
            };
            if !bit_major.contains(&port.as_str()) {
                pass.push(Stmt::Let {
                    target: part(0, width, width),
                    value,
                });
                continue;
            }
            // Bit-major: bit b of row j at b·count + j.
            let bits: Vec<Expr> = match value {
                Expr::Concat(parts) if parts.len() == width => parts.into_iter().rev().collect(),
                value => {
                    let name = comb_temp(port);
                    temps.push(Net {
                        name: name.clone(),
                        width,
                    });
                    pass.push(Stmt::Let {
                        target: Expr::sig(name.as_str()),
                        value,
                    });
                    (0..width).map(|b| Expr::bit(name.as_str(), b)).collect()
                }
            };
            for (b, bit) in bits.into_iter().enumerate() {
                pass.push(Stmt::Let {
                    target: part(b * count, 1, 1),
                    value: bit,
                });
            }
        }
        // Row indices made while translating belong to this process.
        temps.extend(self.temps.drain(first_made..));
        self.rename.clear();
        let mut comb = Vec::new();
        if !once.is_empty() {
            comb.push(Stmt::Comment("The same in every row: computed once".into()));
            comb.extend(once);
        }
        comb.push(Stmt::For {
            var: ROW.into(),
            count,
            body: pass,
        });
        Ok((comb, temps))
    }

    /// Wire `w`'s statements in a row: its title, then a `let` per driver (the value as the
    /// row reads it; with `rename`, the target too: the combinational process's copy).
    fn wire_stmts(
        &mut self,
        w: &str,
        drivers: &BTreeMap<&str, Vec<(Expr, &Expr)>>,
        titles: &BTreeMap<&str, String>,
        rename: bool,
    ) -> Result<Vec<Stmt>, String> {
        let mut stmts = Vec::new();
        if let Some(t) = titles.get(w) {
            stmts.push(Stmt::Comment(t.clone()));
        }
        for (target, value) in drivers.get(w).into_iter().flatten() {
            let value = self.expr(value, &mut stmts)?;
            let target = if rename {
                self.expr(target, &mut stmts)?
            } else {
                target.clone()
            };
            stmts.push(Stmt::Let { target, value });
        }
        Ok(stmts)
    }

    fn kind(&self, s: &str) -> Result<Kind, String> {
        self.kinds
            .get(s)
            .copied()
            .ok_or_else(|| format!("`{s}` is not a signal of `{}`", self.module))
    }

    /// The part of row `j` of `s` (a register or row port of `w` bits per row).
    fn row_part(s: &str, w: usize, lsb: usize, width: usize) -> Expr {
        Expr::Part {
            signal: s.to_owned(),
            terms: vec![(Expr::LoopVar(ROW.into()), w)],
            offset: lsb,
            width,
        }
    }

    /// `e` as row `j` reads it; an index that became a computed part is given a
    /// temporary first (its value is pushed onto `pre`).
    fn expr(&mut self, e: &Expr, pre: &mut Vec<Stmt>) -> Result<Expr, String> {
        Ok(match e {
            Expr::Signal(s) => match self.kind(s)? {
                Kind::Row(w) => Self::row_part(s, w, 0, w),
                Kind::Temp if self.rename.contains_key(s) => Expr::sig(self.rename[s].as_str()),
                _ => e.clone(),
            },
            Expr::Slice { signal, msb, lsb } => match self.kind(signal)? {
                Kind::Row(w) => Self::row_part(signal, w, *lsb, msb - lsb + 1),
                Kind::Temp if self.rename.contains_key(signal) => Expr::Slice {
                    signal: self.rename[signal].clone(),
                    msb: *msb,
                    lsb: *lsb,
                },
                _ => e.clone(),
            },
            Expr::Row {
                signal,
                index,
                width,
            } => {
                let index = self.index(index, pre)?;
                match self.kind(signal)? {
                    Kind::Row(w) => Expr::Part {
                        signal: signal.clone(),
                        terms: vec![(Expr::LoopVar(ROW.into()), w), (index, *width)],
                        offset: 0,
                        width: *width,
                    },
                    _ => Expr::Row {
                        signal: self.rename.get(signal).unwrap_or(signal).clone(),
                        index: Box::new(index),
                        width: *width,
                    },
                }
            }
            Expr::Part { .. } | Expr::LoopVar(_) => {
                return Err("it already has computed parts".into())
            }
            Expr::Word { .. } => return Err("it has a memory".into()),
            Expr::Const { .. } => e.clone(),
            Expr::Concat(parts) => Expr::Concat(
                parts
                    .iter()
                    .map(|p| self.expr(p, pre))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::Repeat { count, expr } => Expr::Repeat {
                count: *count,
                expr: Box::new(self.expr(expr, pre)?),
            },
            Expr::Unary { op, arg } => Expr::Unary {
                op: *op,
                arg: Box::new(self.expr(arg, pre)?),
            },
            Expr::Binary { op, lhs, rhs } => Expr::Binary {
                op: *op,
                lhs: Box::new(self.expr(lhs, pre)?),
                rhs: Box::new(self.expr(rhs, pre)?),
            },
            Expr::Mux { cond, then, els } => Expr::Mux {
                cond: Box::new(self.expr(cond, pre)?),
                then: Box::new(self.expr(then, pre)?),
                els: Box::new(self.expr(els, pre)?),
            },
        })
    }

    /// A row index as row `j` reads it: a signal or slice (a temporary if it became a part).
    fn index(&mut self, index: &Expr, pre: &mut Vec<Stmt>) -> Result<Expr, String> {
        let e = self.expr(index, pre)?;
        if matches!(e, Expr::Signal(_) | Expr::Slice { .. }) {
            return Ok(e);
        }
        let Expr::Part { width, .. } = &e else {
            return Err(format!("row index `{index}` is not a signal or slice"));
        };
        self.made += 1;
        let name = format!("_row_index_{}", self.made);
        self.temps.push(Net {
            name: name.clone(),
            width: *width,
        });
        self.kinds.insert(name.clone(), Kind::Temp);
        pre.push(Stmt::Let {
            target: Expr::sig(name.as_str()),
            value: e,
        });
        Ok(Expr::sig(name))
    }

    /// A statement of the process as row `j` runs it.
    fn stmt(&mut self, s: &Stmt) -> Result<Vec<Stmt>, String> {
        let mut pre = Vec::new();
        let s = match s {
            Stmt::Comment(c) => Stmt::Comment(c.clone()),
            Stmt::Load { target, value } => {
                let target = match target {
                    Expr::Concat(_) => {
                        return Err(format!("a load of a concatenation (`{target}`)"))
                    }
                    t => self.expr(t, &mut pre)?,
                };
                Stmt::Load {
                    target,
                    value: self.expr(value, &mut pre)?,
                }
            }
            Stmt::If { cond, then, els } => Stmt::If {
                cond: self.expr(cond, &mut pre)?,
                then: self.stmts(then)?,
                els: self.stmts(els)?,
            },
            Stmt::Case {
                subject,
                arms,
                default,
            } => Stmt::Case {
                subject: self.expr(subject, &mut pre)?,
                arms: arms
                    .iter()
                    .map(|(v, b)| Ok((v.clone(), self.stmts(b)?)))
                    .collect::<Result<_, String>>()?,
                default: self.stmts(default)?,
            },
            Stmt::For { .. } | Stmt::Let { .. } => {
                return Err("its process already has loops or temporaries".into())
            }
        };
        pre.push(s);
        Ok(pre)
    }

    fn stmts(&mut self, list: &[Stmt]) -> Result<Vec<Stmt>, String> {
        let mut out = Vec::new();
        for s in list {
            out.extend(self.stmt(s)?);
        }
        Ok(out)
    }

    /// `e` (wiring of registers and ports) as row `j` (a constant) sees it: static slices.
    fn static_row(&self, e: &Expr, j: usize) -> Result<Expr, String> {
        Ok(match e {
            Expr::Signal(s) => match self.kind(s)? {
                Kind::Row(w) => Expr::slice(s.as_str(), j * w + w - 1, j * w),
                Kind::Shared | Kind::Uniform => e.clone(),
                Kind::Temp => return Err(output_from_logic(s)),
            },
            Expr::Slice { signal, msb, lsb } => match self.kind(signal)? {
                Kind::Row(w) => Expr::slice(signal.as_str(), j * w + msb, j * w + lsb),
                Kind::Shared | Kind::Uniform => e.clone(),
                Kind::Temp => return Err(output_from_logic(signal)),
            },
            Expr::Const { .. } => e.clone(),
            Expr::Concat(parts) => Expr::Concat(
                parts
                    .iter()
                    .map(|p| self.static_row(p, j))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::Repeat { count, expr } => Expr::Repeat {
                count: *count,
                expr: Box::new(self.static_row(expr, j)?),
            },
            other => {
                return Err(format!(
                    "an output is driven by logic (`{other}`); replicated blocks have registered outputs"
                ))
            }
        })
    }
}

fn output_from_logic(wire: &str) -> String {
    format!("an output reads wire `{wire}`; replicated blocks have registered outputs (wiring of registers and inputs)")
}
