//! `lcanet prove matrix`: the coverage matrix of `docs/formal.md` — every block the
//! generators ship, in the shapes it is shipped in — or a slice of it. Rows, by variant:
//!
//! - `sequential`: the R1/R2 switch, tree (`u | d`) and cb, `2 ≤ d ≤ 4`, `1 ≤ u ≤ 4`,
//!   `W ∈ {1, 2}`, `l = 3`;
//! - `levels`: the same `(d, u)`, `W = 1`, every other `l ≤ 16` of a network of at most
//!   4,096 PEs (tree `u = d`: every `l`, its network has `d` PEs);
//! - `fast`: the same `(d, u)`, `W = 1`, `l = 3`, `--setup fast` with `--decisions M` for
//!   every `M` below the DOWN arbiter's slots `2u + d`, and without (all: `M ≥ 2u + d`
//!   is the same logic);
//! - `pi`: the switches of `docs/examples/*.pi` — a symbolic ROM per level shape, and the
//!   ROM of every switch (switches with equal tables proved once);
//! - `r3`: the R3 switch, `2 ≤ d ≤ 4`, `1 ≤ u ≤ 4`, `W ∈ {1, 2}`;
//! - `cube`: the hypercube node router with its controller, `k ∈ CUBE_K`, `L ∈ CUBE_L`.
//!
//! Every arbitrated row comes in the three policies. `--shard I/N` takes rows I, I+N, …
//! of the selection, one task of a batch scheduler's job array each (`docs/formal.md`,
//! "The whole matrix on a batch scheduler"). `--slice smoke` is the handful of
//! rows the default tests run: one or two of every variant, the three policies among
//! them, each variant in its cheapest shapes (`docs/formal.md`).

use super::run::{prove, with_workdir, Plan, PropertyResult, Status};
use super::switch::{pi_target, pi_topology, Target};
use super::{plan, verdict, ProofArgs};
use crate::cli::common::{parse_shard, progress_bar, thread_pool, Shard};
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::formal::switch::Rom;
use lcanet_sim::lcan::cycle::network::NetParams;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SetupMode, SwitchParams, SwitchTopology};
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use rayon::prelude::*;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// The variants of the matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// The sequential set-up switch, l = 3, W = 1 and 2.
    Sequential,
    /// The sequential set-up switch at every other supported level count.
    Levels,
    /// The fast set-up switch, every --decisions M.
    Fast,
    /// The Π table switches of docs/examples.
    Pi,
    /// The R3 switch.
    R3,
    /// The hypercube node router (the overlapped router's node).
    Cube,
}

/// The cube dimensions of the `cube` rows.
pub const CUBE_K: [usize; 3] = [1, 2, 3];
/// The payload widths of the `cube` rows.
pub const CUBE_L: [usize; 2] = [1, 2];

/// Which rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Slice {
    /// Every row.
    Full,
    /// A few rows of every variant (what the default tests run).
    Smoke,
}

/// Arguments of `lcanet prove matrix`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which rows: the whole matrix, or the smoke slice.
    #[arg(long, value_enum, default_value = "full")]
    pub slice: Slice,
    /// Only these variants (comma-separated; default all).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub variant: Vec<Variant>,
    /// Only these policies (comma-separated; default all three).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub policy: Vec<crate::cli::generate::switch::PolicyArg>,
    /// Rows proved at once (each one Yosys process at a time).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Only shard I of N: rows I, I+N, I+2N, … of those --slice, --variant and --policy
    /// select (one array task of a batch job per shard; `docs/formal.md`).
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// List the rows without proving them.
    #[arg(long)]
    pub list: bool,
    #[command(flatten)]
    pub proof: ProofArgs,
    /// Keep every row's files in a subdirectory of this directory.
    #[arg(long)]
    pub keep: Option<PathBuf>,
}

/// What a row proves.
#[derive(Debug, Clone)]
pub enum Item {
    /// An R1/R2 switch.
    Switch(Target),
    /// An R3 switch: `d`, `u`, `W`.
    R3(usize, usize, usize),
    /// A hypercube node: `k`, `L`.
    Cube(usize, usize),
}

