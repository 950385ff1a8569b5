//! What a network generation needs: the topology, the switch parameters that go with it, the
//! routing algorithm, and the module names they imply.

use lcanet_sim::lcan::cycle::{ArbiterPolicy, ParamError, SwitchParams, SwitchTopology};
use lcanet_sim::lcan::{Kind, Topology};
use std::fmt;

/// The permutation-routing algorithm the hardware runs (`docs/routing.md` §3, §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// LCA-priority three-phase routing (003 §3.2).
    R1,
    /// Randomized bi-directional circuit routing (002 §3).
    R2,
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Algorithm::R1 => "r1",
            Algorithm::R2 => "r2",
        })
    }
}

/// Why a network cannot be generated with these parameters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The switch parameters are out of range.
    #[error("switch parameters: {0}")]
    Switch(#[from] ParamError),
    /// Π-file networks need the table-driven route decoder, which the switch does not have.
    #[error(
        "topology file: the switch RTL has only the tree and cb route decoders \
         (docs/protocol.md §1, table-driven decoder not implemented)"
    )]
    PiFileUnsupported,
}

/// A network to generate.
#[derive(Debug, Clone)]
pub struct NetSpec {
    /// The network.
    pub topo: Topology,
    /// The switch every instance uses.
    pub switch: SwitchParams,
    /// The algorithm.
    pub algorithm: Algorithm,
}

impl NetSpec {
    /// Validates the combination.
    pub fn new(
        topo: Topology,
        width: usize,
        policy: ArbiterPolicy,
        algorithm: Algorithm,
    ) -> Result<Self, SpecError> {
        let kind = match topo.kind() {
            Kind::Tree => SwitchTopology::Tree,
            Kind::CompleteBipartite => SwitchTopology::Cb,
            Kind::File => return Err(SpecError::PiFileUnsupported),
        };
        let switch = SwitchParams::new(topo.d(), topo.u(), width, topo.levels(), kind, policy)?;
        Ok(NetSpec {
            topo,
            switch,
            algorithm,
        })
    }

    /// The short policy name used in module names.
    pub fn policy_tag(&self) -> &'static str {
        match self.switch.policy {
            ArbiterPolicy::Fixed => "fixed",
            ArbiterPolicy::RoundRobin => "rr",
            ArbiterPolicy::Random => "random",
        }
    }

    /// The parameter part of module names: `<kind>_d<d>_u<u>_l<l>_w<W>`.
    pub fn shape_tag(&self) -> String {
        format!(
            "{}_d{}_u{}_l{}_w{}",
            self.topo.kind().name(),
            self.topo.d(),
            self.topo.u(),
            self.topo.levels(),
            self.switch.width
        )
    }

    /// The fabric-only design's top: `lca_fabric_<shape>_<policy>`.
    pub fn fabric_name(&self) -> String {
        format!("lca_fabric_{}_{}", self.shape_tag(), self.policy_tag())
    }

    /// The network's top: `lcan_<shape>_<r1|r2>_<policy>`.
    pub fn network_name(&self) -> String {
        format!(
            "lcan_{}_{}_{}",
            self.shape_tag(),
            self.algorithm,
            self.policy_tag()
        )
    }
}
