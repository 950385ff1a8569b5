//! The walk over a rust-hdl update's syntax tree: statements become loads of the clocked
//! process (for `DFF` inputs) or new values of wires (outputs, locals), expressions become
//! [`V`]s with their widths (rust-hdl writes integer literals as 32-bit numbers; a literal
//! takes the width of the operand it meets).

use crate::netlist::{lit, ModuleBuilder, Stmt, V};
use rust_hdl_core::ast::{
    VerilogBlock, VerilogBlockOrConditional, VerilogConditional, VerilogExpression, VerilogOp,
    VerilogOpUnary, VerilogStatement,
};
use std::collections::{BTreeMap, BTreeSet};

/// What a rust-hdl signal name denotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SigKind {
    Input,
    Output,
    Local,
    Const(u64),
    /// `x$q`: the register of DFF `x`.
    RegQ,
    /// `x$d`: the next value of DFF `x` (written only).
    RegD,
    /// `x$clock`: must be driven by `clock`.
    RegClock,
}

/// A rust-hdl signal: width, kind, and its word-level value (ports and registers).
#[derive(Debug, Clone)]
pub(super) struct Sig {
    pub width: usize,
    pub kind: SigKind,
    pub v: Option<V>,
}

type Res<T> = Result<T, String>;

pub(super) struct Walker<'a> {
    sigs: &'a BTreeMap<String, Sig>,
    m: &'a mut ModuleBuilder,
    /// Current value of each output and local.
    env: BTreeMap<String, V>,
    /// Names in use (signals of the block and wires made so far).
    taken: BTreeSet<String>,
}

impl<'a> Walker<'a> {
    pub fn new(sigs: &'a BTreeMap<String, Sig>, m: &'a mut ModuleBuilder) -> Self {
        // Locals are declared at their first assignment; everything else already has its name.
        let taken = sigs
            .iter()
            .filter(|(_, s)| s.kind != SigKind::Local)
            .map(|(k, _)| k.split('$').next().unwrap_or(k).to_owned())
            .collect();
        Walker {
            sigs,
            m,
            env: BTreeMap::new(),
            taken,
        }
    }

    /// The final value of every output port in `order` (each must have been assigned).
    pub fn finish(self, order: &[String]) -> Res<Vec<(V, V)>> {
        let mut out = Vec::new();
        for name in order {
            let Some(s) = self.sigs.get(name) else {
                continue;
            };
            if s.kind == SigKind::Output {
                let value = self
                    .env
                    .get(name)
                    .ok_or_else(|| format!("output `{name}` is never assigned"))?;
                out.push((s.v.clone().expect("ports have values"), value.clone()));
            }
        }
        Ok(out)
    }

    /// A wire holding `value`, named after `base` (`base` if free, else `base_1`, …).
    fn wire(&mut self, base: &str, value: V) -> V {
        let base = base.replace('$', "_");
        let name = if self.taken.contains(&base) {
            (1..)
                .map(|i| format!("{base}_{i}"))
                .find(|n| !self.taken.contains(n))
                .expect("an unused name")
        } else {
            base
        };
        self.taken.insert(name.clone());
        self.m.def(name, value)
    }

    /// Statements of one block: returns the clocked-process statements; updates the values
    /// of outputs and locals.
    pub fn block(&mut self, code: &VerilogBlock) -> Res<Vec<Stmt>> {
        let mut out = Vec::new();
        for s in code {
            self.stmt(s, &mut out)?;
        }
        Ok(out)
    }

    fn stmt(&mut self, s: &VerilogStatement, out: &mut Vec<Stmt>) -> Res<()> {
        match s {
            VerilogStatement::Comment(_) => Ok(()),
            VerilogStatement::Macro(code) => {
                for s in code {
                    self.stmt(s, out)?;
                }
                Ok(())
            }
            VerilogStatement::Assignment(lhs, rhs) => self.assign(lhs, rhs, out),
            VerilogStatement::If(c) => self.conditional(c, out),
            VerilogStatement::Match(m) => {
                // A chain of conditionals on `test == value`, the default last.
                let mut chain = VerilogBlockOrConditional::None;
                for case in m.cases.iter().rev() {
                    if case.condition == "default" {
                        chain = VerilogBlockOrConditional::Block(case.block.clone());
                        continue;
                    }
                    let value =
                        case.condition.trim().parse::<u64>().map_err(|_| {
                            format!("match arm `{}` is not an integer", case.condition)
                        })?;
                    chain = VerilogBlockOrConditional::Conditional(Box::new(VerilogStatement::If(
                        VerilogConditional {
                            test: VerilogExpression::Binary(
                                Box::new(m.test.clone()),
                                VerilogOp::Eq,
                                Box::new(VerilogExpression::Literal(value.into())),
                            ),
                            then: case.block.clone(),
                            otherwise: chain,
                        },
                    )));
                }
                match chain {
                    VerilogBlockOrConditional::Conditional(s) => self.stmt(&s, out),
                    VerilogBlockOrConditional::Block(b) => {
                        for s in &b {
                            self.stmt(s, out)?;
                        }
                        Ok(())
                    }
                    VerilogBlockOrConditional::None => Ok(()),
                }
            }
            VerilogStatement::Loop(_) => {
                Err("for loops are not supported in fixed-width blocks".into())
            }
            VerilogStatement::Link(_) => Err("links to sub-block ports are not supported".into()),
            VerilogStatement::SliceAssignment { .. } => {
                Err("slice assignments are not supported; assign whole signals".into())
            }
        }
    }

