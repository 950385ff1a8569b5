//! The PE interface unit (`docs/interface.md` §5), word-level: latches a PE's destination
//! and message at start, converts the destination to label digits (`CONV`), computes its
//! LCA level, injects the set-up packet (R1 `P1` / R2 probe), learns from the delivered
//! S-claim whether it sends (R1), sends its frame, receives a frame and answers with the
//! acknowledgement, and records the acknowledgement of its own frame. R3
//! (`docs/interface.md` §11.3): latches its pass and route too, and in its pass sends the
//! source-routed stream (`V`, route fields, message) at `ARM`.
//!
//! One module serves every PE: the PE's own label digits `s_enc` (and in a Π network its
//! LCA-level table `lca`) are input ports tied to constants per instance. Registers (one
//! vector each): `act`, `dst` (`AB`), `msg` (`M`), `enc` (`ab`, only with `CONV`;
//! otherwise `enc` is `dst`), `sent_q`, `snd`, `got`, `tx` (`TX`), `rxf` (`NF·W`).

use super::spec::NetSpec;
use crate::netlist::{cat, flag, lit, replicate_with, zero, Module, ModuleBuilder, RowsError, V};
use lcanet_sim::lcan::cycle::SwitchTopology;
use lcanet_sim::lcan::routing::Algorithm;

/// Generation parameters of the PE interface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeShape {
    /// PEs `n` (range check `dst ≥ n`).
    pub n: usize,
    /// Levels `l`.
    pub l: usize,
    /// Link width `W`.
    pub w: usize,
    /// Message bits `M`.
    pub m: usize,
    /// Plain PE number bits `AB`.
    pub abin: usize,
    /// Label address bits `ab` (= `AB` unless `CONV`).
    pub ab: usize,
    /// LCA level field bits `hb`.
    pub hb: usize,
    /// Label digits: `(offset, width, radix)`, digit 0 first.
    pub digits: Vec<(usize, usize, usize)>,
    /// Conversion in `LOAD`.
    pub conv: bool,
    /// R1 (else R2 or R3).
    pub r1: bool,
    /// R3 (`docs/interface.md` §11): the stream is loaded from `pass`/`route` at `ARM`.
    pub r3: bool,
    /// R3: pass number bits `PB`.
    pub pb: usize,
    /// R3: output-port field bits `f`, field bit-times `nf`, payload bit-times `NM`.
    pub f: usize,
    /// See `f`.
    pub nfld: usize,
    /// See `f`.
    pub nm: usize,
    /// Transmit register bits `TX`.
    pub tx: usize,
    /// Bit-times of the set-up packet: `n(P1)` (R1) or `n(PR)` (R2).
    pub nset: usize,
    /// Bit-times of a frame `NF`.
    pub nf: usize,
    /// `pad2 = n(P2)·W − P2` (R1: where `vS` arrives in `DELIV` bit-time 0).
    pub pad2: usize,
    /// A Π network: the LCA level comes from the per-PE table on the `lca` port instead of
    /// label digits.
    pub pi: bool,
}

impl PeShape {
    /// The PE interface's shape for `spec`.
    pub fn of(spec: &NetSpec) -> Self {
        let net = &spec.net;
        let f = &net.fmt;
        let r1 = net.algorithm == Algorithm::R1;
        let r3 = net.algorithm == Algorithm::R3;
        PeShape {
            r3,
            pb: net.pass_bits(),
            f: net.route_field_bits(),
            nfld: net.field_bit_times(),
            nm: net.msg_bit_times(),
            n: net.n,
            l: net.levels(),
            w: net.width(),
            m: net.msg_bits,
            abin: net.abin,
            ab: f.ab,
            hb: f.hb,
            digits: f.digits.clone(),
            conv: net.convert,
            r1,
            tx: net.pe_tx_bits(),
            nset: if r1 { f.n1 } else { f.nr },
            nf: net.nf,
            pad2: f.n2 * net.width() - f.p2,
            pi: matches!(net.switch_topology(), SwitchTopology::Table { .. }),
        }
    }

