//! The structural netlist of a whole network and its Verilog-2005 emitter.
//!
//! A [`Design`] holds [`Module`]s. A module has [`Port`]s and a [`Body`]: a *leaf* (Verilog
//! text written by rust-hdl, imported and sanitized by [`crate::rusthdl`]) or *structural*
//! ([`Net`]s, [`Instance`]s with named port connections, [`Assign`]s over [`Expr`]essions).
//! Each distinct block is one module, defined once however many instances use it.
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
mod validate;

pub use builder::{names, InstanceBuilder, ModuleBuilder};
pub use design::Design;
pub use emit::{generator_name, EmitOptions, Emitted, EmittedFile};
pub use error::{NetlistError, Site, ValidationError, ValidationErrors};
pub use expr::Expr;
pub use ident::{check_identifier, IdentIssue, MAX_IDENTIFIER_LEN};
pub use module::{
    Assign, Body, Direction, Instance, Leaf, LeafLine, Module, Net, Pin, Port, PortStyle,
    Structural,
};
