//! What a network generation needs: the topology and the validated [`NetParams`] (shared
//! with the golden model), and the module names they imply.

use lcanet_sim::lcan::cycle::network::params::{NetParamError, NetParams};
use lcanet_sim::lcan::cycle::SetupMode;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchTopology};
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::Topology;

/// Why a network cannot be generated with these parameters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The parameters are out of range.
    #[error(transparent)]
    Params(#[from] NetParamError),
    /// A Π network whose route tables (ROMs and PE LCA tables) are too large to emit.
    #[error(
        "topology file: the route tables would hold {bits} bits (switches·n·(d + l·u) for \
         the switch ROMs + n²·hb for the PE LCA tables), more than the supported {max}"
    )]
    PiTablesTooLarge {
        /// Bits the tables would hold.
        bits: usize,
        /// The limit.
        max: usize,
    },
}

/// Largest total of route-table bits of a Π network ([`SpecError::PiTablesTooLarge`]):
/// every bit is a constant pin or a ROM row in the emitted Verilog.
pub const MAX_PI_TABLE_BITS: usize = 1 << 22;

/// Bits of a Π network's tables: the switches' `down_rom` and `up_rom`, the PEs' LCA levels.
pub fn pi_table_bits(topo: &Topology, hb: usize) -> usize {
    let (n, l) = (topo.n(), topo.levels());
    (0..l)
        .map(|i| topo.switch_count(i) * n * (topo.d_at(i) + l * topo.u_at(i)))
        .sum::<usize>()
        + n * n * hb
}

/// How the switches of a network are written (`docs/network-rtl.md`, "Structure").
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Structure {
    /// One instance `lvl<i>_sw<j>` of the switch module per switch: every switch has its
    /// own scope in GTKWave.
    Instances,
    /// One module per level, `lvl<i>`, holding the level's switches as rows of one loop
    /// (switch `j` is row `j` of every vector): the switch's logic once per level instead of
    /// once per switch, which Verilator builds in a fraction of the time and memory.
    Rows,
}

impl Structure {
    /// Networks with more switches than this are written as rows by default.
    pub const AUTO_ROWS_ABOVE: usize = 256;

    /// Instances up to [`Structure::AUTO_ROWS_ABOVE`] switches, rows above.
    pub fn auto(switches: usize) -> Self {
        if switches > Self::AUTO_ROWS_ABOVE {
            Structure::Rows
        } else {
            Structure::Instances
        }
    }

    /// `instances` or `rows`.
    pub fn name(self) -> &'static str {
        match self {
            Structure::Instances => "instances",
            Structure::Rows => "rows",
        }
    }
}

/// A network to generate.
#[derive(Debug, Clone)]
pub struct NetSpec {
    /// The network.
    pub topo: Topology,
    /// Its hardware parameters.
    pub net: NetParams,
    /// How its switches are written ([`Structure::auto`] unless chosen).
    pub structure: Structure,
}

impl NetSpec {
    /// Validates the combination.
    pub fn new(
        topo: Topology,
        algorithm: Algorithm,
        policy: ArbiterPolicy,
        width: usize,
        msg_bits: usize,
    ) -> Result<Self, SpecError> {
        let net = NetParams::new(&topo, algorithm, policy, width, msg_bits)?;
        if matches!(net.switch_topology(), SwitchTopology::Table { .. }) {
            let bits = pi_table_bits(&topo, net.fmt.hb);
            if bits > MAX_PI_TABLE_BITS {
                return Err(SpecError::PiTablesTooLarge {
                    bits,
                    max: MAX_PI_TABLE_BITS,
                });
            }
        }
        let structure = Structure::auto(topo.total_switches());
        Ok(NetSpec {
            topo,
            net,
            structure,
        })
    }

    /// The same network with its switches written as `structure`.
    pub fn with_structure(mut self, structure: Structure) -> Self {
        self.structure = structure;
        self
    }

    /// The same network with set-up arbitration `setup` in every switch
    /// (`docs/protocol.md` §13; the controller's `UP`, `DOWN`, `PROBE` steps shorten).
    pub fn with_setup(mut self, setup: SetupMode) -> Result<Self, SpecError> {
        self.net = self.net.with_setup(setup)?;
        Ok(self)
    }

    /// Link width `W`.
    pub fn width(&self) -> usize {
        self.net.width()
    }

    /// The arbiter policy.
    pub fn policy(&self) -> ArbiterPolicy {
        self.net.policy()
    }

