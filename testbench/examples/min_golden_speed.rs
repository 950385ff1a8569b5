//! Measures the golden side of a MIN co-simulation alone (Timeline::expected and
//! Timeline::stimulus per bit-time), to separate it from the Verilated model's speed:
//! `cargo run --release -p lcanet-testbench --example min_golden_speed [m]`.

use lcanet_sim::min::{Min, Network, RunConfig, Timeline};
use std::time::Instant;

fn main() {
    let m: u32 = std::env::args().nth(1).map_or(8, |a| a.parse().expect("m"));
    let min = Min::new(Network::Omega, m).expect("valid m");
    let tl = Timeline::new(RunConfig::atape(min, 8, 1).expect("valid run"));
    let start = Instant::now();
    let mut ones = 0usize;
    for t in 0..tl.end() {
        let e = tl.expected(t);
        let s = tl.stimulus(t);
        ones += e.pe_dout.iter().filter(|&&b| b).count() + s.din.iter().filter(|&&b| b).count();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "m = {m}: {} bit-times of golden model in {secs:.3} s = {:.0} bit-times/s ({ones} ones)",
        tl.end(),
        tl.end() as f64 / secs
    );
}
