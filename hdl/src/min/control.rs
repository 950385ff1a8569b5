//! The ATAPE controller (docs/min.md §3), one per network: `atape_ctrl_m<m>_f<F>`.
//!
//! It accepts `start`, counts frame positions `pos` (`0..F`) and frames `frame`
//! (`0..N`, `N = n`, or 1 with `single`), keeps `busy` until the last frame has left
//! the `m` stages (`drain` counts them down), and produces the strobes of the ATAPE
//! units (`load`, `next`, `flip`, `hdr`, `pay`) and of the stages: `dec[s]` is the
//! stage-0 strobe `sending ∧ pos = 0` delayed by `2s` bit-times (position `s`, stage
//! `s`'s tag bit, reaches stage `s` after `s` bit-times of stage latency), taken from
//! the delay line `dec_line`.

use crate::netlist::{cat, flag, lit, zero, Module, ModuleBuilder, V};

/// Width of the position counter `pos` (a frame is at most `12 + 4096` bit-times).
pub const POS_BITS: usize = 16;
/// Width of the drain counter (it counts down from `m ≤ 15`).
pub const DRAIN_BITS: usize = 4;

/// The module name of the controller of `m` stages and frames of `frame_len` bit-times.
pub fn controller_name(m: u32, frame_len: usize) -> String {
    format!("atape_ctrl_m{m}_f{frame_len}")
}

/// The controller: `clock, reset, start, single` → `busy, sending, frame[m], pos[16],
/// load, next, flip[m], hdr, pay, dec[m]`.
pub fn controller(m: u32, frame_len: usize) -> Module {
    let w = m as usize;
    assert!(
        (1..1 << DRAIN_BITS).contains(&w) && frame_len > w && frame_len <= 1 << POS_BITS,
        "lcanet-hdl bug: controller for m = {m}, F = {frame_len}"
    );
    let mut b = ModuleBuilder::new(controller_name(m, frame_len));
    b.clock();
    let reset = b.input("reset", 1);
    let start = b.input("start", 1);
    let single = b.input("single", 1);
    let busy = b.output("busy", 1);
    let sending = b.output("sending", 1);
    let frame = b.output("frame", w);
    let pos = b.output("pos", POS_BITS);
    let load = b.output("load", 1);
    let next = b.output("next", 1);
    let flip = b.output("flip", w);
    let hdr = b.output("hdr", 1);
    let pay = b.output("pay", 1);
    let dec = b.output("dec", w);

    b.comment("State");
    let run = b.reg("run", 1);
    let drain = b.reg("drain", DRAIN_BITS);
    let pos_q = b.reg("pos_q", POS_BITS);
    let frame_q = b.reg("frame_q", w);
    let single_q = b.reg("single_q", 1);
    // dec_line[k] = the stage-0 strobe delayed by k + 1 bit-times.
    let line = 2 * (w - 1);
    let dec_line = (line > 0).then(|| b.reg("dec_line", line));

    b.comment("Frame timing");
    b.assign(&busy, &run | drain.any());
    let last = b.def("last", &single_q | frame_q.all());
    let end_of_frame = b.def("end_of_frame", &run & pos_q.is(frame_len as u64 - 1));
    let dec0 = b.def("dec0", &run & pos_q.is(0));
    let in_tag = b.def("in_tag", pos_q.lt(&lit(POS_BITS, u64::from(m))));
    b.assign(&sending, &run);
    b.assign(&frame, &frame_q);
    b.assign(&pos, &pos_q);
    b.comment("Strobes of the ATAPE units");
    b.assign(&load, !&reset & !&busy & &start);
    b.assign(&next, &end_of_frame & !&last);
    b.comment("flip = the lowest set bit of frame + 1 (the Gray-code step of Table 2)");
    b.assign(&flip, frame_q.plus(1) & !&frame_q);
    b.assign(&hdr, &run & &in_tag);
    b.assign(&pay, &run & !&in_tag);
    b.comment("Decision strobes: dec[s] = dec0 delayed by 2s bit-times");
    let taps: Vec<V> = (1..w)
        .rev()
        .map(|s| dec_line.as_ref().expect("m > 1").bit(2 * s - 1))
        .chain(std::iter::once(dec0.clone()))
        .collect();
    b.assign(&dec, cat(taps));

    b.always(|p| {
        p.if_(&reset, |p| {
            p.load(&run, zero(1));
            p.load(&drain, zero(DRAIN_BITS));
            p.load(&pos_q, zero(POS_BITS));
            p.load(&frame_q, zero(w));
            p.load(&single_q, zero(1));
            if let Some(l) = &dec_line {
                p.load(l, zero(line));
            }
        })
        .else_(|p| {
            if let Some(l) = &dec_line {
                // line = 2(m - 1) ≥ 2 bits: shift dec0 in at bit 0.
                p.load(l, cat([l.bits(line - 2, 0), dec0.clone()]));
            }
            p.if_(&load, |p| {
                p.comment("Start: frame 0, position 0");
                p.load(&run, flag(true));
                p.load(&pos_q, zero(POS_BITS));
                p.load(&frame_q, zero(w));
                p.load(&single_q, &single);
            })
            .elif(&end_of_frame, |p| {
                p.load(&pos_q, zero(POS_BITS));
                p.if_(&last, |p| {
                    p.comment("Last frame sent: drain the m stages");
                    p.load(&run, zero(1));
                    p.load(&drain, lit(DRAIN_BITS, u64::from(m)));
                    p.load(&frame_q, zero(w));
                })
                .else_(|p| p.load(&frame_q, frame_q.plus(1)));
            })
            .elif(&run, |p| p.load(&pos_q, pos_q.plus(1)))
            .elif(drain.any(), |p| p.load(&drain, drain.minus(1)));
        });
    });
    b.build()
}
