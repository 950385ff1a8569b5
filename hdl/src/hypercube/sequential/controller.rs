//! The sequential cube's controller (`docs/hypercube.md` §5–§6): sequences the phases of
//! Algorithm 1 (`semi`) or Algorithm 2 (`full`), counts phase cycles, and broadcasts the
//! [`Control`] strobes, the one-hot `sel` and the thermometer `low` to every node.
//!
//! State: the phase code `phase` (3 bits, [`Phase`]), the phase cycle `cnt` (8 bits),
//! the loop thermometer `low_r` (`k` bits, `low[d] = 1` iff `d <= i`), the dimension
//! selector `sel_r` (`k` bits, a one-hot shift register), `finished` and the run's bit
//! time `bt` (16 bits). Phase lengths depend on `k` and `L` and are constants compared
//! with `cnt`.

use super::control::Control;
use crate::hypercube::Router;
use crate::netlist::{cat, lit, zero, Module, ModuleBuilder, V};
use lcanet_sim::hypercube::CubeParams;

/// Codes of the controller's `phase` register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum Phase {
    /// No run in progress (before the first load, and after `done`).
    Idle = 0,
    /// Algorithm 1.
    Semi = 1,
    /// Step 1: cross dimension `i`.
    Cross = 2,
    /// Step 2: enumerate doubles.
    Enum2 = 3,
    /// Step 3: pack the B messages.
    Pack2 = 4,
    /// Step 4: enumerate empties.
    Enum0 = 5,
    /// Step 5: empties send their addresses.
    Pack0 = 6,
    /// Step 6: rendezvous.
    Rdv = 7,
}

/// Width of the phase counter.
const CNT_BITS: usize = 8;

