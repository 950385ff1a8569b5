//! A node of the pipelined sort-then-pack cube (`hc_qsort_node_k{K}_l{L}`,
//! `docs/hypercube.md` §13.3). One stream flows through it, bit by bit:
//!
//! - **injection**: in a batch's load cycle A takes `{payload, dest}` and `inv` takes
//!   `!send`; the next `M + 1` cycles drive the record (`inv`, then A from its head) into
//!   `r[0]`;
//! - **sort**: `S = k(k+1)/2` compare-exchange stages; stage `i` (pass `s`, dimension
//!   `d`) sends `r[i]` on its own wire, compares it most significant bit first with the
//!   partner's stream on the same wire, and passes on its own bits until the first
//!   difference, then the stream it keeps (the larger one iff `x_d` XOR the descending
//!   bit `x_{k−2−s}`), into `r[i+1]`; its state `(decided, take)` is `sd`/`st` bit `i`;
//! - **junction**: `r[S]` holds the sorted record; it becomes a frame for the unpacking —
//!   start bit iff valid (`jv` keeps it for the rest of the record), address bits
//!   `dest_d ⊕ x_d`, the payload — into `f[0]`;
//! - **unpacking**: `k` routing stages (§3.2) on wires of their own, `f[0..k]`, delivering
//!   at `f[k]`; the payload arriving there shifts into `cp` (its first `L − 1` bits) and
//!   is latched with its valid bit into the output register (`ov`, `op`) with its last.
//!
//! Every stage is cleared by the broadcast `sclr` as the record's last bit leaves it, so
//! the next batch's record follows it without a gap.

use super::{stages, wires_per_node};
use crate::hypercube::parts::{shift_in_high, stage_next, stage_outputs};
use crate::hypercube::Router;
use crate::netlist::{cat, zero, Module, ModuleBuilder};
use lcanet_sim::hypercube::qsort::sort_stages;
use lcanet_sim::hypercube::CubeParams;

/// The strobes the node takes from the controller, in port order (`d_shift`, the
/// payload bits but the last arriving, only when `L > 1`).
pub fn strobes(l: usize) -> Vec<&'static str> {
    let mut s = vec![
        "load", "clear", "i_first", "i_body", "j_first", "j_pay", "d_start", "d_last",
    ];
    if l > 1 {
        s.push("d_shift");
    }
    s
}

