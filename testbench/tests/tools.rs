//! Tool runners: Verilator lint, Yosys statistics, Icarus compile, and the self-checking
//! test bench writer run in Icarus.

mod common;

use common::data;
use lcanet_testbench::artifact_dir;
use lcanet_testbench::bridge::{build_model, Design, ModelOptions};
use lcanet_testbench::tbwriter::{run_testbench, write_testbench, Recording};
use lcanet_testbench::tools::lint::{lint, LintError, Severity};
use lcanet_testbench::tools::{icarus, yosys, ToolError};

#[test]
fn lint_flags_an_unused_signal_and_passes_clean_designs() {
    lint(&[data("counter.v")], "counter").unwrap();
    lint(&[data("widths.v")], "widths").unwrap();
    lint(&[data("stage.v"), data("hier.v")], "hier").unwrap();
    match lint(&[data("unused.v")], "unused") {
        Err(LintError::Findings {
            diagnostics, top, ..
        }) => {
            assert_eq!(top, "unused");
            assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
            let d = &diagnostics[0];
            assert_eq!(
                (d.severity, d.code.as_str()),
                (Severity::Warning, "UNUSEDSIGNAL")
            );
            assert_eq!(d.line, Some(7));
            assert!(d.message.contains("'spare'"), "{}", d.message);
            assert!(d.file.as_ref().unwrap().ends_with("unused.v"));
        }
        other => panic!("expected an UNUSEDSIGNAL finding, got {other:?}"),
    }
}

#[test]
fn yosys_counts_ice40_luts_and_flip_flops() {
    let s = yosys::synth_ice40(&[data("counter.v")], "counter").unwrap();
    assert_eq!(
        s.ffs, 8,
        "an 8-bit counter has 8 flip-flops: {:?}",
        s.cells.by_type
    );
    assert!(
        s.luts > 0 && s.luts <= 24,
        "plausible LUT count for an 8-bit counter: {}",
        s.luts
    );
    assert_eq!(s.cells.cells, s.cells.by_type.values().sum::<u64>());
    let g = yosys::synth(&[data("stage.v"), data("hier.v")], "hier").unwrap();
    assert!(g.cells > 0);
    assert_eq!(
        g.by_type
            .iter()
            .filter(|(k, _)| k.contains("DFF"))
            .map(|(_, v)| v)
            .sum::<u64>(),
        2 * 4,
        "two stages of 4 register bits (the unread `total` is removed): {:?}",
        g.by_type
    );
    let err = yosys::synth(&[data("counter.v")], "no_such_top").unwrap_err();
    assert!(
        matches!(err, ToolError::Failed { tool: "yosys", .. }),
        "{err}"
    );
}

#[test]
fn icarus_fails_on_warnings() {
    let dir = artifact_dir!("icarus_warnings").unwrap();
    icarus::compile(&[data("counter.v")], "counter", &dir.file("c.vvp")).unwrap();
    let err = icarus::compile(&[data("implicit.v")], "implicit", &dir.file("i.vvp")).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("iverilog failed") && msg.contains("warnings are failures"),
        "{msg}"
    );
    assert!(msg.contains("implicit.v"), "{msg}");
}

