//! Tests of the network model: the worked example of `docs/interface.md` §9, equality of
//! the pass-level result with `routing::route`, exact delivery, the bit-time formula,
//! errors and mutations.

use super::*;
use crate::lcan::cycle::ArbiterPolicy;
use crate::lcan::routing::{route, Algorithm, Config, Conflict};
use crate::lcan::workload::worst_case;
use crate::lcan::{Size, Topology};
use crate::perm::{PartialPermutation, Permutation};
use crate::rng::seeded;
use rand::Rng;

const BUDGET: u64 = 2_000_000;

fn msgs(n: usize, m: usize, seed: u64) -> Vec<u64> {
    let mut rng = seeded(seed ^ 0x5eed);
    let mask = if m == 64 { u64::MAX } else { (1u64 << m) - 1 };
    (0..n).map(|_| rng.gen::<u64>() & mask).collect()
}

/// Runs the model and checks it against `routing::route`; returns the run.
pub(super) fn check(
    topo: &Topology,
    alg: Algorithm,
    pol: ArbiterPolicy,
    w: usize,
    m: usize,
    perm: &PartialPermutation,
    seed: u64,
) -> NetRun {
    let np = NetParams::new(topo, alg, pol, w, m).unwrap();
    let dst: Vec<Option<usize>> = perm.as_slice().to_vec();
    let msg = msgs(topo.n(), m, seed);
    let mut model = NetworkModel::new(topo, &np, &dst, &msg, seed).unwrap();
    let run = model.run_to_done(BUDGET).unwrap();
    let cfg = Config {
        algorithm: alg,
        policy: model.routing_policy(),
        conflict: Conflict::Wire,
        seed,
    };
    let sched = route(topo, perm, &cfg).unwrap();
    let ctx = format!(
        "{:?} {alg:?} {pol:?} w={w} m={m} seed={seed} perm={perm:?}",
        topo.kind()
    );
    assert!(!run.error, "{ctx}");
    assert_eq!(run.passes.len(), sched.passes.len(), "{ctx}: passes");
    for (k, (mp, sp)) in run.passes.iter().zip(&sched.passes).enumerate() {
        let mut want: Vec<(usize, usize)> = sp.delivered.iter().map(|c| (c.src, c.dst)).collect();
        want.sort();
        let mut got = mp.delivered.clone();
        got.sort();
        assert_eq!(got, want, "{ctx}: pass {k} delivered");
        assert_eq!(mp.top_level, sp.top_level, "{ctx}: pass {k} H");
        let mut senders = sp.senders.clone();
        senders.sort();
        assert_eq!(mp.senders, senders, "{ctx}: pass {k} senders");
        assert_eq!(
            mp.crosspoints, sp.crosspoints,
            "{ctx}: pass {k} crosspoints"
        );
    }
    // Every active PE delivered once, payload bit-exact.
    let mut seen = vec![0usize; topo.n()];
    for p in &run.passes {
        for &(s, t) in &p.delivered {
            seen[s] += 1;
            assert_eq!(run.received[t], (true, msg[s]), "{ctx}: message {s}->{t}");
        }
    }
    for (s, dst) in perm.as_slice().iter().enumerate() {
        assert_eq!(
            seen[s],
            usize::from(dst.is_some()),
            "{ctx}: PE {s} delivered"
        );
    }
    for t in 0..topo.n() {
        let is_dst = perm.as_slice().contains(&Some(t));
        assert_eq!(run.received[t].0, is_dst, "{ctx}: valid_{t}");
    }
    let tops: Vec<usize> = run.passes.iter().map(|p| p.top_level).collect();
    assert_eq!(
        run.bit_times as usize,
        np.total_bit_times(&tops),
        "{ctx}: bit-times"
    );
    assert_eq!(run.done_at, 2 + run.bit_times, "{ctx}: done_at");
    run
}

