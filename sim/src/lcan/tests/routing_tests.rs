//! R1 and R2: hand-traced cases, validity of every schedule (property tests), identity,
//! 003 Lemma 1, and the relations lower bound ≤ optimum ≤ passes.

use super::{any_topology, conns, some_permutation};
use crate::lcan::arbiter::Policy;
use crate::lcan::bounds::lower_bound;
use crate::lcan::optimal::{optimal, Outcome};
use crate::lcan::routing::{route, Algorithm, Config, Conflict, Port};
use crate::lcan::validate::validate;
use crate::lcan::workload::worst_case;
use crate::lcan::*;
use crate::perm::{PartialPermutation, Permutation};
use crate::rng::seeded;
use proptest::prelude::*;

const POLICIES: [Policy; 3] = [Policy::Fixed, Policy::RoundRobin, Policy::Random];

fn cfg(algorithm: Algorithm, policy: Policy, conflict: Conflict, seed: u64) -> Config {
    Config {
        algorithm,
        policy,
        conflict,
        seed,
    }
}

fn w(dir: Dir, level: usize, switch: usize, upper: usize) -> Wire {
    Wire {
        dir,
        level,
        switch,
        upper,
    }
}

/// The 8-PE binary tree, traced by hand (fixed priority).
///
/// Permutation 0→4, 1→5, 2→3, 3→2, 4→0, 5→1, 6→7, 7→6. LCA levels: 2 for PEs 0, 1, 4, 5;
/// 0 for PEs 2, 3, 6, 7. Pass 1, H = 2:
/// - Phase 1, step 0: level-2 packets enter. Level-0 switch 0 gets PE 0 on A(0), PE 1 on
///   A(1); fixed priority serves r = 0 first and u = 1: PE 0 takes upper 0, PE 1 loses.
///   Likewise PE 4 wins over PE 5 at switch 2. Step 1: both winners climb through
///   level-1 switches 0 and 1 (alone there). Step 2: level-0 packets enter and are
///   waiting winners at once (PE 2 on A(0), PE 3 on A(1) of switch 1; PEs 6, 7 at
///   switch 3); PE 0 reaches the top on A(0), PE 4 on A(1): waiting winners.
/// - Phase 2, step 3 (level 2): winners PE 0 (r = u+0 = 1) then PE 4 (r = 2). PE 0 needs
///   A(0) (its source side) and C(1): closes A(0)→C(1); PE 4 closes A(1)→C(0).
/// - Step 4 (level 1): switch 0 gets S(0→4) and D(4→0) on B(0): keys (0,0) < (0,4);
///   S takes A(0) (closes A(0)→D(0)), D takes C(0) (closes B(0)→C(0)). Same at switch 1.
/// - Step 5 (level 0): claims reach PEs 0 and 4 (S) and 4 and 0 (D); the level-0 winners
///   close A(0)→C(1) and A(1)→C(0) at switches 1 and 3.
/// - Phase 3: all six complete. Pass 2 routes 1→5 and 5→1 the same way. Two passes of
///   2H+2 = 6 steps; the lower bound (two connections leave level-0 switch 0, u = 1) is 2.
#[test]
fn r1_binary_tree_traced_by_hand() {
    let topo = Topology::tree(2, 1, Size::Levels(3)).unwrap();
    let perm = Permutation::new(vec![4, 5, 3, 2, 0, 1, 7, 6])
        .unwrap()
        .to_partial();
    let s = route(
        &topo,
        &perm,
        &cfg(Algorithm::R1, Policy::Fixed, Conflict::Wire, 0),
    )
    .unwrap();
    assert_eq!(s.passes.len(), 2);
    assert_eq!(s.steps(), 12);
    let p1: Vec<(usize, usize)> = s.passes[0]
        .delivered
        .iter()
        .map(|c| (c.src, c.dst))
        .collect();
    assert_eq!(p1, vec![(0, 4), (2, 3), (3, 2), (4, 0), (6, 7), (7, 6)]);
    let c0 = &s.passes[0].delivered[0];
    assert_eq!(c0.lca_level, 2);
    assert_eq!(
        c0.wires,
        vec![
            w(Dir::Up, 0, 0, 0),
            w(Dir::Up, 1, 0, 0),
            w(Dir::Down, 1, 1, 0),
            w(Dir::Down, 0, 2, 0)
        ]
    );
    assert!(s.passes[0].delivered[1].wires.is_empty());
    let xp = |g: usize| {
        s.passes[0]
            .crosspoints
            .iter()
            .find(|x| x.global == g)
            .map(|x| x.closed.clone())
            .unwrap_or_default()
    };
    // Global indices: level-0 switches 0..4, level-1 switches 4, 5, top 6.
    assert_eq!(
        xp(6),
        vec![(Port::A(0), Port::C(1)), (Port::A(1), Port::C(0))]
    );
    assert_eq!(
        xp(4),
        vec![(Port::A(0), Port::D(0)), (Port::B(0), Port::C(0))]
    );
    assert_eq!(
        xp(1),
        vec![(Port::A(0), Port::C(1)), (Port::A(1), Port::C(0))]
    );
    assert_eq!(
        xp(0),
        vec![(Port::A(0), Port::D(0)), (Port::B(0), Port::C(0))]
    );
    let p2: Vec<(usize, usize)> = s.passes[1]
        .delivered
        .iter()
        .map(|c| (c.src, c.dst))
        .collect();
    assert_eq!(p2, vec![(1, 5), (5, 1)]);
    assert_eq!(lower_bound(&topo, &conns(&perm), Conflict::Wire).value, 2);
    validate(&topo, &perm, &s.pass_lists(), Conflict::Wire).unwrap();
}

