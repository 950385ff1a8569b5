//! `lcanet schedule` (not implemented yet).

/// Arguments of `lcanet schedule`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet schedule`.
pub fn run(_args: Args) -> anyhow::Result<super::Outcome> {
    anyhow::bail!("`lcanet schedule` is not implemented yet")
}
