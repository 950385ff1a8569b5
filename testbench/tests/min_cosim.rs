//! Co-simulation of the emitted MINs with ATAPE units against the golden timeline
//! (docs/min.md §7): every bit-time, every top-level output and every switch's setting
//! and conflict flag; then every message read back from the RTL outputs.
//!
//! For each network and size: ATAPE (n frames, no conflict, n² messages delivered,
//! busy for exactly n·F + m bit-times), and single permutations (identity, random ones
//! that are mostly not admissible, and a crafted non-admissible one) whose conflict
//! flags must equal the golden admissibility model's, switch by switch.
//!
//! Sizes: the default set covers m = 1..4 for the three forward networks (13 Verilator
//! builds, about 30 s cold on this 2-core machine) and m = 2, 3 for the three reverse
//! networks (the reverse omega is the one with its own tag order and exit permutation);
//! the ignored test `networks_at_m5_m6` adds m = 5, 6 for all six and m = 1, 4 for the
//! reverse ones (`cargo test -p lcanet-testbench --test min_cosim -- --ignored`), and
//! `lcanet sim ataape` runs any size.

use lcanet_sim::min::{Min, Network, RunConfig};
use lcanet_sim::perm::Permutation;
use lcanet_sim::rng::{derive, seeded};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::min::cosim::{default_options, run, CosimReport, Fault};

const SEED: u64 = 2024;

fn check(r: &CosimReport) {
    assert!(r.matched, "{}", r.mismatch.clone().unwrap_or_default());
    assert_eq!(r.bit_times, r.bound, "busy span vs N·F + m");
    assert_eq!(r.conflicts, r.expected_conflicts);
}

fn network(net: Network, sizes: &[u32]) {
    for &m in sizes {
        let min = Min::new(net, m).unwrap();
        let seed = derive(SEED, &format!("{net}-{m}"));
        let dir = artifact_dir!(format!("{net}_m{m}")).unwrap();
        // No VCD (a traced build is slower); the crafted-conflict test below traces.
        let opts = default_options(dir.path(), false);
        let r = run(&RunConfig::atape(min, 4, seed).unwrap(), &opts).unwrap();
        check(&r);
        assert_eq!(r.conflicts, 0);
        assert_eq!(r.messages_checked, Some(min.n() * min.n()));
        assert_eq!(r.bound, (min.n() * (m as usize + 4) + m as usize) as u64);

        let mut rng = seeded(seed);
        let mut perms = vec![Permutation::identity(min.n())];
        perms.extend((0..2).map(|_| Permutation::random(min.n(), &mut rng)));
        let mut conflicted = 0;
        for p in perms {
            let admissible = min.check(&p).is_admissible();
            let r = run(&RunConfig::single(min, p, 4, seed).unwrap(), &opts).unwrap();
            check(&r);
            assert_eq!(r.conflicts == 0, admissible);
            assert_eq!(r.messages_checked.is_some(), admissible);
            conflicted += usize::from(!admissible);
        }
        if m >= 3 {
            assert!(
                conflicted > 0,
                "random permutations of 8+ PEs are rarely admissible"
            );
        }
    }
}

#[test]
fn baseline_m1_to_m4() {
    network(Network::Baseline, &[1, 2, 3, 4]);
}

#[test]
fn omega_m1_to_m4() {
    network(Network::Omega, &[1, 2, 3, 4]);
}

#[test]
fn cube_m1_to_m4() {
    network(Network::Cube, &[1, 2, 3, 4]);
}

#[test]
fn reverse_networks_m2_m3() {
    network(Network::ReverseBaseline, &[2, 3]);
    network(Network::ReverseOmega, &[2, 3]);
    network(Network::ReverseCube, &[2, 3]);
}

/// The six networks at m = 5 and 6, and the reverse ones at m = 1 and 4 (outside the
/// default set).
#[test]
#[ignore = "about a minute of Verilator builds; run with -- --ignored"]
fn networks_at_m5_m6() {
    for net in Network::ALL {
        network(net, &[5, 6]);
    }
    for net in Network::ALL.into_iter().filter(|n| n.is_reverse()) {
        network(net, &[1, 4]);
    }
}

