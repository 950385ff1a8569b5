//! A small SVG line-plot writer (no plot crate): one plot, a log2 or linear x axis, a
//! linear or log10 y axis, labelled axes with ticks and grid, series as polylines with
//! markers and optional min–max whiskers, reference lines ("bounds") and a legend to the
//! right of the plot area. The output is plain SVG 1.1 text; every element a reader or a
//! test may look for carries a `class` (`series`, `bound`, `axis`, `legend`, `whisker`) and
//! series and bounds a `data-name`.

use std::fmt::Write as _;

/// How an axis maps values to positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Linear; ticks at 1, 2 or 5 times a power of ten.
    Linear,
    /// Logarithmic base 2; ticks at powers of two (values must be positive).
    Log2,
    /// Logarithmic base 10; ticks at powers of ten (values must be positive).
    Log10,
}

/// Line style of a series or bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dash {
    /// Solid line.
    Solid,
    /// Long dashes.
    Dashed,
    /// Dots.
    Dotted,
}

impl Dash {
    fn attr(self) -> &'static str {
        match self {
            Dash::Solid => "",
            Dash::Dashed => " stroke-dasharray=\"7 4\"",
            Dash::Dotted => " stroke-dasharray=\"2 3\"",
        }
    }
}

/// Marker drawn at each point of a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// A filled circle.
    Circle,
    /// A filled square.
    Square,
    /// A filled triangle.
    Triangle,
    /// No marker.
    None,
}

/// One point: `x`, `y`, and optionally the `(min, max)` range drawn as a whisker.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Abscissa.
    pub x: f64,
    /// Ordinate.
    pub y: f64,
    /// Range drawn as a vertical whisker.
    pub range: Option<(f64, f64)>,
}

/// A named line: a measured series or a bound.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// CSS colour.
    pub color: String,
    /// Line style.
    pub dash: Dash,
    /// Marker.
    pub marker: Marker,
    /// Points (drawn in x order as given).
    pub points: Vec<Point>,
}

/// A plot.
#[derive(Debug, Clone, PartialEq)]
pub struct Plot {
    /// Title above the plot.
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// Scale of the x axis.
    pub x_scale: Scale,
    /// Scale of the y axis.
    pub y_scale: Scale,
    /// Measured series (class `series`).
    pub series: Vec<Series>,
    /// Reference lines: bounds (class `bound`).
    pub bounds: Vec<Series>,
}

const W: f64 = 980.0;
const H: f64 = 560.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 700.0; // right edge of the plot area; the legend is beyond it
const TOP: f64 = 50.0;
const BOTTOM: f64 = 490.0;

fn fwd(scale: Scale, v: f64) -> f64 {
    match scale {
        Scale::Linear => v,
        Scale::Log2 => v.log2(),
        Scale::Log10 => v.log10(),
    }
}

/// The axis range (transformed) and its ticks (values) for data in `[lo, hi]`.
fn ticks(scale: Scale, lo: f64, hi: f64) -> (f64, f64, Vec<f64>) {
    match scale {
        Scale::Linear => {
            let (lo, hi) = if hi - lo < 1e-9 {
                (lo - 0.5, hi + 0.5)
            } else {
                (lo, hi)
            };
            let raw = (hi - lo) / 6.0;
            let mag = 10f64.powf(raw.log10().floor());
            let step = [1.0, 2.0, 5.0, 10.0]
                .iter()
                .map(|m| m * mag)
                .find(|s| *s >= raw)
                .unwrap_or(10.0 * mag);
            let a = (lo / step).floor() * step;
            let b = (hi / step).ceil() * step;
            let count = ((b - a) / step).round() as i64;
            let t = (0..=count).map(|i| a + i as f64 * step).collect();
            (a, b, t)
        }
        Scale::Log2 | Scale::Log10 => {
            let base = if scale == Scale::Log2 { 2f64 } else { 10f64 };
            let a = fwd(scale, lo).floor();
            let mut b = fwd(scale, hi).ceil();
            if b <= a {
                b = a + 1.0;
            }
            // Over at most two decades, 2 and 5 times each power of ten as well.
            let mults: &[f64] = if scale == Scale::Log10 && b - a <= 2.0 {
                &[1.0, 2.0, 5.0]
            } else {
                &[1.0]
            };
            let top = base.powi(b as i32);
            let t = (a as i64..=b as i64)
                .flat_map(|e| mults.iter().map(move |m| m * base.powi(e as i32)))
                .filter(|&v| v <= top)
                .collect();
            (a, b, t)
        }
    }
}

fn fmt_tick(v: f64) -> String {
    if v.abs() >= 1e6 {
        format!("{:.0e}", v)
    } else if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Escapes text for SVG content and attributes.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn marker(out: &mut String, m: Marker, x: f64, y: f64, color: &str) {
    let _ = match m {
        Marker::Circle => writeln!(
            out,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3.5\" fill=\"{color}\"/>"
        ),
        Marker::Square => writeln!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"7\" height=\"7\" fill=\"{color}\"/>",
            x - 3.5,
            y - 3.5
        ),
        Marker::Triangle => writeln!(
            out,
            "<polygon points=\"{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{color}\"/>",
            x,
            y - 4.5,
            x - 4.0,
            y + 3.5,
            x + 4.0,
            y + 3.5
        ),
        Marker::None => Ok(()),
    };
}