    fn assign(
        &mut self,
        lhs: &VerilogExpression,
        rhs: &VerilogExpression,
        out: &mut Vec<Stmt>,
    ) -> Res<()> {
        let VerilogExpression::Signal(target) = lhs else {
            return Err("only whole signals can be assigned".into());
        };
        let name = target
            .strip_suffix("$next")
            .ok_or_else(|| format!("assignment to `{target}` is not a `.next` write"))?;
        let sig = self
            .sigs
            .get(name)
            .ok_or_else(|| format!("assignment to unknown signal `{name}`"))?;
        match sig.kind {
            SigKind::RegClock => match rhs {
                VerilogExpression::Signal(c) if c == "clock" => Ok(()),
                _ => Err(format!(
                    "`{name}` must be driven by `clock` (no derived clocks)"
                )),
            },
            SigKind::RegD => {
                let reg = sig.v.clone().expect("registers have values");
                let value = self.expr(rhs, Some(sig.width))?;
                // `dff_setup!` writes `d = q` first: a load of the register itself is what
                // the clocked process does anyway.
                if value != reg {
                    out.push(Stmt::Load {
                        target: reg.into_expr(),
                        value: value.into_expr(),
                    });
                }
                Ok(())
            }
            SigKind::Output | SigKind::Local => {
                let value = self.expr(rhs, Some(sig.width))?;
                // A local is a named wire (`t`, then `t_1` if reassigned); an output's value
                // is assigned to the port at the end.
                let value = match (sig.kind, value.name()) {
                    (SigKind::Local, None) => self.wire(name, value),
                    _ => value,
                };
                self.env.insert(name.to_owned(), value);
                Ok(())
            }
            _ => Err(format!(
                "`{name}` is an input or constant and cannot be assigned"
            )),
        }
    }

    fn conditional(&mut self, c: &VerilogConditional, out: &mut Vec<Stmt>) -> Res<()> {
        let cond = self.expr(&c.test, Some(1))?;
        if cond.width() != 1 {
            return Err(format!(
                "the condition `{cond}` is {} bits wide",
                cond.width()
            ));
        }
        let before = self.env.clone();
        let then = self.block(&c.then)?;
        let after_then = std::mem::replace(&mut self.env, before.clone());
        let els = match &c.otherwise {
            VerilogBlockOrConditional::Block(b) => self.block(b)?,
            VerilogBlockOrConditional::Conditional(s) => {
                let mut v = Vec::new();
                self.stmt(s, &mut v)?;
                v
            }
            VerilogBlockOrConditional::None => Vec::new(),
        };
        let after_else = std::mem::take(&mut self.env);
        let keys: BTreeSet<&String> = after_then.keys().chain(after_else.keys()).collect();
        let mut merged = before.clone();
        for k in keys {
            let (t, e) = (after_then.get(k), after_else.get(k));
            let v = match (t, e) {
                (Some(t), Some(e)) if t == e => t.clone(),
                (Some(t), Some(e)) => {
                    let v = cond.select(t, e);
                    self.wire(k, v)
                }
                _ => {
                    return Err(format!(
                        "`{k}` is assigned on one branch of `if ({cond})` only and was not assigned before: it would latch"
                    ))
                }
            };
            merged.insert(k.clone(), v);
        }
        self.env = merged;
        if !then.is_empty() || !els.is_empty() {
            out.push(Stmt::If {
                cond: cond.into_expr(),
                then,
                els,
            });
        }
        Ok(())
    }

    fn is_untyped_literal(e: &VerilogExpression) -> bool {
        match e {
            VerilogExpression::Literal(_) => true,
            VerilogExpression::Paren(x) => Self::is_untyped_literal(x),
            _ => false,
        }
    }