#[test]
fn a_crafted_conflict_is_flagged_at_its_switch() {
    // Baseline m = 3: PEs 0 and 1 share switch 0 of stage 0 and both ask for the upper
    // output (destination bit 2 is 0 for 0 and 1): the golden check names (0, 0).
    let min = Min::new(Network::Baseline, 3).unwrap();
    let p = Permutation::new(vec![0, 1, 4, 5, 2, 3, 6, 7]).unwrap();
    let first = min.check(&p).first().cloned().unwrap();
    assert_eq!((first.stage, first.switch), (0, 0));
    let dir = artifact_dir!("crafted_conflict").unwrap();
    let r = run(
        &RunConfig::single(min, p, 2, 1).unwrap(),
        &default_options(dir.path(), true),
    )
    .unwrap();
    // Every switch's flag matched the golden transit at every bit-time, including
    // st0_sw0's; and there were conflicts.
    check(&r);
    assert!(r.conflicts >= 1);
    // The waveform was written, names the switch's hierarchy and shows word-level
    // quantities as vectors (a unit's destination, the controller's strobes).
    let vcd = std::fs::read_to_string(r.vcd.as_ref().unwrap()).unwrap();
    for needle in [
        "$scope module st0_sw0",
        "$scope module pe7",
        "$scope module ctrl",
        " [2:0] $end",
        " dst_q [2:0]",
        " dec [2:0]",
        " st1_out [7:0]",
    ] {
        assert!(vcd.contains(needle), "VCD lacks {needle:?}");
    }
    assert!(vcd.contains("#"), "VCD has no time steps");
}

#[test]
fn a_wrong_payload_bit_is_reported_with_bit_time_signal_seed_and_vcd() {
    let min = Min::new(Network::Omega, 3).unwrap();
    let cfg = RunConfig::atape(min, 4, 77).unwrap();
    // PE 5's payload bit 1 of frame 2 (position m + 1) enters during t and leaves the
    // m = 3 stages at t + 3.
    let t = cfg.t0() + 2 * cfg.format.len() as u64 + 3 + 1;
    let dir = artifact_dir!("din_fault").unwrap();
    let mut opts = default_options(dir.path(), false);
    opts.fault = Some(Fault::Din { bit_time: t, pe: 5 });
    let r = run(&cfg, &opts).unwrap();
    assert!(!r.matched);
    let text = r.mismatch.clone().unwrap();
    for needle in [
        format!("at bit-time {}: signal `omega_atape_m3_b4.dout`", t + 3),
        "network=omega, m=3, message_bits=4, mode=atape".to_string(),
        "seed: 77".to_string(),
    ] {
        assert!(text.contains(&needle), "lacks {needle:?}: {text}");
    }
    // The failing run was repeated with a traced build; its VCD is kept and named.
    let vcd = r.vcd.clone().unwrap();
    assert!(vcd.ends_with("failure.vcd") && vcd.is_file(), "{vcd:?}");
    assert!(text.contains(&format!("VCD: {}", vcd.display())), "{text}");
}

#[test]
fn an_observation_bus_mismatch_names_the_switch() {
    let min = Min::new(Network::Cube, 3).unwrap();
    let cfg = RunConfig::atape(min, 2, 3).unwrap();
    let t = cfg.t0() + 7;
    let dir = artifact_dir!("crossed_fault").unwrap();
    let mut opts = default_options(dir.path(), false);
    opts.failure_vcd = None;
    opts.fault = Some(Fault::ExpectedCrossed {
        bit_time: t,
        stage: 1,
        switch: 2,
    });
    let r = run(&cfg, &opts).unwrap();
    let text = r.mismatch.clone().unwrap();
    assert!(
        text.contains(&format!(
            "at bit-time {t}: signal `cube_atape_m3_b2.sw_crossed`"
        )),
        "{text}"
    );
    assert!(
        text.contains("first differing switch: cube_atape_m3_b2.st1_sw2.crossed"),
        "{text}"
    );
    assert!(r.vcd.is_none());
}
