//! GTKWave save files (`.gtkw`) and the translate filter files they reference, for every
//! system: named groups of traces, each trace one vector of the VCD (never single bits of a
//! quantity), phase and mode codes shown by name.
//!
//! Signal paths are the VCD's (Verilator's): `TOP.<top>.<instance>.<signal>`, vectors
//! written `name[msb:lsb]`. Groups use GTKWave's flags (`@800200` opens a group, `@1000200`
//! closes it); `@22` shows a vector in hex, `@28` a bit or a vector in binary (masks,
//! one-hot rows, crosspoints), `@2024` a vector in decimal through translate filter `^k`,
//! a file of `<code> <name>` lines.
//!
//! Every save file opens on a [`View`]: the whole run, or its first pass (or first
//! [`LONG_RUN`] bit-times) when the run is long, zoomed to fill the wave pane of the window
//! size it sets, with the primary marker and named marker A at the first mismatch if there
//! is one. It names itself (`[savefile]`) and its filters by absolute path: GTKWave
//! re-anchors both relative to where the save file is when opened, so a directory moved
//! as a whole keeps its phase and mode names.
//!
//! [`Scope`] builds traces whose widths are read off the elaborated [`Module`] itself, so a
//! save file cannot drift from the RTL it describes. The systems' save files:
//! `lca::gtkw` (one switch), `lca_net::gtkw` (a network), `hypercube::gtkw`, `min::gtkw`.

use crate::netlist::{Design, Module};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// At most this many instances of a kind (PE interfaces, switches of a level or stage,
/// nodes) get traces of their own; the system-wide vectors show all of them.
pub const MAX_DETAILED: usize = 8;

/// How a trace is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    /// Hex (one bit: binary).
    Hex,
    /// Binary: masks, one-hot rows, crosspoints.
    Binary,
    /// Decimal through translate filter file `k` (1-based: `filters[k - 1]`).
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
            show: Show::Hex,
        }
    }

    /// Shown by name through filter `k` (1-based).
    pub fn named(mut self, k: usize) -> Self {
        self.show = Show::Named(k);
        self
    }

    /// Shown in binary.
    pub fn binary(mut self) -> Self {
        self.show = Show::Binary;
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

impl Group {
    /// A group called `name`.
    pub fn new(name: impl Into<String>, traces: Vec<Trace>) -> Self {
        Group {
            name: name.into(),
            traces,
        }
    }
}

/// A translate filter file: `<decimal value> <name>` per line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// File name (written beside the `.gtkw`).
    pub file: String,
    /// Contents.
    pub text: String,
}

/// A filter naming codes `0, 1, 2, ..` by `names`.
pub fn filter(file: &str, names: &[&str]) -> Filter {
    filter_codes(
        file,
        names
            .iter()
            .enumerate()
            .map(|(code, &name)| (code as u64, name)),
    )
}

/// A filter naming the given codes.
pub fn filter_codes<'a>(file: &str, codes: impl IntoIterator<Item = (u64, &'a str)>) -> Filter {
    let mut text = String::from("# GTKWave translate filter written by lcanet\n");
    for (code, name) in codes {
        let _ = writeln!(text, "{code} {name}");
    }
    Filter {
        file: file.to_string(),
        text,
    }
}

/// Time units per bit-time in every VCD (the bridge's clock period, 1 ns units).
pub const TIME_UNITS_PER_BIT_TIME: u64 = 10;

/// A run longer than this many bit-times opens on its first pass (or first this many
/// bit-times): at the window's width one bit-time is then still about a pixel wide.
pub const LONG_RUN: u64 = 1_000;

/// Width of the wave pane, in pixels, in the window the save file sets (`[size]` less
/// the hierarchy and signal panes).
const WAVE_PIXELS: f64 = 760.0;

/// What a save file opens on, in bit-times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    /// The last bit-time shown (from bit-time 0).
    pub end: u64,
    /// The first mismatch, marked (primary marker and named marker A).
    pub mismatch: Option<u64>,
}

impl View {
    /// A run of `bit_times`: all of it when it is at most [`LONG_RUN`] bit-times, else
    /// its first pass (`first_pass`, the bit-time at which it ends) or, without passes,
    /// its first [`LONG_RUN`] bit-times.
    pub fn run(bit_times: u64, first_pass: Option<u64>) -> Self {
        let end = if bit_times <= LONG_RUN {
            bit_times
        } else {
            first_pass.unwrap_or(LONG_RUN).min(bit_times)
        };
        View {
            end: end.max(1),
            mismatch: None,
        }
    }

    /// Marks the first mismatch at `bit_time`, widening the view to show it.
    pub fn with_mismatch(mut self, bit_time: u64) -> Self {
        self.mismatch = Some(bit_time);
        self.end = self.end.max(bit_time + 1);
        self
    }

