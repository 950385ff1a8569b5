//! Which registers and wires of a block replicated as rows hold the same value in every
//! row: those computed only from the shared ports and from each other.
//!
//! A register is *uniform* when every load of it reads (value, row index, and every
//! condition around the load) only shared ports, constants and uniform signals; a wire when
//! its drivers do. Every row's copy of a uniform register powers up at the same value
//! (replication tiles the block's power-up value) and follows the same next-state function
//! of the same inputs, so by induction the copies are equal at every bit-time: the rows
//! module keeps one copy and computes it once per clock edge instead of once per row. This
//! is the greatest fixed point: a register that loads itself (`bt <= bt + 1`) stays uniform
//! unless something else it reads is not. Example: the LCA switch's step counter `bt` and
//! its window registers, which only the broadcast control moves.

use crate::netlist::expr::Expr;
use crate::netlist::module::{Item, Module, Stmt};
use std::collections::BTreeSet;

/// Signals a driver or a load reads, and what it drives.
struct Dep<'a> {
    targets: Vec<&'a str>,
    reads: Vec<&'a str>,
}

/// The registers and wires of `module` that are uniform over rows when the ports in
/// `shared` are the same for every row.
pub(super) fn uniform(module: &Module, shared: &BTreeSet<&str>) -> BTreeSet<String> {
    let mut uni: BTreeSet<&str> = BTreeSet::new();
    let mut deps: Vec<Dep<'_>> = Vec::new();
    for item in &module.body.items {
        match item {
            Item::Reg(r) => {
                uni.insert(&r.name);
            }
            Item::Wire(net, value) => {
                uni.insert(&net.name);
                if let Some(v) = value {
                    deps.push(Dep {
                        targets: vec![&net.name],
                        reads: signals(v),
                    });
                }
            }
            Item::Assign(a) => deps.push(Dep {
                targets: signals(&a.lhs),
                reads: signals(&a.rhs),
            }),
            // A memory is per-row state: never uniform, so whatever reads it varies.
            Item::Comment(_) | Item::Instance(_) | Item::Memory(_) => {}
        }
    }
    loads(&module.body.process, &mut Vec::new(), &mut deps);
    // Demote until nothing changes: a target reading a signal that is neither shared nor
    // uniform is not uniform.
    loop {
        let mut changed = false;
        for dep in &deps {
            let varies = dep
                .reads
                .iter()
                .any(|s| !shared.contains(s) && !uni.contains(s));
            if varies {
                for t in &dep.targets {
                    changed |= uni.remove(t);
                }
            }
        }
        if !changed {
            break;
        }
    }
    uni.into_iter().map(str::to_owned).collect()
}

/// Every signal `e` reads.
fn signals(e: &Expr) -> Vec<&str> {
    let mut v = Vec::new();
    e.for_each_signal(&mut |s| v.push(s));
    v
}

/// The loads of `list`, each with what it reads: its value, its target's index and the
/// conditions it is under (`conds`).
fn loads<'a>(list: &'a [Stmt], conds: &mut Vec<&'a str>, out: &mut Vec<Dep<'a>>) {
    for s in list {
        match s {
            Stmt::Load { target, value } | Stmt::Let { target, value } => {
                let mut t = signals(target);
                let name = t.remove(0);
                let mut reads = signals(value);
                reads.extend(t);
                reads.extend(conds.iter().copied());
                out.push(Dep {
                    targets: vec![name],
                    reads,
                });
            }
            Stmt::If { cond, then, els } => {
                let n = conds.len();
                conds.extend(signals(cond));
                loads(then, conds, out);
                loads(els, conds, out);
                conds.truncate(n);
            }
            Stmt::Case {
                subject,
                arms,
                default,
            } => {
                let n = conds.len();
                conds.extend(signals(subject));
                for (_, body) in arms {
                    loads(body, conds, out);
                }
                loads(default, conds, out);
                conds.truncate(n);
            }
            Stmt::For { body, .. } => loads(body, conds, out),
            Stmt::Comment(_) => {}
        }
    }
}

/// `list` with only the loads of registers that `keep` accepts: branches left empty are
/// dropped (a condition has no effect of its own), and comments go with the statement they
/// title (they are kept when a later statement before the next comment is).
pub(super) fn filter(list: &[Stmt], keep: &dyn Fn(&str) -> bool) -> Vec<Stmt> {
    let mut out = Vec::new();
    let mut pending: Vec<Stmt> = Vec::new();
    let mut dropped_since_comment = false;
    for s in list {
        let kept = match s {
            Stmt::Comment(_) => {
                if dropped_since_comment {
                    pending.clear();
                    dropped_since_comment = false;
                }
                pending.push(s.clone());
                continue;
            }
            Stmt::Load { target, .. } | Stmt::Let { target, .. } => {
                let mut name = None;
                target.for_each_signal(&mut |n| {
                    name.get_or_insert(n);
                });
                name.is_some_and(keep).then(|| s.clone())
            }
            Stmt::If { cond, then, els } => {
                let (then, els) = (filter(then, keep), filter(els, keep));
                match (then.is_empty(), els.is_empty()) {
                    (true, true) => None,
                    (true, false) => Some(Stmt::If {
                        cond: Expr::Unary {
                            op: crate::netlist::UnaryOp::Not,
                            arg: Box::new(cond.clone()),
                        },
                        then: els,
                        els: Vec::new(),
                    }),
                    _ => Some(Stmt::If {
                        cond: cond.clone(),
                        then,
                        els,
                    }),
                }
            }
            Stmt::Case {
                subject,
                arms,
                default,
            } => {
                let arms: Vec<(Vec<u64>, Vec<Stmt>)> = arms
                    .iter()
                    .map(|(v, b)| (v.clone(), filter(b, keep)))
                    .collect();
                let default = filter(default, keep);
                (arms.iter().any(|(_, b)| !b.is_empty()) || !default.is_empty()).then(|| {
                    Stmt::Case {
                        subject: subject.clone(),
                        arms,
                        default,
                    }
                })
            }
            Stmt::For { var, count, body } => {
                let body = filter(body, keep);
                (!body.is_empty()).then(|| Stmt::For {
                    var: var.clone(),
                    count: *count,
                    body,
                })
            }
        };
        match kept {
            Some(k) => {
                out.append(&mut pending);
                out.push(k);
                dropped_since_comment = false;
            }
            None => dropped_since_comment = true,
        }
    }
    out
}