/// One row: its description (a JSON object) and what it proves.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// The variant.
    pub variant: Variant,
    /// `tree`, `cb`, `pi<n>` (switches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topology: Option<String>,
    /// Downers, uppers, link width (and levels, R1/R2 switches).
    pub shape: String,
    /// The arbiter policy (none for R3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
    /// The set-up (fast rows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// Π rows: `symbolic` or the switch `L.S` (and those with the same table).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rom: Option<String>,
    #[serde(skip)]
    pub item: Item,
}

impl Row {
    /// A short name, also the row's subdirectory under `--keep`.
    pub fn name(&self) -> String {
        let mut s = format!("{:?}", self.variant).to_lowercase();
        for p in [
            &self.topology,
            &Some(self.shape.clone()),
            &self.policy,
            &self.setup,
        ]
        .into_iter()
        .flatten()
        {
            s.push('_');
            s.push_str(&p.replace([' ', ',', '='], ""));
        }
        // A Π row's ROM, `<file> <L.S>+…`: the file and the switches kept apart.
        if let Some(rom) = &self.rom {
            s.push('_');
            s.push_str(&rom.replace(' ', "_").replace('.', "-"));
        }
        s
    }
}

const POLICIES: [ArbiterPolicy; 3] = [
    ArbiterPolicy::Fixed,
    ArbiterPolicy::RoundRobin,
    ArbiterPolicy::Random,
];

/// Tree (`u | d`) and cb shapes with `2 ≤ d ≤ 4`, `1 ≤ u ≤ 4`.
fn shapes() -> Vec<(SwitchTopology, usize, usize)> {
    let mut v = Vec::new();
    for topo in [SwitchTopology::Tree, SwitchTopology::Cb] {
        for d in 2..=4 {
            for u in 1..=4 {
                if topo == SwitchTopology::Tree && d % u != 0 {
                    continue;
                }
                v.push((topo, d, u));
            }
        }
    }
    v
}

/// The level counts `l ≤ 16` for which a `(topo, d, u)` network of at most 4,096 PEs
/// exists (and the hardware accepts it).
pub fn supported_levels(topo: SwitchTopology, d: usize, u: usize) -> Vec<usize> {
    (1..=16)
        .filter(|&l| {
            let t = match topo {
                SwitchTopology::Tree => Topology::tree(d, u, Size::Levels(l)),
                _ => Topology::complete_bipartite(d, u, Size::Levels(l)),
            };
            t.ok().is_some_and(|t| {
                t.n() <= 4096
                    && NetParams::new(&t, Algorithm::R1, ArbiterPolicy::Fixed, 1, 8).is_ok()
            })
        })
        .collect()
}

fn switch_row(variant: Variant, p: SwitchParams, rom: Option<(Rom, String)>) -> Row {
    let setup = match p.setup {
        SetupMode::Sequential => None,
        SetupMode::Fast => Some("fast".to_string()),
        SetupMode::Chunked(m) => Some(format!("fast M={m}")),
    };
    Row {
        variant,
        topology: Some(p.topology.to_string()),
        shape: format!("d={} u={} W={} l={}", p.d, p.u, p.width, p.levels),
        policy: Some(p.policy.to_string()),
        setup,
        rom: rom.as_ref().map(|(_, s)| s.clone()),
        item: Item::Switch(Target {
            params: p,
            rom: rom.map(|(r, _)| r),
        }),
    }
}

/// Where the Π example files are: docs/examples/ of the repository.
fn pi_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples")
}

