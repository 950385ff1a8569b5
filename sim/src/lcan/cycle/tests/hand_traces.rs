//! Steps traced by hand from `docs/protocol.md` and `docs/routing.md` (the expected values
//! are worked out in the comments, not taken from the model).

use super::{data, pkt, serial, step};
use crate::lcan::cycle::{
    ArbiterPolicy, Control, Group, Mode, SlotOutcome, SwitchConsts, SwitchModel, SwitchParams,
    SwitchTopology,
};

/// T-LCAN(2,1), l = 3, W = 1: hb = 2, ab = 3 (one bit per digit, PE number = address),
/// P1 = 9, P2 = 15, T_UP = 9 + 2 + 1 = 12, T_DOWN = 15 + 2 + 2 + 1 = 20.
fn tree21(level: u8, policy: ArbiterPolicy) -> SwitchModel {
    let p = SwitchParams::new(2, 1, 1, 3, SwitchTopology::Tree, policy).unwrap();
    let f = p.format();
    assert_eq!(
        (f.hb, f.ab, f.p1, f.p2, f.t_up, f.t_down),
        (2, 3, 9, 15, 12, 20)
    );
    let mut m = SwitchModel::new(
        p,
        SwitchConsts {
            level,
            salt_up: 0,
            salt_dn: 0,
        },
    );
    m.clock(
        &Control {
            init: true,
            ..Control::default()
        },
        0,
        &[0, 0],
        &[0],
    )
    .unwrap();
    m
}

fn p1(h: u64, s: u64, t: u64) -> crate::lcan::cycle::bits::PacketBits {
    pkt(&[(1, 1), (h, 2), (s, 3), (t, 3)])
}

#[test]
fn r1_phase1_step_two_packets_compete_for_one_upper() {
    // Level-1 switch. A(0): PE 1 -> PE 5 (001 vs 101 differ at digit 2: h = 2);
    // A(1): PE 2 -> PE 6 (h = 2). Both want the single upper; fixed priority serves r = 0.
    let mut m = tree21(1, ArbiterPolicy::Fixed);
    step(
        &mut m,
        Mode::Up,
        12,
        0,
        &[(0, p1(2, 1, 5)), (1, p1(2, 2, 6))],
        &[],
    );
    let o = m.last_outcome();
    assert_eq!(
        o.up,
        vec![SlotOutcome::Granted([Some(0), None]), SlotOutcome::Rejected]
    );
    assert!(
        m.crosspoints().closed_pairs().is_empty(),
        "phase 1 closes nothing"
    );
    // Next step: D(0) (output port 2) sends the winner unchanged: 1 10 001 101.
    let outs = step(&mut m, Mode::Up, 12, 0, &[], &[]);
    assert_eq!(serial(&outs, 2), "110001101000");
    assert_eq!(serial(&outs, 0), "000000000000");
}

#[test]
fn r1_phase2_step_claims_before_winners_then_concatenated_packets() {
    // Level-1 switch, step H: both packets have h = 1 = level and become waiting winners:
    // A(0): PE 0 -> PE 2, A(1): PE 3 -> PE 1.
    let mut m = tree21(1, ArbiterPolicy::Fixed);
    step(
        &mut m,
        Mode::Up,
        12,
        0,
        &[(0, p1(1, 0, 2)), (1, p1(1, 3, 1))],
        &[],
    );
    assert!(m.winners().iter().all(Option::is_some));
    assert_eq!(
        m.last_outcome().up,
        vec![SlotOutcome::Idle, SlotOutcome::Idle]
    );
    // Phase 2, ctl_level = 1. B(0) brings an S-claim (h 2, s = PE 1) and a D-claim
    // (h 2, s = PE 6, t = PE 3). DOWN arbiter: R = 3, keys (3-1-2, s): (0,1) < (0,6).
    //  S(0): needs up-wire in down(1, 001) = {A0}: granted, closes A0->D0, S-slot of C0.
    //  D(0): needs down-wire in down(1, 011) = {C1}: granted, closes B0->C1, D-slot of C1.
    //  X(0) (r = 1, PE 0 -> PE 2): needs A0 (taken): rejected.
    //  X(1) (r = 2, PE 3 -> PE 1): A1 and C0: granted, closes A1->C0; S-slot of C1,
    //  D-slot of C0.
    let b0 = pkt(&[(1, 1), (2, 2), (1, 3), (1, 1), (2, 2), (6, 3), (3, 3)]);
    step(&mut m, Mode::Down, 20, 1, &[], &[(0, b0)]);
    let o = m.last_outcome();
    assert_eq!(
        o.down,
        vec![
            SlotOutcome::Granted([Some(0), None]),    // S(0)
            SlotOutcome::Rejected,                    // X(0)
            SlotOutcome::Granted([Some(1), Some(0)]), // X(1)
            SlotOutcome::Granted([None, Some(1)]),    // D(0)
        ]
    );
    let xp = m.crosspoints();
    assert_eq!(xp.group(Group::AD), vec![true, false]); // A0->D0
    assert_eq!(xp.group(Group::BC), vec![false, true]); // B0->C1
    assert_eq!(xp.group(Group::AC), vec![false, false, true, false]); // A1->C0
    assert!(
        m.winners().iter().all(Option::is_none),
        "served winners are dropped"
    );
    // Next step: C0 = S(2, 001) D(1, 011, 001); C1 = S(1, 011) D(2, 110, 011).
    let outs = step(&mut m, Mode::Down, 20, 0, &[], &[]);
    assert_eq!(&serial(&outs, 0)[..15], "110001101011001");
    assert_eq!(&serial(&outs, 1)[..15], "101011110110011");
}

