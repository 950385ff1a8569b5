//! `lcanet latin` (not implemented yet).

/// Arguments of `lcanet latin`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet latin`.
pub fn run(_args: Args) -> anyhow::Result<super::Outcome> {
    anyhow::bail!("`lcanet latin` is not implemented yet")
}
