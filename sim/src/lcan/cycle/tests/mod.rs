//! Tests of the switch model through its public API: hand-traced steps and properties of
//! random legal traffic.

mod cross_arbiter;
mod hand_traces;
mod properties;
mod protocol;
mod src_mode;

use super::bits::PacketBits;
use super::{Control, Mode, SwitchModel};

/// Drives one step of `len` bit-times; packets per input (right-aligned lanes). Returns the
/// outputs of every bit-time of the step (`C(0..d)` then `D(0..u)`).
pub(super) fn step(
    m: &mut SwitchModel,
    mode: Mode,
    len: usize,
    level: u8,
    a: &[(usize, PacketBits)],
    b: &[(usize, PacketBits)],
) -> Vec<Vec<u64>> {
    let (d, u, w) = (m.params().d, m.params().u, m.params().width);
    let mut la = vec![vec![0; len]; d];
    let mut lb = vec![vec![0; len]; u];
    for (port, p) in a {
        for (t, l) in p.lanes(w).into_iter().enumerate() {
            la[*port][t] = l;
        }
    }
    for (port, p) in b {
        for (t, l) in p.lanes(w).into_iter().enumerate() {
            lb[*port][t] = l;
        }
    }
    let mut outs = Vec::new();
    for t in 0..len {
        outs.push(m.outputs());
        let ctl = Control {
            mode: mode.code(),
            last: t + 1 == len,
            level,
            ..Control::default()
        };
        let a: Vec<u64> = (0..d).map(|x| la[x][t]).collect();
        let b: Vec<u64> = (0..u).map(|k| lb[k][t]).collect();
        m.clock(&ctl, 0, &a, &b).expect("legal stimulus");
    }
    outs
}

/// Drives raw lanes for `len` bit-times of `mode` (data phases); returns the outputs.
pub(super) fn data(
    m: &mut SwitchModel,
    mode: Mode,
    a: &[Vec<u64>],
    b: &[Vec<u64>],
) -> Vec<Vec<u64>> {
    let len = a.first().map_or(0, Vec::len);
    let mut outs = Vec::new();
    for t in 0..len {
        outs.push(m.outputs());
        let ctl = Control {
            mode: mode.code(),
            last: t + 1 == len,
            ..Control::default()
        };
        let av: Vec<u64> = a.iter().map(|v| v[t]).collect();
        let bv: Vec<u64> = b.iter().map(|v| v[t]).collect();
        m.clock(&ctl, 0, &av, &bv).expect("legal stimulus");
    }
    outs.push(m.outputs());
    outs
}

/// A packet from fields `(value, width)`.
pub(super) fn pkt(fields: &[(u64, usize)]) -> PacketBits {
    let mut p = PacketBits::new();
    for &(v, w) in fields {
        p.push(v, w);
    }
    p
}

/// The bits output on port `port` during a step, as a string of 0/1 (W = 1).
pub(super) fn serial(outs: &[Vec<u64>], port: usize) -> String {
    outs.iter()
        .map(|o| if o[port] & 1 == 1 { '1' } else { '0' })
        .collect()
}