/// The node of the pipelined sort-then-pack `k`-cube with `L`-bit payloads.
pub fn node(p: CubeParams) -> Module {
    let (k, l, msg) = (p.k(), p.payload_bits(), p.message_bits());
    let s = sort_stages(k);
    let w = wires_per_node(k);
    let mut m = ModuleBuilder::new(Router::QuadSort.node_name(p));
    m.clock();
    let [load, clear, i_first, i_body, j_first, j_pay, d_start, d_last] = [
        "load", "clear", "i_first", "i_body", "j_first", "j_pay", "d_start", "d_last",
    ]
    .map(|n| m.input(n, 1));
    let d_shift = (l > 1).then(|| m.input("d_shift", 1));
    let j_sel = m.input("j_sel", k);
    let sclr = m.input("sclr", s + k);
    let my_addr = m.input("my_addr", k);
    let send = m.input("send", 1);
    let dest = m.input("dest", k);
    let payload = m.input("payload", l);
    let dim_in = m.input("dim_in", w);
    let dim_out = m.output("dim_out", w);
    let rx_bit = m.output("rx_bit", 2);
    let rx_valid = m.output("rx_valid", 1);
    let rx_payload = m.output("rx_payload", l);
    let collision = m.output("collision", 1);

    m.comment("Injection: the record (inv, then A from its head)");
    let a = m.reg("a", msg);
    let inv = m.reg("inv", 1);
    m.comment("Sort: r[0..S], compare-exchange states (decided, take)");
    let r = m.reg("r", s + 1);
    let sd = m.reg("sd", s);
    let st = m.reg("st", s);
    m.comment("Junction and unpacking: jv, f[0..k], routing stage states");
    let jv = m.reg("jv", 1);
    let f = m.reg("f", k + 1);
    let fp = m.reg("fp", k);
    let fd = m.reg("fd", k);
    m.comment("Output: the payload arriving, the latched result, flags");
    let hit = m.reg("hit", 1);
    // The first L - 1 payload bits (the last goes straight into the output register).
    let cp = (l > 1).then(|| m.reg("cp", l - 1));
    let ov = m.reg("ov", 1);
    let op = m.reg("op", l);
    let coll = m.reg("coll", 1);

    m.comment("Sort stages: own stream r[i], the partner's on wire i");
    let st_list = stages(k);
    let own = m.def("own", r.low(s));
    let other = m.def("other", dim_in.low(s));
    let x_d = cat(st_list.iter().rev().map(|&(_, d)| my_addr.bit(d)));
    let desc = cat(st_list.iter().rev().map(|&(ps, _)| {
        if ps + 1 < k {
            my_addr.bit(k - 2 - ps)
        } else {
            zero(1)
        }
    }));
    let keep_max = m.def("keep_max", x_d ^ desc);
    let differ = m.def("differ", &own ^ &other);
    let take_now = m.def("take_now", &own ^ &keep_max);
    let take = m.def("take", (&sd & &st) | (!&sd & &differ & &take_now));
    let kept = m.def("kept", (&take & &other) | (!&take & &own));

    m.comment("Junction: the sorted record r[S] becomes a frame");
    let sorted = m.def("sorted", r.bit(s));
    let addr_bit = m.def("addr_bit", (&j_sel & (sorted.repeat(k) ^ &my_addr)).any());
    let frame_bit = m.def(
        "frame_bit",
        (&j_first & !&sorted) | (&jv & (&addr_bit | (&j_pay & &sorted))),
    );

    m.comment("Unpacking: routing stages (docs/hypercube.md §3.2) on wires S..S+k-1");
    let f_in = m.def("f_in", f.low(k));
    let (stay, cross_out) = stage_outputs(&mut m, &f_in, &fp, &fd);
    let link_in = m.def("link_in", dim_in.top(k));
    let meet = m.def("meet", (&stay & &link_in).any());
    let deliver = m.def("deliver", f.bit(k));

    m.comment("Links and outputs");
    m.assign(&dim_out, cat([cross_out.clone(), own.clone()]));
    m.assign(&rx_bit, cat([deliver.clone(), sorted.clone()]));
    m.assign(&rx_valid, &ov);
    m.assign(&rx_payload, &op);
    m.assign(&collision, &coll);

    let record_bit = m.def("record_bit", (&i_first & &inv) | (&i_body & a.bit(0)));
    m.always(|pr| {
        pr.comment("Injection");
        pr.if_(&load, |pr| {
            pr.load(&a, cat([payload.clone(), dest.clone()]));
            pr.load(&inv, !&send);
        })
        .elif(&i_body, |pr| pr.load(&a, shift_in_high(&a, zero(1))));
        pr.comment("Sort: r[i+1] takes the stream stage i keeps; cleared as a record leaves");
        pr.load(&r, cat([kept.clone(), record_bit.clone()]));
        let sort_clear = !sclr.low(s);
        pr.load(&sd, (&sd | &differ) & &sort_clear);
        pr.load(&st, take.clone() & &sort_clear);
        pr.comment("Junction");
        pr.if_(&j_first, |pr| pr.load(&jv, !&sorted));
        pr.comment("Unpacking: f[j+1] takes the OR of its stay input and its wire");
        pr.load(&f, cat([(&stay | &link_in), frame_bit.clone()]));
        let (pn, dn) = stage_next(&f_in, &fp, &fd);
        let route_clear = !sclr.top(k);
        pr.load(&fp, pn & &route_clear);
        pr.load(&fd, dn & &route_clear);
        pr.comment("Output register: the payload after the start bit, latched after it");
        pr.if_(&d_start, |pr| pr.load(&hit, &deliver));
        if let (Some(cp), Some(d_shift)) = (&cp, &d_shift) {
            pr.if_(d_shift, |pr| {
                pr.load(cp, shift_in_high(cp, deliver.clone()))
            });
        }
        let result = match &cp {
            Some(cp) => cat([deliver.clone(), cp.clone()]),
            None => deliver.clone(),
        };
        pr.if_(&clear, |pr| {
            pr.load(&ov, zero(1));
            pr.load(&op, zero(l));
        })
        .elif(&d_last, |pr| {
            pr.load(&ov, &hit);
            pr.load(&op, &result);
        });
        pr.if_(&clear, |pr| pr.load(&coll, zero(1)))
            .else_(|pr| pr.load(&coll, &coll | &meet));
    });
    m.build()
}
