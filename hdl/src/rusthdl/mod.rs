//! Adapter from rust-hdl blocks to leaf modules of the netlist.
//!
//! [`import_block`] runs rust-hdl's checks and `generate_verilog` on a block, then turns
//! its output into leaf [`Module`]s: the block becomes module `<name>`, each contained
//! block `top$x` becomes `<name>__x`, `$` in identifiers becomes `_` (collisions are
//! reported, never emitted), and each port list is extracted (name, direction, width) so
//! the netlist can check connections. [`add_block`] adds them to a [`Design`], sharing
//! child modules whose definitions are identical (one `DFF<Bits<4>>` for everybody).
//! DFF instances become flops written in the parent (`flops`: Verilator pays per
//! instance); their `initial` blocks are kept (Verilator, Icarus and Yosys accept them). Each
//! combinational `always @(*)` block is rewritten to assign every target it exposes once,
//! at its end, from a shadow `<target>__c` (see `comb.rs`), so event-driven simulators
//! see no zero-delay glitches.

mod comb;
mod convert;
mod flops;
mod lexer;
mod parse;
mod stmt;

use crate::netlist::{Design, IdentIssue, Module, NetlistError};
use rust_hdl::prelude::{check_all, generate_verilog_unchecked, Block};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Why a block could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// A name (module, port, signal, instance) would not be a legal identifier.
    #[error("block `{block}`, module `{module}`: {kind} `{name}` is not a legal Verilog identifier once `$` becomes `_`: {issue}")]
    IllegalIdentifier {
        /// The block's module name.
        block: String,
        /// The module concerned.
        module: String,
        /// "module", "port", "signal" or "instance".
        kind: &'static str,
        /// The name as rust-hdl wrote it.
        name: String,
        /// Why it is illegal.
        issue: IdentIssue,
    },
    /// rust-hdl's own checks (open signals, logic loops, writes to inputs) failed.
    #[error("block `{block}` fails rust-hdl's checks: {detail}")]
    Check {
        /// The block's module name.
        block: String,
        /// rust-hdl's report.
        detail: String,
    },
    /// rust-hdl panicked while generating Verilog.
    #[error("rust-hdl panicked while generating Verilog for block `{block}`: {message}")]
    Panicked {
        /// The block's module name.
        block: String,
        /// The panic message.
        message: String,
    },
    /// The generated text is not in the form rust-hdl 0.46 writes.
    #[error("block `{block}`: cannot read rust-hdl's Verilog at line {line}: {reason}")]
    Parse {
        /// The block's module name.
        block: String,
        /// 1-based line in the generated text.
        line: usize,
        /// What was expected.
        reason: String,
    },
    /// A rust-hdl feature this adapter does not handle.
    #[error("block `{block}`, module `{module}`: {what} is not supported")]
    Unsupported {
        /// The block's module name.
        block: String,
        /// The module concerned.
        module: String,
        /// The feature.
        what: String,
    },
    /// Two names become one when `$` is replaced by `_`.
    #[error("block `{block}`, module `{module}`: `{first}` and `{second}` would both become `{sanitized}`; rename one of them")]
    Collision {
        /// The block's module name.
        block: String,
        /// The module concerned.
        module: String,
        /// First original name.
        first: String,
        /// Second original name.
        second: String,
        /// The shared rewritten name.
        sanitized: String,
    },
    /// A combinational block breaks an assumption of the glitch-free rewrite (every target
    /// assigned before it is read and on every path), or is not in rust-hdl's form.
    #[error("block `{block}`, module `{module}`: the `always @(*)` block cannot be made glitch-free: line {line}: {reason}")]
    CombinationalBlock {
        /// The block's module name.
        block: String,
        /// The module concerned.
        module: String,
        /// 1-based line in the generated text.
        line: usize,
        /// The violated condition.
        reason: String,
    },
    /// Adding the modules to the design failed.
    #[error(transparent)]
    Netlist(#[from] NetlistError),
}

/// Converts rust-hdl's Verilog text (the output of `generate_verilog`) for a block to be
/// named `name` into leaf modules, children first and the block's own module last.
pub fn import_verilog(name: &str, verilog: &str) -> Result<Vec<Module>, ImportError> {
    if let Err(issue) = crate::netlist::check_identifier(name) {
        return Err(ImportError::IllegalIdentifier {
            block: name.to_owned(),
            module: name.to_owned(),
            kind: "module",
            name: name.to_owned(),
            issue,
        });
    }
    let raws = parse::split_modules(verilog).map_err(|(line, reason)| ImportError::Parse {
        block: name.to_owned(),
        line,
        reason,
    })?;
    convert::convert(name, raws).map(flops::inline_flops)
}

/// Connects `block`, runs rust-hdl's checks and Verilog generator, and converts the result
/// as [`import_verilog`] does. rust-hdl panics are caught and reported.
pub fn import_block<B: Block>(name: &str, block: &mut B) -> Result<Vec<Module>, ImportError> {
    let generated = catch_unwind(AssertUnwindSafe(|| {
        block.connect_all();
        check_all(block).map(|()| generate_verilog_unchecked(block))
    }));
    match generated {
        Ok(Ok(verilog)) => import_verilog(name, &verilog),
        Ok(Err(check)) => Err(ImportError::Check {
            block: name.to_owned(),
            detail: format!("{check:?}"),
        }),
        Err(panic) => Err(ImportError::Panicked {
            block: name.to_owned(),
            message: panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".to_owned()),
        }),
    }
}

/// Imports `block` as module `name` and adds it to `design`, sharing identical child
/// modules with the leaves already there. Returns the module name.
pub fn add_block<B: Block>(
    design: &mut Design,
    name: &str,
    block: &mut B,
) -> Result<String, ImportError> {
    let tree = import_block(name, block)?;
    Ok(design.add_leaf_tree(tree)?)
}
