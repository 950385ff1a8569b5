//! `lcanet diagram` (not implemented yet).

/// Arguments of `lcanet diagram`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet diagram`.
pub fn run(_args: Args) -> anyhow::Result<super::Outcome> {
    anyhow::bail!("`lcanet diagram` is not implemented yet")
}