#[test]
fn identity_takes_one_pass_everywhere() {
    let nets = [
        Topology::tree(2, 1, Size::Levels(4)).unwrap(),
        Topology::tree(4, 2, Size::Levels(3)).unwrap(),
        Topology::complete_bipartite(2, 2, Size::Levels(4)).unwrap(),
        Topology::complete_bipartite(3, 2, Size::Levels(2)).unwrap(),
    ];
    for topo in &nets {
        let perm = Permutation::identity(topo.n()).to_partial();
        for alg in [Algorithm::R1, Algorithm::R2] {
            for conflict in [Conflict::Wire, Conflict::Switch] {
                let s = route(topo, &perm, &cfg(alg, Policy::RoundRobin, conflict, 1)).unwrap();
                validate(topo, &perm, &s.pass_lists(), conflict).unwrap();
                let expect = if conflict == Conflict::Wire {
                    1
                } else {
                    topo.d_at(0)
                };
                assert_eq!(s.passes.len(), expect, "{alg:?} {conflict:?}");
                assert_eq!(s.passes[0].steps, 2);
            }
        }
    }
}

/// 003 Lemma 1: on connections sharing one LCA level, R1 uses the minimum number of
/// passes, which is the per-group bound (T-LCANs with d/u = 2).
#[test]
fn r1_is_optimal_on_one_lca_level() {
    for (d, u, l) in [(2, 1, 4), (4, 2, 3), (2, 1, 5), (4, 2, 4), (6, 3, 3)] {
        let topo = Topology::tree(d, u, Size::Levels(l)).unwrap();
        for seed in 0..12u64 {
            let mut rng = seeded(seed);
            let full = Permutation::random(topo.n(), &mut rng);
            for h in 0..l {
                let dst = (0..topo.n())
                    .map(|p| (topo.lca_level(p, full.dst(p)) == h).then(|| full.dst(p)))
                    .collect();
                let perm = PartialPermutation::new(dst).unwrap();
                if perm.senders() == 0 {
                    continue;
                }
                for policy in POLICIES {
                    let s = route(
                        &topo,
                        &perm,
                        &cfg(Algorithm::R1, policy, Conflict::Wire, seed),
                    )
                    .unwrap();
                    validate(&topo, &perm, &s.pass_lists(), Conflict::Wire).unwrap();
                    let lb = lower_bound(&topo, &conns(&perm), Conflict::Wire).value;
                    assert_eq!(
                        s.passes.len(),
                        lb,
                        "T({d},{u}) l={l} h={h} seed={seed} {policy:?}"
                    );
                }
                if topo.n() <= 16 {
                    let Outcome::Found(opt) =
                        optimal(&topo, &conns(&perm), Conflict::Wire, 1_000_000, None)
                    else {
                        panic!("optimum not found");
                    };
                    let lb = lower_bound(&topo, &conns(&perm), Conflict::Wire).value;
                    assert_eq!(
                        opt.passes, lb,
                        "the minimum of 003 Lemma 1 is the group bound"
                    );
                }
            }
            let wc = worst_case(&topo, &mut rng).unwrap().to_partial();
            let s = route(
                &topo,
                &wc,
                &cfg(Algorithm::R1, Policy::Random, Conflict::Wire, seed),
            )
            .unwrap();
            assert_eq!(
                s.passes.len(),
                lower_bound(&topo, &conns(&wc), Conflict::Wire).value
            );
            if topo.n() <= 16 {
                let Outcome::Found(opt) =
                    optimal(&topo, &conns(&wc), Conflict::Wire, 1_000_000, None)
                else {
                    panic!("optimum not found");
                };
                assert_eq!(opt.passes, s.passes.len());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every schedule of R1 and R2 passes the validator, under every policy and model;
    /// passes ≥ lower bound, and for n ≤ 16 lower bound ≤ optimum ≤ passes.
    #[test]
    fn every_schedule_is_valid(topo in any_topology(64), seed: u64, partial in 0u32..3) {
        let mut rng = seeded(seed);
        let perm = some_permutation(&topo, partial, &mut rng);
        let cs = conns(&perm);
        for conflict in [Conflict::Wire, Conflict::Switch] {
            let lb = lower_bound(&topo, &cs, conflict).value;
            for alg in [Algorithm::R1, Algorithm::R2] {
                for policy in POLICIES {
                    let s = route(&topo, &perm, &cfg(alg, policy, conflict, seed)).unwrap();
                    validate(&topo, &perm, &s.pass_lists(), conflict).unwrap();
                    prop_assert!(s.passes.len() >= lb);
                    for p in &s.passes {
                        prop_assert_eq!(p.steps, 2 * p.top_level + 2);
                    }
                    if topo.n() <= 16 {
                        match optimal(&topo, &cs, conflict, 200_000, None) {
                            Outcome::Found(o) => {
                                prop_assert!(o.passes >= lb && o.passes <= s.passes.len());
                                if let Some(sched) = &o.schedule {
                                    validate(&topo, &perm, sched, conflict).unwrap();
                                    prop_assert_eq!(sched.len(), o.passes);
                                }
                            }
                            Outcome::Unknown { lower, .. } => prop_assert!(lower <= s.passes.len()),
                        }
                    }
                }
            }
        }
    }
}

/// R2 on the binary tree with n = 4, permutation 0→2, 1→3, 2→0, 3→1, fixed priority,
/// traced by hand. Pass 1, step 1 (level 0): at switch 0 PE 0 (A(0), r = 0) takes the
/// only upper, PE 1 dies; at switch 1 PE 2 wins over PE 3. Step 2 (top): both turn; DOWN
/// requesters r = u + x: PE 0 (r = 1) takes C(1), PE 2 (r = 2) takes C(0). Step 3: each
/// descends on B(0) and takes C(0) of the other level-0 switch. Pass 2 routes 1→3, 3→1.
#[test]
fn r2_small_tree_traced_by_hand() {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let perm = Permutation::new(vec![2, 3, 0, 1]).unwrap().to_partial();
    let s = route(
        &topo,
        &perm,
        &cfg(Algorithm::R2, Policy::Fixed, Conflict::Wire, 0),
    )
    .unwrap();
    let pairs: Vec<Vec<(usize, usize)>> = s
        .passes
        .iter()
        .map(|p| p.delivered.iter().map(|c| (c.src, c.dst)).collect())
        .collect();
    assert_eq!(pairs, vec![vec![(0, 2), (2, 0)], vec![(1, 3), (3, 1)]]);
    let p1 = &s.passes[0].crosspoints;
    assert_eq!(
        p1[0].closed,
        vec![(Port::A(0), Port::D(0)), (Port::B(0), Port::C(0))]
    );
    assert_eq!(p1[2].global, 2);
    assert_eq!(
        p1[2].closed,
        vec![(Port::A(0), Port::C(1)), (Port::A(1), Port::C(0))]
    );
    // PE 1's probe died at step 1: it closed nothing.
    assert!(!p1[0].closed.contains(&(Port::A(1), Port::D(0))));
}

/// The case that deadlocks a literal reading of docs/routing.md §5 for R2 (binary tree,
/// n = 4, 3 2 1 0): with priority preemption each pass delivers the smallest key, and the
/// 4 passes equal the switch-model bound (4 connections end on level-0 switch 0).
#[test]
fn r2_switch_model_preemption_makes_progress() {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let perm = Permutation::new(vec![3, 2, 1, 0]).unwrap().to_partial();
    let s = route(
        &topo,
        &perm,
        &cfg(Algorithm::R2, Policy::Fixed, Conflict::Switch, 0),
    )
    .unwrap();
    let pairs: Vec<Vec<(usize, usize)>> = s
        .passes
        .iter()
        .map(|p| p.delivered.iter().map(|c| (c.src, c.dst)).collect())
        .collect();
    assert_eq!(
        pairs,
        vec![vec![(0, 3)], vec![(1, 2)], vec![(2, 1)], vec![(3, 0)]]
    );
    validate(&topo, &perm, &s.pass_lists(), Conflict::Switch).unwrap();
    assert_eq!(lower_bound(&topo, &conns(&perm), Conflict::Switch).value, 4);
}

#[test]
fn wires_serialize_as_in_the_spec() {
    let w = Wire {
        dir: Dir::Down,
        level: 1,
        switch: 2,
        upper: 0,
    };
    assert_eq!(serde_json::to_string(&w).unwrap(), r#"["down",1,2,0]"#);
    assert_eq!(serde_json::to_string(&Port::C(3)).unwrap(), r#"["C",3]"#);
}
