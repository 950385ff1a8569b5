//! A design: the modules of one generated network, its top module and the parameters
//! written in the header of every emitted file.
//!
//! Modules are kept in insertion order and looked up by name. Adding a module whose name is
//! taken is accepted only if the definitions are identical (so a block elaborated twice with
//! the same parameters is defined once).

use super::error::NetlistError;
use super::module::Module;
use std::collections::HashMap;

/// The modules of a generated network.
#[derive(Debug, Clone)]
pub struct Design {
    top: String,
    params: Vec<(String, String)>,
    modules: Vec<Module>,
    index: HashMap<String, usize>,
}

impl Design {
    /// An empty design whose top module will be `top`.
    pub fn new(top: impl Into<String>) -> Self {
        Design {
            top: top.into(),
            params: Vec::new(),
            modules: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// Records a generator parameter (e.g. `d` = `4`) for the header comment.
    pub fn param(&mut self, key: impl Into<String>, value: impl ToString) -> &mut Self {
        self.params.push((key.into(), value.to_string()));
        self
    }

    /// The header parameters, in insertion order.
    pub fn params(&self) -> &[(String, String)] {
        &self.params
    }

    /// The top module's name.
    pub fn top(&self) -> &str {
        &self.top
    }

    /// The module called `name`.
    pub fn module(&self, name: &str) -> Option<&Module> {
        self.index.get(name).map(|&i| &self.modules[i])
    }

    /// All modules, in insertion order.
    pub fn modules(&self) -> &[Module] {
        &self.modules
    }

    /// Adds a module. A module of the same name must not exist, unless it is identical (then
    /// this is a no-op).
    pub fn add_module(&mut self, module: Module) -> Result<(), NetlistError> {
        if let Some(existing) = self.module(&module.name) {
            return match difference(existing, &module) {
                None => Ok(()),
                Some(reason) => Err(NetlistError::ConflictingModule {
                    name: module.name,
                    reason,
                }),
            };
        }
        self.index.insert(module.name.clone(), self.modules.len());
        self.modules.push(module);
        Ok(())
    }
}

/// Runs a generator, turning a panic (a width mismatch or another broken invariant while
/// elaborating: a bug in lcanet, not in the user's input) into [`NetlistError::Internal`]
/// with the panic's message, so that a command reports it instead of crashing.
pub fn elaborate<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, NetlistError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|payload| {
        let msg = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("a panic without a message");
        NetlistError::Internal(format!("while generating {what}: {msg}"))
    })
}

/// How two definitions of one name differ, if they do.
fn difference(a: &Module, b: &Module) -> Option<&'static str> {
    if a.ports != b.ports {
        Some("different ports")
    } else if a.body != b.body {
        Some("different body")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::netlist::{Body, Item, Port};

    fn module(name: &str, text: &str) -> Module {
        Module {
            name: name.into(),
            ports: vec![Port::input("a", 1)],
            body: Body {
                items: vec![Item::Comment(text.into())],
                ..Body::default()
            },
        }
    }

    #[test]
    fn generator_panics_become_internal_errors() {
        let err = elaborate("a test block", || -> u32 {
            panic!("lcanet-hdl bug: widths")
        })
        .unwrap_err();
        assert!(matches!(err, NetlistError::Internal(_)));
        assert!(
            err.to_string().contains("while generating a test block"),
            "{err}"
        );
        assert!(err.to_string().contains("lcanet-hdl bug: widths"), "{err}");
        assert_eq!(elaborate("fine", || 7).unwrap(), 7);
    }

    #[test]
    fn same_name_must_mean_same_definition() {
        let mut d = Design::new("t");
        d.add_module(module("x", "one")).unwrap();
        d.add_module(module("x", "one")).unwrap();
        assert_eq!(d.modules().len(), 1);
        let err = d.add_module(module("x", "two")).unwrap_err();
        assert!(err
            .to_string()
            .contains("`x` is already defined differently (different body)"));
    }
}
