//! rust-hdl for the blocks whose widths are fixed: [`translate`] turns a rust-hdl block
//! (a `#[hdl_gen]` update over `Bits<N>` signals and `DFF`s) into a word-level
//! [`Module`], through rust-hdl's own syntax tree — no Verilog text is parsed — so that it
//! prints like every other block: one `always @(posedge clock)`, no derived clocks, vectors.
//!
//! Why both: blocks whose widths come from run-time parameters (the LCA switch, the PE
//! interface, a cube node) are elaborated with [`crate::netlist::ModuleBuilder`]; a block
//! whose widths are fixed can be written in rust-hdl, type-checked by rust-hdl and simulated
//! in rust-hdl's simulator, and still be emitted in the project's RTL style
//! (`docs/decisions/word-level-rtl.md`).
//!
//! The update code's meaning is kept exactly: rust-hdl runs it as a combinational process
//! (later assignments win, reads see earlier assignments of the same pass). Assignments to a
//! `DFF`'s `d` become loads of a register in the clocked process, with the same `if`
//! structure (the last load wins there too); outputs and locals become wires, one per
//! assignment, merged with `?:` where branches differ. What a fixed-width block does not
//! need is refused with a message naming it: loops, sub-blocks other than `DFF`, `Vec`
//! fields, signed arithmetic, multiplication, dynamic indices.

mod walk;

use crate::netlist::{Module, ModuleBuilder};
use rust_hdl_core::prelude::{check_all, Atom, AtomKind, Block, Probe, Verilog};
use std::collections::BTreeMap;
use walk::{Sig, SigKind, Walker};

/// Why a rust-hdl block could not be translated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("rust-hdl block `{block}`: {what}")]
pub struct TranslateError {
    /// The module name asked for.
    pub block: String,
    /// What is not supported or not valid.
    pub what: String,
}

/// Translates `block` into a module named `name`. Runs rust-hdl's own checks first
/// (connections, logic loops, writes to inputs).
pub fn translate<B: Block>(name: &str, block: &mut B) -> Result<Module, TranslateError> {
    let err = |what: String| TranslateError {
        block: name.to_owned(),
        what,
    };
    block.connect_all();
    check_all(block).map_err(|e| err(format!("rust-hdl's checks failed: {e:?}")))?;
    let mut probe = Collect::default();
    block.accept(name, &mut probe);
    if let Some(problem) = probe.problem {
        return Err(err(problem));
    }
    let Verilog::Combinatorial(code) = block.hdl() else {
        return Err(err(
            "its hdl() is not a #[hdl_gen] update (custom Verilog, black boxes and wrappers are not translated)".into(),
        ));
    };
    let mut m = ModuleBuilder::new(name);
    let mut sigs: BTreeMap<String, Sig> = BTreeMap::new();
    if !probe.dffs.is_empty() {
        m.clock();
    }
    for (n, bits, kind, value) in &probe.atoms {
        let (kind, v) = match kind {
            AtomKind::InputParameter if n == "clock" => continue,
            AtomKind::InputParameter => (SigKind::Input, Some(m.input(n.as_str(), *bits))),
            AtomKind::OutputParameter => (SigKind::Output, Some(m.output(n.as_str(), *bits))),
            AtomKind::LocalSignal => (SigKind::Local, None),
            AtomKind::Constant => (SigKind::Const(*value), None),
            other => {
                return Err(err(format!(
                    "signal `{n}` is of kind {other:?}, not supported"
                )))
            }
        };
        sigs.insert(
            n.clone(),
            Sig {
                width: *bits,
                kind,
                v,
            },
        );
    }
    for (n, bits, init) in &probe.dffs {
        let reg = m.reg_init(n.as_str(), *bits, *init);
        sigs.insert(
            format!("{n}$q"),
            Sig {
                width: *bits,
                kind: SigKind::RegQ,
                v: Some(reg.clone()),
            },
        );
        sigs.insert(
            format!("{n}$d"),
            Sig {
                width: *bits,
                kind: SigKind::RegD,
                v: Some(reg),
            },
        );
        sigs.insert(
            format!("{n}$clock"),
            Sig {
                width: 1,
                kind: SigKind::RegClock,
                v: None,
            },
        );
    }
    let mut w = Walker::new(&sigs, &mut m);
    let process = w.block(&code).map_err(err)?;
    let order: Vec<String> = probe.atoms.iter().map(|a| a.0.clone()).collect();
    let outputs = w.finish(&order).map_err(err)?;
    for (port, value) in outputs {
        m.assign(&port, value);
    }
    let mut module = m.build();
    module.body.process = process;
    Ok(module)
}

