//! `lcanet info`: describe an LCA network — switches per level, links, label digits, and
//! how PE pairs spread over LCA levels (with their LCA switches and paths).

use super::common::{print_json, write_atomic};
use super::topology_args::{describe, TopologyArgs};
use super::Outcome;
use lcanet_sim::lcan::{Kind, Topology};
use std::path::PathBuf;

/// Arguments of `lcanet info`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lcanet info --topology tree --d 4 --u 2 --levels 3      T-LCAN(4,2): 16 PEs, 7 switches
  lcanet info --topology cb --d 2 --u 2 --n 16 --json     CB-LCAN(2,2) (a folded Beneš)
  lcanet info --topology file --pi my.pi                  any Π (format: docs/pi-file.md)
  lcanet info --topology cb --d 2 --u 2 --levels 3 --write-pi cb.pi   start a Π file

Levels are numbered from the PEs up: level 0 touches the PEs, level l-1 is the top.
The LCA level of two PEs is the lowest level with a switch both reach going up; a
connection at LCA level h uses 2h links (h up, h down).")]
pub struct Args {
    #[command(flatten)]
    topology: TopologyArgs,
    /// Print one JSON document instead of the table.
    #[arg(long)]
    json: bool,
    /// Also write this network's Π in the file format (docs/pi-file.md).
    #[arg(long, value_name = "FILE")]
    write_pi: Option<PathBuf>,
}

#[derive(serde::Serialize)]
struct LevelRow {
    level: usize,
    /// Ordered pairs (s, t), s ≠ t, with this LCA level.
    ordered_pairs: u64,
    fraction: f64,
    /// LCA switches of one such pair (T: 1, CB: u^h; null for Π files, where it varies).
    lca_switches_per_pair: Option<u128>,
    /// Paths of one such connection (T: u^(2h), CB: u^h; null for Π files).
    paths_per_connection: Option<u128>,
}

#[derive(serde::Serialize)]
struct Report {
    topology: &'static str,
    description: String,
    d: usize,
    u: usize,
    levels: usize,
    n: usize,
    switches_per_level: Vec<usize>,
    total_switches: usize,
    /// Switch-to-switch links (two wires each); PE links are `pe_links`.
    links: usize,
    links_per_level: Vec<usize>,
    pe_links: usize,
    label_radices: Option<Vec<usize>>,
    lca_levels: Vec<LevelRow>,
}

fn report(topo: &Topology) -> Report {
    let dist = topo.lca_distribution();
    let total: u64 = dist.iter().sum();
    let regular = topo.kind() != Kind::File;
    let u = topo.u() as u128;
    Report {
        topology: topo.kind().name(),
        description: describe(topo),
        d: topo.d(),
        u: topo.u(),
        levels: topo.levels(),
        n: topo.n(),
        switches_per_level: topo.switches_per_level().to_vec(),
        total_switches: topo.total_switches(),
        links: topo.links(),
        links_per_level: (0..topo.levels()).map(|i| topo.links_at(i)).collect(),
        pe_links: topo.n(),
        label_radices: topo.label_radices(),
        lca_levels: dist
            .iter()
            .enumerate()
            .map(|(h, &c)| {
                let h32 = h as u32;
                LevelRow {
                    level: h,
                    ordered_pairs: c,
                    fraction: if total == 0 {
                        0.0
                    } else {
                        c as f64 / total as f64
                    },
                    lca_switches_per_pair: regular.then(|| match topo.kind() {
                        Kind::Tree => 1,
                        _ => u.saturating_pow(h32),
                    }),
                    paths_per_connection: regular.then(|| match topo.kind() {
                        Kind::Tree => u.saturating_pow(2 * h32),
                        _ => u.saturating_pow(h32),
                    }),
                }
            })
            .collect(),
    }
}

/// Runs `lcanet info`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let topo = args.topology.build()?;
    if let Some(path) = &args.write_pi {
        write_atomic(path, topo.to_pi_text().as_bytes())?;
    }
    let r = report(&topo);
    if args.json {
        print_json(&r)?;
        return Ok(Outcome::Success);
    }
    println!("{}", r.description);
    if let Some(radices) = &r.label_radices {
        let rs: Vec<String> = radices.iter().rev().map(|x| x.to_string()).collect();
        println!("PE label digits (most significant first) have radices [{}]; digit j picks the downer at level j", rs.join(", "));
    }
    println!();
    println!(
        "{:>5}  {:>10}  {:>22}",
        "level", "switches", "links to the level above"
    );
    for level in (0..r.levels).rev() {
        let links = if level + 1 == r.levels {
            "-".to_string()
        } else {
            r.links_per_level[level].to_string()
        };
        println!(
            "{level:>5}  {:>10}  {links:>22}",
            r.switches_per_level[level]
        );
    }
    println!(
        "total: {} switches, {} links between levels (+ {} PE links), each link two wires",
        r.total_switches, r.links, r.pe_links
    );
    println!();
    println!("LCA levels of ordered PE pairs s ≠ t:");
    println!(
        "{:>5}  {:>14}  {:>7}  {:>13}  {:>16}",
        "h", "pairs", "share", "LCA switches", "paths/connection"
    );
    for row in &r.lca_levels {
        let opt = |v: Option<u128>| v.map_or("varies".to_string(), |x| x.to_string());
        println!(
            "{:>5}  {:>14}  {:>6.2}%  {:>13}  {:>16}",
            row.level,
            row.ordered_pairs,
            100.0 * row.fraction,
            opt(row.lca_switches_per_pair),
            opt(row.paths_per_connection)
        );
    }
    if let Some(path) = &args.write_pi {
        println!("\nwrote the Π file {}", path.display());
    }
    Ok(Outcome::Success)
}
