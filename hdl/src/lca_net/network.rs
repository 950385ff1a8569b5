//! The whole network as one design (`docs/interface.md`): top ports, the controller `ctrl`,
//! the PE interfaces `pe<p>`, and the switch fabric `lvl<i>_sw<s>`; one module definition
//! per distinct block (the switch, the PE interface, the controller and their children).

use super::controller::{Controller, CtrlShape};
use super::design::{header, NetGenError};
use super::fabric::{add_fabric, pe_down_net, FabricWiring, CTL_SIGNALS};
use super::pe::{PeInterface, PeShape};
use super::spec::NetSpec;
use crate::lca::generate::add_switch;
use crate::netlist::{names, Design, Expr, ModuleBuilder};
use crate::rusthdl::add_block;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchTopology};
use lcanet_sim::lcan::routing::Algorithm;

/// Strobes from the controller to every PE interface (controller output = PE input).
pub const STROBES: [(&str, usize); 10] = [
    ("go", 1),
    ("plan", 1),
    ("arm", 1),
    ("up_load", 1),
    ("sel_lvl", 4),
    ("deliv0", 1),
    ("deliv1", 1),
    ("data", 1),
    ("data_last", 1),
    ("ack", 1),
];

/// The controller's shape for `spec`.
pub fn ctrl_shape(spec: &NetSpec) -> CtrlShape {
    let net = &spec.net;
    CtrlShape {
        n: net.n,
        l: net.levels(),
        abin: net.abin,
        conv: net.convert,
        t_load: net.t_load,
        t_up: net.fmt.t_up,
        t_down: net.fmt.t_down,
        t_probe: net.fmt.t_probe,
        nf: net.nf,
        r1: net.algorithm == Algorithm::R1,
        random: spec.policy() == ArbiterPolicy::Random,
    }
}

/// The PE interface's shape for `spec`.
pub fn pe_shape(spec: &NetSpec) -> PeShape {
    let net = &spec.net;
    let f = &net.fmt;
    let r1 = net.algorithm == Algorithm::R1;
    PeShape {
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
        pi: matches!(net.switch.topology, SwitchTopology::Table { .. }),
    }
}

/// The PE instance name: `pe<p>`.
pub fn pe_instance(p: usize) -> String {
    format!("pe{p}")
}

