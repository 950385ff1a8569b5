//! A table-routed (Π) switch for the lone-switch co-simulation: a T- or CB-LCAN written out
//! as a Π file and read back, one of its switches' route tables (the golden model's), and the
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
    /// Switch `switch` of level `level` of a T-LCAN (`kind` tree) or CB-LCAN (`kind` cb)
    /// with `d` downers, `u` uppers and `levels` levels, written out as a Π file and read
    /// back: the switch parameters (`pi<n>`) and its table. The traffic is generated for the
    /// tree or cb switch, whose label-digit addresses must have as many bits as a PE number
    /// of the Π network (`ab`); where the radices are powers of two they are the PE numbers,
    /// elsewhere some exceed `n − 1` and select nothing.
    #[allow(clippy::too_many_arguments)]
    pub fn from_network(
        kind: SwitchTopology,
        d: usize,
        u: usize,
        width: usize,
        levels: usize,
        policy: ArbiterPolicy,
        level: usize,
        switch: usize,
    ) -> Result<(SwitchParams, TableSwitch), String> {
        let size = Size::Levels(levels);
        let net = match kind {
            SwitchTopology::Tree => Topology::tree(d, u, size),
            SwitchTopology::Cb => Topology::complete_bipartite(d, u, size),
            SwitchTopology::Table { .. } => return Err("kind must be tree or cb".into()),
        }
        .map_err(|e| e.to_string())?;
        let pi = Topology::from_pi_text(&net.to_pi_text()).map_err(|e| e.to_string())?;
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
        let traffic =
            SwitchParams::new(d, u, width, levels, kind, policy).map_err(|e| e.to_string())?;
        let (f, g) = (params.format(), traffic.format());
        if (f.hb, f.ab) != (g.hb, g.ab) {
            return Err(format!(
                "the Π network's addresses have {} bits, the {kind} labels {}",
                f.ab, g.ab
            ));
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