#[test]
fn worked_example_of_interface_md() {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 2).unwrap();
    assert_eq!(
        (np.fmt.t_up, np.fmt.t_down, np.nf, np.pe_tx_bits()),
        (9, 15, 3, 6)
    );
    assert_eq!(np.pass_len(1), 63);
    let dst = [Some(2), Some(3), Some(0), Some(1)];
    let mut m = NetworkModel::new(&topo, &np, &dst, &[0, 1, 2, 3], 1).unwrap();
    let mut phases = Vec::new();
    let mut valid2 = None;
    let mut sent0 = None;
    let mut pe0_up = Vec::new();
    let mut pe2_in = Vec::new();
    while m.bit_time() < 134 {
        let o = m.outputs();
        phases.push(o.phase);
        if valid2.is_none() && o.valid[2] {
            valid2 = Some(m.bit_time());
            assert_eq!(o.rmsg[2], 0);
        }
        if sent0.is_none() && o.sent[0] {
            sent0 = Some(m.bit_time());
        }
        if (55..=57).contains(&m.bit_time()) {
            pe0_up.push(m.switches()[0].crosspoints().is_closed(0, 2));
        }
        if (58..=60).contains(&m.bit_time()) {
            pe2_in.push(m.switches()[1].output(0));
        }
        if m.bit_time() == 53 {
            assert!(m.is_setup_end());
            let xp = m.crosspoint_lists();
            assert_eq!(xp.len(), 3, "{xp:?}");
        }
        m.step().unwrap();
    }
    let code = |p: Phase| p.code() as u8;
    assert_eq!(phases[0], code(Phase::Idle));
    assert_eq!(phases[1], code(Phase::Idle));
    assert_eq!(phases[2], code(Phase::Load));
    assert_eq!(phases[3], code(Phase::Plan));
    assert_eq!(phases[4], code(Phase::Arm));
    assert!(phases[5..=22].iter().all(|&p| p == code(Phase::Up)));
    assert!(phases[23..=52].iter().all(|&p| p == code(Phase::Down)));
    assert_eq!(&phases[53..=54], &[code(Phase::Deliv); 2]);
    assert!(phases[55..=61].iter().all(|&p| p == code(Phase::Data)));
    assert!(phases[62..=65].iter().all(|&p| p == code(Phase::Ack)));
    assert_eq!(phases[66], code(Phase::Plan));
    assert_eq!(phases[129], code(Phase::Plan));
    assert_eq!(phases[130], code(Phase::Done));
    assert_eq!(valid2, Some(61));
    assert_eq!(sent0, Some(66));
    assert_eq!(pe0_up, vec![true; 3]);
    assert_eq!(pe2_in, vec![1, 0, 0], "frame 1 m0 m1 of PE 0 (msg 0)");
    let o = m.outputs();
    assert!(o.done && !o.error);
    assert_eq!((o.passes, o.bit_times), (2, 128));
    assert_eq!(o.rmsg, vec![2, 3, 0, 1]);
}

pub(super) fn perms(topo: &Topology, seed: u64) -> Vec<PartialPermutation> {
    let n = topo.n();
    let mut rng = seeded(seed);
    let mut v = vec![
        Permutation::identity(n).to_partial(),
        Permutation::random(n, &mut rng).to_partial(),
    ];
    if let Ok(w) = worst_case(topo, &mut rng) {
        v.push(w.to_partial());
    }
    v
}

pub(super) const POLICIES: [ArbiterPolicy; 3] = [
    ArbiterPolicy::Fixed,
    ArbiterPolicy::RoundRobin,
    ArbiterPolicy::Random,
];

pub(super) fn sweep(topo: &Topology, w: usize, m: usize, seed: u64) {
    for alg in [Algorithm::R1, Algorithm::R2] {
        for pol in POLICIES {
            for perm in perms(topo, seed) {
                check(topo, alg, pol, w, m, &perm, seed);
            }
        }
    }
}

