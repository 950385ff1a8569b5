//! Every network kind elaborates, validates and passes the RTL style check.

use super::*;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};

pub(crate) fn kinds() -> Vec<(&'static str, Topology)> {
    let cb = Topology::complete_bipartite(2, 2, Size::Levels(2)).unwrap();
    vec![
        ("tree", Topology::tree(2, 1, Size::Levels(2)).unwrap()),
        ("tree3", Topology::tree(3, 1, Size::Levels(2)).unwrap()),
        ("cb", cb.clone()),
        ("pi", Topology::from_pi_text(&cb.to_pi_text()).unwrap()),
        // Per-level sizes: a capped fat-tree (levels 1-3 of one shape: one rows instance)
        // and a CB-LCAN with thin bottom levels, and the latter as a Π file.
        (
            "fat",
            Topology::tree_per_level(&[2, 4, 4, 4], &[2, 2, 2, 2]).unwrap(),
        ),
        ("cbpl", cb_per_level()),
        (
            "pipl",
            Topology::from_pi_text(&cb_per_level().to_pi_text()).unwrap(),
        ),
    ]
}

fn cb_per_level() -> Topology {
    Topology::complete_bipartite_per_level(&[2, 2, 2], &[1, 1, 2]).unwrap()
}

#[test]
fn every_kind_emits_clean_word_level_verilog() {
    for (name, topo) in kinds() {
        for alg in [Algorithm::R1, Algorithm::R2, Algorithm::R3] {
            for policy in [ArbiterPolicy::Fixed, ArbiterPolicy::Random] {
                for (w, structure) in [(1, Structure::Instances), (3, Structure::Rows)] {
                    let spec = NetSpec::new(topo.clone(), alg, policy, w, 5)
                        .unwrap()
                        .with_structure(structure);
                    let emitted = network_design(&spec)
                        .unwrap_or_else(|e| panic!("{name} {alg:?} {policy:?} W={w}: {e}"))
                        .emit()
                        .unwrap_or_else(|e| panic!("{name} {alg:?} {policy:?} W={w}: {e}"));
                    let issues = crate::style::check_files(
                        emitted
                            .modules
                            .iter()
                            .map(|f| (f.name.as_str(), f.contents.as_str())),
                    );
                    assert!(issues.is_empty(), "{name}: {issues:?}");
                }
            }
        }
    }
}

/// Per-level sizes as rows: consecutive levels of one shape share one rows instance (`level`
/// a row port), other levels keep their own; a uniform network keeps one per level.
#[test]
fn rows_groups_follow_the_switch_shapes() {
    use super::fabric::{row_groups, rows_instance};
    let fat = Topology::tree_per_level(&[2, 4, 8, 16, 16, 16], &[2, 4, 8, 8, 8, 8]).unwrap();
    assert_eq!(row_groups(&fat), vec![0..1, 1..2, 2..3, 3..6]);
    assert_eq!(rows_instance(&(3..6)), "lvl3_to_5");
    let uni = Topology::tree(2, 1, Size::Levels(4)).unwrap();
    assert_eq!(row_groups(&uni), vec![0..1, 1..2, 2..3, 3..4]);
    let spec = NetSpec::new(fat, Algorithm::R1, ArbiterPolicy::RoundRobin, 1, 4)
        .unwrap()
        .with_structure(Structure::Rows);
    let emitted = network_design(&spec).unwrap().emit().unwrap();
    let names: Vec<&str> = emitted
        .modules
        .iter()
        .map(|m| m.name.as_str())
        .filter(|n| n.starts_with("lca_switch_"))
        .collect();
    assert_eq!(
        names,
        vec![
            "lca_switch_tree_d2_u2_w1_l6_rr_lv0_x32.v",
            "lca_switch_tree_d4_u4_w1_l6_rr_lv1_x16.v",
            "lca_switch_tree_d8_u8_w1_l6_rr_lv2_x8.v",
            "lca_switch_tree_d16_u8_w1_l6_rr_lv3_4_5_x7.v",
        ]
    );
    let top = &emitted.modules.last().unwrap().contents;
    assert!(top.contains("lvl3_to_5 ("), "{top}");
    assert!(
        top.contains(".level({4'd5, 4'd4, 4'd4, 4'd3, 4'd3, 4'd3, 4'd3})"),
        "{top}"
    );
}

