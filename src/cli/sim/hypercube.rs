//! `lcanet sim hypercube` (not implemented yet).

/// Arguments of `lcanet sim hypercube`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet sim hypercube`.
pub fn run(_args: Args) -> anyhow::Result<crate::cli::Outcome> {
    anyhow::bail!("`lcanet sim hypercube` is not implemented yet")
}
