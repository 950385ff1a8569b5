//! Bridge: build the counter, drive it bit-time by bit-time and compare with Rust.

mod common;

use lcanet_testbench::artifact_dir;
use lcanet_testbench::bridge::{build_model, Design, ModelOptions};

#[test]
fn counter_counts_like_rust() {
    let dir = artifact_dir!("counter_counts_like_rust").unwrap();
    let design = Design::new([common::data("counter.v")], "counter");
    let (mut m, _) = build_model(
        &design,
        &ModelOptions::default(),
        Some(&dir.file("wave.vcd")),
    )
    .unwrap();
    let (clk, rst, en) = (
        m.input("clk").unwrap(),
        m.input("rst").unwrap(),
        m.input("en").unwrap(),
    );
    let count = m.port("count").unwrap();
    let mut expected: u8 = 0;
    for bit_time in 0..300u32 {
        let r = bit_time < 2 || bit_time == 150;
        let e = bit_time % 3 != 0;
        m.set(rst, u64::from(r));
        m.set(en, u64::from(e));
        m.tick(clk);
        expected = if r {
            0
        } else if e {
            expected.wrapping_add(1)
        } else {
            expected
        };
        assert_eq!(m.get(count), u64::from(expected), "bit-time {bit_time}");
    }
}
