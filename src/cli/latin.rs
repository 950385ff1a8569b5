//! `lcanet latin`: the Latin square of admissible permutations that algorithm ATAPE
//! sends, frame by frame, through a self-routing MIN, by either construction of 004 §4:
//! Table 2 (`--method table2`, the default) or Theorem 1 with the set Ψ of eq. (8)
//! (`--method psi`, in any order of Ψ: `--order`, or a `--first-column`).
//!
//! Row `i` is the permutation of frame `i` (`rows[i][j]` is where PE `j` sends);
//! column `j` is PE `j`'s message order. Each row is listed with its element of Ψ
//! (`I` for row 0; for Table 2 the reduced product of the basic list so far, Theorem
//! 3's correspondence) and the stage settings its tags produce (`I` parallel, `φ1`
//! cross, stage 0 first, as in 004 Figs. 7–9). Every square is checked (Latin, every
//! row admissible with uniform settings) before anything is printed.

use crate::cli::common::SeedArg;
use anyhow::Context;
use lcanet_sim::min::route::settings_label;
use lcanet_sim::min::{
    first_row, latin_square, psi_order, psi_square, table2_elements, LatinSquare, Min, Network,
    PsiElement, PsiOrder, MAX_M,
};
use std::io::Write;

/// `--network` and `--m`, shared by the MIN subcommands.
#[derive(Debug, Clone, clap::Args)]
pub struct MinArgs {
    /// Network: baseline, omega, cube, reverse-baseline, reverse-omega or reverse-cube.
    #[arg(long, value_parser = parse_network, long_help = NETWORK_HELP)]
    pub network: Network,
    /// Number of stages m; the network has n = 2^m PEs (1 ≤ m ≤ 12).
    #[arg(long)]
    pub m: u32,
}

/// The long help of `--network`.
const NETWORK_HELP: &str = "\
The self-routing network of 2x2 switches (004 §2), n = 2^m PEs in m stages:
  baseline          004 Fig. 2a; links π_i rotate the low m-i bits right
  omega             004 Fig. 2b; a perfect shuffle before every stage
  cube              004 Fig. 2c, indirect binary n-cube; links τ_i swap bits 0, i+1
  reverse-baseline  the baseline read backwards (outputs to inputs)
  reverse-omega     the omega read backwards: an unshuffle after every stage
  reverse-cube      the indirect binary n-cube read backwards
A reverse network realizes the inverses of its forward network's permutations
(stage settings mirrored). Any case, '_' for '-', and indirect-binary-cube work.";

fn parse_network(s: &str) -> Result<Network, String> {
    s.parse::<Network>().map_err(|e| e.to_string())
}

impl MinArgs {
    /// The validated network.
    pub fn build(&self) -> anyhow::Result<Min> {
        Min::new(self.network, self.m).with_context(|| {
            format!(
                "invalid --m for the {} network (limit m ≤ {MAX_M})",
                self.network
            )
        })
    }
}

/// Arguments of `lcanet latin`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lcanet latin --network baseline --m 3                         # L1 of 004 eq. (15)
  lcanet latin --network reverse-cube --m 3 --json
  lcanet latin --network omega --m 4 --method psi               # Ψ in the order of eq. (8)
  lcanet latin --network cube --m 3 --method psi --order random --seed 7
  lcanet latin --network omega --m 2 --method psi --first-column 0,3,1,2

Table 2 and the Ψ construction give the same set of rows (004 Theorem 3) in different
orders; the order of Ψ is the order of the square's first column.")]
pub struct Args {
    #[command(flatten)]
    net: MinArgs,
    /// How the square is built: table2 (004 Table 2: the basic list applied row after
    /// row) or psi (Theorem 1: the elements of the set Ψ of eq. (8) applied to row 0).
    #[arg(long, value_enum, default_value = "table2")]
    method: Method,
    /// Order of Ψ in the rows (with --method psi): eq8 (as eq. (8) lists Ψ), table2 (as
    /// Table 2 produces it: the same square as --method table2) or random (from --seed).
    /// Default eq8.
    #[arg(long, value_enum, conflicts_with = "first_column")]
    order: Option<OrderArg>,
    /// With --method psi: the square's first column, comma-separated (a permutation of
    /// 0..n starting with row 0's first entry); it fixes the order of Ψ.
    #[arg(long, value_name = "LIST")]
    first_column: Option<String>,
    #[command(flatten)]
    seed: SeedArg,
    /// Print one JSON document: network, m, n, method, order, rows, psi, settings.
    #[arg(long)]
    json: bool,
}

