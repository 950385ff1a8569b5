//! `lcanet bench …`: speed and size measured, never asserted. Each subcommand measures
//! side by side in one run and prints the figures and their ratios (these machines are
//! shared and noisy: compare within a run, not across runs).

pub mod all_to_all;
pub mod cosim;
pub mod cosim_waves;
pub mod fpga;
pub mod hypercube;
pub mod routing;
pub mod routing_bits;
pub mod routing_pareto;
pub mod routing_plot;
pub mod routing_sweep;
pub mod svg;

/// The `bench` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// One co-simulation taken apart: generation, a cold Verilator build (seconds, C++
    /// bytes, peak memory), the full co-simulation, the golden model alone and the
    /// Verilated model alone, with ratios. Any network of `sim network`, or the hypercube
    /// with --k.
    Cosim(cosim::Args),
    /// The papers' routing claims measured with the golden models: topology × (d,u) × n ×
    /// algorithm × workload, passes against the lower bound and the optimum, bit-times per
    /// permutation; JSON lines and SVG plots into --out DIR.
    Routing(routing::Args),
    /// All-to-all personalized exchange on every family: ATAPE on the six MINs, n − 1
    /// permutations on LCA networks (R1/R2/R3) and the hypercube router; bit-times from
    /// the golden models, co-simulated in Verilator at small n, Yosys LUTs/FFs per PE.
    #[command(name = "all-to-all")]
    AllToAll(all_to_all::Args),
    /// Every hypercube router side by side for a range of k: bit times of the co-simulated
    /// RTL next to the closed forms, buffers and flip-flops per node, Yosys cost; JSON
    /// and SVG plots (docs/hypercube.md §15).
    Hypercube(hypercube::Args),
    /// The largest self-testing network of each family that fits each FPGA: Yosys per
    /// size and device family (and Xilinx estimates), place and route of the largest fit,
    /// Fmax, a permutation's time, where the area is (docs/selftest.md §7).
    Fpga(fpga::Args),
}

/// Runs a `bench` subcommand.
pub fn run(command: Command) -> anyhow::Result<super::Outcome> {
    match command {
        Command::Cosim(a) => cosim::run(a),
        Command::Routing(a) => routing::run(a),
        Command::AllToAll(a) => all_to_all::run(a),
        Command::Hypercube(a) => hypercube::run(a),
        Command::Fpga(a) => fpga::run(a),
    }
}