/// Records a counter run driven through the bridge, with expectations from a Rust model.
#[test]
fn a_simulation_that_never_ends_is_killed_at_its_time_limit() {
    let dir = artifact_dir!("icarus_spin").unwrap();
    let compiled = icarus::compile(&[data("spin.v")], "spin", &dir.file("s.vvp")).unwrap();
    let t0 = std::time::Instant::now();
    let err =
        icarus::run_limited(&compiled, dir.path(), std::time::Duration::from_secs(2)).unwrap_err();
    assert!(
        matches!(err, ToolError::TimedOut { seconds: 2, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("LCANET_VVP_TIMEOUT"), "{err}");
    assert!(t0.elapsed() < std::time::Duration::from_secs(60));
    // A simulation that ends is unaffected by the limit.
    let ok = icarus::compile(&[data("counter.v")], "counter", &dir.file("c.vvp")).unwrap();
    icarus::run_limited(&ok, dir.path(), std::time::Duration::from_secs(60)).unwrap();
}

fn counter_recording(bit_times: u32) -> Recording {
    let (mut m, _) = build_model(
        &Design::new([data("counter.v")], "counter"),
        &ModelOptions::default(),
        None,
    )
    .unwrap();
    let mut rec = Recording::for_model(&m, Some("clk")).unwrap();
    let names: Vec<&str> = rec.inputs().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["rst", "en"]);
    let (clk, rst, en, count) = (
        m.input("clk").unwrap(),
        m.input("rst").unwrap(),
        m.input("en").unwrap(),
        m.port("count").unwrap(),
    );
    let mut golden: u8 = 0;
    for bt in 0..bit_times {
        let (r, e) = (bt < 2 || bt == 90, bt % 5 != 2);
        m.set(rst, u64::from(r));
        m.set(en, u64::from(e));
        m.tick(clk);
        golden = if r {
            0
        } else {
            golden.wrapping_add(u8::from(e))
        };
        assert_eq!(m.get(count), u64::from(golden));
        // Don't care on the first bit-time (to exercise the compare flags).
        let expected = if bt == 0 {
            None
        } else {
            Some(u64::from(golden))
        };
        rec.push(&[u64::from(r), u64::from(e)], &[expected])
            .unwrap();
    }
    rec
}

#[test]
fn recorded_counter_run_passes_in_icarus_and_a_corruption_fails() {
    let rec = counter_recording(300);
    let dir = artifact_dir!("tb_counter_pass").unwrap();
    let tb = write_testbench(&rec, dir.path(), &[data("counter.v")]).unwrap();
    let out = run_testbench(&tb).unwrap();
    assert!(out.passed(), "{}", out.stdout);
    assert!(out.stdout.contains("PASS 300 bit-times"), "{}", out.stdout);

    let mut bad = rec.clone();
    let (good, _) = rec.expected_value(157, 0);
    bad.set_expected(157, 0, &[good[0] ^ 0x4]).unwrap();
    let dir = artifact_dir!("tb_counter_fail").unwrap();
    let tb = write_testbench(&bad, dir.path(), &[data("counter.v")]).unwrap();
    let out = run_testbench(&tb).unwrap();
    let f = out.failure.expect("the corrupted expectation must fail");
    assert_eq!(f.bit_time, 157);
    assert_eq!(f.signal, "counter.count");
    assert_eq!(u32::from_str_radix(&f.expected, 16).unwrap(), good[0] ^ 0x4);
    assert_eq!(u32::from_str_radix(&f.got, 16).unwrap(), good[0]);
    assert!(out.stdout.contains(&format!(
        "FAIL bit-time 157 signal counter.count expected {} got {}",
        f.expected, f.got
    )));

    // A design with a `timescale: the bench follows it (else iverilog -Wall warns).
    let dir = artifact_dir!("tb_counter_timescale").unwrap();
    let timed = dir.file("counter.v");
    let src = std::fs::read_to_string(data("counter.v")).unwrap();
    std::fs::write(&timed, format!("`timescale 1ns / 1ps\n{src}")).unwrap();
    let tb = write_testbench(&rec, &dir.file("tb"), &[timed]).unwrap();
    let out = run_testbench(&tb).unwrap();
    assert!(out.passed(), "{}", out.stdout);
    let text = std::fs::read_to_string(&tb.testbench).unwrap();
    assert!(text.starts_with("`timescale 1ns / 1ps\n"));
}

#[test]
fn wide_combinational_recording_passes_in_icarus() {
    let opts = ModelOptions::default();
    let (mut m, _) = build_model(&Design::new([data("widths.v")], "widths"), &opts, None).unwrap();
    let mut rec = Recording::for_model(&m, None).unwrap();
    let ins: Vec<_> = rec
        .inputs()
        .iter()
        .map(|p| m.input(&p.name).unwrap())
        .collect();
    let outs: Vec<_> = rec
        .outputs()
        .iter()
        .map(|p| m.port(&p.name).unwrap())
        .collect();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as u32
    };
    for _ in 0..50 {
        let values: Vec<Vec<u32>> = rec
            .inputs()
            .iter()
            .map(|p| (0..p.words()).map(|_| next()).collect())
            .collect();
        for (id, v) in ins.iter().zip(&values) {
            m.set_words(*id, v).unwrap();
        }
        m.step();
        // Expected outputs read from the RTL: this checks the writer's packing of every
        // width against Icarus, not the design.
        let got: Vec<Vec<u32>> = rec
            .outputs()
            .iter()
            .zip(&outs)
            .map(|(p, id)| {
                let mut w = vec![0u32; p.words()];
                m.get_words(*id, &mut w).unwrap();
                w
            })
            .collect();
        let masked: Vec<Vec<u32>> = rec
            .inputs()
            .iter()
            .zip(&values)
            .map(|(p, v)| mask(v, p.width))
            .collect();
        let ins_ref: Vec<&[u32]> = masked.iter().map(Vec::as_slice).collect();
        let outs_ref: Vec<Option<&[u32]>> = got.iter().map(|v| Some(v.as_slice())).collect();
        rec.push_words(&ins_ref, &outs_ref).unwrap();
    }
    let dir = artifact_dir!("tb_widths").unwrap();
    let tb = write_testbench(&rec, dir.path(), &[data("widths.v")]).unwrap();
    let out = run_testbench(&tb).unwrap();
    assert!(out.passed(), "{}", out.stdout);
}

