//! Validation of a whole design before emission.
//!
//! Design-wide rules (this file): the top module exists; module names are legal
//! identifiers that differ in more than letter case; ports are legal, unique and at least
//! one bit wide; every instantiated module is defined; the hierarchy is not recursive;
//! header parameters fit in a comment. Rules inside a module body (connections, widths,
//! drivers, readers, the clock, loops) are in [`body`].

mod bits;
mod body;
mod loops;

use super::design::Design;
use super::error::{ValidationError, ValidationErrors};
use super::ident::check_identifier;
use super::module::Module;
use std::collections::{BTreeMap, HashMap};

impl Design {
    /// Checks every rule of `docs/netlist.md` ("Validation") and returns every problem
    /// found, in a deterministic order (module by module, in insertion order).
    pub fn validate(&self) -> Result<(), ValidationErrors> {
        let mut errs = Vec::new();
        check_params(self, &mut errs);
        if self.module(self.top()).is_none() {
            errs.push(ValidationError::MissingTop {
                top: self.top().to_owned(),
            });
        }
        check_module_names(self.modules(), &mut errs);
        for m in self.modules() {
            check_ports(m, &mut errs);
            body::check(self, m, &mut errs);
        }
        check_recursion(self, &mut errs);
        if errs.is_empty() {
            Ok(())
        } else {
            Err(ValidationErrors(errs))
        }
    }
}

fn check_params(design: &Design, errs: &mut Vec<ValidationError>) {
    for (key, value) in design.params() {
        let reason = if key.is_empty() {
            Some("the name is empty")
        } else if key.contains(['\n', '\r']) || value.contains(['\n', '\r']) {
            Some("line breaks cannot be written in a `//` header comment")
        } else {
            None
        };
        if let Some(reason) = reason {
            errs.push(ValidationError::BadHeaderParam {
                key: key.clone(),
                value: value.clone(),
                reason,
            });
        }
    }
}

fn check_module_names(modules: &[Module], errs: &mut Vec<ValidationError>) {
    let mut folded: BTreeMap<String, &str> = BTreeMap::new();
    for m in modules {
        if let Err(issue) = check_identifier(&m.name) {
            errs.push(ValidationError::IllegalIdentifier {
                module: m.name.clone(),
                kind: "module",
                name: m.name.clone(),
                issue,
            });
        }
        if let Some(other) = folded.insert(m.name.to_ascii_lowercase(), &m.name) {
            errs.push(ValidationError::ModuleCaseClash {
                a: other.to_owned(),
                b: m.name.clone(),
            });
        }
    }
}

fn check_ports(m: &Module, errs: &mut Vec<ValidationError>) {
    let mut seen: HashMap<&str, ()> = HashMap::with_capacity(m.ports.len());
    for p in &m.ports {
        if let Err(issue) = check_identifier(&p.name) {
            errs.push(ValidationError::IllegalIdentifier {
                module: m.name.clone(),
                kind: "port",
                name: p.name.clone(),
                issue,
            });
        }
        if seen.insert(&p.name, ()).is_some() {
            errs.push(ValidationError::DuplicateName {
                module: m.name.clone(),
                name: p.name.clone(),
                first: "port",
                second: "port",
            });
        }
        if p.width == 0 {
            errs.push(ValidationError::ZeroWidth {
                module: m.name.clone(),
                kind: "port",
                name: p.name.clone(),
            });
        }
    }
}

/// Depth-first search over "instantiates" edges; reports each cycle once.
fn check_recursion(design: &Design, errs: &mut Vec<ValidationError>) {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let modules = design.modules();
    let pos: HashMap<&str, usize> = modules
        .iter()
        .enumerate()
        .map(|(i, m)| (m.name.as_str(), i))
        .collect();
    let children: Vec<Vec<usize>> = modules
        .iter()
        .map(|m| {
            m.instantiated_modules()
                .into_iter()
                .filter_map(|c| pos.get(c).copied())
                .collect()
        })
        .collect();
    let mut mark = vec![Mark::New; modules.len()];
    for start in 0..modules.len() {
        if mark[start] != Mark::New {
            continue;
        }
        // Stack of (module, next child position).
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        mark[start] = Mark::Open;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if let Some(&child) = children[node].get(*next) {
                *next += 1;
                match mark[child] {
                    Mark::New => {
                        mark[child] = Mark::Open;
                        stack.push((child, 0));
                    }
                    Mark::Open => {
                        let from = stack.iter().position(|(n, _)| *n == child).unwrap_or(0);
                        let mut path: Vec<String> = stack[from..]
                            .iter()
                            .map(|(n, _)| modules[*n].name.clone())
                            .collect();
                        path.push(modules[child].name.clone());
                        errs.push(ValidationError::RecursiveHierarchy { path });
                    }
                    Mark::Done => {}
                }
            } else {
                mark[node] = Mark::Done;
                stack.pop();
            }
        }
    }
}
