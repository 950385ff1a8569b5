//! Emission: validate, then print one `<module>.v` file per module reachable from the top
//! (dependencies first), a file list `<top>.f` naming them in that order, and optionally
//! `<top>.bundle.v`, all modules in one file for convenience.
//!
//! Output is deterministic: the same design gives byte-identical files. Files are built in
//! memory; [`Emitted::write_to`] writes them under temporary names and renames them into
//! place only once all were written.

mod print;

use super::design::Design;
use super::error::NetlistError;
use super::module::Module;
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

pub use print::generator_name;

/// What to emit besides the canonical files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EmitOptions {
    /// Also produce `<top>.bundle.v` with every module in one file. (Verilator `-Wall`
    /// warns DECLFILENAME on it: lint the canonical files instead.)
    pub bundle: bool,
}

/// One emitted file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmittedFile {
    /// File name, without directory.
    pub name: String,
    /// Contents.
    pub contents: String,
}

/// The emitted files of a design.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Emitted {
    /// The top module.
    pub top: String,
    /// One file per module, dependencies first, the top last.
    pub modules: Vec<EmittedFile>,
    /// `<top>.f`: the module file names, one per line, in the same order.
    pub file_list: EmittedFile,
    /// `<top>.bundle.v`, if asked for.
    pub bundle: Option<EmittedFile>,
}

impl Emitted {
    /// Every file: modules, file list, bundle.
    pub fn files(&self) -> impl Iterator<Item = &EmittedFile> {
        self.modules
            .iter()
            .chain(std::iter::once(&self.file_list))
            .chain(self.bundle.iter())
    }

    /// Total size of the module files in bytes.
    pub fn module_bytes(&self) -> usize {
        self.modules.iter().map(|f| f.contents.len()).sum()
    }

    /// A fingerprint of the module files (their names and contents, in order): 16 hex
    /// digits of their SHA-256. Two emissions with the same digest are the same Verilog,
    /// so a record carrying it says which RTL it tested (`lcanet sweep --report` compares
    /// it with today's generator).
    pub fn digest(&self) -> String {
        let mut h = Sha256::new();
        for f in &self.modules {
            for field in [f.name.as_bytes(), f.contents.as_bytes()] {
                h.update((field.len() as u64).to_le_bytes());
                h.update(field);
            }
        }
        h.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Writes every file into `dir` (created if missing). Returns the paths of the module
    /// files, dependencies first. Nothing is left half-written: files are written under
    /// temporary names first, removed again on failure, and renamed into place at the end.
    pub fn write_to(&self, dir: &Path) -> Result<Vec<PathBuf>, NetlistError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| NetlistError::Io { path, source }
        };
        fs::create_dir_all(dir).map_err(io(dir))?;
        let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
        for f in self.files() {
            let tmp = dir.join(format!(".{}.lcanet-tmp", f.name));
            if let Err(e) = fs::write(&tmp, &f.contents) {
                let _ = fs::remove_file(&tmp);
                for (t, _) in &staged {
                    let _ = fs::remove_file(t);
                }
                return Err(io(&tmp)(e));
            }
            staged.push((tmp, dir.join(&f.name)));
        }
        for (i, (tmp, dest)) in staged.iter().enumerate() {
            if let Err(e) = fs::rename(tmp, dest) {
                for (t, _) in &staged[i..] {
                    let _ = fs::remove_file(t);
                }
                return Err(io(dest)(e));
            }
        }
        Ok(staged
            .into_iter()
            .take(self.modules.len())
            .map(|(_, d)| d)
            .collect())
    }
}

impl Design {
    /// Validates the design, then emits the canonical files.
    pub fn emit(&self) -> Result<Emitted, NetlistError> {
        self.emit_with(EmitOptions::default())
    }

    /// Validates the design, then emits with `options`.
    pub fn emit_with(&self, options: EmitOptions) -> Result<Emitted, NetlistError> {
        self.validate()?;
        let order = self.dependency_order();
        let mut modules = Vec::with_capacity(order.len());
        for m in &order {
            let mut contents = String::with_capacity(estimate(m));
            print::module_file(self, m, &mut contents);
            modules.push(EmittedFile {
                name: format!("{}.v", m.name),
                contents,
            });
        }
        let list: String = modules.iter().map(|f| format!("{}\n", f.name)).collect();
        let bundle = options.bundle.then(|| EmittedFile {
            name: format!("{}.bundle.v", self.top()),
            contents: modules
                .iter()
                .map(|f| f.contents.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
        });
        Ok(Emitted {
            top: self.top().to_owned(),
            file_list: EmittedFile {
                name: format!("{}.f", self.top()),
                contents: list,
            },
            modules,
            bundle,
        })
    }

    /// Modules reachable from the top, each after every module it instantiates (post-order
    /// depth-first search in instance order). Assumes a validated, acyclic hierarchy.
    pub fn dependency_order(&self) -> Vec<&Module> {
        let mut order = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        let Some(top) = self.module(self.top()) else {
            return order;
        };
        seen.insert(&top.name);
        let mut stack: Vec<(&Module, Vec<&str>, usize)> =
            vec![(top, top.instantiated_modules(), 0)];
        while let Some((m, children, next)) = stack.last_mut() {
            if let Some(&c) = children.get(*next) {
                *next += 1;
                if let Some(child) = self.module(c) {
                    if seen.insert(&child.name) {
                        stack.push((child, child.instantiated_modules(), 0));
                    }
                }
            } else {
                order.push(*m);
                stack.pop();
            }
        }
        order
    }
}

/// A capacity guess that avoids most reallocations.
fn estimate(m: &Module) -> usize {
    1024 + m.body.items.len() * 48
        + m.body
            .instances()
            .map(|i| 48 + i.pins.len() * 40)
            .sum::<usize>()
}
