//! `--topology tree|cb|file --d D --u U --levels L|--n N [--pi FILE]`: the network
//! arguments shared by `info`, `schedule` and `diagram`.

use anyhow::{bail, Context};
use lcanet_sim::lcan::{Kind, Size, Topology};
use std::path::PathBuf;

/// Which level interconnect Π.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TopologyChoice {
    /// T-LCAN(d,u): a (d/u)-ary tree whose edges are u parallel links (002 Def. 2, 5).
    Tree,
    /// CB-LCAN(d,u): complete bipartite level interconnect, = SW-banyan (002 Def. 3).
    Cb,
    /// A general Π read from --pi FILE (format: docs/pi-file.md).
    File,
}

/// The network to build.
#[derive(Debug, Clone, clap::Args)]
pub struct TopologyArgs {
    /// Level interconnect Π: `tree` (T-LCAN), `cb` (CB-LCAN) or `file` (--pi FILE).
    /// Default: `file` if --pi is given, else `tree`.
    #[arg(long, value_enum)]
    pub topology: Option<TopologyChoice>,
    /// Downers per switch (links to the level below, or to PEs at level 0).
    #[arg(long)]
    pub d: Option<usize>,
    /// Uppers per switch (links to the level above). T-LCAN: d must be a multiple of u.
    #[arg(long)]
    pub u: Option<usize>,
    /// Number of levels l (level 0 touches the PEs). Give this or --n, not both.
    #[arg(long)]
    pub levels: Option<usize>,
    /// Number of PEs n (T-LCAN: n = d·(d/u)^(l-1); CB-LCAN: n = d^l). Give this or --levels.
    #[arg(long)]
    pub n: Option<usize>,
    /// Π file for --topology file (d, u, levels and n come from the file).
    #[arg(long, value_name = "FILE")]
    pub pi: Option<PathBuf>,
}

impl TopologyArgs {
    /// Builds and validates the network.
    pub fn build(&self) -> anyhow::Result<Topology> {
        let choice = match (self.topology, &self.pi) {
            (Some(c), _) => c,
            (None, Some(_)) => TopologyChoice::File,
            (None, None) => TopologyChoice::Tree,
        };
        match choice {
            TopologyChoice::File => {
                let Some(path) = &self.pi else {
                    bail!("--topology file needs --pi FILE (format: docs/pi-file.md)");
                };
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading the Π file {}", path.display()))?;
                let topo = Topology::from_pi_text(&text)
                    .with_context(|| format!("in the Π file {}", path.display()))?;
                for (flag, given, actual) in [
                    ("--d", self.d, topo.d()),
                    ("--u", self.u, topo.u()),
                    ("--levels", self.levels, topo.levels()),
                    ("--n", self.n, topo.n()),
                ] {
                    if let Some(g) = given.filter(|&g| g != actual) {
                        bail!("{flag} {g} disagrees with the Π file, which has {actual}");
                    }
                }
                Ok(topo)
            }
            choice => {
                if self.pi.is_some() {
                    bail!("--pi is only for --topology file");
                }
                let name = if choice == TopologyChoice::Tree {
                    "tree"
                } else {
                    "cb"
                };
                let d = self
                    .d
                    .with_context(|| format!("--topology {name} needs --d D"))?;
                let u = self
                    .u
                    .with_context(|| format!("--topology {name} needs --u U"))?;
                let size = match (self.levels, self.n) {
                    (Some(l), None) => Size::Levels(l),
                    (None, Some(n)) => Size::Pes(n),
                    _ => bail!("give exactly one of --levels L or --n N"),
                };
                Ok(if choice == TopologyChoice::Tree {
                    Topology::tree(d, u, size)?
                } else {
                    Topology::complete_bipartite(d, u, size)?
                })
            }
        }
    }
}

/// A one-line name, e.g. `T-LCAN(d=4, u=2), l = 3, n = 16`.
pub fn describe(topo: &Topology) -> String {
    let (name, from) = match topo.kind() {
        Kind::Tree => ("T-LCAN", ""),
        Kind::CompleteBipartite => ("CB-LCAN", ""),
        Kind::File => ("LCAN", " from a Π file"),
    };
    format!(
        "{name}(d={}, u={}){from}, l = {}, n = {}",
        topo.d(),
        topo.u(),
        topo.levels(),
        topo.n()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(
        topology: TopologyChoice,
        d: Option<usize>,
        u: Option<usize>,
        levels: Option<usize>,
        n: Option<usize>,
    ) -> TopologyArgs {
        TopologyArgs {
            topology: Some(topology),
            d,
            u,
            levels,
            n,
            pi: None,
        }
    }

    fn err(a: TopologyArgs) -> String {
        format!("{:#}", a.build().expect_err("must fail"))
    }

    #[test]
    fn builds_and_rejects_with_the_condition() {
        let t = args(TopologyChoice::Tree, Some(4), Some(2), Some(3), None)
            .build()
            .unwrap();
        assert_eq!(describe(&t), "T-LCAN(d=4, u=2), l = 3, n = 16");
        let c = args(TopologyChoice::Cb, Some(2), Some(2), None, Some(16))
            .build()
            .unwrap();
        assert_eq!(c.levels(), 4);
        assert!(err(args(
            TopologyChoice::Tree,
            Some(4),
            Some(2),
            Some(3),
            Some(16)
        ))
        .contains("exactly one of --levels L or --n N"));
        assert!(
            err(args(TopologyChoice::Tree, Some(4), Some(2), None, None))
                .contains("exactly one of --levels L or --n N")
        );
        assert!(err(args(TopologyChoice::Cb, None, Some(2), Some(3), None))
            .contains("--topology cb needs --d D"));
        assert!(
            err(args(TopologyChoice::Tree, Some(6), Some(4), Some(2), None))
                .contains("d = 6 is not a multiple of u = 4")
        );
        assert!(
            err(args(TopologyChoice::Tree, Some(4), Some(2), None, Some(12)))
                .contains("n = 12 is not d·(d/u)^(l-1)")
        );
        assert!(err(args(TopologyChoice::File, None, None, None, None))
            .contains("--topology file needs --pi FILE"));
    }

    #[test]
    fn pi_alone_selects_topology_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cb.pi");
        let cb = Topology::complete_bipartite(2, 2, Size::Levels(2)).unwrap();
        std::fs::write(&path, cb.to_pi_text()).unwrap();
        let mut a = args(TopologyChoice::Tree, None, None, None, None);
        a.topology = None;
        a.pi = Some(path);
        assert_eq!(a.build().unwrap().kind(), Kind::File);
        a.topology = Some(TopologyChoice::Cb);
        assert!(err(a).contains("--pi is only for --topology file"));
    }

    #[test]
    fn pi_file_parameters_must_agree() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cb.pi");
        let cb = Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap();
        std::fs::write(&path, cb.to_pi_text()).unwrap();
        let mut a = args(TopologyChoice::File, None, None, None, None);
        a.pi = Some(path.clone());
        assert_eq!(a.build().unwrap().n(), 8);
        a.d = Some(4);
        assert!(err(a.clone()).contains("--d 4 disagrees with the Π file, which has 2"));
        std::fs::write(
            &path,
            "lcan d=2 u=2 levels=2 n=4\nlevel 0\n0.0 -> 0.0\n0.0 -> 1.0\n",
        )
        .unwrap();
        a.d = None;
        let e = err(a);
        assert!(
            e.contains("Π file line 4: upper 0 of level-0 switch 0 is connected twice"),
            "{e}"
        );
    }
}
