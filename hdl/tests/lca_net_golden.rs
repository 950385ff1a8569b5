//! Golden files of the network's own small blocks: the PE interface, the controller, the
//! broadcast tap and its driver,
//! for R1 with label conversion (T-LCAN(3,1), radix 3), for R2 on a Π network with the
//! random policy (for these two also the PE interfaces as rows), and for R1 on a CB-LCAN whose switch sizes vary by level (d = [3, 2],
//! u = [2, 3]: mixed radices, label conversion), with its two switch modules (each decodes
//! the digit of the level it serves, `docs/protocol.md` §1). They must equal the files under `tests/golden/lca_net/`; regenerate with
//! `UPDATE_GOLDEN=1 cargo test -p lcanet-hdl --test lca_net_golden` and review the diff.
//! Every emitted block also passes the RTL style check.

use lcanet_hdl::lca::{add_switch, Layout};
use lcanet_hdl::lca_net::controller::{controller_module, CtrlShape};
use lcanet_hdl::lca_net::pe::{pe_module, pe_rows_module, PeShape};
use lcanet_hdl::lca_net::tap::{driver_module, tap_module};
use lcanet_hdl::lca_net::NetSpec;
use lcanet_hdl::netlist::{Design, Module};
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use std::path::Path;

fn specs() -> Vec<NetSpec> {
    let tree3 = Topology::tree(3, 1, Size::Levels(2)).unwrap();
    let cb = Topology::complete_bipartite(2, 2, Size::Levels(2)).unwrap();
    let pi = Topology::from_pi_text(&cb.to_pi_text()).unwrap();
    let per_level = Topology::complete_bipartite_per_level(&[3, 2], &[2, 3]).unwrap();
    vec![
        NetSpec::new(tree3, Algorithm::R1, ArbiterPolicy::Fixed, 1, 4).unwrap(),
        NetSpec::new(pi, Algorithm::R2, ArbiterPolicy::Random, 2, 3).unwrap(),
        NetSpec::new(per_level, Algorithm::R1, ArbiterPolicy::Fixed, 1, 2).unwrap(),
    ]
}

fn blocks(spec: &NetSpec) -> Vec<Module> {
    let pe = pe_module(&spec.pe_module_name(), &PeShape::of(spec));
    let mut v = vec![
        pe.clone(),
        controller_module(&spec.ctrl_module_name(), &CtrlShape::of(spec)),
        tap_module(&spec.tap_module_name(), spec.net.algorithm == Algorithm::R1),
        driver_module(&spec.tap_driver_module_name(), &CtrlShape::of(spec)),
    ];
    if !spec.net.per_level() {
        // The PE interfaces as rows (`--structure rows`, docs/network-rtl.md).
        v.push(pe_rows_module(&pe, &PeShape::of(spec)).unwrap());
    }
    if spec.net.per_level() {
        for p in spec.net.distinct_switches() {
            let mut scratch = Design::new("scratch");
            v.push(add_switch(&mut scratch, &Layout::new(p)).unwrap());
        }
    }
    v
}

#[test]
fn pe_interface_and_controller_match_golden_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/lca_net");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    for spec in specs() {
        for module in blocks(&spec) {
            let name = module.name.clone();
            let mut design = Design::new(name.clone());
            design.param("block", &name);
            design.add_module(module).unwrap();
            let emitted = design.emit().unwrap_or_else(|e| panic!("{name}: {e}"));
            let file = &emitted.modules[0];
            let issues =
                lcanet_hdl::style::check_files([(file.name.as_str(), file.contents.as_str())]);
            assert!(issues.is_empty(), "{name}: {issues:?}");
            let path = dir.join(&file.name);
            if update {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &file.contents).unwrap();
                continue;
            }
            let golden = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}; run with UPDATE_GOLDEN=1", path.display()));
            assert!(
                golden == file.contents,
                "{} differs from its golden file; if intended, regenerate with UPDATE_GOLDEN=1 and review the diff.\n--- emitted ---\n{}",
                file.name,
                file.contents
            );
        }
    }
}
