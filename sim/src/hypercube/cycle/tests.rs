//! Tests of the cycle-level model against the algorithm-level models and the timing
//! contract.

use super::*;
use crate::hypercube::alg2::route_full;
use crate::hypercube::generate::{random_packing, random_semi_contraction};
use crate::perm::Permutation;
use crate::rng::seeded;
use proptest::prelude::*;
use rand::Rng;

fn payloads(n: usize, l: usize, seed: u64) -> Vec<u64> {
    let mut rng = seeded(seed);
    (0..n).map(|_| rng.gen_range(0..1u64 << l)).collect()
}

fn check_semi_clean(k: usize, l: usize, r: &PartialPermutation, pay: &[u64]) {
    let p = CubeParams::new(k, l).unwrap();
    let tr = simulate(p, Algorithm::Semi, r, pay).unwrap();
    let total = tr.total;
    assert_eq!(total, (2 * k + l + 2) as u64, "k + (k + L) + 2 bit times");
    assert_eq!(tr.collisions().count(), 0);
    for (s, d) in r.pairs() {
        assert_eq!(tr.placement[d], Some((d, pay[s])));
        let dl = &tr.deliveries[d];
        assert_eq!(dl.len(), 1);
        assert_eq!(dl[0].start, 1 + 2 * k as u64 + 1);
        // The last payload bit is in the delivery register in the last bit time.
        assert_eq!(dl[0].start + l as u64, total);
        for j in 0..l {
            let t = dl[0].start + 1 + j as u64;
            assert_eq!(tr.node(t, d).rx_bit, pay[s] >> j & 1 == 1);
        }
        assert!(tr.node(dl[0].start, d).rx_bit, "start bit");
        assert!(!tr.node(total, d).rx_valid);
        let out = tr.node(total + 1, d);
        assert!(out.rx_valid && out.rx_payload == pay[s] && !out.collision);
    }
    assert_eq!(tr.placement.iter().flatten().count(), r.senders());
    assert!(!tr.global(total).done);
    let g = tr.global(total + 1);
    assert!(g.done && g.bit_time == total && !g.collision);
    assert_eq!(tr.global(total + 10).bit_time, total);
}

proptest! {
    #[test]
    fn semi_contractions_take_exactly_2k_plus_l_plus_2(k in 1usize..=6, l in 1usize..=12, seed: u64) {
        let r = random_semi_contraction(k, &mut seeded(seed));
        check_semi_clean(k, l, &r, &payloads(1 << k, l, seed ^ 1));
    }

    #[test]
    fn packings_take_exactly_2k_plus_l_plus_2(k in 1usize..=6, l in 1usize..=12, seed: u64) {
        let r = random_packing(k, &mut seeded(seed));
        check_semi_clean(k, l, &r, &payloads(1 << k, l, seed ^ 2));
    }

    #[test]
    fn full_replay_agrees_with_algorithm_2(k in 1usize..=6, seed: u64, partial: bool) {
        let mut rng = seeded(seed);
        let n = 1 << k;
        let perm = Permutation::random(n, &mut rng);
        let dst = (0..n).map(|s| (!partial || rng.gen_bool(0.7)).then(|| perm.dst(s))).collect();
        let r = PartialPermutation::new(dst).unwrap();
        let l = 8;
        let pay = payloads(n, l, seed);
        let p = CubeParams::new(k, l).unwrap();
        let alg = route_full(p, &r, &pay).unwrap();
        let expected: Vec<Option<(usize, u64)>> =
            alg.placement.iter().map(|m| m.map(|m| (m.dest, m.payload))).collect();
        for schedule in [Algorithm::FullSequential, Algorithm::Full] {
        let tr = simulate(p, schedule, &r, &pay).unwrap();
        prop_assert_eq!(&tr.placement, &expected);
        prop_assert_eq!(tr.collisions().count(), 0);
        // Phase by phase, the same messages move between the same nodes.
        for it in &alg.iterations {
            let moves = |ph: Phase| {
                // The overlapped schedule's last loop (f = 0) is the cross alone.
                tr.phases.iter().find(|p| p.phase == ph && p.dim == Some(it.dim)).map_or_else(Vec::new, |p| p.moves.clone())
            };
            let mut want: Vec<_> = it.crossed.iter().map(|t| (t.from, t.to)).collect();
            want.sort_unstable();
            prop_assert_eq!(moves(Phase::Cross), want);
            let mut want: Vec<_> = it.pack_doubles.iter().map(|t| (t.from, t.to)).collect();
            want.sort_unstable();
            prop_assert_eq!(moves(Phase::PackDoubles), want);
            let mut want = it.pack_empties.clone();
            if schedule == Algorithm::Full && it.dim == k - 1 {
                // Each 1-node subcube: the empties would send to themselves.
                prop_assert!(want.iter().all(|&(e, y)| e == y));
                want.clear();
            }
            prop_assert_eq!(moves(Phase::PackEmpties), want);
            let mut want: Vec<_> = it.rendezvous.iter().map(|t| (t.from, t.to)).collect();
            want.sort_unstable();
            prop_assert_eq!(moves(Phase::Rendezvous), want);
        }
        let total = tr.total;
        let closed = match schedule {
            Algorithm::FullSequential => (k * (14 * k + 3 * l + 9)) as u64,
            _ => crate::hypercube::overlap::total(p),
        };
        prop_assert_eq!(total, closed);
        for (s, d) in r.pairs() {
            let o = tr.node(total + 1, d);
            prop_assert!(o.rx_valid && o.rx_payload == pay[s]);
            prop_assert!(!tr.node(total, d).rx_valid);
        }
        }
    }

    #[test]
    fn sort_then_pack_delivers_and_takes_its_closed_form(k in 1usize..=6, l in 1usize..=9, seed: u64, partial: bool) {
        let mut rng = seeded(seed);
        let n = 1 << k;
        let perm = Permutation::random(n, &mut rng);
        let dst = (0..n).map(|s| (!partial || rng.gen_bool(0.5)).then(|| perm.dst(s))).collect();
        let r = PartialPermutation::new(dst).unwrap();
        let pay = payloads(n, l, seed);
        let p = CubeParams::new(k, l).unwrap();
        let tr = simulate(p, Algorithm::Sort, &r, &pay).unwrap();
        let alg = crate::hypercube::sort::route_sort(p, &r).unwrap();
        prop_assert_eq!(tr.collisions().count(), 0);
        let total = tr.total;
        prop_assert_eq!(total, crate::hypercube::sort::total(p));
        prop_assert_eq!(total, (k * (k + l + 3) + k * (k - 1) / 2 + 2 * k + l + 2) as u64);
        let want: Vec<Option<(usize, u64)>> =
            (0..n).map(|x| alg.placement[x].map(|s| (x, pay[s]))).collect();
        prop_assert_eq!(&tr.placement, &want);
        // The sorted placement: the last pass leaves message s at the node alg says.
        let last_pass = tr.phases.iter().rev().find(|ph| ph.phase == Phase::SortPass).unwrap();
        let unpack = tr.phases.last().unwrap();
        prop_assert_eq!(unpack.phase, Phase::Semi);
        prop_assert_eq!(unpack.start, last_pass.start + crate::hypercube::sort::pass_len(p, k - 1));
        // Every node's record of the last pass reaches its delivery register at s + 2.
        for x in 0..n {
            let d = tr.deliveries[x].iter().rev().find(|d| d.start < unpack.start).unwrap();
            prop_assert_eq!(d.start, last_pass.start + (k + 1) as u64);
            prop_assert_eq!(d.bits[0], alg.sorted[x].is_none(), "invalid flag first");
        }
    }
}

