//! Property tests of the MIN golden models over random networks, sizes, settings and
//! permutations.

use lcanet_sim::min::{build_latin_square, Min, Network, SwitchSettings};
use lcanet_sim::perm::Permutation;
use lcanet_sim::rng::seeded;
use proptest::prelude::*;
use rand::Rng;

/// Any of the six networks (the three of 004 and their reverses).
fn network() -> impl Strategy<Value = Network> {
    proptest::sample::select(Network::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any switch settings realize an admissible permutation, and self-routing that
    /// permutation by its tags sets the switches back to exactly those settings
    /// (unique paths).
    #[test]
    fn settings_round_trip_through_tags(net in network(), m in 1u32..=8, seed: u64) {
        let min = Min::new(net, m).unwrap();
        let mut rng = seeded(seed);
        let cross = (0..m)
            .map(|_| (0..min.switches_per_stage()).map(|_| rng.gen()).collect())
            .collect();
        let settings = SwitchSettings { cross };
        let p = min.realize(&settings);
        prop_assert!(min.check(&p).is_admissible());
        let t = min.transit(&p);
        prop_assert_eq!(t.settings, settings);
    }

    /// On any permutation the hardware's transit is a bijection, it flags a conflict
    /// exactly when the permutation is not admissible, and the first conflicting
    /// stage is the one the admissibility check names.
    #[test]
    fn transit_agrees_with_admissibility(net in network(), m in 1u32..=8, seed: u64) {
        let min = Min::new(net, m).unwrap();
        let p = Permutation::random(min.n(), &mut seeded(seed));
        let adm = min.check(&p);
        let t = min.transit(&p);
        let mut seen = vec![false; min.n()];
        for &src in &t.arrivals {
            prop_assert!(!seen[src]);
            seen[src] = true;
        }
        prop_assert_eq!(adm.is_admissible(), t.conflicts.is_empty());
        if let Some(first) = adm.first() {
            prop_assert_eq!(t.conflicts[0].stage, first.stage);
            let c = &t.conflicts[0];
            prop_assert!(t.conflict[c.stage as usize][c.switch]);
        } else {
            for (q, &src) in t.arrivals.iter().enumerate() {
                prop_assert_eq!(p.dst(src), q);
            }
        }
    }

    /// Table 2 gives a Latin square from any first row (004 Theorem 2).
    #[test]
    fn table2_is_latin_for_any_first_row(m in 1u32..=7, seed: u64) {
        let first = Permutation::random(1 << m, &mut seeded(seed));
        let sq = build_latin_square(&first).unwrap();
        prop_assert!(sq.check_latin().is_ok());
        prop_assert_eq!(&sq.rows[0], &first.as_slice().to_vec());
    }
}
