//! Pieces the node routers and controllers share: shifts of vectors, the one-hot and
//! thermometer codes of the dimensions a loop uses, and the routing stage of
//! `docs/hypercube.md` §3.2 as vector operations.

use crate::netlist::{cat, zero, ModuleBuilder, V};

/// `{v[w-2:0], fill}`: `v` shifted one place up (towards higher dimensions).
pub fn shift_in_low(v: &V, fill: V) -> V {
    let w = v.width();
    if w == 1 {
        fill
    } else {
        cat([v.bits(w - 2, 0), fill])
    }
}

/// `{fill, v[w-1:1]}`: a shift register moving towards its head, bit 0.
pub fn shift_in_high(v: &V, fill: V) -> V {
    let w = v.width();
    if w == 1 {
        fill
    } else {
        cat([fill, v.bits(w - 1, 1)])
    }
}

/// `v` shifted one place up, a zero entering at bit 0 (the top bit is dropped).
pub fn up(v: &V) -> V {
    shift_in_low(v, zero(1))
}

/// `v` shifted one place down, a zero entering at the top (bit 0 is dropped).
pub fn down(v: &V) -> V {
    shift_in_high(v, zero(1))
}

/// For a thermometer `low` (`low[d] = 1` iff `d <= i`): its top bit as a one-hot,
/// `onehot(i)` (0 when `low` is 0).
pub fn top_of(low: &V) -> V {
    low & !down(low)
}

/// For a thermometer `low`: the one-hot of the first dimension above it, `onehot(i+1)`
/// (`onehot(0)` when `low` is 0, 0 when `low` is all ones).
pub fn first_above(low: &V) -> V {
    shift_in_low(low, V::from(true)) & !low
}

/// A routing stage's outputs and next state, for every stage at once (§3.2): `input`
/// the bits the stages read, `pass`/`dir` their state vectors (00 IDLE, 01 HEAD, 10
/// PASS-STAY, 11 PASS-CROSS). Returns `(stay, cross)`, defined as wires of `m`.
pub fn stage_outputs(m: &mut ModuleBuilder, input: &V, pass: &V, dir: &V) -> (V, V) {
    let stay = m.def("stay", (pass ^ dir) & (input ^ dir));
    let cross = m.def("cross_out", input & dir);
    (stay, cross)
}

/// The stages' next `(pass, dir)` (without clearing).
pub fn stage_next(input: &V, pass: &V, dir: &V) -> (V, V) {
    (pass | dir, (pass & dir) | (!pass & input))
}

/// A full adder on vectors: `(sum, carry)` of `a + b + c`, bit by bit.
pub fn full_add(a: &V, b: &V, c: &V) -> (V, V) {
    (a ^ b ^ c, (a & b) | (a & c) | (b & c))
}

/// Declares a controller's broadcast: `struct Control` with one `V` per strobe (each a
/// field with its doc), `NAMES` in port order, and `Control::declare`.
macro_rules! control {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {
        /// The broadcast signals (1 bit each), by role.
        #[derive(Debug, Clone)]
        pub struct Control {
            $($(#[$doc])* pub $name: V,)*
        }

        /// The names, in port order.
        pub const NAMES: &[&str] = &[$(stringify!($name)),*];

        impl Control {
            /// The signals, each made by `port` from its name (a port, or a constant
            /// where a module has no such port).
            pub fn declare(mut port: impl FnMut(&str) -> V) -> Control {
                Control { $($name: port(stringify!($name)),)* }
            }

            /// Declares the signals as input ports of `m` (a node).
            pub fn inputs(m: &mut ModuleBuilder) -> Control {
                Control::declare(|name| m.input(name, 1))
            }

            /// Declares the signals as output ports of `m` (the controller).
            pub fn outputs(m: &mut ModuleBuilder) -> Control {
                Control::declare(|name| m.output(name, 1))
            }
        }
    };
}
pub(crate) use control;