#[test]
fn a_non_semi_contraction_raises_the_collision_flag_on_time() {
    // 0 -> 0 and 1 -> 4 on a 3-cube: the frames meet at node 0 after dimension 0.
    let r = PartialPermutation::parse("0 4 - - - - - -", 8).unwrap();
    let p = CubeParams::new(3, 4).unwrap();
    let tr = simulate(p, Algorithm::Semi, &r, &[0b0101, 0b0011, 0, 0, 0, 0, 0, 0]).unwrap();
    let c: Vec<&Collision> = tr.collisions().collect();
    assert_eq!(c.len(), 1);
    assert_eq!(
        (c[0].node, c[0].dim, &c[0].staying, &c[0].crossing),
        (0, 0, &vec![0], &vec![1])
    );
    // Phase starts at t = 1, step 0: visible from phase cycle 3.
    assert_eq!(tr.collision_at[0], Some(4));
    assert!(!tr.node(3, 0).collision && tr.node(4, 0).collision);
    assert!(!tr.global(3).collision && tr.global(4).collision);
    // The merged frame (OR of relative addresses 000 and 101) goes on to node 4 with the
    // OR of both payloads: nothing vanishes silently.
    let done = tr.total + 1;
    let o = tr.node(done, 4);
    assert!(o.rx_valid);
    assert_eq!(o.rx_payload, 0b0111);
    assert!(!tr.node(done, 0).rx_valid);
}

#[test]
fn full_handles_every_permutation_of_a_2_cube() {
    fn perms(v: Vec<usize>) -> Vec<Vec<usize>> {
        if v.len() <= 1 {
            return vec![v];
        }
        let mut out = Vec::new();
        for i in 0..v.len() {
            let mut rest = v.clone();
            let x = rest.remove(i);
            for mut p in perms(rest) {
                p.insert(0, x);
                out.push(p);
            }
        }
        out
    }
    let p = CubeParams::new(2, 3).unwrap();
    for dst in perms(vec![0, 1, 2, 3]) {
        let r = Permutation::new(dst).unwrap().to_partial();
        let pay = [1, 2, 3, 4];
        let tr = simulate(p, Algorithm::Full, &r, &pay).unwrap();
        for (s, d) in r.pairs() {
            assert_eq!(tr.placement[d], Some((d, pay[s])));
        }
    }
}
