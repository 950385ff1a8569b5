//! The comparison harness on the two-stage hierarchy: a correct golden model passes with
//! the expected counts; an injected golden-model error is reported with every field and
//! the VCD is kept.

mod common;

use common::{hier_design, u128_words, HierGolden};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::bridge::build_model;
use lcanet_testbench::harness::{Harness, Mismatch, RunInfo};
use rand::{Rng, SeedableRng};

/// Runs `bit_times` of random stimulus from `seed`; `corrupt(bit_time, golden)` may damage the
/// golden model's prediction to simulate a bug.
fn run(
    name: &str,
    seed: u64,
    bit_times: u64,
    corrupt: impl Fn(u64, &mut HierGolden),
) -> Result<lcanet_testbench::harness::Stats, Box<Mismatch>> {
    let dir = artifact_dir!(name).unwrap();
    let vcd = dir.file("wave.vcd");
    let (model, _) = build_model(&hier_design(), &common::hier_observed(), Some(&vcd)).unwrap();
    let info = RunInfo::new(Some(seed))
        .param("design", "hier")
        .param("stages", 2);
    let mut h = Harness::new(model, info);
    let dout = h.watch("dout").unwrap();
    let xp0 = h.watch("hier.lvl0_sw0.xp_sel").unwrap();
    let total1 = h.watch("hier.lvl1_sw0.total").unwrap();
    assert_eq!(h.watched(dout), Some(("hier.dout", 4)));
    assert_eq!(h.watched(total1), Some(("hier.lvl1_sw0.total", 70)));
    let m = h.model();
    let (clk, rst, din) = (
        m.input("clk").unwrap(),
        m.input("rst").unwrap(),
        m.input("din").unwrap(),
    );
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut g = HierGolden::default();
    for bt in 0..bit_times {
        let r = bt == 0;
        let d: u8 = rng.gen_range(0..16);
        let m = h.model();
        m.set(rst, u64::from(r));
        m.set(din, u64::from(d));
        m.tick(clk);
        g.clock(r, d);
        let mut predicted = g;
        corrupt(bt, &mut predicted);
        h.check(dout, u64::from(predicted.xp1))?;
        h.check(xp0, u64::from(predicted.xp0))?;
        h.check_words(total1, &u128_words(predicted.total1)[..3])?;
        h.finish_bit_time();
    }
    Ok(h.stats())
}

#[test]
fn correct_golden_model_passes_with_counts() {
    let stats = run("passes", 3, 500, |_, _| {}).unwrap();
    assert_eq!(stats.bit_times, 500);
    assert_eq!(stats.compared_values, 1500);
}

#[test]
fn injected_golden_error_is_reported_with_every_field() {
    let err = run("injected_error", 42, 200, |bt, g| {
        if bt == 37 {
            g.total1 ^= 1 << 65;
        }
    })
    .unwrap_err();
    assert_eq!(err.bit_time, 37);
    assert_eq!(err.signal, "hier.lvl1_sw0.total");
    assert_eq!(err.width, 70);
    assert_eq!(err.seed, Some(42));
    assert_eq!(err.params, "design=hier, stages=2");
    assert_eq!(err.stats.bit_times, 37);
    assert_eq!(err.stats.compared_values, 37 * 3 + 3);
    // Expected and actual differ in exactly bit 65, both printed as 70-bit hex.
    let e = u128::from_str_radix(&err.expected[2..], 16).unwrap();
    let a = u128::from_str_radix(&err.actual[2..], 16).unwrap();
    assert_eq!(e ^ a, 1 << 65);
    assert_eq!(
        err.actual.len(),
        2 + 18,
        "70 bits = 18 hex digits: {}",
        err.actual
    );
    let vcd = err.vcd.clone().expect("the model writes a VCD");
    let msg = err.to_string();
    for part in [
        "at bit-time 37",
        "signal `hier.lvl1_sw0.total` (70 bits)",
        &format!("expected {} got {}", err.expected, err.actual),
        "parameters: design=hier, stages=2",
        "seed: 42",
        &format!("VCD: {}", vcd.display()),
    ] {
        assert!(msg.contains(part), "missing {part:?} in:\n{msg}");
    }
    // The VCD is on disk and was flushed up to the failing bit-time (37 * 10 + 5).
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(text.contains("$scope module lvl1_sw0 $end"));
    assert!(
        text.lines().any(|l| l == "#375"),
        "VCD not flushed to the failing bit-time"
    );
}

#[test]
fn narrow_mismatch_and_unknown_names() {
    let err = run("narrow_mismatch", 5, 100, |bt, g| {
        if bt == 9 {
            g.xp1 ^= 0x3;
        }
    })
    .unwrap_err();
    assert_eq!((err.bit_time, err.signal.as_str()), (9, "hier.dout"));
    assert_eq!(
        err.expected.len(),
        3,
        "4 bits = 1 hex digit: {}",
        err.expected
    );
    let (model, _) = build_model(&hier_design(), &common::hier_observed(), None).unwrap();
    let mut h = Harness::new(model, RunInfo::default());
    let e = h.watch("dot").unwrap_err().to_string();
    assert!(e.contains("no port `dot`"), "{e}");
    let e = h.watch("hier.lvl0_sw0.nope").unwrap_err().to_string();
    assert!(e.contains("no signal `nope`"), "{e}");
    // An over-wide golden value is a mismatch, not a truncation.
    let w = h.watch("hier.dout").unwrap();
    let m = h.model();
    let (clk, dout) = (m.input("clk").unwrap(), m.port("dout").unwrap());
    m.tick(clk);
    let actual = m.get(dout);
    let err = h.check(w, actual | 0x10).unwrap_err();
    assert_eq!(err.expected, format!("0x1{}", &err.actual[2..]));
}
