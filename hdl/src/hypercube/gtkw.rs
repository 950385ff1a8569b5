//! The GTKWave save file of a k-cube (`generate hypercube`, `sim hypercube --vcd`): the
//! controller with its state by name — the overlapped controller's `mode` (`idle`,
//! `semi`, `full`) and loop cycle `lc`, the sequential controller's phase code (`idle`,
//! `semi`, `cross`, `enum2`, `pack2`, `enum0`, `pack0`, `rdv`, `docs/hypercube.md` §5)
//! — and the strobes it broadcasts, the top's per-node vectors (node `x` at row `x`),
//! and, for the first [`MAX_DETAILED`] nodes, each node's pipeline registers, stage
//! states, buffers A, B, E, enumeration adders and flags. Widths are those of the
//! elaborated modules.

use super::overlap::controller::Mode;
use super::sequential::controller::Phase;
use super::Router;
use crate::gtkw::{filter_codes, Group, GtkwFiles, MissingSignal, Scope, MAX_DETAILED};
use crate::netlist::Design;
use lcanet_sim::hypercube::CubeParams;

/// The sort controller's mode codes and their names.
pub const SORT_MODE_NAMES: [(super::sort::controller::Mode, &str); 3] = [
    (super::sort::controller::Mode::Idle, "idle"),
    (super::sort::controller::Mode::Semi, "semi"),
    (super::sort::controller::Mode::Sort, "sort"),
];

/// The overlapped controller's mode codes and their names.
pub const MODE_NAMES: [(Mode, &str); 3] = [
    (Mode::Idle, "idle"),
    (Mode::Semi, "semi"),
    (Mode::Full, "full"),
];

/// The sequential controller's phase codes and their names in `docs/hypercube.md`.
pub const PHASE_NAMES: [(Phase, &str); 8] = [
    (Phase::Idle, "idle"),
    (Phase::Semi, "semi"),
    (Phase::Cross, "cross"),
    (Phase::Enum2, "enum2"),
    (Phase::Pack2, "pack2"),
    (Phase::Enum0, "enum0"),
    (Phase::Pack0, "pack0"),
    (Phase::Rdv, "rdv"),
];

/// The save file of the default router's cube `design`
/// ([`cube_design`](super::cube::cube_design)) of `p`.
pub fn cube_gtkw(design: &Design, p: CubeParams) -> Result<GtkwFiles, MissingSignal> {
    router_gtkw(Router::Overlapped, design, p)
}

/// The save file of the cube `design` of `router`
/// ([`router_design`](super::cube::router_design)).
pub fn router_gtkw(
    router: Router,
    design: &Design,
    p: CubeParams,
) -> Result<GtkwFiles, MissingSignal> {
    match router {
        Router::Quadratic => return super::quad::gtkw::quad_gtkw(design, p),
        Router::QuadSort => return qsort_gtkw(design, p),
        _ => {}
    }
    let top = Scope::top(design)?;
    let ctrl = top.within(design, "ctrl")?;
    let mut control = top.traces(&["clock", "reset", "start", "algorithm"])?;
    // Where the strobes are: the controller's outputs, or the first tap's.
    let mut strobe_scope = ctrl.clone();
    let (strobes, filter) = match router {
        Router::Quadratic | Router::QuadSort => unreachable!("handled above"),
        Router::Overlapped => {
            // The state one cycle ahead of the strobes (`controller`), then node 0's tap.
            control.push(ctrl.trace("mode")?.named(1));
            control.extend(ctrl.traces(&["n_lc", "lp_f"])?);
            strobe_scope = top.within(design, "tap0")?;
            control.extend(strobe_scope.binary(&["sel", "low", "sclr", "ewin"])?);
            (
                super::overlap::control::NAMES,
                filter_codes("hc_mode.txt", MODE_NAMES.map(|(c, n)| (c as u64, n))),
            )
        }
        Router::Sort => {
            control.push(ctrl.trace("mode")?.named(1));
            control.extend(ctrl.traces(&["cnt", "s_r"])?);
            control.extend(ctrl.binary(&["sel", "low"])?);
            (
                super::sort::control::NAMES,
                filter_codes(
                    "hc_sort_mode.txt",
                    SORT_MODE_NAMES.map(|(c, n)| (c as u64, n)),
                ),
            )
        }
        Router::Sequential => {
            control.push(ctrl.trace("phase")?.named(1));
            control.push(ctrl.trace("cnt")?);
            control.extend(ctrl.binary(&["sel", "low"])?);
            (
                &super::sequential::control::NAMES[..],
                filter_codes("hc_phase.txt", PHASE_NAMES.map(|(c, n)| (c as u64, n))),
            )
        }
    };
    control.extend(top.traces(&["bit_time", "done", "collision"])?);
    let mut groups = vec![
        Group::new("controller (state by name)", control),
        Group::new("controller strobes", strobe_scope.binary(strobes)?),
        Group::new(
            "nodes (node x at row x)",
            top.traces(&[
                "send",
                "dest",
                "payload",
                "dim_out",
                "rx_bit",
                "rx_valid",
                "rx_payload",
                "node_collision",
            ])?,
        ),
    ];
    for x in 0..p.n().min(MAX_DETAILED) {
        let node = top.within(design, &format!("node{x}"))?;
        let mut t = node.binary(&["dim_in", "dim_out", "p", "stage_pass", "stage_dir"])?;
        t.push(node.trace("a")?);
        // What a router lacks is left out (the sort node has neither B, E nor adders;
        // `ct` exists for k > 1 only).
        t.extend(node.present(&["b", "e"]));
        let flags = [
            "t", "ct", "o", "co", "va", "vb", "xing", "incoming", "keep", "hit",
        ];
        t.extend(node.present(&flags).into_iter().map(|t| t.binary()));
        t.extend(node.binary(&["coll", "rx_bit", "rx_valid"])?);
        t.push(node.trace("rx_payload")?);
        groups.push(Group::new(format!("node {x}"), t));
    }
    Ok(GtkwFiles {
        view: None,
        top: design.top().to_string(),
        groups,
        filters: vec![filter],
    })
}

