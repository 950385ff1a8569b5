//! What a network co-simulation routes: destinations (a partial permutation), messages and
//! the run seed, all reproducible from the seed.

use lcanet_sim::lcan::cycle::network::seeded_messages;
use lcanet_sim::lcan::workload::{generate, Generator};
use lcanet_sim::lcan::Topology;
use lcanet_sim::perm::PartialPermutation;

/// Which permutation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PermKind {
    /// Uniformly random, drawn from the seed.
    Random,
    /// `p → p`.
    Identity,
    /// 002's worst-case set (every connection through the top level), drawn from the seed.
    WorstCase,
    /// Given explicitly.
    Given(PartialPermutation),
}

/// One stimulus of the canonical run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stimulus {
    /// The permutation (`None`: the PE sends nothing).
    pub perm: PartialPermutation,
    /// Message of each PE (`M` bits).
    pub messages: Vec<u64>,
    /// Run seed: arbiters (`seed16`), and the draws above.
    pub seed: u64,
}

impl Stimulus {
    /// The stimulus of `kind` on `topo` with `m`-bit messages, all drawn from `seed`.
    pub fn new(topo: &Topology, kind: &PermKind, m: usize, seed: u64) -> Result<Self, String> {
        let n = topo.n();
        // The same draws as `lcanet schedule --perm … --seed S`.
        let gen = |g| {
            generate(topo, g, seed)
                .map(|p| p.to_partial())
                .map_err(|e| format!("{g:?} permutation: {e}"))
        };
        let perm = match kind {
            PermKind::Random => gen(Generator::Random)?,
            PermKind::Identity => gen(Generator::Identity)?,
            PermKind::WorstCase => gen(Generator::WorstCase)?,
            PermKind::Given(p) => {
                if p.len() != n {
                    return Err(format!(
                        "the permutation has {} entries, the network {n} PEs",
                        p.len()
                    ));
                }
                p.clone()
            }
        };
        Ok(Stimulus {
            perm,
            messages: seeded_messages(n, m, seed),
            seed,
        })
    }

    /// Destinations as the model takes them.
    pub fn destinations(&self) -> Vec<Option<usize>> {
        self.perm.as_slice().to_vec()
    }
}
