//! The strobes of the quadratic cube's units (`docs/hypercube.md` §14): those of the
//! overlapped loop ([`crate::hypercube::overlap::control`]) without Algorithm 1 and
//! `done`. The cross strobes reach every unit; the loop strobes only the units that
//! have a loop (`f >= 1`). Each is a `k`-bit (cross) or `(k−1)`-bit (loop) vector at the
//! node, bit `j` for unit `j`, made by unit `j`'s sequencer.

/// Strobes every unit has (the cross).
pub const CROSS: [&str; 3] = ["ph_cross", "x_decide", "x_shift"];

/// Strobes shared by every unit from the controller (the hand-off load).
pub const SHARED: [&str; 1] = ["load"];

/// Strobes of the units with a loop (`f >= 1`), in port order.
pub fn loop_names() -> Vec<&'static str> {
    crate::hypercube::overlap::control::NAMES
        .iter()
        .copied()
        .filter(|n| !["load", "done", "ph_semi"].contains(n) && !CROSS.contains(n))
        .collect()
}

/// The loop vectors (`f` bits per unit).
pub const VECTORS: [&str; 3] = ["sel", "sclr", "ewin"];
