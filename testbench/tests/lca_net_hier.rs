//! Hierarchical and composed builds of whole networks (`ModelKind`: the switch and the PE
//! interface verilated once each, as Verilator hierarchical blocks or as model classes with
//! one object per instance): the same comparisons as the flat build — every output every
//! bit-time, every crosspoint (inside a block) at each set-up end — and the same number of
//! compared values.

use lcanet_hdl::lca_net::NetSpec;
use lcanet_sim::lcan::cycle::network::Mutation;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::lca::BuildSpeed;
use lcanet_testbench::lca_net::{ModelKind, NetBench, NetBuild, NetVerdict, PermKind, Stimulus};

fn build(name: &str, topo: &Topology, alg: Algorithm, kind: ModelKind) -> NetBench {
    let spec = NetSpec::new(topo.clone(), alg, ArbiterPolicy::RoundRobin, 1, 4).unwrap();
    let dir = artifact_dir!(name.to_string()).unwrap();
    let how = NetBuild {
        speed: BuildSpeed::QuickBuild,
        trace: false,
        kind,
    };
    NetBench::build_how(spec, &dir.file("rtl"), how).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn hierarchical_and_flat_builds_compare_the_same_values_and_match() {
    let topo = Topology::complete_bipartite(2, 2, Size::Levels(2)).unwrap();
    let hier = build(
        "hier_cb_d2_u2_l2",
        &topo,
        Algorithm::R2,
        ModelKind::Hierarchical,
    );
    let flat = build("flat_cb_d2_u2_l2", &topo, Algorithm::R2, ModelKind::Flat);
    let comp = build(
        "comp_cb_d2_u2_l2",
        &topo,
        Algorithm::R2,
        ModelKind::Composed,
    );
    assert!(comp.hier_blocks().is_empty());
    assert_eq!(comp.kind(), ModelKind::Composed);
    assert!(flat.hier_blocks().is_empty());
    let blocks = hier.hier_blocks();
    assert_eq!(blocks.len(), 2, "switch and PE interface: {blocks:?}");
    assert!(
        blocks.iter().any(|b| b.starts_with("lca_switch_")),
        "{blocks:?}"
    );
    assert!(blocks.iter().any(|b| b.ends_with("_pe")), "{blocks:?}");
    for kind in [PermKind::Random, PermKind::Identity, PermKind::WorstCase] {
        let stim = Stimulus::new(&topo, &kind, 4, 7).unwrap();
        let h = hier.run(&stim, None, None, None).unwrap();
        let f = flat.run(&stim, None, None, None).unwrap();
        let c = comp.run(&stim, None, None, None).unwrap();
        assert!(h.matched(), "hierarchical {kind:?}: {}", h.failure_text());
        assert!(f.matched(), "flat {kind:?}: {}", f.failure_text());
        assert!(c.matched(), "composed {kind:?}: {}", c.failure_text());
        for (name, r) in [("hierarchical", &h), ("composed", &c)] {
            assert_eq!(
                (r.passes, r.bit_times, r.simulated, r.compared_values),
                (f.passes, f.bit_times, f.simulated, f.compared_values),
                "{name} vs flat, {kind:?}: (passes, bit-times, simulated, compared) differ"
            );
        }
    }
}

#[test]
fn a_hierarchical_network_routes_r1_and_catches_an_injected_bug() {
    let topo = Topology::tree(4, 2, Size::Levels(2)).unwrap();
    let bench = build(
        "hier_tree_d4_u2_l2",
        &topo,
        Algorithm::R1,
        ModelKind::Hierarchical,
    );
    routes_and_catches(&bench, &topo);
}

#[test]
fn a_composed_network_routes_r1_with_random_arbiters_and_catches_an_injected_bug() {
    let topo = Topology::tree(4, 2, Size::Levels(2)).unwrap();
    let spec = NetSpec::new(topo.clone(), Algorithm::R1, ArbiterPolicy::Random, 1, 4).unwrap();
    let dir = artifact_dir!("comp_tree_d4_u2_l2_random".to_string()).unwrap();
    let how = NetBuild {
        speed: BuildSpeed::QuickBuild,
        trace: false,
        kind: ModelKind::Composed,
    };
    let bench = NetBench::build_how(spec, &dir.file("rtl"), how).unwrap();
    routes_and_catches(&bench, &topo);
    // A composed model writes no VCD: a failing run is repeated on a traced (here flat)
    // build to keep one.
    let stim = Stimulus::new(&topo, &PermKind::Random, 4, 1).unwrap();
    let vcd = dir.file("failure.vcd");
    let swap = Mutation::SwapDestinations { a: 0, b: 1 };
    let r = bench.run(&stim, None, Some(&vcd), Some(swap)).unwrap();
    match &r.verdict {
        NetVerdict::Mismatch(m) => assert_eq!(m.vcd.as_deref(), Some(vcd.as_path()), "{m}"),
        other => panic!("swapped destinations not caught: {other:?}"),
    }
    assert!(
        std::fs::metadata(&vcd).unwrap().len() > 0,
        "the failure VCD is written"
    );
}

#[test]
fn a_composed_build_refuses_tracing() {
    let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
    let spec = NetSpec::new(topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 4).unwrap();
    let dir = artifact_dir!("comp_traced".to_string()).unwrap();
    let how = NetBuild {
        speed: BuildSpeed::QuickBuild,
        trace: true,
        kind: ModelKind::Composed,
    };
    let e = NetBench::build_how(spec, &dir.file("rtl"), how)
        .err()
        .expect("a traced composed build must be refused");
    assert!(e.to_string().contains("VCD"), "{e}");
}

fn routes_and_catches(bench: &NetBench, topo: &Topology) {
    for seed in [1, 2, 3] {
        let stim = Stimulus::new(topo, &PermKind::Random, 4, seed).unwrap();
        let r = bench.run(&stim, None, None, None).unwrap();
        assert!(r.matched(), "seed {seed}: {}", r.failure_text());
    }
    let stim = Stimulus::new(topo, &PermKind::Random, 4, 1).unwrap();
    let swap = Mutation::SwapDestinations { a: 0, b: 1 };
    let r = bench.run(&stim, None, None, Some(swap)).unwrap();
    assert!(
        matches!(r.verdict, NetVerdict::Mismatch(_)),
        "swapped destinations not caught: {:?}",
        r.verdict
    );
}

#[test]
fn auto_is_composed_without_a_vcd_and_flat_or_hierarchical_with_one() {
    let small = Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap();
    let large = Topology::complete_bipartite(2, 2, Size::Levels(6)).unwrap();
    for (topo, trace, want) in [
        (small.clone(), false, ModelKind::Composed),
        (small, true, ModelKind::Flat),
        (large.clone(), false, ModelKind::Composed),
        (large, true, ModelKind::Hierarchical),
    ] {
        let switches = topo.total_switches();
        let spec = NetSpec::new(topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 4).unwrap();
        let how = NetBuild::auto(&spec, BuildSpeed::QuickBuild, trace);
        assert_eq!(how.kind, want, "{switches} switches, trace {trace}");
        assert_eq!(how.trace, trace);
    }
    assert!(
        Topology::complete_bipartite(2, 2, Size::Levels(6))
            .unwrap()
            .total_switches()
            > NetBuild::FLAT_TRACE_MAX_SWITCHES
    );
}
