//! Topology: switch counts (002 eq. (1), Corollaries 1–2), validation messages, links,
//! labels, LCA levels and switches, `down`/`up`, paths, Π files.

use super::brute;
use crate::lcan::*;
use proptest::prelude::*;

fn tree(d: usize, u: usize, l: usize) -> Topology {
    Topology::tree(d, u, Size::Levels(l)).unwrap()
}
fn cb(d: usize, u: usize, l: usize) -> Topology {
    Topology::complete_bipartite(d, u, Size::Levels(l)).unwrap()
}

#[test]
fn switch_counts_follow_002_eq1_and_corollaries() {
    for (d, u, l) in [
        (2, 1, 4),
        (4, 2, 3),
        (6, 2, 3),
        (8, 4, 2),
        (4, 1, 3),
        (3, 3, 2),
    ] {
        let t = tree(d, u, l);
        // Corollary 2: n = d·(d/u)^(l-1), one top switch.
        assert_eq!(t.n(), d * (d / u).pow(l as u32 - 1));
        assert_eq!(t.switch_count(l - 1), 1);
        // eq. (1): S_0 = n/d, S_{i+1} = (u/d)·S_i.
        assert_eq!(t.switch_count(0), t.n() / d);
        for i in 0..l - 1 {
            assert_eq!(t.switch_count(i + 1) * d, t.switch_count(i) * u);
        }
        assert_eq!(
            t.links(),
            (0..l - 1).map(|i| t.switch_count(i) * u).sum::<usize>()
        );
    }
    for (d, u, l) in [
        (2, 2, 4),
        (3, 2, 3),
        (4, 4, 2),
        (4, 2, 3),
        (2, 4, 3),
        (2, 1, 3),
    ] {
        let c = cb(d, u, l);
        // Corollary 1: n = d^l; eq. (1) again.
        assert_eq!(c.n(), d.pow(l as u32));
        assert_eq!(c.switch_count(0), c.n() / d);
        for i in 0..l - 1 {
            assert_eq!(c.switch_count(i + 1) * d, c.switch_count(i) * u);
        }
    }
    // Size by n gives the same network.
    let t = Topology::tree(4, 2, Size::Pes(32)).unwrap();
    assert_eq!(t.levels(), 4);
    assert_eq!(t.switches_per_level(), &[8, 4, 2, 1]);
    let c = Topology::complete_bipartite(2, 2, Size::Pes(16)).unwrap();
    assert_eq!(c.switches_per_level(), &[8, 8, 8, 8]);
}

#[test]
fn invalid_parameters_are_rejected_with_the_condition() {
    let cases: Vec<(Result<Topology, TopologyError>, &str)> = vec![
        (
            Topology::tree(6, 4, Size::Levels(2)),
            "d = 6 is not a multiple of u = 4 (002 Definition 2",
        ),
        (
            Topology::tree(4, 2, Size::Pes(12)),
            "n = 12 is not d·(d/u)^(l-1) = 4·2^(l-1)",
        ),
        (
            Topology::tree(2, 1, Size::Pes(0)),
            "n = 0 is not d·(d/u)^(l-1) = 2·2^(l-1)",
        ),
        (
            Topology::complete_bipartite(2, 2, Size::Pes(12)),
            "n = 12 is not d^l = 2^l",
        ),
        (
            Topology::complete_bipartite(1, 1, Size::Levels(2)),
            "d = 1 is out of range 2..=64",
        ),
        (
            Topology::tree(2, 0, Size::Levels(2)),
            "u = 0 is out of range 1..=64",
        ),
        (
            Topology::tree(128, 2, Size::Levels(2)),
            "d = 128 is out of range 2..=64",
        ),
        (
            Topology::tree(2, 1, Size::Levels(0)),
            "levels = 0 is out of range 1..=32",
        ),
        (
            Topology::tree(2, 1, Size::Pes(1 << 21)),
            "n = 2097152 exceeds the limit 1048576",
        ),
        (
            Topology::tree(2, 1, Size::Levels(22)),
            "n = 4194304 exceeds the limit 1048576",
        ),
        (
            Topology::tree(4, 1, Size::Levels(31)),
            "n = 4611686018427387904 exceeds the limit",
        ),
        (
            Topology::complete_bipartite(2, 2, Size::Pes(1 << 20)),
            "total switches = 10485760 exceeds the limit 2097152",
        ),
        (
            Topology::tree(2, 2, Size::Pes(2)),
            "d = u = 2 has n = d = 2 PEs for every number of levels",
        ),
    ];
    for (i, (res, msg)) in cases.into_iter().enumerate() {
        let e = res.expect_err(msg).to_string();
        assert!(e.contains(msg), "case {i}: '{e}' does not contain '{msg}'");
    }
}

