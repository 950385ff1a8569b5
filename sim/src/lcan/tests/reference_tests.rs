//! Global-knowledge references (PIG, exact optimum, lower bound), the worst-case
//! sampler, and the DOT drawing.

use crate::lcan::bounds::lower_bound;
use crate::lcan::dot::to_dot;
use crate::lcan::optimal::{optimal, which_optimum, Outcome};
use crate::lcan::pig::{chromatic_number, pig};
use crate::lcan::routing::Conflict;
use crate::lcan::validate::validate;
use crate::lcan::workload::{top_blocks, worst_case};
use crate::lcan::*;
use crate::perm::Permutation;
use crate::rng::seeded;
use std::collections::HashMap;

fn conns(p: &Permutation) -> Vec<Connection> {
    (0..p.len())
        .map(|s| Connection {
            src: s,
            dst: p.dst(s),
        })
        .collect()
}

fn found(o: Outcome) -> crate::lcan::optimal::Optimum {
    match o {
        Outcome::Found(o) => o,
        Outcome::Unknown { reason, .. } => panic!("optimum unknown: {reason}"),
    }
}

/// With one path per connection the optimum is χ(PIG) (003 §3.1), computed here by an
/// independent plain colouring of the PIG.
#[test]
fn optimum_is_the_chromatic_number_with_unique_paths() {
    for (d, l) in [(2, 3), (2, 4), (4, 2)] {
        let topo = Topology::tree(d, 1, Size::Levels(l)).unwrap();
        for seed in 0..8 {
            let p = Permutation::random(topo.n(), &mut seeded(seed));
            for conflict in [Conflict::Wire, Conflict::Switch] {
                let g = pig(&topo, &conns(&p), conflict).unwrap();
                let o = found(optimal(&topo, &conns(&p), conflict, 5_000_000, None));
                assert_eq!(
                    o.passes,
                    chromatic_number(&g),
                    "T({d},1) l={l} seed={seed} {conflict:?}"
                );
                let sched = o.schedule.expect("found by search");
                validate(&topo, &p.to_partial(), &sched, conflict).unwrap();
            }
        }
    }
    let t = Topology::tree(4, 2, Size::Levels(2)).unwrap();
    assert!(
        pig(&t, &[Connection { src: 0, dst: 7 }], Conflict::Wire).is_err(),
        "4 paths"
    );
    assert!(which_optimum(&t, Conflict::Wire).starts_with("minimum over path choices"));
}

/// A PIG by hand: binary tree, n = 4; 0→2 and 1→3 share the up-wire of level-0 switch 0;
/// 2→0 and 3→1 share the one of switch 1; 0→2 and 2→0 share nothing (opposite wires).
#[test]
fn pig_by_hand() {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let p = Permutation::new(vec![2, 3, 0, 1]).unwrap();
    let g = pig(&topo, &conns(&p), Conflict::Wire).unwrap();
    assert_eq!(g.edges, vec![(0, 1), (2, 3)]);
    assert_eq!(chromatic_number(&g), 2);
    let g = pig(&topo, &conns(&p), Conflict::Switch).unwrap();
    assert_eq!(g.edges.len(), 6, "all four pass through the top switch");
}

/// CB-LCAN(2,2) through its top level is a folded Beneš network, which is rearrangeable:
/// every worst-case permutation of 8 PEs takes exactly one pass with global knowledge.
#[test]
fn worst_case_on_cb22_is_one_pass_with_global_knowledge() {
    let topo = Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap();
    for seed in 0..6 {
        let p = worst_case(&topo, &mut seeded(seed)).unwrap();
        assert!((0..8).all(|s| topo.lca_level(s, p.dst(s)) == 2));
        assert_eq!(lower_bound(&topo, &conns(&p), Conflict::Wire).value, 1);
        let o = found(optimal(&topo, &conns(&p), Conflict::Wire, 1_000_000, None));
        assert_eq!(o.passes, 1);
        validate(&topo, &p.to_partial(), &o.schedule.unwrap(), Conflict::Wire).unwrap();
    }
}

#[test]
fn lower_bounds_by_hand() {
    // Binary tree, n = 8, worst case: 4 connections leave each half over one up-link.
    let t = Topology::tree(2, 1, Size::Levels(3)).unwrap();
    let p = Permutation::new(vec![4, 5, 6, 7, 0, 1, 2, 3]).unwrap();
    assert_eq!(lower_bound(&t, &conns(&p), Conflict::Wire).value, 4);
    // T-LCAN(4,2), n = 16: the same shift has 8 leaving each half over u = 2 links.
    let t = Topology::tree(4, 2, Size::Levels(3)).unwrap();
    let p = Permutation::new((0..16).map(|s| (s + 8) % 16).collect()).unwrap();
    assert_eq!(lower_bound(&t, &conns(&p), Conflict::Wire).value, 4);
    // Identity: 1; switch model: d connections end on each level-0 switch.
    let id = Permutation::identity(16);
    assert_eq!(lower_bound(&t, &conns(&id), Conflict::Wire).value, 1);
    assert_eq!(lower_bound(&t, &conns(&id), Conflict::Switch).value, 4);
    // CB-LCAN(2,2), n = 8, shift by 1: groups of 2 PEs under one switch have cap 2.
    let c = Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap();
    let p = Permutation::new((0..8).map(|s| (s + 2) % 8).collect()).unwrap();
    assert_eq!(lower_bound(&c, &conns(&p), Conflict::Wire).value, 1);
    // The Π-file version of a network has the same bound.
    let f = Topology::from_pi_text(&t.to_pi_text()).unwrap();
    for seed in 0..5 {
        let p = Permutation::random(16, &mut seeded(seed));
        assert_eq!(
            lower_bound(&f, &conns(&p), Conflict::Wire),
            lower_bound(&t, &conns(&p), Conflict::Wire)
        );
    }
}