/// The Π example files (docs/examples/*.pi).
fn pi_examples() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(pi_dir())
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "pi"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The Π rows of one file and policy: a symbolic ROM per distinct level shape, then every
/// distinct table.
fn pi_rows(path: &Path, policy: ArbiterPolicy) -> anyhow::Result<Vec<Row>> {
    let topo = pi_topology(path)?;
    let stem = path
        .file_stem()
        .map_or("pi".into(), |s| s.to_string_lossy().to_string());
    let mut rows = Vec::new();
    let mut shapes_seen = Vec::new();
    let mut tables: Vec<(Rom, Vec<String>, SwitchParams)> = Vec::new();
    for level in 0..topo.levels() {
        let sym = pi_target(&topo, level, None, 1, policy)?;
        if !shapes_seen.contains(&sym.params) {
            shapes_seen.push(sym.params);
            rows.push(switch_row(
                Variant::Pi,
                sym.params,
                Some((Rom::Symbolic, format!("{stem} symbolic"))),
            ));
        }
        for s in 0..topo.switch_count(level) {
            let t = pi_target(&topo, level, Some(s), 1, policy)?;
            let rom = t.rom.expect("a table");
            match tables
                .iter_mut()
                .find(|(r, _, p)| *r == rom && *p == t.params)
            {
                Some((_, names, _)) => names.push(format!("{level}.{s}")),
                None => tables.push((rom, vec![format!("{level}.{s}")], t.params)),
            }
        }
    }
    for (rom, names, p) in tables {
        rows.push(switch_row(
            Variant::Pi,
            p,
            Some((rom, format!("{stem} {}", names.join("+")))),
        ));
    }
    Ok(rows)
}

/// Every row of the matrix, in order.
pub fn rows(slice: Slice) -> anyhow::Result<Vec<Row>> {
    let mut v = Vec::new();
    let new = |topo, d, u, w, l, pol| SwitchParams::new(d, u, w, l, topo, pol);
    if slice == Slice::Smoke {
        let fixed = ArbiterPolicy::Fixed;
        let rr = ArbiterPolicy::RoundRobin;
        // The sequential tree switches are the full matrix's (the fault tests break the
        // (2, 2) one); the smoke slice's (2, 2) sequential switch is the Π one below.
        v.push(switch_row(
            Variant::Sequential,
            new(SwitchTopology::Cb, 2, 1, 2, 3, rr)?,
            None,
        ));
        v.push(switch_row(
            Variant::Levels,
            new(SwitchTopology::Cb, 2, 1, 1, 1, fixed)?,
            None,
        ));
        let fast = new(SwitchTopology::Tree, 2, 1, 1, 3, rr)?;
        v.push(switch_row(
            Variant::Fast,
            fast.with_setup(SetupMode::Chunked(2))?,
            None,
        ));
        v.push(switch_row(
            Variant::Fast,
            new(SwitchTopology::Cb, 2, 1, 1, 3, ArbiterPolicy::Random)?
                .with_setup(SetupMode::Fast)?,
            None,
        ));
        v.push(Row {
            variant: Variant::R3,
            topology: None,
            shape: "d=2 u=1 W=1".into(),
            policy: None,
            setup: None,
            rom: None,
            item: Item::R3(2, 1, 1),
        });
        // The smallest Π example's first row: its switch (d = 2, u = 2, l = 3, sequential)
        // with a symbolic ROM, any route table of its shape.
        v.extend(
            pi_rows(&pi_dir().join("skewed8.pi"), fixed)?
                .into_iter()
                .take(1),
        );
        // The smallest cube: its P3 is bounded at 21 bit-times (k = 2: 41, five times the
        // CPU); k = 2 and 3 are the full matrix's.
        v.push(cube_row(1, 1));
        return Ok(v);
    }
    for pol in POLICIES {
        for (topo, d, u) in shapes() {
            for w in [1, 2] {
                v.push(switch_row(
                    Variant::Sequential,
                    new(topo, d, u, w, 3, pol)?,
                    None,
                ));
            }
        }
    }
    for pol in POLICIES {
        for (topo, d, u) in shapes() {
            for l in supported_levels(topo, d, u).into_iter().filter(|&l| l != 3) {
                v.push(switch_row(
                    Variant::Levels,
                    new(topo, d, u, 1, l, pol)?,
                    None,
                ));
            }
        }
    }
    for pol in POLICIES {
        for (topo, d, u) in shapes() {
            let p = new(topo, d, u, 1, 3, pol)?;
            for m in 1..2 * u + d {
                v.push(switch_row(
                    Variant::Fast,
                    p.with_setup(SetupMode::Chunked(m))?,
                    None,
                ));
            }
            v.push(switch_row(
                Variant::Fast,
                p.with_setup(SetupMode::Fast)?,
                None,
            ));
        }
    }
    for pol in POLICIES {
        for path in pi_examples() {
            v.extend(pi_rows(&path, pol)?);
        }
    }
    for d in 2..=4 {
        for u in 1..=4 {
            for w in [1, 2] {
                v.push(Row {
                    variant: Variant::R3,
                    topology: None,
                    shape: format!("d={d} u={u} W={w}"),
                    policy: None,
                    setup: None,
                    rom: None,
                    item: Item::R3(d, u, w),
                });
            }
        }
    }
    for k in CUBE_K {
        for l in CUBE_L {
            v.push(cube_row(k, l));
        }
    }
    Ok(v)
}

