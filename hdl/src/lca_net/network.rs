//! The whole network as one design (`docs/interface.md`): the top module's vector ports,
//! the controller `ctrl`, the PE interfaces `pe<p>` and the switch fabric: `lvl<i>_sw<j>`
//! (with `lvl<i>_sw<j>_rom` in a Π network), or, written as rows ([`super::Structure`]),
//! one `lvl<i>` per level and one instance `pe` of the PE interface replicated as `n` rows
//! (its row ports the top's PE vectors themselves); one module definition per distinct
//! block.
//!
//! Inside the top, quantities are network-wide vectors with PE `p` at row `p`: `pe_up` (the
//! PEs' up-wires), `lvl0_dn` (their down-wires), `pe_pend`, `pe_hot` (level-major: PE `p`
//! pending at level `j` at bit `j·n + p`), `pe_bad`, `pe_dup`; the PE interfaces drive the top's `valid`, `rmsg` and `sent` rows
//! directly.

use super::controller::{controller_module, CtrlShape, SEQ_OUTPUTS};
use super::controller_r3::{r3_controller_module, R3CtrlShape, R3_CTL_SIGNALS};
use super::design::{header, NetGenError};
use super::fabric::{add_fabric, FabricWiring};
use super::pe::{pe_module, pe_rows_module, strobes, PeShape};
use super::spec::NetSpec;
use super::tables::PiTables;
use super::tap::{driver_module, tap_module};
use crate::lca::r3::add_r3_switch;
use crate::lca::{add_switch, Layout};
use crate::netlist::{cat, elaborate, lit, Design, ModuleBuilder, V};
use lcanet_sim::lcan::routing::Algorithm;

/// The PE instance name: `pe<p>`.
pub fn pe_instance(p: usize) -> String {
    format!("pe{p}")
}

/// The instance of the PE interfaces written as rows: `pe`.
pub const PE_ROWS_INSTANCE: &str = "pe";

/// The name of the top-level wire carrying controller strobe `s` to the PEs: `ctrl_<s>`.
pub fn strobe_net(s: &str) -> String {
    format!("ctrl_{s}")
}

/// The whole network (a panic in the generator, a bug, becomes an internal error).
pub fn network_design(spec: &NetSpec) -> Result<Design, NetGenError> {
    elaborate(&format!("network `{}`", spec.network_name()), || {
        build(spec)
    })?
}