#[test]
fn tree_networks_match_the_step_model() {
    sweep(&Topology::tree(2, 1, Size::Levels(3)).unwrap(), 1, 4, 11);
    sweep(&Topology::tree(4, 2, Size::Levels(3)).unwrap(), 2, 5, 12);
    sweep(&Topology::tree(3, 1, Size::Levels(2)).unwrap(), 1, 3, 13);
}

#[test]
fn cb_networks_match_the_step_model() {
    sweep(
        &Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap(),
        1,
        4,
        21,
    );
    sweep(
        &Topology::complete_bipartite(3, 2, Size::Levels(2)).unwrap(),
        3,
        8,
        22,
    );
}

/// A Π-file network that is neither a tree nor a CB-LCAN: CB-LCAN(2,2) with `l = 3` whose
/// links are rewired (the targets of two link lines swapped, still one-to-one and onto):
/// the first such swap that keeps every two PEs connected (002 Definition 1).
fn scrambled_pi() -> Topology {
    let cb = Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap();
    let lines: Vec<String> = cb.to_pi_text().lines().map(str::to_string).collect();
    let links: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains("->"))
        .collect();
    for (a, &i) in links.iter().enumerate() {
        for &j in &links[a + 1..] {
            let mut l = lines.clone();
            let (si, ti) = l[i].split_once("->").unwrap();
            let (sj, tj) = l[j].split_once("->").unwrap();
            let (ni, nj) = (format!("{si}->{tj}"), format!("{sj}->{ti}"));
            l[i] = ni;
            l[j] = nj;
            if let Ok(t) = Topology::from_pi_text(&l.join("\n")) {
                if t.to_pi_text() != cb.to_pi_text() {
                    return t;
                }
            }
        }
    }
    panic!("no valid rewiring");
}

#[test]
fn pi_networks_match_the_step_model() {
    let pi = scrambled_pi();
    assert_ne!(
        pi.to_pi_text(),
        Topology::complete_bipartite(2, 2, Size::Levels(3))
            .unwrap()
            .to_pi_text()
    );
    sweep(&pi, 1, 4, 31);
    let tree = Topology::tree(4, 2, Size::Levels(2)).unwrap();
    sweep(
        &Topology::from_pi_text(&tree.to_pi_text()).unwrap(),
        2,
        3,
        32,
    );
}

#[test]
fn partial_permutations_deliver_only_active_pes() {
    let topo = Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap();
    let perm = PartialPermutation::new(vec![
        Some(5),
        None,
        Some(0),
        None,
        Some(1),
        Some(2),
        None,
        None,
    ])
    .unwrap();
    for alg in [Algorithm::R1, Algorithm::R2] {
        for pol in POLICIES {
            check(&topo, alg, pol, 1, 6, &perm, 41);
        }
    }
}

#[test]
fn out_of_range_destination_raises_error_and_stops() {
    let topo = Topology::tree(3, 1, Size::Levels(2)).unwrap(); // n = 9, AB = 4
    let np = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 4).unwrap();
    assert!(np.convert && np.t_load == 4);
    let mut dst: Vec<Option<usize>> = (0..9).map(Some).collect();
    dst[3] = Some(12);
    let mut m = NetworkModel::new(&topo, &np, &dst, &[0; 9], 1).unwrap();
    let run = m.run_to_done(1000).unwrap();
    assert!(run.error && run.passes.is_empty());
    assert_eq!(run.bit_times, 4 + 1);
    let e = NetworkModel::new(&topo, &np, &[Some(16); 9], &[0; 9], 1).unwrap_err();
    assert!(
        e.to_string().contains("does not fit the 4-bit dst port"),
        "{e}"
    );
    let e = NetworkModel::new(&topo, &np, &dst, &[16; 9], 1).unwrap_err();
    assert!(e.to_string().contains("does not fit in M = 4 bits"), "{e}");
    let e = NetworkModel::new(&topo, &np, &dst[..3], &[0; 9], 1).unwrap_err();
    assert!(
        e.to_string().contains("expected one per PE (n = 9), got 3"),
        "{e}"
    );
}

