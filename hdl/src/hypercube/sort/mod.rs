//! The sort-then-pack router (`docs/hypercube.md` §13): Algorithm 1, and any permutation
//! by `k` passes of a pipelined, mirrored bitonic sort (pass `s` compare-exchanges across
//! dimensions `k−1−s..k−1`, each stage passing on the smaller or larger of two streams
//! with one register of delay) followed by one Algorithm 1 pass that unpacks the sorted
//! messages — `k(M + 3) + k(k − 1)/2 + 2k + L + 2` bit times with buffer A alone.

pub mod control;
pub mod controller;
pub mod node;
