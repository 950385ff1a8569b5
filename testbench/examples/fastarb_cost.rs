//! The hardware cost of the fast set-up (`docs/protocol.md` §13): iCE40 LUTs and
//! flip-flops (Yosys `synth_ice40`) of one LCA switch with the sequential arbiters and with
//! the fast ones, for CB-LCAN switches with `d, u ∈ {2, 4}`, and for the switch of
//! T-LCAN(4,2), every policy unless one is named.
//!
//! ```sh
//! cargo run --release -p lcanet-testbench --example fastarb_cost -- [LEVELS] [fixed|rr|random]
//! ```
//! Default: 8 levels (the switch of CB-LCAN(2,2) with n = 256), round-robin.

use lcanet_hdl::lca::emit_switch;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SetupMode, SwitchParams, SwitchTopology};
use lcanet_testbench::tools::yosys;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let levels: usize = args
        .first()
        .map_or(8, |s| s.parse().expect("LEVELS: a number"));
    let policies: Vec<ArbiterPolicy> = match args.get(1).map(String::as_str) {
        None | Some("rr") => vec![ArbiterPolicy::RoundRobin],
        Some("fixed") => vec![ArbiterPolicy::Fixed],
        Some("random") => vec![ArbiterPolicy::Random],
        Some("all") => vec![
            ArbiterPolicy::Fixed,
            ArbiterPolicy::RoundRobin,
            ArbiterPolicy::Random,
        ],
        Some(p) => panic!("policy {p}: fixed, rr, random or all"),
    };
    println!("| switch | l | policy | sequential LUTs / FFs | fast LUTs / FFs | LUTs | FFs |");
    println!("|---|---|---|---|---|---|---|");
    for policy in policies {
        for (topology, d, u) in [
            (SwitchTopology::Cb, 2, 2),
            (SwitchTopology::Cb, 2, 4),
            (SwitchTopology::Cb, 4, 2),
            (SwitchTopology::Cb, 4, 4),
            (SwitchTopology::Tree, 4, 2),
        ] {
            let seq = SwitchParams::new(d, u, 1, levels, topology, policy).unwrap();
            let mut cells = Vec::new();
            for p in [seq, seq.with_setup(SetupMode::Fast).unwrap()] {
                let t = Instant::now();
                let emitted = emit_switch(p).expect("emits");
                let dir = tempfile::tempdir().expect("temp dir");
                let files = emitted.write_to(dir.path()).expect("write");
                let top = lcanet_hdl::lca::switch_module_name(&p);
                let s = yosys::synth_ice40(&files, &top).expect("yosys");
                eprintln!(
                    "{top}: {} LUTs, {} FFs ({:.0} s)",
                    s.luts,
                    s.ffs,
                    t.elapsed().as_secs_f64()
                );
                cells.push((s.luts, s.ffs));
            }
            let pct = |a: u64, b: u64| 100.0 * (b as f64 - a as f64) / a as f64;
            println!(
                "| {topology}({d},{u}) | {levels} | {policy} | {} / {} | {} / {} | {:+.0} % | {:+.0} % |",
                cells[0].0,
                cells[0].1,
                cells[1].0,
                cells[1].1,
                pct(cells[0].0, cells[1].0),
                pct(cells[0].1, cells[1].1),
            );
        }
    }
}
