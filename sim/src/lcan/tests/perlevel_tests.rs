//! Switch sizes that vary by level (002 §2.2): the per-level T-LCAN and CB-LCAN, their
//! validation level by level, labels, LCA switches, bounds and Π files, checked against
//! the uniform networks, brute force and hand-computed figures.

use super::{brute, conns, random_per_level};
use crate::lcan::bounds::lower_bound;
use crate::lcan::routing::Conflict;
use crate::lcan::*;
use crate::perm::Permutation;
use crate::rng::seeded;
use proptest::prelude::*;

fn err(r: Result<Topology, TopologyError>) -> String {
    r.expect_err("must fail").to_string()
}

/// Equal entries are the uniform network: same switch counts, links and queries.
#[test]
fn equal_entries_are_the_uniform_network() {
    for (d, u, l) in [(4, 2, 3), (2, 1, 4), (3, 3, 2)] {
        let a = Topology::tree(d, u, Size::Levels(l)).unwrap();
        let b = Topology::tree_per_level(&vec![d; l], &vec![u; l]).unwrap();
        let c = Topology::complete_bipartite(d, u, Size::Levels(l)).unwrap();
        let e = Topology::complete_bipartite_per_level(&vec![d; l], &vec![u; l]).unwrap();
        for (x, y) in [(&a, &b), (&c, &e)] {
            assert_eq!(y.uniform(), Some((d, u)));
            assert_eq!(x.to_pi_text(), y.to_pi_text());
            assert_eq!(x.lca_distribution(), y.lca_distribution());
        }
    }
}

/// The CM-5 reading of `docs/conventions.md`: CB-LCAN with `d = 4` everywhere, `u = 2` at
/// levels 0 and 1, `u = 4` above. Its bottom two levels are CB-LCAN(4,2)s of 16 PEs, its
/// upper levels copies of a CB-LCAN(4,4) whose terminals are the clusters (002 §2.2).
#[test]
fn cm5_is_cb42_clusters_under_cb44() {
    let t = Topology::complete_bipartite_per_level(&[4, 4, 4, 4], &[2, 2, 4, 4]).unwrap();
    assert_eq!(t.n(), 256);
    // S_0 = 64, S_1 = 64·2/4, S_2 = 32·2/4, S_3 = 16·4/4.
    assert_eq!(t.switches_per_level(), &[64, 32, 16, 16]);
    let cb42 = Topology::complete_bipartite(4, 2, Size::Levels(2)).unwrap();
    // Every 16-PE cluster (PEs 16c..16c+15) is wired like CB-LCAN(4,2): LCA levels and
    // LCA switch counts agree, and its level-1 switches are 2c, 2c+1.
    for c in 0..16 {
        for a in 0..16 {
            for b in 0..16 {
                let (s, d) = (16 * c + a, 16 * c + b);
                assert_eq!(t.lca_level(s, d), cb42.lca_level(a, b));
                let ls = t.lca_switches(s, d);
                assert_eq!(ls.len(), cb42.lca_switches(a, b).len());
                if t.lca_level(s, d) == 1 {
                    assert_eq!(ls, vec![2 * c, 2 * c + 1]);
                }
            }
        }
    }
    // Across clusters: level 2 (same top digit) has u_0·u_1 = 4 LCA switches, level 3 has
    // u_0·u_1·u_2 = 16 (002 Lemma 2 level by level): the CB-LCAN(4,4) part.
    assert_eq!(t.lca_level(0, 16), 2);
    assert_eq!(t.lca_switches(0, 16), vec![0, 1, 2, 3]);
    assert_eq!(t.lca_level(0, 64), 3);
    assert_eq!(t.lca_switches(0, 64).len(), 16);
    // A cluster's four up-links (two level-1 switches × u_1 = 2) go to four different
    // copies of the upper part: level-2 switches whose low digits are (w0, k).
    let ups: Vec<(usize, usize)> = (0..2)
        .flat_map(|s| (0..2).map(move |k| (s, k)))
        .map(|(s, k)| t.up_link(1, s, k).unwrap())
        .collect();
    assert_eq!(ups, vec![(0, 0), (1, 0), (2, 0), (3, 0)]);
    brute::check_queries(&Topology::complete_bipartite_per_level(&[4, 4, 4], &[2, 2, 4]).unwrap());
}

