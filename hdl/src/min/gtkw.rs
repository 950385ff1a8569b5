//! The GTKWave save file of a MIN with ATAPE units (`generate min`, `sim min --vcd`,
//! `sim ataape --vcd`): the controller (frame and position counters, drain, the strobes of
//! the units and the stages' decision strobes `dec`), the PE-facing vectors (PE `j` at row
//! `j`), the first [`MAX_DETAILED`] ATAPE units (destination and tag shift register), the
//! switch-state buses (`sw_crossed`, `sw_conflict`: stage `s`, switch `k` at bit
//! `s·n/2 + k`), and one group per stage: its output positions `st<s>_out` and its first
//! switches' inputs, outputs, setting and conflict flag. Masks and serial bit vectors are
//! shown in binary. The controller has no phase code (its state is `run`, `drain`,
//! `frame`, `pos`), so no translate filter is needed. Widths are those of the elaborated
//! modules.

use super::{stage_net, switch_instance};
use crate::gtkw::{Group, GtkwFiles, MissingSignal, Scope, MAX_DETAILED};
use crate::netlist::Design;
use lcanet_sim::min::Min;

/// The save file of the network `design` ([`build`](super::build)) of `min`.
pub fn min_gtkw(design: &Design, min: &Min) -> Result<GtkwFiles, MissingSignal> {
    let top = Scope::top(design)?;
    let ctrl = top.within(design, "ctrl")?;
    let mut control = top.traces(&["clock", "reset", "start", "single", "busy", "sending"])?;
    control.extend(top.traces(&["frame", "pos"])?);
    control.push(ctrl.trace("drain")?);
    control.extend(ctrl.binary(&["load", "next", "flip", "hdr", "pay", "dec"])?);
    // The decision strobes' delay line exists for m > 1 only.
    control.extend(ctrl.present(&["dec_line"]).into_iter().map(|t| t.binary()));
    let mut pes = top.traces(&["first", "dst"])?;
    pes.extend(top.binary(&["din", "pe_tx", "dout"])?);
    let mut groups = vec![
        Group::new("ATAPE controller", control),
        Group::new("PEs (PE j at row j)", pes),
    ];
    for j in 0..min.n().min(MAX_DETAILED) {
        let pe = top.within(design, &format!("pe{j}"))?;
        let mut t = pe.traces(&["dst_q", "tsr"])?;
        t.extend(pe.binary(&["din", "tx"])?);
        groups.push(Group::new(format!("PE {j} ATAPE unit"), t));
    }
    groups.push(Group::new(
        "switch states (switch k of stage s at bit s*n/2 + k)",
        top.binary(&["conflict", "sw_crossed", "sw_conflict"])?,
    ));
    for s in 0..min.m() {
        let mut t = vec![top.trace(&stage_net(s))?.binary()];
        for k in 0..min.switches_per_stage().min(MAX_DETAILED) {
            let sw = top.within(design, &switch_instance(s, k))?;
            t.extend(sw.binary(&["dec", "din", "dout", "crossed", "conflict"])?);
        }
        groups.push(Group::new(format!("stage {s} switches"), t));
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
    use crate::min::build;
    use lcanet_sim::min::Network;

    #[test]
    fn every_trace_is_a_signal_of_the_network() {
        for net in Network::ALL {
            for m in [1, 2, 3, 4] {
                let min = Min::new(net, m).unwrap();
                let rtl = build(&min, 5).unwrap();
                let files = min_gtkw(&rtl.design, &min).unwrap();
                assert_eq!(files.top, rtl.top);
                assert_eq!(files.mismatches(&rtl.design), Vec::<String>::new(), "{min}");
                let stages = files.groups.iter().filter(|g| g.name.starts_with("stage "));
                assert_eq!(stages.count(), m as usize, "{min}");
            }
        }
    }

    #[test]
    fn switch_states_are_shown_in_binary() {
        let min = Min::new(Network::Omega, 3).unwrap();
        let rtl = build(&min, 8).unwrap();
        let text =
            min_gtkw(&rtl.design, &min)
                .unwrap()
                .save_text(std::path::Path::new("/f"), "t", None);
        assert!(
            text.contains("@28\nTOP.omega_atape_m3_b8.sw_crossed[11:0]\n"),
            "{text}"
        );
        assert!(text.contains("@28\nTOP.omega_atape_m3_b8.st2_sw3.crossed\n"));
        assert!(text.contains("@22\nTOP.omega_atape_m3_b8.pe7.tsr[2:0]\n"));
    }
}
