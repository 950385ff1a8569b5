//! `lcanet generate network` (not implemented yet).

/// Arguments of `lcanet generate network`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet generate network`.
pub fn run(_args: Args) -> anyhow::Result<crate::cli::Outcome> {
    anyhow::bail!("`lcanet generate network` is not implemented yet")
}
