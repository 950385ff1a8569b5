//! The quadratic hypercube (§IV) with pipelined batches (`docs/hypercube.md` §14): every
//! node has `k` loop units, unit `j` running loop `j` of Algorithm 2 (overlapped schedule)
//! on its own wires — dimension `d` has `d + 1` wires, one per unit `0..=d` — so that
//! successive loops run on successive batches: one batch enters every period
//! `T_p = 1 + λ_{k−1}` bit times and leaves `k` periods later.
//!
//! Blocks: the [units](mod@unit) (one module per `j`, the overlapped engine of [`super::overlap`]
//! with constant masks; the last, `f = 0`, is the cross alone), their [`seq`]uencers
//! (one per `j`, the strobes of loop `j` decoded from the period cycle), the node
//! (`node.rs`: the units chained by their hand-off, the output register), the
//! [`controller`] (periods, batches, hand-offs, the output latch) and the top
//! ([`cube`]).

pub mod control;
pub mod controller;
pub mod cube;
pub mod gtkw;
pub mod node;
pub mod seq;
pub mod unit;

use lcanet_sim::hypercube::CubeParams;

/// Width of the batch count (`batches`, `batches_done`): at most 255 batches per run.
pub const BATCH_BITS: usize = 8;
/// Width of `bit_time` in the quadratic top (a run of 255 batches on a 12-cube with
/// 64-bit payloads ends at bit time 76,663).
pub const BIT_TIME_BITS: usize = 20;

/// Name of unit `j`'s module: `hc_quad_unit_k{K}_l{L}_j{J}`.
pub fn unit_name(p: CubeParams, j: usize) -> String {
    format!("hc_quad_unit_k{}_l{}_j{j}", p.k(), p.payload_bits())
}

/// Name of unit `j`'s sequencer: `hc_quad_seq_k{K}_l{L}_j{J}`.
pub fn seq_name(p: CubeParams, j: usize) -> String {
    format!("hc_quad_seq_k{}_l{}_j{j}", p.k(), p.payload_bits())
}

/// Loop dimensions of unit `j`: `f_j = k − 1 − j`.
pub fn f_of(p: CubeParams, j: usize) -> usize {
    p.k() - 1 - j
}

/// Wires per node: unit `j` has `k − j` (its cross and its loop's), `k(k + 1)/2` in all.
pub fn wires_per_node(p: CubeParams) -> usize {
    p.k() * (p.k() + 1) / 2
}

/// First wire of unit `j` in the node's wire vector (its cross wire; then dimensions
/// `j+1..k-1`).
pub fn wire_offset(p: CubeParams, j: usize) -> usize {
    (0..j).map(|i| p.k() - i).sum()
}

/// The dimension of wire `w` of a node.
pub fn wire_dim(p: CubeParams, w: usize) -> usize {
    let j = (0..p.k())
        .rev()
        .find(|&j| wire_offset(p, j) <= w)
        .expect("a wire of some unit");
    j + (w - wire_offset(p, j))
}

/// Bits of the loop vectors (`sel`, `sclr`, `ewin`) of all units: `k(k − 1)/2`; unit
/// `j`'s slice starts at [`loop_offset`].
pub fn loop_bits(p: CubeParams) -> usize {
    p.k() * (p.k() - 1) / 2
}

/// First bit of unit `j`'s slice of the loop vectors.
pub fn loop_offset(p: CubeParams, j: usize) -> usize {
    (0..j).map(|i| f_of(p, i)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimension_d_has_d_plus_1_wires() {
        for k in 1..=8 {
            let p = CubeParams::new(k, 4).unwrap();
            let mut per_dim = vec![0; k];
            for w in 0..wires_per_node(p) {
                per_dim[wire_dim(p, w)] += 1;
            }
            assert_eq!(per_dim, (1..=k).collect::<Vec<_>>(), "k = {k}");
        }
    }
}
