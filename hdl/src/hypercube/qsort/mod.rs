//! Sort-then-pack pipelined on the quadratic cube (`docs/hypercube.md` §13.3): every one
//! of the mirrored bitonic sort's `k(k+1)/2` compare-exchanges is a stage of its own
//! with a wire of its own (dimension `d` carries `d + 1` of them), followed by the `k`
//! routing stages of the unpacking (one more wire per dimension); the records of a
//! batch stream through all of them once, back to back with the next batch's — one
//! batch every `M + 1` bit times. Blocks: the [`node`], the [`controller`] (the strobes
//! of every pipeline position, from the period cycle and the batches in flight) and the
//! top ([`cube`]), with the batch interface of the quadratic cube (§14.3).

pub mod controller;
pub mod cube;
pub mod node;

use lcanet_sim::hypercube::qsort::sort_stages;
use lcanet_sim::hypercube::sort::pass_dims;

/// `(pass, dimension)` of every sort stage, in pipeline order.
pub fn stages(k: usize) -> Vec<(usize, usize)> {
    (0..k)
        .flat_map(|s| pass_dims(k, s).map(move |d| (s, d)))
        .collect()
}

/// Wires per node: one per sort stage, one per unpacking stage.
pub fn wires_per_node(k: usize) -> usize {
    sort_stages(k) + k
}

/// The dimension of a node's wire `w`.
pub fn wire_dim(k: usize, w: usize) -> usize {
    let s = sort_stages(k);
    if w < s {
        stages(k)[w].1
    } else {
        w - s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimension_d_has_d_plus_2_wires() {
        for k in 1..=8 {
            let mut per_dim = vec![0; k];
            for w in 0..wires_per_node(k) {
                per_dim[wire_dim(k, w)] += 1;
            }
            assert_eq!(per_dim, (2..=k + 1).collect::<Vec<_>>(), "k = {k}");
        }
    }
}
