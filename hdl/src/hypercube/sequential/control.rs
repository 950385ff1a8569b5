//! The controller's broadcast to every node (`docs/hypercube.md` §3.4, §4, §5): phase
//! flags and the strobes decoded once, in the controller, from its phase code and phase
//! counter, so that the `2^k` nodes only combine them.
//!
//! [`Control::outputs`] declares them as output ports of the controller and
//! [`Control::inputs`] as input ports of a node, with the same names in the same order;
//! the cube connects each node input `s` to the controller's wire `ctrl_s`.

use crate::netlist::{ModuleBuilder, V};

/// The broadcast signals (1 bit each), by role.
#[derive(Debug, Clone)]
pub struct Control {
    /// Last cycle of a phase, or reset: stages to IDLE, enumeration sums and carries to 0.
    pub clear: V,
    /// The load cycle: `A <= {payload, dest}`, `va <= send`, `vb <= 0`, `coll <= 0`.
    pub load: V,
    /// The run is over (results valid until the next load).
    pub done: V,
    /// An ascending routing phase (`semi`, `pack2`, `pack0`): stage `d` reads `P_d`.
    pub fwd: V,
    /// A descending routing phase (`rdv`): stage `d` reads `P_{d+1}`.
    pub bwd: V,
    /// An enumeration phase (`enum2`, `enum0`).
    pub enum_on: V,
    /// Phase `semi` (Algorithm 1).
    pub ph_semi: V,
    /// Phase `cross` (step 1: cross dimension `i`).
    pub ph_cross: V,
    /// Phase `enum2` (step 2; during `enum_on` otherwise `enum0`).
    pub ph_enum2: V,
    /// Phase `pack2` (step 3).
    pub ph_pack2: V,
    /// Phase `pack0` (step 5).
    pub ph_pack0: V,
    /// Phase `rdv` (step 6).
    pub ph_rdv: V,
    /// Routing cycle 0: drive the start bit.
    pub c_start: V,
    /// Routing cycles `1..=k`: drive address bits.
    pub c_addr: V,
    /// Routing cycles `k+1..=k+B`: drive body bits.
    pub c_body: V,
    /// Routing cycle `2k+1`: the delivery register holds the start bit.
    pub c_rxstart: V,
    /// Routing cycles `2k+2..=2k+B+1`: the delivery register holds body bits.
    pub c_rxbody: V,
    /// Routing cycles `k+1..=2k+B+1`: a buffer that sends and receives shifts.
    pub c_window: V,
    /// Last cycle of a phase.
    pub last: V,
    /// Enumeration cycle 0: `T_0 <= s(x)`.
    pub e_inject: V,
    /// Enumeration cycles `k+1..=2k`: E shifts in `O_k`.
    pub e_capture: V,
    /// Cross cycle 0: decide and announce `go`.
    pub x_decide: V,
}

/// The names, in port order.
pub const NAMES: [&str; 22] = [
    "clear",
    "load",
    "done",
    "fwd",
    "bwd",
    "enum_on",
    "ph_semi",
    "ph_cross",
    "ph_enum2",
    "ph_pack2",
    "ph_pack0",
    "ph_rdv",
    "c_start",
    "c_addr",
    "c_body",
    "c_rxstart",
    "c_rxbody",
    "c_window",
    "last",
    "e_inject",
    "e_capture",
    "x_decide",
];

impl Control {
    /// Declares the signals as input ports of `m` (a node).
    pub fn inputs(m: &mut ModuleBuilder) -> Control {
        Control::declare(|name| m.input(name, 1))
    }

    /// Declares the signals as output ports of `m` (the controller).
    pub fn outputs(m: &mut ModuleBuilder) -> Control {
        Control::declare(|name| m.output(name, 1))
    }

    fn declare(mut port: impl FnMut(&str) -> V) -> Control {
        let [clear, load, done, fwd, bwd, enum_on, ph_semi, ph_cross, ph_enum2, ph_pack2, ph_pack0, ph_rdv, c_start, c_addr, c_body, c_rxstart, c_rxbody, c_window, last, e_inject, e_capture, x_decide] =
            NAMES.map(&mut port);
        Control {
            clear,
            load,
            done,
            fwd,
            bwd,
            enum_on,
            ph_semi,
            ph_cross,
            ph_enum2,
            ph_pack2,
            ph_pack0,
            ph_rdv,
            c_start,
            c_addr,
            c_body,
            c_rxstart,
            c_rxbody,
            c_window,
            last,
            e_inject,
            e_capture,
            x_decide,
        }
    }
}
