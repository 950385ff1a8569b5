//! The GTKWave save file of one LCA switch (`generate switch`, `sim switch --vcd`), grouped
//! as `docs/protocol.md` describes the switch: its control inputs (`ctl_mode` by name,
//! through the network's mode filter), the links `A`, `B` in and `C`, `D` out, the step
//! counter `bt` with the windows it opens, the receive and output registers and the
//! waiting winners, the crosspoints `xp_*`, and each contention arbiter's requests,
//! outcome registers and policy state. Masks, one-hot rows and crosspoints are shown in
//! binary, packets and addresses in hex. Widths are those of the elaborated module.

use crate::gtkw::{filter, Group, GtkwFiles, MissingSignal, Scope};
use crate::lca_net::controller::MODES;
use crate::netlist::Module;

/// The save file of a lone switch: `module` is the top of its design
/// ([`switch_design`](super::switch_design)).
pub fn switch_gtkw(module: &Module) -> Result<GtkwFiles, MissingSignal> {
    let s = Scope::new(module, "");
    let mut control = s.traces(&["clock", "level"])?;
    control.push(s.trace("ctl_mode")?.named(1));
    control.extend(s.traces(&["ctl_init", "ctl_last", "ctl_clear", "ctl_level"])?);
    // Random policy: the seed and salts; Π topology: the route tables.
    control.extend(s.present(&["seed16", "salt_up", "salt_dn", "tab_dn", "tab_up"]));
    let mut step = s.traces(&["bt"])?;
    step.extend(s.binary(&[
        "commit",
        "rx_a_en",
        "rx_b_en",
        "up_window",
        "dn_window",
        "arb_up",
        "arb_down",
        "arb_probe",
        "serve_win",
    ])?);
    step.extend(s.traces(&["level"])?);
    let mut regs = s.traces(&["rx_a", "rx_b", "tx_c", "tx_d", "win"])?;
    regs.extend(s.binary(&["a_valid", "a_here"])?);
    // The fast set-up (docs/protocol.md §13) decides every request in the commit
    // bit-time: its requests (`up_req`, `dn_req`) and outcome, no per-bit-time decision.
    let fast = module.name.contains("_fast");
    let mut up = if fast {
        s.binary(&["up_req"])?
    } else {
        s.binary(&["up_pend", "up_sel", "up_pick", "up_ok"])?
    };
    up.extend(s.binary(&["up_gnt", "up_rej", "up_ch"])?);
    // The policy's registers: round-robin pointers and last winner, or the LFSR (a
    // fixed-priority arbiter has none).
    up.extend(s.present(&["up_p", "up_q", "up_last", "up_lfsr"]));
    let mut dn = if fast {
        s.binary(&["dn_req", "dn_gnt", "dn_rej", "dn_ch0", "dn_ch1"])?
    } else {
        s.binary(&["dn_pend", "dn_sel"])?
    };
    if !fast {
        // Π: the addresses of the request decided (tree and cb decode every request's).
        dn.extend(s.present(&["dn_src", "dn_dst"]));
        dn.extend(s.binary(&[
            "dn_pick_a",
            "dn_pick_c",
            "dn_ok",
            "dn_gnt",
            "dn_rej",
            "dn_ch0",
            "dn_ch1",
            "dn_used_a",
            "dn_used_c",
        ])?);
    }
    dn.extend(s.present(&["dn_p", "dn_q", "dn_last", "dn_lfsr"]));
    let groups = vec![
        Group::new("control (ctl_mode by name)", control),
        Group::new("links A, B in; C, D out", s.traces(&["a", "b", "c", "d"])?),
        Group::new("step counter and windows", step),
        Group::new(
            "receive (rx_a, rx_b), output (tx_c, tx_d) registers, waiting winners",
            regs,
        ),
        Group::new(
            "crosspoints (row = input)",
            s.binary(&[
                "xp_ac", "xp_ad", "xp_bc", "xp_bd", "a_drives", "b_drives", "c_driven", "d_driven",
            ])?,
        ),
        Group::new("UP arbiter: requests, outcome, policy", up),
        Group::new("DOWN arbiter: requests, outcome, policy", dn),
    ];
    Ok(GtkwFiles {
        view: None,
        top: module.name.clone(),
        groups,
        filters: vec![filter("lca_mode.txt", &MODES)],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lca::switch_design;
    use lcanet_sim::lcan::cycle::{ArbiterPolicy, SetupMode, SwitchParams, SwitchTopology};

    /// Every variant (topology kind, policy, link width) has every signal the save file
    /// shows, with the width the save file gives it, and its policy's registers.
    #[test]
    fn every_variant_fits_its_module() {
        for topology in [
            SwitchTopology::Tree,
            SwitchTopology::Cb,
            SwitchTopology::Table { pes: 8 },
        ] {
            for policy in [
                ArbiterPolicy::Fixed,
                ArbiterPolicy::RoundRobin,
                ArbiterPolicy::Random,
            ] {
                for (d, u, w) in [(2, 1, 1), (4, 2, 3), (2, 2, 2)] {
                    if topology == SwitchTopology::Tree && d == u {
                        continue;
                    }
                    let p = SwitchParams::new(d, u, w, 3, topology, policy).unwrap();
                    // The fast set-up's arbiters show other signals (docs/protocol.md §13).
                    for p in [
                        p,
                        p.with_setup(SetupMode::Fast).unwrap(),
                        p.with_setup(SetupMode::Chunked(2)).unwrap(),
                    ] {
                        let design = switch_design(p).unwrap();
                        let module = design.module(design.top()).unwrap();
                        let files = switch_gtkw(module).unwrap_or_else(|e| panic!("{p:?}: {e}"));
                        assert_eq!(files.mismatches(&design), Vec::<String>::new(), "{p:?}");
                        let paths: Vec<&str> = files
                            .groups
                            .iter()
                            .flat_map(|g| &g.traces)
                            .map(|t| t.path.as_str())
                            .collect();
                        let want: &[&str] = match policy {
                            ArbiterPolicy::Fixed => &[],
                            ArbiterPolicy::RoundRobin => &["up_p", "up_q", "dn_p", "dn_last"],
                            ArbiterPolicy::Random => &["up_lfsr", "dn_lfsr", "seed16", "salt_dn"],
                        };
                        for r in want {
                            assert!(paths.contains(r), "{p:?}: no {r} in {paths:?}");
                        }
                        let pi = matches!(topology, SwitchTopology::Table { .. });
                        assert_eq!(paths.contains(&"tab_dn"), pi, "{p:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_mode_is_shown_by_name() {
        let p = SwitchParams::new(4, 2, 1, 3, SwitchTopology::Tree, ArbiterPolicy::Fixed).unwrap();
        let design = switch_design(p).unwrap();
        let files = switch_gtkw(design.module(design.top()).unwrap()).unwrap();
        let text = files.save_text(std::path::Path::new("/f"), "t", None);
        let top = design.top();
        assert!(
            text.contains(&format!(
                "^1 /f/lca_mode.txt\n@2024\nTOP.{top}.ctl_mode[2:0]\n"
            )),
            "{text}"
        );
        assert!(files.filters[0].text.contains("5 REV"));
        assert!(
            text.contains(&format!("@28\nTOP.{top}.xp_ac[15:0]\n")),
            "{text}"
        );
        assert!(
            text.contains(&format!("@22\nTOP.{top}.bt[9:0]\n")),
            "{text}"
        );
    }
}
