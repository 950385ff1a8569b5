//! The route ROMs of a Π network (`docs/protocol.md` §1): one module per distinct switch
//! table, `lca_rom_pi<n>_d<d>_u<u>_l<l>_<k>`, whose outputs are constants — `tab_dn`
//! (`down_rom[t]`, row `t` of `d` bits) and `tab_up` (`up_rom[h][t]`, row `h·n + t` of `u`
//! bits), one `assign` per row. Each switch `lvl<i>_sw<j>` gets an instance
//! `lvl<i>_sw<j>_rom` beside it, wired to its `tab_dn`/`tab_up` inputs; the decoding logic
//! is in the (shared) switch module.

use super::spec::NetSpec;
use super::tables::{PiTables, SwitchTable};
use crate::netlist::{lit, Design, Module, ModuleBuilder, NetlistError};
use lcanet_sim::lcan::cycle::SwitchTopology;
use lcanet_sim::lcan::Topology;
use std::collections::HashMap;

/// The ROM module name of distinct table `k`, of a level-`level` switch.
pub fn rom_module_name(topo: &Topology, level: usize, k: usize) -> String {
    format!(
        "lca_rom_pi{}_d{}_u{}_l{}_{k}",
        topo.n(),
        topo.d_at(level),
        topo.u_at(level),
        topo.levels()
    )
}

/// The instance name of switch `inst`'s ROM.
pub fn rom_instance(switch_instance: &str) -> String {
    format!("{switch_instance}_rom")
}

fn rom_module(name: String, topo: &Topology, level: usize, table: &SwitchTable) -> Module {
    let (n, d, u, l) = (topo.n(), topo.d_at(level), topo.u_at(level), topo.levels());
    let mut m = ModuleBuilder::new(name);
    let dn = m.output("tab_dn", n * d);
    let up = m.output("tab_up", l * n * u);
    m.comment("down_rom[t]: the downers that lead to PE t");
    for (t, &row) in table.down.iter().enumerate() {
        m.assign(&dn.row(t, d), lit(d, row));
    }
    m.comment("up_rom[h][t] at row h*n + t: the uppers that lead to an LCA switch of t at level h");
    for (r, &row) in table.up.iter().enumerate() {
        m.assign(&up.row(r, u), lit(u, row));
    }
    m.build()
}

/// The ROM modules of `spec`'s switches (added to `design`); empty unless it is a Π
/// network.
pub fn roms_of(design: &mut Design, spec: &NetSpec) -> Result<Vec<Module>, NetlistError> {
    match spec.net.switch_topology() {
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
    for (g, table) in tables.switches.iter().enumerate() {
        if let Some(m) = seen.get(table) {
            per_switch.push(m.clone());
            continue;
        }
        let level = topo.from_global(g).0;
        let m = rom_module(rom_module_name(topo, level, seen.len()), topo, level, table);
        design.add_module(m.clone())?;
        seen.insert(table, m.clone());
        per_switch.push(m);
    }
    Ok(per_switch)
}
