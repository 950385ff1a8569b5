//! The model enforces the step rules of `docs/protocol.md` §3, handles wide links, and
//! seeds the LFSRs as `docs/routing.md` §2 says.

use super::{data, pkt, step};
use crate::lcan::cycle::{
    ArbiterPolicy, Control, Mode, ProtocolError, SwitchConsts, SwitchModel, SwitchParams,
    SwitchTopology,
};

fn model(w: usize, policy: ArbiterPolicy) -> SwitchModel {
    let p = SwitchParams::new(2, 1, w, 3, SwitchTopology::Tree, policy).unwrap();
    let consts = SwitchConsts {
        level: 0,
        salt_up: 0x00F0,
        salt_dn: 0xABCD,
    };
    let mut m = SwitchModel::new(p, consts);
    m.clock(
        &Control {
            init: true,
            ..Control::default()
        },
        0x0F00,
        &[0, 0],
        &[0],
    )
    .unwrap();
    m
}

fn clock(
    m: &mut SwitchModel,
    mode: Mode,
    last: bool,
    clear: bool,
    level: u8,
) -> Result<(), ProtocolError> {
    let ctl = Control {
        mode: mode.code(),
        last,
        clear,
        level,
        ..Control::default()
    };
    m.clock(&ctl, 0, &[0, 0], &[0])
}

#[test]
fn step_rules_are_enforced() {
    let mut m = model(1, ArbiterPolicy::Fixed);
    // T_UP = 9 + 2 + 1 = 12: ending after 11 bit-times is too short.
    for _ in 0..10 {
        clock(&mut m, Mode::Up, false, false, 0).unwrap();
    }
    let e = clock(&mut m, Mode::Up, true, false, 0).unwrap_err();
    assert_eq!(
        e,
        ProtocolError::StepTooShort {
            mode: Mode::Up,
            len: 11,
            min: 12
        }
    );
    let mut m = model(1, ArbiterPolicy::Fixed);
    clock(&mut m, Mode::Down, false, false, 1).unwrap();
    let e = clock(&mut m, Mode::Down, false, false, 2).unwrap_err();
    assert_eq!(e, ProtocolError::LevelChanged { bt: 1 });
    let e = clock(&mut m, Mode::Probe, false, false, 1).unwrap_err();
    assert!(matches!(
        e,
        ProtocolError::ModeChanged {
            from: Mode::Down,
            to: Mode::Probe,
            bt: 1
        }
    ));
    let mut m = model(1, ArbiterPolicy::Fixed);
    let e = clock(&mut m, Mode::Probe, false, true, 0).unwrap_err();
    assert_eq!(e, ProtocolError::ClearInRoutingStep(Mode::Probe));
    clock(&mut m, Mode::Idle, true, true, 0).unwrap();
    assert_eq!(
        m.clock(&Control::default(), 0, &[0], &[0]).unwrap_err(),
        ProtocolError::InputCount {
            d: 2,
            u: 1,
            a: 1,
            b: 1
        }
    );
}

#[test]
fn lfsrs_start_from_seed_xor_salt() {
    let m = model(1, ArbiterPolicy::Random);
    assert_eq!(m.arbiter_up().lfsr(), 0x0F00 ^ 0x00F0);
    assert_eq!(m.arbiter_down().lfsr(), 0x0F00 ^ 0xABCD);
    let m = model(1, ArbiterPolicy::RoundRobin);
    assert_eq!(
        m.arbiter_up().lfsr(),
        0,
        "only the random policy has an LFSR"
    );
}

#[test]
fn wide_links_carry_w_bits_per_bit_time() {
    // W = 4, level 0: a probe (h 0, t = PE 1: 001) on A(0) turns to C(1); PR = 6 bits go
    // right-aligned in n(PR) = 2 bit-times: pad 00, then 1 00 001 -> lanes 0b0010, 0b0001.
    let mut m = model(4, ArbiterPolicy::Fixed);
    let t = m.format().t_probe;
    assert_eq!(m.format().nr, 2);
    step(
        &mut m,
        Mode::Probe,
        t,
        0,
        &[(0, pkt(&[(1, 1), (0, 2), (1, 3)]))],
        &[],
    );
    assert!(m.crosspoints().is_closed(0, 1), "A(0) -> C(1)");
    let outs = step(&mut m, Mode::Idle, 3, 0, &[], &[]);
    assert_eq!(
        outs.iter().map(|o| o[1]).collect::<Vec<_>>(),
        vec![0b0010, 0b0001, 0]
    );
    // Data: four lanes per bit-time through A(0) -> C(1), one bit-time later.
    let outs = data(
        &mut m,
        Mode::Pass,
        &[vec![0b1011, 0b0110], vec![0xF, 0xF]],
        &[vec![0xF, 0xF]],
    );
    assert_eq!(
        outs.iter().map(|o| o[1]).collect::<Vec<_>>(),
        vec![0, 0b1011, 0b0110]
    );
    assert_eq!(
        outs.iter().map(|o| o[0]).collect::<Vec<_>>(),
        vec![0, 0, 0],
        "C(0) is not driven"
    );
}