/// A child block's atoms (name, bits, kind) and custom Verilog, while it is visited.
type Child = (String, Vec<(String, usize, AtomKind)>, String);

/// The signals of the block and its DFFs, from rust-hdl's probe.
#[derive(Default)]
struct Collect {
    depth: usize,
    /// Top-level atoms: name, bits, kind, constant value (for constants).
    atoms: Vec<(String, usize, AtomKind, u64)>,
    /// DFF children: name, bits, power-up value.
    dffs: Vec<(String, usize, u64)>,
    /// The child being visited: name, atoms, its Verilog text.
    child: Option<Child>,
    problem: Option<String>,
}

impl Probe for Collect {
    fn visit_start_scope(&mut self, name: &str, node: &dyn Block) {
        self.depth += 1;
        match self.depth {
            1 => {}
            2 => {
                let text = match node.hdl() {
                    Verilog::Custom(t) => t,
                    _ => String::new(),
                };
                self.child = Some((name.to_owned(), Vec::new(), text));
            }
            _ => {
                self.problem.get_or_insert(format!(
                    "sub-block `{name}` is nested; only DFFs directly inside the block are supported"
                ));
            }
        }
    }

    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        self.problem.get_or_insert(format!(
            "`{name}` is a Vec or array of signals or blocks; fixed-width blocks declare each signal"
        ));
    }

    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        match (self.depth, &mut self.child) {
            (1, _) => {
                let value = literal_value(&signal.verilog().to_string()).unwrap_or(0);
                self.atoms
                    .push((name.to_owned(), signal.bits(), signal.kind(), value));
            }
            (2, Some((_, atoms, _))) => atoms.push((name.to_owned(), signal.bits(), signal.kind())),
            _ => {}
        }
    }

    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        if self.depth == 2 {
            if let Some((name, atoms, text)) = self.child.take() {
                match dff_shape(&atoms, &text) {
                    Some((bits, init)) => self.dffs.push((name, bits, init)),
                    None => {
                        self.problem.get_or_insert(format!(
                            "sub-block `{name}` is not a DFF (only DFF<T> sub-blocks are supported)"
                        ));
                    }
                }
            }
        }
        self.depth -= 1;
    }
}

/// `(bits, power-up value)` if the atoms and Verilog are those of rust-hdl's `DFF<T>`.
fn dff_shape(atoms: &[(String, usize, AtomKind)], text: &str) -> Option<(usize, u64)> {
    let find = |n: &str, k: AtomKind| {
        atoms
            .iter()
            .find(|(name, _, kind)| name == n && *kind == k)
            .map(|(_, bits, _)| *bits)
    };
    let d = find("d", AtomKind::InputParameter)?;
    let q = find("q", AtomKind::OutputParameter)?;
    let clock = find("clock", AtomKind::InputParameter)?;
    if atoms.len() != 3 || d != q || clock != 1 || !text.contains("q <= d") {
        return None;
    }
    let init = text
        .split("q = ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .and_then(|lit| literal_value(lit.trim()))
        .unwrap_or(0);
    Some((d, init))
}

/// The value of a rust-hdl literal as written (`4'h3`, `1'b1`, `8'b101`, or bare hex from
/// `{:x}`), if it fits in 64 bits.
fn literal_value(text: &str) -> Option<u64> {
    let digits = match text.split_once('\'') {
        Some((_, rest)) => rest,
        None => return u64::from_str_radix(text, 16).ok(),
    };
    let (radix, body) = match digits.chars().next()? {
        'h' => (16, &digits[1..]),
        'b' => (2, &digits[1..]),
        'd' => (10, &digits[1..]),
        _ => return None,
    };
    u64::from_str_radix(&body.replace('_', ""), radix).ok()
}

#[cfg(test)]
mod tests;
