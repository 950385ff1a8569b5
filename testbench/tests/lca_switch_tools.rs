//! The emitted LCA switch passes `verilator --lint-only -Wall`, compiles in Icarus,
//! synthesizes in Yosys and follows the RTL style rules (`lcanet_hdl::style`), for every
//! topology kind (tree, cb, Π), every arbiter policy, `W = 1` and `W > 1`. Yosys runs the
//! generic `synth` (gates and flip-flops), and `synth_ice40` (LUTs) on the T(2,1) switch
//! with every policy: the iCE40 flow takes about twice as long (7.3 s against 3.2 s of CPU
//! for the CB(4,4) switch) and counts the same flip-flops.

use lcanet_hdl::lca::emit_switch;
use lcanet_hdl::style::check_files;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams, SwitchTopology};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::tools::{icarus, lint::lint, yosys};
use std::path::PathBuf;
use ArbiterPolicy::{Fixed, Random, RoundRobin};

const POLICIES: [ArbiterPolicy; 3] = [
    ArbiterPolicy::Fixed,
    ArbiterPolicy::RoundRobin,
    ArbiterPolicy::Random,
];

/// The Yosys flow of a shape's syntheses.
#[derive(Clone, Copy, PartialEq)]
enum Flow {
    /// `synth`: gates and flip-flops.
    Generic,
    /// `synth_ice40`: LUTs and flip-flops, about twice the CPU.
    Ice40,
}

/// Style, lint and Icarus for every policy; Yosys (the slow tool, 3–7 s per switch) in
/// `flow` for the policies in `synth`. The default tests synthesize each shape with one
/// policy, every policy on several shapes; `synthesize_every_policy_of_every_shape`
/// (opt-in) does the whole cross product, in iCE40.
fn check_all_tools(
    d: usize,
    u: usize,
    width: usize,
    levels: usize,
    topology: SwitchTopology,
    synth: &[ArbiterPolicy],
    flow: Flow,
) {
    for policy in POLICIES {
        let params = SwitchParams::new(d, u, width, levels, topology, policy).unwrap();
        let emitted = emit_switch(params).unwrap();
        let top = emitted.top.as_str();
        let issues = check_files(
            emitted
                .modules
                .iter()
                .map(|f| (f.name.as_str(), f.contents.as_str())),
        );
        assert!(issues.is_empty(), "{top}: style: {issues:?}");
        let dir = artifact_dir!(top).unwrap();
        emitted.write_to(dir.path()).unwrap();
        let files: Vec<PathBuf> = emitted.modules.iter().map(|m| dir.file(&m.name)).collect();
        lint(&files, top).unwrap_or_else(|e| panic!("{top}: lint: {e}"));
        icarus::compile(&files, top, &dir.file("sim.vvp"))
            .unwrap_or_else(|e| panic!("{top}: icarus: {e}"));
        if !synth.contains(&policy) {
            continue;
        }
        let (ffs, logic, what) = if flow == Flow::Ice40 {
            let s = yosys::synth_ice40(&files, top).unwrap_or_else(|e| panic!("{top}: yosys: {e}"));
            (s.ffs, s.luts, "LUTs")
        } else {
            let s = yosys::synth(&files, top).unwrap_or_else(|e| panic!("{top}: yosys: {e}"));
            (s.flip_flops(), s.cells - s.flip_flops(), "gates")
        };
        // Synthesis must keep the state: at least the receive registers and the crosspoints
        // that routing can close (B→D never closes, Yosys may drop it).
        let f = params.format();
        let floor = d * f.p1 + u * f.p2 + d * d + 2 * d * u;
        assert!(
            ffs as usize >= floor,
            "{top}: {ffs} flip-flops, expected >= {floor}"
        );
        assert!(logic > 0, "{top}: no logic left");
        eprintln!("{top}: {logic} {what}, {ffs} flip-flops");
    }
}

#[test]
fn switch_d2_u1_tree() {
    check_all_tools(2, 1, 1, 3, SwitchTopology::Tree, &POLICIES, Flow::Ice40);
}

#[test]
fn switch_d4_u2_tree() {
    check_all_tools(
        4,
        2,
        1,
        3,
        SwitchTopology::Tree,
        &[RoundRobin],
        Flow::Generic,
    );
}

