//! `scripts/fpga` end to end on a small emitted design: synthesis, place and route, a
//! bitstream and a summary with plausible numbers; and its refusals of bad input.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = root()
        .join("target")
        .join("lcanet-artifacts")
        .join(format!("fpga_flow__{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn generate_switch(dir: &Path) {
    let status = Command::new(env!("CARGO_BIN_EXE_lcanet"))
        .args(["generate", "switch", "--d", "2", "--u", "1", "-o"])
        .arg(dir)
        .status()
        .unwrap();
    assert!(status.success());
}

fn fpga(args: &[&str]) -> std::process::Output {
    Command::new(root().join("scripts/fpga"))
        .args(args)
        .output()
        .expect("scripts/fpga runs")
}

#[test]
fn ice40_flow_produces_a_bitstream_and_a_report() {
    let dir = scratch("flow");
    let rtl = dir.join("rtl");
    generate_switch(&rtl);
    let out = dir.join("out");
    let run = fpga(&[
        "--device",
        "hx8k",
        "-o",
        out.to_str().unwrap(),
        rtl.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "scripts/fpga failed (run scripts/setup if a tool is missing):\n{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let luts = summary["luts"].as_u64().unwrap();
    let ffs = summary["flip_flops"].as_u64().unwrap();
    // The switch has crosspoint, arbiter and packet registers: far more than the IO ring's
    // three pins could explain, and far less than the device.
    assert!((100..7680).contains(&luts), "luts = {luts}");
    assert!(ffs > 50, "flip-flops = {ffs}");
    assert_eq!(summary["io"]["used"].as_u64(), Some(3));
    assert!(summary["fmax_mhz"].as_f64().unwrap() > 1.0);
    let bin = PathBuf::from(summary["bitstream"].as_str().unwrap());
    assert!(
        std::fs::metadata(&bin).unwrap().len() > 1000,
        "bitstream too small"
    );
}

#[test]
fn ice40_flow_rejects_bad_input_with_a_reason() {
    let dir = scratch("bad");
    let run = fpga(&[dir.join("missing").to_str().unwrap()]);
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("neither a directory"));
    let run = fpga(&["--device", "xc7", dir.to_str().unwrap()]);
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("unknown device 'xc7'"));
    let run = fpga(&[dir.to_str().unwrap()]);
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("exactly one .f file list"));
}
