//! The self-test design validates, follows the RTL style and names its parts.

use super::*;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};

fn spec(policy: ArbiterPolicy, fault: bool) -> SelftestSpec {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let net = NetSpec::new(topo, Algorithm::R1, policy, 1, 8).unwrap();
    SelftestSpec::new(net, 1, 10, 12_000_000, 3_000_000, fault).unwrap()
}

#[test]
fn emits_and_follows_the_style() {
    for (policy, fault) in [(ArbiterPolicy::Fixed, false), (ArbiterPolicy::Random, true)] {
        let e = selftest_emit(&spec(policy, fault)).unwrap();
        assert!(e.top.starts_with("selftest_lcan_tree_d2_u1_l2_w1_m8_r1_"));
        let files: Vec<(String, String)> = e
            .modules
            .iter()
            .map(|m| (m.name.clone(), m.contents.clone()))
            .collect();
        let top = &files.last().unwrap().1;
        assert!(top.contains("reg [31:0] rng;"), "{top}");
        assert_eq!(top.contains("TEST-ONLY FAULT"), fault);
        assert!(e.file_list.contents.lines().count() >= 4);
    }
}
