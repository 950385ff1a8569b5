//! A GTKWave save file (`.gtkw`) that opens a network's VCD with the useful signals grouped:
//! the controller, one PE's interface, and the switches on that PE's upward path.
//!
//! Signal paths are the VCD's (Verilator's): `TOP.<top>.<instance>.<signal>`; vectors are
//! written `name[msb:lsb]`. Groups use GTKWave's group flags (`@800200` opens a group,
//! `@1000200` closes it); `@28` shows a bit in binary, `@22` a vector in hex.

use std::fmt::Write as _;

/// One signal in a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// Hierarchical name below `TOP.<top>` (`lvl0_sw0.c_1`, `ctl_mode`).
    pub path: String,
    /// Width in bits.
    pub width: usize,
}

impl Trace {
    /// A trace of `path`, `width` bits.
    pub fn new(path: impl Into<String>, width: usize) -> Self {
        Trace {
            path: path.into(),
            width,
        }
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

/// The text of a save file for the VCD `dumpfile` (absolute or relative to where GTKWave
/// is started; `None` leaves it to the command line) of a design whose top is `top`.
pub fn save_file(top: &str, dumpfile: Option<&str>, groups: &[Group]) -> String {
    let mut s = String::new();
    s.push_str("[*] GTKWave save file written by lcanet (one bit-time = 10 time units)\n");
    if let Some(f) = dumpfile {
        let _ = writeln!(s, "[dumpfile] \"{f}\"");
    }
    s.push_str("[timestart] 0\n[sst_expanded] 1\n[signals_width] 260\n");
    for g in groups {
        let _ = writeln!(s, "@800200\n-{}", g.name);
        for t in &g.traces {
            let flag = if t.width == 1 { "@28" } else { "@22" };
            let _ = write!(s, "{flag}\nTOP.{top}.{}", t.path);
            if t.width > 1 {
                let _ = write!(s, "[{}:0]", t.width - 1);
            }
            s.push('\n');
        }
        let _ = writeln!(s, "@1000200\n-{}", g.name);
    }
    s
}
