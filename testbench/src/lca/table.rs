//! A table-routed (Π) switch for the lone-switch co-simulation: a CB-LCAN written out as a
//! Π file and read back, one of its switches' route tables (the golden model's), and the
//! same tables as the words the switch's `tab_dn` and `tab_up` inputs carry
//! (`docs/protocol.md` §1, §11).

use super::expect::Bits;
use lcanet_hdl::lca::Layout;
use lcanet_sim::lcan::cycle::route::RouteTable;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams, SwitchTopology};
use lcanet_sim::lcan::{Size, Topology};
use std::sync::Arc;

/// The route table of a Π switch and the parameters its traffic is generated with.
#[derive(Debug, Clone)]
pub struct TableSwitch {
    /// The switch's route tables (what its ROM holds).
    pub table: Arc<RouteTable>,
    /// A tree/cb parameterization with the same packet format, for the legal-traffic
    /// generator (which speaks label digits; for CB-LCAN(2^k, u) they are PE numbers).
    pub traffic: SwitchParams,
}

impl TableSwitch {
    /// Switch `switch` of level `level` of CB-LCAN(`d`, `u`) with `levels` levels, read as a
    /// Π file: the switch parameters (`pi<n>`) and its table. `d` must be a power of two
    /// (so that label digits are the PE number's bits).
    pub fn cb_as_pi(
        d: usize,
        u: usize,
        width: usize,
        levels: usize,
        policy: ArbiterPolicy,
        level: usize,
        switch: usize,
    ) -> Result<(SwitchParams, TableSwitch), String> {
        if !d.is_power_of_two() {
            return Err(format!("d = {d} is not a power of two"));
        }
        let cb =
            Topology::complete_bipartite(d, u, Size::Levels(levels)).map_err(|e| e.to_string())?;
        let pi = Topology::from_pi_text(&cb.to_pi_text()).map_err(|e| e.to_string())?;
        if level >= levels || switch >= pi.switch_count(level) {
            return Err(format!(
                "no switch {switch} at level {level} (levels {levels})"
            ));
        }
        let n = pi.n();
        let params = SwitchParams::new(
            d,
            u,
            width,
            levels,
            SwitchTopology::Table { pes: n },
            policy,
        )
        .map_err(|e| e.to_string())?;
        let traffic = SwitchParams::new(d, u, width, levels, SwitchTopology::Cb, policy)
            .map_err(|e| e.to_string())?;
        let (f, g) = (params.format(), traffic.format());
        if (f.hb, f.ab) != (g.hb, g.ab) {
            return Err("the Π and CB packet formats differ".into());
        }
        let table = Arc::new(RouteTable::for_switch(&pi, level, switch));
        Ok((params, TableSwitch { table, traffic }))
    }

    /// `tab_dn` (`down_rom[t]` at `t·d`) and `tab_up` (`up_rom[h][t]` at `(h·n + t)·u`).
    pub fn rom_words(&self, lay: &Layout) -> (Bits, Bits) {
        let (d, u, l) = (lay.d, lay.u, lay.l);
        let n = self.table.pes();
        let mut dn = Bits::new(n * d);
        let mut up = Bits::new(l * n * u);
        for t in 0..n {
            dn.put(t * d, self.table.down(t as u64), d);
            for h in 0..l {
                up.put((h * n + t) * u, self.table.up(h as u64, t as u64), u);
            }
        }
        (dn, up)
    }
}
