//! Tests of the LCA-network models: topology, routing, validator, references.

mod brute;
mod pi_tests;
mod reference_tests;
mod routing_tests;
mod topology_tests;

use crate::lcan::{Size, Topology};
use rand::seq::SliceRandom;
use rand::Rng;

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
