//! The sequential router (`docs/hypercube.md` §2–§6): the paper's schedule of
//! Algorithm 2, six phases one after the other, every loop through all `k` dimensions
//! (the dimensions `<= i` of loop `i` passed through with address bit 0). Kept beside the
//! overlapped router as its reference: the same node-facing protocol, `k(14k + 3L + 9)`
//! bit times.

pub mod control;
pub mod controller;
pub mod node;
