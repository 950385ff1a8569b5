//! The route ROMs of a Π network (`docs/protocol.md` §1): one structural module per
//! distinct switch table, `lca_rom_pi<n>_d<d>_u<u>_l<l>_<k>`, whose outputs are constants —
//! `tab_dn` (`down_rom[t]` at bits `t·d ..`) and `tab_up` (`up_rom[h][t]` at bits
//! `(h·n + t)·u ..`), one `assign` per row. Each switch `lvl<i>_sw<j>` gets an instance
//! `lvl<i>_sw<j>_rom` beside it, wired to its `tab_dn_*`/`tab_up_*` inputs; the decoding
//! logic is in the (shared) switch module.

use super::spec::NetSpec;
use super::tables::{PiTables, SwitchTable};
use crate::netlist::{Design, Expr, Module, ModuleBuilder, NetlistError};
use lcanet_sim::lcan::cycle::SwitchTopology;
use lcanet_sim::lcan::Topology;
use std::collections::HashMap;

/// The ROM module name of distinct table `k`.
pub fn rom_module_name(topo: &Topology, k: usize) -> String {
    format!(
        "lca_rom_pi{}_d{}_u{}_l{}_{k}",
        topo.n(),
        topo.d(),
        topo.u(),
        topo.levels()
    )
}

/// The instance name of switch `inst`'s ROM.
pub fn rom_instance(switch_instance: &str) -> String {
    format!("{switch_instance}_rom")
}

fn rom_module(name: String, topo: &Topology, table: &SwitchTable) -> Module {
    let (n, d, u, l) = (topo.n(), topo.d(), topo.u(), topo.levels());
    let mut m = ModuleBuilder::new(name);
    m.output("tab_dn", n * d).output("tab_up", l * n * u);
    for (t, &row) in table.down.iter().enumerate() {
        m.assign(
            Expr::slice("tab_dn", t * d + d - 1, t * d),
            Expr::constant(d, row),
        );
    }
    for (r, &row) in table.up.iter().enumerate() {
        m.assign(
            Expr::slice("tab_up", r * u + u - 1, r * u),
            Expr::constant(u, row),
        );
    }
    m.build()
}

/// The ROM modules of `spec`'s switches (added to `design`); empty unless it is a Π
/// network.
pub fn roms_of(design: &mut Design, spec: &NetSpec) -> Result<Vec<Module>, NetlistError> {
    match spec.net.switch.topology {
        SwitchTopology::Table { .. } => add_roms(design, &spec.topo),
        _ => Ok(Vec::new()),
    }
}

/// Adds one ROM module per distinct table to `design`; returns, per global switch index,
/// the ROM module of that switch.
pub fn add_roms(design: &mut Design, topo: &Topology) -> Result<Vec<Module>, NetlistError> {
    let tables = PiTables::new(topo);
    let mut seen: HashMap<&SwitchTable, Module> = HashMap::new();
    let mut per_switch = Vec::with_capacity(tables.switches.len());
    for table in &tables.switches {
        if let Some(m) = seen.get(table) {
            per_switch.push(m.clone());
            continue;
        }
        let m = rom_module(rom_module_name(topo, seen.len()), topo, table);
        design.add_module(m.clone())?;
        seen.insert(table, m.clone());
        per_switch.push(m);
    }
    Ok(per_switch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lca_net::network_design;
    use crate::netlist::Body;
    use lcanet_sim::lcan::cycle::ArbiterPolicy;
    use lcanet_sim::lcan::routing::Algorithm;
    use lcanet_sim::lcan::Size;

    fn cb_as_pi() -> NetSpec {
        let cb = Topology::complete_bipartite(2, 2, Size::Levels(2)).unwrap();
        let topo = Topology::from_pi_text(&cb.to_pi_text()).unwrap();
        NetSpec::new(topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 2).unwrap()
    }

    /// CB-LCAN(2,2), l = 2, as a Π file: the two top switches have the same table, so four
    /// switches need three ROM modules; every switch instance has its ROM beside it, and one
    /// switch module serves all four.
    #[test]
    fn identical_tables_share_one_rom_module() {
        let design = network_design(&cb_as_pi()).unwrap();
        let roms: Vec<&str> = design
            .modules()
            .iter()
            .map(|m| m.name.as_str())
            .filter(|n| n.starts_with("lca_rom_"))
            .collect();
        let base = "lca_rom_pi4_d2_u2_l2_";
        assert_eq!(roms, [0, 1, 2].map(|k| format!("{base}{k}")));
        let Body::Structural(top) = &design.module(design.top()).unwrap().body else {
            panic!("the top is structural");
        };
        let inst = |name: &str| {
            top.instances
                .iter()
                .find(|i| i.name == name)
                .unwrap_or_else(|| panic!("no instance {name}"))
                .module
                .clone()
        };
        for (sw, k) in [
            ("lvl0_sw0", 0),
            ("lvl0_sw1", 1),
            ("lvl1_sw0", 2),
            ("lvl1_sw1", 2),
        ] {
            assert_eq!(inst(&format!("{sw}_rom")), format!("{base}{k}"));
            assert_eq!(inst(sw), "lca_switch_pi4_d2_u2_w1_l2_fixed");
        }
    }

    /// A row of `tab_dn` is `down(Y, t)`: PE 3 is on downer 1 of level-0 switch 1.
    #[test]
    fn rom_rows_hold_the_tables() {
        let emitted = network_design(&cb_as_pi()).unwrap().emit().unwrap();
        let text = &emitted
            .files()
            .find(|f| f.name == "lca_rom_pi4_d2_u2_l2_1.v")
            .expect("ROM of lvl0_sw1")
            .contents;
        assert!(text.contains("assign tab_dn[7:6] = 2'b10;"), "{text}");
        assert!(text.contains("assign tab_dn[1:0] = 2'b00;"), "{text}");
    }
}
