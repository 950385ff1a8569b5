//! Unit tests of the self-test's golden model.

use super::*;
use crate::hypercube::timing::{total_bit_times, Algorithm as CubeAlgorithm};
use crate::hypercube::CubeParams;
use crate::lcan::cycle::network::NetParams;
use crate::lcan::cycle::ArbiterPolicy;
use crate::lcan::routing::Algorithm;
use crate::lcan::{Size, Topology};
use crate::min::{Min, Network};

fn tree16() -> Dut {
    let topo = Topology::tree(2, 1, Size::Levels(4)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 8).unwrap();
    Dut::lca(topo, np).unwrap()
}

fn cube(k: usize, alg: CubeAlgorithm) -> Dut {
    Dut::cube(CubeParams::new(k, 4).unwrap(), alg).unwrap()
}

fn min(net: Network, m: u32) -> Dut {
    Dut::min(Min::new(net, m).unwrap(), 5).unwrap()
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
    let dut = tree16();
    let ok = SelftestParams::new(1, 5, false).unwrap();
    let p = predict(&dut, &ok, 10).unwrap();
    assert_eq!(p.lines.len(), 2);
    assert_eq!(p.counters.rounds(), 10);
    assert_eq!(p.counters.errors(), 0);
    assert!(p.counters.values[1] >= 10);
    assert!(
        p.lines[1].text.starts_with("PASS 10 perms, "),
        "{}",
        p.lines[1].text
    );
    assert!(p.lines[1].text.ends_with(" errors\r\n"));
    let bad = SelftestParams::new(1, 5, true).unwrap();
    let q = predict(&dut, &bad, 10).unwrap();
    assert_eq!(q.counters.errors(), 10);
    assert_eq!(q.counters.values[1], p.counters.values[1]);
    assert!(q.lines[0].text.starts_with("FAIL 5 perms, "));
    assert!(q.lines[0].text.ends_with(", 5 errors\r\n"));
    let json = serde_json::to_value(p.counters).unwrap();
    assert_eq!(json["perms"], 10);
    assert_eq!(json["bit_times"], p.counters.values[2]);
}

/// The hypercube: every permutation (Algorithm 2) and every packing (Algorithm 1) is
/// delivered, `n` messages per permutation, the bit-times those of the cube's timing
/// model; the fault fails every round.
#[test]
fn hypercube_rounds() {
    let sp = SelftestParams::new(7, 10, false).unwrap();
    let full = cube(3, CubeAlgorithm::Full);
    let p = predict(&full, &sp, 20).unwrap();
    let bits = total_bit_times(CubeParams::new(3, 4).unwrap(), CubeAlgorithm::Full) as u32;
    assert_eq!(p.counters.values, [20, 20 * bits, 20 * 8, 0]);
    assert_eq!(
        p.lines[0].text,
        format!(
            "PASS 10 perms, {bits}.00 bit-times/perm, {} bit-times, 80 messages, 0 errors\r\n",
            10 * bits
        )
    );
    let semi = cube(3, CubeAlgorithm::Semi);
    let p = predict(&semi, &sp, 200).unwrap();
    assert_eq!(p.counters.errors(), 0);
    assert!(p.lines[0].text.starts_with("PASS 10 packings, "));
    // Every packing is an interval starting at `offset`, some empty, some full.
    let sizes: Vec<u32> = p.rounds.iter().map(|r| r.add[1]).collect();
    assert!(sizes.contains(&0) || sizes.contains(&1), "{sizes:?}");
    assert!(sizes.iter().any(|&s| s >= 6), "{sizes:?}");
    assert_eq!(p.counters.values[2], sizes.iter().sum::<u32>());
    let bad = SelftestParams::new(7, 10, true).unwrap();
    let q = predict(&full, &bad, 20).unwrap();
    assert_eq!(q.counters.values[2], 20 * 7);
    assert_eq!(q.counters.errors(), 20);
}