fn cube_row(k: usize, l: usize) -> Row {
    Row {
        variant: Variant::Cube,
        topology: None,
        shape: format!("k={k} L={l}"),
        policy: None,
        setup: None,
        rom: None,
        item: Item::Cube(k, l),
    }
}

/// One line of `prove matrix`.
#[derive(Debug, Serialize)]
struct Line<'a> {
    #[serde(flatten)]
    row: &'a Row,
    /// `proved` if every property is.
    status: Status,
    seconds: f64,
    properties: Vec<PropertyResult>,
}

fn row_status(results: &[PropertyResult]) -> Status {
    if results.iter().any(|r| r.status == Status::Failed) {
        Status::Failed
    } else if results.iter().any(|r| r.status == Status::Unproved) {
        Status::Unproved
    } else if results.iter().any(|r| r.status == Status::Bounded) {
        Status::Bounded
    } else {
        Status::Proved
    }
}

fn prove_row(
    row: &Row,
    plan: &Plan,
    dir: &Path,
    final_dir: &Path,
) -> anyhow::Result<Vec<PropertyResult>> {
    let job = match &row.item {
        Item::Switch(t) => super::switch::job(t, None, dir)?,
        Item::R3(d, u, w) => super::r3::job(*d, *u, *w, None, dir)?,
        Item::Cube(k, l) => super::cube::job(*k, *l, None, dir)?,
    };
    prove(&job, plan, dir, final_dir, &mut |_| Ok(()))
}