#[test]
fn r2_probe_steps_and_the_data_pass() {
    // CB-LCAN(2,2), l = 2 (n = 4, labels p1 p0), level 0, round-robin. hb = 1, ab = 2,
    // PR = 4, T_PROBE = 4 + 2 + 2 + 1 = 9. The switch holds PEs 2 (downer 0), 3 (downer 1).
    let p = SwitchParams::new(2, 2, 1, 2, SwitchTopology::Cb, ArbiterPolicy::RoundRobin).unwrap();
    assert_eq!(p.format().t_probe, 9);
    let mut m = SwitchModel::new(p, SwitchConsts::default());
    m.clock(
        &Control {
            init: true,
            ..Control::default()
        },
        0,
        &[0, 0],
        &[0, 0],
    )
    .unwrap();
    let probe = |h, t| pkt(&[(1, 1), (h, 1), (t, 2)]);
    // Step 0: A0 (PE 2 -> PE 0, h = 1) goes up: UP p = q = 0 -> upper 0, closes A0->D0.
    // A1 (PE 3 -> PE 2, h = 0) turns: DOWN slot X(1), r = u + 1 = 3, needs C(digit0 of 10)
    // = C0: closes A1->C0.
    step(
        &mut m,
        Mode::Probe,
        9,
        0,
        &[(0, probe(1, 0)), (1, probe(0, 2))],
        &[],
    );
    let o = m.last_outcome();
    assert_eq!(
        o.up,
        vec![SlotOutcome::Granted([Some(0), None]), SlotOutcome::Idle]
    );
    assert_eq!(o.down[3], SlotOutcome::Granted([Some(1), Some(0)])); // X(1) = u + 1
                                                                     // Round-robin: UP p = 0 + 1, q = 1; DOWN p = (3 + 1) mod 4 = 0, q = 1.
    assert_eq!(m.arbiter_up().registers(), (1, 1));
    assert_eq!(m.arbiter_down().registers(), (0, 1));
    // Step 1: outputs carry the probes (D0 = port 2: 1 1 00; C0: 1 0 10); B1 brings a
    // probe for PE 3 (h = 1): slot D(1), needs C1: closes B1->C1; DOWN p = 2, q = 0.
    let outs = step(&mut m, Mode::Probe, 9, 0, &[], &[(1, probe(1, 3))]);
    assert_eq!(serial(&outs, 2), "110000000");
    assert_eq!(serial(&outs, 0), "101000000");
    assert_eq!(
        m.last_outcome().down[5], // D(1) = u + d + 1
        SlotOutcome::Granted([None, Some(1)])
    );
    assert_eq!(m.arbiter_down().registers(), (2, 0));
    step(&mut m, Mode::Idle, 4, 0, &[], &[]);
    // Data: A0 -> D0, A1 -> C0, B1 -> C1; one register per switch.
    let outs = data(
        &mut m,
        Mode::Pass,
        &[vec![1, 0, 1], vec![1, 1, 0]],
        &[vec![0; 3], vec![1, 0, 0]],
    );
    let col = |p: usize| outs.iter().map(|o| o[p]).collect::<Vec<_>>();
    assert_eq!(col(2), vec![0, 1, 0, 1]); // D0 <- A0
    assert_eq!(col(0), vec![0, 1, 1, 0]); // C0 <- A1
    assert_eq!(col(1), vec![0, 1, 0, 0]); // C1 <- B1
    assert_eq!(col(3), vec![0, 0, 0, 0]); // D1 undriven
                                          // Reverse: a closed i->o conducts partner(o) -> partner(i):
                                          // A0->D0: B0 -> C0; A1->C0: A0 -> C1; B1->C1: A1 -> D1.
    let outs = data(&mut m, Mode::Rev, &[vec![1], vec![1]], &[vec![1], vec![0]]);
    assert_eq!(outs[1], vec![1, 1, 0, 1]);
}