/// A MIN: every exchange delivers its n² messages with no conflict in n·F + m bit-times,
/// whatever the row offset (every row of the offset square is a row of the network's
/// Latin square, hence admissible); with the fault, PE 0's n messages fail.
#[test]
fn min_exchanges() {
    let sp = SelftestParams::new(3, 8, false).unwrap();
    for net in Network::ALL {
        for m in 1..=4 {
            let dut = min(net, m);
            let n = 1u32 << m;
            let p = predict(&dut, &sp, 16).unwrap();
            let bits = n * (m + 5) + m;
            assert_eq!(
                p.counters.values,
                [16, 16 * bits, 16 * n * n, 0],
                "{net} m={m}"
            );
            let offsets: std::collections::HashSet<usize> =
                p.rounds.iter().map(|r| r.offset).collect();
            assert!(offsets.len() >= 2, "{net} m={m}: {offsets:?}");
        }
    }
    let dut = min(Network::Omega, 3);
    let p = predict(&dut, &sp, 8).unwrap();
    assert_eq!(
        p.lines[0].text,
        "PASS 8 exchanges, 67.00 bit-times/exchange, 536 bit-times, 512 messages, 0 errors\r\n"
    );
    let bad = SelftestParams::new(3, 8, true).unwrap();
    let q = predict(&dut, &bad, 8).unwrap();
    assert_eq!(q.counters.values[2], 8 * 56);
    assert_eq!(q.counters.errors(), 8);
}

/// Parameters out of range are refused naming the condition.
#[test]
fn limits() {
    let e = SelftestParams::new(0, 5, false).unwrap_err().to_string();
    assert!(e.contains("--lfsr-seed must be nonzero"), "{e}");
    let e = SelftestParams::new(1 << 32, 5, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("below 2^32"), "{e}");
    let e = SelftestParams::new(1, 0, false).unwrap_err().to_string();
    assert!(e.contains("--report-every"), "{e}");
    let e = Dut::min(Min::new(Network::Cube, 8).unwrap(), 8)
        .unwrap_err()
        .to_string();
    assert!(e.contains("1 <= m <= 7"), "{e}");
    let e = Dut::cube(CubeParams::new(2, 33).unwrap(), CubeAlgorithm::Full)
        .unwrap_err()
        .to_string();
    assert!(e.contains("1 <= --payload-bits <= 32"), "{e}");
    let e = Dut::min(Min::new(Network::Cube, 2).unwrap(), 0)
        .unwrap_err()
        .to_string();
    assert!(e.contains("1 <= --message-bits <= 32"), "{e}");
    assert!(e.ends_with("got 0"), "{e}");
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R3, ArbiterPolicy::Fixed, 1, 8).unwrap();
    let e = Dut::lca(topo, np).unwrap_err().to_string();
    assert!(e.contains("R3 loads an off-line schedule"), "{e}");
    assert_eq!(heartbeat_clocks(12_000_000), 3_000_000);
    assert_eq!(heartbeat_clocks(3), 1);
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
    let fmt = tree16().line();
    let c = Counters {
        format: fmt,
        values: [1000, 1834, 123_456, 0],
    };
    assert_eq!(
        report_line(&c),
        "PASS 1000 perms, 1.83 passes/perm, 1834 passes, 123456 bit-times, 0 errors\r\n"
    );
    let d = Counters {
        format: fmt,
        values: [3, 1, 7, 2],
    };
    assert_eq!(
        report_line(&d),
        "FAIL 3 perms, 0.33 passes/perm, 1 passes, 7 bit-times, 2 errors\r\n"
    );
    assert_eq!(ratio_x100(&Counters::new(fmt)), u32::MAX);
}

/// The heartbeat toggles in the first TALLY at least `heartbeat` clocks after the last
/// toggle, and the line timing follows the rounds' clocks.
#[test]
fn heartbeat_and_line_timing() {
    let dut = tree16();
    let sp = SelftestParams::new(1, 1, false).unwrap();
    let p = predict(&dut, &sp, 6).unwrap();
    let clocks = |heartbeat| Clocks::new(&dut, 4, heartbeat);
    let slow = line_timing(dut.line(), &p.rounds, 1, clocks(u64::MAX / 2));
    assert!(slow.iter().all(|l| !l.heartbeat));
    // Every round toggles when the period is one clock.
    let fast = line_timing(dut.line(), &p.rounds, 1, clocks(1));
    let hb: Vec<bool> = fast.iter().map(|l| l.heartbeat).collect();
    assert_eq!(hb, [true, false, true, false, true, false]);
    assert_eq!(
        slow.iter().map(|l| l.last_byte_clock).collect::<Vec<_>>(),
        fast.iter().map(|l| l.last_byte_clock).collect::<Vec<_>>()
    );
    // The first line: round 1's clocks, then its bytes of 10 bits of 4 clocks each, and
    // the conversions (40 + 32 clocks at most per number) in between.
    let r = &p.rounds[0];
    // (An LCA network's `start` is a clock after START.)
    let tally = 1 + r.draws + u64::from(r.bit_times) + 16 + 1 + 2;
    let bytes = p.lines[0].text.len() as u64;
    let first = fast[0].last_byte_clock;
    let low = tally + (bytes - 1) * 40;
    assert!(first > low && first < low + 5 * 80, "{first} {tally}");
}
