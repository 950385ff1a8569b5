//! R3 against the references: every schedule validated independently (`validate`), never
//! below the lower bound nor above R1; one pass on every CB-LCAN with `u ≥ d` (checked
//! first against the exact optimum); equal to the exact optimum on small samples.

use super::rearrangeable;
use crate::lcan::arbiter::Policy;
use crate::lcan::bounds::lower_bound;
use crate::lcan::optimal::{optimal, Outcome};
use crate::lcan::routing::{route, Algorithm, Config, Conflict, Schedule};
use crate::lcan::tests::{any_topology, conns, some_permutation};
use crate::lcan::validate::validate;
use crate::lcan::workload::{random_partial, worst_case};
use crate::lcan::{Size, Topology};
use crate::perm::{PartialPermutation, Permutation};
use crate::rng::seeded;
use proptest::prelude::*;

fn cfg(algorithm: Algorithm, conflict: Conflict, seed: u64) -> Config {
    Config {
        algorithm,
        policy: Policy::RoundRobin,
        conflict,
        seed,
    }
}

/// Routes with R3 and checks the schedule with the validator and the pass fields.
fn r3(topo: &Topology, perm: &PartialPermutation, conflict: Conflict, seed: u64) -> Schedule {
    let s = route(topo, perm, &cfg(Algorithm::R3, conflict, seed)).unwrap();
    validate(topo, perm, &s.pass_lists(), conflict).unwrap();
    for p in &s.passes {
        assert!(!p.delivered.is_empty());
        assert_eq!(p.steps, 0);
        assert_eq!(p.attempted, p.delivered.len());
        let srcs: Vec<usize> = p.delivered.iter().map(|c| c.src).collect();
        assert_eq!(p.senders, srcs);
        let h = p.delivered.iter().map(|c| c.lca_level).max().unwrap();
        assert_eq!(p.top_level, h);
        // Every wire of a delivered path leaves or enters a switch through a closed
        // crosspoint: as many closed crosspoints as switch visits.
        let closed: usize = p.crosspoints.iter().map(|s| s.closed.len()).sum();
        let visits: usize = p.delivered.iter().map(|c| c.wires.len() + 1).sum();
        assert_eq!(closed, visits);
    }
    s
}

/// The premise of the rearrangeable case, checked with the exact optimum (independent of
/// R3): on CB-LCAN(d,d) every sampled permutation needs exactly one pass in the `wire`
/// model, and R3 finds it.
#[test]
fn cb_dd_one_pass_is_the_exact_optimum() {
    let mut rng = seeded(14);
    for (d, l, samples) in [(2, 2, 24), (2, 3, 24), (2, 4, 12), (3, 2, 12), (4, 2, 6)] {
        let topo = Topology::complete_bipartite(d, d, Size::Levels(l)).unwrap();
        for i in 0..samples {
            let perm = if i % 3 == 2 {
                worst_case(&topo, &mut rng).unwrap().to_partial()
            } else {
                Permutation::random(topo.n(), &mut rng).to_partial()
            };
            let Outcome::Found(o) = optimal(&topo, &conns(&perm), Conflict::Wire, 2_000_000, None)
            else {
                panic!("CB({d},{d}) n = {}: optimum not found", topo.n());
            };
            assert_eq!(o.passes, 1, "CB({d},{d}) n = {}: {:?}", topo.n(), perm);
            assert_eq!(r3(&topo, &perm, Conflict::Wire, i).passes.len(), 1);
        }
    }
}

