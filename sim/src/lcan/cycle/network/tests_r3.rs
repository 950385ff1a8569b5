//! Tests of R3 in the network model (`docs/interface.md` §11): every connection delivered
//! exactly once, checked against the permutation; the bit-time formula; the crosspoints
//! equal to the schedule's paths; the quiet fast path; bad loads.

use super::*;
use crate::lcan::cycle::ArbiterPolicy;
use crate::lcan::routing::{route, Algorithm, Config, Conflict};
use crate::lcan::workload::worst_case;
use crate::lcan::{Size, Topology};
use crate::perm::{PartialPermutation, Permutation};
use crate::rng::seeded;

const BUDGET: u64 = 1_000_000;

/// Runs R3 on `perm` and checks the run against the permutation itself.
pub(super) fn check_r3(
    topo: &Topology,
    w: usize,
    m: usize,
    perm: &PartialPermutation,
    seed: u64,
) -> NetRun {
    let np = NetParams::new(topo, Algorithm::R3, ArbiterPolicy::Fixed, w, m).unwrap();
    let n = topo.n();
    let dst: Vec<Option<usize>> = perm.as_slice().to_vec();
    let msg = seeded_messages(n, m, seed);
    let mut model = NetworkModel::new(topo, &np, &dst, &msg, seed).unwrap();
    let load = model.r3_load().unwrap().clone();
    let run = model.run_to_done(BUDGET).unwrap();
    let ctx = format!("{:?} w={w} m={m} seed={seed} perm={perm:?}", topo.kind());
    assert!(!run.error, "{ctx}");
    // Against the permutation: each active PE's message arrives once, at its destination.
    let mut seen = vec![0usize; n];
    for (k, p) in run.passes.iter().enumerate() {
        for &(s, t) in &p.delivered {
            seen[s] += 1;
            assert_eq!(Some(t), dst[s], "{ctx}: {s} delivered to {t}");
            assert_eq!(load.pass[s], k, "{ctx}: {s} in pass {k}");
            assert_eq!(run.received[t], (true, msg[s]), "{ctx}: message {s}->{t}");
        }
    }
    for s in 0..n {
        assert_eq!(seen[s], usize::from(dst[s].is_some()), "{ctx}: PE {s}");
        let is_dst = dst.contains(&Some(s));
        assert_eq!(run.received[s].0, is_dst, "{ctx}: valid_{s}");
    }
    // The crosspoints are exactly the schedule's paths; the pass count its passes.
    let cfg = Config {
        algorithm: Algorithm::R3,
        policy: crate::lcan::arbiter::Policy::Fixed,
        conflict: Conflict::Wire,
        seed,
    };
    let sched = route(topo, perm, &cfg).unwrap();
    assert_eq!(run.passes.len(), sched.passes.len(), "{ctx}: passes");
    for (k, (mp, sp)) in run.passes.iter().zip(&sched.passes).enumerate() {
        assert_eq!(
            mp.crosspoints, sp.crosspoints,
            "{ctx}: pass {k} crosspoints"
        );
        assert_eq!(mp.top_level, sp.top_level, "{ctx}: pass {k} H");
    }
    let tops: Vec<usize> = run.passes.iter().map(|p| p.top_level).collect();
    assert_eq!(run.bit_times as usize, np.total_bit_times(&tops), "{ctx}");
    assert_eq!(run.done_at, 2 + run.bit_times, "{ctx}: done_at");
    run
}

fn perms(topo: &Topology, seed: u64) -> Vec<PartialPermutation> {
    let n = topo.n();
    let mut rng = seeded(seed);
    let mut v = vec![
        Permutation::identity(n).to_partial(),
        Permutation::random(n, &mut rng).to_partial(),
        Permutation::random(n, &mut rng).to_partial(),
    ];
    if let Ok(w) = worst_case(topo, &mut rng) {
        v.push(w.to_partial());
    }
    let mut half = Permutation::random(n, &mut rng).as_slice().to_vec();
    let partial: Vec<Option<usize>> = half
        .drain(..)
        .enumerate()
        .map(|(i, d)| (i % 3 != 1).then_some(d))
        .collect();
    v.push(PartialPermutation::new(partial).unwrap());
    v
}

#[test]
fn r3_delivers_every_connection_once_on_every_kind() {
    let cb = Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap();
    let topos = [
        Topology::tree(2, 1, Size::Levels(3)).unwrap(),
        Topology::tree(4, 2, Size::Levels(2)).unwrap(),
        cb.clone(),
        Topology::complete_bipartite(3, 2, Size::Levels(2)).unwrap(),
        Topology::from_pi_text(&cb.to_pi_text()).unwrap(),
    ];
    for (i, topo) in topos.iter().enumerate() {
        for (w, m) in [(1, 4), (2, 5), (3, 8)] {
            for perm in perms(topo, 40 + i as u64) {
                check_r3(topo, w, m, &perm, 5 + i as u64);
            }
        }
    }
}

