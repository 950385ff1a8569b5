//! Formal verification of the LCA switch (`docs/formal.md`): a SystemVerilog-for-Yosys
//! harness around one generated switch that states the switch invariants P1–P4 of
//! `docs/protocol.md` §8 (and the forwarding rules of §6, §7) as assertions, the
//! controller's rules of §3 as assumptions, and the auxiliary invariants that make the
//! properties provable by induction; and the Yosys scripts that prove them.
//!
//! - [`harness`](mod@harness): the harness text and the switch's internal signals it reads (the proof
//!   script exposes them as ports with Yosys `expose`, so the switch's Verilog is the one
//!   `generate switch` writes).
//! - [`script`]: the Yosys scripts, one per property: a k-induction proof
//!   (`sat -tempinduct`) and a bounded search for a counterexample (`sat -seq`); and the
//!   search for a witness that the assumptions admit real traffic.
//!
//! This module writes text only; running Yosys is the CLI's (`lcanet prove switch`).

pub mod harness;
pub mod script;

pub use harness::{harness, Harness, Property, EXPOSED};
pub use script::{bmc_script, induction_script, witness_script, ScriptFiles};
