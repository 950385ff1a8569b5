//! Measures the Verilator bridge: build times (fully cold, cold with the runtime library
//! cached, cache hit) and bit-times per second driving small designs, side by side.
//!
//! Run: `cargo run --release -p lcanet-testbench --example bridge_speed [-- BIT_TIMES]`
//! (default 2,000,000 bit-times). Builds go to a fresh temporary cache, so the numbers are
//! cold builds whatever the state of `target/lcanet-cache`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use lcanet_testbench::bridge::{build_in, Design, Model, ModelLibrary, ModelOptions};
use lcanet_testbench::harness::{Harness, RunInfo};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bit_times: u64 = match std::env::args().nth(1) {
        Some(a) => a.parse()?,
        None => 2_000_000,
    };
    let cache = tempfile::tempdir()?;
    // Everything, including the Verilator runtime library, goes to the fresh cache.
    std::env::set_var("LCANET_CACHE_DIR", cache.path());
    let models = cache.path().join("verilator");
    let opts = ModelOptions::default();
    let counter = Design::new([data("counter.v")], "counter");
    let hier = Design::from_file_list(&data("hier.f"), "hier")?;

    let cold_all = build_in(&models, &counter, &opts)?;
    let cold_model = build_in(&models, &hier, &opts)?;
    let hit = build_in(&models, &counter, &opts)?;
    let jobs = std::env::var("LCANET_BUILD_JOBS").unwrap_or_else(|_| "2".into());
    println!("build (trace + public signals, make -j{jobs}):");
    println!(
        "  counter, fully cold (runtime + model): {:10.1} ms  ({:?})",
        ms(cold_all.elapsed),
        cold_all.outcome
    );
    println!(
        "  hier, cold model (runtime cached):     {:10.1} ms  ({:?})",
        ms(cold_model.elapsed),
        cold_model.outcome
    );
    println!(
        "  counter, cached:                       {:10.1} ms  ({:?})",
        ms(hit.elapsed),
        hit.outcome
    );
    println!(
        "  ratios: fully cold / cached = {:.0}x, cold model / cached = {:.0}x, fully cold / cold model = {:.1}x",
        secs(cold_all.elapsed) / secs(hit.elapsed),
        secs(cold_model.elapsed) / secs(hit.elapsed),
        secs(cold_all.elapsed) / secs(cold_model.elapsed)
    );

    // Driving: raw ticks, ticks + harness comparisons, ticks with a VCD.
    let lib = ModelLibrary::load(&hit)?;
    let mut m = Model::new(&lib, None)?;
    let (clk, en, count) = (m.input("clk")?, m.input("en")?, m.port("count")?);
    m.set(en, 1);
    let t = Instant::now();
    let mut acc = 0u64;
    for _ in 0..bit_times {
        m.tick(clk);
        acc = acc.wrapping_add(m.get(count));
    }
    let raw = bit_times as f64 / secs(t.elapsed());
    std::hint::black_box(acc);

    let hier_lib = ModelLibrary::load(&cold_model)?;
    let mut h = Harness::new(Model::new(&hier_lib, None)?, RunInfo::new(Some(1)));
    let (dout, xp0, total1) = (
        h.watch("dout")?,
        h.watch("hier.lvl0_sw0.xp_sel")?,
        h.watch("hier.lvl1_sw0.total")?,
    );
    let hm = h.model();
    let (hclk, din) = (hm.input("clk")?, hm.input("din")?);
    let (mut xp0_g, mut total1_g) = (0u64, 0u128);
    let t = Instant::now();
    for bt in 0..bit_times {
        let d = bt % 16;
        let hm = h.model();
        hm.set(din, d);
        hm.tick(hclk);
        let mid = xp0_g;
        xp0_g = (d + 1) & 0xf;
        let xp1_g = (mid + 2) & 0xf;
        total1_g += u128::from(mid);
        let w = [
            total1_g as u32,
            (total1_g >> 32) as u32,
            (total1_g >> 64) as u32,
        ];
        h.check(dout, xp1_g)?;
        h.check(xp0, xp0_g)?;
        h.check_words(total1, &w)?;
        h.finish_bit_time();
    }
    let harnessed = bit_times as f64 / secs(t.elapsed());

    let vcd_dir = tempfile::tempdir()?;
    let vcd_bits = (bit_times / 10).max(1);
    let mut mv = Model::new(&lib, Some(&vcd_dir.path().join("w.vcd")))?;
    mv.set(mv.input("en")?, 1);
    let t = Instant::now();
    for _ in 0..vcd_bits {
        mv.tick(clk);
    }
    mv.vcd_flush();
    let with_vcd = vcd_bits as f64 / secs(t.elapsed());

    println!("drive ({bit_times} bit-times; VCD run {vcd_bits}):");
    println!("  counter, tick + get:                          {raw:12.0} bit-times/s");
    println!("  hier, tick + 3 harness checks (4, 4, 70 bits): {harnessed:12.0} bit-times/s");
    println!("  counter, tick with VCD:                        {with_vcd:12.0} bit-times/s");
    println!(
        "  ratios: raw / harness = {:.2}x, raw / VCD = {:.2}x",
        raw / harnessed,
        raw / with_vcd
    );
    Ok(())
}
