//! Hierarchical names of the switch's ports and observed registers, in one place. They
//! follow the adapter's naming (`docs/netlist.md`): a `Vec` element `x$3` becomes `x_3`, and
//! a register's output is the parent's stub wire `<instance>_q`.

use lcanet_hdl::lca::Layout;

/// What the co-simulation reads from a switch whose top module is `top`.
#[derive(Debug, Clone)]
pub struct SwitchNames {
    /// `<top>`.
    pub top: String,
    /// Output port bits `c_<x·W+l>` then `d_<k·W+l>`.
    pub outputs: Vec<String>,
    /// Crosspoints in model order: `xp_ac`, `xp_ad`, `xp_bc`, `xp_bd` (row = input).
    pub xp_ac: Vec<String>,
    /// See `xp_ac`.
    pub xp_ad: Vec<String>,
    /// See `xp_ac`.
    pub xp_bc: Vec<String>,
    /// See `xp_ac`.
    pub xp_bd: Vec<String>,
    /// Waiting winners, `d·P1` register bits.
    pub win: Vec<String>,
}

impl SwitchNames {
    /// Names for a switch of layout `lay` whose module is `top`.
    pub fn new(top: &str, lay: &Layout) -> Self {
        let (d, u, w) = (lay.d, lay.u, lay.w);
        let seq = |prefix: &str, n: usize| -> Vec<String> {
            (0..n).map(|i| format!("{top}.{prefix}_{i}_q")).collect()
        };
        let outputs = (0..d * w)
            .map(|i| format!("c_{i}"))
            .chain((0..u * w).map(|i| format!("d_{i}")))
            .collect();
        SwitchNames {
            top: top.to_string(),
            outputs,
            xp_ac: seq("xbar.xp_ac", d * d),
            xp_ad: seq("xbar.xp_ad", d * u),
            xp_bc: seq("xbar.xp_bc", u * d),
            xp_bd: seq("xbar.xp_bd", u * u),
            win: seq("win", d * lay.p1),
        }
    }

    /// A register bit of arbiter `arb` (`up` or `dn`): `<top>.<arb>.<reg>_<i>_q`.
    pub fn arb(&self, arb: &str, reg: &str, i: usize) -> String {
        format!("{}.{arb}.{reg}_{i}_q", self.top)
    }
}
