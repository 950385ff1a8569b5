//! The GTKWave save file of the quadratic cube: the controller (period cycle, the units
//! holding a batch, `take`, the batch counts), each sequencer's loop vectors, the top's
//! per-node vectors, and for the first [`MAX_DETAILED`] nodes their output register and
//! every unit's pipeline, buffers and flags.

use crate::gtkw::{Group, GtkwFiles, MissingSignal, Scope, MAX_DETAILED};
use crate::netlist::Design;
use lcanet_sim::hypercube::CubeParams;

/// The save file of the quadratic cube `design` of `p`.
pub fn quad_gtkw(design: &Design, p: CubeParams) -> Result<GtkwFiles, MissingSignal> {
    let top = Scope::top(design)?;
    let ctrl = top.within(design, "ctrl")?;
    let mut control = top.traces(&["clock", "reset", "start", "batches"])?;
    control.extend(ctrl.traces(&["pc_r"])?);
    control.extend(ctrl.binary(&["live_r"])?);
    control.extend(top.binary(&["take"])?);
    control.extend(ctrl.traces(&["left", "ndone"])?);
    control.extend(top.traces(&["bit_time", "batches_done", "done", "collision"])?);
    let mut groups = vec![Group::new("controller (periods, batches)", control)];
    for j in 0..p.k() {
        let seq = top.within(design, &format!("seq{j}"))?;
        let mut t = seq.binary(&["ph_cross", "x_decide"])?;
        t.extend(
            seq.present(&["fwd", "bwd", "enum_on", "sel_r", "sclr_r", "ewin_r"])
                .into_iter()
                .map(|t| t.binary()),
        );
        groups.push(Group::new(format!("sequencer {j} (loop {j})"), t));
    }
    groups.push(Group::new(
        "nodes (node x at row x; rx_bit: unit j of node x at bit x*k + j)",
        top.traces(&[
            "send",
            "dest",
            "payload",
            "rx_bit",
            "rx_valid",
            "rx_payload",
            "node_collision",
        ])?,
    ));
    for x in 0..p.n().min(MAX_DETAILED) {
        let node = top.within(design, &format!("node{x}"))?;
        let mut t = node.binary(&["dim_in", "dim_out", "rx_bit", "rv"])?;
        t.push(node.trace("rp")?);
        for j in 0..p.k() {
            let u = node.within(design, &format!("u{j}"))?;
            t.push(u.trace("a")?);
            t.extend(u.present(&["b", "e"]));
            let bits = [
                "p",
                "stage_pass",
                "stage_dir",
                "va",
                "vb",
                "xing",
                "incoming",
                "keep",
            ];
            t.extend(u.present(&bits).into_iter().map(|t| t.binary()));
        }
        groups.push(Group::new(format!("node {x}"), t));
    }
    Ok(GtkwFiles {
        view: None,
        top: design.top().to_string(),
        groups,
        filters: Vec::new(),
    })
}