/// Every permutation, exhaustively: CB(2,2) with n = 4 (exact optimum 1, and R3 finds
/// it) and with n = 8 (all 40,320 routed by R3 in one validated pass).
#[test]
fn cb22_every_permutation_of_4_and_8_pes_in_one_pass() {
    fn all_perms(n: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        let mut p: Vec<usize> = (0..n).collect();
        heap(n, &mut p, &mut out);
        out
    }
    fn heap(k: usize, p: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if k <= 1 {
            out.push(p.clone());
            return;
        }
        for i in 0..k {
            heap(k - 1, p, out);
            let j = if k.is_multiple_of(2) { i } else { 0 };
            p.swap(j, k - 1);
        }
    }
    for (l, with_optimum) in [(2, true), (3, false)] {
        let topo = Topology::complete_bipartite(2, 2, Size::Levels(l)).unwrap();
        let perms = all_perms(topo.n());
        assert_eq!(perms.len(), (1..=topo.n()).product::<usize>());
        for dst in perms {
            let perm = Permutation::new(dst).unwrap().to_partial();
            if with_optimum {
                let Outcome::Found(o) =
                    optimal(&topo, &conns(&perm), Conflict::Wire, 200_000, None)
                else {
                    panic!("optimum not found");
                };
                assert_eq!(o.passes, 1);
            }
            let s = route(&topo, &perm, &cfg(Algorithm::R3, Conflict::Wire, 0)).unwrap();
            validate(&topo, &perm, &s.pass_lists(), Conflict::Wire).unwrap();
            assert_eq!(s.passes.len(), 1, "{:?}", perm.as_slice());
        }
    }
}

/// One pass on CB-LCAN(d,u) with u ≥ d for d = 2, 3, 4 over several levels, full and
/// partial permutations, including 002's worst case (everything at the top level).
#[test]
fn cb_with_u_at_least_d_always_one_pass() {
    let mut rng = seeded(3);
    for (d, u, levels) in [
        (2, 2, 1..=8),
        (3, 3, 1..=5),
        (4, 4, 1..=4),
        (2, 3, 1..=5),
        (3, 4, 1..=3),
    ] {
        for l in levels {
            let topo = Topology::complete_bipartite(d, u, Size::Levels(l)).unwrap();
            assert!(rearrangeable(&topo, Conflict::Wire));
            for k in 0..4u64 {
                let perm = match k {
                    0 => Permutation::random(topo.n(), &mut rng).to_partial(),
                    1 => random_partial(topo.n(), 50, &mut rng),
                    2 => worst_case(&topo, &mut rng).unwrap().to_partial(),
                    _ => Permutation::identity(topo.n()).to_partial(),
                };
                let s = r3(&topo, &perm, Conflict::Wire, k);
                let want = usize::from(perm.senders() > 0);
                assert_eq!(s.passes.len(), want, "CB({d},{u}) l = {l} perm kind {k}");
            }
        }
    }
}

/// Per level (002 §2.2): `u_i ≥ d_i` at every level below the top is enough for one pass
/// (the colouring of level `i` needs `u_i` colours for degree `d_i`); the top level's `u`
/// does not matter. The CM-5 shape (`u = 2 < d = 4` at levels 0, 1) is not rearrangeable.
#[test]
fn per_level_cb_with_u_at_least_d_below_the_top_is_one_pass() {
    let mut rng = seeded(5);
    for (ds, us) in [
        (vec![2, 3, 2], vec![2, 3, 2]),
        (vec![2, 2, 3], vec![3, 2, 1]),
        (vec![3, 2, 2, 2], vec![4, 2, 3, 1]),
    ] {
        let topo = Topology::complete_bipartite_per_level(&ds, &us).unwrap();
        assert!(rearrangeable(&topo, Conflict::Wire), "{ds:?} {us:?}");
        for k in 0..6u64 {
            let perm = match k % 3 {
                0 => Permutation::random(topo.n(), &mut rng).to_partial(),
                1 => random_partial(topo.n(), 50, &mut rng),
                _ => worst_case(&topo, &mut rng).unwrap().to_partial(),
            };
            let s = r3(&topo, &perm, Conflict::Wire, k);
            assert_eq!(s.passes.len(), 1, "{ds:?} {us:?} kind {k}");
        }
    }
    let cm5 = Topology::complete_bipartite_per_level(&[4, 4, 4], &[2, 2, 4]).unwrap();
    assert!(!rearrangeable(&cm5, Conflict::Wire));
}

/// An empty permutation has an empty schedule.
#[test]
fn empty_permutation_has_no_pass() {
    for topo in [
        Topology::tree(2, 1, Size::Levels(3)).unwrap(),
        Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap(),
    ] {
        let perm = PartialPermutation::new(vec![None; topo.n()]).unwrap();
        assert!(r3(&topo, &perm, Conflict::Wire, 0).passes.is_empty());
    }
}

