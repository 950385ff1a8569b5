//! Word-level RTL: modules elaborated from run-time parameters, and their Verilog-2005
//! emitter.
//!
//! A [`Design`] holds [`Module`]s. A module has [`Port`]s and a [`Body`]: wires, registers,
//! continuous assigns over [`Expr`]essions, [`Instance`]s of other modules, and one clocked
//! process (`always @(posedge clock)`). Blocks are written with [`ModuleBuilder`] and [`V`]
//! (values of known width; widths are ordinary numbers computed from the parameters). Each
//! distinct block is one module, defined once however many instances use it.
//!
//! The flow is `validate()` then `emit()`: [`Design::validate`] reports every broken rule
//! (naming the module, instance, port or net and the widths), and [`Design::emit`]
//! validates and prints one `<module>.v` per module plus the file list `<top>.f`.
//! See `docs/netlist.md` for the data model, naming scheme, rules and file layout.

mod builder;
mod design;
mod emit;
mod error;
mod expr;
mod ident;
pub mod keywords;
mod module;
mod rows;
mod validate;
mod value;

pub use builder::{names, CaseBuilder, IfChain, InstanceBuilder, ModuleBuilder, Proc};
pub use design::{elaborate, Design};
pub use emit::{generator_name, EmitOptions, Emitted, EmittedFile};
pub use error::{NetlistError, Site, ValidationError, ValidationErrors};
pub use expr::{index_bits, BinaryOp, Expr, UnaryOp, WidthError};
pub use ident::{check_identifier, IdentIssue, MAX_IDENTIFIER_LEN};
pub use module::{
    Assign, Body, Direction, Instance, Item, Memory, Module, Net, Pin, Port, Reg, Stmt, CLOCK,
};
pub use rows::{replicate, replicate_with, RowsError, ROW};
pub use value::{and_all, cat, flag, lit, lit_words, or_all, priority, zero, Mem, V};
