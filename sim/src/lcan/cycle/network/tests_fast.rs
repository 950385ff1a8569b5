//! The fast set-up (`docs/protocol.md` §13) in the network model: on every topology kind,
//! R1 and R2, every policy, it routes exactly what the sequential set-up routes — the same
//! passes, top levels, senders, crosspoints at every set-up end and messages — and only the
//! step lengths differ: its bit-times are `total_bit_times` of its own parameters, and
//! fewer than the sequential run's by `(H + 1)·(K_UP + K_DOWN)` (R1) or
//! `(2H + 1)·K_PROBE` (R2) per pass, less the windows it keeps (chunked: `m` decisions per
//! bit-time).

use super::*;
use crate::lcan::cycle::{ArbiterPolicy, SetupMode};
use crate::lcan::routing::Algorithm;
use crate::lcan::workload::worst_case;
use crate::lcan::{Size, Topology};
use crate::perm::Permutation;
use crate::rng::seeded;

const SKEWED8: &str = include_str!("../../../../../docs/examples/skewed8.pi");

fn run(topo: &Topology, np: &NetParams, dst: &[Option<usize>], seed: u64) -> NetRun {
    let msg: Vec<u64> = (0..topo.n() as u64).map(|i| (i * 5 + seed) & 0xF).collect();
    let mut model = NetworkModel::new(topo, np, dst, &msg, seed).unwrap();
    model.run_to_done(2_000_000).unwrap()
}

fn same_routing(
    topo: &Topology,
    alg: Algorithm,
    pol: ArbiterPolicy,
    dst: &[Option<usize>],
    seed: u64,
    setup: SetupMode,
) {
    let seq = NetParams::new(topo, alg, pol, 1, 4).unwrap();
    let fast = seq.clone().with_setup(setup).unwrap();
    assert_eq!(fast.setup(), setup);
    let (a, b) = (run(topo, &seq, dst, seed), run(topo, &fast, dst, seed));
    let (d, u) = topo
        .uniform()
        .expect("these tests use one d and u for every level");
    let ctx = format!(
        "{:?} d={d} u={u} {alg:?} {pol:?} {setup} seed {seed}",
        topo.kind(),
    );
    assert!(!a.error && !b.error, "{ctx}");
    assert_eq!(a.passes.len(), b.passes.len(), "{ctx}: passes");
    for (k, (pa, pb)) in a.passes.iter().zip(&b.passes).enumerate() {
        assert_eq!(pa.top_level, pb.top_level, "{ctx}: pass {k} H");
        assert_eq!(pa.delivered, pb.delivered, "{ctx}: pass {k} delivered");
        assert_eq!(pa.senders, pb.senders, "{ctx}: pass {k} senders");
        assert_eq!(
            pa.crosspoints, pb.crosspoints,
            "{ctx}: pass {k} crosspoints"
        );
    }
    assert_eq!(a.received, b.received, "{ctx}: messages");
    let tops: Vec<usize> = b.passes.iter().map(|p| p.top_level).collect();
    assert_eq!(b.bit_times as usize, fast.total_bit_times(&tops), "{ctx}");
    let saved: usize = tops
        .iter()
        .map(|&h| match alg {
            Algorithm::R1 => {
                let (up, down) = (d, 2 * u + d);
                (h + 1) * (up - setup.window(up, up) + down - setup.window(down, down))
            }
            _ => (2 * h + 1) * (u + d - setup.window(u + d, u + d)),
        })
        .sum();
    assert_eq!(
        a.bit_times as usize - b.bit_times as usize,
        saved,
        "{ctx}: saving"
    );
}

#[test]
fn fast_setup_routes_exactly_as_the_sequential_one() {
    let topos = [
        Topology::tree(2, 1, Size::Levels(3)).unwrap(),
        Topology::tree(4, 2, Size::Levels(2)).unwrap(),
        Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap(),
        Topology::complete_bipartite(3, 3, Size::Levels(2)).unwrap(),
        Topology::from_pi_text(SKEWED8).unwrap(),
    ];
    let mut rng = seeded(0xFA57);
    for topo in &topos {
        let n = topo.n();
        let mut perms: Vec<Vec<Option<usize>>> = (0..3)
            .map(|_| {
                Permutation::random(n, &mut rng)
                    .as_slice()
                    .iter()
                    .map(|&t| Some(t))
                    .collect()
            })
            .collect();
        if let Ok(w) = worst_case(topo, &mut rng) {
            perms.push(w.as_slice().iter().map(|&t| Some(t)).collect());
        }
        for (i, dst) in perms.iter().enumerate() {
            for alg in [Algorithm::R1, Algorithm::R2] {
                for pol in [
                    ArbiterPolicy::Fixed,
                    ArbiterPolicy::RoundRobin,
                    ArbiterPolicy::Random,
                ] {
                    for setup in [
                        SetupMode::Fast,
                        SetupMode::Chunked(1),
                        SetupMode::Chunked(2),
                    ] {
                        same_routing(topo, alg, pol, dst, 11 + i as u64, setup);
                    }
                }
            }
        }
    }
}

#[test]
fn fast_setup_step_lengths() {
    // CB-LCAN(2,2), n = 256: P1 = 20, P2 = 32, PR = 12 bits.
    let topo = Topology::complete_bipartite(2, 2, Size::Pes(256)).unwrap();
    let seq = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::RoundRobin, 1, 8).unwrap();
    let fast = seq.clone().with_setup(SetupMode::Fast).unwrap();
    let len = |np: &NetParams, p| np.step_len(p, 7).unwrap();
    assert_eq!(
        (
            len(&seq, Phase::Up),
            len(&seq, Phase::Down),
            len(&seq, Phase::Probe)
        ),
        (23, 39, 17)
    );
    assert_eq!(
        (
            len(&fast, Phase::Up),
            len(&fast, Phase::Down),
            len(&fast, Phase::Probe)
        ),
        (21, 33, 13)
    );
    // A pass with H = 7: 8·(23 + 39) vs 8·(21 + 33) set-up bit-times, the rest equal.
    assert_eq!(seq.pass_len(7) - fast.pass_len(7), 8 * 8);
}
