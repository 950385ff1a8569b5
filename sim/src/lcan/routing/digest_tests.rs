//! R1, R2 and R3 give bit-for-bit the schedules they gave before the speed-ups of their
//! step models: digests ([`Schedule::digest`]) of a fixed set of routings, recorded with
//! the code of commit da0db1b (before any speed-up), over T-LCANs, CB-LCANs and random
//! Π networks, every arbiter policy, both conflict models, full, partial and worst-case
//! permutations, several seeds. Every schedule is also checked by the validator.

use super::{route, Algorithm, Config, Conflict, Schedule};
use crate::lcan::arbiter::Policy;
use crate::lcan::tests::{random_pi, some_permutation};
use crate::lcan::validate::validate;
use crate::lcan::{Size, Topology};
use crate::rng::{derive, seeded};

/// The networks of the digests.
fn networks() -> Vec<(String, Topology)> {
    let mut out = Vec::new();
    for (d, u, n) in [(2, 1, 64), (4, 2, 64), (4, 1, 64)] {
        out.push((
            format!("T({d},{u}) n={n}"),
            Topology::tree(d, u, Size::Pes(n)).unwrap(),
        ));
    }
    for (d, u, n) in [(2, 2, 32), (4, 2, 64), (4, 4, 64), (2, 1, 32), (3, 2, 27)] {
        out.push((
            format!("CB({d},{u}) n={n}"),
            Topology::complete_bipartite(d, u, Size::Pes(n)).unwrap(),
        ));
    }
    for seed in [5, 6] {
        out.push((format!("Pi seed {seed}"), random_pi(seed, 3)));
    }
    out
}

/// Digest of every routing of `alg` on `topo`: each policy (R3: round-robin only, the
/// others reach R3 only through its R1 fallback), conflict model, workload and seed.
fn digest(topo: &Topology, alg: Algorithm) -> u64 {
    let policies: &[Policy] = match alg {
        Algorithm::R3 => &[Policy::RoundRobin],
        _ => &[Policy::Fixed, Policy::RoundRobin, Policy::Random],
    };
    let mut h = 0u64;
    for &policy in policies {
        for conflict in [Conflict::Wire, Conflict::Switch] {
            for kind in 0..3u32 {
                for s in 0..2u64 {
                    let seed = derive(s, &format!("digest {kind}"));
                    let perm = some_permutation(topo, kind, &mut seeded(seed));
                    let cfg = Config {
                        algorithm: alg,
                        policy,
                        conflict,
                        seed,
                    };
                    let sched: Schedule = route(topo, &perm, &cfg).unwrap();
                    validate(topo, &perm, &sched.pass_lists(), conflict).unwrap();
                    h = crate::rng::splitmix64(h ^ sched.digest());
                }
            }
        }
    }
    h
}

/// Digests recorded before the speed-ups (network, R1, R2, R3).
const EXPECTED: &[(&str, u64, u64, u64)] = &[
    (
        "T(2,1) n=64",
        0x85580d59ded9e10e,
        0xb47f706a66cb4961,
        0xacbca6fc42520bf0,
    ),
    (
        "T(4,2) n=64",
        0xf0a2c623012cfc63,
        0x7f3829b1f0500aea,
        0x452f7d1af0cac76a,
    ),
    (
        "T(4,1) n=64",
        0x7fa35e5dfa975a29,
        0x4e916d44faf2aa2c,
        0x767e9bcab4e81b6a,
    ),
    (
        "CB(2,2) n=32",
        0x3e9664c542910590,
        0xb5475199e1bf207a,
        0x9ef513ea5d9f9b7b,
    ),
    (
        "CB(4,2) n=64",
        0x2d1a375f02b7c184,
        0x14fc7e92cb090bcd,
        0x07d66df3e05a29d4,
    ),
    (
        "CB(4,4) n=64",
        0x8c090884ab5921de,
        0x5af75b6b989fbc08,
        0xb9dbc016f3b3ea39,
    ),
    (
        "CB(2,1) n=32",
        0x5a889854a43c8111,
        0x254c7b3a22414f9e,
        0xaeabb28c6bddc948,
    ),
    (
        "CB(3,2) n=27",
        0x7ebf7973feadf33b,
        0x26aade61d6320005,
        0x032db92c980d3095,
    ),
    (
        "Pi seed 5",
        0x67561222a0b4374e,
        0x36f8a4263bc813da,
        0x7a83bed06b2bfafb,
    ),
    (
        "Pi seed 6",
        0xd6bc0a57b5c5d62e,
        0xe116c27d345b7e30,
        0xfcf369bc212a3743,
    ),
];

#[test]
fn schedules_are_unchanged() {
    let mut got = Vec::new();
    for (name, topo) in networks() {
        got.push((
            name,
            digest(&topo, Algorithm::R1),
            digest(&topo, Algorithm::R2),
            digest(&topo, Algorithm::R3),
        ));
    }
    for g in &got {
        println!(
            "    (\"{}\", {:#018x}, {:#018x}, {:#018x}),",
            g.0, g.1, g.2, g.3
        );
    }
    assert_eq!(got.len(), EXPECTED.len());
    for (g, e) in got.iter().zip(EXPECTED) {
        assert_eq!(
            (g.0.as_str(), g.1, g.2, g.3),
            *e,
            "schedules changed on {} (R1, R2, R3 digests)",
            g.0
        );
    }
}
