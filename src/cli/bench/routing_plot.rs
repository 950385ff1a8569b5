//! The plots of `lcanet bench routing`, drawn from the records of the random permutations
//! (mean, with a min–max whisker), one set per topology kind so that each stays readable:
//!
//! - `passes_over_lb_<kind>.svg`: passes ÷ lower bound vs `n`, the bound drawn at 1;
//! - `passes_<kind>.svg`: passes vs `n` (log–log), the mean lower bound of each network
//!   drawn dashed, and for CB-LCANs the reference curve `log2 n` (002's O(log N));
//! - `bit_times_<kind>.svg`: bit-times per permutation vs `n` (log–log), the protocol's
//!   bit-time bound of each (network, algorithm) drawn dotted.
//!
//! One series per algorithm × network: colour by network, line style and marker by
//! algorithm (in the order of `routing_sweep::ALGORITHMS`).

use super::routing_sweep::Record;
use super::svg::{Dash, Marker, Plot, Point, Scale, Series};
use lcanet_sim::lcan::routing::Algorithm;

const COLORS: &[&str] = &[
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
];
/// A series' ordinate from a record: the value and its min–max range (`None`: the record
/// has no such figure, e.g. no bit-times for an algorithm without hardware).
type YOf<'a> = &'a dyn Fn(&Record) -> Option<(f64, Option<(f64, f64)>)>;

const DASHES: &[Dash] = &[Dash::Solid, Dash::Dashed, Dash::Dotted];
const MARKERS: &[Marker] = &[Marker::Circle, Marker::Square, Marker::Triangle];

/// The file names and SVG texts of every plot for these records.
pub fn plots(
    records: &[Record],
    algorithms: &[Algorithm],
) -> anyhow::Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for (kind, title) in [("tree", "T-LCAN"), ("cb", "CB-LCAN")] {
        let rs: Vec<&Record> = records
            .iter()
            .filter(|r| r.topology == kind && r.workload == "random")
            .collect();
        if rs.is_empty() {
            continue;
        }
        let mut nets: Vec<&str> = Vec::new();
        for r in &rs {
            if !nets.contains(&r.network.as_str()) {
                nets.push(&r.network);
            }
        }
        let samples = rs[0].samples;
        let series = |y: YOf| -> Vec<Series> {
            let mut v = Vec::new();
            for (ni, net) in nets.iter().enumerate() {
                for (ai, alg) in algorithms.iter().enumerate() {
                    let points: Vec<Point> = rs
                        .iter()
                        .filter(|r| r.network == *net && r.algorithm == alg.name())
                        .filter_map(|r| {
                            let (y, range) = y(r)?;
                            Some(Point {
                                x: r.n as f64,
                                y,
                                range,
                            })
                        })
                        .collect();
                    if points.is_empty() {
                        continue;
                    }
                    v.push(Series {
                        name: format!("{} {net}", alg.name().to_uppercase()),
                        color: COLORS[ni % COLORS.len()].to_string(),
                        dash: DASHES[ai % DASHES.len()],
                        marker: MARKERS[ai % MARKERS.len()],
                        points,
                    });
                }
            }
            v
        };
        let (n_lo, n_hi) = rs.iter().fold((f64::MAX, f64::MIN), |(a, b), r| {
            (a.min(r.n as f64), b.max(r.n as f64))
        });
        let flat = |y: f64| {
            vec![
                Point {
                    x: n_lo,
                    y,
                    range: None,
                },
                Point {
                    x: n_hi,
                    y,
                    range: None,
                },
            ]
        };
        // Lower bound per network (the same for every algorithm: same permutations).
        let lb_series: Vec<Series> = nets
            .iter()
            .enumerate()
            .map(|(ni, net)| Series {
                name: format!("lower bound {net}"),
                color: COLORS[ni % COLORS.len()].to_string(),
                dash: Dash::Dashed,
                marker: Marker::None,
                points: rs
                    .iter()
                    .filter(|r| r.network == *net && r.algorithm == rs[0].algorithm)
                    .map(|r| Point {
                        x: r.n as f64,
                        y: r.lower_bound.mean,
                        range: None,
                    })
                    .collect(),
            })
            .collect();

        let ratio = Plot {
            title: format!(
                "{title}: passes ÷ lower bound, {samples} random permutations (mean, min–max)"
            ),
            x_label: "n (PEs, log2)".into(),
            y_label: "passes ÷ lower bound".into(),
            x_scale: Scale::Log2,
            y_scale: Scale::Linear,
            series: series(&|r| {
                let s = &r.passes_over_lower_bound;
                Some((s.mean, Some((s.min, s.max))))
            }),
            bounds: vec![Series {
                name: "lower bound (ratio 1)".into(),
                color: "black".into(),
                dash: Dash::Dashed,
                marker: Marker::None,
                points: flat(1.0),
            }],
        };
        out.push((format!("passes_over_lb_{kind}.svg"), ratio.render()?));

        let mut bounds = lb_series;
        if kind == "cb" {
            bounds.push(Series {
                name: "reference: log2 n".into(),
                color: "#555555".into(),
                dash: Dash::Dotted,
                marker: Marker::None,
                points: rs
                    .iter()
                    .filter(|r| r.network == nets[0] && r.algorithm == rs[0].algorithm)
                    .map(|r| Point {
                        x: r.n as f64,
                        y: (r.n as f64).log2(),
                        range: None,
                    })
                    .collect(),
            });
        }
        let passes = Plot {
            title: format!(
                "{title}: passes per permutation, {samples} random permutations (mean, min–max)"
            ),
            x_label: "n (PEs, log2)".into(),
            y_label: "passes (log2)".into(),
            x_scale: Scale::Log2,
            y_scale: Scale::Log2,
            series: series(&|r| Some((r.passes.mean, Some((r.passes.min, r.passes.max))))),
            bounds,
        };
        out.push((format!("passes_{kind}.svg"), passes.render()?));

        let bit_series = series(&|r| {
            let b = r.bit_times.as_ref()?;
            Some((b.mean, Some((b.min, b.max))))
        });
        let bit_bounds: Vec<Series> = bit_series
            .iter()
            .map(|s| {
                let (alg, net) = s.name.split_once(' ').unwrap_or((&s.name, ""));
                Series {
                    name: format!("bound {alg} {net}"),
                    color: s.color.clone(),
                    dash: Dash::Dotted,
                    marker: Marker::None,
                    points: rs
                        .iter()
                        .filter(|r| r.network == net && r.algorithm.eq_ignore_ascii_case(alg))
                        .filter_map(|r| {
                            Some(Point {
                                x: r.n as f64,
                                y: r.bit_time_bound.as_ref()?.mean,
                                range: None,
                            })
                        })
                        .collect(),
                }
            })
            .collect();
        let m = rs[0].message_bits;
        let bits = Plot {
            title: format!(
                "{title}: bit-times per permutation (M = {m}), {samples} random permutations"
            ),
            x_label: "n (PEs, log2)".into(),
            y_label: "bit-times per permutation (log10)".into(),
            x_scale: Scale::Log2,
            y_scale: Scale::Log10,
            series: bit_series,
            bounds: bit_bounds,
        };
        out.push((format!("bit_times_{kind}.svg"), bits.render()?));
    }
    Ok(out)
}
