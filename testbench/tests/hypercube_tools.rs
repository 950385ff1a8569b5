//! The emitted k-cube through the tools: Verilator lint (-Wall), Icarus Verilog (-g2005
//! -Wall), Yosys (generic and iCE40), and the RTL style rules on every emitted file.

use lcanet_hdl::hypercube::Router;
use lcanet_testbench::artifact_dir;
use lcanet_testbench::hypercube::cosim::{emit_cube, emit_router};
use lcanet_testbench::tools::{icarus, lint::lint, yosys};

#[test]
fn emitted_cubes_lint_compile_and_synthesize() {
    let cases = [(1, 1), (2, 3), (3, 8), (6, 4)].map(|(k, l)| (Router::Overlapped, k, l));
    let others = Router::ALL[1..].iter().map(|&r| (r, 3, 5));
    for (router, k, l) in cases.into_iter().chain(others) {
        let dir = artifact_dir!(format!("cube_{router}_k{k}_l{l}")).unwrap();
        let design = emit_router(router, k, l, dir.path()).unwrap();
        lint(&design.files, &design.top).unwrap_or_else(|e| panic!("k={k} L={l}: {e}"));
        let texts: Vec<(String, String)> = design
            .files
            .iter()
            .map(|f| (f.display().to_string(), std::fs::read_to_string(f).unwrap()))
            .collect();
        let issues =
            lcanet_hdl::style::check_files(texts.iter().map(|(n, t)| (n.as_str(), t.as_str())));
        assert!(issues.is_empty(), "k={k} L={l}: {issues:?}");
        icarus::compile(&design.files, &design.top, &dir.file("cube.vvp"))
            .unwrap_or_else(|e| panic!("k={k} L={l}: {e}"));
    }
}

#[test]
fn yosys_synthesizes_the_cube_and_counts_the_node_flip_flops() {
    let (k, l) = (3, 8);
    let dir = artifact_dir!("yosys_k3_l8").unwrap();
    let design = emit_cube(k, l, dir.path()).unwrap();
    // Generic synthesis with the hierarchy kept (one definition per block), the cube in
    // iCE40 and one node in iCE40: three Yosys runs side by side.
    let (generic, cube, node) = std::thread::scope(|s| {
        let generic = s.spawn(|| yosys::synth(&design.files, &design.top).unwrap());
        let cube = s.spawn(|| yosys::synth_ice40(&design.files, &design.top).unwrap());
        let node = yosys::synth_ice40(&design.files, "hc_node_k3_l8").unwrap();
        (generic.join().unwrap(), cube.join().unwrap(), node)
    });
    let generic_ffs: u64 = ["$_DFF", "$_SDFF"]
        .iter()
        .map(|p| generic.count_prefix(p))
        .sum();
    // docs/hypercube.md §7, §12: 2L + 10k + 7 flip-flops per node (A, B, E, P, stage
    // states, adders' sums and carries, seven flags).
    assert_eq!(
        node.ffs,
        (2 * l + 10 * k + 7) as u64,
        "{:?}",
        node.cells.by_type
    );
    // Flattened, the node addresses (constant pins) are known: the offset adder of
    // dimension d (sum and carry) of a node whose bits 0..d are all 0 only ever adds 0 and
    // is removed, 2·(2^(k-1-d)) flip-flops per d, 2·(N − 1) in all. Hierarchical synthesis
    // keeps them. The controller is counted apart: the generic and the iCE40 scripts
    // keep different numbers of its loop-constant bits. The tap's registers are kept
    // (`(* keep *)`) either way.
    let ctrl = "hc_ctrl_k3_l8";
    let ctrl_generic = yosys::synth(&design.files, ctrl).unwrap();
    let ctrl_generic: u64 = ["$_DFF", "$_SDFF"]
        .iter()
        .map(|p| ctrl_generic.count_prefix(p))
        .sum();
    let ctrl_ice40 = yosys::synth_ice40(&design.files, ctrl).unwrap().ffs;
    assert_eq!(
        generic_ffs - ctrl_generic,
        cube.ffs - ctrl_ice40 + 2 * (8 - 1),
        "{:?}",
        generic.by_type
    );
    assert!(generic_ffs > 8 * node.ffs, "{:?}", generic.by_type);
    assert!(
        cube.ffs > 8 * node.ffs,
        "8 nodes and a controller: {}",
        cube.ffs
    );
}

#[test]
fn yosys_counts_every_routers_node_flip_flops_as_documented() {
    // docs/hypercube.md §7, §12.4, §13.1: the count each router documents (and that
    // `generate hypercube` reports), written out here per router. Algorithm 2's nodes
    // also at k = 6, so that the slope (10 flip-flops per dimension: O(k) storage, the
    // buffers A, B, E 2M + k bits of it) is measured, not only one point.
    let l = 5;
    let alg2 = [Router::Overlapped, Router::Sequential];
    for (k, router) in Router::ALL
        .iter()
        .map(|&r| (3, r))
        .chain(alg2.iter().map(|&r| (6, r)))
    {
        let p = lcanet_sim::hypercube::CubeParams::new(k, l).unwrap();
        let want = match router {
            Router::Overlapped => 2 * l + 10 * k + 7,
            Router::Sequential => 2 * l + 10 * k + 6,
            Router::Sort => l + 4 * k + 4,
            // §14.4: units with f = 1..k-1 dimensions 2M + 8f + 7 each, the last unit
            // M + 4, the output register L + 1.
            Router::Quadratic => {
                let m = k + l;
                (1..k).map(|f| 2 * m + 8 * f + 7).sum::<usize>() + m + 4 + l + 1
            }
            // §13.3: 3S + 4k + 3L + 6 with S = k(k+1)/2.
            Router::QuadSort => 3 * (k * (k + 1) / 2) + 4 * k + 3 * l + 6,
        };
        assert_eq!(router.flip_flops_per_node(p), want, "{router} k = {k}");
        let dir = artifact_dir!(format!("yosys_{router}_k{k}_l{l}")).unwrap();
        let design = emit_router(router, k, l, dir.path()).unwrap();
        let node = yosys::synth_ice40(&design.files, &router.node_name(p)).unwrap();
        let cells = &node.cells.by_type;
        assert_eq!(node.ffs, want as u64, "{router} k = {k}: {cells:?}");
    }
}
