//! `lcanet generate ...`: one module per target.

pub mod hypercube;
pub mod min;
pub mod network;
pub mod selftest;
pub mod switch;

/// Targets of `lcanet generate`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// One LCA switch (d downers, u uppers, link width, arbiter policy) as Verilog.
    Switch(switch::Args),
    /// A whole LCA network (T-LCAN, CB-LCAN or a Π file) that routes permutations by itself (R1 or R2).
    Network(network::Args),
    /// A k-cube of pipelined bit-serial routers running Kuszmaul's Algorithm 1/2.
    Hypercube(hypercube::Args),
    /// A baseline, omega or indirect binary n-cube network of 2x2 self-routing switches with ATAPE units.
    Min(min::Args),
    /// A network (LCA, hypercube, MIN) wrapped in an on-chip self-test (stimulus, checker, counters, LEDs, UART report).
    Selftest(selftest::Args),
}

/// Runs one target.
pub fn run(command: Command) -> anyhow::Result<super::Outcome> {
    match command {
        Command::Switch(a) => switch::run(a),
        Command::Network(a) => network::run(a),
        Command::Hypercube(a) => hypercube::run(a),
        Command::Min(a) => min::run(a),
        Command::Selftest(a) => selftest::run(a, crate::cli::common::invocation_after("selftest")),
    }
}
