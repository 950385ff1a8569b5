//! `lcanet info`: describe an LCA network — per level its switch size `d_i × u_i`, switches
//! and links, the label digits, and how PE pairs spread over LCA levels (with their LCA
//! switches and paths: `∏_{m<h} u_m` LCA switches in a CB-LCAN, 002 Lemma 2 level by level).

use super::common::{print_json, write_atomic};
use super::presets::Preset;
use super::topology_args::{describe, SizesJson, TopologyArgs};
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
  lcanet info --topology cb --d 4,4,2 --u 2,2,2           sizes per level, level 0 first
  lcanet info --topology fat-tree --levels 4              Leiserson's binary fat-tree
  lcanet info --topology cm5 --n 256                      the CM-5 data network (002 §2.2)
  lcanet info --topology trac --levels 3                  TRAC: CB-LCAN(3,2)
  lcanet info --topology baseline --n 16                  baseline network: CB-LCAN(2,2)

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
    /// LCA switches of one such pair (T: 1, CB: `∏_{m<h} u_m` = u^h; null for Π files,
    /// where it varies).
    lca_switches_per_pair: Option<u128>,
    /// Paths of one such connection (T: `∏_{m<h} u_m²` = u^(2h), CB: `∏_{m<h} u_m`; null
    /// for Π files).
    paths_per_connection: Option<u128>,
}

/// One level of the network.
#[derive(serde::Serialize)]
struct SwitchLevel {
    level: usize,
    /// Downers and uppers of its switches.
    d: usize,
    u: usize,
    switches: usize,
    /// Links to the level above (0 at the top).
    links_up: usize,
}

#[derive(serde::Serialize)]
struct Report {
    topology: &'static str,
    /// The named network (`fat-tree`, `cm5`, `trac`, `baseline`), if one was asked for.
    preset: Option<&'static str>,
    description: String,
    #[serde(flatten)]
    sizes: SizesJson,
    levels: usize,
    n: usize,
    switches_per_level: Vec<usize>,
    total_switches: usize,
    /// Switch-to-switch links (two wires each); PE links are `pe_links`.
    links: usize,
    links_per_level: Vec<usize>,
    pe_links: usize,
    label_radices: Option<Vec<usize>>,
    /// Every level: its switch size, switches and links up (level 0 first).
    per_level: Vec<SwitchLevel>,
    lca_levels: Vec<LevelRow>,
}

fn report(topo: &Topology, preset: Option<Preset>) -> Report {
    let dist = topo.lca_distribution();
    let total: u64 = dist.iter().sum();
    let regular = topo.kind() != Kind::File;
    // ∏_{m<h} u_m, saturating.
    let uprod = |h: usize| {
        topo.us()[..h]
            .iter()
            .fold(1u128, |a, &u| a.saturating_mul(u as u128))
    };
    let description = match preset {
        Some(p) => format!("{}: {}", p.title(), describe(topo)),
        None => describe(topo),
    };
    Report {
        topology: topo.kind().name(),
        preset: preset.map(Preset::name),
        description,
        sizes: SizesJson::of(topo),
        levels: topo.levels(),
        n: topo.n(),
        switches_per_level: topo.switches_per_level().to_vec(),
        total_switches: topo.total_switches(),
        links: topo.links(),
        links_per_level: (0..topo.levels()).map(|i| topo.links_at(i)).collect(),
        pe_links: topo.n(),
        label_radices: topo.label_radices(),
        per_level: (0..topo.levels())
            .map(|i| SwitchLevel {
                level: i,
                d: topo.d_at(i),
                u: topo.u_at(i),
                switches: topo.switch_count(i),
                links_up: topo.links_at(i),
            })
            .collect(),
        lca_levels: dist
            .iter()
            .enumerate()
            .map(|(h, &c)| LevelRow {
                level: h,
                ordered_pairs: c,
                fraction: if total == 0 {
                    0.0
                } else {
                    c as f64 / total as f64
                },
                lca_switches_per_pair: regular.then(|| match topo.kind() {
                    Kind::Tree => 1,
                    _ => uprod(h),
                }),
                paths_per_connection: regular.then(|| match topo.kind() {
                    Kind::Tree => uprod(h).saturating_mul(uprod(h)),
                    _ => uprod(h),
                }),
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
    let r = report(&topo, args.topology.preset());
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
        "{:>5}  {:>4}  {:>4}  {:>10}  {:>22}",
        "level", "d", "u", "switches", "links to the level above"
    );
    for row in r.per_level.iter().rev() {
        let links = if row.level + 1 == r.levels {
            "-".to_string()
        } else {
            row.links_up.to_string()
        };
        println!(
            "{:>5}  {:>4}  {:>4}  {:>10}  {links:>22}",
            row.level, row.d, row.u, row.switches
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
