//! The R3 switch's `SRC` mode (`docs/protocol.md` §12): the worked trace of §12.3, and the
//! guard rules on illegal input.

use super::super::{ArbiterPolicy, SwitchParams, SwitchTopology};
use super::{data, serial};
use crate::lcan::cycle::{Mode, SwitchConsts, SwitchModel};

fn r3_switch(w: usize) -> SwitchModel {
    let p = SwitchParams::new(2, 2, w, 3, SwitchTopology::Cb, ArbiterPolicy::Fixed).unwrap();
    SwitchModel::r3(p, SwitchConsts::default())
}

fn bits(s: &str) -> Vec<u64> {
    s.chars().map(|c| u64::from(c == '1')).collect()
}

/// §12.3's trace: A(0) carries V, field 11 (D(1)), then the next field and the payload.
#[test]
fn worked_trace_of_protocol_md() {
    let mut m = r3_switch(1);
    let z = bits("0000000");
    let outs = data(
        &mut m,
        Mode::Src,
        &[bits("1111001"), z.clone()],
        &[z.clone(), z],
    );
    // Outputs C(0), C(1), D(0), D(1): D(1) = port 3 shows V at bit-time 3, then the stream.
    assert_eq!(serial(&outs, 3), "00011001");
    assert_eq!(serial(&outs, 2), "00000000");
    assert!(m.crosspoints().is_closed(0, 3));
    assert_eq!(m.guard_rejections(), 0);
}

/// Two headers for one output at one edge: the lower input wins; a B input may not go up;
/// an out-of-range code is refused; a driving input does not parse; never two drivers.
#[test]
fn guard_rules() {
    let mut m = r3_switch(1);
    // A(0) and A(1) both ask for C(0) (code 00); B(0) asks for D(0) (code 10, refused);
    // B(1) asks for C(1) (code 01, granted).
    let outs = data(
        &mut m,
        Mode::Src,
        &[bits("10011"), bits("10010")],
        &[bits("11000"), bits("10100")],
    );
    assert!(m.crosspoints().is_closed(0, 0));
    assert!(!m.crosspoints().is_closed(1, 0));
    assert!(!(0..4).any(|o| m.crosspoints().is_closed(2, o)));
    assert!(m.crosspoints().is_closed(3, 1));
    assert_eq!(m.guard_rejections(), 2);
    assert_eq!(serial(&outs, 0), "000111", "V, then A(0)'s 1 1");
    // A second step without clear: C(0) and C(1) are driven; A(1) asks for C(1): refused;
    // A(0) drives already, so its 1s are forwarded, not parsed.
    let before = m.guard_rejections();
    let outs = data(
        &mut m,
        Mode::Src,
        &[bits("10100"), bits("10100")],
        &[bits("00000"), bits("00000")],
    );
    assert_eq!(m.guard_rejections(), before + 1);
    assert_eq!(
        serial(&outs, 0),
        "110100",
        "the last bit of step 1, then A(0) forwarded"
    );
    for o in 0..4 {
        let drivers = (0..4).filter(|&i| m.crosspoints().is_closed(i, o)).count();
        assert!(drivers <= 1);
    }
}

/// W = 2, d + u = 4: a field is one bit-time; a code ≥ d + u cannot occur with f = 2, so
/// the range guard is checked with d = 3, u = 2 (f = 3, codes 5..7 refused).
#[test]
fn wide_links_and_range_guard() {
    let mut m = r3_switch(2);
    // V = lane 1; the field 11 in one bit-time: D(1).
    let outs = data(
        &mut m,
        Mode::Src,
        &[vec![2, 3, 1, 2], vec![0; 4]],
        &[vec![0; 4], vec![0; 4]],
    );
    assert!(m.crosspoints().is_closed(0, 3));
    assert_eq!(
        outs.iter().map(|o| o[3]).collect::<Vec<_>>(),
        vec![0, 0, 2, 1, 2]
    );
    let p = SwitchParams::new(3, 2, 1, 3, SwitchTopology::Cb, ArbiterPolicy::Fixed).unwrap();
    let mut m = SwitchModel::r3(p, SwitchConsts::default());
    let z = bits("00000");
    data(
        &mut m,
        Mode::Src,
        &[bits("11010"), z.clone(), z.clone()],
        &[z.clone(), z],
    );
    assert_eq!(m.guard_rejections(), 1, "code 6 >= d + u = 5");
    assert!(m.crosspoints().closed_pairs().is_empty());
}
