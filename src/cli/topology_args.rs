//! `--topology tree|cb|file|fat-tree|cm5|trac|baseline --d D --u U --levels L|--n N
//! [--pi FILE] [--capacity C]`: the network arguments shared by `info`, `schedule`,
//! `diagram` and the network commands.
//!
//! `--d` and `--u` take one number (every level) or one per level, level 0 first
//! (`--d 4,4,2 --u 2,2,2`): switch sizes that vary by level (002 §2.2). The named networks
//! of 002 §2.2 are in [`super::presets`].

use super::presets::Preset;
use anyhow::{bail, Context};
use lcanet_sim::lcan::{Kind, Size, Topology, MAX_LEVELS};
use std::path::PathBuf;
use std::str::FromStr;

/// Which level interconnect Π, or which named network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TopologyChoice {
    /// T-LCAN(d,u): a (d/u)-ary tree whose edges are u parallel links (002 Def. 2, 5).
    Tree,
    /// CB-LCAN(d,u): complete bipartite level interconnect, = SW-banyan (002 Def. 3).
    Cb,
    /// A general Π read from --pi FILE (format: docs/pi-file.md).
    File,
    /// Leiserson's binary fat-tree: channel capacities doubling toward the root up to
    /// --capacity C (default 8); a T-LCAN with d and u per level. Give --levels L or --n 2^L.
    FatTree,
    /// The CM-5 data network as 002 §2.2 reads it: CB-LCAN(4,2) clusters of 16 PEs under a
    /// CB-LCAN(4,4) (d = 4; u = 2 at levels 0, 1, u = 4 above). Give --n 4^l or --levels l.
    Cm5,
    /// The TRAC network, CB-LCAN(3,2). Give --levels L or --n 3^L.
    Trac,
    /// The baseline network with full communication, CB-LCAN(2,2). Give --levels L or --n 2^L.
    Baseline,
}

/// `--d`, `--u`: one number for every level, or one per level (`4,4,2`, level 0 first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerLevel(pub Vec<usize>);