    /// The value of `e`; `want` sizes untyped literals.
    fn expr(&mut self, e: &VerilogExpression, want: Option<usize>) -> Res<V> {
        use VerilogExpression as E;
        match e {
            E::Signal(name) => self.read(name),
            E::Literal(l) => {
                let text = l.to_string();
                let value = super::literal_value(&text)
                    .ok_or_else(|| format!("literal `{text}` does not fit in 64 bits"))?;
                let width = want.ok_or_else(|| {
                    format!("literal `{text}` where no width is known; use a sized constant")
                })?;
                if width < 64 && value >> width != 0 {
                    return Err(format!("literal `{text}` does not fit in {width} bits"));
                }
                Ok(lit(width, value))
            }
            E::Paren(x) => self.expr(x, want),
            E::Unary(op, x) => {
                let v = self.expr(x, want)?;
                match op {
                    VerilogOpUnary::Not => Ok(!v),
                    VerilogOpUnary::All => Ok(v.all()),
                    VerilogOpUnary::Any => Ok(v.any()),
                    VerilogOpUnary::Xor => Ok(v.parity()),
                    VerilogOpUnary::Neg => {
                        Err("negation (signed arithmetic) is not supported".into())
                    }
                }
            }
            E::Binary(l, op, r) => self.binary(l, op, r, want),
            E::Index(x, i) => {
                let v = self.expr(x, None)?;
                let E::Literal(l) = &**i else {
                    return Err(
                        "a computed bit index is not supported; index with constants".into(),
                    );
                };
                let i = l.as_usize();
                if i >= v.width() {
                    return Err(format!(
                        "bit {i} of `{v}`, which is {} bits wide",
                        v.width()
                    ));
                }
                Ok(self.sliceable(v).bit(i))
            }
            E::Slice(x, width, off) => {
                let v = self.expr(x, None)?;
                let E::Literal(l) = &**off else {
                    return Err("a computed slice offset is not supported".into());
                };
                let off = l.as_usize();
                if off + width > v.width() {
                    return Err(format!(
                        "bits [{off} +: {width}] of `{v}`, which is {} bits wide",
                        v.width()
                    ));
                }
                Ok(self.sliceable(v).part(off, *width))
            }
            E::Cast(x, bits) => {
                let v = self.expr(x, Some(*bits))?;
                Ok(if v.width() <= *bits {
                    v.zext(*bits)
                } else {
                    self.sliceable(v).low(*bits)
                })
            }
            E::Signed(_) | E::Unsigned(_) => Err("signed arithmetic is not supported".into()),
            E::IndexReplace(..) => Err("replace_bit is not supported; assign whole values".into()),
        }
    }

    /// `v` itself if Verilog can slice it, else a wire holding it.
    fn sliceable(&mut self, v: V) -> V {
        match v.expr() {
            crate::netlist::Expr::Signal(_)
            | crate::netlist::Expr::Slice { .. }
            | crate::netlist::Expr::Const { .. }
            | crate::netlist::Expr::Concat(_) => v,
            _ => self.wire("t", v),
        }
    }

    fn binary(
        &mut self,
        l: &VerilogExpression,
        op: &VerilogOp,
        r: &VerilogExpression,
        want: Option<usize>,
    ) -> Res<V> {
        use VerilogOp as O;
        if matches!(op, O::Shl | O::Shr) {
            let a = self.expr(l, want)?;
            return Ok(match r {
                VerilogExpression::Literal(n) => {
                    let n = n.as_usize().min(a.width());
                    if matches!(op, O::Shl) {
                        a.shl(n)
                    } else {
                        a.shr(n)
                    }
                }
                _ => {
                    let n = self.expr(r, None)?;
                    if matches!(op, O::Shl) {
                        a.shl_by(&n)
                    } else {
                        a.shr_by(&n)
                    }
                }
            });
        }
        let comparison = matches!(op, O::Eq | O::Ne | O::Lt | O::Le | O::Gt | O::Ge);
        let operand_want = if comparison { None } else { want };
        let (a, b) = if Self::is_untyped_literal(l) && !Self::is_untyped_literal(r) {
            let b = self.expr(r, operand_want)?;
            (self.expr(l, Some(b.width()))?, b)
        } else {
            let a = self.expr(l, operand_want)?;
            (a.clone(), self.expr(r, Some(a.width()))?)
        };
        if a.width() != b.width() {
            return Err(format!(
                "operands `{a}` and `{b}` have widths {} and {}",
                a.width(),
                b.width()
            ));
        }
        Ok(match op {
            O::Add => a + b,
            O::Sub => a - b,
            O::BitAnd => a & b,
            O::BitOr => a | b,
            O::BitXor => a ^ b,
            O::LogicalAnd | O::LogicalOr if a.width() != 1 => {
                return Err(format!("`&&`/`||` on {}-bit values", a.width()))
            }
            O::LogicalAnd => a & b,
            O::LogicalOr => a | b,
            O::Eq => a.eq(&b),
            O::Ne => a.ne(&b),
            O::Lt => a.lt(&b),
            O::Le => a.le(&b),
            O::Gt => a.gt(&b),
            O::Ge => a.ge(&b),
            O::Mul => return Err("multiplication is not supported".into()),
            O::Shl | O::Shr => unreachable!("handled above"),
        })
    }

    fn read(&mut self, name: &str) -> Res<V> {
        if name == "clock" {
            return Err("`clock` is read as data (no derived clocks)".into());
        }
        let sig = self
            .sigs
            .get(name)
            .ok_or_else(|| format!("unknown signal `{name}`"))?;
        match sig.kind {
            SigKind::Input | SigKind::RegQ => Ok(sig.v.clone().expect("has a value")),
            SigKind::Const(k) => Ok(lit(sig.width, k)),
            SigKind::Output | SigKind::Local => self
                .env
                .get(name)
                .cloned()
                .ok_or_else(|| format!("`{name}` is read before it is assigned")),
            SigKind::RegD => Err(format!("`{name}` (a DFF input) is read; read its `q`")),
            SigKind::RegClock => Err(format!("`{name}` is read (no derived clocks)")),
        }
    }
}
