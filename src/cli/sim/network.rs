//! `lcanet sim network` (not implemented yet).

/// Arguments of `lcanet sim network`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet sim network`.
pub fn run(_args: Args) -> anyhow::Result<crate::cli::Outcome> {
    anyhow::bail!("`lcanet sim network` is not implemented yet")
}
