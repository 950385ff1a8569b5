//! Unit tests of the recording (no simulator needed).

use super::*;
use lcanet_sim::lcan::cycle::network::{Mutation, NetParams};
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};

fn model(mutation: Option<Mutation>) -> NetworkModel {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::Random, 1, 2).unwrap();
    let dst = [Some(2), Some(3), Some(0), Some(1)];
    match mutation {
        None => NetworkModel::new(&topo, &np, &dst, &[0, 1, 2, 3], 5).unwrap(),
        Some(m) => NetworkModel::with_mutation(&topo, &np, &dst, &[0, 1, 2, 3], 5, m).unwrap(),
    }
}

#[test]
fn records_every_bit_time_until_done_plus_tail() {
    let mut m = model(None);
    let b = record(&mut m, "lcan_x", 3, 10_000).unwrap();
    assert_eq!(b.done_at, 2 + b.bit_times);
    assert_eq!(b.bit_times_recorded, b.done_at + 3);
    assert!(!b.error && b.passes >= 2);
    let rec = &b.recording;
    let widths: Vec<u32> = rec.inputs().iter().map(|p| p.width).collect();
    assert_eq!(widths, [1, 1, 4, 8, 8, 16]);
    assert_eq!(rec.outputs()[0].name, "done");
    assert_eq!(rec.outputs()[7].name, "rmsg");
    // The expectation recorded for bit-time t is the output after its edge: `done` is
    // expected 1 from bit-time done_at - 1 on.
    let d = b.done_at as usize;
    assert_eq!(rec.expected_value(d - 1, 0).0[0], 1);
    assert_eq!(rec.expected_value(d - 2, 0).0[0], 0);
}

#[test]
fn a_mutation_changes_exactly_one_expectation() {
    let good = record(&mut model(None), "t", 0, 10_000).unwrap();
    let flip = Mutation::FlipOutput {
        port: 1,
        bit: 0,
        bit_time: 20,
    };
    let bad = record(&mut model(Some(flip)), "t", 0, 10_000).unwrap();
    let (g, b) = (&good.recording, &bad.recording);
    let mut diffs = Vec::new();
    for t in 0..g.bit_times() {
        for o in 0..g.outputs().len() {
            if g.expected_value(t, o) != b.expected_value(t, o) {
                diffs.push((t, o));
            }
        }
    }
    // Model bit-time 20 is the expectation after the edge of recorded bit-time 19.
    assert_eq!(diffs, vec![(19, 1)]);
}

#[test]
fn budget_is_enforced() {
    let e = record(&mut model(None), "t", 0, 50).unwrap_err();
    assert!(e.to_string().contains("within 50 bit-times"), "{e}");
}

#[test]
fn a_tail_past_the_budget_blames_the_tail_not_done() {
    let done = record(&mut model(None), "t", 0, 10_000).unwrap().done_at;
    let e = record(&mut model(None), "t", 40, done + 10)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!("`done` rose at bit-time {done}")),
        "{e}"
    );
    assert!(e.contains("--tail 40"), "{e}");
    assert!(e.contains(&format!("at least {}", done + 40)), "{e}");
    assert!(!e.contains("did not rise"), "{e}");
}