    /// Whether the PE reads its own address `s_enc`: always except in a Π network with R2
    /// (no source field in the probe, and the LCA level comes from the table).
    pub fn has_s_enc(&self) -> bool {
        self.r1 || !self.pi
    }

    /// R3: bits of a route `RB = (2l − 1)·f`.
    pub fn route_bits(&self) -> usize {
        (2 * self.l - 1) * self.f
    }

    /// Rows of the Π LCA-level table on the `lca` port: `2^ab` (rows `t ≥ n` are 0, the
    /// level of an out-of-range destination).
    pub fn lca_rows(&self) -> usize {
        1 << self.ab
    }
}

/// The PE's status port read by the controller: R1/R2 `pend_next` (pending after this
/// bit-time's ack, so that the controller's `PLAN` reads a register), R3 `pend`.
pub fn pend_port(r3: bool) -> &'static str {
    if r3 {
        "pend"
    } else {
        "pend_next"
    }
}

/// The controller strobes a PE interface reads (controller output = PE input), with their
/// widths; `lsel` only with `CONV`, `up_load`, `sel_lvl`, `deliv0` only with R1; R3 has
/// `src`, `src_last` and the pass being run `pass_k` (`PB + 1` bits) instead of the
/// `DELIV`/`DATA` strobes.
pub fn strobes(s: &PeShape) -> Vec<(&'static str, usize)> {
    let mut v = vec![("go", 1)];
    if s.conv {
        v.push(("lsel", s.abin));
    }
    v.extend([("plan", 1), ("arm", 1)]);
    if s.r3 {
        v.extend([
            ("src", 1),
            ("src_last", 1),
            ("ack", 1),
            ("pass_k", s.pb + 1),
        ]);
        return v;
    }
    if s.r1 {
        v.extend([("up_load", 1), ("sel_lvl", 4), ("deliv0", 1)]);
    }
    v.extend([("deliv1", 1), ("data", 1), ("data_last", 1), ("ack", 1)]);
    v
}

/// The module of a network's `n` PE interfaces as rows: `<pe>_x<n>`.
pub fn pe_rows_module_name(pe: &str, n: usize) -> String {
    format!("{pe}_x{n}")
}

/// The PE interface `pe` (of shape `s`) replicated as the network's `n` rows
/// ([`crate::netlist::replicate`]; `docs/network-rtl.md`, "Structure"): PE `p` is row `p`
/// of every row port, `reset` and the strobes are shared, and `hot` is bit-major — PE `p`'s
/// level `j` at bit `j·n + p`, the controller's level-major `pe_hot` itself. Its outputs
/// read the strobes and `din` through wires, so they are the rows module's combinational
/// process: one loop over the PEs.
pub fn pe_rows_module(pe: &Module, s: &PeShape) -> Result<Module, RowsError> {
    let shared: Vec<&str> = std::iter::once("reset")
        .chain(strobes(s).into_iter().map(|(name, _)| name))
        .collect();
    replicate_with(
        pe,
        s.n,
        &shared,
        &[],
        &["hot"],
        &pe_rows_module_name(&pe.name, s.n),
    )
}

/// `v` with its bits in reverse order (a message kept first-bit-on-top in a link register).
pub(crate) fn reversed(v: &V) -> V {
    cat((0..v.width()).map(|i| v.bit(i)))
}

/// A concatenation that skips parts of width 0 (`cat` of what is left).
fn cat_some(parts: Vec<Option<V>>) -> V {
    cat(parts.into_iter().flatten())
}

fn zeros(w: usize) -> Option<V> {
    (w > 0).then(|| zero(w))
}

