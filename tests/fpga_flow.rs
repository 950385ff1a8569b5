//! `lcanet fpga` end to end: a bare switch through the IO ring (a bitstream and a summary
//! with plausible numbers); a self-test's placed netlist simulated through the command
//! that generated it (`--check-routed`); and the refusals: bad arguments, more IOs than
//! the package has bonded pins, a self-test generated for another board's clock, a
//! directory that its recorded command no longer generates. (`testbench/tests/
//! fpga_routed.rs` places the other families and devices; the LCA network on the iCE40
//! is this file's.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join("lcanet-artifacts")
        .join(format!("fpga_flow__{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn lcanet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lcanet"))
        .args(args)
        .output()
        .expect("lcanet runs")
}

fn ok(args: &[&str]) -> Output {
    let out = lcanet(args);
    assert!(
        out.status.success(),
        "lcanet {args:?} failed (run scripts/setup --ecp5 if a tool is missing):\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn refused(args: &[&str], needle: &str) {
    let out = lcanet(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected {needle:?} in\n{err}"
    );
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_switch_in_the_io_ring_gives_a_bitstream_and_a_report() {
    let dir = scratch("ioring");
    let rtl = dir.join("rtl");
    ok(&["generate", "switch", "--d", "2", "--u", "1", "-o", s(&rtl)]);
    let out = dir.join("out");
    ok(&["fpga", s(&rtl), "--device", "hx8k", "-o", s(&out)]);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    // The switch has crosspoint, arbiter and packet registers: far more than the IO ring's
    // three pins could explain, and far less than the device.
    let luts = summary["lut4"].as_u64().unwrap();
    assert!((100..7680).contains(&luts), "lut4 = {luts}");
    assert!(summary["flip_flops"].as_u64().unwrap() > 50, "{summary}");
    assert_eq!(summary["io"], 3);
    assert_eq!(summary["placed_top"], "lcanet_fpga_top");
    assert!(summary["fmax_mhz"].as_f64().unwrap() > 1.0);
    let bin = PathBuf::from(summary["bitstream"].as_str().unwrap());
    assert!(
        std::fs::metadata(bin).unwrap().len() > 1000,
        "bitstream too small"
    );
}

#[test]
fn a_self_tests_placed_netlist_is_checked_through_its_recorded_command() {
    let dir = scratch("routed");
    let rtl = dir.join("st");
    let gen = [
        "generate",
        "selftest",
        "--topology",
        "tree",
        "--d",
        "2",
        "--u",
        "1",
        "--levels",
        "1",
        "--message-bits",
        "2",
        "--report-every",
        "25",
        "--clock-hz",
        "12000000",
        "--baud",
        "3000000",
        "-o",
    ];
    let mut a = gen.to_vec();
    a.push(s(&rtl));
    ok(&a);
    let out = dir.join("out");
    let run = ok(&[
        "fpga",
        s(&rtl),
        "--device",
        "hx8k",
        "--check-routed",
        "100",
        "-o",
        s(&out),
        "--json",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report["board"], "hx8k-breakout");
    assert_eq!(report["io"], 5);
    let bin = PathBuf::from(report["bitstream"].as_str().unwrap());
    assert!(bin.is_file(), "{report}");
    let check = &report["routed_check"];
    assert_eq!(check["failure"], serde_json::Value::Null, "{check}");
    let lines = check["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 4);
    assert!(lines
        .iter()
        .all(|l| l["text"].as_str().unwrap().starts_with("PASS ")));
    assert!(lines[3]["text"]
        .as_str()
        .unwrap()
        .starts_with("PASS 100 perms"));

    // The same directory, edited: its recorded command no longer generates it.
    let top = std::fs::read_dir(&rtl)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .ends_with("_report.v")
        })
        .unwrap();
    let text = std::fs::read_to_string(&top).unwrap();
    std::fs::write(&top, text + "// edited by hand\n").unwrap();
    refused(
        &[
            "fpga",
            s(&rtl),
            "--device",
            "hx8k",
            "--check-routed",
            "50",
            "-o",
            s(&out),
        ],
        "is not what its recorded command",
    );
}

#[test]
fn bad_input_is_refused_with_the_condition() {
    let dir = scratch("bad");
    refused(&["fpga", s(&dir.join("missing"))], "neither a directory");
    refused(
        &["fpga", "--device", "xc7", s(&dir)],
        "unknown device 'xc7'",
    );
    refused(&["fpga", s(&dir)], "exactly one .f file list");
    refused(
        &[
            "fpga",
            "--device",
            "ecp5-85k",
            "--package",
            "tq144",
            s(&dir),
        ],
        "has no package 'tq144'",
    );

    // A bare network's own ports on a package with fewer bonded pins: refused after
    // synthesis, before place and route, naming both counts.
    let net = dir.join("net");
    ok(&[
        "generate",
        "network",
        "--topology",
        "tree",
        "--d",
        "2",
        "--u",
        "1",
        "--levels",
        "2",
        "-o",
        s(&net),
    ]);
    refused(
        &[
            "fpga",
            s(&net),
            "--device",
            "up5k",
            "--wrap",
            "none",
            "-o",
            s(&dir.join("o1")),
        ],
        "more than the 39 bonded user IOs of the iCE40UP5K sg48",
    );
    refused(
        &["fpga", s(&net), "--check-routed", "10"],
        "not a self-test top",
    );
    refused(&["fpga", s(&net), "--board", "ulx3s"], "not one");
    // The iCE40's nextpnr has no static placer: refused before synthesis, nothing written.
    refused(
        &[
            "fpga",
            s(&net),
            "--device",
            "hx8k",
            "--placer",
            "static",
            "-o",
            s(&dir.join("o2")),
        ],
        "nextpnr-ice40 has no static placer",
    );
    assert!(!dir.join("o2").exists());

    // A self-test generated for 12 MHz, placed for the ULX3S (25 MHz): regenerate.
    let st = dir.join("st");
    ok(&[
        "generate",
        "selftest",
        "--topology",
        "tree",
        "--d",
        "2",
        "--u",
        "1",
        "--levels",
        "1",
        "-o",
        s(&st),
    ]);
    refused(
        &["fpga", s(&st), "--device", "ecp5-85k"],
        "--clock-hz 25000000",
    );
    refused(
        &[
            "fpga",
            s(&st),
            "--device",
            "ecp5-85k",
            "--board",
            "icebreaker",
        ],
        "not --device ecp5-85k",
    );
    refused(&["fpga", s(&st), "--wrap", "ioring"], "own five ports");
    refused(&["fpga", s(&st), "--device", "hx1k"], "give --pins");
}