/// Runs `lcanet prove matrix`.
pub fn run(a: Args) -> anyhow::Result<Outcome> {
    let plan = plan(&a.proof)?;
    if a.jobs == 0 || a.jobs > 64 {
        bail!("--jobs {}: must be between 1 and 64", a.jobs);
    }
    let policies: Vec<String> = a
        .policy
        .iter()
        .map(|&p| ArbiterPolicy::from(p).to_string())
        .collect();
    let rows: Vec<Row> = rows(a.slice)?
        .into_iter()
        .filter(|r| a.variant.is_empty() || a.variant.contains(&r.variant))
        .filter(|r| policies.is_empty() || r.policy.as_ref().is_none_or(|p| policies.contains(p)))
        .enumerate()
        .filter(|(i, _)| a.shard.is_none_or(|s| s.owns(*i)))
        .map(|(_, r)| r)
        .collect();
    if a.list {
        let mut out = std::io::stdout().lock();
        for r in &rows {
            if plan.json {
                writeln!(out, "{}", serde_json::to_string(r)?)?;
            } else {
                writeln!(out, "{}", r.name())?;
            }
        }
        return Ok(Outcome::Success);
    }
    let bar = progress_bar(rows.len(), "rows", plan.json);
    let out = Mutex::new(());
    let start = Instant::now();
    let run_all = |dir: &Path, final_dir: &Path| -> anyhow::Result<Vec<PropertyResult>> {
        let pool = thread_pool(a.jobs)?;
        let per_row: Vec<anyhow::Result<Vec<PropertyResult>>> = pool.install(|| {
            rows.par_iter()
                .map(|row| -> anyhow::Result<Vec<PropertyResult>> {
                    let sub = row.name();
                    let (rdir, rfinal) = (dir.join(&sub), final_dir.join(&sub));
                    std::fs::create_dir_all(&rdir)
                        .with_context(|| format!("creating {}", rdir.display()))?;
                    let t0 = Instant::now();
                    let results = prove_row(row, &plan, &rdir, &rfinal)?;
                    let line = Line {
                        row,
                        status: row_status(&results),
                        seconds: (t0.elapsed().as_secs_f64() * 10.0).round() / 10.0,
                        properties: results.clone(),
                    };
                    let _guard = out.lock().unwrap_or_else(|e| e.into_inner());
                    let text = if plan.json {
                        serde_json::to_string(&line)?
                    } else {
                        let per: Vec<String> = results
                            .iter()
                            .map(|r| format!("{} {:?} {:.1}s", r.property, r.status, r.seconds))
                            .collect();
                        format!(
                            "{}: {:?} in {:.1} s ({})",
                            row.name(),
                            line.status,
                            line.seconds,
                            per.join(", ")
                        )
                    };
                    bar.suspend(|| -> anyhow::Result<()> {
                        let mut o = std::io::stdout().lock();
                        writeln!(o, "{text}")?;
                        o.flush()?;
                        Ok(())
                    })?;
                    bar.inc(1);
                    Ok(results)
                })
                .collect()
        });
        let mut every = Vec::new();
        for r in per_row {
            every.extend(r?);
        }
        Ok(every)
    };
    let results = with_workdir(a.keep.as_deref(), run_all)?;
    bar.finish_and_clear();
    eprintln!(
        "{} rows, {} properties, {:.1} min",
        rows.len(),
        results.len(),
        start.elapsed().as_secs_f64() / 60.0
    );
    Ok(verdict(&results))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_matrix_has_every_shape_level_and_decision_count() {
        let all = rows(Slice::Full).unwrap();
        let count = |v: Variant| all.iter().filter(|r| r.variant == v).count();
        // tree: (2,1) (2,2) (3,1) (3,3) (4,1) (4,2) (4,4); cb: 3 × 4; W = 1, 2; 3 policies.
        assert_eq!(count(Variant::Sequential), (7 + 12) * 2 * 3);
        // Fast: 2u + d values of M per shape (M = 1 … 2u + d − 1, and all).
        let per_policy: usize = shapes().iter().map(|&(_, d, u)| 2 * u + d).sum();
        assert_eq!(count(Variant::Fast), per_policy * 3);
        assert_eq!(count(Variant::R3), 3 * 4 * 2);
        assert_eq!(count(Variant::Cube), CUBE_K.len() * CUBE_L.len());
        assert!(count(Variant::Pi) > 0);
        assert_eq!(
            supported_levels(SwitchTopology::Cb, 2, 2),
            (1..=12).collect::<Vec<_>>()
        );
        assert_eq!(
            supported_levels(SwitchTopology::Tree, 4, 2),
            (1..=11).collect::<Vec<_>>()
        );
        assert_eq!(
            supported_levels(SwitchTopology::Tree, 3, 3),
            (1..=16).collect::<Vec<_>>()
        );
        let names: std::collections::HashSet<String> = all.iter().map(Row::name).collect();
        assert_eq!(names.len(), all.len(), "row names are unique");
    }

    #[test]
    fn the_smoke_slice_has_every_variant_and_policy_and_is_in_the_matrix() {
        let smoke = rows(Slice::Smoke).unwrap();
        let all: std::collections::HashSet<String> =
            rows(Slice::Full).unwrap().iter().map(Row::name).collect();
        for v in [
            Variant::Sequential,
            Variant::Levels,
            Variant::Fast,
            Variant::Pi,
            Variant::R3,
            Variant::Cube,
        ] {
            assert!(smoke.iter().any(|r| r.variant == v), "no {v:?} row");
        }
        for p in POLICIES {
            let p = p.to_string();
            assert!(smoke.iter().any(|r| r.policy.as_ref() == Some(&p)), "{p}");
        }
        for r in &smoke {
            assert!(
                all.contains(&r.name()),
                "{} is not a row of the matrix",
                r.name()
            );
        }
    }
}