#[test]
fn links_by_hand() {
    // T-LCAN(4,2), l = 4: switch s sends upper k to downer (s mod 2)·2 + k of ⌊s/2⌋.
    let t = tree(4, 2, 4);
    assert_eq!(t.up_link(0, 5, 1), Some((2, 3)));
    assert_eq!(t.up_link(1, 0, 0), Some((0, 0)));
    assert_eq!(t.up_link(3, 0, 0), None);
    assert_eq!(
        t.down_link(1, 2, 3),
        DownEnd::Switch {
            switch: 5,
            upper: 1
        }
    );
    assert_eq!(t.down_link(0, 5, 2), DownEnd::Pe(22));
    // CB-LCAN(2,2), l = 3. Level-0 switch 3 = label "11": lowest base-d digit j = 1;
    // upper k goes to downer 1 of the level-1 switch labelled (1 | k) = 2 + k.
    let c = cb(2, 2, 3);
    assert_eq!(c.up_link(0, 3, 1), Some((3, 1)));
    assert_eq!(c.up_link(0, 2, 0), Some((2, 0)));
    // Level-1 switch 2 = (1 | 0): j = 1; upper k goes to downer 1 of (· | 0 k) = k.
    assert_eq!(c.up_link(1, 2, 1), Some((1, 1)));
    assert_eq!(c.global_index(1, 2), 6);
    assert_eq!(c.from_global(6), (1, 2));
}

#[test]
fn every_level_is_one_to_one_and_onto() {
    for t in [
        tree(2, 1, 4),
        tree(4, 2, 3),
        cb(2, 2, 4),
        cb(3, 2, 3),
        cb(2, 3, 3),
    ] {
        for level in 0..t.levels() - 1 {
            let mut seen = std::collections::HashSet::new();
            for s in 0..t.switch_count(level) {
                for k in 0..t.u_at(level) {
                    let (p, x) = t.up_link(level, s, k).unwrap();
                    assert!(p < t.switch_count(level + 1) && x < t.d_at(level + 1));
                    assert!(seen.insert((p, x)));
                    assert_eq!(
                        t.down_link(level + 1, p, x),
                        DownEnd::Switch {
                            switch: s,
                            upper: k
                        }
                    );
                }
            }
            assert_eq!(seen.len(), t.switch_count(level + 1) * t.d_at(level + 1));
        }
    }
}

