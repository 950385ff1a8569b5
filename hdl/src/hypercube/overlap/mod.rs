//! The overlapped router (`docs/hypercube.md` §12), the default: Algorithm 1, and
//! Algorithm 2 with its activities overlapped where the data allow and loop `i` walking
//! only the dimensions `i+1..k-1` — `(M + 1) + Σ_{f=1}^{k-1} (max(2f, M − f) + 6f + 2M + 5)`
//! bit times instead of `k(14k + 3L + 9)`.

pub mod control;
pub mod controller;
pub(crate) mod engine;
pub mod node;
