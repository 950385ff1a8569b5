//! `lcanet sim ataape` (not implemented yet).

/// Arguments of `lcanet sim ataape`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lcanet sim ataape`.
pub fn run(_args: Args) -> anyhow::Result<crate::cli::Outcome> {
    anyhow::bail!("`lcanet sim ataape` is not implemented yet")
}
