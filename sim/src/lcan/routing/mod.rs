//! Permutation routing on LCA networks at the level of steps and passes, exactly as
//! docs/routing.md specifies: R1 (the three-phase LCA-priority algorithm, §3) and R2
//! (randomized bi-directional circuit routing, §4), with the arbiter policies of §2 and
//! the `wire` or `switch` conflict model (§5); and R3 (§7), which computes every path and
//! pass off-line from the whole permutation (module `r3`).
//!
//! [`route`] repeats passes until every connection is delivered. Each [`Pass`] reports the
//! connections delivered with the wires they used, its `2H + 2` set-up steps, and the
//! crosspoints every switch closed (including those of circuits that did not complete),
//! which the cycle-level and RTL models are compared against.

mod arbitrate;
mod digest;
mod phase3;
mod r1;
mod r2;
pub(crate) mod r3;
mod state;

#[cfg(test)]
mod digest_tests;

pub use r3::rearrangeable;

pub use state::{Port, SwitchCrosspoints};

use super::arbiter::Policy;
use super::paths::{Connection, Path};
use super::topology::Topology;
use crate::perm::PartialPermutation;
use state::{Arbiters, PassState};

/// The routing algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Algorithm {
    /// The LCA-priority three-phase algorithm (003 §3.2, docs/routing.md §3).
    #[serde(rename = "r1")]
    R1,
    /// Randomized bi-directional circuit routing (002 §3.1, docs/routing.md §4).
    #[serde(rename = "r2")]
    R2,
    /// Global knowledge, off-line: paths and passes computed from the whole permutation
    /// (issue 14, docs/routing.md §7). One pass on CB-LCANs with `u ≥ d`.
    #[serde(rename = "r3")]
    R3,
}

impl Algorithm {
    /// The CLI/JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::R1 => "r1",
            Algorithm::R2 => "r2",
            Algorithm::R3 => "r3",
        }
    }

    /// Every algorithm, in order (for sweeps).
    pub const ALL: [Algorithm; 3] = [Algorithm::R1, Algorithm::R2, Algorithm::R3];
}

/// What two connections may not share in one pass (docs/routing.md §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Conflict {
    /// No wire carries two connections (003 §3.3; the default).
    #[serde(rename = "wire")]
    Wire,
    /// No switch carries two connections (003 §3.1).
    #[serde(rename = "switch")]
    Switch,
}

impl Conflict {
    /// The CLI/JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Conflict::Wire => "wire",
            Conflict::Switch => "switch",
        }
    }
}

/// Parameters of one routing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// R1, R2 or R3.
    pub algorithm: Algorithm,
    /// Arbiter policy of every switch.
    pub policy: Policy,
    /// Conflict model.
    pub conflict: Conflict,
    /// Run seed; the arbiters' LFSRs start from `arbiter::seed16(seed)`.
    pub seed: u64,
}

/// A connection delivered in a pass, with its path.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RoutedConnection {
    /// Source PE.
    pub src: usize,
    /// Destination PE.
    pub dst: usize,
    /// Its LCA level.
    pub lca_level: usize,
    /// Up-wires bottom to top, then down-wires top to bottom.
    pub wires: Path,
}

/// One pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pass {
    /// Connections delivered (acknowledged), by source.
    pub delivered: Vec<RoutedConnection>,
    /// Set-up steps of this pass: `2H + 2` (R3: 0, its set-up is computed off-line).
    pub steps: usize,
    /// `H`: the highest LCA level among the undelivered connections (R3: among the
    /// connections of this pass).
    pub top_level: usize,
    /// Undelivered connections at the start of the pass (R3: the connections it routes
    /// in this pass, all of which it delivers).
    pub attempted: usize,
    /// PEs that sent data in phase 3 (R1: got an S-claim; R2: sent a probe; R3: the
    /// sources of this pass).
    pub senders: Vec<usize>,
    /// Crosspoints each switch closed during set-up, by global switch index.
    pub crosspoints: Vec<SwitchCrosspoints>,
}

/// A complete routing: passes until every connection was delivered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// The passes, in order.
    pub passes: Vec<Pass>,
}

impl Schedule {
    /// Total set-up steps.
    pub fn steps(&self) -> usize {
        self.passes.iter().map(|p| p.steps).sum()
    }
    /// The delivered connections of each pass (for the validator).
    pub fn pass_lists(&self) -> Vec<Vec<RoutedConnection>> {
        self.passes.iter().map(|p| p.delivered.clone()).collect()
    }
}

/// Why routing failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoutingError {
    /// The permutation has a different number of PEs than the network.
    #[error("the permutation has {perm} PEs but the network has n = {n}")]
    SizeMismatch {
        /// PEs of the permutation.
        perm: usize,
        /// PEs of the network.
        n: usize,
    },
    /// The problem is too large for the algorithm (R3's heuristic: its memory).
    #[error("{0}")]
    TooLarge(String),
    /// A bug in the models (an invariant of docs/routing.md was violated).
    #[error("internal error (a bug in lcanet, please report it): {0}")]
    Internal(String),
}

/// Routes every connection of `perm` on `topo`, pass after pass.
pub fn route(
    topo: &Topology,
    perm: &PartialPermutation,
    cfg: &Config,
) -> Result<Schedule, RoutingError> {
    if perm.len() != topo.n() {
        return Err(RoutingError::SizeMismatch {
            perm: perm.len(),
            n: topo.n(),
        });
    }
    let conns: Vec<Connection> = perm
        .pairs()
        .map(|(src, dst)| Connection { src, dst })
        .collect();
    let lca: Vec<usize> = conns.iter().map(|c| topo.lca_level(c.src, c.dst)).collect();
    match cfg.algorithm {
        Algorithm::R1 | Algorithm::R2 => online(topo, &conns, &lca, cfg),
        Algorithm::R3 => r3::route(topo, &conns, &lca, cfg),
    }
}

type PassFn = fn(
    &Topology,
    &[Connection],
    &[usize],
    &[usize],
    &mut Arbiters,
    &mut PassState,
    &[u32],
) -> Result<Pass, RoutingError>;

/// R1 or R2: passes until every connection is delivered. Each pass simulates only the
/// connections still pending; the pass state is reused (reset costs what a pass touched).
fn online(
    topo: &Topology,
    conns: &[Connection],
    lca: &[usize],
    cfg: &Config,
) -> Result<Schedule, RoutingError> {
    let pass_fn: PassFn = match cfg.algorithm {
        Algorithm::R1 => r1::pass,
        Algorithm::R2 => r2::pass,
        Algorithm::R3 => {
            return Err(RoutingError::Internal(
                "R3 is not an online pass-by-pass algorithm".into(),
            ))
        }
    };
    let mut arbiters = Arbiters::new(topo, cfg.policy, cfg.seed);
    let mut st = PassState::new(topo, cfg.conflict);
    let index = state::by_src(topo.n(), conns);
    let mut pending: Vec<usize> = (0..conns.len()).collect();
    let mut done = vec![false; conns.len()];
    let mut passes = Vec::new();
    while !pending.is_empty() {
        st.reset();
        let pass = pass_fn(topo, conns, lca, &pending, &mut arbiters, &mut st, &index)?;
        if pass.delivered.is_empty() {
            return Err(RoutingError::Internal(format!(
                "pass {} delivered no connection ({} pending); docs/routing.md guarantees progress",
                passes.len(),
                pending.len()
            )));
        }
        for c in &pass.delivered {
            done[index[c.src] as usize] = true;
        }
        pending.retain(|&i| !done[i]);
        passes.push(pass);
    }
    Ok(Schedule { passes })
}