#[test]
fn repeated_destination_raises_error() {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R2, ArbiterPolicy::Fixed, 1, 2).unwrap();
    let dst = [Some(1), Some(1), Some(0), Some(3)];
    let mut m = NetworkModel::new(&topo, &np, &dst, &[1, 2, 3, 0], 1).unwrap();
    let run = m.run_to_done(10_000).unwrap();
    assert!(run.error);
    // The first frame into PE 1 is kept.
    assert!(run.received[1].0);
}

#[test]
fn restart_after_done_repeats_the_run() {
    // The model only simulates the canonical run; a second model with the same inputs gives
    // the same outputs bit-time by bit-time (determinism from the seed).
    let topo = Topology::complete_bipartite(2, 2, Size::Levels(2)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R2, ArbiterPolicy::Random, 1, 3).unwrap();
    let dst: Vec<Option<usize>> = vec![Some(3), Some(2), Some(1), Some(0)];
    let mut a = NetworkModel::new(&topo, &np, &dst, &[1, 2, 3, 4], 99).unwrap();
    let mut b = a.clone();
    let ports = a.output_ports();
    let (mut va, mut vb) = (PortWords::new(&ports), PortWords::new(&ports));
    for _ in 0..300 {
        a.output_words(&mut va);
        b.output_words(&mut vb);
        assert_eq!(va, vb);
        a.step().unwrap();
        b.step().unwrap();
    }
}

#[test]
fn mutations_change_the_prediction() {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 2).unwrap();
    let dst = [Some(2), Some(3), Some(0), Some(1)];
    let msg = [0, 1, 2, 3];
    let trace = |m: &mut NetworkModel| {
        let mut all = Vec::new();
        let mut v = PortWords::new(&m.output_ports());
        for _ in 0..140 {
            m.output_words(&mut v);
            all.push(v.clone());
            m.step().unwrap();
        }
        all
    };
    let good = trace(&mut NetworkModel::new(&topo, &np, &dst, &msg, 1).unwrap());
    let flip = Mutation::FlipOutput {
        port: 7,
        bit: 3,
        bit_time: 50,
    };
    let bad = trace(&mut NetworkModel::with_mutation(&topo, &np, &dst, &msg, 1, flip).unwrap());
    let diffs: Vec<usize> = (0..good.len()).filter(|&t| good[t] != bad[t]).collect();
    assert_eq!(diffs, vec![50]);
    let swap = Mutation::SwapDestinations { a: 0, b: 1 };
    let bad = trace(&mut NetworkModel::with_mutation(&topo, &np, &dst, &msg, 1, swap).unwrap());
    assert_ne!(good, bad);
    let e = NetworkModel::with_mutation(
        &topo,
        &np,
        &dst,
        &msg,
        1,
        Mutation::SwapDestinations { a: 0, b: 9 },
    );
    assert!(e.is_err());
}

#[test]
fn port_names_and_values_line_up() {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::Random, 1, 2).unwrap();
    let dst = [Some(2), Some(3), Some(0), Some(1)];
    let m = NetworkModel::new(&topo, &np, &dst, &[0, 1, 2, 3], 1).unwrap();
    let ports = m.input_ports();
    let names: Vec<(&str, usize)> = ports.iter().map(|p| (p.name.as_str(), p.width)).collect();
    assert_eq!(
        names,
        [
            ("reset", 1),
            ("start", 1),
            ("act", 4),
            ("dst", 8),
            ("msg", 8),
            ("seed", 16)
        ]
    );
    let mut inputs = m.canonical_inputs();
    let v = inputs.at(1);
    assert_eq!((v.low(0), v.low(1)), (0, 1));
    assert_eq!(v.low(2), 0b1111);
    // PE p's destination at bits 2p.. (dst = 2, 3, 0, 1), its message at bits 2p..
    assert_eq!(v.low(3), 0b01_00_11_10);
    assert_eq!(v.low(4), 0b11_10_01_00);
    assert_eq!(v.low(5), u64::from(m.seed16()));
    assert_eq!(inputs.at(0).low(0), 1);
    let ports = m.output_ports();
    let names: Vec<&str> = ports.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "done",
            "error",
            "phase",
            "passes",
            "bit_times",
            "valid",
            "sent",
            "rmsg"
        ]
    );
    let widths: Vec<usize> = ports.iter().map(|p| p.width).collect();
    assert_eq!(widths, [1, 1, 4, 16, 32, 4, 4, 8]);
    let mut out = PortWords::new(&ports);
    m.output_words(&mut out);
    assert_eq!(out.get(7), &[0]);
}

