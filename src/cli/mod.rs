//! Command-line interface: the subcommand tree and its dispatch.
//!
//! Conventions shared by every subcommand (see `common`):
//! - `--json` prints exactly one JSON document on stdout; human-readable text otherwise.
//! - Every random choice comes from `--seed`; when it is omitted a fresh seed is drawn
//!   and printed on stderr so the run can be reproduced.
//! - Exit codes: 0 success, 1 error (bad input, missing tool, internal error),
//!   2 verification failure (co-simulation mismatch, failed check).

pub mod bench;
pub mod common;
pub mod diagram;
pub mod export_tb;
pub mod fpga;
pub mod fusesoc;
pub mod generate;
#[cfg(test)]
mod hostile;
pub mod info;
pub mod latin;
pub mod presets;
pub mod prove;
pub mod schedule;
pub mod sim;
pub mod sweep;
pub mod topology_args;

use clap::{Parser, Subcommand};

/// Exit code for errors (bad input, missing tools, internal errors).
pub const EXIT_ERROR: u8 = 1;
/// Exit code when a verification (co-simulation, self-check) fails.
pub const EXIT_MISMATCH: u8 = 2;

/// What a successful run of a subcommand concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything ran and every check passed.
    Success,
    /// Everything ran, but RTL and golden model disagreed (or a check failed).
    Mismatch,
}

/// RTL generator and co-simulator for LCA networks, bit-serial hypercube routers and
/// self-routing multistage networks.
#[derive(Debug, Parser)]
#[command(name = "lcanet", version, about, long_about = None, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Describe an LCA network: switches per level, links, LCA-level distribution.
    Info(info::Args),
    /// Schedule a permutation on an LCA network with R1 or R2, pass by pass.
    Schedule(schedule::Args),
    /// Draw an LCA network (Graphviz DOT or SVG), like the papers' Figures 3-4.
    Diagram(diagram::Args),
    /// Emit synthesizable Verilog-2005 for a block or a whole network.
    #[command(subcommand)]
    Generate(generate::Command),
    /// Co-simulate emitted Verilog (Verilator) against the golden model, bit-time by bit-time.
    #[command(subcommand)]
    Sim(sim::Command),
    /// Write a self-checking Verilog test bench (stimulus + expected outputs) for Icarus.
    #[command(subcommand)]
    ExportTb(export_tb::Command),
    /// Print the Latin square of admissible permutations used for all-to-all exchange.
    Latin(latin::Args),
    /// Measure speed and size side by side (figures and ratios; nothing is asserted).
    #[command(subcommand)]
    Bench(bench::Command),
    /// Co-simulate every valid T-LCAN/CB-LCAN configuration up to a size (shardable).
    Sweep(sweep::Args),
    /// Prove the LCA switch's invariants for every reachable state (Yosys k-induction).
    #[command(subcommand)]
    Prove(prove::Command),
    /// Place and route emitted Verilog on an iCE40 or ECP5 part (Yosys, nextpnr): resources,
    /// Fmax, a bitstream; for a self-test, the placed netlist simulated against the golden model.
    Fpga(fpga::Args),
    /// lcanet as a FuseSoC generator: the core that registers it, and its entry point.
    #[command(subcommand)]
    Fusesoc(fusesoc::Command),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Info(a) => info::run(a),
        Command::Schedule(a) => schedule::run(a),
        Command::Diagram(a) => diagram::run(a),
        Command::Generate(c) => generate::run(c),
        Command::Sim(c) => sim::run(c),
        Command::ExportTb(c) => export_tb::run(c),
        Command::Latin(a) => latin::run(a),
        Command::Bench(c) => bench::run(c),
        Command::Sweep(a) => sweep::run(a),
        Command::Prove(c) => prove::run(c),
        Command::Fpga(a) => fpga::run(a),
        Command::Fusesoc(c) => fusesoc::run(c),
    }
}
