//! The self-test designs validate, follow the RTL style and name their parts, for every
//! family.

use super::*;
use crate::style::check_files;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_sim::min::Network;

fn lca(policy: ArbiterPolicy) -> DutSpec {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    DutSpec::Lca(Box::new(
        NetSpec::new(topo, Algorithm::R1, policy, 1, 8).unwrap(),
    ))
}

fn spec(dut: DutSpec, fault: bool) -> SelftestSpec {
    SelftestSpec::new(dut, 1, 10, 12_000_000, 3_000_000, fault).unwrap()
}

/// Emits `s` and checks the style; returns the top's text.
fn emit(s: &SelftestSpec) -> String {
    let e = selftest_emit(s).unwrap();
    assert_eq!(e.top, s.top_name());
    let issues = check_files(
        e.modules
            .iter()
            .map(|m| (m.name.as_str(), m.contents.as_str())),
    );
    assert!(issues.is_empty(), "{issues:?}");
    let list = &e.file_list.contents;
    assert!(
        list.contains(&format!("{}.v", s.dut.network_name())),
        "{list}"
    );
    assert!(list.contains(&format!("{}.v", s.report_name())), "{list}");
    e.modules.last().unwrap().contents.clone()
}

#[test]
fn lca_emits_and_follows_the_style() {
    for (policy, fault) in [(ArbiterPolicy::Fixed, false), (ArbiterPolicy::Random, true)] {
        let s = spec(lca(policy), fault);
        assert!(s
            .top_name()
            .starts_with("selftest_lcan_tree_d2_u1_l2_w1_m8_r1_"));
        let top = emit(&s);
        assert!(top.contains("rng = 32'd1;"), "{top}");
        // The destination table powers up as the identity (PE p at row p).
        assert!(top.contains("perm = 8'd228;"), "{top}"); // 0b11_10_01_00
        assert!(top.contains("cnt_passes"), "{top}");
        assert_eq!(top.contains("TEST-ONLY FAULT"), fault);
    }
}

#[test]
fn cube_and_min_emit_and_follow_the_style() {
    for alg in [CubeAlgorithm::Full, CubeAlgorithm::Semi] {
        for fault in [false, true] {
            let s = spec(DutSpec::cube(3, 4, alg).unwrap(), fault);
            let top = emit(&s);
            assert!(top.contains("hypercube_k3_l4 net ("), "{top}");
            assert!(top.contains("cnt_messages"), "{top}");
            assert_eq!(top.contains("TEST-ONLY FAULT"), fault);
            assert_eq!(s.top_name().ends_with("_semi"), alg == CubeAlgorithm::Semi);
        }
    }
    for net in Network::ALL {
        for m in 1..=3 {
            for fault in [false, true] {
                let dut = DutSpec::Min {
                    min: Min::new(net, m).unwrap(),
                    message_bits: 3,
                };
                let s = spec(dut, fault);
                let top = emit(&s);
                assert!(
                    top.contains(&format!("{}_atape_m{m}_b3 net (", net.ident())),
                    "{top}"
                );
                assert!(top.contains("cnt_exchanges"), "{top}");
                assert_eq!(top.contains("TEST-ONLY FAULT"), fault);
            }
        }
    }
}

/// A destination table wider than 64 bits powers up as the identity too (32 rows of 5
/// bits: `reg_init_words` across three words).
#[test]
fn a_wide_destination_table_powers_up_as_the_identity() {
    let top = emit(&spec(
        DutSpec::cube(5, 2, CubeAlgorithm::Full).unwrap(),
        false,
    ));
    // Row p holds p: bit b of row p is bit 5p + b of the table.
    let mut words = [0u64; 3];
    for p in 0..32usize {
        for b in 0..5 {
            let at = 5 * p + b;
            words[at / 64] |= (((p >> b) & 1) as u64) << (at % 64);
        }
    }
    let text = format!(
        "perm = 160'h{:08x}{:016x}{:016x};",
        words[2], words[1], words[0]
    );
    assert!(top.contains(&text), "{text} not in {top}");
}

#[test]
fn the_self_test_limits_are_refused() {
    let e = SelftestSpec::new(
        DutSpec::Min {
            min: Min::new(Network::Omega, 8).unwrap(),
            message_bits: 8,
        },
        1,
        10,
        12_000_000,
        115_200,
        false,
    )
    .unwrap_err();
    assert!(e.to_string().contains("1 <= m <= 7"), "{e}");
    let e = DutSpec::cube(13, 8, CubeAlgorithm::Full).unwrap_err();
    assert!(e.to_string().contains("1 <= k <= 12"), "{e}");
}
