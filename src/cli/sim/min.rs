//! `lcanet sim min` (not implemented yet).

/// Arguments of `lcanet sim min`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet sim min`.
pub fn run(_args: Args) -> anyhow::Result<crate::cli::Outcome> {
    anyhow::bail!("`lcanet sim min` is not implemented yet")
}