impl FromStr for PerLevel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let items: Vec<&str> = s.split(',').collect();
        if items.len() > MAX_LEVELS {
            return Err(format!(
                "{} entries: at most one per level, and there are at most {MAX_LEVELS} levels",
                items.len()
            ));
        }
        items
            .iter()
            .enumerate()
            .map(|(i, x)| {
                x.parse::<usize>().map_err(|_| {
                    if items.len() == 1 {
                        format!("'{x}' is not a non-negative integer")
                    } else {
                        format!("entry {i} (level {i}) '{x}' is not a non-negative integer")
                    }
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(PerLevel)
    }
}

/// The network to build.
#[derive(Debug, Clone, clap::Args)]
pub struct TopologyArgs {
    /// Level interconnect Π — `tree` (T-LCAN), `cb` (CB-LCAN), `file` (--pi FILE) — or a
    /// network of 002 §2.2: `fat-tree`, `cm5`, `trac`, `baseline`. Default: `file` if --pi
    /// is given, else `tree`.
    #[arg(long, value_enum)]
    pub topology: Option<TopologyChoice>,
    /// Downers per switch (links to the level below, or to PEs at level 0): one number, or
    /// one per level, level 0 first (`--d 4,4,2`).
    #[arg(long, value_name = "D|D0,D1,…")]
    pub d: Option<PerLevel>,
    /// Uppers per switch (links to the level above): one number, or one per level
    /// (`--u 2,2,2`). T-LCAN: d must be a multiple of u (per level: d_i of u_(i-1)).
    #[arg(long, value_name = "U|U0,U1,…")]
    pub u: Option<PerLevel>,
    /// Number of levels l (level 0 touches the PEs). Give this or --n, not both (with
    /// per-level --d/--u the levels are their entries; --levels/--n then only check).
    #[arg(long)]
    pub levels: Option<usize>,
    /// Number of PEs n (T-LCAN: n = d·(d/u)^(l-1); CB-LCAN: n = d^l). Give this or --levels.
    #[arg(long)]
    pub n: Option<usize>,
    /// Π file for --topology file (d, u, levels and n come from the file).
    #[arg(long, value_name = "FILE")]
    pub pi: Option<PathBuf>,
    /// --topology fat-tree: the largest channel capacity C (links from a switch to its
    /// parent: 2, 4, 8, … doubling toward the root, then C).
    #[arg(long, value_name = "C")]
    pub capacity: Option<usize>,
}

impl TopologyArgs {
    /// The named network chosen, if any.
    pub fn preset(&self) -> Option<Preset> {
        match self.topology? {
            TopologyChoice::FatTree => Some(Preset::FatTree),
            TopologyChoice::Cm5 => Some(Preset::Cm5),
            TopologyChoice::Trac => Some(Preset::Trac),
            TopologyChoice::Baseline => Some(Preset::Baseline),
            _ => None,
        }
    }

    /// Exactly one of `--levels` / `--n`.
    fn size(&self) -> anyhow::Result<Size> {
        Ok(match (self.levels, self.n) {
            (Some(l), None) => Size::Levels(l),
            (None, Some(n)) => Size::Pes(n),
            _ => bail!("give exactly one of --levels L or --n N"),
        })
    }

    /// Builds and validates the network.
    pub fn build(&self) -> anyhow::Result<Topology> {
        let choice = match (self.topology, &self.pi) {
            (Some(c), _) => c,
            (None, Some(_)) => TopologyChoice::File,
            (None, None) => TopologyChoice::Tree,
        };
        if self.capacity.is_some() && choice != TopologyChoice::FatTree {
            bail!("--capacity is only for --topology fat-tree");
        }
        if let Some(preset) = self.preset() {
            for (flag, given) in [
                ("--d", self.d.is_some()),
                ("--u", self.u.is_some()),
                ("--pi", self.pi.is_some()),
            ] {
                if given {
                    bail!(
                        "--topology {} fixes the network's switch sizes (docs/conventions.md, \
                         \"Named networks\"); drop {flag}, or use --topology tree|cb with --d/--u",
                        preset.name()
                    );
                }
            }
            return preset.build(self.size()?, self.capacity);
        }
        match choice {
            TopologyChoice::File => {
                let Some(path) = &self.pi else {
                    bail!("--topology file needs --pi FILE (format: docs/pi-file.md)");
                };
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading the Π file {}", path.display()))?;
                let topo = Topology::from_pi_text(&text)
                    .with_context(|| format!("in the Π file {}", path.display()))?;
                for (flag, given, actual) in
                    [("--d", &self.d, topo.ds()), ("--u", &self.u, topo.us())]
                {
                    if let Some(g) = given {
                        let same = g.0 == actual
                            || (g.0.len() == 1 && actual.iter().all(|&x| x == g.0[0]));
                        if !same {
                            bail!(
                                "{flag} {} disagrees with the Π file, which has {}",
                                list(&g.0),
                                list(&uniq(actual))
                            );
                        }
                    }
                }
                for (flag, given, actual) in [
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
                    .as_ref()
                    .with_context(|| format!("--topology {name} needs --d D"))?;
                let u = self
                    .u
                    .as_ref()
                    .with_context(|| format!("--topology {name} needs --u U"))?;
                let tree = choice == TopologyChoice::Tree;
                if d.0.len() == 1 && u.0.len() == 1 {
                    let size = self.size()?;
                    return Ok(if tree {
                        Topology::tree(d.0[0], u.0[0], size)?
                    } else {
                        Topology::complete_bipartite(d.0[0], u.0[0], size)?
                    });
                }
                per_level(tree, &d.0, &u.0, self.levels, self.n)
            }
        }
    }
}

/// A T-LCAN or CB-LCAN with per-level `--d`/`--u` (one of them may be a single number for
/// every level); `--levels`/`--n` only check.
fn per_level(
    tree: bool,
    d: &[usize],
    u: &[usize],
    levels: Option<usize>,
    n: Option<usize>,
) -> anyhow::Result<Topology> {
    let l = d.len().max(u.len());
    let spread = |flag: &str, v: &[usize]| -> anyhow::Result<Vec<usize>> {
        match v.len() {
            1 => Ok(vec![v[0]; l]),
            k if k == l => Ok(v.to_vec()),
            k => bail!(
                "{flag} {} has {k} entries but the other vector has {l}: give one per level \
                 (level 0 first), or one number for every level",
                list(v)
            ),
        }
    };
    let (ds, us) = (spread("--d", d)?, spread("--u", u)?);
    if let Some(g) = levels.filter(|&g| g != l) {
        bail!("--levels {g} disagrees with --d/--u, which give {l} levels (one entry per level)");
    }
    let topo = if tree {
        Topology::tree_per_level(&ds, &us)?
    } else {
        Topology::complete_bipartite_per_level(&ds, &us)?
    };
    if let Some(g) = n.filter(|&g| g != topo.n()) {
        bail!(
            "--n {g} disagrees with --d {} --u {}, which give n = {}",
            list(&ds),
            list(&us),
            topo.n()
        );
    }
    Ok(topo)
}

/// `4,4,2`.
fn list(v: &[usize]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// One number when every entry is equal, else all of them.
fn uniq(v: &[usize]) -> Vec<usize> {
    if v.iter().all(|&x| x == v[0]) {
        vec![v[0]]
    } else {
        v.to_vec()
    }
}

/// `d` and `u` of `topo` as written in names: `4` and `2`, or `[4,4,2]` and `[2,2,2]`.
fn sizes(topo: &Topology) -> (String, String) {
    match topo.uniform() {
        Some((d, u)) => (d.to_string(), u.to_string()),
        None => (
            format!("[{}]", list(topo.ds())),
            format!("[{}]", list(topo.us())),
        ),
    }
}

/// A one-line name, e.g. `T-LCAN(d=4, u=2), l = 3, n = 16` or, with sizes that vary by
/// level, `CB-LCAN(d=[4,4,4], u=[2,2,4]), l = 3, n = 64`.
pub fn describe(topo: &Topology) -> String {
    let (name, from) = match topo.kind() {
        Kind::Tree => ("T-LCAN", ""),
        Kind::CompleteBipartite => ("CB-LCAN", ""),
        Kind::File => ("LCAN", " from a Π file"),
    };
    let (d, u) = sizes(topo);
    format!(
        "{name}(d={d}, u={u}){from}, l = {}, n = {}",
        topo.levels(),
        topo.n()
    )
}

/// `d`, `u` for JSON reports: one number each when every level has the same switches
/// (`null` otherwise), and every level's.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SizesJson {
    /// `d` of every level, or `null` when it varies by level.
    pub d: Option<usize>,
    /// `u` of every level, or `null` when it varies by level.
    pub u: Option<usize>,
    /// `d_i`, level 0 first.
    pub d_per_level: Vec<usize>,
    /// `u_i`, level 0 first.
    pub u_per_level: Vec<usize>,
}

impl SizesJson {
    /// The sizes of `topo`.
    pub fn of(topo: &Topology) -> Self {
        let uni = topo.uniform();
        SizesJson {
            d: uni.map(|(d, _)| d),
            u: uni.map(|(_, u)| u),
            d_per_level: topo.ds().to_vec(),
            u_per_level: topo.us().to_vec(),
        }
    }
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
            d: d.map(|d| PerLevel(vec![d])),
            u: u.map(|u| PerLevel(vec![u])),
            levels,
            n,
            pi: None,
            capacity: None,
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
        a.d = Some(PerLevel(vec![4]));
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

    fn vec_args(topology: TopologyChoice, d: &str, u: &str) -> TopologyArgs {
        let mut a = args(topology, None, None, None, None);
        a.d = Some(d.parse().unwrap());
        a.u = Some(u.parse().unwrap());
        a
    }

    #[test]
    fn per_level_vectors_build_and_are_checked() {
        let t = vec_args(TopologyChoice::Cb, "4,4,2", "2,2,2")
            .build()
            .unwrap();
        assert_eq!(describe(&t), "CB-LCAN(d=[4,4,2], u=[2,2,2]), l = 3, n = 32");
        // One of the two may be a single number for every level.
        let t = vec_args(TopologyChoice::Tree, "2,4,8", "2")
            .build()
            .unwrap();
        assert_eq!((t.us(), t.n()), (&[2, 2, 2][..], 16));
        // Equal entries are the uniform network.
        let t = vec_args(TopologyChoice::Cb, "2,2,2", "2,2,2")
            .build()
            .unwrap();
        assert_eq!(describe(&t), "CB-LCAN(d=2, u=2), l = 3, n = 8");
        let mut a = vec_args(TopologyChoice::Cb, "4,4,2", "2,2,2");
        a.levels = Some(3);
        a.n = Some(32);
        assert!(a.build().is_ok());
        for (a, want) in [
            (
                {
                    let mut a = vec_args(TopologyChoice::Cb, "4,4,2", "2,2,2");
                    a.levels = Some(4);
                    a
                },
                "--levels 4 disagrees with --d/--u, which give 3 levels",
            ),
            (
                {
                    let mut a = vec_args(TopologyChoice::Cb, "4,4,2", "2,2,2");
                    a.n = Some(64);
                    a
                },
                "--n 64 disagrees with --d 4,4,2 --u 2,2,2, which give n = 32",
            ),
            (
                vec_args(TopologyChoice::Cb, "4,4,2", "2,2"),
                "--u 2,2 has 2 entries but the other vector has 3",
            ),
            (
                vec_args(TopologyChoice::Tree, "4,6,2", "4,2,2"),
                "level 1: d_1 = 6 is not a multiple of u_0 = 4",
            ),
            (
                vec_args(TopologyChoice::Cb, "4,99", "2,2"),
                "d_1 = 99 is out of range 2..=64 (level 1)",
            ),
        ] {
            let e = err(a);
            assert!(e.contains(want), "'{e}' lacks '{want}'");
        }
        for (text, want) in [
            ("4,,2", "entry 1 (level 1) '' is not a non-negative integer"),
            (
                "4,-1",
                "entry 1 (level 1) '-1' is not a non-negative integer",
            ),
            ("x", "'x' is not a non-negative integer"),
        ] {
            let e = text.parse::<PerLevel>().unwrap_err();
            assert!(e.contains(want), "'{e}' lacks '{want}'");
        }
        let long = vec!["2"; 40].join(",");
        assert!(long
            .parse::<PerLevel>()
            .unwrap_err()
            .contains("at most 32 levels"));
    }

    #[test]
    fn presets_fix_the_sizes() {
        let mut a = args(TopologyChoice::Cm5, None, None, None, Some(64));
        let t = a.build().unwrap();
        assert_eq!(
            describe(&t),
            "CB-LCAN(d=4, u=[2,2,4]), l = 3, n = 64".replace("d=4", "d=[4,4,4]")
        );
        a.d = Some(PerLevel(vec![4]));
        assert!(err(a).contains("--topology cm5 fixes the network's switch sizes"));
        let mut a = args(TopologyChoice::FatTree, None, None, Some(4), None);
        a.capacity = Some(4);
        assert_eq!(a.build().unwrap().ds(), &[2, 4, 8, 8]);
        let mut a = args(TopologyChoice::Cb, Some(2), Some(2), Some(2), None);
        a.capacity = Some(4);
        assert!(err(a).contains("--capacity is only for --topology fat-tree"));
        assert!(err(args(TopologyChoice::Trac, None, None, None, None))
            .contains("exactly one of --levels L or --n N"));
    }
}