fn build(spec: &NetSpec) -> Result<Design, NetGenError> {
    let top = spec.network_name();
    let mut design = Design::new(top.clone());
    header(&mut design, spec);
    let net = &spec.net;
    let (n, w, m_bits, abin, l) = (net.n, net.width(), net.msg_bits, net.abin, net.levels());
    let random = spec.random();
    let r3 = net.algorithm == Algorithm::R3;
    // R3: the source-routed switch, no ROMs (the route is in the stream), its controller.
    // One switch module per switch shape (levels of one shape share it).
    let mut sw: Vec<crate::netlist::Module> = Vec::with_capacity(l);
    for level in 0..l {
        let p = net.switch_at(level);
        sw.push(if r3 {
            add_r3_switch(&mut design, p.d, p.u, w, net.route_field_bits())?
        } else {
            add_switch(&mut design, &Layout::new(*p))?
        });
    }
    // R3 broadcasts ctl_* from its controller; R1 and R2 send a few registers to tap
    // drivers, whose next state goes to a tap beside each switch, which decodes ctl_* there.
    let (roms, ctrl, ctl_signals, taps) = if r3 {
        let ctrl = r3_controller_module(&spec.ctrl_module_name(), &R3CtrlShape::of(spec));
        (Vec::new(), ctrl, &R3_CTL_SIGNALS[..], None)
    } else {
        let roms = super::rom::roms_of(&mut design, spec)?;
        let shape = CtrlShape::of(spec);
        let ctrl = controller_module(&spec.ctrl_module_name(), &shape);
        let tap = tap_module(&spec.tap_module_name(), net.algorithm == Algorithm::R1);
        let driver = driver_module(&spec.tap_driver_module_name(), &shape);
        design.add_module(driver.clone())?;
        design.add_module(tap.clone())?;
        (roms, ctrl, &SEQ_OUTPUTS[..], Some((driver, tap)))
    };
    design.add_module(ctrl.clone())?;
    let pe_sh = PeShape::of(spec);
    let pe = pe_module(&spec.pe_module_name(), &pe_sh);
    design.add_module(pe.clone())?;

    let mut t = ModuleBuilder::new(top);
    let clock = t.clock();
    let reset = t.input("reset", 1);
    let start = t.input("start", 1);
    let act = t.input("act", n);
    let dst = t.input("dst", n * abin);
    let msg = t.input("msg", n * m_bits);
    let seed = random.then(|| t.input("seed", 16));
    let r3_in = r3.then(|| {
        (
            t.input("pass", n * net.pass_bits()),
            t.input("route", n * net.route_bits()),
            t.input("npass", net.pass_bits() + 1),
        )
    });
    let done = t.output("done", 1);
    let error = t.output("error", 1);
    let phase = t.output("phase", 4);
    let passes = t.output("passes", 16);
    let bit_times = t.output("bit_times", 32);
    let valid = t.output("valid", n);
    let rmsg = t.output("rmsg", n * m_bits);
    let sent = t.output("sent", n);

    t.comment("PE status vectors (PE p at row p; pe_hot: level j at row j) and the up-wires");
    let pe_up = t.wire("pe_up", n * w);
    let pend_port = super::pe::pend_port(r3);
    let pe_pend = t.wire(format!("pe_{pend_port}"), n);
    let pe_hot = t.wire("pe_hot", n * l);
    let pe_bad = t.wire("pe_bad", n);
    let pe_dup = t.wire("pe_dup", n);
    t.comment(
        "Controller: switch broadcast (R1, R2: registers, to the tap drivers) and PE strobes",
    );
    let ctl: Vec<V> = ctl_signals.iter().map(|&(c, cw)| t.wire(c, cw)).collect();
    let seed16 = random.then(|| t.wire("seed16", 16));
    let st: Vec<(&str, V)> = strobes(&pe_sh)
        .into_iter()
        .map(|(s, sw)| (s, t.wire(strobe_net(s), sw)))
        .collect();
    {
        let mut b = t
            .instance("ctrl", &ctrl)
            .pin("clock", &clock)
            .pin("reset", &reset)
            .pin("start", &start);
        if let Some(s) = &seed {
            b = b.pin("seed_in", s);
        }
        if let Some((_, _, np_in)) = &r3_in {
            b = b.pin("npass_in", np_in);
        }
        b = b
            .pin(pend_port, &pe_pend)
            .pin("hot", &pe_hot)
            .pin("bad", &pe_bad)
            .pin("dup", &pe_dup);
        for (&(c, _), v) in ctl_signals.iter().zip(&ctl) {
            b = b.pin(c, v);
        }
        if let Some(s) = &seed16 {
            b = b.pin("seed16", s);
        }
        b = b
            .pin("phase", &phase)
            .pin("done", &done)
            .pin("error", &error)
            .pin("passes", &passes)
            .pin("bit_times", &bit_times);
        for (s, v) in &st {
            b = b.pin(*s, v);
        }
        let _ = b;
    }

    t.comment("Switch fabric");
    let pe_dn = add_fabric(
        &mut design,
        &mut t,
        &FabricWiring {
            topo: &spec.topo,
            switches: &sw,
            width: w,
            pe_up: &pe_up,
            seed16: seed16.as_ref(),
            roms: &roms,
            taps: taps.as_ref().map(|(d, t)| (d, t)),
            structure: spec.structure,
        },
    )
    .map_err(|e| NetGenError::Netlist(crate::netlist::NetlistError::Internal(e)))?;

    t.comment("PE interfaces");
    let f = &net.fmt;
    let lca = pe_sh.pi.then(|| PiTables::new(&spec.topo).lca);
    // The constant pins of PE `p`: its label digits, and in a Π network its LCA-level table.
    let s_enc_of = |p: usize| lit(f.ab, f.encode_pe(p as u64).expect("p < n has a label"));
    let lca_of = |p: usize| {
        lca.as_ref().map(|lca| {
            let rows = pe_sh.lca_rows();
            let mut words = vec![0u64; (rows * f.hb).div_ceil(64)];
            for tt in 0..n {
                let h = lca[p * n + tt] as u64;
                for i in 0..f.hb {
                    if (h >> i) & 1 == 1 {
                        let bit = tt * f.hb + i;
                        words[bit / 64] |= 1 << (bit % 64);
                    }
                }
            }
            crate::netlist::lit_words(rows * f.hb, words)
        })
    };
    if spec.structure == super::Structure::Rows {
        // One instance of the PE interface as n rows: its row ports are the top's PE
        // vectors (PE p at row p; `hot` bit-major, which is pe_hot's level-major order).
        let rows = pe_rows_module(&pe, &pe_sh).map_err(|e| {
            NetGenError::Netlist(crate::netlist::NetlistError::Internal(e.to_string()))
        })?;
        design.add_module(rows.clone())?;
        let mut b = t
            .instance(PE_ROWS_INSTANCE, &rows)
            .pin("clock", &clock)
            .pin("reset", &reset)
            .pin("act_in", &act)
            .pin("dst_in", &dst)
            .pin("msg_in", &msg);
        if let Some((pass, route, _)) = &r3_in {
            b = b.pin("pass_in", pass).pin("route_in", route);
        }
        if pe_sh.has_s_enc() {
            b = b.pin("s_enc", cat((0..n).rev().map(s_enc_of)));
        }
        if lca.is_some() {
            b = b.pin("lca", cat((0..n).rev().filter_map(lca_of)));
        }
        b = b.pin("din", &pe_dn);
        for (s, v) in &st {
            b = b.pin(*s, v);
        }
        let _ = b
            .pin("dout", &pe_up)
            .pin("valid", &valid)
            .pin("rmsg", &rmsg)
            .pin("sent", &sent)
            .pin(pend_port, &pe_pend)
            .pin("hot", &pe_hot)
            .pin("bad", &pe_bad)
            .pin("dup", &pe_dup);
        design.add_module(t.build())?;
        return Ok(design);
    }
    for p in 0..n {
        let mut b = t
            .instance(pe_instance(p), &pe)
            .pin("clock", &clock)
            .pin("reset", &reset)
            .pin("act_in", act.bit(p))
            .pin("dst_in", dst.row(p, abin))
            .pin("msg_in", msg.row(p, m_bits));
        if let Some((pass, route, _)) = &r3_in {
            b = b
                .pin("pass_in", pass.row(p, net.pass_bits()))
                .pin("route_in", route.row(p, net.route_bits()));
        }
        if pe_sh.has_s_enc() {
            b = b.pin("s_enc", s_enc_of(p));
        }
        if let Some(table) = lca_of(p) {
            b = b.pin("lca", table);
        }
        b = b.pin("din", pe_dn.row(p, w));
        for (s, v) in &st {
            b = b.pin(*s, v);
        }
        let _ = b
            .pin("dout", pe_up.row(p, w))
            .pin("valid", valid.bit(p))
            .pin("rmsg", rmsg.row(p, m_bits))
            .pin("sent", sent.bit(p))
            .pin(pend_port, pe_pend.bit(p))
            .pin("hot", cat((0..l).rev().map(|j| pe_hot.bit(j * n + p))))
            .pin("bad", pe_bad.bit(p))
            .pin("dup", pe_dup.bit(p));
    }
    design.add_module(t.build())?;
    Ok(design)
}
