//! `lcanet sim min`: one permutation through an emitted MIN in Verilator (a single
//! frame), compared with the golden model every bit-time; the switches' conflict flags
//! must equal the golden admissibility model's (docs/min.md §3). Exit code 2 when RTL
//! and model differ (a non-admissible permutation is not a mismatch: its conflicts are
//! predicted and reported).

use super::ataape::{execute, finish, RunArgs};
use crate::cli::latin::MinArgs;
use crate::cli::Outcome;
use anyhow::Context;
use lcanet_sim::min::{Conflict, RunConfig};
use lcanet_sim::perm::Permutation;
use lcanet_sim::rng::{derive, seeded};

/// Arguments of `lcanet sim min`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lcanet sim min --network omega --m 3 --perm identity --seed 1
  lcanet sim min --network baseline --m 4 --perm random --seed 9 --json
  lcanet sim min --network cube --m 3 --perm my.perm     (file: docs of sim/src/perm.rs)
  lcanet sim min --network reverse-baseline --m 3 --perm identity --seed 2

A permutation is admissible when no two unique paths need one switch output; the
report lists every conflicting switch (stage, switch, output, sources).")]
pub struct Args {
    #[command(flatten)]
    net: MinArgs,
    /// The permutation: `random` (from --seed), `identity`, or a file of n destinations.
    #[arg(long)]
    perm: String,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(serde::Serialize)]
struct Extra {
    permutation: Vec<usize>,
    admissible: bool,
    /// Every switch output two unique paths need (004's admissibility).
    path_conflicts: Vec<Conflict>,
    /// The conflicts the hardware flags (upper input wins, lower deflected).
    flagged: Vec<Conflict>,
}

/// Runs `lcanet sim min`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let min = args.net.build()?;
    let seed = args.run.seed.resolve();
    let perm = match args.perm.as_str() {
        "identity" => Permutation::identity(min.n()),
        "random" => Permutation::random(min.n(), &mut seeded(derive(seed, "min-perm"))),
        file => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("reading permutation file {file}"))?;
            Permutation::parse(&text, min.n()).with_context(|| {
                format!(
                    "{file} is not a permutation of the network's {} PEs",
                    min.n()
                )
            })?
        }
    };
    let adm = min.check(&perm);
    let transit = min.transit(&perm);
    let cfg = RunConfig::single(min, perm.clone(), args.run.message_bits, seed)
        .context("invalid --message-bits")?;
    let name = format!("sim_min_{}_m{}", min.network(), min.m());
    let r = execute(&cfg, &args.run, &name)?;
    if !args.run.out.json {
        if adm.is_admissible() {
            println!("permutation is admissible");
        } else {
            println!("permutation is NOT admissible; contested switch outputs:");
            for c in &adm.conflicts {
                println!(
                    "  stage {} switch {} output {}: sources {:?}",
                    c.stage, c.switch, c.output, c.sources
                );
            }
        }
    }
    let extra = Extra {
        permutation: perm.as_slice().to_vec(),
        admissible: adm.is_admissible(),
        path_conflicts: adm.conflicts,
        flagged: transit.conflicts,
    };
    finish(&r, seed, extra, args.run.out.json)
}
