//! `lcanet bench …`: speed and size measured, never asserted. Each subcommand measures
//! side by side in one run and prints the figures and their ratios (these machines are
//! shared and noisy: compare within a run, not across runs).

pub mod cosim;

/// The `bench` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// One co-simulation taken apart: generation, a cold Verilator build (seconds, C++
    /// bytes, peak memory), the full co-simulation, the golden model alone and the
    /// Verilated model alone, with ratios. Any network of `sim network`, or the hypercube
    /// with --k.
    Cosim(cosim::Args),
}

/// Runs a `bench` subcommand.
pub fn run(command: Command) -> anyhow::Result<super::Outcome> {
    match command {
        Command::Cosim(a) => cosim::run(a),
    }
}
