//! `lcanet prove`: proves with Yosys that the blocks the generators ship keep their
//! properties in every reachable state (`docs/formal.md`): the LCA switch of R1/R2 in
//! every set-up (sequential, fast, `--decisions M`), topology (tree, cb, a Π file's
//! tables or a symbolic table) and level count (P1–P6: no double drivers, no multicast,
//! crosspoints held, packets forwarded bit for bit, every arbiter decision the policy's,
//! state changed only as the protocol says); the R3 switch (P1–P5 of §12); the hypercube
//! node router with its controller (P1–P3: transit, collision, one frame end to end).
//! `prove matrix` runs the coverage matrix, or a slice of it.
//!
//! - [`run`](mod@run): the Yosys runs and their verdicts (shared by every target);
//! - [`switch`], [`r3`], [`cube`]: one target each, its arguments and its job;
//! - [`matrix`]: the coverage matrix, its slices, and the run over it.

pub mod cube;
pub mod matrix;
pub mod r3;
pub mod run;
pub mod switch;

use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::formal::Property;
use run::{Plan, PropertyResult, Status};
use std::io::Write;
use std::time::Duration;

/// Targets of `lcanet prove`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Prove the properties of one LCA switch (P1-P6 of docs/formal.md) with Yosys.
    Switch(switch::Args),
    /// Prove the properties of one R3 switch (docs/protocol.md §12; P1-P5).
    R3(r3::Args),
    /// Prove the hypercube node router (the default overlapped router's node, with the
    /// cube's controller; P1-P3 of docs/formal.md).
    Cube(cube::Args),
    /// Prove every configuration of the coverage matrix (or a slice): one line each.
    Matrix(matrix::Args),
}

/// The proof options shared by every target.
#[derive(Debug, Clone, clap::Args)]
pub struct ProofArgs {
    /// Properties to prove, comma-separated (P1-P6; the R3 switch has P1-P5, the hypercube
    /// node P1-P3; default all of the block's).
    #[arg(long, value_delimiter = ',')]
    pub property: Vec<String>,
    /// Largest induction length k tried (1..=64).
    #[arg(long, default_value_t = 3)]
    pub max_k: usize,
    /// Bit-times from power-up searched for a counterexample when a property does not
    /// prove (1..=4096; default two of the longest step plus two).
    #[arg(long)]
    pub bmc_depth: Option<usize>,
    /// Time limit of one Yosys run in seconds (1..=86400); past it the property is unproved.
    #[arg(long, default_value_t = 900)]
    pub timeout: u64,
    /// Print one JSON document per line (per property, or per configuration for `matrix`).
    #[arg(long)]
    pub json: bool,
}

/// Validates the proof options.
pub fn plan(a: &ProofArgs) -> anyhow::Result<Plan> {
    let mut props = Vec::new();
    for s in &a.property {
        let p = Property::parse(s.trim()).with_context(|| {
            format!("--property {s}: not a property (the properties are P1 … P6)")
        })?;
        if !props.contains(&p) {
            props.push(p);
        }
    }
    if props.is_empty() {
        props = Property::ALL.to_vec();
    }
    props.sort();
    if !(1..=64).contains(&a.max_k) {
        bail!("--max-k {}: must be between 1 and 64", a.max_k);
    }
    if let Some(n) = a.bmc_depth {
        if !(1..=4096).contains(&n) {
            bail!("--bmc-depth {n}: must be between 1 and 4096");
        }
    }
    if !(1..=86_400).contains(&a.timeout) {
        bail!(
            "--timeout {}: must be between 1 and 86400 seconds",
            a.timeout
        );
    }
    Ok(Plan {
        props,
        max_k: a.max_k,
        bmc_depth: a.bmc_depth,
        timeout: Duration::from_secs(a.timeout),
        json: a.json,
    })
}

/// `plan`'s properties that `block` has, or an error naming them if there are none.
pub fn own_properties(plan: &Plan, block: lcanet_hdl::formal::Block) -> anyhow::Result<()> {
    let own = Property::of(block);
    if !plan.props.iter().any(|p| own.contains(p)) {
        let names: Vec<&str> = own.iter().map(|p| p.name()).collect();
        bail!(
            "--property: this block has none of the properties asked for (its properties are {})",
            names.join(", ")
        );
    }
    Ok(())
}

/// Runs `lcanet prove …`.
pub fn run(command: Command) -> anyhow::Result<Outcome> {
    match command {
        Command::Switch(a) => switch::run(a),
        Command::R3(a) => r3::run(a),
        Command::Cube(a) => cube::run(a),
        Command::Matrix(a) => matrix::run(a),
    }
}

/// Success only if every property is proved (or, where its block declares it bounded,
/// proved to its bounded depth).
pub fn verdict(results: &[PropertyResult]) -> Outcome {
    if results
        .iter()
        .all(|r| matches!(r.status, Status::Proved | Status::Bounded))
    {
        Outcome::Success
    } else {
        Outcome::Mismatch
    }
}

/// Prints one property's result (a JSON line, or a line and its details).
pub fn print_result(r: &PropertyResult, json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string(r)?)?;
    } else {
        let depth = match (r.status, r.depth) {
            (Status::Proved, Some(k)) => format!(", k = {k}"),
            (Status::Failed, Some(n)) => format!(", violated at time step {n}"),
            (Status::Bounded, Some(n)) => format!(", no counterexample within {n} bit-times"),
            _ => String::new(),
        };
        writeln!(
            out,
            "{} {:?}{depth} ({:.1} s): {}",
            r.property, r.status, r.seconds, r.statement
        )?;
        if let Some(reason) = &r.reason {
            writeln!(out, "   reason: {reason}")?;
        }
        if !r.violated.is_empty() {
            writeln!(out, "   violated: {}", r.violated.join(", "))?;
        }
        if let Some(v) = &r.vcd {
            writeln!(out, "   trace: {}", v.display())?;
        }
    }
    out.flush()?;
    Ok(())
}
