//! `lcanet generate switch` (not implemented yet).

/// Arguments of `lcanet generate switch`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet generate switch`.
pub fn run(_args: Args) -> anyhow::Result<crate::cli::Outcome> {
    anyhow::bail!("`lcanet generate switch` is not implemented yet")
}
