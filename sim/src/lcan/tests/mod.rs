//! Tests of the LCA-network models: topology, routing, validator, references.

mod brute;
mod perlevel_tests;
mod pi_tests;
mod reference_tests;
mod routing_tests;
mod topology_tests;

use crate::lcan::workload::{random_partial, worst_case};
use crate::lcan::{Connection, Size, Topology};
use crate::perm::{PartialPermutation, Permutation};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::Rng;

/// The connections of a (partial) permutation.
pub(crate) fn conns(perm: &PartialPermutation) -> Vec<Connection> {
    perm.pairs()
        .map(|(src, dst)| Connection { src, dst })
        .collect()
}

/// Random T-LCANs and CB-LCANs with at most `max_n` PEs, and general Π networks
/// ([`random_pi`]), for proptests of the routing algorithms.
pub(crate) fn any_topology(max_n: usize) -> impl Strategy<Value = Topology> {
    prop_oneof![
        (1usize..4, 1usize..3, 1usize..5).prop_filter_map("size", move |(k, u, l)| {
            Topology::tree((k + 1) * u, u, Size::Levels(l))
                .ok()
                .filter(|t| t.n() <= max_n)
        }),
        (2usize..5, 1usize..5, 1usize..5).prop_filter_map("size", move |(d, u, l)| {
            Topology::complete_bipartite(d, u, Size::Levels(l))
                .ok()
                .filter(|t| t.n() <= max_n)
        }),
        (any::<u64>(), 1usize..4).prop_map(|(seed, l)| random_pi(seed, l)),
        (any::<u64>(), 2usize..5).prop_filter_map("size", move |(seed, l)| {
            Some(random_per_level(seed, l)).filter(|t| t.n() <= max_n)
        }),
    ]
}

/// A random network whose switch sizes vary by level (002 §2.2): a per-level T-LCAN
/// (`u_i ∈ 1..=3`, `d_{i+1}/u_i ∈ 1..=3`, `d_0 ∈ 2..=4`) or a per-level CB-LCAN
/// (`d_i ∈ 2..=4`, `u_i ∈ 1..=4`) of `levels` levels, with at least two different shapes.
pub(crate) fn random_per_level(seed: u64, levels: usize) -> Topology {
    let mut rng = crate::rng::seeded(seed);
    loop {
        let us: Vec<usize> = (0..levels).map(|_| rng.gen_range(1..=3)).collect();
        let t = if rng.gen_bool(0.5) {
            let ds: Vec<usize> = (0..levels)
                .map(|i| {
                    if i == 0 {
                        rng.gen_range(2..=4)
                    } else {
                        us[i - 1] * rng.gen_range(1..=3)
                    }
                })
                .collect();
            Topology::tree_per_level(&ds, &us)
        } else {
            let ds: Vec<usize> = (0..levels).map(|_| rng.gen_range(2..=4)).collect();
            let us: Vec<usize> = us
                .iter()
                .map(|&u| u + usize::from(rng.gen_bool(0.3)))
                .collect();
            Topology::complete_bipartite_per_level(&ds, &us)
        };
        match t {
            Ok(t) if t.uniform().is_none() && t.n() <= 256 => return t,
            _ => continue,
        }
    }
}

/// Workload `kind` of a proptest on `topo`: 0 a random permutation, 1 a random partial
/// one (60 % of the PEs send), 2 a sample of 002's worst-case set (a random permutation
/// where the network has none).
pub(crate) fn some_permutation(
    topo: &Topology,
    kind: u32,
    rng: &mut crate::rng::SimRng,
) -> PartialPermutation {
    match kind {
        0 => Permutation::random(topo.n(), rng).to_partial(),
        1 => random_partial(topo.n(), 60, rng),
        _ => worst_case(topo, rng)
            .map(|p| p.to_partial())
            .unwrap_or_else(|_| Permutation::random(topo.n(), rng).to_partial()),
    }
}

/// A random valid network with a general Π of `levels` levels and at most 64 PEs:
/// switch counts of a CB-LCAN or a T-LCAN, every level wired by a random bijection,
/// redrawn until connected.
pub(crate) fn random_pi(seed: u64, levels: usize) -> Topology {
    let mut rng = crate::rng::seeded(seed);
    loop {
        let (d, u) = [(2, 1), (2, 2), (3, 2), (4, 2), (2, 3), (3, 3), (4, 4)][rng.gen_range(0..7)];
        let shape = if rng.gen_bool(0.5) && d % u == 0 {
            Topology::tree(d, u, Size::Levels(levels))
        } else {
            Topology::complete_bipartite(d, u, Size::Levels(levels))
        };
        let Ok(shape) = shape else { continue };
        if shape.n() > 64 {
            continue;
        }
        let mut text = format!("lcan d={d} u={u} levels={levels} n={}\n", shape.n());
        for level in 0..levels - 1 {
            text.push_str(&format!("level {level}\n"));
            let mut downers: Vec<(usize, usize)> = (0..shape.switch_count(level + 1))
                .flat_map(|p| (0..d).map(move |x| (p, x)))
                .collect();
            downers.shuffle(&mut rng);
            for (i, (p, x)) in downers.into_iter().enumerate() {
                text.push_str(&format!("{}.{} -> {p}.{x}\n", i / u, i % u));
            }
        }
        if let Ok(t) = Topology::from_pi_text(&text) {
            return t;
        }
    }
}