    /// The short policy name used in module names.
    pub fn policy_tag(&self) -> &'static str {
        match self.policy() {
            ArbiterPolicy::Fixed => "fixed",
            ArbiterPolicy::RoundRobin => "rr",
            ArbiterPolicy::Random => "random",
        }
    }

    /// The parameter part of module names: `<kind>_d<d>_u<u>_l<l>_w<W>`; with switch sizes
    /// that vary by level, `d` and `u` list every level's, level 0 first, joined by `x`
    /// (`cb_d4x4x4_u2x2x4_l3_w1`).
    pub fn shape_tag(&self) -> String {
        let (d, u) = size_tags(&self.topo, "x");
        format!(
            "{}_d{d}_u{u}_l{}_w{}",
            self.topo.kind().name(),
            self.topo.levels(),
            self.width()
        )
    }

    /// Whether the arbiters are random (the top has a `seed` input).
    pub fn random(&self) -> bool {
        self.policy() == ArbiterPolicy::Random
    }

    /// The PE interface module: `lcan_<shape>_m<M>_<r1|r2>_pe` (the policy does not change
    /// it).
    pub fn pe_module_name(&self) -> String {
        format!(
            "lcan_{}_m{}_{}_pe",
            self.shape_tag(),
            self.net.msg_bits,
            self.net.algorithm.name()
        )
    }

    /// The broadcast tap module ([`super::tap`]): `lcan_<shape>_<r1|r2>_tap`.
    pub fn tap_module_name(&self) -> String {
        format!(
            "lcan_{}_{}_tap",
            self.shape_tag(),
            self.net.algorithm.name()
        )
    }

    /// The tap driver module ([`super::tap::driver_module`]): `<top>_tapdrv`.
    pub fn tap_driver_module_name(&self) -> String {
        format!("{}_tapdrv", self.network_name())
    }

    /// The controller module: `<top>_ctrl`.
    pub fn ctrl_module_name(&self) -> String {
        format!("{}_ctrl", self.network_name())
    }

    /// The network's top: `lcan_<shape>_m<M>_<r1|r2>_<policy>`, with `_fast` appended for
    /// the fast set-up, or `lcan_<shape>_m<M>_r3` (R3 has no arbiter and no set-up steps).
    pub fn network_name(&self) -> String {
        if self.net.algorithm == Algorithm::R3 {
            return format!("lcan_{}_m{}_r3", self.shape_tag(), self.net.msg_bits);
        }
        let setup = match self.net.setup() {
            SetupMode::Sequential => String::new(),
            SetupMode::Fast => "_fast".to_string(),
            SetupMode::Chunked(m) => format!("_fast{m}"),
        };
        format!(
            "lcan_{}_m{}_{}_{}{setup}",
            self.shape_tag(),
            self.net.msg_bits,
            self.net.algorithm.name(),
            self.policy_tag()
        )
    }
}

/// `d` and `u` of `topo` as text: one number each when every level has the same switches,
/// else every level's, level 0 first, joined by `sep`.
pub fn size_tags(topo: &Topology, sep: &str) -> (String, String) {
    let join = |v: &[usize]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(sep)
    };
    match topo.uniform() {
        Some((d, u)) => (d.to_string(), u.to_string()),
        None => (join(topo.ds()), join(topo.us())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lcanet_sim::lcan::Size;

    fn spec(topo: Topology) -> Result<NetSpec, SpecError> {
        NetSpec::new(topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 4)
    }

    /// Π files the RTL cannot take are refused with the violated condition.
    #[test]
    fn pi_files_beyond_the_rtl_are_refused_with_the_condition() {
        // d = 32 is a valid Π file (limit 64) but the switch RTL has 4-bit level ports and
        // supports d ≤ 16.
        let wide = Topology::from_pi_text("lcan d=32 u=1 levels=1 n=32\n").unwrap();
        let e = spec(wide).unwrap_err().to_string();
        assert!(
            e.contains("d = 32 is larger than the supported maximum 16"),
            "{e}"
        );
        // T-LCAN(2,1), l = 10 as a Π file: 1,023·1,024·(2 + 10) + 1,024²·4 bits.
        let tree = Topology::tree(2, 1, Size::Levels(10)).unwrap();
        let big = Topology::from_pi_text(&tree.to_pi_text()).unwrap();
        let e = spec(big).unwrap_err().to_string();
        assert!(
            e.contains("the route tables would hold 16764928 bits"),
            "{e}"
        );
        assert!(e.contains("more than the supported 4194304"), "{e}");
        // The same network as a T-LCAN needs no tables.
        assert!(spec(tree).is_ok());
    }
}
