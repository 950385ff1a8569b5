//! The configurations of `lcanet sweep`: every valid (kind, d, u, l) of T-LCAN and
//! CB-LCAN up to a PE count, times the hardware algorithms and arbiter policies, in one
//! fixed order, and the `--shard i/N` slice of it.

use anyhow::bail;
use lcanet_hdl::lca_net::NetSpec;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Kind, Size, Topology};

/// Largest `d` and `u` of a generated switch (docs/protocol.md §1: `d, u, l ≤ 16`).
pub const MAX_PORTS_HW: usize = 16;
/// Largest number of levels of a generated network.
pub const MAX_LEVELS_HW: usize = 16;

/// One network shape: a topology kind with its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// `Tree` or `CompleteBipartite`.
    pub kind: Kind,
    /// Downers per switch.
    pub d: usize,
    /// Uppers per switch.
    pub u: usize,
    /// Levels.
    pub levels: usize,
}

impl Shape {
    /// The topology (valid by construction of [`shapes`]).
    pub fn topology(&self) -> anyhow::Result<Topology> {
        let size = Size::Levels(self.levels);
        Ok(match self.kind {
            Kind::Tree => Topology::tree(self.d, self.u, size)?,
            _ => Topology::complete_bipartite(self.d, self.u, size)?,
        })
    }

    /// `tree`/`cb` as on the command line.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            Kind::Tree => "tree",
            _ => "cb",
        }
    }

    /// `T(4,2) l=3` / `CB(2,2) l=4`.
    pub fn label(&self) -> String {
        let k = if self.kind == Kind::Tree { "T" } else { "CB" };
        format!("{k}({},{}) l={}", self.d, self.u, self.levels)
    }
}

/// One configuration of the sweep: a shape, an algorithm and an arbiter policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Position in the full (unsharded) list: stable across shards and runs.
    pub index: usize,
    /// The network.
    pub shape: Shape,
    /// Routing algorithm of the generated hardware.
    pub algorithm: Algorithm,
    /// Arbiter policy of every switch (`None`: the algorithm's hardware has no arbiter,
    /// R3).
    pub policy: Option<ArbiterPolicy>,
}

impl Config {
    /// The policy as the records name it (`none` without an arbiter).
    pub fn policy_name(&self) -> String {
        self.policy
            .map_or_else(|| "none".to_string(), |p| p.to_string())
    }
}

/// The shapes of a sweep: those kept, with their topologies, and those skipped for their
/// switch count.
#[derive(Debug)]
pub struct Shapes {
    /// Shapes to sweep.
    pub keep: Vec<(Shape, Topology)>,
    /// Shapes above the switch bound, with their switch counts.
    pub skipped: Vec<(Shape, usize)>,
}

/// Every shape with at most `max_n` PEs that the hardware generator accepts, in order
/// (tree before cb, then d, u, l ascending), split into those with at most
/// `max_switches` switches and those above (skipped, but counted).
///
/// A T-LCAN needs `u | d` and `u < d` (with `u = d` its size cannot grow; its one-level
/// network is CB-LCAN(d,d) with one level). Validity is decided by the topology
/// constructors and [`NetSpec::new`] (port, level and step-length limits), not here.
pub fn shapes(max_n: usize, max_switches: usize, width: usize, msg_bits: usize) -> Shapes {
    let (mut keep, mut skipped) = (Vec::new(), Vec::new());
    for kind in [Kind::Tree, Kind::CompleteBipartite] {
        for d in 2..=MAX_PORTS_HW {
            for u in 1..=MAX_PORTS_HW {
                if kind == Kind::Tree && (!d.is_multiple_of(u) || u == d) {
                    continue;
                }
                for levels in 1..=MAX_LEVELS_HW {
                    let shape = Shape { kind, d, u, levels };
                    let Ok(topo) = shape.topology() else {
                        // Too many PEs or switches for the topology itself: every larger
                        // level count is too.
                        break;
                    };
                    if topo.n() > max_n {
                        break;
                    }
                    let hw = NetSpec::new(
                        topo.clone(),
                        Algorithm::R1,
                        ArbiterPolicy::Fixed,
                        width,
                        msg_bits,
                    );
                    if hw.is_err() {
                        continue;
                    }
                    if topo.total_switches() > max_switches {
                        skipped.push((shape, topo.total_switches()));
                    } else {
                        keep.push((shape, topo));
                    }
                }
            }
        }
    }
    Shapes { keep, skipped }
}

/// The algorithms the generated hardware supports (those [`NetSpec::new`] accepts on a
/// small network), in [`Algorithm::ALL`] order.
pub fn hardware_algorithms() -> Vec<Algorithm> {
    let Ok(topo) = Topology::tree(2, 1, Size::Levels(2)) else {
        return Vec::new();
    };
    Algorithm::ALL
        .iter()
        .copied()
        .filter(|&a| NetSpec::new(topo.clone(), a, ArbiterPolicy::Fixed, 1, 8).is_ok())
        .collect()
}

