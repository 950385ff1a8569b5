//! Graphviz DOT drawing of an LCA network in the style of the papers' Figures 3–4:
//! one rank per level (the top level at the top), PEs at the bottom, every switch a
//! record with its uppers `u0…` above and its downers `d0…` below, links drawn between
//! an upper of one switch and a downer of its parent. Pure string generation; running
//! `dot` is the CLI's business.

use super::topology::{DownEnd, Topology};
use std::fmt::Write;

/// Largest `n` drawn (larger drawings are unreadable and slow to lay out).
pub const MAX_DIAGRAM_PES: usize = 512;

/// Why a diagram cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiagramError {
    /// Too many PEs.
    #[error("n = {n} PEs is too many to draw (the limit is {MAX_DIAGRAM_PES})")]
    TooLarge {
        /// PEs.
        n: usize,
    },
}

/// Invisible edges that keep a rank in index order, left to right.
fn keep_order(s: &mut String, nodes: impl Iterator<Item = String>) {
    let nodes: Vec<String> = nodes.collect();
    if nodes.len() > 1 {
        let _ = writeln!(s, "  {} [style=invis];", nodes.join(" -> "));
    }
}

fn node(level: usize, sw: usize) -> String {
    format!("L{level}S{sw}")
}

/// The DOT text of `topo`; `title` is the graph label.
pub fn to_dot(topo: &Topology, title: &str) -> Result<String, DiagramError> {
    if topo.n() > MAX_DIAGRAM_PES {
        return Err(DiagramError::TooLarge { n: topo.n() });
    }
    let mut s = String::new();
    let esc = title.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(s, "digraph lcan {{");
    let _ = writeln!(
        s,
        "  graph [rankdir=TB, ordering=out, nodesep=0.12, ranksep=0.9, splines=line, labelloc=t, label=\"{esc}\"];"
    );
    let _ = writeln!(s, "  node [shape=record, fontsize=9, height=0.3];");
    let _ = writeln!(s, "  edge [dir=both, arrowsize=0.35];");
    for level in (0..topo.levels()).rev() {
        let _ = writeln!(
            s,
            "  // level {level}: {} switches",
            topo.switch_count(level)
        );
        let _ = write!(s, "  {{ rank=same;");
        for sw in 0..topo.switch_count(level) {
            let ups: Vec<String> = (0..topo.u_at(level))
                .map(|k| format!("<u{k}>u{k}"))
                .collect();
            let downs: Vec<String> = (0..topo.d_at(level))
                .map(|x| format!("<d{x}>d{x}"))
                .collect();
            let _ = write!(
                s,
                " {} [label=\"{{{{{}}}|level {level} switch {sw}|{{{}}}}}\"];",
                node(level, sw),
                ups.join("|"),
                downs.join("|")
            );
        }
        let _ = writeln!(s, " }}");
    }
    let _ = write!(s, "  {{ rank=same;");
    for p in 0..topo.n() {
        let _ = write!(
            s,
            " PE{p} [shape=circle, label=\"{p}\", width=0.3, fixedsize=true];"
        );
    }
    let _ = writeln!(s, " }}");
    keep_order(&mut s, (0..topo.n()).map(|p| format!("PE{p}")));
    for level in (0..topo.levels()).rev() {
        for sw in 0..topo.switch_count(level) {
            for x in 0..topo.d_at(level) {
                let from = format!("{}:d{x}:s", node(level, sw));
                let _ = match topo.down_link(level, sw, x) {
                    DownEnd::Pe(p) => writeln!(s, "  {from} -> PE{p}:n;"),
                    DownEnd::Switch { switch, upper } => {
                        writeln!(s, "  {from} -> {}:u{upper}:n;", node(level - 1, switch))
                    }
                };
            }
        }
    }
    let _ = writeln!(s, "}}");
    Ok(s)
}
