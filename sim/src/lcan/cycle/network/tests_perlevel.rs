//! The network model on networks whose switch sizes vary by level (002 §2.2): the same
//! pass-level agreement with `routing::route` and exact delivery as the uniform networks
//! (R1, R2 under every policy; R3), per-level switch parameters, the network's step
//! lengths (the slowest level's), and the address conversion with mixed radices.

use super::tests::{check, check_conversion, perms, sweep, POLICIES};
use super::tests_r3::check_r3;
use super::*;
use crate::lcan::cycle::{ArbiterPolicy, SetupMode};
use crate::lcan::routing::Algorithm;
use crate::lcan::{Size, Topology};
use crate::perm::Permutation;
use crate::rng::seeded;

fn tree(ds: &[usize], us: &[usize]) -> Topology {
    Topology::tree_per_level(ds, us).unwrap()
}

fn cb(ds: &[usize], us: &[usize]) -> Topology {
    Topology::complete_bipartite_per_level(ds, us).unwrap()
}

#[test]
fn per_level_networks_match_the_step_model() {
    // Binary fat-tree, capacities 2, 4 (n = 8); a thinning tree; a CM-5-like CB (n = 16
    // would be d = 4 everywhere: here d = [2, 2, 2] with u = [1, 1, 2] keeps n = 8); a CB
    // with a radix 3 (address conversion).
    sweep(&tree(&[2, 4, 8], &[2, 4, 8]), 1, 4, 61);
    sweep(&tree(&[4, 2, 2], &[1, 2, 1]), 2, 3, 62);
    sweep(&cb(&[2, 2, 2], &[1, 1, 2]), 1, 5, 63);
    sweep(&cb(&[3, 2], &[2, 3]), 3, 6, 64);
}

#[test]
fn per_level_pi_network_matches_the_step_model() {
    let t = cb(&[2, 2, 2], &[2, 1, 2]);
    let f = Topology::from_pi_text(&t.to_pi_text()).unwrap();
    assert_eq!(f.uniform(), None);
    sweep(&f, 1, 4, 65);
}

#[test]
fn r3_on_per_level_networks_delivers_every_connection_once() {
    for (i, topo) in [
        tree(&[2, 4, 8], &[2, 4, 8]),
        cb(&[4, 2], &[2, 4]),
        cb(&[2, 3, 2], &[2, 3, 1]),
    ]
    .iter()
    .enumerate()
    {
        for (w, m) in [(1, 4), (2, 5)] {
            for perm in perms(topo, 70 + i as u64) {
                check_r3(topo, w, m, &perm, 71 + i as u64);
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]
    #[test]
    fn random_per_level_networks_match_the_step_model(
        seed in proptest::prelude::any::<u64>(),
        l in 2usize..4,
        alg in 0usize..2,
        pol in 0usize..3,
        w in 1usize..3,
    ) {
        let topo = crate::lcan::tests::random_per_level(seed, l);
        proptest::prop_assume!(topo.n() <= 48 && topo.max_d() <= 16 && topo.max_u() <= 16);
        let alg = [Algorithm::R1, Algorithm::R2][alg];
        let perm = Permutation::random(topo.n(), &mut seeded(seed)).to_partial();
        check(&topo, alg, POLICIES[pol], w, 4, &perm, seed);
    }
}

/// Every level gets its own switch; levels of one shape share it; shapes equal at every
/// level are no shapes (the uniform parameters bit for bit); the step lengths are the
/// longest any level needs.
#[test]
fn switch_parameters_per_level_and_step_lengths() {
    let t = cb(&[4, 4, 4], &[2, 2, 4]);
    let np = NetParams::new(&t, Algorithm::R1, ArbiterPolicy::RoundRobin, 1, 8).unwrap();
    assert!(np.per_level());
    assert_eq!(np.distinct_switches().len(), 2);
    assert_eq!(np.switch_at(0), np.switch_at(1));
    assert_eq!((np.switch_at(2).d, np.switch_at(2).u), (4, 4));
    let f42 = np.switch_at(0).format();
    let f44 = np.switch_at(2).format();
    assert_eq!(f42.ab, f44.ab);
    assert_eq!(np.fmt.t_up, f42.t_up.max(f44.t_up));
    // DOWN: n(P2) + 2u + d + 1, the u = 4 level is the longest.
    assert_eq!(np.fmt.t_down, f44.t_down);
    assert!(np.fmt.t_down > f42.t_down);
    // Fast set-up: no windows, every level equal.
    let fast = np.clone().with_setup(SetupMode::Fast).unwrap();
    assert_eq!(fast.fmt.t_down, fast.fmt.n2 + 1);
    // Uniform vectors: the uniform parameters.
    let u = Topology::complete_bipartite(4, 2, Size::Levels(3)).unwrap();
    let v = cb(&[4, 4, 4], &[2, 2, 2]);
    let a = NetParams::new(&u, Algorithm::R2, ArbiterPolicy::Fixed, 1, 8).unwrap();
    let b = NetParams::new(&v, Algorithm::R2, ArbiterPolicy::Fixed, 1, 8).unwrap();
    assert_eq!(a, b);
    assert!(a.switches.iter().all(|s| s.shapes.is_none()));
    // R3: one route field width for the network, the widest level's.
    let r3 = NetParams::new(&t, Algorithm::R3, ArbiterPolicy::Fixed, 1, 8).unwrap();
    assert_eq!(r3.route_field_bits(), 3);
}

/// Mixed radices per level: the serial conversion gives the label digits and the digit
/// LCA equals the topology's, for every pair.
#[test]
fn serial_conversion_and_digit_lca_per_level() {
    check_conversion(&[
        cb(&[3, 2, 3], &[2, 3, 1]),
        tree(&[3, 4, 6], &[2, 3, 2]),
        tree(&[2, 4, 8], &[2, 4, 8]),
    ]);
}

/// Per-level sizes beyond the hardware's limits are refused naming the level.
#[test]
fn hardware_limits_name_the_level() {
    let t = tree(&[2, 4, 8, 16, 32], &[2, 4, 8, 16, 32]);
    let e = NetParams::new(&t, Algorithm::R1, ArbiterPolicy::Fixed, 1, 8).unwrap_err();
    assert!(
        e.to_string()
            .contains("d_4 = 32 is larger than the supported maximum 16 (level 4)"),
        "{e}"
    );
}