/// The PE interface module `name` for `s`.
pub fn pe_module(name: &str, s: &PeShape) -> Module {
    let (w, ab, hb, tx_bits, nfw) = (s.w, s.ab, s.hb, s.tx, s.nf * s.w);
    let mut m = ModuleBuilder::new(name);
    m.clock();
    let reset = m.input("reset", 1);
    let act_in = m.input("act_in", 1);
    let dst_in = m.input("dst_in", s.abin);
    let msg_in = m.input("msg_in", s.m);
    let r3_in = s.r3.then(|| {
        (
            m.input("pass_in", s.pb),
            m.input("route_in", s.route_bits()),
        )
    });
    let s_enc = s.has_s_enc().then(|| m.input("s_enc", ab));
    let lca = s.pi.then(|| m.input("lca", s.lca_rows() * hb));
    let din = m.input("din", w);
    let st: Vec<(&str, V)> = strobes(s)
        .into_iter()
        .map(|(n, width)| (n, m.input(n, width)))
        .collect();
    let strobe = |n: &str| st.iter().find(|(k, _)| *k == n).map(|(_, v)| v.clone());
    let go = strobe("go").expect("go");
    let dout = m.output("dout", w);
    let valid = m.output("valid", 1);
    let rmsg = m.output("rmsg", s.m);
    let sent_o = m.output("sent", 1);
    let pend_o = m.output(pend_port(s.r3), 1);
    let hot = m.output("hot", s.l);
    let bad = m.output("bad", 1);
    let dup = m.output("dup", 1);

    m.comment("Latched at start (docs/interface.md §5.1)");
    let act = m.reg("act", 1);
    let dst = m.reg("dst", s.abin);
    let msg = m.reg("msg", s.m);
    let enc_reg = s.conv.then(|| m.reg("enc", ab));
    let r3_regs =
        s.r3.then(|| (m.reg("pass", s.pb), m.reg("route", s.route_bits())));
    m.comment("Pass state: acknowledged, sends in this pass, received in this pass");
    let sent = m.reg("sent_q", 1);
    let snd = m.reg("snd", 1);
    let got = m.reg("got", 1);
    m.comment("Link registers: transmit (top W bits drive the up-wire), frame receive");
    let tx = m.reg("tx", tx_bits);
    let rxf = m.reg("rxf", nfw);

    m.comment("Status");
    let pend = m.def("pending", &act & !&sent);
    if s.r3 {
        m.assign(&pend_o, &pend);
    }
    m.assign(&sent_o, &sent);
    let range_error = if s.n.is_power_of_two() {
        flag(false)
    } else {
        dst.ge(&lit(s.abin, s.n as u64))
    };
    m.assign(&bad, &act & range_error);

    m.comment("Destination address and LCA level h_p (§5.2)");
    let enc = match &enc_reg {
        Some(e) => e.clone(),
        None => m.def("dst_enc", dst.low(ab)),
    };
    let h = match (&lca, &s_enc) {
        (Some(table), _) => m.def("lca_level", table.row_at(&enc, hb)),
        (None, Some(own)) => {
            let diff = m.def("digit_diff", own ^ &enc);
            // Digit 0 never decides the level (0 is the default).
            m.allow_unread("digit_diff");
            // The highest digit where the addresses differ (0 if none).
            let mut level = lit(hb, 0);
            for (j, &(off, dw, _)) in s.digits.iter().enumerate().skip(1) {
                if dw > 0 {
                    level = diff.part(off, dw).any().select(lit(hb, j as u64), level);
                }
            }
            m.def("lca_level", level)
        }
        (None, None) => unreachable!("a tree or cb PE reads its own address"),
    };
    // R3: only the PEs of the pass being run count for H (docs/interface.md §11.2).
    let this_pass = match &r3_regs {
        Some((pass, _)) => {
            let pk = strobe("pass_k").expect("R3");
            m.def("this_pass", pass.zext(s.pb + 1).eq(&pk))
        }
        None => flag(true),
    };
    let pend_here = &pend & &this_pass;
    m.assign(
        &hot,
        cat((0..s.l).rev().map(|j| &pend_here & h.is(j as u64))),
    );

    m.comment("Frame receive and outputs (§5.5)");
    let lanes_nz = m.def("din_nz", din.any());
    let full = rxf.bit(nfw - 1);
    m.assign(&valid, &full);
    // Message bit 0 right below the start bit (R1/R2) or below V's bit-time (R3).
    let off = if s.r3 { w } else { 1 };
    if s.r3 && w > 1 {
        // R3: V's lanes below W−1 (docs/protocol.md §12.1: always 0) are not read.
        m.allow_unread("rxf");
    }
    m.assign(&rmsg, reversed(&rxf.bits(nfw - 1 - off, nfw - off - s.m)));
    let data = strobe(if s.r3 { "src" } else { "data" }).expect("data");
    m.assign(&dup, &data & &full & &lanes_nz);
    let rx_next = if nfw > w {
        m.def("rxf_next", cat([rxf.low(nfw - w), din.clone()]))
    } else {
        din.clone()
    };
    m.assign(&dout, tx.top(w));

    let arm = strobe("arm").expect("arm");
    let (inject, packet_tx) = if let Some((_, route)) = &r3_regs {
        m.comment("R3 stream (§11.3): V, fields 0..2h of the route, the message; by h");
        let inject = m.def("inject", &pend & &this_pass & &arm);
        let (f, nfw_f) = (s.f, s.nfld * w);
        let mut stream = zero(tx_bits);
        for j in (0..s.l).rev() {
            let mut parts = vec![Some(flag(true)), zeros(w - 1)];
            for k in 0..2 * j + 1 {
                parts.push(zeros(nfw_f - f));
                parts.push(Some(route.part(k * f, f)));
            }
            parts.push(Some(reversed(&msg)));
            let used = w + (2 * j + 1) * nfw_f + s.m;
            parts.push(zeros(tx_bits - used));
            stream = h.is(j as u64).select(cat_some(parts), stream);
        }
        (inject, m.def("stream", stream))
    } else {
        m.comment("Set-up packet (§5.3): P1 = 1 | h | s | t (R1) or PR = 1 | h | t (R2)");
        let base = tx_bits - s.nset * w;
        let (inject, packet) = if s.r1 {
            let sel = strobe("sel_lvl").expect("R1");
            let up_load = strobe("up_load").expect("R1");
            let own = s_enc.clone().expect("R1 reads s_enc");
            let inject = m.def("inject", &pend & h.zext(4).eq(&sel) & (&arm | &up_load));
            let p = cat([flag(true), h.clone(), own, enc.clone()]);
            (inject, p)
        } else {
            let inject = m.def("inject", &pend & &arm);
            (inject, cat([flag(true), h.clone(), enc.clone()]))
        };
        let pad = s.nset * w - packet.width();
        let packet_tx = m.def(
            "setup_packet",
            cat_some(vec![zeros(pad), Some(packet), zeros(base)]),
        );
        (inject, packet_tx)
    };
    let frame_tx = (!s.r3).then(|| {
        m.comment("Frame (left-aligned: start bit, then msg[0], msg[1], ...) and acknowledgement");
        m.def(
            "frame",
            cat_some(vec![
                Some(flag(true)),
                Some(reversed(&msg)),
                zeros(tx_bits - 1 - s.m),
            ]),
        )
    });
    let ack_tx = cat([flag(true), zero(tx_bits - 1)]);

    let plan = strobe("plan").expect("plan");
    let deliv1 = strobe("deliv1");
    let data_last = strobe(if s.r3 { "src_last" } else { "data_last" }).expect("data_last");
    let ack = strobe("ack").expect("ack");
    if !s.r3 {
        m.comment("Pending after this bit-time's ack (the controller registers the OR)");
        m.assign(&pend_o, &pend & !(&ack & &snd & &lanes_nz));
    }
    // Label conversion in LOAD: enc <- dbl(enc, dst[k]) with lsel one-hot on k (§5.2).
    let conv_next = enc_reg.as_ref().map(|e| {
        let lsel = strobe("lsel").expect("CONV");
        m.comment("Label conversion (CONV): enc <- 2*enc + dst[k] in mixed radix");
        let bit = m.def("conv_bit", (&lsel & &dst).any());
        let mut carry = bit;
        let mut digits = Vec::new();
        let mut offset = 0;
        for (j, &(off, dw, radix)) in s.digits.iter().enumerate() {
            assert_eq!(
                off, offset,
                "lcanet-hdl bug: label digits are not contiguous"
            );
            offset += dw;
            if dw == 0 {
                // A digit of radix 1 is always 0: 2·0 + c ≥ 1 exactly when c = 1.
                continue;
            }
            let twice = m.def(
                format!("digit{j}_x2"),
                cat([e.part(off, dw), carry.clone()]),
            );
            let radix = lit(dw + 1, radix as u64);
            let over = m.def(format!("digit{j}_carry"), twice.ge(&radix));
            // Only the low `dw` bits of the difference are kept.
            let sub = m.def(format!("digit{j}_sub"), &twice - radix);
            m.allow_unread(format!("digit{j}_sub"));
            digits.push(over.select(sub.low(dw), twice.low(dw)));
            carry = over;
        }
        // The final carry is dropped (`dst ≥ n` is caught by the range check).
        if let Some(name) = carry.name() {
            m.allow_unread(name.to_string());
        }
        let next = m.def("enc_next", cat(digits.into_iter().rev()));
        (lsel.any(), next)
    });
    let vs_lane = (w - 1).checked_sub(s.pad2);

    m.always(|p| {
        p.if_(&reset, |p| {
            p.comment("Reset: every register 0");
            for r in [&act, &sent, &snd, &got] {
                p.load(r, flag(false));
            }
            p.load(&dst, zero(s.abin));
            p.load(&msg, zero(s.m));
            if let Some(e) = &enc_reg {
                p.load(e, zero(ab));
            }
            if let Some((pass, route)) = &r3_regs {
                p.load(pass, zero(s.pb));
                p.load(route, zero(s.route_bits()));
            }
            p.load(&tx, zero(tx_bits));
            p.load(&rxf, zero(nfw));
        })
        .elif(&go, |p| {
            p.comment("Start: latch the inputs, clear everything else");
            p.load(&act, &act_in);
            p.load(&dst, &dst_in);
            p.load(&msg, &msg_in);
            if let (Some((pass, route)), Some((pi, ri))) = (&r3_regs, &r3_in) {
                p.load(pass, pi);
                p.load(route, ri);
            }
            for r in [&sent, &snd, &got] {
                p.load(r, flag(false));
            }
            if let Some(e) = &enc_reg {
                p.load(e, zero(ab));
            }
            p.load(&tx, zero(tx_bits));
            p.load(&rxf, zero(nfw));
        })
        .else_(|p| {
            if let (Some(e), Some((ld, next))) = (&enc_reg, &conv_next) {
                p.if_(ld, |p| p.load(e, next));
            }
            p.comment("Transmit register: load a packet, the frame or the ack, else shift");
            let ladder = p.if_(&data_last & &got, |p| p.load(&tx, &ack_tx));
            let ladder = match (&deliv1, &frame_tx) {
                (Some(d1), Some(fr)) => ladder.elif(d1 & &snd, |p| p.load(&tx, fr)),
                _ => ladder,
            };
            ladder
                .elif(&inject, |p| p.load(&tx, &packet_tx))
                .else_(|p| p.load(&tx, tx.shl(w)));
            p.comment("Who sends: R1 the delivered S-claim's valid bit, R2 every pending PE");
            p.if_(&plan, |p| {
                p.load(&snd, flag(false));
                p.load(&got, flag(false));
            });
            if s.r1 {
                let deliv0 = strobe("deliv0").expect("R1");
                let lane = vs_lane.expect("pad2 < W");
                p.if_(&deliv0, |p| p.load(&snd, din.bit(lane)));
            } else if s.r3 {
                p.if_(&arm, |p| p.load(&snd, &inject));
            } else {
                p.if_(&arm, |p| p.load(&snd, &pend));
            }
            p.comment("Frame in: shift until the start bit reaches the top");
            p.if_(&data & !&full, |p| {
                p.load(&rxf, &rx_next);
                p.if_(rx_next.bit(nfw - 1), |p| p.load(&got, flag(true)));
            });
            p.comment("Ack in");
            p.if_(&ack & &snd & &lanes_nz, |p| p.load(&sent, flag(true)));
        });
    });
    m.build()
}