/// The word outputs agree with the typed outputs bit-time by bit-time, and the crosspoint
/// vectors with the crosspoint lists.
#[test]
fn word_outputs_agree_with_typed_outputs() {
    let topo = Topology::complete_bipartite(2, 2, Size::Levels(2)).unwrap();
    let np = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::RoundRobin, 2, 5).unwrap();
    let dst: Vec<Option<usize>> = vec![Some(3), Some(2), Some(1), Some(0)];
    let mut m = NetworkModel::new(&topo, &np, &dst, &[1, 22, 3, 31], 5).unwrap();
    let mut out = PortWords::new(&m.output_ports());
    let mut setups = 0;
    for _ in 0..400 {
        m.output_words(&mut out);
        let o = m.outputs();
        assert_eq!(out.low(0), u64::from(o.done));
        assert_eq!(out.low(2), u64::from(o.phase));
        assert_eq!(out.low(4), u64::from(o.bit_times));
        for p in 0..4 {
            assert_eq!(out.bit(5, p), o.valid[p]);
            assert_eq!(out.bit(6, p), o.sent[p]);
            assert_eq!((out.low(7) >> (5 * p)) & 31, o.rmsg[p]);
        }
        if m.is_setup_end() {
            setups += 1;
            let lists = m.crosspoint_lists();
            let mut closed = 0;
            for g in 0..topo.total_switches() {
                for which in 0..4 {
                    let mut w = [0u64; 1];
                    m.crosspoint_words(g, which, &mut w);
                    closed += w[0].count_ones() as usize;
                }
            }
            assert_eq!(closed, lists.iter().map(|s| s.closed.len()).sum::<usize>());
            assert!(closed > 0);
        }
        m.step().unwrap();
    }
    assert!(setups > 0);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    #[test]
    fn random_networks_match_the_step_model(
        shape in 0usize..4,
        alg in 0usize..2,
        pol in 0usize..3,
        w in 1usize..4,
        m in 1usize..10,
        seed in proptest::prelude::any::<u64>(),
    ) {
        let topo = match shape {
            0 => Topology::tree(2, 1, Size::Levels(4)).unwrap(),
            1 => Topology::tree(4, 2, Size::Levels(3)).unwrap(),
            2 => Topology::complete_bipartite(2, 2, Size::Levels(4)).unwrap(),
            _ => Topology::complete_bipartite(4, 2, Size::Levels(2)).unwrap(),
        };
        let alg = [Algorithm::R1, Algorithm::R2][alg];
        let perm = Permutation::random(topo.n(), &mut seeded(seed)).to_partial();
        check(&topo, alg, POLICIES[pol], w, m, &perm, seed);
    }
}

#[test]
fn serial_conversion_and_digit_lca_agree_with_the_topology() {
    check_conversion(&[
        Topology::tree(3, 1, Size::Levels(3)).unwrap(),
        Topology::tree(6, 2, Size::Levels(3)).unwrap(),
        Topology::tree(4, 2, Size::Levels(3)).unwrap(),
        Topology::complete_bipartite(3, 2, Size::Levels(3)).unwrap(),
        Topology::complete_bipartite(2, 2, Size::Levels(4)).unwrap(),
    ]);
}

