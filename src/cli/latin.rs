//! `lcanet latin`: the Latin square of admissible permutations that algorithm ATAPE
//! sends, frame by frame, through a self-routing MIN (004 Table 2).
//!
//! Row `i` is the permutation of frame `i` (`rows[i][j]` is where PE `j` sends);
//! column `j` is PE `j`'s message order. Each row is listed with the stage settings
//! its tags produce (`I` parallel, `φ1` cross, stage 0 first, as in 004 Figs. 7–9).

use anyhow::Context;
use lcanet_sim::min::route::settings_label;
use lcanet_sim::min::{latin_square, LatinSquare, Min, Network, MAX_M};
use std::io::Write;

/// `--network` and `--m`, shared by the MIN subcommands.
#[derive(Debug, Clone, clap::Args)]
pub struct MinArgs {
    /// Network: baseline, omega or cube (indirect binary n-cube).
    #[arg(long, value_parser = parse_network)]
    pub network: Network,
    /// Number of stages m; the network has n = 2^m PEs (1 ≤ m ≤ 12).
    #[arg(long)]
    pub m: u32,
}

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
pub struct Args {
    #[command(flatten)]
    net: MinArgs,
    /// Print one JSON document: network, m, n, rows, settings.
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct Report<'a> {
    network: Network,
    m: u32,
    n: usize,
    /// `rows[i][j]`: destination of PE `j` in frame `i`.
    rows: &'a [Vec<usize>],
    /// Stage settings realizing row `i`, stage 0 first.
    settings: Vec<String>,
}

/// The square of `min` with the settings of each row, checked (Latin, admissible,
/// uniform per stage) before anything is printed.
fn report(min: &Min) -> anyhow::Result<(LatinSquare, Vec<String>)> {
    let sq = latin_square(min);
    sq.check_latin()
        .context("internal error: Table 2 produced a non-Latin square")?;
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
    Ok((sq, settings))
}

/// Runs `lcanet latin`.
pub fn run(args: Args) -> anyhow::Result<super::Outcome> {
    let min = args.net.build()?;
    let (sq, settings) = report(&min)?;
    if args.json {
        // Compact (a square has n² entries), streamed, one document, newline-terminated.
        let report = Report {
            network: min.network(),
            m: min.m(),
            n: min.n(),
            rows: &sq.rows,
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
    let label_width = settings
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0);
    println!(
        "Latin square of the {min} (004 Table 2); row i = frame i, entry j = destination of PE j"
    );
    for (i, row) in sq.rows.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|d| format!("{d:>width$}")).collect();
        let label = &settings[i];
        let pad = label_width - label.chars().count();
        println!(
            "frame {i:>width$}  {label}{}  {}",
            " ".repeat(pad),
            cells.join(" ")
        );
    }
    Ok(super::Outcome::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baseline_m3_is_l1_with_the_fig7_settings() {
        let (sq, settings) = report(&Min::new(Network::Baseline, 3).unwrap()).unwrap();
        assert_eq!(sq.rows[4], vec![6, 2, 4, 0, 7, 3, 5, 1]);
        assert_eq!(settings[4], "φ1φ1I");
        assert_eq!(settings[0], "III");
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
