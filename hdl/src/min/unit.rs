//! The per-PE ATAPE unit (docs/min.md §3): holds the destination of the PE's current
//! message and sends its frame, tag then payload. One module per network kind and `m`:
//! `atape_unit_m<m>_tap<tap>_rot<rot>`.
//!
//! - `dst_q` (`m` bits): loaded with `first` (the PE's first destination `a_{0,j}`) at
//!   `load`; at `next` (end of a frame) it becomes `dst ⊕ flip`, which walks column `j`
//!   of the Latin square exactly as Table 2 walks the rows (`flip` is `φ_k`'s bit).
//! - `tsr` (`m` bits, the tag shift register): a copy of `dst` that rotates left by
//!   `rot` bits per header bit-time while bit `tap` goes out, so header position `p`
//!   carries destination bit `(tap - p·rot) mod m`, the bit stage `p` consumes
//!   (`lcanet_sim::min::hw::TagShifter`). After the `m` header bits it is back to `dst`.
//! - `tx = (hdr ∧ tsr[tap]) ∨ (pay ∧ din)`: the wire into the network; 0 when idle.

use crate::netlist::{cat, zero, Module, ModuleBuilder, V};
use lcanet_sim::min::hw::TagShifter;

/// The module name of the unit of an `m`-stage network with tag register `shifter`.
pub fn unit_name(m: u32, shifter: TagShifter) -> String {
    format!("atape_unit_m{m}_tap{}_rot{}", shifter.tap, shifter.rot)
}

/// `x` rotated left by `rot` bits (`0 ≤ rot < width`), as a concatenation of its parts.
fn rotate_left(x: &V, rot: usize) -> V {
    let w = x.width();
    if rot == 0 {
        x.clone()
    } else {
        cat([x.bits(w - 1 - rot, 0), x.bits(w - 1, w - rot)])
    }
}

/// The ATAPE unit: `clock, reset, load, next, hdr, pay, flip[m], first[m], din` →
/// `tx, dst[m]`.
pub fn unit(m: u32, shifter: TagShifter) -> Module {
    let (w, tap, rot) = (m as usize, shifter.tap as usize, shifter.rot as usize);
    assert!(
        w >= 1 && tap < w && rot < w.max(2),
        "lcanet-hdl bug: tag register tap {tap}, rotation {rot} for m = {m}"
    );
    let mut b = ModuleBuilder::new(unit_name(m, shifter));
    b.clock();
    let reset = b.input("reset", 1);
    let load = b.input("load", 1);
    let next = b.input("next", 1);
    let hdr = b.input("hdr", 1);
    let pay = b.input("pay", 1);
    let flip = b.input("flip", w);
    let first = b.input("first", w);
    let din = b.input("din", 1);
    let tx = b.output("tx", 1);
    let dst = b.output("dst", w);

    b.comment("State: the current destination and the tag shift register");
    let dst_q = b.reg("dst_q", w);
    let tsr = b.reg("tsr", w);
    b.comment("Next frame's destination (Table 2: flip the bit of phi_k)");
    let dst_next = b.def("dst_next", &dst_q ^ &flip);
    b.comment("The wire into the network: tag bit, then payload, 0 when idle");
    b.assign(&tx, (&hdr & tsr.bit(tap)) | (&pay & &din));
    b.assign(&dst, &dst_q);

    b.always(|p| {
        p.if_(&reset, |p| {
            p.load(&dst_q, zero(w));
            p.load(&tsr, zero(w));
        })
        .elif(&load, |p| {
            p.load(&dst_q, &first);
            p.load(&tsr, &first);
        })
        .elif(&next, |p| {
            p.load(&dst_q, &dst_next);
            p.load(&tsr, &dst_next);
        })
        .elif(&hdr, |p| {
            if rot != 0 {
                p.load(&tsr, rotate_left(&tsr, rot));
            }
        });
    });
    b.build()
}
