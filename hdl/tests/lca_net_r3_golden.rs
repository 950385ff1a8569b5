//! Golden files of the R3 network's own blocks (`docs/protocol.md` §12,
//! `docs/interface.md` §11): the R3 switch, the R3 PE interface and the R3 controller, on a
//! T-LCAN(3,1) (label conversion, d + u = 4) with W = 1 and a CB-LCAN(3,2) (f = 3) with
//! W = 2. They must equal the files under `tests/golden/lca_net_r3/`; regenerate with
//! `UPDATE_GOLDEN=1 cargo test -p lcanet-hdl --test lca_net_r3_golden` and review the diff.
//! Every block also passes the RTL style check.

use lcanet_hdl::lca::r3::r3_switch;
use lcanet_hdl::lca_net::controller_r3::{r3_controller_module, R3CtrlShape};
use lcanet_hdl::lca_net::pe::{pe_module, PeShape};
use lcanet_hdl::lca_net::NetSpec;
use lcanet_hdl::netlist::{Design, Module};
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use std::path::Path;

fn blocks() -> Vec<Module> {
    let tree3 = Topology::tree(3, 1, Size::Levels(2)).unwrap();
    let cb = Topology::complete_bipartite(3, 2, Size::Levels(2)).unwrap();
    let mut v = Vec::new();
    for (topo, w) in [(tree3, 1), (cb, 2)] {
        let (d, u) = topo.uniform().expect("uniform networks");
        let spec = NetSpec::new(topo, Algorithm::R3, ArbiterPolicy::Fixed, w, 4).unwrap();
        v.push(r3_switch(d, u, w));
        v.push(pe_module(&spec.pe_module_name(), &PeShape::of(&spec)));
        v.push(r3_controller_module(
            &spec.ctrl_module_name(),
            &R3CtrlShape::of(&spec),
        ));
    }
    v
}

#[test]
fn r3_blocks_match_golden_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/lca_net_r3");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    for module in blocks() {
        let name = module.name.clone();
        let mut design = Design::new(name.clone());
        design.param("block", &name);
        design.add_module(module).unwrap();
        let emitted = design.emit().unwrap_or_else(|e| panic!("{name}: {e}"));
        let file = &emitted.modules[0];
        let issues = lcanet_hdl::style::check_files([(file.name.as_str(), file.contents.as_str())]);
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
