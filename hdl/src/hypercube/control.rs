//! The controller's broadcast to every node (`docs/hypercube.md` §3.4, §4, §5): phase
//! flags and the strobes decoded from the phase counter.

use rust_hdl::prelude::*;

/// Control inputs of a node, driven by the [`super::controller::Controller`].
#[derive(LogicInterface, Default)]
pub struct Control {
    /// End of phase or reset: stages to IDLE, enumeration registers to 0.
    pub clear: Signal<In, Bit>,
    /// The load cycle: A <= (dest, payload), va <= send.
    pub load: Signal<In, Bit>,
    /// The run is over.
    pub done: Signal<In, Bit>,
    /// Ascending routing phase (semi, pack2, pack0).
    pub fwd: Signal<In, Bit>,
    /// Descending routing phase (rdv).
    pub bwd: Signal<In, Bit>,
    /// Enumeration phase (enum2, enum0).
    pub enum_on: Signal<In, Bit>,
    /// Step 1 (cross dimension i).
    pub xdim_on: Signal<In, Bit>,
    /// Phase `semi`.
    pub k_semi: Signal<In, Bit>,
    /// Phase `pack2` (step 3).
    pub k_pack2: Signal<In, Bit>,
    /// Phase `pack0` (step 5).
    pub k_pack0: Signal<In, Bit>,
    /// Phase `rdv` (step 6).
    pub k_rdv: Signal<In, Bit>,
    /// Phase `enum2` (step 2; `enum0` when 0 during `enum_on`).
    pub k_enum2: Signal<In, Bit>,
    /// Routing cycle 0.
    pub c_start: Signal<In, Bit>,
    /// Routing cycles `1..=k`.
    pub c_addr: Signal<In, Bit>,
    /// Routing body cycles `k+1..=k+B`.
    pub c_body: Signal<In, Bit>,
    /// Routing cycle `2k+1`.
    pub c_rxstart: Signal<In, Bit>,
    /// Routing cycles `2k+2..=2k+B+1`.
    pub c_rxbody: Signal<In, Bit>,
    /// Routing cycles `k+1..=2k+B+1`.
    pub c_window: Signal<In, Bit>,
    /// Last cycle of a phase.
    pub last: Signal<In, Bit>,
    /// Enumeration cycle 0.
    pub e_inject: Signal<In, Bit>,
    /// Enumeration cycles `k+1..=2k`.
    pub e_capture: Signal<In, Bit>,
    /// Step-1 cycle 0.
    pub x_decide: Signal<In, Bit>,
}