#[test]
fn switch_d2_u2_cb() {
    check_all_tools(2, 2, 1, 3, SwitchTopology::Cb, &[Random], Flow::Generic);
}

#[test]
fn switch_d3_u3_cb() {
    check_all_tools(3, 3, 1, 3, SwitchTopology::Cb, &[Fixed], Flow::Generic);
}

#[test]
fn switch_d4_u4_cb() {
    check_all_tools(4, 4, 1, 3, SwitchTopology::Cb, &[RoundRobin], Flow::Generic);
}

// One shape per test, so that the test threads share the Yosys runs.
#[test]
fn switch_wide_links_cb() {
    check_all_tools(3, 2, 3, 4, SwitchTopology::Cb, &[Random], Flow::Generic);
}

#[test]
fn switch_wide_links_one_level() {
    check_all_tools(2, 1, 2, 1, SwitchTopology::Tree, &[Fixed], Flow::Generic);
}

#[test]
fn switch_d4_u4_tree_two_levels() {
    check_all_tools(
        4,
        4,
        1,
        2,
        SwitchTopology::Tree,
        &[RoundRobin],
        Flow::Generic,
    );
}

#[test]
fn switch_pi_table_8_pes() {
    check_all_tools(
        2,
        2,
        1,
        3,
        SwitchTopology::Table { pes: 8 },
        &[Fixed],
        Flow::Generic,
    );
}

#[test]
fn switch_pi_table_12_pes_wide() {
    check_all_tools(
        3,
        2,
        2,
        3,
        SwitchTopology::Table { pes: 12 },
        &[Random],
        Flow::Generic,
    );
}

#[test]
#[ignore = "30 Yosys runs (every shape above with every policy), about a minute"]
fn synthesize_every_policy_of_every_shape() {
    use SwitchTopology::{Cb, Table, Tree};
    let shapes = [
        (2, 1, 1, 3, Tree),
        (4, 2, 1, 3, Tree),
        (2, 2, 1, 3, Cb),
        (3, 3, 1, 3, Cb),
        (4, 4, 1, 3, Cb),
        (3, 2, 3, 4, Cb),
        (2, 1, 2, 1, Tree),
        (4, 4, 1, 2, Tree),
        (2, 2, 1, 3, Table { pes: 8 }),
        (3, 2, 2, 3, Table { pes: 12 }),
    ];
    for (d, u, width, levels, topology) in shapes {
        check_all_tools(d, u, width, levels, topology, &POLICIES, Flow::Ice40);
    }
}

/// Lint (and the style rules) alone, on many more shapes: single-row digit fields, `W` above
/// the packet sizes, `l = 1` and `l = 16`, odd `d`, Π networks whose `n` is not a power of two.
#[test]
fn lint_every_shape() {
    use SwitchTopology::{Cb, Table, Tree};
    let shapes = [
        (2, 1, 1, 1, Tree),
        (2, 1, 5, 2, Tree),
        (2, 1, 16, 2, Tree),
        (4, 2, 1, 2, Tree),
        (4, 4, 2, 3, Tree),
        (6, 2, 1, 4, Tree),
        (6, 3, 2, 3, Tree),
        (2, 2, 1, 1, Cb),
        (2, 2, 1, 2, Cb),
        (2, 2, 1, 16, Cb),
        (5, 2, 1, 3, Cb),
        (3, 1, 4, 2, Cb),
        (3, 3, 1, 1, Table { pes: 3 }),
        (2, 2, 1, 4, Table { pes: 16 }),
        (5, 3, 3, 3, Table { pes: 45 }),
    ];
    for (d, u, width, levels, topology) in shapes {
        for policy in POLICIES {
            let params = SwitchParams::new(d, u, width, levels, topology, policy).unwrap();
            let emitted = emit_switch(params).unwrap();
            let top = emitted.top.as_str();
            let issues = check_files(
                emitted
                    .modules
                    .iter()
                    .map(|f| (f.name.as_str(), f.contents.as_str())),
            );
            assert!(issues.is_empty(), "{top}: style: {issues:?}");
            let dir = artifact_dir!(format!("lint_{top}")).unwrap();
            emitted.write_to(dir.path()).unwrap();
            let files: Vec<PathBuf> = emitted.modules.iter().map(|m| dir.file(&m.name)).collect();
            lint(&files, top).unwrap_or_else(|e| panic!("{top}: lint: {e}"));
        }
    }
}