/// Whether the hardware of `algorithm` has arbiters (R3's switch has none: its set-up is
/// source-routed, `docs/protocol.md` §12).
pub fn arbitrated(algorithm: Algorithm) -> bool {
    algorithm != Algorithm::R3
}

/// The full list: shapes × algorithms × policies (one configuration, policy `None`, for an
/// algorithm without arbiters), numbered.
pub fn configs(
    shapes: &[(Shape, Topology)],
    algorithms: &[Algorithm],
    policies: &[ArbiterPolicy],
) -> Vec<Config> {
    let mut out = Vec::new();
    for (shape, _) in shapes {
        for &algorithm in algorithms {
            let policies: Vec<Option<ArbiterPolicy>> = if arbitrated(algorithm) {
                policies.iter().copied().map(Some).collect()
            } else {
                vec![None]
            };
            for policy in policies {
                out.push(Config {
                    index: out.len(),
                    shape: *shape,
                    algorithm,
                    policy,
                });
            }
        }
    }
    out
}

/// Shard numbers (ascending) as ranges, `0-3,7,9-10`: sbatch's `--array` syntax, and how
/// reports name shards.
pub fn ranges(shards: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    while k < shards.len() {
        let mut j = k;
        while j + 1 < shards.len() && shards[j + 1] == shards[j] + 1 {
            j += 1;
        }
        out.push(if j == k {
            shards[k].to_string()
        } else {
            format!("{}-{}", shards[k], shards[j])
        });
        k = j + 1;
    }
    out.join(",")
}

/// Refuses a PE bound outside `1 ..= max`.
pub fn check_max_n(max_n: usize, max: usize) -> anyhow::Result<()> {
    if max_n < 2 || max_n > max {
        bail!("--max-n {max_n}: must be between 2 (the smallest network) and {max}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_lists_are_ranges() {
        assert_eq!(ranges(&[0, 1, 2, 3, 7, 9, 10]), "0-3,7,9-10");
        assert_eq!(ranges(&[5]), "5");
        assert_eq!(ranges(&[]), "");
    }

    #[test]
    fn shapes_up_to_four_pes_are_the_expected_ones() {
        let Shapes { keep, skipped } = shapes(4, usize::MAX, 1, 8);
        assert!(skipped.is_empty());
        let labels: Vec<String> = keep.iter().map(|(s, _)| s.label()).collect();
        // Trees: (2,1) with 1 and 2 levels, (3,1), (4,1), (4,2) with 1 level.
        for want in [
            "T(2,1) l=1",
            "T(2,1) l=2",
            "T(3,1) l=1",
            "T(4,1) l=1",
            "T(4,2) l=1",
        ] {
            assert!(
                labels.contains(&want.to_string()),
                "{want} missing: {labels:?}"
            );
        }
        assert!(!labels.iter().any(|l| l.starts_with("T(2,2)")));
        assert!(labels.contains(&"CB(2,2) l=2".to_string()));
        assert!(labels.contains(&"CB(4,16) l=1".to_string()));
        for (s, t) in &keep {
            assert!(t.n() <= 4, "{}", s.label());
            assert_eq!(t.levels(), s.levels);
        }
        // Every entry is distinct.
        let mut sorted = labels.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), labels.len());
    }

    #[test]
    fn a_switch_bound_skips_and_counts() {
        let all = shapes(16, usize::MAX, 1, 8).keep;
        let Shapes { keep, skipped } = shapes(16, 8, 1, 8);
        assert_eq!(keep.len() + skipped.len(), all.len());
        assert!(!skipped.is_empty());
        assert!(skipped.iter().all(|&(_, s)| s > 8));
        assert!(keep.iter().all(|(_, t)| t.total_switches() <= 8));
    }

    #[test]
    fn configs_are_numbered_in_order() {
        let keep = shapes(4, usize::MAX, 1, 8).keep;
        let algs = [Algorithm::R1, Algorithm::R2, Algorithm::R3];
        let pols = [ArbiterPolicy::Fixed, ArbiterPolicy::Random];
        let c = configs(&keep, &algs, &pols);
        // R1 and R2 with each policy, R3 once (it has no arbiter).
        assert_eq!(c.len(), keep.len() * 5);
        assert!(c.iter().enumerate().all(|(i, c)| c.index == i));
        assert_eq!(c[1].policy, Some(ArbiterPolicy::Random));
        assert_eq!(c[2].algorithm, Algorithm::R2);
        assert_eq!(c[4].algorithm, Algorithm::R3);
        assert_eq!(c[4].policy_name(), "none");
        assert_eq!(c[5].shape, keep[1].0);
    }
}
