//! The harness's per-bit-time path allocates nothing: counted with a global allocator.

mod common;
mod counting;

use common::{hier_design, u128_words, HierGolden};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::bridge::build_model;
use lcanet_testbench::harness::{Harness, RunInfo};

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

#[test]
fn per_bit_time_path_does_not_allocate() {
    let dir = artifact_dir!("no_alloc").unwrap();
    let (model, _) = build_model(
        &hier_design(),
        &common::hier_observed(),
        Some(&dir.file("wave.vcd")),
    )
    .unwrap();
    let mut h = Harness::new(model, RunInfo::new(Some(1)));
    let dout = h.watch("dout").unwrap();
    let xp0 = h.watch("hier.lvl0_sw0.xp_sel").unwrap();
    let total0 = h.watch("hier.lvl0_sw0.total").unwrap();
    let m = h.model();
    let (clk, rst, din) = (
        m.input("clk").unwrap(),
        m.input("rst").unwrap(),
        m.input("din").unwrap(),
    );
    let mut g = HierGolden::default();
    let mut words = [0u32; 3];
    counting::start();
    for bt in 0..2000u64 {
        let d = (bt * 7 % 16) as u8;
        let m = h.model();
        m.set(rst, u64::from(bt == 0));
        m.set(din, u64::from(d));
        m.tick(clk);
        g.clock(bt == 0, d);
        let t = u128_words(g.total0);
        words.copy_from_slice(&t[..3]);
        let ok = h.check(dout, u64::from(g.xp1)).is_ok()
            && h.check(xp0, u64::from(g.xp0)).is_ok()
            && h.check(total0, g.total0 as u64).is_ok()
            && h.check_words(total0, &words).is_ok();
        if !ok {
            counting::stop();
            panic!("unexpected mismatch at bit-time {bt}");
        }
        h.finish_bit_time();
    }
    let allocs = counting::stop();
    assert_eq!(allocs, 0, "allocations in the per-bit-time loop");
    assert_eq!(h.stats().compared_values, 8000);
}
