//! A design: the modules of one generated network, its top module and the parameters
//! written in the header of every emitted file.
//!
//! Modules are kept in insertion order and looked up by name. Adding a module whose name is
//! taken is accepted only if the definitions are identical (so a block imported twice is
//! defined once). Leaf trees imported from rust-hdl share identical child modules (for
//! example one `DFF<Bits<4>>` definition for every block that uses one).

use super::error::NetlistError;
use super::module::{Body, LeafLine, Module};
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

    /// Adds a tree of leaf modules, children before parents and the root last (as produced by
    /// [`crate::rusthdl::import_block`]). A child whose definition (ports and body, after its
    /// own children were shared) equals a leaf already in the design is not added: its
    /// parents instantiate the existing leaf instead. The root keeps its name. Returns the
    /// root's name.
    pub fn add_leaf_tree(&mut self, tree: Vec<Module>) -> Result<String, NetlistError> {
        if tree.is_empty() {
            return Err(NetlistError::EmptyLeafTree);
        }
        let mut renamed: HashMap<String, String> = HashMap::new();
        let mut to_add: Vec<Module> = Vec::new();
        let count = tree.len();
        let mut root = String::new();
        for (i, mut module) in tree.into_iter().enumerate() {
            if let Body::Leaf(leaf) = &mut module.body {
                for line in &mut leaf.lines {
                    if let LeafLine::Instance { module: m, .. } = line {
                        if let Some(new) = renamed.get(m.as_str()) {
                            *m = new.clone();
                        }
                    }
                }
            }
            if i + 1 == count {
                root = module.name.clone();
            } else if let Some(same) =
                identical_leaf(&self.modules, &module).or_else(|| identical_leaf(&to_add, &module))
            {
                renamed.insert(module.name.clone(), same.to_owned());
                continue;
            }
            let existing = self
                .module(&module.name)
                .or_else(|| to_add.iter().find(|m| m.name == module.name));
            match existing.map(|e| difference(e, &module)) {
                None => to_add.push(module),
                Some(None) => {}
                Some(Some(reason)) => {
                    return Err(NetlistError::ConflictingModule {
                        name: module.name,
                        reason,
                    })
                }
            }
        }
        for module in to_add {
            self.index.insert(module.name.clone(), self.modules.len());
            self.modules.push(module);
        }
        Ok(root)
    }
}

/// The name of a leaf among `modules` with the same ports and body as `module`.
fn identical_leaf<'a>(modules: &'a [Module], module: &Module) -> Option<&'a str> {
    modules
        .iter()
        .find(|m| {
            matches!(m.body, Body::Leaf(_)) && m.ports == module.ports && m.body == module.body
        })
        .map(|m| m.name.as_str())
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
    use crate::netlist::{Leaf, Port};

    fn leaf(name: &str, text: &str) -> Module {
        Module {
            name: name.into(),
            ports: vec![Port::input("a", 1)],
            body: Body::Leaf(Leaf {
                port_styles: vec![Default::default()],
                lines: vec![LeafLine::Text(text.into())],
            }),
        }
    }

    #[test]
    fn same_name_must_mean_same_definition() {
        let mut d = Design::new("t");
        d.add_module(leaf("x", "// one")).unwrap();
        d.add_module(leaf("x", "// one")).unwrap();
        assert_eq!(d.modules().len(), 1);
        let err = d.add_module(leaf("x", "// two")).unwrap_err();
        assert!(err
            .to_string()
            .contains("`x` is already defined differently (different body)"));
    }

    #[test]
    fn leaf_trees_share_children_and_reject_empty_trees() {
        let mut d = Design::new("t");
        assert!(matches!(
            d.add_leaf_tree(vec![]),
            Err(NetlistError::EmptyLeafTree)
        ));
        let child = |n: &str| leaf(n, "// dff");
        let parent = |n: &str, c: &str| {
            let mut m = leaf(n, "");
            if let Body::Leaf(l) = &mut m.body {
                l.lines = vec![LeafLine::Instance {
                    indent: "    ".into(),
                    module: c.into(),
                    rest: " r(".into(),
                }];
            }
            m
        };
        assert_eq!(
            d.add_leaf_tree(vec![child("p__r"), parent("p", "p__r")])
                .unwrap(),
            "p"
        );
        assert_eq!(
            d.add_leaf_tree(vec![child("q__r"), parent("q", "q__r")])
                .unwrap(),
            "q"
        );
        let names: Vec<&str> = d.modules().iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["p__r", "p", "q"]);
        assert_eq!(d.module("q").unwrap().instantiated_modules(), ["p__r"]);
    }
}
