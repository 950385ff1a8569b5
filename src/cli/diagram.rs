//! `lcanet diagram`: draw an LCA network like the papers' Figures 3–4, as Graphviz DOT or
//! (through Graphviz's `dot`) SVG.

use super::common::write_atomic;
use super::topology_args::{describe, TopologyArgs};
use super::Outcome;
use anyhow::{bail, Context};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Arguments of `lcanet diagram`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lcanet diagram --topology tree --d 4 --u 2 --levels 3 -o tree.svg
  lcanet diagram --topology cb --d 2 --u 2 --levels 3 -o cb22.dot
  lcanet diagram --topology file --pi my.pi -o mine.svg
  lcanet diagram --topology fat-tree --levels 4 -o fat.svg   switch sizes per level
  lcanet diagram --topology cm5 --n 64 -o cm5.svg

Levels are drawn as ranks with the top level at the top and the PEs at the bottom;
every switch shows its uppers u0.. above and its downers d0.. below. Writing .svg runs
Graphviz's `dot` (installed by scripts/setup).")]
pub struct Args {
    #[command(flatten)]
    topology: TopologyArgs,
    /// Output file: `.dot` (Graphviz text) or `.svg` (rendered with `dot -Tsvg`).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: PathBuf,
    /// Title drawn above the network (default: its parameters).
    #[arg(long)]
    title: Option<String>,
}

/// Runs `lcanet diagram`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let ext = args
        .output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if !matches!(ext.as_deref(), Some("dot" | "svg")) {
        bail!(
            "-o {}: the output must end in .dot or .svg",
            args.output.display()
        );
    }
    let topo = args.topology.build()?;
    let title = args
        .title
        .clone()
        .unwrap_or_else(|| match args.topology.preset() {
            Some(p) => format!("{}: {}", p.title(), describe(&topo)),
            None => describe(&topo),
        });
    let dot = lcanet_sim::lcan::dot::to_dot(&topo, &title)?;
    let bytes = if ext.as_deref() == Some("svg") {
        render_svg(&dot)?
    } else {
        dot.into_bytes()
    };
    write_atomic(&args.output, &bytes)?;
    println!("wrote {} ({})", args.output.display(), describe(&topo));
    Ok(Outcome::Success)
}

fn render_svg(dot: &str) -> anyhow::Result<Vec<u8>> {
    let mut child = match Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "Graphviz `dot` was not found on PATH: run scripts/setup (or install graphviz), or write a .dot file instead"
        ),
        Err(e) => return Err(e).context("starting Graphviz `dot`"),
    };
    child
        .stdin
        .take()
        .context("opening the standard input of `dot`")?
        .write_all(dot.as_bytes())
        .context("sending the diagram to `dot`")?;
    let out = child.wait_with_output().context("waiting for `dot`")?;
    if !out.status.success() {
        bail!(
            "`dot -Tsvg` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(out.stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_svg_when_graphviz_is_present() {
        let t = lcanet_sim::lcan::Topology::tree(2, 1, lcanet_sim::lcan::Size::Levels(2)).unwrap();
        let dot = lcanet_sim::lcan::dot::to_dot(&t, "test").unwrap();
        match render_svg(&dot) {
            Ok(svg) => {
                let text = String::from_utf8_lossy(&svg);
                assert!(text.contains("<svg"), "{text}");
                assert!(text.contains("level 1 switch 0"));
            }
            // Without Graphviz the error must say how to get it.
            Err(e) => assert!(e.to_string().contains("run scripts/setup"), "{e}"),
        }
    }
}