/// A permutation of the wrong size is an error, not a panic.
#[test]
fn size_mismatch_is_an_error() {
    let topo = Topology::tree(2, 1, Size::Levels(3)).unwrap();
    let perm = Permutation::identity(4).to_partial();
    let e = route(&topo, &perm, &cfg(Algorithm::R3, Conflict::Wire, 0)).unwrap_err();
    assert!(
        e.to_string().contains("4 PEs but the network has n = 8"),
        "{e}"
    );
}

/// R3 equals the exact optimum on a sample of small networks (n ≤ 16), both models.
#[test]
fn equals_the_exact_optimum_on_small_networks() {
    let nets = [
        Topology::tree(2, 1, Size::Levels(4)).unwrap(),
        Topology::tree(4, 2, Size::Levels(3)).unwrap(),
        Topology::tree(4, 1, Size::Levels(2)).unwrap(),
        Topology::complete_bipartite(4, 2, Size::Levels(2)).unwrap(),
        Topology::complete_bipartite(2, 1, Size::Levels(4)).unwrap(),
        Topology::complete_bipartite(3, 2, Size::Levels(2)).unwrap(),
    ];
    let mut rng = seeded(21);
    for topo in &nets {
        for seed in 0..8u64 {
            let perm = Permutation::random(topo.n(), &mut rng).to_partial();
            for conflict in [Conflict::Wire, Conflict::Switch] {
                let s = r3(topo, &perm, conflict, seed);
                let Outcome::Found(o) = optimal(topo, &conns(&perm), conflict, 2_000_000, None)
                else {
                    panic!("optimum not found");
                };
                assert_eq!(
                    s.passes.len(),
                    o.passes,
                    "{:?} {conflict:?} {:?}",
                    topo.switches_per_level(),
                    perm
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Over random networks and (partial) permutations, both conflict models: the R3
    /// schedule is valid, lower bound ≤ passes ≤ R1's passes; one pass when rearrangeable.
    #[test]
    fn valid_bounded_and_never_worse_than_r1(topo in any_topology(128), seed: u64, kind in 0u32..3) {
        let mut rng = seeded(seed);
        let perm = some_permutation(&topo, kind, &mut rng);
        let cs = conns(&perm);
        for conflict in [Conflict::Wire, Conflict::Switch] {
            let s = r3(&topo, &perm, conflict, seed);
            let lb = lower_bound(&topo, &cs, conflict).value;
            prop_assert!(s.passes.len() >= lb);
            let r1 = route(&topo, &perm, &cfg(Algorithm::R1, conflict, seed)).unwrap();
            prop_assert!(s.passes.len() <= r1.passes.len(), "R3 {} > R1 {}", s.passes.len(), r1.passes.len());
            if rearrangeable(&topo, conflict) {
                prop_assert_eq!(s.passes.len(), usize::from(!cs.is_empty()));
            }
        }
    }
}

/// The network hardware runs R3 (docs/interface.md §11; issue 14 item 2): its parameters
/// are accepted, and one CB(2,2) pass costs what §11.4 says.
#[test]
fn network_hardware_runs_r3() {
    use crate::lcan::cycle::network::NetParams;
    use crate::lcan::cycle::ArbiterPolicy;
    let topo = Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R3, ArbiterPolicy::Fixed, 1, 8).unwrap();
    assert_eq!(np.total_bit_times(&[2]), 8 * 3 + 8 + 3);
}

/// The heuristic refuses, with a reason, a problem whose usage table would not fit.
#[test]
fn too_large_a_problem_is_refused_with_its_size() {
    use super::search::{check_size, MAX_COUNTERS};
    assert!(check_size(MAX_COUNTERS / 1000, 1000).is_ok());
    let e = check_size(MAX_COUNTERS / 1000 + 1, 1000).unwrap_err();
    assert!(
        e.contains("usage counters") && e.contains("r1 or r2"),
        "{e}"
    );
}
