//! The sort controller's broadcast to every node (`docs/hypercube.md` §13): the strobes
//! of the one pipeline's phase — a sort pass or a routing phase (`semi`, the unpack) —
//! decoded once in the controller from its phase counter.

use crate::hypercube::parts::control;
use crate::netlist::{ModuleBuilder, V};

control! {
    /// The load cycle: `A <= {payload, dest}`, `va <= send`, `coll <= 0`.
    load,
    /// The run is over (results valid until the next load).
    done,
    /// Every stage to IDLE (reset, the last cycle of a pass or of a routing phase).
    s_clear,
    /// A routing phase (Algorithm 1, or the unpacking after the sort).
    ph_semi,
    /// A pass of the sort.
    ph_sort,
    /// Cycle 0: drive the start bit (routing) or the record's first bit, `!va` (sort).
    c_start,
    /// Routing cycles `1..=k`: drive address bits.
    c_addr,
    /// Cycles that drive A's bits: routing `k+1..=k+L`, sort `1..=M`.
    c_body,
    /// The delivery register holds the start bit (routing, `2k+1`) or the record's
    /// first bit (pass `s`, `s+2`).
    c_rxstart,
    /// A shifts: routing `k+1..=2k+L+1`, sort `1..=M+s+2`.
    c_window,
    /// The last cycle of the phase.
    c_last,
}

/// The `k`-bit vectors the controller broadcasts besides the strobes.
pub const VECTORS: [&str; 2] = ["sel", "low"];
