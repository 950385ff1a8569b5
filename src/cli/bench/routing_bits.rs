//! Bit-times of a routing in hardware, from the protocol (`docs/interface.md` §4,
//! `docs/protocol.md` §3, §9): the network golden model's own length functions
//! ([`NetParams::total_bit_times`], [`NetParams::pass_len`], [`NetParams::step_len`]) applied
//! to the highest LCA level `H` of each pass of a step-level schedule. A pass of R1 costs
//! `2 + (H+1)(T_UP + T_DOWN) + 2 + (NF + 2H + 2) + (2H + 2)`, one of R2
//! `2 + (2H+1)·T_PROBE + 2 + (NF + 2H + 2) + (2H + 2)`; a permutation `T_LOAD + Σ passes + 1`.
//!
//! The set-up share is the bit-times of the `UP`, `DOWN` and `PROBE` steps. The tests
//! check both figures against the cycle-level network model, bit-time by bit-time.

use lcanet_sim::lcan::cycle::network::{NetParams, Phase};

/// Bit-times of one permutation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BitTimes {
    /// From `LOAD` to `DONE` (the `bit_times` output at `done`).
    pub total: u64,
    /// Of which in set-up steps (`UP`, `DOWN`, `PROBE`).
    pub setup: u64,
}

/// Bit-times of a schedule whose passes have highest LCA levels `tops`.
pub fn bit_times(np: &NetParams, tops: &[usize]) -> BitTimes {
    let setup = tops
        .iter()
        .map(|&h| {
            let len = |p| np.step_len(p, h).unwrap_or(0);
            let other = len(Phase::Plan)
                + len(Phase::Arm)
                + len(Phase::Deliv)
                + len(Phase::Data)
                + len(Phase::Ack);
            (np.pass_len(h) - other) as u64
        })
        .sum();
    BitTimes {
        total: np.total_bit_times(tops) as u64,
        setup,
    }
}

/// A lower bound on the bit-times of any schedule of `lower_bound` or more passes in this
/// protocol, for a connection set whose highest LCA level is `h_max`: the first pass has
/// `H = h_max` (every connection is pending), every other pass costs at least a pass with
/// `H = 0`.
pub fn bit_time_bound(np: &NetParams, h_max: usize, lower_bound: usize) -> u64 {
    if lower_bound == 0 {
        return np.total_bit_times(&[]) as u64;
    }
    let mut tops = vec![0; lower_bound];
    tops[0] = h_max;
    np.total_bit_times(&tops) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use lcanet_sim::lcan::bounds::lower_bound;
    use lcanet_sim::lcan::cycle::network::NetworkModel;
    use lcanet_sim::lcan::cycle::ArbiterPolicy;
    use lcanet_sim::lcan::routing::{route, Algorithm, Config, Conflict};
    use lcanet_sim::lcan::workload::{generate, Generator};
    use lcanet_sim::lcan::{Connection, Size, Topology};

    /// Runs the cycle-level network model to `done` and counts its bit-times, and those in
    /// set-up phases, as it goes; compares them with [`bit_times`] of the step-level
    /// schedule of the same permutation and seed.
    fn cross_check(topo: &Topology, alg: Algorithm, pol: ArbiterPolicy, gen: Generator, seed: u64) {
        let np = NetParams::new(topo, alg, pol, 1, 4).unwrap();
        let perm = generate(topo, gen, seed).unwrap().to_partial();
        let dst = perm.as_slice().to_vec();
        let msgs: Vec<u64> = (0..topo.n() as u64).map(|p| p % 16).collect();
        let mut m = NetworkModel::new(topo, &np, &dst, &msgs, seed).unwrap();
        let cfg = Config {
            algorithm: alg,
            policy: m.routing_policy(),
            conflict: Conflict::Wire,
            seed,
        };
        let sched = route(topo, &perm, &cfg).unwrap();
        let tops: Vec<usize> = sched.passes.iter().map(|p| p.top_level).collect();
        let (mut setup, mut guard) = (0u64, 0u64);
        while !m.outputs().done {
            if matches!(m.phase(), Phase::Up | Phase::Down | Phase::Probe) {
                setup += 1;
            }
            m.step().unwrap();
            guard += 1;
            assert!(guard < 5_000_000, "the model never finished");
        }
        let ctx = format!("{topo:?} {alg:?} {pol:?} {gen:?} seed {seed}");
        let bt = bit_times(&np, &tops);
        assert_eq!(m.outputs().passes as usize, tops.len(), "{ctx}: passes");
        assert_eq!(u64::from(m.outputs().bit_times), bt.total, "{ctx}: total");
        assert_eq!(setup, bt.setup, "{ctx}: set-up");
        assert!(bt.setup < bt.total);
        let conns: Vec<Connection> = perm
            .pairs()
            .map(|(src, dst)| Connection { src, dst })
            .collect();
        let lb = lower_bound(topo, &conns, Conflict::Wire).value;
        let h_max = conns.iter().map(|c| topo.lca_level(c.src, c.dst)).max();
        assert_eq!(
            h_max,
            tops.first().copied(),
            "{ctx}: the first pass has H = h_max"
        );
        assert!(
            bit_time_bound(&np, h_max.unwrap_or(0), lb) <= bt.total,
            "{ctx}: bound"
        );
    }

    #[test]
    fn bit_times_equal_the_cycle_level_model() {
        let topos = [
            Topology::tree(2, 1, Size::Levels(3)).unwrap(),
            Topology::tree(4, 2, Size::Levels(2)).unwrap(),
            Topology::tree(3, 1, Size::Levels(2)).unwrap(),
            Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap(),
            Topology::complete_bipartite(3, 2, Size::Levels(2)).unwrap(),
        ];
        for (i, topo) in topos.iter().enumerate() {
            for alg in [Algorithm::R1, Algorithm::R2] {
                for (j, gen) in [Generator::Random, Generator::WorstCase, Generator::Identity]
                    .into_iter()
                    .enumerate()
                {
                    let pol = [ArbiterPolicy::RoundRobin, ArbiterPolicy::Random][(i + j) % 2];
                    cross_check(topo, alg, pol, gen, 11 + (i * 3 + j) as u64);
                }
            }
        }
    }

    #[test]
    fn worked_example_of_interface_md() {
        // docs/interface.md §9: two passes with H = 1 cost 1 + 63 + 63 + 1 = 128.
        let topo = Topology::tree(2, 1, Size::Levels(2)).unwrap();
        let np = NetParams::new(&topo, Algorithm::R1, ArbiterPolicy::Fixed, 1, 2).unwrap();
        let bt = bit_times(&np, &[1, 1]);
        assert_eq!(bt.total, 128);
        // Set-up per pass: (H+1)(T_UP + T_DOWN) = 2·(9 + 15) = 48.
        assert_eq!(bt.setup, 96);
        assert_eq!(
            bit_time_bound(&np, 1, 2),
            1 + 63 + np.pass_len(0) as u64 + 1
        );
        assert_eq!(bit_time_bound(&np, 1, 0), 2);
    }
}
