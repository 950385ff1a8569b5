//! The emitted Verilog of the 2-cube with 4-bit payloads (node, controller, top) of every
//! router must equal the reviewed files under `tests/golden/<top>/`, and every emitted
//! hypercube module follows the RTL style rules. Regenerate the golden files with
//! `UPDATE_GOLDEN=1 cargo test -p lcanet-hdl --test hypercube_golden` and review the diff.

mod common;

use lcanet_hdl::hypercube::cube::{cube_design, router_design};
use lcanet_hdl::hypercube::Router;

#[test]
fn the_2_cube_matches_its_golden_files() {
    let (design, _) = cube_design(2, 4).expect("valid parameters");
    let emitted = design.emit().expect("the cube is valid");
    common::golden::check(&emitted, "hypercube_k2_l4");
    for (router, dir) in [
        (Router::Sequential, "hypercube_seq_k2_l4"),
        (Router::Sort, "hypercube_sort_k2_l4"),
    ] {
        let (design, _) = router_design(router, 2, 4).expect("valid parameters");
        let emitted = design.emit().expect("the cube is valid");
        common::golden::check(&emitted, dir);
    }
}

#[test]
fn every_emitted_module_follows_the_rtl_style_rules() {
    for (k, l) in [
        (1, 1),
        (1, 8),
        (2, 4),
        (3, 8),
        (4, 2),
        (6, 8),
        (10, 8),
        (12, 64),
    ] {
        for router in Router::ALL {
            let (design, _) = router_design(router, k, l).expect("valid parameters");
            let emitted = design.emit().expect("the cube is valid");
            let issues = lcanet_hdl::style::check_files(
                emitted
                    .modules
                    .iter()
                    .map(|f| (f.name.as_str(), f.contents.as_str())),
            );
            assert!(issues.is_empty(), "{router}, k = {k}, L = {l}: {issues:?}");
        }
    }
}