/// The whole network.
pub fn network_design(spec: &NetSpec) -> Result<Design, NetGenError> {
    let top = spec.network_name();
    let mut design = Design::new(top.clone());
    header(&mut design, spec);
    let net = &spec.net;
    let (n, w, d, m, abin, l) = (
        net.n,
        net.width(),
        spec.topo.d(),
        net.msg_bits,
        net.abin,
        net.levels(),
    );
    let random = spec.policy() == ArbiterPolicy::Random;
    let sw = add_switch(&mut design, net.switch)?;
    let sw = design.module(&sw).expect("just added").clone();
    let roms = super::rom::roms_of(&mut design, spec)?;
    let ctrl = add_block(
        &mut design,
        &format!("{top}_ctrl"),
        &mut Controller::new(&ctrl_shape(spec)),
    )?;
    let ctrl = design.module(&ctrl).expect("just added").clone();
    let pe_sh = pe_shape(spec);
    let pe = add_block(
        &mut design,
        &format!("{top}_pe"),
        &mut PeInterface::new(&pe_sh),
    )?;
    let pe = design.module(&pe).expect("just added").clone();

    let mut t = ModuleBuilder::new(top);
    t.input("clock", 1).input("reset", 1).input("start", 1);
    for p in 0..n {
        t.input(format!("act_{p}"), 1);
    }
    for i in 0..n * abin {
        t.input(format!("dst_{i}"), 1);
    }
    for i in 0..n * m {
        t.input(format!("msg_{i}"), 1);
    }
    if random {
        for i in 0..16 {
            t.input(format!("seed_{i}"), 1);
        }
    }
    t.output("done", 1).output("error", 1);
    for (name, width) in [("phase", 4), ("passes", 16), ("bit_times", 32)] {
        for i in 0..width {
            t.output(format!("{name}_{i}"), 1);
        }
    }
    for p in 0..n {
        t.output(format!("valid_{p}"), 1);
    }
    for i in 0..n * m {
        t.output(format!("rmsg_{i}"), 1);
    }
    for p in 0..n {
        t.output(format!("sent_{p}"), 1);
    }

    // The controller.
    {
        let mut b = t
            .instance_of("ctrl", &ctrl)
            .pin("clock", "clock")
            .pin("reset", "reset")
            .pin("start", "start");
        if random {
            b = b.pin(
                "seed_in_0",
                Expr::concat((0..16).rev().map(|i| Expr::sig(format!("seed_{i}")))),
            );
        }
        for p in 0..n {
            b = b
                .pin(
                    format!("pend_{p}"),
                    names::output_net(&pe_instance(p), "pend"),
                )
                .pin(
                    format!("bad_{p}"),
                    names::output_net(&pe_instance(p), "bad"),
                )
                .pin(
                    format!("dup_{p}"),
                    names::output_net(&pe_instance(p), "dup"),
                );
            for j in 0..l {
                b = b.pin(
                    format!("hot_{}", p * l + j),
                    names::output_net(&pe_instance(p), &format!("hot_{j}")),
                );
            }
        }
        let _ = b;
    }
    for (name, width) in CTL_SIGNALS {
        t.net(name, width);
        t.assign(name, names::output_net("ctrl", name));
    }
    if random {
        t.net("seed16", 16);
        t.assign("seed16", names::output_net("ctrl", "seed16_0"));
    }
    t.assign("done", names::output_net("ctrl", "done"));
    t.assign("error", names::output_net("ctrl", "error"));
    for (name, width) in [("phase", 4), ("passes", 16), ("bit_times", 32)] {
        for i in 0..width {
            t.assign(
                format!("{name}_{i}"),
                Expr::bit(names::output_net("ctrl", name), i),
            );
        }
    }

    // The PE interfaces (Π: with their LCA-level tables).
    let f = &net.fmt;
    let lca = pe_sh
        .pi
        .then(|| super::tables::PiTables::new(&spec.topo).lca);
    for p in 0..n {
        let inst = pe_instance(p);
        let s_enc = f.encode_pe(p as u64).expect("p < n has a label");
        let mut b = t
            .instance_of(&inst, &pe)
            .pin("clock", "clock")
            .pin("reset", "reset")
            .pin("act_in", format!("act_{p}"));
        for i in 0..abin {
            b = b.pin(format!("dst_in_{i}"), format!("dst_{}", p * abin + i));
        }
        for i in 0..m {
            b = b.pin(format!("msg_in_{i}"), format!("msg_{}", p * m + i));
        }
        for i in 0..if pe_sh.has_s_enc() { f.ab } else { 0 } {
            b = b.pin(format!("s_enc_{i}"), Expr::constant(1, (s_enc >> i) & 1));
        }
        if let Some(lca) = &lca {
            for t in 0..n {
                let h = lca[p * n + t] as u64;
                for i in 0..f.hb {
                    b = b.pin(
                        format!("lca_{}", t * f.hb + i),
                        Expr::constant(1, (h >> i) & 1),
                    );
                }
            }
        }
        for i in 0..w {
            b = b.pin(format!("din_{i}"), pe_down_net(d, w, p, i));
        }
        for (name, _) in STROBES {
            b = b.pin(name, names::output_net("ctrl", name));
        }
        if net.convert {
            for k in 0..abin {
                b = b.pin(
                    format!("lsel_{k}"),
                    names::output_net("ctrl", &format!("lsel_{k}")),
                );
            }
        }
        let _ = b;
        t.assign(format!("valid_{p}"), names::output_net(&inst, "valid"));
        t.assign(format!("sent_{p}"), names::output_net(&inst, "sent"));
        for i in 0..m {
            t.assign(
                format!("rmsg_{}", p * m + i),
                names::output_net(&inst, &format!("rmsg_{i}")),
            );
        }
    }

    // The switches.
    let pe_up = |p: usize, lane: usize| {
        Expr::sig(names::output_net(&pe_instance(p), &format!("dout_{lane}")))
    };
    add_fabric(
        &mut t,
        &FabricWiring {
            topo: &spec.topo,
            switch: &sw,
            width: w,
            policy: spec.policy(),
            pe_up: &pe_up,
            roms: &roms,
        },
    );
    design.add_module(t.build())?;
    Ok(design)
}
