//! Conventions shared by subcommands: seeds, JSON output, output directories.

use anyhow::Context;
use std::path::Path;

/// `--seed`: every random choice of a run derives from it.
#[derive(Debug, Clone, clap::Args)]
pub struct SeedArg {
    /// Seed for every random choice (printed when omitted, so any run can be reproduced).
    #[arg(long)]
    pub seed: Option<u64>,
}

impl SeedArg {
    /// The seed to use: the one given, or a fresh one announced on stderr.
    pub fn resolve(&self) -> u64 {
        match self.seed {
            Some(s) => s,
            None => {
                let s = lcanet_sim::rng::fresh_seed();
                eprintln!("seed: {s} (pass --seed {s} to reproduce this run)");
                s
            }
        }
    }
}

/// `--vcd`, `--json`, `--optimize`: the output and build options of the co-simulation
/// commands (`sim switch`, `sim network`).
#[derive(Debug, Clone, clap::Args)]
pub struct CosimArgs {
    /// Write a VCD waveform here (a mismatch keeps a VCD of its own anyway and prints where).
    #[arg(long)]
    pub vcd: Option<std::path::PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Compile the Verilated model with g++ -O3 instead of -O1: a cold build takes longer,
    /// the simulation runs faster (worth it for long runs and large networks).
    #[arg(long)]
    pub optimize: bool,
}

impl CosimArgs {
    /// The C++ optimization `--optimize` asks for.
    pub fn speed(&self) -> lcanet_testbench::bridge::Optimize {
        if self.optimize {
            lcanet_testbench::bridge::Optimize::Fast
        } else {
            lcanet_testbench::bridge::Optimize::Quick
        }
    }
}

/// Prints `value` as pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(value).context("serializing JSON output")?;
    println!("{text}");
    Ok(())
}

/// Creates `dir` (and parents) for output files.
pub fn ensure_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating directory {}", dir.display()))
}

/// Writes `contents` to `path` atomically (temp file + rename), so a failed run never
/// leaves a half-written file behind.
pub fn write_atomic(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = dir {
        ensure_dir(dir)?;
    }
    let file_name = path
        .file_name()
        .with_context(|| format!("{} is not a file path", path.display()))?;
    let tmp = path.with_file_name(format!(".{}.tmp", file_name.to_string_lossy()));
    std::fs::write(&tmp, contents).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming into {}", path.display()))?;
    Ok(())
}