/// The controller of a `k`-cube with `L`-bit payloads (`hc_seq_ctrl_k{K}_l{L}`).
pub fn controller(p: CubeParams) -> Module {
    let (k, l, msg) = (p.k(), p.payload_bits(), p.message_bits());
    let c8 = |v: usize| lit(CNT_BITS, v as u64);
    let mut m = ModuleBuilder::new(Router::Sequential.ctrl_name(p));
    m.clock();
    let reset = m.input("reset", 1);
    let start = m.input("start", 1);
    let algorithm = m.input("algorithm", 1);
    let ctl = Control::outputs(&mut m);
    let sel = m.output("sel", k);
    let low = m.output("low", k);
    let bit_time = m.output("bit_time", 16);

    m.comment("State: phase code, phase cycle, loop thermometer, dimension selector, run");
    let phase = m.reg("phase", 3);
    let cnt = m.reg("cnt", CNT_BITS);
    let low_r = m.reg("low_r", k);
    let sel_r = m.reg("sel_r", k);
    let finished = m.reg("finished", 1);
    let bt = m.reg("bt", 16);

    m.comment("Phase decode");
    let is = |ph: Phase| phase.is(ph as u64);
    let busy = m.def("busy", phase.is_not(Phase::Idle as u64));
    m.assign(&ctl.ph_semi, is(Phase::Semi));
    m.assign(&ctl.ph_cross, is(Phase::Cross));
    m.assign(&ctl.ph_enum2, is(Phase::Enum2));
    m.assign(&ctl.ph_pack2, is(Phase::Pack2));
    m.assign(&ctl.ph_pack0, is(Phase::Pack0));
    m.assign(&ctl.ph_rdv, is(Phase::Rdv));
    let (semi, cross, pack0, rdv) = (&ctl.ph_semi, &ctl.ph_cross, &ctl.ph_pack0, &ctl.ph_rdv);
    m.assign(&ctl.fwd, semi | &ctl.ph_pack2 | pack0);
    m.assign(&ctl.bwd, rdv.clone());
    m.assign(&ctl.enum_on, &ctl.ph_enum2 | is(Phase::Enum0));
    let routing = m.def("routing", &ctl.fwd | &ctl.bwd);
    // Body bits B: L in semi, k in pack0, M otherwise; the last cycle is 2k + B + 1.
    let body_end = m.def(
        "body_end",
        semi.select(c8(k + l), pack0.select(c8(2 * k), c8(k + msg))),
    );
    let route_last = m.def(
        "route_last",
        semi.select(
            c8(2 * k + l + 1),
            pack0.select(c8(3 * k + 1), c8(2 * k + msg + 1)),
        ),
    );

    m.comment("Strobes (docs/hypercube.md §3.4, §4, §5)");
    let at = |v: usize| cnt.eq(&c8(v));
    let within = |lo: usize, hi: &V| cnt.ge(&c8(lo)) & cnt.le(hi);
    m.assign(&ctl.c_start, &routing & at(0));
    m.assign(&ctl.c_addr, &routing & within(1, &c8(k)));
    m.assign(&ctl.c_body, &routing & within(k + 1, &body_end));
    m.assign(&ctl.c_rxstart, &routing & at(2 * k + 1));
    m.assign(&ctl.c_rxbody, &routing & within(2 * k + 2, &route_last));
    m.assign(&ctl.c_window, &routing & within(k + 1, &route_last));
    m.assign(&ctl.e_inject, &ctl.enum_on & at(0));
    m.assign(&ctl.e_capture, &ctl.enum_on & within(k + 1, &c8(2 * k)));
    m.assign(&ctl.x_decide, cross & at(0));
    let is_last = m.def(
        "is_last",
        (&routing & cnt.eq(&route_last)) | (&ctl.enum_on & at(2 * k)) | (cross & at(msg)),
    );
    m.assign(&ctl.last, &is_last);
    m.assign(&ctl.clear, &reset | &is_last);
    m.assign(&ctl.load, &start & !&busy & !&reset);
    m.assign(&ctl.done, &finished);
    m.assign(&bit_time, &bt);
    m.assign(&low, &low_r);
    // In step 1, sel = onehot(i): the top bit of the thermometer.
    let low_top = if k == 1 {
        low_r.clone()
    } else {
        &low_r & !cat([zero(1), low_r.bits(k - 1, 1)])
    };
    m.assign(&sel, cross.select(low_top, &sel_r));

    let onehot = |d: usize| lit(k, 1 << d);
    let down = |v: &V| {
        if k == 1 {
            zero(1)
        } else {
            cat([zero(1), v.bits(k - 1, 1)])
        }
    };
    let up = |v: &V| {
        if k == 1 {
            zero(1)
        } else {
            cat([v.bits(k - 2, 0), zero(1)])
        }
    };
    // Next loop: i + 1 joins the thermometer (for k = 1 there is no next loop).
    let low_next = if k == 1 {
        lit(1, 1)
    } else {
        cat([low_r.bits(k - 2, 0), lit(1, 1)])
    };
    m.always(|pr| {
        pr.comment("The dimension selector: the bit being sent in a routing phase");
        // The first dimension: k-1 descending (rdv), 0 ascending (the same when k = 1).
        let first = if k == 1 {
            onehot(0)
        } else {
            rdv.select(onehot(k - 1), onehot(0))
        };
        pr.if_(&ctl.c_start, |pr| pr.load(&sel_r, first))
            .elif(&ctl.c_addr, |pr| {
                pr.if_(rdv, |pr| pr.load(&sel_r, down(&sel_r)))
                    .elif(pack0 & at(k), |pr| pr.load(&sel_r, onehot(k - 1)))
                    .else_(|pr| pr.load(&sel_r, up(&sel_r)));
            })
            .elif(&ctl.c_body & pack0, |pr| pr.load(&sel_r, down(&sel_r)))
            .else_(|pr| pr.load(&sel_r, zero(k)));
        pr.comment("Sequencing");
        pr.if_(&reset, |pr| {
            pr.load(&phase, lit(3, Phase::Idle as u64));
            pr.load(&finished, lit(1, 0));
            pr.load(&bt, zero(16));
            pr.load(&cnt, zero(CNT_BITS));
        })
        .elif(&ctl.load, |pr| {
            pr.load(
                &phase,
                algorithm.select(lit(3, Phase::Cross as u64), lit(3, Phase::Semi as u64)),
            );
            pr.load(&finished, lit(1, 0));
            pr.load(&bt, zero(16));
            pr.load(&cnt, zero(CNT_BITS));
            pr.load(&low_r, onehot(0));
        })
        .elif(&busy, |pr| {
            pr.load(&bt, bt.plus(1));
            pr.if_(&is_last, |pr| {
                pr.load(&cnt, zero(CNT_BITS));
                pr.case(&phase, |c| {
                    c.arm(&[Phase::Semi as u64], |pr| {
                        pr.load(&phase, lit(3, Phase::Idle as u64));
                        pr.load(&finished, lit(1, 1));
                    });
                    c.arm(&[Phase::Rdv as u64], |pr| {
                        pr.comment("End of loop i: done after i = k-1, else the next loop");
                        pr.if_(low_r.bit(k - 1), |pr| {
                            pr.load(&phase, lit(3, Phase::Idle as u64));
                            pr.load(&finished, lit(1, 1));
                        })
                        .else_(|pr| {
                            pr.load(&phase, lit(3, Phase::Cross as u64));
                            pr.load(&low_r, low_next.clone());
                        });
                    });
                    c.default(|pr| pr.load(&phase, phase.plus(1)));
                });
            })
            .else_(|pr| pr.load(&cnt, cnt.plus(1)));
        });
    });
    m.build()
}