/// The PE's serial conversion (`docs/interface.md` §5.2) gives every PE number's label
/// digits and flags the numbers past `n`; the digit LCA equals the topology's for every pair.
pub(super) fn check_conversion(topos: &[Topology]) {
    use super::pe::{digit_lca, serial_encode};
    for topo in topos {
        let np = NetParams::new(topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 1).unwrap();
        let radices: Vec<usize> = np.fmt.digits.iter().map(|&(_, _, r)| r).collect();
        assert_eq!(Some(radices), topo.label_radices());
        let n = topo.n() as u64;
        for t in 0..(1u64 << np.abin) {
            let (enc, ovf) = serial_encode(&np.fmt, np.abin, t);
            assert_eq!(ovf, t >= n, "{t}");
            if t < n {
                assert_eq!(Some(enc), np.fmt.encode_pe(t), "{t}");
                if !np.convert {
                    assert_eq!(enc, t);
                }
                for s in 0..n {
                    let se = np.fmt.encode_pe(s).unwrap();
                    assert_eq!(
                        digit_lca(&np.fmt, se, enc),
                        topo.lca_level(s as usize, t as usize)
                    );
                }
            }
        }
    }
}

#[test]
fn bad_parameters_are_rejected_with_the_condition() {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    for m in [0, 65] {
        let e = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, m).unwrap_err();
        assert!(e.to_string().contains("must be between 1 and 64"), "{e}");
    }
    let e = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::Fixed, 17, 8).unwrap_err();
    assert!(e.to_string().contains("width = 17"), "{e}");
    let other = Topology::tree(2, 1, Size::Levels(3)).unwrap();
    let np = NetParams::new(&other, Algorithm::R1, ArbiterPolicy::Fixed, 1, 8).unwrap();
    let e = NetworkModel::new(&topo, &np, &[None; 4], &[0; 4], 1).unwrap_err();
    assert!(e.to_string().contains("n = 8"), "{e}");
    let e = NetworkModel::with_mutation(
        &topo,
        &NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 8).unwrap(),
        &[None; 4],
        &[0; 4],
        1,
        Mutation::FlipOutput {
            port: 10_000,
            bit: 0,
            bit_time: 0,
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("no output port 10000"), "{e}");
}

/// The quiet-switch fast path changes nothing: outputs and crosspoints equal those of the
/// full clock every bit-time, on every kind, algorithm and policy.
#[test]
fn quiet_fast_path_changes_nothing() {
    let cb = Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap();
    let topos = [
        Topology::tree(2, 1, Size::Levels(3)).unwrap(),
        cb.clone(),
        Topology::from_pi_text(&cb.to_pi_text()).unwrap(),
    ];
    for topo in topos {
        for alg in [Algorithm::R1, Algorithm::R2] {
            for pol in [
                ArbiterPolicy::Fixed,
                ArbiterPolicy::RoundRobin,
                ArbiterPolicy::Random,
            ] {
                let np = NetParams::new(&topo, alg, pol, 2, 5).unwrap();
                let n = topo.n();
                let p = Permutation::random(n, &mut seeded(7));
                let dst: Vec<Option<usize>> = p.as_slice().iter().map(|&d| Some(d)).collect();
                let msg: Vec<u64> = (0..n as u64).map(|i| (i * 7) & 31).collect();
                let mut fast = NetworkModel::new(&topo, &np, &dst, &msg, 3).unwrap();
                let mut full = fast.clone().without_fast_path();
                let ports = fast.output_ports();
                let (mut a, mut b) = (PortWords::new(&ports), PortWords::new(&ports));
                while !fast.outputs().done || fast.bit_time() < 2 {
                    fast.output_words(&mut a);
                    full.output_words(&mut b);
                    assert_eq!(a, b, "bit-time {}", fast.bit_time());
                    assert_eq!(
                        fast.switches(),
                        full.switches(),
                        "bit-time {}",
                        fast.bit_time()
                    );
                    fast.step().unwrap();
                    full.step().unwrap();
                }
                assert_eq!(fast.passes(), full.passes());
            }
        }
    }
}
