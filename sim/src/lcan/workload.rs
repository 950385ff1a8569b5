//! Connection sets to route: `random`, `identity`, `worst-case`, or a permutation file.
//!
//! **worst-case** is 002 §3.3's set: every connection has LCA level `l − 1`. The PEs fall
//! into *top blocks*, the sets of PEs that share an LCA level below `l − 1` (T-LCAN: the
//! `d/u` subtrees of the top switch; CB-LCAN: the `d` values of the top digit (per level:
//! `d_{l-1}/u_{l-2}` and `d_{l-1}`); Π file: the
//! classes of that relation, which must be an equivalence). A worst-case permutation
//! sends every PE outside its own block. Sampling: sources in a random order each pick a
//! destination uniformly among the remaining ones outside their block whose choice still
//! leaves a completion (Hall's condition `sources_b + destinations_b ≤ remaining` for every
//! block `b`). With **two blocks** (T-LCAN with `d/u = 2`, CB-LCAN with `d = 2`) this is
//! exactly the uniform distribution on the worst-case set (two independent uniform
//! bijections); with more blocks it is this sequential distribution, not exactly
//! uniform. With `l = 1` every connection is at level 0 = `l − 1`: uniform random.

use super::topology::{Kind, Topology};
use crate::perm::{PartialPermutation, Permutation};
use rand::seq::SliceRandom;
use rand::Rng;

/// Why a workload cannot be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorkloadError {
    /// No permutation has every connection at LCA level `l − 1`.
    #[error("no permutation has every connection at LCA level l-1 = {top}: {why}")]
    NoWorstCase {
        /// `l − 1`.
        top: usize,
        /// Why.
        why: String,
    },
}

/// The top blocks (see the module docs) as a block index per PE.
pub fn top_blocks(topo: &Topology) -> Result<Vec<usize>, WorkloadError> {
    let n = topo.n();
    let top = topo.levels() - 1;
    match topo.kind() {
        Kind::Tree | Kind::CompleteBipartite => {
            let b = topo.block_size(top - 1).unwrap_or(n);
            Ok((0..n).map(|p| p / b).collect())
        }
        Kind::File => {
            let d = topo.d_at(0);
            let s0 = topo.switch_count(0);
            let mut block = vec![usize::MAX; s0];
            let mut count = 0;
            for a in 0..s0 {
                if block[a] != usize::MAX {
                    continue;
                }
                for (b, slot) in block.iter_mut().enumerate().skip(a) {
                    if topo.lca_level(a * d, b * d) < top {
                        if *slot != usize::MAX {
                            return Err(WorkloadError::NoWorstCase {
                                top,
                                why: format!("'LCA level below l-1' is not transitive in this Π (PEs {} and {})", a * d, b * d),
                            });
                        }
                        *slot = count;
                    }
                }
                count += 1;
            }
            for a in 0..s0 {
                for b in 0..s0 {
                    if (block[a] == block[b]) != (topo.lca_level(a * d, b * d) < top) {
                        return Err(WorkloadError::NoWorstCase {
                            top,
                            why: format!(
                                "'LCA level below l-1' is not transitive in this Π (PEs {} and {})",
                                a * d,
                                b * d
                            ),
                        });
                    }
                }
            }
            Ok((0..n).map(|p| block[p / d]).collect())
        }
    }
}

/// A worst-case permutation (002 §3.3), sampled as the module docs describe.
pub fn worst_case<R: Rng + ?Sized>(
    topo: &Topology,
    rng: &mut R,
) -> Result<Permutation, WorkloadError> {
    let n = topo.n();
    if topo.levels() == 1 {
        return Ok(Permutation::random(n, rng));
    }
    let top = topo.levels() - 1;
    let block = top_blocks(topo)?;
    let nb = block.iter().max().map_or(0, |m| m + 1);
    let mut dests: Vec<Vec<usize>> = vec![Vec::new(); nb];
    for p in 0..n {
        dests[block[p]].push(p);
    }
    let mut src_left = vec![0usize; nb];
    for &b in &block {
        src_left[b] += 1;
    }
    if let Some(b) = (0..nb).find(|&b| 2 * dests[b].len() > n) {
        return Err(WorkloadError::NoWorstCase {
            top,
            why: format!(
                "the top block of PE {} holds {} of the {n} PEs (more than half)",
                dests[b][0],
                dests[b].len()
            ),
        });
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(rng);
    let mut dst = vec![0; n];
    let mut remaining = n;
    for s in order {
        let a = block[s];
        src_left[a] -= 1;
        remaining -= 1;
        // Blocks b != a whose choice keeps Hall's condition for every block.
        let ok = |b: usize| {
            (0..nb).all(|c| {
                let dc = dests[c].len() - usize::from(c == b);
                src_left[c] + dc <= remaining
            })
        };
        let weights: Vec<usize> = (0..nb)
            .map(|b| {
                if b != a && !dests[b].is_empty() && ok(b) {
                    dests[b].len()
                } else {
                    0
                }
            })
            .collect();
        let total: usize = weights.iter().sum();
        let mut pick = rng.gen_range(0..total.max(1));
        let b = (0..nb)
            .find(|&b| {
                if pick < weights[b] {
                    true
                } else {
                    pick -= weights[b];
                    false
                }
            })
            .unwrap_or(a);
        let i = rng.gen_range(0..dests[b].len());
        dst[s] = dests[b].swap_remove(i);
    }
    Ok(Permutation::new(dst).expect("the sampler builds a bijection"))
}

/// A generated connection set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generator {
    /// A uniformly random permutation.
    Random,
    /// Every PE sends to itself (LCA level 0: one pass in the wire model).
    Identity,
    /// Every connection at LCA level `l − 1` (module docs).
    WorstCase,
}

/// Generates a permutation for `topo` from `seed` (the sub-stream `derive(seed, "perm")`).
pub fn generate(topo: &Topology, g: Generator, seed: u64) -> Result<Permutation, WorkloadError> {
    let mut rng = crate::rng::seeded(crate::rng::derive(seed, "perm"));
    match g {
        Generator::Random => Ok(Permutation::random(topo.n(), &mut rng)),
        Generator::Identity => Ok(Permutation::identity(topo.n())),
        Generator::WorstCase => worst_case(topo, &mut rng),
    }
}

/// A uniformly random partial permutation: a random permutation in which each PE sends
/// with probability `percent / 100`.
pub fn random_partial<R: Rng + ?Sized>(n: usize, percent: u32, rng: &mut R) -> PartialPermutation {
    let p = Permutation::random(n, rng);
    let dst = (0..n)
        .map(|i| (rng.gen_range(0..100) < percent).then(|| p.dst(i)))
        .collect();
    PartialPermutation::new(dst).expect("a restriction of a permutation is injective")
}