#[test]
fn optimum_reports_budget_and_size_limits() {
    let big = Topology::tree(2, 1, Size::Levels(6)).unwrap();
    let p = Permutation::random(64, &mut seeded(1));
    match optimal(&big, &conns(&p), Conflict::Wire, 1000, None) {
        Outcome::Unknown { reason, .. } => assert!(reason.contains("n ≤ 32 (n = 64)"), "{reason}"),
        Outcome::Found(_) => panic!("n = 64 must not be searched"),
    }
    let t = Topology::complete_bipartite(2, 2, Size::Levels(5)).unwrap();
    let p = Permutation::random(32, &mut seeded(2));
    match optimal(&t, &conns(&p), Conflict::Wire, 3, None) {
        Outcome::Unknown { reason, .. } => {
            assert!(reason.contains("budget of 3 nodes"), "{reason}")
        }
        Outcome::Found(o) => assert!(o.nodes <= 3),
    }
}

/// With two top blocks the sampler is uniform: T-LCAN(2,1), n = 4 has 4 worst-case
/// permutations ({0,1} → {2,3} and back, 2 ways each); 4000 samples land ~1000 on each.
#[test]
fn worst_case_is_uniform_with_two_blocks() {
    let t = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let mut rng = seeded(5);
    let mut count: HashMap<Vec<usize>, usize> = HashMap::new();
    for _ in 0..4000 {
        *count
            .entry(worst_case(&t, &mut rng).unwrap().as_slice().to_vec())
            .or_default() += 1;
    }
    assert_eq!(count.len(), 4);
    assert!(
        count.values().all(|&c| (850..1150).contains(&c)),
        "{count:?}"
    );
    // More blocks: still every connection at level l-1.
    let t = Topology::tree(4, 1, Size::Levels(3)).unwrap();
    for seed in 0..20 {
        let p = worst_case(&t, &mut seeded(seed)).unwrap();
        assert!((0..t.n()).all(|s| t.lca_level(s, p.dst(s)) == 2));
    }
    assert_eq!(top_blocks(&t).unwrap()[17], 1);
    let e = worst_case(&Topology::tree(2, 2, Size::Levels(3)).unwrap(), &mut rng).unwrap_err();
    assert!(e.to_string().contains("more than half"), "{e}");
}

#[test]
fn dot_draws_every_switch_and_link() {
    let t = Topology::tree(4, 2, Size::Levels(2)).unwrap();
    let dot = to_dot(&t, "T-LCAN(4,2)").unwrap();
    assert!(dot.starts_with("digraph lcan {"));
    assert_eq!(dot.matches(":n;").count(), t.links() + t.n());
    assert!(dot.contains("L1S0:d3:s -> L0S1:u1:n;"));
    assert!(dot.contains("L0S1:d3:s -> PE7:n;"));
    assert!(dot.contains("level 1 switch 0|{<d0>d0|<d1>d1|<d2>d2|<d3>d3}"));
    let big = Topology::tree(2, 1, Size::Levels(10)).unwrap();
    assert!(to_dot(&big, "x")
        .unwrap_err()
        .to_string()
        .contains("n = 1024 PEs is too many"));
}

/// The CB-LCAN digit symmetry breaking never changes the optimum.
#[test]
fn symmetry_breaking_keeps_the_optimum() {
    use crate::lcan::optimal::optimal_with;
    use crate::lcan::workload::random_partial;
    let mut compared = 0;
    for (d, u, l) in [(2, 2, 3), (2, 2, 4), (3, 2, 2), (2, 3, 3)] {
        let topo = Topology::complete_bipartite(d, u, Size::Levels(l)).unwrap();
        for seed in 0..6 {
            let mut rng = seeded(seed);
            let perm = if seed % 2 == 0 {
                Permutation::random(topo.n(), &mut rng).to_partial()
            } else {
                random_partial(topo.n(), 70, &mut rng)
            };
            let cs: Vec<Connection> = perm
                .pairs()
                .map(|(src, dst)| Connection { src, dst })
                .collect();
            for conflict in [Conflict::Wire, Conflict::Switch] {
                let a = found(optimal_with(&topo, &cs, conflict, 2_000_000, None, true));
                validate(&topo, &perm, &a.schedule.unwrap(), conflict).unwrap();
                // Without symmetry breaking some proofs exceed the budget; compare the rest.
                if let Outcome::Found(b) =
                    optimal_with(&topo, &cs, conflict, 2_000_000, None, false)
                {
                    assert_eq!(
                        a.passes, b.passes,
                        "CB({d},{u}) l={l} seed={seed} {conflict:?}"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 36, "only {compared} of 48 compared");
}
