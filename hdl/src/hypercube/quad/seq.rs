//! Unit `j`'s sequencer (`hc_quad_seq_k{K}_l{L}_j{J}`, `docs/hypercube.md` §14.2): the
//! strobes of loop `j` with the overlapped schedule, decoded from the controller's
//! period cycle `pc` (loop cycle `lc = pc − 1`) while `live` (the unit holds a batch this
//! period). Every loop cycle of [`lcanet_sim::hypercube::overlap::loop_timing`] is a
//! constant here; each channel's own cycle is `pc` minus its start, which wraps far above
//! every bound before the start, so one comparison tells "started" and "within". One
//! instance per `j`, shared by the unit `j` of every node.

use super::control::{loop_names, CROSS};
use super::{f_of, seq_name};
use crate::hypercube::overlap::control::Control;
use crate::hypercube::overlap::controller::{channel, CNT_BITS};
use crate::hypercube::parts::{down, up};
use crate::netlist::{flag, lit, zero, Module, ModuleBuilder};
use lcanet_sim::hypercube::overlap::loop_timing;
use lcanet_sim::hypercube::CubeParams;

/// The sequencer of unit `j` of the quadratic `k`-cube with `L`-bit payloads.
pub fn sequencer(p: CubeParams, j: usize) -> Module {
    let f = f_of(p, j);
    let msg = p.message_bits();
    let lt = loop_timing(p, j);
    let c = |v: u64| lit(CNT_BITS, v);
    let mut m = ModuleBuilder::new(seq_name(p, j));
    let loops = loop_names();
    let has_loop = f > 0;
    if has_loop {
        m.clock();
    }
    let reset = has_loop.then(|| m.input("reset", 1));
    let pc = m.input("pc", CNT_BITS);
    let live = m.input("live", 1);
    let ctl = Control::declare(|name| {
        if CROSS.contains(&name) || (has_loop && loops.contains(&name)) {
            m.output(name, 1)
        } else {
            flag(false)
        }
    });
    m.comment("Loop cycle lc = pc - 1 of the unit's loop, while it holds a batch");
    let on = m.def("on", &live & pc.is_not(0));
    let lc = m.def("lc", pc.minus(1));
    let within = |lo: u64, hi: u64| lc.ge(&c(lo)) & lc.le(&c(hi));
    let msg64 = msg as u64;
    m.assign(&ctl.ph_cross, &on & lc.le(&c(msg64)));
    m.assign(&ctl.x_decide, &on & lc.is(0));
    m.assign(&ctl.x_shift, &on & within(1, msg64));
    let Some(reset) = reset else {
        return m.build();
    };
    let fu = f as u64;
    let f9 = c(fu);
    let mc = c(msg64);
    let frame_end = 2 * fu + msg64 + 1;
    m.comment("The loop's channels: step 3 and step 6 (A), step 5 (B)");
    let c2 = m.def("c2", lc.minus(lt.pack2));
    let c0 = m.def("c0", lc.minus(lt.pack0));
    let cr = m.def("cr", lc.minus(lt.rdv));
    let in2 = m.def("in2", &on & c2.le(&c(frame_end)));
    let in_r = m.def("in_r", &on & cr.le(&c(frame_end)));
    let in0 = m.def("in0", &on & c0.le(&c(3 * fu + 1)));
    let ca = m.def("ca", in2.select(&c2, &cr));
    let a = channel(&mut m, "a", &ca, &f9, &mc, &(&in2 | &in_r));
    let b = channel(&mut m, "b", &c0, &f9, &f9, &in0);
    m.assign(&ctl.ph_pack2, &in2);
    m.assign(&ctl.ph_pack0, &in0);
    m.assign(&ctl.ph_rdv, &in_r);
    m.assign(&ctl.fwd, &in2 | &in0);
    m.assign(&ctl.bwd, &in_r);
    m.assign(&ctl.c_start, &a.start);
    m.assign(&ctl.c_addr, &a.addr);
    m.assign(&ctl.c_body, &a.body);
    m.assign(&ctl.c_rxstart, &a.rxstart);
    m.assign(&ctl.c_rxbody, &a.rxbody);
    m.assign(&ctl.c_window, &a.window);
    m.assign(&ctl.c_last, &a.last);
    m.assign(&ctl.p0_start, &b.start);
    m.assign(&ctl.p0_addr, &b.addr);
    m.assign(&ctl.p0_body, &b.body);
    m.assign(&ctl.p0_rxstart, &b.rxstart);
    m.assign(&ctl.p0_rxbody, &b.rxbody);
    m.assign(&ctl.s_clear, &reset | (&a.last & &in_r) | &b.last);
    m.comment("The enumeration: doubles injected at 0, empties at f, captured f+1..3f");
    m.assign(&ctl.enum_on, &on & lc.le(&c(3 * fu)));
    m.assign(&ctl.e_inj2, &on & lc.is(0));
    m.assign(&ctl.e_inj0, &on & lc.is(fu));
    m.assign(&ctl.e_cap2, &on & within(fu + 1, 2 * fu));
    m.assign(&ctl.e_cap0, &on & within(2 * fu + 1, 3 * fu));
    m.assign(&ctl.e_clear, &reset | (&on & lc.is(3 * fu)));

    let sel = m.output("sel", f);
    let sclr = m.output("sclr", f);
    let ewin = m.output("ewin", f);
    let sel_r = m.reg("sel_r", f);
    let sclr_r = m.reg("sclr_r", f);
    let ewin_r = m.reg("ewin_r", f);
    m.assign(&sel, &sel_r);
    m.assign(&sclr, &sclr_r);
    m.assign(&ewin, &ewin_r);
    let first = lit(f, 1);
    let top = lit(f, 1 << (f - 1));
    m.always(|pr| {
        pr.comment("sel: the local stage of the address (or, in step 5, body) bit sent");
        pr.if_((&a.start & !&in_r) | &b.start, |pr| pr.load(&sel_r, &first))
            .elif(&a.start & &in_r, |pr| pr.load(&sel_r, &top))
            .elif(&b.addr & c0.is(fu), |pr| pr.load(&sel_r, &first))
            .elif((&a.addr & !&in_r) | &b.addr | &b.body, |pr| {
                pr.load(&sel_r, up(&sel_r))
            })
            .elif(&a.addr & &in_r, |pr| pr.load(&sel_r, down(&sel_r)))
            .else_(|pr| pr.load(&sel_r, zero(f)));
        pr.comment("sclr: local stage l cleared at step-3 cycle f + M + 1 + l");
        pr.if_(&in2 & c2.is(fu + msg64), |pr| pr.load(&sclr_r, &first))
            .else_(|pr| pr.load(&sclr_r, up(&sclr_r)));
        pr.comment("ewin: local wire l carries the enumeration during loop cycles 1+l..=2f+l");
        let feed = &on & lc.lt(&c(2 * fu));
        pr.load(&ewin_r, up(&ewin_r) | first.when(&feed));
    });
    m.build()
}