/// `--method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum Method {
    /// 004 Table 2 (BuildBasicList, BuildLatinSquare)
    Table2,
    /// 004 Theorem 1: the set Ψ of eq. (8) applied to the first row
    Psi,
}

/// `--order`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum OrderArg {
    /// As eq. (8) lists Ψ: by number of factors, then by index
    Eq8,
    /// As Table 2 produces Ψ (the square of --method table2)
    Table2,
    /// A random order drawn from --seed
    Random,
}

#[derive(serde::Serialize)]
struct Report<'a> {
    network: Network,
    m: u32,
    n: usize,
    method: Method,
    /// The order of Ψ (`--method psi`): `eq8`, `table2`, `random`, `first-column`.
    #[serde(skip_serializing_if = "Option::is_none")]
    order: Option<&'static str>,
    /// The seed of `--order random`.
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    /// `rows[i][j]`: destination of PE `j` in frame `i`.
    rows: &'a [Vec<usize>],
    /// Row `i` is `psi[i]` applied to row 0 (`I` for row 0).
    psi: Vec<String>,
    /// Stage settings realizing row `i`, stage 0 first.
    settings: Vec<String>,
}

/// A square with the element of Ψ of each row.
struct Built {
    square: LatinSquare,
    elements: Vec<PsiElement>,
    order: Option<&'static str>,
    seed: Option<u64>,
}

/// Parses `--first-column`: numbers separated by commas (spaces allowed).
fn parse_column(text: &str) -> anyhow::Result<Vec<usize>> {
    text.split(',')
        .enumerate()
        .map(|(i, t)| {
            t.trim().parse::<usize>().map_err(|_| {
                anyhow::anyhow!(
                    "--first-column: entry {i} ({:?}) is not a non-negative integer",
                    t.trim()
                )
            })
        })
        .collect()
}

fn build(min: &Min, args: &Args) -> anyhow::Result<Built> {
    if args.method == Method::Table2 {
        if args.order.is_some() || args.first_column.is_some() {
            anyhow::bail!(
                "--order and --first-column choose the order of Ψ: they need --method psi"
            );
        }
        return Ok(Built {
            square: latin_square(min),
            elements: table2_elements(min.m()),
            order: None,
            seed: None,
        });
    }
    let first = first_row(min);
    let a0 = first.dst(0);
    let (order, name, seed) = match (&args.first_column, args.order.unwrap_or(OrderArg::Eq8)) {
        (Some(text), _) => (
            PsiOrder::FirstColumn(parse_column(text)?),
            "first-column",
            None,
        ),
        (None, OrderArg::Eq8) => (PsiOrder::Eq8, "eq8", None),
        (None, OrderArg::Table2) => (PsiOrder::Table2, "table2", None),
        (None, OrderArg::Random) => {
            let seed = args.seed.resolve();
            (PsiOrder::Random(seed), "random", Some(seed))
        }
    };
    let rest = psi_order(min.m(), a0, &order).context("--first-column")?;
    let square = psi_square(&first, &rest).context("internal error: the Ψ construction")?;
    let mut elements = vec![PsiElement::identity()];
    elements.extend(rest);
    Ok(Built {
        square,
        elements,
        order: Some(name),
        seed,
    })
}

/// The settings of every row of `sq` on `min`, after checking the square (Latin, every
/// row admissible, settings uniform per stage) before anything is printed.
fn check(min: &Min, sq: &LatinSquare) -> anyhow::Result<Vec<String>> {
    sq.check_latin()
        .context("internal error: the construction produced a non-Latin square")?;
    let mut settings = Vec::with_capacity(sq.n());
    for i in 0..sq.n() {
        let t = min.transit(&sq.row(i));
        anyhow::ensure!(
            t.conflicts.is_empty(),
            "internal error: row {i} of the square is not admissible"
        );
        let uniform = t
            .settings
            .as_uniform()
            .context("internal error: a row's switch settings are not uniform per stage")?;
        settings.push(settings_label(&uniform));
    }
    Ok(settings)
}

