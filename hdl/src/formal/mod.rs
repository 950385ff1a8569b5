//! Formal verification of the generated switches (`docs/formal.md`): SystemVerilog-for-
//! Yosys harnesses that state the properties of each block as assertions, the rules of its
//! controller as assumptions, and the auxiliary invariants that make the properties
//! provable by induction; and the Yosys scripts that prove them.
//!
//! - [`switch`]: the LCA switch of R1/R2 (sequential, fast or chunked set-up; tree, cb or
//!   Π with a given or symbolic ROM): P1–P6;
//! - [`r3`]: the R3 switch (`docs/protocol.md` §12): P1–P5 of its own protocol;
//! - [`cube`]: the hypercube node router (`docs/hypercube.md` §3, §12) with the cube's
//!   controller: P1–P3 (transit, collision, one frame end to end);
//! - [`script`]: the Yosys scripts: a k-induction proof (`sat -tempinduct`), a bounded
//!   search for a counterexample (`sat -seq`), the search for a witness that the
//!   assumptions admit real traffic.
//!
//! This module writes text only; running Yosys is the CLI's (`lcanet prove`).

pub mod cube;
pub mod r3;
pub mod script;
pub mod switch;
pub(crate) mod text;

pub use script::{bmc_script, induction_script, witness_script, ScriptFiles};

/// A harness: the module that instantiates the block and asserts its properties.
#[derive(Debug, Clone)]
pub struct Harness {
    /// The harness module's name.
    pub top: String,
    /// The block module it instantiates.
    pub switch: String,
    /// The SystemVerilog text.
    pub text: String,
}

/// A property a harness can assert (which ones a block has: [`Property::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Property {
    /// No output wire has two drivers.
    P1,
    /// No input drives two outputs (no multicast).
    P2,
    /// A closed crosspoint stays closed through pass-through.
    P3,
    /// A winning packet (R3: every stream) is forwarded without a bit lost or invented.
    P4,
    /// Every set-up decision is the protocol's: the arbiters' choices (R3: the crosspoints
    /// the route fields close).
    P5,
    /// Crosspoints and waiting winners change only as the protocol says.
    P6,
}

/// Which kind of block a property belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    /// The R1/R2 LCA switch.
    Switch,
    /// The R3 switch.
    R3,
    /// The hypercube node router (the overlapped router's node).
    Cube,
}

impl Property {
    /// Every property, in order.
    pub const ALL: [Property; 6] = [
        Property::P1,
        Property::P2,
        Property::P3,
        Property::P4,
        Property::P5,
        Property::P6,
    ];

    /// The properties of a block.
    pub fn of(block: Block) -> Vec<Property> {
        use Property::*;
        match block {
            Block::Switch => vec![P1, P2, P3, P4, P5, P6],
            Block::R3 => vec![P1, P2, P3, P4, P5],
            Block::Cube => vec![P1, P2, P3],
        }
    }

    /// `P1` … `P6`.
    pub fn name(self) -> &'static str {
        use Property::*;
        match self {
            P1 => "P1",
            P2 => "P2",
            P3 => "P3",
            P4 => "P4",
            P5 => "P5",
            P6 => "P6",
        }
    }

    /// The harness macro that enables the property's assertions.
    pub fn define(self) -> String {
        format!("CHECK_{}", self.name())
    }

    /// One line saying what the property states for `block`.
    pub fn summary(self, block: Block) -> &'static str {
        use Property::*;
        match (self, block) {
            (P1, Block::Cube) => {
                "every bit entering the node's pipeline leaves once, in order, on the link or delivery its address names (§3.2)"
            }
            (P2, Block::Cube) => {
                "collision is set exactly when both inputs of a pipeline register are 1, and cleared by load only"
            }
            (P3, Block::Cube) => {
                "Algorithm 1: one aligned frame leaves on its first 1-dimension or is delivered, every bit after its address, in order (§3.3)"
            }
            (P4 | P5 | P6, Block::Cube) => "not a property of the hypercube node",
            (P1, _) => "no output wire has two drivers",
            (P2, _) => "no input drives two outputs",
            (P3, Block::R3) => "a closed crosspoint stays closed until ctl_clear",
            (P3, _) => "a closed crosspoint stays closed through PASS/REV",
            (P4, Block::R3) => {
                "every output carries its input's stream one bit-time later, a fresh V where it was granted"
            }
            (P4, _) => "a winning packet is forwarded without a bit lost or invented",
            (P5, Block::R3) => {
                "a crosspoint closes exactly where a route field names a free output (lowest input wins)"
            }
            (P5, _) => "every grant and rejection follows the policy's service and wire order",
            (P6, _) => "crosspoints and waiting winners change only at grants, serving commits and clears",
        }
    }

    /// The property named `s` (case-insensitive).
    pub fn parse(s: &str) -> Option<Property> {
        Property::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
    }
}