    /// GTKWave's zoom for `end` bit-times in [`WAVE_PIXELS`]: a frame of 200 pixels spans
    /// `2^-zoom` time units (`calczoom` in GTKWave's `currenttime.c`).
    fn zoom(&self) -> f64 {
        let units = (self.end * TIME_UNITS_PER_BIT_TIME) as f64;
        -(200.0 * units / WAVE_PIXELS).log2()
    }

    /// The `[markername]` and `*zoom marker A…` lines.
    fn lines(&self) -> String {
        let mut s = String::new();
        let marker = self
            .mismatch
            .map_or(-1, |t| (t * TIME_UNITS_PER_BIT_TIME) as i64);
        if self.mismatch.is_some() {
            s.push_str("[markername] Afirst mismatch\n");
        }
        let _ = write!(s, "*{:.6} {marker} {marker}", self.zoom());
        for _ in 1..26 {
            s.push_str(" -1");
        }
        s.push('\n');
        s
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
    /// What it opens on (`None`: GTKWave's default zoom, the first few nanoseconds).
    pub view: Option<View>,
}

impl GtkwFiles {
    /// Opens on `view`.
    pub fn viewing(mut self, view: View) -> Self {
        self.view = Some(view);
        self
    }

    /// The save file's text for a save file in `dir` (named `[savefile]` as `dir/<stem>.gtkw`);
    /// filters are referenced as `dir/<file>` and the VCD as `dumpfile` if given.
    pub fn save_text(&self, dir: &Path, stem: &str, dumpfile: Option<&Path>) -> String {
        let mut s = String::new();
        s.push_str("[*] GTKWave save file written by lcanet (one bit-time = 10 time units)\n");
        if let Some(f) = dumpfile {
            let _ = writeln!(s, "[dumpfile] \"{}\"", f.display());
        }
        let _ = writeln!(
            s,
            "[savefile] \"{}\"",
            dir.join(format!("{stem}.gtkw")).display()
        );
        s.push_str("[timestart] 0\n[size] 1400 800\n[pos] -1 -1\n");
        if let Some(v) = &self.view {
            s.push_str(&v.lines());
        }
        s.push_str("[sst_width] 220\n[sst_expanded] 1\n[signals_width] 300\n");
        for g in &self.groups {
            let _ = writeln!(s, "@800200\n-{}", g.name);
            for t in &g.traces {
                match t.show {
                    Show::Named(k) => {
                        let path = dir.join(&self.filters[k - 1].file);
                        let _ = writeln!(s, "^{k} {}\n@2024", path.display());
                    }
                    Show::Hex if t.width > 1 => s.push_str("@22\n"),
                    Show::Hex | Show::Binary => s.push_str("@28\n"),
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

    /// Checks every trace against `design`: its path must name instances from the top
    /// down to a port, wire or register of the trace's width, and a named trace must use
    /// a filter that exists. Returns the problems found (empty: the save file fits).
    pub fn mismatches(&self, design: &Design) -> Vec<String> {
        let mut problems = Vec::new();
        let Some(top) = design.module(&self.top) else {
            return vec![format!("the design has no module `{}`", self.top)];
        };
        'traces: for t in self.groups.iter().flat_map(|g| &g.traces) {
            if let Show::Named(k) = t.show {
                if k == 0 || k > self.filters.len() {
                    problems.push(format!("{}: filter {k} does not exist", t.path));
                }
            }
            let mut scope = Scope::new(top, "");
            let mut parts: Vec<&str> = t.path.split('.').collect();
            let signal = parts.pop().unwrap_or_default();
            for inst in parts {
                match scope.within(design, inst) {
                    Ok(s) => scope = s,
                    Err(_) => {
                        problems.push(format!("{}: no instance `{inst}`", t.path));
                        continue 'traces;
                    }
                }
            }
            match scope.width(signal) {
                Some(w) if w == t.width => {}
                Some(w) => problems.push(format!("{}: {} bits, the RTL has {w}", t.path, t.width)),
                None => problems.push(format!(
                    "{}: no signal `{signal}` in `{}`",
                    t.path, scope.module.name
                )),
            }
        }
        problems
    }

    /// Writes `<stem>.gtkw` and the filter files into `dir` (created if missing; filters
    /// referenced by absolute path, so GTKWave can be started anywhere, and re-anchored by
    /// GTKWave through `[savefile]` when the directory moves); returns the save file's path. Each file goes to a temporary name first and is renamed once all were
    /// written, so a failure leaves no half-written file.
    pub fn write_to(
        &self,
        dir: &Path,
        stem: &str,
        dumpfile: Option<&Path>,
    ) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(dir)?;
        let abs = std::fs::canonicalize(dir)?;
        let path = abs.join(format!("{stem}.gtkw"));
        let mut files: Vec<(PathBuf, &[u8])> = self
            .filters
            .iter()
            .map(|f| (abs.join(&f.file), f.text.as_bytes()))
            .collect();
        let save = self.save_text(&abs, stem, dumpfile);
        files.push((path.clone(), save.as_bytes()));
        let tmp = |p: &Path| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            p.with_file_name(format!(".{name}.lcanet-tmp"))
        };
        let written = files
            .iter()
            .try_for_each(|(p, text)| std::fs::write(tmp(p), text));
        let renamed = written.and_then(|()| {
            files
                .iter()
                .try_for_each(|(p, _)| std::fs::rename(tmp(p), p))
        });
        if let Err(e) = renamed {
            for (p, _) in &files {
                let _ = std::fs::remove_file(tmp(p));
            }
            return Err(e);
        }
        Ok(path)
    }

    /// Writes the save file beside `vcd` (`run.vcd` → `run.gtkw`, filters in the same
    /// directory), naming `vcd` (made absolute) as its dump file.
    pub fn write_beside(&self, vcd: &Path) -> std::io::Result<PathBuf> {
        let vcd = std::path::absolute(vcd)?;
        let dir = vcd.parent().unwrap_or(Path::new("/"));
        let stem = vcd
            .file_stem()
            .map_or_else(|| "waves".into(), |s| s.to_string_lossy());
        self.write_to(dir, &stem, Some(&vcd))
    }
}

/// A trace names a signal (or an instance) its module does not have: a bug in a save
/// file's description (the RTL was renamed, or the list was written against another
/// variant).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("internal error (a bug in lcanet): the GTKWave save file shows `{signal}`, which module `{module}` does not have")]
pub struct MissingSignal {
    /// The module.
    pub module: String,
    /// The signal or instance asked for.
    pub signal: String,
}

/// The signals of one instance (or of the top), with the widths its module declares.
#[derive(Debug, Clone)]
pub struct Scope<'a> {
    module: &'a Module,
    prefix: String,
}

impl<'a> Scope<'a> {
    /// The instance at `prefix` below the top (`""` for the top itself, `ctrl`, `node3`)
    /// of `module`.
    pub fn new(module: &'a Module, prefix: impl Into<String>) -> Self {
        Scope {
            module,
            prefix: prefix.into(),
        }
    }