impl Plot {
    /// Renders the plot as an SVG document.
    pub fn render(&self) -> anyhow::Result<String> {
        let all = self.series.iter().chain(&self.bounds);
        let (mut xlo, mut xhi, mut ylo, mut yhi) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for s in all {
            for p in &s.points {
                let (a, b) = p.range.unwrap_or((p.y, p.y));
                for (what, v, scale) in [
                    ("x", p.x, self.x_scale),
                    ("y", p.y, self.y_scale),
                    ("y min", a, self.y_scale),
                    ("y max", b, self.y_scale),
                ] {
                    if !v.is_finite() || (scale != Scale::Linear && v <= 0.0) {
                        anyhow::bail!(
                            "plot '{}': {what} of '{}' = {v} cannot be drawn on this axis",
                            self.title,
                            s.name
                        );
                    }
                }
                xlo = xlo.min(p.x);
                xhi = xhi.max(p.x);
                ylo = ylo.min(p.y.min(a));
                yhi = yhi.max(p.y.max(b));
            }
        }
        if xlo > xhi {
            anyhow::bail!("plot '{}': no points to draw", self.title);
        }
        if self.y_scale == Scale::Linear {
            ylo = ylo.min(0.0);
        }
        let (xa, xb, xt) = ticks(self.x_scale, xlo, xhi);
        let (ya, yb, yt) = ticks(self.y_scale, ylo, yhi);
        // A margin inside the frame, so that lines on the first or last tick stay visible.
        let (ya, yb) = (ya - 0.03 * (yb - ya), yb + 0.03 * (yb - ya));
        let px = |v: f64| LEFT + (fwd(self.x_scale, v) - xa) / (xb - xa) * (RIGHT - LEFT);
        let py = |v: f64| BOTTOM - (fwd(self.y_scale, v) - ya) / (yb - ya) * (BOTTOM - TOP);
        let mut o = String::new();
        let _ = writeln!(
            o,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" font-family=\"sans-serif\" font-size=\"12\">"
        );
        let _ = writeln!(o, "<title>{}</title>", escape(&self.title));
        let _ = writeln!(o, "<rect width=\"{W}\" height=\"{H}\" fill=\"white\"/>");
        let _ = writeln!(
            o,
            "<text class=\"title\" x=\"{:.1}\" y=\"28\" text-anchor=\"middle\" font-size=\"15\">{}</text>",
            (LEFT + RIGHT) / 2.0,
            escape(&self.title)
        );
        // Grid and ticks.
        o.push_str("<g class=\"axis\" data-axis=\"x\">\n");
        for &t in &xt {
            let x = px(t);
            let _ = writeln!(o, "<line x1=\"{x:.1}\" y1=\"{TOP}\" x2=\"{x:.1}\" y2=\"{BOTTOM}\" stroke=\"#e4e4e4\"/>");
            let _ = writeln!(
                o,
                "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                BOTTOM + 17.0,
                fmt_tick(t)
            );
        }
        let _ = writeln!(
            o,
            "<text class=\"label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"13\">{}</text>",
            (LEFT + RIGHT) / 2.0,
            BOTTOM + 42.0,
            escape(&self.x_label)
        );
        o.push_str("</g>\n<g class=\"axis\" data-axis=\"y\">\n");
        for &t in &yt {
            let y = py(t);
            let _ = writeln!(o, "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{RIGHT}\" y2=\"{y:.1}\" stroke=\"#e4e4e4\"/>");
            let _ = writeln!(
                o,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                LEFT - 6.0,
                y + 4.0,
                fmt_tick(t)
            );
        }
        let _ = writeln!(
            o,
            "<text class=\"label\" transform=\"translate(22,{:.1}) rotate(-90)\" text-anchor=\"middle\" font-size=\"13\">{}</text>",
            (TOP + BOTTOM) / 2.0,
            escape(&self.y_label)
        );
        o.push_str("</g>\n");
        let _ = writeln!(
            o,
            "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>",
            RIGHT - LEFT,
            BOTTOM - TOP
        );
        // Lines: bounds first (under the series).
        let mut legend = Vec::new();
        for (class, list, width) in [("bound", &self.bounds, 1.3), ("series", &self.series, 2.0)] {
            for s in list.iter() {
                let _ = writeln!(o, "<g class=\"{class}\" data-name=\"{}\">", escape(&s.name));
                let pts: Vec<String> = s
                    .points
                    .iter()
                    .map(|p| format!("{:.1},{:.1}", px(p.x), py(p.y)))
                    .collect();
                let _ = writeln!(
                    o,
                    "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{width}\"{}/>",
                    pts.join(" "),
                    s.color,
                    s.dash.attr()
                );
                for p in &s.points {
                    if let Some((a, b)) = p.range {
                        let x = px(p.x);
                        let _ = writeln!(
                            o,
                            "<line class=\"whisker\" x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"{}\" stroke-width=\"1\"/>",
                            py(a),
                            py(b),
                            s.color
                        );
                    }
                    marker(&mut o, s.marker, px(p.x), py(p.y), &s.color);
                }
                o.push_str("</g>\n");
                legend.push((class, s));
            }
        }
        // Legend: series first, then bounds.
        legend.sort_by_key(|(c, _)| *c != "series");
        o.push_str("<g class=\"legend\">\n");
        for (i, (class, s)) in legend.iter().enumerate() {
            let y = TOP + 8.0 + i as f64 * 18.0;
            let x = RIGHT + 20.0;
            let _ = writeln!(
                o,
                "<line x1=\"{x:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{}\" stroke-width=\"2\"{}/>",
                x + 30.0,
                s.color,
                s.dash.attr()
            );
            marker(&mut o, s.marker, x + 15.0, y, &s.color);
            let _ = writeln!(
                o,
                "<text class=\"legend-{class}\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                x + 38.0,
                y + 4.0,
                escape(&s.name)
            );
        }
        o.push_str("</g>\n</svg>\n");
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(x: f64, y: f64) -> Point {
        Point { x, y, range: None }
    }

    fn plot(y_scale: Scale) -> Plot {
        Plot {
            title: "passes <÷> bound".into(),
            x_label: "n (PEs)".into(),
            y_label: "ratio".into(),
            x_scale: Scale::Log2,
            y_scale,
            series: vec![Series {
                name: "R1 T(2,1)".into(),
                color: "#1f77b4".into(),
                dash: Dash::Solid,
                marker: Marker::Circle,
                points: vec![
                    pt(16.0, 1.0),
                    Point {
                        x: 64.0,
                        y: 1.5,
                        range: Some((1.2, 2.0)),
                    },
                    pt(256.0, 3.0),
                ],
            }],
            bounds: vec![Series {
                name: "lower bound".into(),
                color: "black".into(),
                dash: Dash::Dashed,
                marker: Marker::None,
                points: vec![pt(16.0, 1.0), pt(256.0, 1.0)],
            }],
        }
    }

    #[test]
    fn renders_axes_series_bounds_and_legend() {
        let svg = plot(Scale::Linear).render().unwrap();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("passes &lt;÷&gt; bound"), "title escaped");
        assert!(svg.contains(">n (PEs)</text>") && svg.contains(">ratio</text>"));
        // log2 x ticks at 16 … 256, linear y ticks from 0 to 3.
        for t in ["16", "32", "64", "128", "256"] {
            assert!(svg.contains(&format!(">{t}</text>")), "x tick {t}");
        }
        assert!(svg.contains(">0</text>") && svg.contains(">3</text>"));
        assert!(svg.contains("<g class=\"series\" data-name=\"R1 T(2,1)\">"));
        assert!(svg.contains("<g class=\"bound\" data-name=\"lower bound\">"));
        assert!(svg.contains("stroke-dasharray=\"7 4\""));
        assert_eq!(svg.matches("class=\"whisker\"").count(), 1);
        assert_eq!(svg.matches("<circle").count(), 3 + 1, "3 points + legend");
        assert!(svg.contains("class=\"legend-series\"") && svg.contains("class=\"legend-bound\""));
        // Points are placed by the scales: 16 at the left edge, 256 at the right edge.
        assert!(svg.contains("polyline points=\"80.0,"));
        assert!(svg.contains("700.0,"));
    }

    #[test]
    fn log_axes_reject_nonpositive_values_and_empty_plots_are_errors() {
        let mut p = plot(Scale::Log10);
        assert!(p.render().unwrap().contains(">1</text>"));
        p.series[0].points[0].y = 0.0;
        let e = p.render().unwrap_err().to_string();
        assert!(e.contains("y of 'R1 T(2,1)' = 0 cannot be drawn"), "{e}");
        p.series.clear();
        p.bounds.clear();
        assert!(p.render().unwrap_err().to_string().contains("no points"));
    }

    #[test]
    fn linear_ticks_are_round_numbers() {
        let (a, b, t) = ticks(Scale::Linear, 0.0, 4.7);
        assert_eq!((a, b), (0.0, 5.0));
        assert_eq!(t, vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
        let (_, _, t) = ticks(Scale::Log10, 120.0, 35_000.0);
        assert_eq!(t, vec![100.0, 1000.0, 10_000.0, 100_000.0]);
        let (_, _, t) = ticks(Scale::Log10, 120.0, 3_500.0);
        assert_eq!(
            t,
            vec![100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0, 10_000.0]
        );
        assert_eq!(fmt_tick(0.25), "0.25");
        assert_eq!(fmt_tick(2e6), "2e6");
    }
}
