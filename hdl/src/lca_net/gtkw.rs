//! The GTKWave save file (`.gtkw`) of a network and the translate filter files it uses
//! (written by [`crate::gtkw`]): vectors (never single bits of a quantity), grouped — the
//! controller, the network-wide PE vectors, one group per PE interface, one per switch
//! level (its link vectors and its switches' ports and crosspoints, in binary) — with the
//! phase (filter `^1`) and switch-mode (filter `^2`) codes shown by name.

use super::controller::{CTL_SIGNALS, MODES, PHASES};
use super::controller_r3::{R3_CTL_SIGNALS, R3_MODES, R3_PHASES};
use super::fabric::{down_links, row_groups, rows_instance, switch_instance, up_links};
use super::network::{pe_instance, PE_ROWS_INSTANCE};
use super::spec::NetSpec;
use super::spec::Structure;
use super::tap::tap_instance;
pub use crate::gtkw::GtkwFiles;
use crate::gtkw::{filter, Group, Trace, MAX_DETAILED};
use crate::netlist::names;
use lcanet_sim::lcan::routing::Algorithm;

/// The GTKWave files of the network of `spec`.
pub fn network_gtkw(spec: &NetSpec) -> GtkwFiles {
    let net = &spec.net;
    let (n, l, w, m, ab) = (net.n, net.levels(), net.width(), net.msg_bits, net.abin);
    let r3 = net.algorithm == Algorithm::R3;
    let pkb = net.pass_bits() + 1;
    let mut ctl = vec![
        Trace::new("clock", 1),
        Trace::new("reset", 1),
        Trace::new("start", 1),
        Trace::new("phase", 4).named(1),
        Trace::new("ctrl.bt", 10),
    ];
    if r3 {
        // R3: the pass counter and the latched number of passes instead of lv.
        ctl.push(Trace::new("ctrl.pk", pkb));
        ctl.push(Trace::new("ctrl.npass", pkb));
    } else {
        ctl.push(Trace::new("ctrl.lv", 5));
    }
    ctl.extend([
        Trace::new("ctrl.top", 4),
        Trace::new("passes", 16),
        Trace::new("bit_times", 32),
        Trace::new("done", 1),
        Trace::new("error", 1),
    ]);
    let ctl_signals = if r3 {
        &R3_CTL_SIGNALS[..]
    } else {
        &CTL_SIGNALS[..]
    };
    // R1, R2: the broadcast as the first switch's tap decodes it (every tap's is the same).
    let tap = (!r3).then(|| {
        tap_instance(&match spec.structure {
            Structure::Instances => switch_instance(0, 0),
            Structure::Rows => rows_instance(&row_groups(&spec.topo)[0]),
        })
    });
    for &(name, width) in ctl_signals {
        let t = match &tap {
            Some(tap) => Trace::new(names::output_net(tap, name), width),
            None => Trace::new(name, width),
        };
        ctl.push(if name == "ctl_mode" { t.named(2) } else { t });
    }
    if spec.random() {
        ctl.push(Trace::new("seed16", 16));
    }
    let mut groups = vec![
        Group {
            name: "controller".into(),
            traces: ctl,
        },
        Group {
            name: "PEs (PE p at row p)".into(),
            traces: [
                Trace::new("act", n),
                Trace::new("dst", n * ab),
                Trace::new("msg", n * m),
            ]
            .into_iter()
            .chain(
                r3.then(|| {
                    [
                        Trace::new("pass", n * net.pass_bits()),
                        Trace::new("route", n * net.route_bits()),
                        Trace::new("npass", pkb),
                    ]
                })
                .into_iter()
                .flatten(),
            )
            .chain([
                Trace::new("pe_up", n * w),
                Trace::new(down_links(0), n * w),
                Trace::new(format!("pe_{}", super::pe::pend_port(r3)), n),
                Trace::new("pe_hot", n * l),
                Trace::new("valid", n),
                Trace::new("rmsg", n * m),
                Trace::new("sent", n),
            ])
            .collect(),
        },
    ];
    let pe = super::pe::PeShape::of(spec);
    // Instances: the first PEs one by one; rows: the PE vectors of the rows instance (PE p
    // at row p of each; its wires, such as `lca_level`, are temporaries of its loops).
    let pe_scopes: Vec<(String, usize)> = match spec.structure {
        Structure::Instances => (0..n.min(MAX_DETAILED))
            .map(|p| (pe_instance(p), 1))
            .collect(),
        Structure::Rows => vec![(PE_ROWS_INSTANCE.to_string(), n)],
    };
    for (i, rows) in pe_scopes {
        let mut t = vec![
            Trace::new(format!("{i}.act"), rows),
            Trace::new(format!("{i}.dst"), rows * ab),
            Trace::new(format!("{i}.msg"), rows * m),
        ];
        if pe.conv {
            t.push(Trace::new(format!("{i}.enc"), rows * pe.ab));
        }
        if r3 {
            t.push(Trace::new(format!("{i}.pass"), rows * pe.pb));
            t.push(Trace::new(format!("{i}.route"), rows * pe.route_bits()));
        }
        if rows == 1 {
            t.push(Trace::new(format!("{i}.lca_level"), pe.hb));
        }
        t.extend([
            Trace::new(format!("{i}.sent"), rows),
            Trace::new(format!("{i}.snd"), rows),
            Trace::new(format!("{i}.got"), rows),
            Trace::new(format!("{i}.tx"), rows * pe.tx),
            Trace::new(format!("{i}.rxf"), rows * pe.nf * w),
        ]);
        groups.push(Group {
            name: if rows == 1 {
                format!("PE {} interface", &i[2..])
            } else {
                "PE interfaces (rows: PE p at row p)".to_string()
            },
            traces: t,
        });
    }
    for level in 0..l {
        let count = spec.topo.switch_count(level);
        let (d, u) = (spec.topo.d_at(level), spec.topo.u_at(level));
        let mut t = vec![
            Trace::new(up_links(level), count * u * w),
            Trace::new(down_links(level), count * d * w),
        ];
        // Instances: the first switches one by one; rows: the level's vectors (switch j
        // at row j of each), or, for levels written as one rows instance (per-level sizes),
        // that instance's vectors in the group of its first level.
        let scopes: Vec<(String, usize)> = match spec.structure {
            Structure::Instances => (0..count.min(MAX_DETAILED))
                .map(|sw| (switch_instance(level, sw), 1))
                .collect(),
            Structure::Rows => row_groups(&spec.topo)
                .into_iter()
                .filter(|g| g.start == level)
                .map(|g| {
                    let rows = g.clone().map(|i| spec.topo.switch_count(i)).sum();
                    (rows_instance(&g), rows)
                })
                .collect(),
        };
        for (i, rows) in scopes {
            for (port, width) in [("a", d * w), ("b", u * w), ("c", d * w), ("d", u * w)] {
                t.push(Trace::new(format!("{i}.{port}"), rows * width));
            }
            for (xp, width) in [
                ("xp_ac", d * d),
                ("xp_ad", d * u),
                ("xp_bc", u * d),
                ("xp_bd", u * u),
            ] {
                t.push(Trace::new(format!("{i}.{xp}"), rows * width).binary());
            }
            if r3 {
                // The SRC parsers (docs/protocol.md §12.2).
                let ports = d + u;
                let nfw = net.field_bit_times() * w;
                let scb = lcanet_sim::lcan::cycle::params::clog2(net.field_bit_times() + 2);
                t.push(Trace::new(format!("{i}.sc"), rows * ports * scb));
                t.push(Trace::new(format!("{i}.sf"), rows * ports * nfw).binary());
            }
        }
        groups.push(Group {
            name: format!("level {level} switches"),
            traces: t,
        });
    }
    GtkwFiles {
        view: None,
        top: spec.network_name(),
        groups,
        filters: if r3 {
            vec![
                filter("lcan_phase.txt", &R3_PHASES),
                filter("lca_mode.txt", &R3_MODES),
            ]
        } else {
            vec![
                filter("lcan_phase.txt", &PHASES),
                filter("lca_mode.txt", &MODES),
            ]
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lca_net::network_design;
    use crate::lca_net::tests::kinds;
    use lcanet_sim::lcan::cycle::ArbiterPolicy;
    use lcanet_sim::lcan::routing::Algorithm;

    /// Every trace names a signal of the network's RTL, with its width, whatever the kind,
    /// algorithm, policy, link width and structure.
    #[test]
    fn every_trace_is_a_signal_of_the_network() {
        for (name, topo) in kinds() {
            for (alg, policy, w) in [
                (Algorithm::R1, ArbiterPolicy::RoundRobin, 1),
                (Algorithm::R2, ArbiterPolicy::Random, 2),
                (Algorithm::R3, ArbiterPolicy::Fixed, 2),
            ] {
                for structure in [Structure::Instances, Structure::Rows] {
                    let spec = NetSpec::new(topo.clone(), alg, policy, w, 5)
                        .unwrap()
                        .with_structure(structure);
                    let files = network_gtkw(&spec);
                    let problems = files.mismatches(&network_design(&spec).unwrap());
                    assert!(
                        problems.is_empty(),
                        "{name} {alg:?} {structure:?}: {problems:?}"
                    );
                    let named = files.groups[0].traces.iter();
                    assert!(
                        named
                            .filter(|t| matches!(t.show, crate::gtkw::Show::Named(_)))
                            .count()
                            == 2
                    );
                }
            }
        }
    }
}