#[test]
fn labels_digits_and_lca_by_hand() {
    // T-LCAN(4,2), l = 3, n = 16: PE 13 = 1 + 4·(1 + 2·1): digits [1, 1, 1].
    let t = tree(4, 2, 3);
    assert_eq!(t.label_radices().unwrap(), vec![4, 2, 2]);
    assert_eq!(t.label_digits(13).unwrap(), vec![1, 1, 1]);
    // Digit 2 = 1 decides the downers of the top switch: group 1 = downers 2, 3.
    assert_eq!(t.down(2, 0, 13), 0b1100);
    assert_eq!(t.downers_for_digit(2, 1), Some(0b1100));
    assert_eq!(t.down(1, 1, 13), 0b1100);
    assert_eq!(t.down(0, 3, 13), 0b0010);
    assert_eq!(t.down(1, 0, 13), 0, "PE 13 is not below level-1 switch 0");
    assert_eq!(
        (t.lca_level(13, 12), t.lca_level(13, 8), t.lca_level(13, 0)),
        (0, 1, 2)
    );
    assert_eq!(t.lca_switches(13, 8), vec![1]);
    // Binary tree, n = 8.
    let b = tree(2, 1, 3);
    assert_eq!(
        (
            b.lca_level(0, 1),
            b.lca_level(0, 2),
            b.lca_level(0, 7),
            b.lca_level(3, 3)
        ),
        (0, 1, 2, 0)
    );
    // CB-LCAN(2,2), n = 8: u^h LCA switches (002 Lemma 2).
    let c = cb(2, 2, 3);
    assert_eq!(c.label_digits(6).unwrap(), vec![0, 1, 1]);
    assert_eq!(c.lca_switches(1, 3), vec![0, 1]);
    assert_eq!(c.lca_switches(0, 4), vec![0, 1, 2, 3]);
    assert_eq!(c.lca_switches(5, 4), vec![2]);
    assert_eq!(c.down(2, 3, 6), 0b10);
    assert_eq!(c.path_count(0, 4), 4);
    assert_eq!(t.path_count(0, 15), 16);
}

#[test]
fn queries_match_brute_force_reachability() {
    for t in [
        tree(2, 1, 4),
        tree(4, 2, 3),
        tree(6, 3, 2),
        cb(2, 2, 3),
        cb(3, 2, 3),
        cb(2, 3, 3),
    ] {
        let f = Topology::from_pi_text(&t.to_pi_text()).unwrap();
        assert_eq!(f.kind(), Kind::File);
        brute::check_queries(&t);
        brute::check_queries(&f);
        for s in 0..t.n() {
            for d in 0..t.n() {
                assert_eq!(t.lca_level(s, d), f.lca_level(s, d));
                assert_eq!(t.lca_switches(s, d), f.lca_switches(s, d));
                assert_eq!(t.path_count(s, d), f.path_count(s, d));
            }
        }
    }
}

#[test]
fn every_enumerated_path_is_valid_and_distinct() {
    for t in [tree(4, 2, 3), cb(2, 2, 3), cb(3, 2, 2)] {
        for s in 0..t.n() {
            for d in 0..t.n() {
                let paths = t.paths(s, d, 10_000).unwrap();
                assert_eq!(paths.len() as u128, t.path_count(s, d));
                let set: std::collections::HashSet<_> = paths.iter().collect();
                assert_eq!(set.len(), paths.len());
                let h = t.lca_level(s, d);
                let mut tops = std::collections::HashSet::new();
                for p in &paths {
                    let rc = routing::RoutedConnection {
                        src: s,
                        dst: d,
                        lca_level: h,
                        wires: p.clone(),
                    };
                    let visited = validate::check_path(&t, &rc).unwrap();
                    tops.insert(visited[h]);
                }
                assert_eq!(tops.len(), t.lca_switches(s, d).len());
            }
        }
    }
    assert!(
        tree(4, 2, 3).paths(0, 15, 3).is_none(),
        "16 paths exceed a cap of 3"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn random_networks_satisfy_the_definitions(k in 1usize..4, u in 1usize..4, l in 1usize..4, is_cb: bool) {
        let d = k * u;
        prop_assume!(d >= 2);
        let t = if is_cb {
            Topology::complete_bipartite(d, u, Size::Levels(l))
        } else {
            Topology::tree(d, u, Size::Levels(l))
        };
        prop_assume!(t.as_ref().is_ok_and(|t| t.n() <= 128));
        let t = t.unwrap();
        brute::check_queries(&t);
        let again = if is_cb {
            Topology::complete_bipartite(d, u, Size::Pes(t.n()))
        } else {
            Topology::tree(d, u, Size::Pes(t.n()))
        };
        if let Ok(again) = again {
            prop_assert_eq!(again.levels(), l);
        }
    }
}
