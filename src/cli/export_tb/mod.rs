//! `lcanet export-tb ...`: one module per target.

pub mod network;

/// Targets of `lcanet export-tb`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Self-checking Verilog test bench for an LCA network (stimulus + expected outputs).
    Network(network::Args),
}

/// Runs one target.
pub fn run(command: Command) -> anyhow::Result<super::Outcome> {
    match command {
        Command::Network(a) => network::run(a),
    }
}
