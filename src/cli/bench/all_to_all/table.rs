//! The table of `bench all-to-all`: one [`Exchange`] per (network family member,
//! algorithm), each able to price the exchange with its golden model, co-simulate it in
//! Verilator and hand its hardware to Yosys. **Adding a network or an algorithm is one
//! line in [`entries`]** (and, for a new family, one `impl Exchange`): per-level
//! LCANs (fat-tree, CM-5) are [`super::lcan::Lcan`] lines with their topology builder; a
//! faster or batched hypercube schedule is a [`super::cube::CubeAlg`] variant.
//!
//! **The exchange.** Every PE sends one distinct message to every other PE. A MIN runs
//! 004's algorithm ATAPE: the `n` rows of its own Latin square as `n` frames, pipelined
//! (one run). Every other network routes the `n − 1` permutations `ρ_c(j) = j ⊕ c`,
//! `c = 1 … n−1` (the rows of 004's Ψ applied to the identity: the omega network's
//! square without its identity row), one run each, with the hardware's own protocol.
//! Bit-times are each run's own count (docs of each family), summed.

use super::{cube, lcan, min};
use lcanet_sim::perm::Permutation;
use serde::Serialize;
use std::path::Path;

/// The three families of issue 17.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// Self-routing MINs with ATAPE (004).
    Min,
    /// LCA networks with permutation routing (002, 003).
    Lcan,
    /// Kuszmaul's bit-serial hypercube router (001).
    Hypercube,
}

impl Family {
    /// The name on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Family::Min => "min",
            Family::Lcan => "lcan",
            Family::Hypercube => "hypercube",
        }
    }

    /// What 004 Table 3 claims for this family (communication delay of all-to-all
    /// personalized exchange, a message counted as one time unit).
    pub fn claim(self) -> &'static str {
        match self {
            Family::Min => "O(n): n frames + log n stages (004 §3, Table 3)",
            Family::Lcan => "not in 004 Table 3",
            Family::Hypercube => {
                "O(n log n) one-port, O(n) all-port (004 Table 3, Johnsson-Ho [8])"
            }
        }
    }
}

/// Parameters common to every entry of a run.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    /// Payload bits of every message.
    pub message_bits: usize,
    /// Seed of payloads and arbiters.
    pub seed: u64,
}

/// The golden model's price of one exchange.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Golden {
    /// Runs of the hardware (1 for ATAPE, `n − 1` permutations otherwise).
    pub runs: usize,
    /// Bit-times, summed over the runs.
    pub bit_times: u64,
    /// Passes, summed over the runs (LCA networks).
    pub passes: Option<u64>,
    /// The lower bound on passes (docs/routing.md §6), summed (LCA networks).
    pub lower_bound_passes: Option<u64>,
    /// The closed form the bit-times follow, if there is one.
    pub formula: Option<String>,
    /// Which golden model produced the figure.
    pub model: &'static str,
}

/// What a Verilator co-simulation of the exchange found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cosim {
    /// Every run matched the golden model at every bit-time and delivered every message.
    #[serde(rename = "match")]
    pub matched: bool,
    /// The bit-times the RTL counted, summed over the runs.
    pub bit_times: u64,
    /// Runs simulated.
    pub runs: usize,
    /// The first failure, if any.
    pub failure: Option<String>,
    /// Wall-clock seconds (builds included).
    pub seconds: f64,
}

impl Cosim {
    /// Before the first run: nothing simulated, nothing failed.
    pub fn none_yet() -> Self {
        Cosim {
            matched: true,
            bit_times: 0,
            runs: 0,
            failure: None,
            seconds: 0.0,
        }
    }
}

/// The hardware of an entry at one size, ready for Yosys.
#[derive(Debug, Clone)]
pub struct Hardware {
    /// The top module.
    pub top: String,
    /// The Verilog files, dependencies first.
    pub files: Vec<std::path::PathBuf>,
}

/// One line of the table: a network and the algorithm that runs the exchange on it.
pub trait Exchange: Sync + Send {
    /// Its family.
    fn family(&self) -> Family;
    /// The network's name (`omega`, `CB(2,2)`, `hypercube`).
    fn network(&self) -> String;
    /// The algorithm (`atape`, `r1`, `alg2`).
    fn algorithm(&self) -> &'static str;
    /// Whether the network has `n` PEs for some parameter.
    fn exists(&self, n: usize) -> bool;
    /// The golden model's bit-times of the exchange on `n` PEs.
    fn golden(&self, n: usize, p: &Params, jobs: usize) -> anyhow::Result<Golden>;
    /// The exchange co-simulated in Verilator (Verilog written under `dir`).
    fn cosim(&self, n: usize, p: &Params, dir: &Path) -> anyhow::Result<Cosim>;
    /// The Verilog of the network on `n` PEs written into `dir`, for Yosys. Entries that
    /// share hardware return the same top (it is synthesized once).
    fn hardware(&self, n: usize, p: &Params, dir: &Path) -> anyhow::Result<Hardware>;
}

/// Every entry, in report order. The extension point of the bench.
pub fn entries() -> Vec<Box<dyn Exchange>> {
    use lcanet_sim::lcan::routing::Algorithm::{R1, R2, R3};
    use lcanet_sim::min::Network;
    let mut v: Vec<Box<dyn Exchange>> = Vec::new();
    for net in Network::ALL {
        v.push(Box::new(min::Atape(net)));
    }
    for shape in lcan::SHAPES {
        for alg in [R1, R2, R3] {
            v.push(Box::new(lcan::Lcan { shape, alg }));
        }
    }
    use cube::CubeAlg::*;
    for alg in [Alg2, Alg2Seq, Sort, Alg1, Quad, QuadSort] {
        v.push(Box::new(cube::Cube(alg)));
    }
    v
}

/// `ρ_c`: PE `j` sends to `j ⊕ c` (the exchange's permutation `c`, `1 ≤ c < n`).
pub fn xor_permutation(n: usize, c: usize) -> Permutation {
    Permutation::new((0..n).map(|j| j ^ c).collect()).expect("j ↦ j ⊕ c is a bijection of 0..2^m")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_xor_permutations_cover_every_pair_once() {
        let n = 16;
        let mut seen = vec![vec![false; n]; n];
        for c in 1..n {
            let p = xor_permutation(n, c);
            for j in 0..n {
                assert!(!std::mem::replace(&mut seen[j][p.dst(j)], true));
            }
        }
        for (j, row) in seen.iter().enumerate() {
            assert_eq!(row.iter().filter(|&&x| x).count(), n - 1);
            assert!(!row[j], "no PE sends to itself");
        }
    }

    #[test]
    fn entry_names_are_distinct() {
        let names: Vec<String> = entries()
            .iter()
            .map(|e| format!("{} {}", e.network(), e.algorithm()))
            .collect();
        let set: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(set.len(), names.len(), "{names:?}");
    }
}