/// docs/interface.md §11.4: one pass, 8l + M + 3 bit-times on CB-LCAN(2,2), W = 1.
#[test]
fn cb22_costs_one_pass_of_8l_plus_m_plus_3() {
    for l in [4, 6, 8] {
        let topo = Topology::complete_bipartite(2, 2, Size::Levels(l)).unwrap();
        let mut rng = seeded(l as u64);
        for seed in 0..3 {
            let perm = Permutation::random(topo.n(), &mut rng).to_partial();
            let run = check_r3(&topo, 1, 8, &perm, seed);
            assert_eq!(run.passes.len(), 1);
            assert_eq!(run.bit_times as usize, 8 * l + 8 + 3, "l = {l}");
        }
    }
}

#[test]
fn r3_quiet_fast_path_changes_nothing() {
    let topo = Topology::tree(2, 1, Size::Levels(3)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R3, ArbiterPolicy::Fixed, 2, 5).unwrap();
    let p = Permutation::random(8, &mut seeded(3));
    let dst: Vec<Option<usize>> = p.as_slice().iter().map(|&d| Some(d)).collect();
    let msg: Vec<u64> = (0..8u64).map(|i| (i * 7) & 31).collect();
    let mut fast = NetworkModel::new(&topo, &np, &dst, &msg, 3).unwrap();
    let mut full = fast.clone().without_fast_path();
    while !fast.outputs().done || fast.bit_time() < 2 {
        assert_eq!(
            fast.outputs(),
            full.outputs(),
            "bit-time {}",
            fast.bit_time()
        );
        assert_eq!(
            fast.switches(),
            full.switches(),
            "bit-time {}",
            fast.bit_time()
        );
        fast.step().unwrap();
        full.step().unwrap();
    }
}

/// A host may load any schedule: a wrong route delivers elsewhere or nowhere, never to two
/// PEs, and the run still ends; loads that do not fit the ports are refused.
#[test]
fn bad_loads_are_followed_or_refused() {
    let topo = Topology::complete_bipartite(2, 2, Size::Levels(2)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R3, ArbiterPolicy::Fixed, 1, 4).unwrap();
    let dst = [Some(1), Some(0), Some(3), Some(2)];
    let msg = [1, 2, 3, 4];
    let model = NetworkModel::new(&topo, &np, &dst, &msg, 1).unwrap();
    let mut load = model.r3_load().unwrap().clone();
    // PE 0 (h = 0): route it to C(0), i.e. back to itself; PE 1 keeps C(0) too: a tie
    // at the same edge, won by the lower input A(0).
    load.route[0] = vec![0];
    let mut m = model.clone().with_r3_load(load.clone()).unwrap();
    let run = m.run_to_done(BUDGET).unwrap();
    assert_eq!(run.received[0], (true, 1), "PE 0 reached itself");
    assert!(run.passes[0].delivered.contains(&(0, 1)));
    assert!(!run
        .passes
        .iter()
        .any(|p| p.delivered.iter().any(|&(s, _)| s == 1)));
    assert!(m.switches()[0].guard_rejections() > 0);
    let mut bad = model.r3_load().unwrap().clone();
    bad.route[0] = vec![0; 4];
    let e = model.clone().with_r3_load(bad).unwrap_err();
    assert!(e.to_string().contains("at most 3 fields"), "{e}");
    let mut bad = model.r3_load().unwrap().clone();
    bad.npass = 8;
    let e = model.clone().with_r3_load(bad).unwrap_err();
    assert!(e.to_string().contains("npass 3 bits"), "{e}");
}

#[test]
fn r3_parameters() {
    let topo = Topology::complete_bipartite(2, 2, Size::Levels(8)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R3, ArbiterPolicy::Random, 1, 8).unwrap();
    assert_eq!(np.policy(), ArbiterPolicy::Fixed, "no arbiter, no seed");
    assert_eq!((np.route_field_bits(), np.field_bit_times()), (2, 2));
    assert_eq!((np.route_bits(), np.pass_bits(), np.nf), (30, 8, 9));
    assert_eq!(np.pe_tx_bits(), 1 + 15 * 2 + 8);
    assert_eq!(np.total_bit_times(&[7]), 75);
    let names: Vec<String> = ports::input_ports(&np)
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(
        names,
        ["reset", "start", "act", "dst", "msg", "pass", "route", "npass"]
    );
    let deep = Topology::complete_bipartite(2, 2, Size::Levels(12)).unwrap();
    let e = NetParams::new(&deep, Algorithm::R3, ArbiterPolicy::Fixed, 16, 64).unwrap_err();
    assert!(e.to_string().contains("would be 448 bits"), "{e}");
    assert!(e.to_string().contains("more than the supported 256"), "{e}");
}
