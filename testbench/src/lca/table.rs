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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rom_words_hold_the_table_rows() {
        let (params, t) =
            TableSwitch::from_network(SwitchTopology::Cb, 2, 2, 1, 3, ArbiterPolicy::Fixed, 1, 2)
                .unwrap();
        assert_eq!(params.topology, SwitchTopology::Table { pes: 8 });
        let lay = Layout::new(params);
        let (dn, up) = t.rom_words(&lay);
        assert_eq!((dn.width(), up.width()), (8 * 2, 3 * 8 * 2));
        for pe in 0..8u64 {
            for x in 0..2 {
                let want = t.table.down(pe) >> x & 1 == 1;
                assert_eq!(dn.get(pe as usize * 2 + x), want, "down_rom[{pe}] bit {x}");
            }
            for h in 0..3u64 {
                for k in 0..2 {
                    let want = t.table.up(h, pe) >> k & 1 == 1;
                    assert_eq!(up.get(((h * 8 + pe) * 2) as usize + k), want);
                }
            }
        }
        // A level-1 switch reaches 4 PEs below it and routes up at level 2 only.
        assert_eq!((0..8).filter(|&p| t.table.down(p) != 0).count(), 4);
        assert!((0..8).all(|p| t.table.up(1, p) == 0));
    }

    #[test]
    fn mismatched_address_widths_are_refused() {
        // T-LCAN(4,2), l = 3: labels have 4 bits (2 + 1 + 1), and n = 16 also needs 4: fine.
        assert!(TableSwitch::from_network(
            SwitchTopology::Tree,
            4,
            2,
            1,
            3,
            ArbiterPolicy::Fixed,
            0,
            0
        )
        .is_ok());
        // CB-LCAN(3,3), l = 3: labels 3 × 2 = 6 bits, n = 27 needs 5.
        let err =
            TableSwitch::from_network(SwitchTopology::Cb, 3, 3, 1, 3, ArbiterPolicy::Fixed, 0, 0)
                .unwrap_err();
        assert!(err.contains("5 bits, the cb labels 6"), "{err}");
    }
}
