//! Temporaries of a rows loop computed only where they are read: each wire's `=` goes into
//! the innermost branch that holds every statement reading it, just before the first one.
//!
//! A block's wires are continuous: an instance computes all of them every bit-time. In the
//! loop they are temporaries, and one read only inside `if (up_window) …` need not be
//! computed in the bit-times (most of them) where that branch is not taken. The values are
//! those of the instance wherever they are read, so the rows stay bit for bit the
//! instances (`docs/network-rtl.md`, "Large networks": the LCA switch's arbiters, gated by
//! their windows).

use crate::netlist::module::Stmt;

/// `body` (the loop's statements, without the temporaries' `=`) with the temporaries'
/// statements `lets` placed: `lets` holds each temporary's statements (its title comment
/// and its `=`s), producers before consumers.
pub(super) fn place_all(mut body: Vec<Stmt>, lets: Vec<(String, Vec<Stmt>)>) -> Vec<Stmt> {
    // Consumers first: when a temporary is placed, every statement reading it, the other
    // temporaries' included, is already where it will stay.
    for (name, stmts) in lets.into_iter().rev() {
        place(&mut body, &name, stmts);
    }
    body
}

fn place(block: &mut Vec<Stmt>, name: &str, stmts: Vec<Stmt>) {
    let users: Vec<usize> = (0..block.len())
        .filter(|&i| reads(&block[i], name))
        .collect();
    match users.as_slice() {
        [] => {
            block.splice(0..0, stmts);
        }
        [only] => match only_branch(&mut block[*only], name) {
            Some(inner) => place(inner, name, stmts),
            None => insert(block, *only, stmts),
        },
        [first, ..] => insert(block, *first, stmts),
    }
}

/// `stmts` into `block` before statement `at` and the comments that title it.
fn insert(block: &mut Vec<Stmt>, mut at: usize, stmts: Vec<Stmt>) {
    while at > 0 && matches!(block[at - 1], Stmt::Comment(_)) {
        at -= 1;
    }
    block.splice(at..at, stmts);
}

/// The one branch of `s` that reads `name`, if `s` branches, its condition does not read
/// `name`, and no other branch does.
fn only_branch<'a>(s: &'a mut Stmt, name: &str) -> Option<&'a mut Vec<Stmt>> {
    match s {
        Stmt::If { cond, then, els } => {
            if expr_reads(cond, name) {
                return None;
            }
            match (list_reads(then, name), list_reads(els, name)) {
                (true, false) => Some(then),
                (false, true) => Some(els),
                _ => None,
            }
        }
        Stmt::Case {
            subject,
            arms,
            default,
        } => {
            if expr_reads(subject, name) {
                return None;
            }
            let mut branches: Vec<&mut Vec<Stmt>> = arms
                .iter_mut()
                .map(|(_, b)| b)
                .chain(std::iter::once(default))
                .filter(|b| list_reads(b, name))
                .collect();
            (branches.len() == 1).then(|| branches.remove(0))
        }
        _ => None,
    }
}

fn expr_reads(e: &crate::netlist::Expr, name: &str) -> bool {
    let mut found = false;
    e.for_each_signal(&mut |s| found |= s == name);
    found
}

fn list_reads(list: &[Stmt], name: &str) -> bool {
    let mut found = false;
    Stmt::for_each_signal(list, &mut |s| found |= s == name);
    found
}

/// Whether `s` reads `name` (a statement's target counts: a part of a temporary written
/// by `=` is part of its value).
fn reads(s: &Stmt, name: &str) -> bool {
    list_reads(std::slice::from_ref(s), name)
}
