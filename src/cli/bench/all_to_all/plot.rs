//! The plots of `bench all-to-all` (on the bench's SVG writer), log–log against `n`:
//!
//! - `all_to_all_bit_times.svg`: bit-times of the exchange; the MINs as one series when
//!   their six curves coincide (ATAPE takes `n·(m + B) + m` on every one), each LCA
//!   network with its best algorithm (fewest bit-times summed over the sizes), the
//!   hypercube with each algorithm (Algorithm 2 is the one issue 17 names), and the
//!   one-port bound `(n − 1)·B` (a PE receives `n − 1` payloads on one wire) dotted;
//! - `all_to_all_cost.svg`: iCE40 LUTs per PE of each network's hardware (the MINs'
//!   mean), where synthesized.

use super::super::svg::{Dash, Marker, Plot, Point, Scale, Series};
use super::Record;
use std::collections::BTreeMap;

const COLORS: &[&str] = &[
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22",
];

fn marker(family: &str) -> (Marker, Dash) {
    match family {
        "min" => (Marker::Circle, Dash::Solid),
        "lcan" => (Marker::Square, Dash::Dashed),
        _ => (Marker::Triangle, Dash::Dotted),
    }
}

fn series(i: usize, name: String, family: &str, points: Vec<Point>) -> Series {
    let (marker, dash) = marker(family);
    Series {
        name,
        color: COLORS[i % COLORS.len()].to_string(),
        dash,
        marker,
        points,
    }
}

fn point(x: usize, y: f64) -> Point {
    Point {
        x: x as f64,
        y,
        range: None,
    }
}

/// `(file name, SVG)` of each plot with data.
pub fn plots(records: &[Record]) -> anyhow::Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    // (family, network, algorithm) -> records in n order.
    let mut by: BTreeMap<(String, String, String), Vec<&Record>> = BTreeMap::new();
    for r in records {
        by.entry((
            r.family.name().into(),
            r.network.clone(),
            r.algorithm.into(),
        ))
        .or_default()
        .push(r);
    }
    let curve =
        |rs: &[&Record]| -> Vec<(usize, u64)> { rs.iter().map(|r| (r.n, r.bit_times)).collect() };
    let mins: Vec<&Vec<&Record>> = by
        .iter()
        .filter(|(k, _)| k.0 == "min")
        .map(|(_, v)| v)
        .collect();
    let mins_equal = mins.windows(2).all(|w| curve(w[0]) == curve(w[1]));
    let mut lines: Vec<(String, &str, Vec<Point>)> = Vec::new();
    if mins_equal && !mins.is_empty() {
        let pts = mins[0]
            .iter()
            .map(|r| point(r.n, r.bit_times as f64))
            .collect();
        lines.push((format!("MIN, ATAPE ({} networks)", mins.len()), "min", pts));
    }
    // Best algorithm per network: fewest bit-times summed over its sizes.
    let mut best: BTreeMap<(String, String), (u64, String, Vec<Point>)> = BTreeMap::new();
    for ((family, net, alg), rs) in &by {
        if family == "min" && mins_equal {
            continue;
        }
        let total: u64 = rs.iter().map(|r| r.bit_times).sum();
        let pts: Vec<Point> = rs.iter().map(|r| point(r.n, r.bit_times as f64)).collect();
        // The hypercube keeps every algorithm: one key per (network, algorithm).
        let key = if family == "hypercube" {
            (family.clone(), format!("{net} {alg}"))
        } else {
            (family.clone(), net.clone())
        };
        if best.get(&key).is_none_or(|b| total < b.0) {
            best.insert(key, (total, alg.clone(), pts));
        }
    }
    for ((family, net), (_, alg, pts)) in best {
        let (f, name): (&str, String) = match family.as_str() {
            "min" => ("min", format!("{net} {alg}")),
            "lcan" => ("lcan", format!("{net} {alg}")),
            _ => ("hypercube", net),
        };
        lines.push((name, f, pts));
    }
    if !lines.is_empty() {
        let mut ns: Vec<usize> = records.iter().map(|r| r.n).collect();
        ns.sort_unstable();
        ns.dedup();
        let b = records.first().map_or(8, |r| r.message_bits) as f64;
        let bound = Series {
            name: format!("(n − 1)·B, B = {b}: one-port bound"),
            color: "#000000".into(),
            dash: Dash::Dotted,
            marker: Marker::None,
            points: ns.iter().map(|&n| point(n, (n as f64 - 1.0) * b)).collect(),
        };
        let plot = Plot {
            title: "All-to-all personalized exchange: bit-times".into(),
            x_label: "n (PEs)".into(),
            y_label: "bit-times of the whole exchange".into(),
            x_scale: Scale::Log2,
            y_scale: Scale::Log10,
            series: lines
                .into_iter()
                .enumerate()
                .map(|(i, (name, fam, pts))| series(i, name, fam, pts))
                .collect(),
            bounds: vec![bound],
        };
        out.push(("all_to_all_bit_times.svg".to_string(), plot.render()?));
    }
    // Cost: LUTs per PE of each hardware (the MINs averaged).
    let mut cost: BTreeMap<(String, String), BTreeMap<usize, Vec<f64>>> = BTreeMap::new();
    for r in records {
        let Some(c) = &r.cost else { continue };
        let label = match r.family.name() {
            "min" => "MINs (mean of the networks)".to_string(),
            "lcan" => format!("{} {}", r.network, r.algorithm),
            _ => "hypercube".to_string(),
        };
        cost.entry((r.family.name().into(), label))
            .or_default()
            .entry(r.n)
            .or_default()
            .push(c.luts_per_pe);
    }
    if !cost.is_empty() {
        let series_list = cost
            .into_iter()
            .enumerate()
            .map(|(i, ((family, label), by_n))| {
                let pts = by_n
                    .into_iter()
                    .map(|(n, v)| point(n, v.iter().sum::<f64>() / v.len() as f64))
                    .collect();
                series(i, label, &family, pts)
            })
            .collect();
        let plot = Plot {
            title: "Hardware cost: iCE40 LUTs per PE (Yosys synth_ice40 -noflatten)".into(),
            x_label: "n (PEs)".into(),
            y_label: "LUTs ÷ n".into(),
            x_scale: Scale::Log2,
            y_scale: Scale::Log10,
            series: series_list,
            bounds: Vec::new(),
        };
        out.push(("all_to_all_cost.svg".to_string(), plot.render()?));
    }
    Ok(out)
}
