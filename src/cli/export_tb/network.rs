//! `lcanet export-tb network`: the network's Verilog plus a self-checking Verilog test bench
//! holding the canonical run's stimulus and the golden model's expected outputs per
//! bit-time (`docs/interface.md`), which runs in Icarus Verilog with no Rust.

use crate::cli::common::{print_json, SeedArg, Staged};
use crate::cli::fusesoc::core::{Core, CoreArgs};
use crate::cli::generate::network::NetArgs;
use crate::cli::topology_args::describe;
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_sim::lcan::workload::{generate, Generator};
use lcanet_sim::lcan::Topology;
use lcanet_sim::perm::PartialPermutation;
use lcanet_testbench::lca_export::export_network;
use lcanet_testbench::tbwriter::run_testbench;
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `lcanet export-tb network`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  lcanet export-tb network --topology tree --d 2 --u 1 --levels 2 --perm random --seed 7 -o tb
  sh tb/run.sh            # Icarus Verilog: prints PASS <n> bit-times or FAIL …
  lcanet export-tb network --topology cb --d 2 --u 2 --levels 3 --algorithm r2 --arbiter random -o tb --run
  lcanet export-tb network --pi docs/examples/skewed8.pi --perm random --seed 3 -o tb --run
  lcanet export-tb network --topology fat-tree --levels 3 --perm worst-case -o tb --run")]