fn mask(v: &[u32], width: u32) -> Vec<u32> {
    let mut v = v.to_vec();
    if !width.is_multiple_of(32) {
        if let Some(last) = v.last_mut() {
            *last &= (1u32 << (width % 32)) - 1;
        }
    }
    v
}

/// Yosys 0.23 leaks its text hierarchy listing into `stat -json` for designs more than two
/// levels deep (captured from an emitted LCA switch); the parser must still read the
/// `design` totals, and the raw text must indeed be invalid JSON (so the test can fail).
#[test]
fn yosys_stat_json_with_leaked_hierarchy_lines_parses() {
    let raw = std::fs::read_to_string(data("yosys/stat_hierarchy_leak_0_23.json")).unwrap();
    assert!(serde_json::from_str::<serde_json::Value>(&raw).is_err());
    let stats = yosys::parse_stat_json(&raw).unwrap();
    assert_eq!(stats.wires, 2474);
    assert_eq!(stats.wire_bits, 2534);
    assert!(stats.cells > 0);
    assert_eq!(stats.cells, stats.by_type.values().sum::<u64>());
}

/// Generic `synth` on a three-level hierarchy (the emitted form of every lcanet block)
/// returns flattened cell totals.
#[test]
fn yosys_generic_synth_of_a_deep_hierarchy() {
    let dir = artifact_dir!("yosys_deep").unwrap();
    let files = [dir.file("deep.v")];
    std::fs::write(
        &files[0],
        "module l2(input wire clock, input wire a, output reg q);\n  always @(posedge clock) q <= ~a;\nendmodule\n\
         module l1(input wire clock, input wire a, output wire q);\n  wire m;\n  l2 x0(.clock(clock), .a(a), .q(m));\n  l2 x1(.clock(clock), .a(m), .q(q));\nendmodule\n\
         module deep(input wire clock, input wire a, output wire q);\n  wire m;\n  l1 y0(.clock(clock), .a(a), .q(m));\n  l1 y1(.clock(clock), .a(m), .q(q));\nendmodule\n",
    )
    .unwrap();
    let stats = yosys::synth(&files, "deep").unwrap();
    assert_eq!(stats.by_type.get("$_DFF_P_"), Some(&4));
    // Every flip-flop cell type counts, no gate does (`$_NOT_` here).
    assert_eq!(stats.flip_flops(), 4);
    let mut mixed = stats.clone();
    mixed.by_type.insert("$_SDFFE_PP0P_".into(), 3);
    mixed.by_type.insert("$_AND_".into(), 5);
    assert_eq!(mixed.flip_flops(), 7);
}