/// Leiserson's binary fat-tree with capacities doubling toward the root, as a per-level
/// T-LCAN: `d_i = u_i = 2^(i+1)`; capped at 4 it thins 2:1 above the cap.
#[test]
fn fat_trees_are_per_level_trees() {
    let t = Topology::tree_per_level(&[2, 4, 8, 16], &[2, 4, 8, 16]).unwrap();
    assert_eq!(t.n(), 16);
    assert_eq!(t.switches_per_level(), &[8, 4, 2, 1]);
    assert_eq!(t.label_radices().unwrap(), vec![2, 2, 2, 2]);
    // Upper j of level-1 switch 3 (a right child): downer 4 + j of level-2 switch 1.
    assert_eq!(t.up_link(1, 3, 2), Some((1, 6)));
    // PE 13 = 1101: at level 3 its child group is digit 3 = 1, the 8 downers 8..15.
    assert_eq!(t.down(3, 0, 13), 0xff00);
    assert_eq!(t.path_count(0, 15), (2u128 * 4 * 8).pow(2));
    let capped = Topology::tree_per_level(&[2, 4, 8, 8, 8], &[2, 4, 4, 4, 4]).unwrap();
    assert_eq!(capped.n(), 32);
    assert_eq!(capped.switches_per_level(), &[16, 8, 4, 2, 1]);
    for t in [&t, &capped] {
        brute::check_queries(t);
    }
}

#[test]
fn invalid_vectors_name_the_level_and_condition() {
    let cases = [
        (
            Topology::tree_per_level(&[4, 6, 2], &[4, 2, 2]),
            "level 1: d_1 = 6 is not a multiple of u_0 = 4 (002 Definition 2, level by level",
        ),
        (
            Topology::complete_bipartite_per_level(&[4, 1], &[2, 2]),
            "d_1 = 1 is out of range 2..=64 (level 1)",
        ),
        (
            Topology::tree_per_level(&[4, 4], &[2, 0]),
            "u_1 = 0 is out of range 1..=64 (level 1)",
        ),
        (
            Topology::complete_bipartite_per_level(&[4, 4, 2], &[2, 2]),
            "the d vector has 3 entries but the u vector has 2",
        ),
        (
            Topology::complete_bipartite_per_level(&[], &[]),
            "levels = 0 is out of range 1..=32",
        ),
        (
            Topology::complete_bipartite_per_level(&[64; 4], &[1; 4]),
            "n = 16777216 exceeds the limit 1048576",
        ),
        (
            Topology::tree_per_level(&[2; 33], &[2; 33]),
            "levels = 33 is out of range 1..=32",
        ),
    ];
    for (i, (r, want)) in cases.into_iter().enumerate() {
        let e = err(r);
        assert!(e.contains(want), "case {i}: '{e}' lacks '{want}'");
    }
}

/// Π files with per-level headers: written and read back, validated level by level.
#[test]
fn pi_files_carry_per_level_sizes() {
    let t = Topology::complete_bipartite_per_level(&[4, 4, 4], &[2, 2, 4]).unwrap();
    let text = t.to_pi_text();
    assert!(
        text.contains("lcan d=4,4,4 u=2,2,4 levels=3 n=64"),
        "{text}"
    );
    let f = Topology::from_pi_text(&text).unwrap();
    assert_eq!((f.ds(), f.us()), (t.ds(), t.us()));
    for s in 0..64 {
        for d in 0..64 {
            assert_eq!(f.lca_switches(s, d), t.lca_switches(s, d));
        }
    }
    let bad = |text: &str| Topology::from_pi_text(text).expect_err(text).to_string();
    for (text, want) in [
        (
            "lcan d=4,4 u=2 levels=3 n=16\n",
            "line 1: d=4,4 has 2 entries but levels = 3",
        ),
        (
            "lcan d=4,x,4 u=2 levels=3 n=16\n",
            "line 1: d=4,x,4: 'x' is not a non-negative integer",
        ),
        (
            "lcan d=4,4,4 u=2,2,0 levels=3 n=64\n",
            "u_2 = 0 is out of range 1..=64 (level 2)",
        ),
        (
            "lcan d=4,6 u=4,4 levels=2 n=16\n",
            "level 1: S_1 = S_0·u_0/d_1 = 16/6 is not an integer (002 eq. (1) level by level",
        ),
        (
            "lcan d=4,4,4 u=2,2,4 levels=3 n=64\nlevel 0\n0.2 -> 0.0\n",
            "line 3: upper 2 of level-0 switch 0 does not exist (S_0 = 16, u = 2)",
        ),
        (
            "lcan d=4,,4 u=2 levels=3 n=64\n",
            "d=4,,4: '' is not a non-negative integer",
        ),
    ] {
        let e = bad(text);
        assert!(e.contains(want), "'{e}' lacks '{want}'");
    }
}

