//! The GTKWave save file (`.gtkw`) of a network and the translate filter files it uses:
//! vectors (never single bits of a quantity), grouped — the controller, the network-wide PE
//! vectors, one group per PE interface, one per switch level (its link vectors and its
//! switches' ports and crosspoints) — with the phase and switch-mode codes shown by name.
//!
//! Signal paths are the VCD's (Verilator's): `TOP.<top>.<instance>.<signal>`, vectors
//! written `name[msb:lsb]`. Groups use GTKWave's flags (`@800200` opens a group, `@1000200`
//! closes it); `@28` shows a bit, `@22` a vector in hex, `@2024` a vector in decimal
//! through translate filter `^1` (phase names) or `^2` (mode names).

use super::controller::{CTL_SIGNALS, MODES, PHASES};
use super::fabric::{down_links, level_instance, switch_instance, up_links};
use super::network::pe_instance;
use super::spec::NetSpec;
use super::spec::Structure;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// At most this many PE interfaces and switches per level get a group or traces of their
/// own (the network-wide vectors show every PE and link).
pub const MAX_DETAILED: usize = 8;

/// How a trace is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    /// Hex (one bit: binary).
    Plain,
    /// Decimal through translate filter file `k` (1-based).
    Named(usize),
}

/// One signal in a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// Hierarchical name below `TOP.<top>` (`lvl0_sw0.c`, `ctl_mode`).
    pub path: String,
    /// Width in bits.
    pub width: usize,
    /// Display.
    pub show: Show,
}

impl Trace {
    /// A trace of `path`, `width` bits, in hex.
    pub fn new(path: impl Into<String>, width: usize) -> Self {
        Trace {
            path: path.into(),
            width,
            show: Show::Plain,
        }
    }

    /// Shown by name through filter `k`.
    pub fn named(mut self, k: usize) -> Self {
        self.show = Show::Named(k);
        self
    }
}

/// A named group of traces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// Shown as the group's title.
    pub name: String,
    /// Its signals, in order.
    pub traces: Vec<Trace>,
}

/// A translate filter file: `<decimal value> <name>` per line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// File name (written beside the `.gtkw`).
    pub file: String,
    /// Contents.
    pub text: String,
}

fn filter(file: &str, names: &[&str]) -> Filter {
    let mut text = String::from("# GTKWave translate filter written by lcanet\n");
    for (code, name) in names.iter().enumerate() {
        let _ = writeln!(text, "{code} {name}");
    }
    Filter {
        file: file.to_string(),
        text,
    }
}

/// A save file and its filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GtkwFiles {
    /// The top module (first level below `TOP`).
    pub top: String,
    /// The groups.
    pub groups: Vec<Group>,
    /// Filter `k` is `filters[k - 1]`.
    pub filters: Vec<Filter>,
}

impl GtkwFiles {
    /// The save file's text; filters are referenced as `filter_dir/<file>` and the VCD as
    /// `dumpfile` if given.
    pub fn save_text(&self, filter_dir: &Path, dumpfile: Option<&Path>) -> String {
        let mut s = String::new();
        s.push_str("[*] GTKWave save file written by lcanet (one bit-time = 10 time units)\n");
        if let Some(f) = dumpfile {
            let _ = writeln!(s, "[dumpfile] \"{}\"", f.display());
        }
        s.push_str("[timestart] 0\n[sst_expanded] 1\n[signals_width] 300\n");
        for g in &self.groups {
            let _ = writeln!(s, "@800200\n-{}", g.name);
            for t in &g.traces {
                match t.show {
                    Show::Named(k) => {
                        let path = filter_dir.join(&self.filters[k - 1].file);
                        let _ = writeln!(s, "^{k} {}\n@2024", path.display());
                    }
                    Show::Plain if t.width == 1 => s.push_str("@28\n"),
                    Show::Plain => s.push_str("@22\n"),
                }
                let _ = write!(s, "TOP.{}.{}", self.top, t.path);
                if t.width > 1 {
                    let _ = write!(s, "[{}:0]", t.width - 1);
                }
                s.push('\n');
            }
            let _ = writeln!(s, "@1000200\n-{}", g.name);
        }
        s
    }