/// The save file of the pipelined sort-then-pack cube: the controller's period cycle
/// and batches in flight, its strobes, the per-node vectors, and each detailed node's
/// pipeline (sort registers and states, junction, unpacking, output register).
fn qsort_gtkw(design: &Design, p: CubeParams) -> Result<GtkwFiles, MissingSignal> {
    let top = Scope::top(design)?;
    let ctrl = top.within(design, "ctrl")?;
    let mut control = top.traces(&["clock", "reset", "start", "batches"])?;
    control.extend(ctrl.traces(&["pc_r"])?);
    control.extend(ctrl.binary(&["live_r", "j_sel_r", "mk"])?);
    control.extend(top.binary(&["take"])?);
    control.extend(top.traces(&["bit_time", "batches_done", "done", "collision"])?);
    let mut groups = vec![
        Group::new("controller (periods, batches)", control),
        Group::new(
            "controller strobes",
            ctrl.binary(&super::qsort::node::strobes(p.payload_bits()))?,
        ),
        Group::new(
            "nodes (rx_bit: node x's junction at bit 2x, delivery at 2x + 1)",
            top.traces(&[
                "send",
                "dest",
                "payload",
                "rx_bit",
                "rx_valid",
                "rx_payload",
                "node_collision",
            ])?,
        ),
    ];
    for x in 0..p.n().min(MAX_DETAILED) {
        let node = top.within(design, &format!("node{x}"))?;
        let mut t = node.binary(&["dim_in", "dim_out", "r", "sd", "st", "jv", "f", "fp", "fd"])?;
        t.extend(node.traces(&["a", "cp", "op"])?);
        t.extend(node.binary(&["inv", "hit", "ov", "coll"])?);
        groups.push(Group::new(format!("node {x}"), t));
    }
    Ok(GtkwFiles {
        view: None,
        top: design.top().to_string(),
        groups,
        filters: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hypercube::cube::router_design;

    #[test]
    fn every_trace_is_a_signal_of_the_cube() {
        for router in Router::FLAT {
            for (k, l) in [(1, 1), (2, 4), (3, 8), (4, 2)] {
                let (design, p) = router_design(router, k, l).unwrap();
                let files = router_gtkw(router, &design, p).unwrap();
                assert_eq!(files.mismatches(&design), Vec::<String>::new(), "k = {k}");
                let nodes = files.groups.iter().filter(|g| g.name.starts_with("node "));
                assert_eq!(nodes.count(), p.n().min(MAX_DETAILED), "k = {k}");
            }
        }
    }

    #[test]
    fn the_batched_cubes_save_files_fit_them() {
        for router in [Router::Quadratic, Router::QuadSort] {
            for (k, l) in [(1, 2), (2, 3), (3, 4)] {
                let (design, p) = router_design(router, k, l).unwrap();
                let files = router_gtkw(router, &design, p).unwrap();
                assert_eq!(files.mismatches(&design), Vec::<String>::new(), "k = {k}");
            }
        }
    }

    #[test]
    fn the_state_is_shown_by_name() {
        let (design, p) = router_design(Router::Sequential, 3, 8).unwrap();
        let files = router_gtkw(Router::Sequential, &design, p).unwrap();
        let text = files.save_text(std::path::Path::new("/f"), "t", None);
        assert!(
            text.contains("^1 /f/hc_phase.txt\n@2024\nTOP.hypercube_seq_k3_l8.ctrl.phase[2:0]\n"),
            "{text}"
        );
        let f = &files.filters[0].text;
        assert!(f.contains("\n0 idle\n") && f.contains("\n7 rdv\n"), "{f}");
        let (design, p) = router_design(Router::Overlapped, 3, 8).unwrap();
        let files = router_gtkw(Router::Overlapped, &design, p).unwrap();
        let text = files.save_text(std::path::Path::new("/f"), "t", None);
        assert!(
            text.contains("^1 /f/hc_mode.txt\n@2024\nTOP.hypercube_k3_l8.ctrl.mode[1:0]\n"),
            "{text}"
        );
        let f = &files.filters[0].text;
        assert!(f.contains("\n2 full\n"), "{f}");
    }
}
