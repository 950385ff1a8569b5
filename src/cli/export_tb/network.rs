//! `lcanet export-tb network` (not implemented yet).

/// Arguments of `lcanet export-tb network`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet export-tb network`.
pub fn run(_args: Args) -> anyhow::Result<crate::cli::Outcome> {
    anyhow::bail!("`lcanet export-tb network` is not implemented yet")
}
