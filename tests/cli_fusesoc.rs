//! FuseSoC (the pinned 2.4.7 of `scripts/setup`, `.tools/bin/fusesoc`, edalize with the
//! pinned Verilator and Icarus) on what lcanet writes (docs/fusesoc.md): the core of
//! `export-tb network` passes `lint` and `sim` (PASS), and fails `sim` once an expected
//! value of its bench is wrong; a user's core that asks the `lcanet` generator for a
//! network with its bench passes `lint` and `sim`, and a bad parameter fails with the
//! generator's own error. The self-test's `synth` target (Yosys, nextpnr-ice40, icepack
//! through edalize) and its `synth_ecp5` (nextpnr-ecp5, ecppack) are the ignored
//! `selftest_core_synthesizes_for_the_hx8k_breakout_and_the_ulx3s`.

mod common;
use common::{ok, scratch};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned FuseSoC; missing, the tests fail and say how to install it.
fn fusesoc_exe() -> PathBuf {
    let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/bin/fusesoc");
    assert!(
        exe.is_file(),
        "{} is missing: run scripts/setup (it installs FuseSoC 2.4.7)",
        exe.display()
    );
    exe
}

/// `fusesoc --cores-root <roots>… run --build-root <dir>/build --target <target> <core>`,
/// with FuseSoC's configuration and caches inside `dir`; returns (success, everything
/// printed).
fn fusesoc_run(dir: &Path, roots: &[&Path], target: &str, core: &str) -> (bool, String) {
    let mut cmd = Command::new(fusesoc_exe());
    for r in roots {
        cmd.arg("--cores-root").arg(r);
    }
    cmd.args(["run", "--build-root"])
        .arg(dir.join("build"))
        .args(["--target", target, core])
        .current_dir(dir)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("XDG_DATA_HOME", dir.join("data"));
    let out = cmd.output().expect("fusesoc runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// Flips the lowest bit of the expected outputs at bit-time `t` in `dir`'s bench data.
fn corrupt_expectation(dir: &Path, t: usize) {
    let path = dir.join("lcanet_expect.hex");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let line = &mut lines[t];
    let last = line.pop().unwrap();
    let flipped = u8::from_str_radix(&last.to_string(), 16).unwrap() ^ 1;
    line.push_str(&format!("{flipped:x}"));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn an_exported_network_core_passes_lint_and_sim_and_a_wrong_expectation_fails_sim() {
    let dir = scratch("exported");
    let tb = dir.join("tb");
    let out = ok(&[
        "export-tb",
        "network",
        "--topology",
        "cb",
        "--d",
        "2",
        "--u",
        "2",
        "--levels",
        "2",
        "--perm",
        "random",
        "--seed",
        "7",
        "--json",
        "-o",
        tb.to_str().unwrap(),
    ]);
    let summary: serde_json::Value = serde_json::from_str(&out).unwrap();
    let core = summary["core_name"].as_str().unwrap();
    assert_eq!(core, "lcanet:tb:lcan_cb_d2_u2_l2_w1_m8_r1_rr:0.1.0");
    assert!(tb.join("lcan_cb_d2_u2_l2_w1_m8_r1_rr.core").is_file());

    let (passed, log) = fusesoc_run(&dir, &[&tb], "lint", core);
    assert!(passed, "lint failed:\n{log}");
    assert!(
        log.contains("--lint-only") || log.contains("verilator"),
        "{log}"
    );
    let (passed, log) = fusesoc_run(&dir, &[&tb], "sim", core);
    assert!(passed, "sim failed:\n{log}");
    let bit_times = summary["bit_times_recorded"].as_u64().unwrap();
    assert!(
        log.contains(&format!("PASS {bit_times} bit-times")),
        "no PASS in:\n{log}"
    );

    corrupt_expectation(&tb, 40);
    let (passed, log) = fusesoc_run(&dir, &[&tb], "sim", core);
    assert!(!passed, "sim passed with a wrong expected value:\n{log}");
    assert!(log.contains("FAIL bit-time 40 signal"), "{log}");
    assert!(!log.contains("PASS"), "{log}");
}

/// A user's core asking the generator for a T-LCAN(2,1) of 8 PEs with its bench.
fn user_core() -> String {
    String::from(
        "CAPI=2:
name: user:demo:netcheck:1.0
filesets:
  deps:
    depend: [\"lcanet:lcanet:generator\"]
generate:
  net:
    generator: lcanet
    parameters:
      command: export-tb network
      topology: tree
      d: 2
      u: 1
      levels: 3
      message_bits: 4
      perm: random
      seed: 3
targets:
  default:
    filesets: [deps]
    generate: [net]
  lint:
    flow: lint
    flow_options: {tool: verilator, verilator_options: [-Wall]}
    filesets: [deps]
    generate: [net]
    toplevel: lcan_tree_d2_u1_l3_w1_m4_r1_rr
  sim:
    flow: sim
    flow_options: {tool: icarus}
    flags: {lcanet_bench: true}
    filesets: [deps]
    generate: [net]
    toplevel: tb_lcan_tree_d2_u1_l3_w1_m4_r1_rr
",
    )
}

#[test]
fn a_users_core_gets_its_network_from_the_generator_and_bad_parameters_are_named() {
    let dir = scratch("generator");
    let gen = dir.join("gen");
    ok(&["fusesoc", "generator", "-o", gen.to_str().unwrap()]);
    let script = std::fs::read_to_string(gen.join("lcanet-generator")).unwrap();
    assert!(
        script.contains(env!("CARGO_BIN_EXE_lcanet")),
        "the script calls this lcanet: {script}"
    );
    let user = dir.join("user");
    std::fs::create_dir_all(&user).unwrap();
    std::fs::write(user.join("demo.core"), user_core()).unwrap();

    let (passed, log) = fusesoc_run(&dir, &[&gen, &user], "lint", "user:demo:netcheck");
    assert!(passed, "lint failed:\n{log}");
    let (passed, log) = fusesoc_run(&dir, &[&gen, &user], "sim", "user:demo:netcheck");
    assert!(passed, "sim failed:\n{log}");
    assert!(log.contains("PASS "), "no PASS in:\n{log}");

    // Bad parameters: the generator's own error, shown by FuseSoC, which fails.
    for (from, to, says) in [
        (
            "u: 1",
            "u: 3",
            "d = 2 is not a multiple of u = 3 (002 Definition 2",
        ),
        (
            "u: 1",
            "u: 1\n      colour: 3",
            "unexpected argument '--colour'",
        ),
        (
            "u: 1",
            "u: 1\n      out: /tmp/x",
            "parameter `out` is set by the generator",
        ),
    ] {
        std::fs::write(user.join("demo.core"), user_core().replace(from, to)).unwrap();
        let (passed, log) = fusesoc_run(&dir, &[&gen, &user], "lint", "user:demo:netcheck");
        assert!(!passed, "{to}: FuseSoC succeeded:\n{log}");
        assert!(log.contains(says), "{to}: lacks {says:?}:\n{log}");
        assert!(log.contains("Failed to run generator 'net'"), "{log}");
    }
}

#[test]
fn every_generate_command_writes_a_core_whose_lint_target_passes() {
    let dir = scratch("generate");
    for (name, args) in [
        ("switch", vec!["generate", "switch", "--d", "2", "--u", "1"]),
        (
            "min",
            vec!["generate", "min", "--network", "omega", "--m", "2"],
        ),
        ("cube", vec!["generate", "hypercube", "--k", "2"]),
    ] {
        let out = dir.join(name);
        let mut args = args.clone();
        args.extend(["-o", out.to_str().unwrap()]);
        let text = ok(&args);
        assert!(text.contains("FuseSoC"), "{name}: {text}");
        let (_, vlnv) = written_core(&out);
        let (passed, log) = fusesoc_run(&dir, &[&out], "lint", &vlnv);
        assert!(passed, "{name}: lint failed:\n{log}");
    }
}

#[test]
#[ignore = "Yosys and nextpnr for iCE40 and ECP5 on a self-test top (minutes); run with -- --ignored"]
fn selftest_core_synthesizes_for_the_hx8k_breakout_and_the_ulx3s() {
    let dir = scratch("synth");
    let out = dir.join("st");
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
        "2",
        "--message-bits",
        "4",
        "--arbiter",
        "fixed",
        "-o",
        out.to_str().unwrap(),
    ]);
    let (text, vlnv) = written_core(&out);
    assert!(text.contains("\"selftest-hx8k.pcf\""), "{text}");
    let (passed, log) = fusesoc_run(&dir, &[&out], "synth", &vlnv);
    assert!(passed, "synth failed:\n{log}");
    // edalize names the bitstream after the core (`:` as `_`); pins from the core's PCF.
    let bin_name = format!("{}.bin", vlnv.replace(':', "_"));
    let bin = walk(&dir.join("build"))
        .into_iter()
        .find(|p| p.file_name().is_some_and(|f| f == bin_name.as_str()));
    assert!(log.contains("constrained 'led_pass'"), "{log}");
    assert!(
        bin.is_some_and(|b| b.metadata().unwrap().len() > 100_000),
        "no bitstream:\n{log}"
    );

    // ECP5: the ULX3S (LFE5U-85F), through edalize's trellis flow (`scripts/setup --ecp5`).
    assert!(text.contains("\"selftest-ulx3s.lpf\""), "{text}");
    let (passed, log) = fusesoc_run(&dir, &[&out], "synth_ecp5", &vlnv);
    assert!(passed, "synth_ecp5 failed:\n{log}");
    let bit_name = format!("{}.bit", vlnv.replace(':', "_"));
    let bit = walk(&dir.join("build"))
        .into_iter()
        .find(|p| p.file_name().is_some_and(|f| f == bit_name.as_str()));
    assert!(
        bit.is_some_and(|b| b.metadata().unwrap().len() > 100_000),
        "no ECP5 bitstream:\n{log}"
    );
}

/// The one `.core` file in `dir`: its text and its VLNV (`name:`).
fn written_core(dir: &Path) -> (String, String) {
    let file = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "core"))
        .unwrap_or_else(|| panic!("no .core written in {}", dir.display()));
    let text = std::fs::read_to_string(&file).unwrap();
    let vlnv = text
        .lines()
        .find_map(|l| l.strip_prefix("name: "))
        .expect("a name: line")
        .trim_matches('"')
        .to_string();
    (text, vlnv)
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            files.extend(walk(&p));
        } else {
            files.push(p);
        }
    }
    files
}