pub struct Args {
    #[command(flatten)]
    net: NetArgs,
    /// The permutation: random, identity, worst-case, or a permutation FILE.
    #[arg(long, default_value = "random")]
    perm: String,
    #[command(flatten)]
    seed: SeedArg,
    /// Output directory (the network's Verilog, the test bench, its data and run.sh).
    #[arg(short = 'o', long = "out")]
    out: PathBuf,
    /// Bit-times recorded after `done` rises (at most 1,000,000).
    #[arg(long, default_value_t = 4)]
    tail: u64,
    /// Give up if `done` has not risen after this many bit-times.
    #[arg(long = "max-bit-times", default_value_t = 5_000_000)]
    max_bit_times: u64,
    /// Also run the test bench in Icarus Verilog (exit status 1 on FAIL).
    #[arg(long)]
    run: bool,
    #[command(flatten)]
    core: CoreArgs,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// What `export-tb network` wrote (and, with `--run`, what Icarus said).
#[derive(Debug, Serialize)]
pub struct Summary {
    /// Top module of the network.
    pub top: String,
    /// Output directory.
    pub dir: PathBuf,
    /// The test bench file.
    pub testbench: PathBuf,
    /// The FuseSoC core file (docs/fusesoc.md): targets default, lint, sim.
    pub core: PathBuf,
    /// Its name (VLNV).
    pub core_name: String,
    /// Seed of the run (permutation, messages, arbiters).
    pub seed: u64,
    /// `--perm`.
    pub perm: String,
    /// Destination of every PE (`null`: inactive).
    pub destinations: Vec<Option<usize>>,
    /// Bit-times recorded.
    pub bit_times_recorded: u64,
    /// The model's `bit_times` output at `done`.
    pub bit_times: u64,
    /// Passes.
    pub passes: usize,
    /// The model's `error` output at `done`.
    pub error: bool,
    /// `PASS`/`FAIL` from Icarus with `--run`, else `null`.
    pub icarus: Option<String>,
}

fn permutation(spec: &str, topo: &Topology, seed: u64) -> anyhow::Result<PartialPermutation> {
    let gen = match spec {
        "random" => Generator::Random,
        "identity" => Generator::Identity,
        "worst-case" => Generator::WorstCase,
        path => {
            let text = std::fs::read_to_string(path).with_context(|| {
                format!("reading the permutation file {path} (--perm is random, identity, worst-case or a FILE)")
            })?;
            return PartialPermutation::parse(&text, topo.n())
                .with_context(|| format!("in the permutation file {path}"));
        }
    };
    Ok(generate(topo, gen, seed)?.to_partial())
}

/// Largest `--tail`: every recorded bit-time is a line of stimulus and expectations held
/// in memory and written to the bench's data files.
pub const MAX_TAIL: u64 = 1_000_000;

/// `--tail` and `--max-bit-times` against their limits (the error names the flag).
fn check_budget(tail: u64, max_bit_times: u64) -> anyhow::Result<()> {
    if tail > MAX_TAIL {
        bail!("--tail {tail} is larger than the limit {MAX_TAIL} bit-times");
    }
    if tail >= max_bit_times {
        bail!(
            "--tail {tail} must be smaller than --max-bit-times {max_bit_times} \
(the budget covers the run and the tail after `done`)"
        );
    }
    Ok(())
}

/// Runs `lcanet export-tb network`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    check_budget(args.tail, args.max_bit_times)?;
    let spec = args.net.spec()?;
    let seed = args.seed.resolve();
    let perm = permutation(&args.perm, &spec.topo, seed)?;
    // Written into a staging directory that becomes the output only once the whole
    // bench is in it (run.sh is relocatable: it names the design files beside it).
    let staged = Staged::new(&args.out)?;
    let ex = export_network(
        &spec,
        perm.as_slice(),
        seed,
        None,
        args.tail,
        args.max_bit_times,
        staged.path(),
    )?;
    let (bench, tb, top) = (&ex.bench, &ex.testbench, ex.top.clone());
    let dir = args.out.clone();
    let name = |p: &PathBuf| {
        p.file_name()
            .map_or_else(String::new, |f| f.to_string_lossy().into_owned())
    };
    let core_name = args.core.vlnv("tb", &top)?;
    let rtl: Vec<String> = tb.design_files.iter().map(name).collect();
    let data: Vec<String> = tb.data_files.iter().map(name).collect();
    let core = Core::of_files(
        core_name.clone(),
        format!(
            "{}, its self-checking bench (seed {seed}, --perm {}) (lcanet export-tb network)",
            describe(&spec.topo),
            args.perm
        ),
        &top,
        &rtl,
    )
    .with_bench(&tb.module, &name(&tb.testbench), &data)
    .write_into(staged.path())?;
    let icarus = if args.run {
        let outcome = run_testbench(tb).context("running the test bench in Icarus Verilog")?;
        Some(if outcome.passed() {
            "PASS".to_string()
        } else {
            format!("FAIL: {}", outcome.stdout.trim())
        })
    } else {
        None
    };
    staged.commit()?;
    let summary = Summary {
        top,
        dir: dir.clone(),
        testbench: tb
            .testbench
            .file_name()
            .map_or_else(|| tb.testbench.clone(), |f| args.out.join(f)),
        core: args.out.join(core),
        core_name,
        seed,
        perm: args.perm.clone(),
        destinations: perm.as_slice().to_vec(),
        bit_times_recorded: bench.bit_times_recorded,
        bit_times: bench.bit_times,
        passes: bench.passes,
        error: bench.error,
        icarus: icarus.clone(),
    };
    if args.json {
        print_json(&summary)?;
    } else {
        println!(
            "{}: test bench {} ({} bit-times recorded; the model routes in {} passes, {} bit-times; seed {seed})",
            summary.top,
            summary.testbench.display(),
            summary.bit_times_recorded,
            summary.passes,
            summary.bit_times
        );
        println!("run it: sh {}", dir.join("run.sh").display());
        println!(
            "or with FuseSoC: fusesoc --cores-root {} run --target sim {} (core {})",
            dir.display(),
            summary.core_name,
            summary.core.display()
        );
        if let Some(v) = &icarus {
            println!("icarus: {v}");
        }
    }
    match icarus {
        Some(v) if !v.starts_with("PASS") => Ok(Outcome::Mismatch),
        _ => Ok(Outcome::Success),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (hostile-input harness): `--tail 18446744073709551615` overflowed
    /// `done + tail` (a panic in debug builds), and `--tail 100000000` with a large
    /// `--max-bit-times` ran out of memory; a tail past the budget blamed `done`.
    #[test]
    fn tail_and_budget_are_checked_naming_the_flag() {
        let e = check_budget(u64::MAX, u64::MAX).unwrap_err().to_string();
        assert!(
            e.contains("--tail 18446744073709551615 is larger than the limit"),
            "{e}"
        );
        let e = check_budget(100_000_000, 1_000_000_000)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--tail 100000000 is larger than the limit 1000000"),
            "{e}"
        );
        let e = check_budget(10, 10).unwrap_err().to_string();
        assert!(
            e.contains("--tail 10 must be smaller than --max-bit-times 10"),
            "{e}"
        );
        check_budget(4, 5_000_000).unwrap();
        check_budget(MAX_TAIL, u64::MAX).unwrap();
    }
}
