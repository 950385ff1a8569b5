//! `lcanet sim switch` (not implemented yet).

/// Arguments of `lcanet sim switch`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet sim switch`.
pub fn run(_args: Args) -> anyhow::Result<crate::cli::Outcome> {
    anyhow::bail!("`lcanet sim switch` is not implemented yet")
}
