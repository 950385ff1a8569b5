//! `lcanet generate hypercube` (not implemented yet).

/// Arguments of `lcanet generate hypercube`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet generate hypercube`.
pub fn run(_args: Args) -> anyhow::Result<crate::cli::Outcome> {
    anyhow::bail!("`lcanet generate hypercube` is not implemented yet")
}