/// Leiserson's `⌈λ(M)⌉` computed directly from the channels of a per-level network (the
/// subtree of every switch of a T-LCAN, the digit block of every group of a CB-LCAN,
/// capacity `u_i` or `∏_{m≤i} u_m`) equals `bounds::lower_bound`.
#[test]
fn lower_bound_is_leiserson_lambda_level_by_level() {
    let nets = [
        Topology::tree_per_level(&[2, 4, 8, 8], &[2, 4, 4, 4]).unwrap(),
        Topology::tree_per_level(&[4, 2, 4], &[1, 2, 1]).unwrap(),
        Topology::complete_bipartite_per_level(&[4, 4, 4], &[2, 2, 4]).unwrap(),
        Topology::complete_bipartite_per_level(&[2, 3, 2], &[1, 3, 2]).unwrap(),
    ];
    for t in &nets {
        for seed in 0..20 {
            let p = Permutation::random(t.n(), &mut seeded(seed));
            let cs = conns(&p.to_partial());
            let mut lambda = 1;
            for i in 0..t.levels() - 1 {
                let block = t.block_size(i).unwrap();
                let cap = match t.kind() {
                    Kind::Tree => t.u_at(i),
                    _ => t.us()[..=i].iter().product(),
                };
                for g in 0..t.n() / block {
                    let out = cs
                        .iter()
                        .filter(|c| c.src / block == g && c.dst / block != g)
                        .count();
                    let inn = cs
                        .iter()
                        .filter(|c| c.dst / block == g && c.src / block != g)
                        .count();
                    lambda = lambda.max(out.max(inn).div_ceil(cap));
                }
            }
            assert_eq!(
                lower_bound(t, &cs, Conflict::Wire).value,
                lambda,
                "{:?} {:?} seed {seed}",
                t.ds(),
                t.us()
            );
        }
    }
    // By hand: d = [4, 4], u = [1, 1] (a 4:1 concentrator below one 4-downer root): all 4
    // PEs of a level-0 switch leave it over its single up-link: 4 passes.
    let t = Topology::tree_per_level(&[4, 4], &[1, 1]).unwrap();
    let p = Permutation::new((0..16).map(|s| (s + 4) % 16).collect()).unwrap();
    assert_eq!(
        lower_bound(&t, &conns(&p.to_partial()), Conflict::Wire).value,
        4
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Random per-level networks: every query equals brute force from the links, the Π
    /// file round trip is the same network, and `∏_{m<h} u_m` LCA switches in a CB-LCAN.
    #[test]
    fn random_per_level_networks_satisfy_the_definitions(seed: u64, l in 2usize..5) {
        let t = random_per_level(seed, l);
        prop_assume!(t.n() <= 96);
        brute::check_queries(&t);
        let f = Topology::from_pi_text(&t.to_pi_text()).unwrap();
        brute::check_queries(&f);
        for level in 0..l - 1 {
            prop_assert_eq!(t.switch_count(level + 1) * t.d_at(level + 1), t.switch_count(level) * t.u_at(level));
        }
        for s in 0..t.n() {
            for d in 0..t.n() {
                prop_assert_eq!(t.lca_switches(s, d), f.lca_switches(s, d));
                prop_assert_eq!(t.path_count(s, d), f.path_count(s, d));
                if t.kind() == Kind::CompleteBipartite {
                    let h = t.lca_level(s, d);
                    prop_assert_eq!(t.lca_switches(s, d).len(), t.us()[..h].iter().product::<usize>());
                }
            }
        }
    }
}

/// The diagram draws each level's switches with their own ports and every link once.
#[test]
fn diagram_has_per_level_ports() {
    use crate::lcan::dot::to_dot;
    let t = Topology::tree_per_level(&[2, 4, 8], &[2, 4, 8]).unwrap();
    let dot = to_dot(&t, "fat-tree").unwrap();
    assert_eq!(dot.matches(":n;").count(), t.links() + t.n());
    assert!(dot.contains("L0S0 [label=\"{{<u0>u0|<u1>u1}|level 0 switch 0|{<d0>d0|<d1>d1}}\"]"));
    assert!(
        dot.contains("level 2 switch 0|{<d0>d0|<d1>d1|<d2>d2|<d3>d3|<d4>d4|<d5>d5|<d6>d6|<d7>d7}")
    );
    // Upper 3 of level-1 switch 1 (the right child) is downer 4 + 3 of the root.
    assert!(dot.contains("L2S0:d7:s -> L1S1:u3:n;"), "{dot}");
}
