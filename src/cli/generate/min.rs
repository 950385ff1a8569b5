//! `lcanet generate min` (not implemented yet).

/// Arguments of `lcanet generate min`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet generate min`.
pub fn run(_args: Args) -> anyhow::Result<crate::cli::Outcome> {
    anyhow::bail!("`lcanet generate min` is not implemented yet")
}
