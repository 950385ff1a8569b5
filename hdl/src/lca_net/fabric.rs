//! The switch fabric of a whole LCA network: one instance of the (single) switch module per
//! `(level, switch)` of a [`Topology`], named `lvl<i>_sw<s>`, wired per the topology's links.
//!
//! Wiring (every link is two wires, each `W` lanes, one 1-bit net per lane):
//! - upper `k` of `lvl<i>_sw<s>` ↔ downer `x` of `lvl<i+1>_sw<p>` where `(p, x)` =
//!   [`Topology::up_link`]: the child's `D(k)` drives the parent's `A(x)`, the parent's `C(x)`
//!   drives the child's `B(k)`;
//! - level-0 downer `x` of switch `s` is PE `s·d + x`: its `A(x)` lanes come from the caller
//!   ([`FabricWiring::pe_up`]), its `C(x)` lanes are the nets `lvl0_sw<s>_c_<x·W+l>`
//!   ([`pe_down_net`]);
//! - the top level's uppers are tied off: `B(k)` = 0, `D(k)` unread.
//!
//! Every switch reads the broadcast control nets `ctl_init`, `ctl_mode` (3), `ctl_last`,
//! `ctl_clear`, `ctl_level` (4) and the clock `clock`; the random policy also reads `seed16`
//! (16) and gets the constant salts `splitmix64(2g + a) as u16` (`docs/protocol.md` §5) with
//! `g` the switch's global index. The caller declares those signals (ports or nets).

use crate::netlist::{names, Expr, Module, ModuleBuilder};
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::Topology;
use lcanet_sim::rng::splitmix64;

/// Names of the broadcast control signals the fabric reads.
pub const CTL_SIGNALS: [(&str, usize); 5] = [
    ("ctl_init", 1),
    ("ctl_mode", 3),
    ("ctl_last", 1),
    ("ctl_clear", 1),
    ("ctl_level", 4),
];

/// How the fabric meets the rest of the network.
pub struct FabricWiring<'a> {
    /// The topology to build.
    pub topo: &'a Topology,
    /// The switch module (every instance uses it).
    pub switch: &'a Module,
    /// Link width `W`.
    pub width: usize,
    /// The arbiter policy the switch was generated with (random adds seed and salts).
    pub policy: ArbiterPolicy,
    /// Lane `l` of the PE-to-switch wire of PE `p` (drives level-0 `A`).
    pub pe_up: &'a dyn Fn(usize, usize) -> Expr,
    /// Π networks: the route ROM module of each switch, by global index (empty for tree
    /// and cb). Switch `lvl<i>_sw<j>` gets an instance `lvl<i>_sw<j>_rom` of it.
    pub roms: &'a [Module],
}

/// The net carrying lane `lane` of the switch-to-PE wire of PE `pe` (`C` of its level-0
/// switch): `lvl0_sw<pe/d>_c_<(pe mod d)·W + lane>`.
pub fn pe_down_net(d: usize, width: usize, pe: usize, lane: usize) -> String {
    names::output_net(
        &names::lvl_sw(0, pe / d),
        &format!("c_{}", (pe % d) * width + lane),
    )
}

/// The instance name of switch `(level, sw)`: `lvl<level>_sw<sw>`.
pub fn switch_instance(level: usize, sw: usize) -> String {
    names::lvl_sw(level, sw)
}

/// The arbiter salts of the switch with global index `g`: `(salt_up, salt_dn)`.
pub fn salts(g: usize) -> (u16, u16) {
    (
        splitmix64(2 * g as u64) as u16,
        splitmix64(2 * g as u64 + 1) as u16,
    )
}

/// Adds every switch of the fabric to `m` and wires them. Level ports are 4-bit constants.
pub fn add_fabric(m: &mut ModuleBuilder, w: &FabricWiring<'_>) {
    let topo = w.topo;
    let (d, u, width) = (topo.d(), topo.u(), w.width);
    let levels = topo.levels();
    let rnd = w.policy == ArbiterPolicy::Random;
    // Which child feeds each parent downer: (level+1, parent, downer) -> (child, upper).
    for level in 0..levels {
        for sw in 0..topo.switch_count(level) {
            let inst = switch_instance(level, sw);
            let g = topo.global_index(level, sw);
            let rom = w.roms.get(g).map(|r| {
                let ri = super::rom::rom_instance(&inst);
                m.instance_of(&ri, r);
                (
                    names::output_net(&ri, "tab_dn"),
                    names::output_net(&ri, "tab_up"),
                    r,
                )
            });
            let mut b = m
                .instance_of(&inst, w.switch)
                .pin("clock", "clock")
                .pin("level", Expr::constant(4, level as u64));
            for (name, _) in CTL_SIGNALS {
                b = b.pin(name, name);
            }
            if rnd {
                let (su, sd) = salts(g);
                b = b
                    .pin("seed16_0", "seed16")
                    .pin("salt_up_0", Expr::constant(16, u64::from(su)))
                    .pin("salt_dn_0", Expr::constant(16, u64::from(sd)));
            }
            if let Some((dn, up, r)) = &rom {
                let width_of = |p: &str| r.port(p).map_or(0, |p| p.width);
                for i in 0..width_of("tab_dn") {
                    b = b.pin(format!("tab_dn_{i}"), Expr::bit(dn.as_str(), i));
                }
                for i in 0..width_of("tab_up") {
                    b = b.pin(format!("tab_up_{i}"), Expr::bit(up.as_str(), i));
                }
            }
            // A(x): from a PE or from a child's D(k).
            for x in 0..d {
                for l in 0..width {
                    let src = match topo.down_link(level, sw, x) {
                        lcanet_sim::lcan::DownEnd::Pe(p) => (w.pe_up)(p, l),
                        lcanet_sim::lcan::DownEnd::Switch { switch, upper } => {
                            Expr::sig(names::output_net(
                                &switch_instance(level - 1, switch),
                                &format!("d_{}", upper * width + l),
                            ))
                        }
                    };
                    b = b.pin(format!("a_{}", x * width + l), src);
                }
            }
            // B(k): from the parent's C(x), or 0 at the top.
            for k in 0..u {
                for l in 0..width {
                    let src = match topo.up_link(level, sw, k) {
                        Some((p, x)) => Expr::sig(names::output_net(
                            &switch_instance(level + 1, p),
                            &format!("c_{}", x * width + l),
                        )),
                        None => Expr::constant(1, 0),
                    };
                    b = b.pin(format!("b_{}", k * width + l), src);
                }
            }
            let _ = b;
            if level + 1 == levels {
                for k in 0..u * width {
                    m.allow_unread(names::output_net(&inst, &format!("d_{k}")));
                }
            }
        }
    }
}
