//! `lcanet sim ...`: one module per target.

pub mod ataape;
pub mod hypercube;
pub mod hypercube_quad;
pub mod min;
pub mod network;
pub mod switch;

/// Targets of `lcanet sim`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Random legal traffic through one LCA switch, in set-up and pass-through modes.
    Switch(switch::Args),
    /// Route a permutation through a whole LCA network (R1 or R2), compared every bit-time.
    Network(network::Args),
    /// Route a semi-contraction (Algorithm 1) or any permutation (Algorithm 2) on a k-cube.
    Hypercube(hypercube::Args),
    /// All-to-all personalized exchange through a self-routing MIN, frame by frame.
    Ataape(ataape::Args),
    /// One permutation through a self-routing MIN; conflicts compared with the admissibility check.
    Min(min::Args),
}

/// Runs one target.
pub fn run(command: Command) -> anyhow::Result<super::Outcome> {
    match command {
        Command::Switch(a) => switch::run(a),
        Command::Network(a) => network::run(a),
        Command::Hypercube(a) => hypercube::run(a),
        Command::Ataape(a) => ataape::run(a),
        Command::Min(a) => min::run(a),
    }
}

/// `--threads N`: the Verilated model evaluated by N threads (Verilator's `--threads`).
#[derive(Debug, Clone, clap::Args)]
pub struct ThreadsArg {
    /// Threads of the Verilated model (Verilator's --threads; a model per thread count is
    /// built and cached). 1, the default, is the fastest on a 2-core machine; see
    /// docs/testbench.md ("Threads") for larger ones.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
}

impl ThreadsArg {
    /// The thread count.
    pub fn get(&self) -> usize {
        usize::from(self.threads)
    }
}

/// Writes the GTKWave save file `files` (and its translate filters) beside `vcd`
/// (`run.vcd` → `run.gtkw`), opening on `view`, and returns its path.
pub(crate) fn write_gtkw(
    files: &lcanet_hdl::gtkw::GtkwFiles,
    vcd: &std::path::Path,
    view: lcanet_hdl::gtkw::View,
) -> anyhow::Result<std::path::PathBuf> {
    use anyhow::Context;
    files
        .clone()
        .viewing(view)
        .write_beside(vcd)
        .with_context(|| format!("writing the GTKWave files beside {}", vcd.display()))
}

/// The line that tells how to open the waveforms.
pub(crate) fn waveforms_line(vcd: &std::path::Path, gtkw: &std::path::Path) -> String {
    format!("waveforms: gtkwave {} {}", vcd.display(), gtkw.display())
}
