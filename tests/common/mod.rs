//! Helpers shared by the CLI tests: running the binary (`lcanet`, `ok`, `json`, `rejects`),
//! a scratch directory per test, the signals a VCD declares, and the check that a GTKWave
//! save file fits its VCD (every trace a signal of the VCD, path and range; every translate
//! filter it references on disk).

// Each test binary uses some of these.
#![allow(dead_code)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the `lcanet` binary with `args`.
pub fn lcanet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lcanet"))
        .args(args)
        .output()
        .expect("lcanet runs")
}

/// Runs `args`, expects success, returns stdout.
pub fn ok(args: &[&str]) -> String {
    let out = lcanet(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `args`, expects success and one JSON document on stdout.
pub fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"))
}

/// Runs `args`, expects exit code 1, stderr containing every one of `needles`, and
/// nothing on stdout.
pub fn rejects(args: &[&str], needles: &[&str]) {
    let out = lcanet(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: stderr lacks {n:?}: {err}");
    }
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
}

/// An empty directory `<test binary>_<name>` under Cargo's scratch directory.
pub fn scratch(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let stem = exe.file_stem().expect("file name").to_string_lossy();
    let binary = stem.split('-').next().expect("binary name");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{binary}_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every variable the VCD at `vcd` declares, as GTKWave names it: `TOP.<scope>.<name>`,
/// vectors with their range (`TOP.top.u0.xp[15:0]`).
pub fn vcd_signals(vcd: &Path) -> HashSet<String> {
    let text = std::fs::read_to_string(vcd)
        .unwrap_or_else(|e| panic!("reading the VCD {}: {e}", vcd.display()));
    let header = text.split("$enddefinitions").next().expect("a VCD header");
    let (mut scope, mut vars) = (Vec::new(), HashSet::new());
    for line in header.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        match t.first() {
            Some(&"$scope") => scope.push(t[2].to_string()),
            Some(&"$upscope") => {
                scope.pop();
            }
            Some(&"$var") => {
                let range = if t.len() > 6 && t[5].starts_with('[') {
                    t[5]
                } else {
                    ""
                };
                vars.insert(format!("{}.{}{range}", scope.join("."), t[4]));
            }
            _ => {}
        }
    }
    vars
}

/// The traces of a save file (its `TOP.…` lines).
pub fn gtkw_traces(gtkw: &str) -> Vec<&str> {
    gtkw.lines().filter(|l| l.starts_with("TOP.")).collect()
}

/// The translate filter files a save file references (`^k <path>` lines).
pub fn gtkw_filters(gtkw: &str) -> Vec<PathBuf> {
    gtkw.lines()
        .filter(|l| l.starts_with('^'))
        .map(|l| PathBuf::from(l.split_once(' ').expect("^k <path>").1))
        .collect()
}

/// Checks that the save file at `gtkw` fits the VCD at `vcd`: every trace is a signal of
/// the VCD (path and range), there are at least `min_traces`, and every filter it
/// references exists. Returns the save file's text.
pub fn check_gtkw_fits_vcd(gtkw: &Path, vcd: &Path, min_traces: usize) -> String {
    let text = std::fs::read_to_string(gtkw)
        .unwrap_or_else(|e| panic!("reading the save file {}: {e}", gtkw.display()));
    let vars = vcd_signals(vcd);
    let traces = gtkw_traces(&text);
    assert!(
        traces.len() >= min_traces,
        "{} traces, expected at least {min_traces}:\n{text}",
        traces.len()
    );
    for t in traces {
        assert!(vars.contains(t), "{t} is not a signal of {}", vcd.display());
    }
    for f in gtkw_filters(&text) {
        assert!(f.is_file(), "filter {} is missing", f.display());
    }
    check_view(&text, gtkw, vcd);
    text
}

/// Checks that the save file names itself (`[savefile]`, GTKWave's anchor for moved
/// directories) and opens on the run: its zoom line (`*<zoom> <marker> …`, a 200-pixel
/// frame spanning `2^-zoom` time units, 760 pixels of wave pane) shows the whole VCD when
/// the run has at most 1,000 bit-times (10,000 time units), else at least 10 bit-times of
/// it and no more than the run.
pub fn check_view(text: &str, gtkw: &Path, vcd: &Path) {
    let own = std::fs::canonicalize(gtkw).unwrap();
    assert!(
        text.contains(&format!("[savefile] \"{}\"", own.display())),
        "no [savefile] naming {}:\n{text}",
        own.display()
    );
    let zoom: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix('*'))
        .unwrap_or_else(|| panic!("no zoom line in\n{text}"))
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let shown = 2f64.powf(-zoom) * 760.0 / 200.0;
    let vcd_text = std::fs::read_to_string(vcd).unwrap();
    let last: f64 = vcd_text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix('#'))
        .and_then(|t| t.trim().parse().ok())
        .expect("a timestamp in the VCD");
    assert!(
        shown <= last + 20.0,
        "shows {shown} time units of a {last}-unit run"
    );
    if last <= 10_000.0 {
        assert!(
            shown >= last - 20.0,
            "shows {shown} time units of a {last}-unit run"
        );
    } else {
        assert!(
            shown >= 100.0,
            "shows {shown} time units of a {last}-unit run"
        );
    }
}

/// Checks that filter `file` beside `gtkw` exists, is referenced by the save file's
/// translated trace `trace` (the trace's full `TOP.…` line) and names `code` as `name`.
pub fn check_named(gtkw: &Path, trace: &str, file: &str, code: u64, name: &str) {
    let text = std::fs::read_to_string(gtkw).unwrap();
    // Filters are referenced by absolute path, symbolic links resolved.
    let filter = std::fs::canonicalize(gtkw).unwrap().with_file_name(file);
    let want = format!("{}\n@2024\n{trace}\n", filter.display());
    assert!(text.contains(&want), "{want:?} not in\n{text}");
    let codes = std::fs::read_to_string(&filter)
        .unwrap_or_else(|e| panic!("reading the filter {}: {e}", filter.display()));
    assert!(
        codes.lines().any(|l| l == format!("{code} {name}")),
        "{code} {name} not in {}:\n{codes}",
        filter.display()
    );
}