/// Runs `lcanet latin`.
pub fn run(args: Args) -> anyhow::Result<super::Outcome> {
    let min = args.net.build()?;
    let built = build(&min, &args)?;
    let sq = &built.square;
    let settings = check(&min, sq)?;
    let psi: Vec<String> = built.elements.iter().map(|e| e.to_string()).collect();
    if args.json {
        // Compact (a square has n² entries), streamed, one document, newline-terminated.
        let report = Report {
            network: min.network(),
            m: min.m(),
            n: min.n(),
            method: args.method,
            order: built.order,
            seed: built.seed,
            rows: &sq.rows,
            psi,
            settings,
        };
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        serde_json::to_writer(&mut out, &report).context("writing JSON output")?;
        writeln!(out)
            .and_then(|()| out.flush())
            .context("writing JSON output")?;
        return Ok(super::Outcome::Success);
    }
    let width = (min.n() - 1).to_string().len();
    let pad_to = |v: &[String]| v.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    let (label_width, psi_width) = (pad_to(&settings), pad_to(&psi));
    let how = match (args.method, built.order) {
        (Method::Psi, Some(order)) => match built.seed {
            Some(seed) => format!("004 Theorem 1, Ψ in {order} order, seed {seed}"),
            None => format!("004 Theorem 1, Ψ in {order} order"),
        },
        _ => "004 Table 2".to_string(),
    };
    println!("Latin square of the {min} ({how}); row i = frame i, entry j = destination of PE j");
    println!("columns: frame, row's element of Ψ, stage settings (stage 0 first), row");
    let cell = |s: &str, w: usize| format!("{s}{}", " ".repeat(w - s.chars().count()));
    for (i, row) in sq.rows.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|d| format!("{d:>width$}")).collect();
        println!(
            "frame {i:>width$}  {}  {}  {}",
            cell(&psi[i], psi_width),
            cell(&settings[i], label_width),
            cells.join(" ")
        );
    }
    Ok(super::Outcome::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(network: Network, m: u32, method: Method) -> Args {
        Args {
            net: MinArgs { network, m },
            method,
            order: None,
            first_column: None,
            seed: SeedArg { seed: Some(1) },
            json: false,
        }
    }

    #[test]
    fn baseline_m3_is_l1_with_the_fig7_settings() {
        let min = Min::new(Network::Baseline, 3).unwrap();
        let built = build(&min, &args(Network::Baseline, 3, Method::Table2)).unwrap();
        let settings = check(&min, &built.square).unwrap();
        assert_eq!(built.square.rows[4], vec![6, 2, 4, 0, 7, 3, 5, 1]);
        assert_eq!(settings[4], "φ1φ1I");
        assert_eq!(settings[0], "III");
        assert_eq!(built.elements[4].to_string(), "φ3φ2");
    }

    #[test]
    fn psi_rows_follow_the_requested_first_column() {
        let min = Min::new(Network::Omega, 2).unwrap();
        let mut a = args(Network::Omega, 2, Method::Psi);
        a.first_column = Some("0, 3,1,2".into());
        let built = build(&min, &a).unwrap();
        assert_eq!(built.square.column(0), vec![0, 3, 1, 2]);
        assert_eq!(built.elements[1].to_string(), "φ2φ1");
        check(&min, &built.square).unwrap();
        a.first_column = Some("0,3,x,2".into());
        let err = format!("{:#}", build(&min, &a).err().unwrap());
        assert!(
            err.contains("entry 2 (\"x\") is not a non-negative integer"),
            "{err}"
        );
        a.first_column = Some("1,0,3,2".into());
        let err = format!("{:#}", build(&min, &a).err().unwrap());
        assert!(err.contains("starts with 1, but row 0"), "{err}");
        let mut t = args(Network::Omega, 2, Method::Table2);
        t.order = Some(OrderArg::Random);
        let err = format!("{:#}", build(&min, &t).err().unwrap());
        assert!(err.contains("need --method psi"), "{err}");
    }

    #[test]
    fn m_out_of_range_names_the_condition() {
        let args = MinArgs {
            network: Network::Omega,
            m: 13,
        };
        let err = format!("{:#}", args.build().unwrap_err());
        assert!(err.contains("1 ≤ m ≤ 12"), "{err}");
    }
}
