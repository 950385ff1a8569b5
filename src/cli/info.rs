//! `lcanet info` (not implemented yet).

/// Arguments of `lcanet info`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet info`.
pub fn run(_args: Args) -> anyhow::Result<super::Outcome> {
    anyhow::bail!("`lcanet info` is not implemented yet")
}