    /// The top of `design`.
    pub fn top(design: &'a Design) -> Result<Self, MissingSignal> {
        let module = design.module(design.top()).ok_or_else(|| MissingSignal {
            module: design.top().to_string(),
            signal: "(its definition)".into(),
        })?;
        Ok(Scope::new(module, ""))
    }

    /// The instance `name` of this scope's module, its module found in `design`.
    pub fn within(&self, design: &'a Design, name: &str) -> Result<Self, MissingSignal> {
        let module = self
            .module
            .body
            .instances()
            .find(|i| i.name == name)
            .and_then(|i| design.module(&i.module))
            .ok_or_else(|| MissingSignal {
                module: self.module.name.clone(),
                signal: name.to_string(),
            })?;
        Ok(Scope::new(module, self.path(name)))
    }

    fn path(&self, name: &str) -> String {
        if self.prefix.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.prefix)
        }
    }

    /// The width of `name`, a port, wire or register of the module (`None` if it has none).
    pub fn width(&self, name: &str) -> Option<usize> {
        let m = self.module;
        m.port(name).map(|p| p.width).or_else(|| {
            m.body
                .regs()
                .find(|r| r.name == name)
                .map(|r| r.width)
                .or_else(|| {
                    m.body
                        .wires()
                        .find(|(w, _)| w.name == name)
                        .map(|(w, _)| w.width)
                })
        })
    }

    /// Whether the module has `name`.
    pub fn has(&self, name: &str) -> bool {
        self.width(name).is_some()
    }

    /// The trace of `name` (hex), an error if the module has no such signal.
    pub fn trace(&self, name: &str) -> Result<Trace, MissingSignal> {
        let width = self.width(name).ok_or_else(|| MissingSignal {
            module: self.module.name.clone(),
            signal: name.to_string(),
        })?;
        Ok(Trace::new(self.path(name), width))
    }

    /// The traces of `names`, in order, in hex.
    pub fn traces(&self, names: &[&str]) -> Result<Vec<Trace>, MissingSignal> {
        names.iter().map(|n| self.trace(n)).collect()
    }

    /// The traces of `names`, in order, in binary.
    pub fn binary(&self, names: &[&str]) -> Result<Vec<Trace>, MissingSignal> {
        names.iter().map(|n| Ok(self.trace(n)?.binary())).collect()
    }

    /// The traces of those of `names` the module has (signals that exist only in some
    /// variants of a block, such as an arbiter policy's registers).
    pub fn present(&self, names: &[&str]) -> Vec<Trace> {
        names.iter().filter_map(|n| self.trace(n).ok()).collect()
    }
}

#[cfg(test)]
mod tests;