    /// Writes `<stem>.gtkw` and the filter files into `dir` (filters referenced by absolute
    /// path, so GTKWave can be started anywhere); returns the save file's path.
    pub fn write_to(
        &self,
        dir: &Path,
        stem: &str,
        dumpfile: Option<&Path>,
    ) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(dir)?;
        let abs = std::fs::canonicalize(dir)?;
        for f in &self.filters {
            std::fs::write(abs.join(&f.file), &f.text)?;
        }
        let path = abs.join(format!("{stem}.gtkw"));
        std::fs::write(&path, self.save_text(&abs, dumpfile))?;
        Ok(path)
    }
}

/// The GTKWave files of the network of `spec`.
pub fn network_gtkw(spec: &NetSpec) -> GtkwFiles {
    let net = &spec.net;
    let (n, l, w, m, ab) = (net.n, net.levels(), net.width(), net.msg_bits, net.abin);
    let (d, u) = (spec.topo.d(), spec.topo.u());
    let mut ctl = vec![
        Trace::new("clock", 1),
        Trace::new("reset", 1),
        Trace::new("start", 1),
        Trace::new("phase", 4).named(1),
        Trace::new("ctrl.bt", 10),
        Trace::new("ctrl.lv", 5),
        Trace::new("ctrl.top", 4),
        Trace::new("passes", 16),
        Trace::new("bit_times", 32),
        Trace::new("done", 1),
        Trace::new("error", 1),
    ];
    for &(name, width) in &CTL_SIGNALS {
        let t = Trace::new(name, width);
        ctl.push(if name == "ctl_mode" { t.named(2) } else { t });
    }
    if spec.random() {
        ctl.push(Trace::new("seed16", 16));
    }
    let mut groups = vec![
        Group {
            name: "controller".into(),
            traces: ctl,
        },
        Group {
            name: "PEs (PE p at row p)".into(),
            traces: vec![
                Trace::new("act", n),
                Trace::new("dst", n * ab),
                Trace::new("msg", n * m),
                Trace::new("pe_up", n * w),
                Trace::new(down_links(0), n * w),
                Trace::new("pe_pend", n),
                Trace::new("pe_hot", n * l),
                Trace::new("valid", n),
                Trace::new("rmsg", n * m),
                Trace::new("sent", n),
            ],
        },
    ];
    let pe = super::pe::PeShape::of(spec);
    for p in 0..n.min(MAX_DETAILED) {
        let i = pe_instance(p);
        let mut t = vec![
            Trace::new(format!("{i}.act"), 1),
            Trace::new(format!("{i}.dst"), ab),
            Trace::new(format!("{i}.msg"), m),
        ];
        if pe.conv {
            t.push(Trace::new(format!("{i}.enc"), pe.ab));
        }
        t.extend([
            Trace::new(format!("{i}.lca_level"), pe.hb),
            Trace::new(format!("{i}.sent"), 1),
            Trace::new(format!("{i}.snd"), 1),
            Trace::new(format!("{i}.got"), 1),
            Trace::new(format!("{i}.tx"), pe.tx),
            Trace::new(format!("{i}.rxf"), pe.nf * w),
        ]);
        groups.push(Group {
            name: format!("PE {p} interface"),
            traces: t,
        });
    }
    for level in 0..l {
        let count = spec.topo.switch_count(level);
        let mut t = vec![
            Trace::new(up_links(level), count * u * w),
            Trace::new(down_links(level), count * d * w),
        ];
        // Instances: the first switches one by one; rows: the level's vectors (switch j
        // at row j of each).
        let scopes: Vec<(String, usize)> = match spec.structure {
            Structure::Instances => (0..count.min(MAX_DETAILED))
                .map(|sw| (switch_instance(level, sw), 1))
                .collect(),
            Structure::Rows => vec![(level_instance(level), count)],
        };
        for (i, rows) in scopes {
            for (port, width) in [("a", d * w), ("b", u * w), ("c", d * w), ("d", u * w)] {
                t.push(Trace::new(format!("{i}.{port}"), rows * width));
            }
            for (xp, width) in [
                ("xp_ac", d * d),
                ("xp_ad", d * u),
                ("xp_bc", u * d),
                ("xp_bd", u * u),
            ] {
                t.push(Trace::new(format!("{i}.{xp}"), rows * width));
            }
        }
        groups.push(Group {
            name: format!("level {level} switches"),
            traces: t,
        });
    }
    GtkwFiles {
        top: spec.network_name(),
        groups,
        filters: vec![
            filter("lcan_phase.txt", &PHASES),
            filter("lca_mode.txt", &MODES),
        ],
    }
}