#[test]
fn the_rtl_digest_names_the_verilog_and_nothing_else() {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let emit = |alg, policy| {
        network_design(&NetSpec::new(topo.clone(), alg, policy, 1, 8).unwrap())
            .unwrap()
            .emit()
            .unwrap()
    };
    let a = emit(Algorithm::R1, ArbiterPolicy::Fixed);
    assert_eq!(a.digest().len(), 16);
    assert!(a.digest().chars().all(|c| c.is_ascii_hexdigit()));
    // Deterministic: the same parameters give the same digest.
    assert_eq!(
        a.digest(),
        emit(Algorithm::R1, ArbiterPolicy::Fixed).digest()
    );
    // Another policy or algorithm is other Verilog.
    assert_ne!(
        a.digest(),
        emit(Algorithm::R1, ArbiterPolicy::Random).digest()
    );
    assert_ne!(
        a.digest(),
        emit(Algorithm::R2, ArbiterPolicy::Fixed).digest()
    );
    // One character of one module changes it.
    let mut b = a.clone();
    b.modules[0].contents.push(' ');
    assert_ne!(a.digest(), b.digest());
}

/// R1 and R2: each switch (each rows instance) reads `ctl_*` from a tap of its own, every
/// [`TAPS_PER_DRIVER`](super::tap::TAPS_PER_DRIVER) taps in order read one driver, and no
/// switch reads a network-wide `ctl_*` net (the fan-out tree, `docs/interface.md` §4); R3
/// keeps its controller's broadcast.
#[test]
fn every_switch_has_its_own_tap() {
    use super::fabric::{row_groups, rows_instance, switch_instance};
    use super::tap::{driver_instance, tap_instance, TAPS_PER_DRIVER};
    use crate::netlist::Expr;
    // 12 switches: two drivers, the second with 4 taps.
    let topo = Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap();
    for alg in [Algorithm::R1, Algorithm::R2, Algorithm::R3] {
        for structure in [Structure::Instances, Structure::Rows] {
            let spec = NetSpec::new(topo.clone(), alg, ArbiterPolicy::Fixed, 1, 2)
                .unwrap()
                .with_structure(structure);
            let design = network_design(&spec).unwrap();
            let top = design.module(&spec.network_name()).unwrap();
            let taps: Vec<&str> = top
                .body
                .instances()
                .filter(|i| i.module == spec.tap_module_name())
                .map(|i| i.name.as_str())
                .collect();
            let owners: Vec<String> = match structure {
                Structure::Instances => (0..topo.levels())
                    .flat_map(|i| (0..topo.switch_count(i)).map(move |j| switch_instance(i, j)))
                    .collect(),
                Structure::Rows => row_groups(&topo).iter().map(rows_instance).collect(),
            };
            let want: Vec<String> = match alg {
                Algorithm::R3 => Vec::new(),
                _ => owners.iter().map(|o| tap_instance(o)).collect(),
            };
            assert_eq!(taps, want, "{alg:?} {structure:?}");
            let drivers: Vec<&str> = top
                .body
                .instances()
                .filter(|i| i.module == spec.tap_driver_module_name())
                .map(|i| i.name.as_str())
                .collect();
            let want_drivers: Vec<String> = (0..want.len().div_ceil(TAPS_PER_DRIVER))
                .map(driver_instance)
                .collect();
            assert_eq!(drivers, want_drivers, "{alg:?} {structure:?}");
            for (t, tap) in want.iter().enumerate() {
                let inst = top.body.instances().find(|i| &i.name == tap).unwrap();
                let phase = inst.pins.iter().find(|p| p.port == "tap_phase").unwrap();
                let net = format!("{}_tap_phase", driver_instance(t / TAPS_PER_DRIVER));
                assert_eq!(phase.expr, Some(Expr::Signal(net)), "{tap}");
            }
            let text = design.emit().unwrap();
            let top_text = &text
                .modules
                .iter()
                .find(|f| f.name == format!("{}.v", spec.network_name()))
                .unwrap()
                .contents;
            let shared = top_text.contains(".ctl_mode(ctl_mode)");
            assert_eq!(shared, alg == Algorithm::R3, "{alg:?} {structure:?}");
        }
    }
}
