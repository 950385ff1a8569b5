//! Unit tests of the self-test's golden model.

use super::*;
use crate::lcan::cycle::network::NetParams;
use crate::lcan::cycle::ArbiterPolicy;
use crate::lcan::routing::Algorithm;
use crate::lcan::{Size, Topology};

fn tree16() -> (Topology, NetParams) {
    let topo = Topology::tree(2, 1, Size::Levels(4)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 8).unwrap();
    (topo, np)
}

/// xorshift32 from 1: Marsaglia's published first value 270369 (= 1 ^ 1<<13 … ).
#[test]
fn xorshift32_first_states() {
    let mut g = Xorshift32::new(1);
    assert_eq!(g.draw(), 1);
    assert_eq!(g.draw(), 270_369);
    assert_eq!(g.draw(), 67_634_689);
    assert_eq!(g.draw(), 2_647_435_461);
}

/// Every round is a permutation, rounds differ, and the sequence follows the seed.
#[test]
fn rounds_are_permutations_and_follow_the_seed() {
    let mut a = StimulusGen::new(7, 16, 8);
    let mut b = StimulusGen::new(7, 16, 8);
    let mut c = StimulusGen::new(8, 16, 8);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..50 {
        let (ra, rb, rc) = (a.next_round(), b.next_round(), c.next_round());
        assert_eq!(ra, rb);
        assert_ne!(ra.perm, rc.perm);
        let mut s = ra.perm.clone();
        s.sort_unstable();
        assert_eq!(s, (0..16).collect::<Vec<_>>());
        assert!(ra.msgs.iter().all(|&m| m < 256));
        assert!(ra.draws >= 16 + 15);
        seen.insert(ra.perm);
    }
    assert_eq!(seen.len(), 50);
}

/// Fisher–Yates with rejection is uniform: on n = 3 each of the 6 permutations appears
/// about equally often.
#[test]
fn shuffle_is_uniform_on_three() {
    let mut g = StimulusGen::new(12345, 3, 1);
    let mut counts = std::collections::HashMap::new();
    for _ in 0..6000 {
        *counts.entry(g.next_round().perm).or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), 6);
    assert!(
        counts.values().all(|&k| (850..1150).contains(&k)),
        "{counts:?}"
    );
}

/// A fault-free prediction has 0 errors and a PASS line; the fault makes every round fail.
#[test]
fn prediction_and_fault() {
    let (topo, np) = tree16();
    let ok = SelftestParams::new(&np, 1, 5, false).unwrap();
    let p = predict(&topo, &np, &ok, 10).unwrap();
    assert_eq!(p.lines.len(), 2);
    assert_eq!(p.counters.perms, 10);
    assert_eq!(p.counters.errors, 0);
    assert!(p.counters.passes >= 10);
    assert!(
        p.lines[1].text.starts_with("PASS 10 perms, "),
        "{}",
        p.lines[1].text
    );
    assert!(p.lines[1].text.ends_with(" errors\r\n"));
    let bad = SelftestParams::new(&np, 1, 5, true).unwrap();
    let q = predict(&topo, &np, &bad, 10).unwrap();
    assert_eq!(q.counters.errors, 10);
    assert_eq!(q.counters.passes, p.counters.passes);
    assert!(q.lines[0].text.starts_with("FAIL 5 perms, "));
    assert!(q.lines[0].text.ends_with(", 5 errors\r\n"));
}

/// Parameters out of range are refused naming the condition.
#[test]
fn limits() {
    let (_, np) = tree16();
    let e = SelftestParams::new(&np, 0, 5, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("--lfsr-seed must be nonzero"), "{e}");
    let e = SelftestParams::new(&np, 1 << 32, 5, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("below 2^32"), "{e}");
    let e = SelftestParams::new(&np, 1, 0, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("--report-every"), "{e}");
    assert_eq!(uart_divisor(12_000_000, 115_200).unwrap(), 104);
    assert_eq!(uart_divisor(12_000_000, 3_000_000).unwrap(), 4);
    let e = uart_divisor(12_000_000, 9_000_000).unwrap_err().to_string();
    assert!(e.contains("at least 2 clocks"), "{e}");
    let e = uart_divisor(12_000_000, 0).unwrap_err().to_string();
    assert!(e.contains("at least 2 clocks"), "{e}");
    let e = uart_divisor(10_000_000, 3_000_000).unwrap_err().to_string();
    assert!(e.contains("% off the baud rate"), "{e}");
    assert_eq!(stimulus::smear(5), 7);
    assert_eq!(stimulus::smear(8), 15);
    assert_eq!(stimulus::smear(1), 1);
}

/// The line's format, the passes per permutation truncated to two decimals.
#[test]
fn report_line_format() {
    let c = Counters {
        perms: 1000,
        passes: 1834,
        bit_times: 123_456,
        errors: 0,
    };
    assert_eq!(
        report_line(&c),
        "PASS 1000 perms, 1.83 passes/perm, 1834 passes, 123456 bit-times, 0 errors\r\n"
    );
    let d = Counters {
        perms: 3,
        passes: 1,
        bit_times: 7,
        errors: 2,
    };
    assert_eq!(
        report_line(&d),
        "FAIL 3 perms, 0.33 passes/perm, 1 passes, 7 bit-times, 2 errors\r\n"
    );
    assert_eq!(predict::ratio_x100(&Counters::default()), u32::MAX);
}
