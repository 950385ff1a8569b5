//! The overlapped controller's broadcast to every node (`docs/hypercube.md` §12): the
//! strobes of each activity — the cross, the enumeration, routing channel A (`semi`,
//! step 3, step 6) and routing channel B (step 5, which overlaps step 3's tail) —
//! decoded once in the controller from its loop counter.
//!
//! [`Control::outputs`] declares them as output ports of the controller and
//! [`Control::inputs`] as input ports of a node, with the same names in the same order;
//! the cube connects each node input `s` to the controller's wire `ctrl_s`.

use crate::hypercube::parts::control;
use crate::netlist::{ModuleBuilder, V};

control! {
    /// The load cycle: `A <= {payload, dest}`, `va <= send`, `vb <= 0`, `coll <= 0`.
    load,
    /// The run is over (results valid until the next load).
    done,
    /// An ascending routing phase is on (`semi`, step 3, step 5).
    fwd,
    /// A descending routing phase is on (step 6).
    bwd,
    /// Every stage to IDLE (reset; last cycle of `semi`, of step 5 and of step 6).
    s_clear,
    /// Channel A runs `semi` (Algorithm 1).
    ph_semi,
    /// The cross of step 1 (loop cycles `0..=M`).
    ph_cross,
    /// Channel A runs step 3 (pack the doubles' B).
    ph_pack2,
    /// Channel B runs step 5 (pack the empties' addresses).
    ph_pack0,
    /// Channel A runs step 6 (rendezvous).
    ph_rdv,
    /// Channel A, cycle 0: drive the start bit.
    c_start,
    /// Channel A, cycles `1..=F`: drive address bits.
    c_addr,
    /// Channel A, cycles `F+1..=F+B`: drive body bits.
    c_body,
    /// Channel A, cycle `2F+1`: the delivery register holds the start bit.
    c_rxstart,
    /// Channel A, cycles `2F+2..=2F+B+1`: the delivery register holds body bits.
    c_rxbody,
    /// Channel A, cycles `F+1..=2F+B+1`: a buffer that sends and receives shifts.
    c_window,
    /// Channel A, its last cycle.
    c_last,
    /// Channel B, cycle 0.
    p0_start,
    /// Channel B, cycles `1..=f`.
    p0_addr,
    /// Channel B, cycles `f+1..=2f` (the empty node's address bits).
    p0_body,
    /// Channel B, cycle `2f+1`.
    p0_rxstart,
    /// Channel B, cycles `2f+2..=3f+1`.
    p0_rxbody,
    /// The enumeration runs (loop cycles `0..=3f`).
    enum_on,
    /// Loop cycle 0: `T_{i+1} <= double` (post-cross membership, decided this cycle).
    e_inj2,
    /// Loop cycle `f`: `T_{i+1} <= empty`.
    e_inj0,
    /// Loop cycles `f+1..=2f`: doubles shift `O_k` into E.
    e_cap2,
    /// Loop cycles `2f+1..=3f`: empties shift `O_k` into E.
    e_cap0,
    /// Reset, or the enumeration's last cycle: sums and carries to 0.
    e_clear,
    /// Loop cycle 0: decide and announce `go`; update `va`, `vb`.
    x_decide,
    /// Loop cycles `1..=M`: the crossing message on the dimension-`i` wire.
    x_shift,
}
