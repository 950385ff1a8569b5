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
    ]
}

#[test]
fn every_kind_emits_clean_word_level_verilog() {
    for (name, topo) in kinds() {
        for alg in [Algorithm::R1, Algorithm::R2, Algorithm::R3] {
            for policy in [ArbiterPolicy::Fixed, ArbiterPolicy::Random] {
                for w in [1, 3] {
                    let spec = NetSpec::new(topo.clone(), alg, policy, w, 5).unwrap();
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
