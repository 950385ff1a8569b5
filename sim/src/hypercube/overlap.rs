//! The overlapped schedule of Algorithm 2 (`docs/hypercube.md` §12): the bit times of
//! every activity of a loop, derived from the data dependencies and the resources each
//! activity occupies, and the exact closed form of a run.
//!
//! Loop `i` works in (i+1)-subcubes, so it needs only the `f = k − 1 − i` dimensions
//! `i+1..k-1` (plus dimension `i` for the cross): its enumerations and packings inject
//! at the stage of dimension `i+1` and stream `f`-bit values, and the last loop
//! (`f = 0`) is the cross alone. With `lc` the loop cycle (0 = the cross's decision) and
//! `M = k + L`:
//!
//! | activity | loop cycles | why there |
//! |---|---|---|
//! | step 1, cross dimension `i` | `0 ..= M` | decide at 0, the message on the dimension-`i` wire at `1..=M` |
//! | steps 2 and 4, one enumeration of two `f`-bit values (doubles, then empties) | `0 ..= 3f` | membership is known at the decision (doubles injected at 0, empties at `f`); no carry crosses from one value into the next |
//! | step 3, pack the doubles' B (body `M`) | `P ..= P + 2f + M + 1` | `P = max(2f, M − f)`: E₂ is complete at `2f` and the enumeration's second value has left the wires, and B, filled by the cross until `M`, starts shifting out at `P + f + 1 > M` |
//! | step 5, pack the empties' addresses (body `f`) | `Q ..= Q + 3f + 1`, `Q = P + f + M + 1` | its frames follow step 3's on the same pipeline, start bit right after step 3's last body bit; each stage is cleared as step 3's tail leaves it |
//! | step 6, rendezvous (descending, body `M`) | `R ..= R + 2f + M + 1`, `R = Q + 3f + 2` | needs step 5's addresses (the last bit arrives at `Q + 3f + 1`) and the delivery register |
//!
//! so a loop with `f >= 1` lasts `λ_f = P + 6f + 2M + 5` and the last one `λ_0 = M + 1`.

use super::CubeParams;
use serde::Serialize;

/// Where the activities of one loop fall, in loop cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LoopTiming {
    /// The loop (dimension `i`).
    pub dim: usize,
    /// Dimensions the loop works in: `f = k − 1 − i`.
    pub f: usize,
    /// Loop cycle of step 3's phase cycle 0 (`P`).
    pub pack2: u64,
    /// Loop cycle of step 5's phase cycle 0 (`Q = P + f + M + 1`).
    pub pack0: u64,
    /// Loop cycle of step 6's phase cycle 0 (`R = Q + 3f + 2`).
    pub rdv: u64,
    /// Length of the loop (`λ_f`).
    pub len: u64,
}

/// `P = max(2f, M − f)`: the loop cycle at which step 3 starts.
pub fn pack_start(p: CubeParams, f: usize) -> u64 {
    let m = p.message_bits() as u64;
    let f = f as u64;
    (2 * f).max(m.saturating_sub(f))
}

/// The timing of loop `i` (`i < k`).
///
/// # Panics
/// If `i >= k` (a programming error: loops are `0..k`).
pub fn loop_timing(p: CubeParams, i: usize) -> LoopTiming {
    assert!(i < p.k(), "loop {i} of a {}-cube", p.k());
    let f = p.k() - 1 - i;
    let m = p.message_bits() as u64;
    let fu = f as u64;
    if f == 0 {
        return LoopTiming {
            dim: i,
            f,
            pack2: m + 1,
            pack0: m + 1,
            rdv: m + 1,
            len: m + 1,
        };
    }
    let pack2 = pack_start(p, f);
    let pack0 = pack2 + fu + m + 1;
    let rdv = pack0 + 3 * fu + 2;
    LoopTiming {
        dim: i,
        f,
        pack2,
        pack0,
        rdv,
        len: rdv + 2 * fu + m + 2,
    }
}

/// `λ_f`: bit times of a loop that works in `f` dimensions.
pub fn loop_len(p: CubeParams, f: usize) -> u64 {
    loop_timing(p, p.k() - 1 - f).len
}

/// Every loop with the bit time `t` of its loop cycle 0 (the first starts at `t = 1`,
/// after the load cycle).
pub fn loops(p: CubeParams) -> Vec<(u64, LoopTiming)> {
    let mut t = 1;
    (0..p.k())
        .map(|i| {
            let lt = loop_timing(p, i);
            let start = t;
            t += lt.len;
            (start, lt)
        })
        .collect()
}

/// Bit times of a run: `T = (M + 1) + Σ_{f=1}^{k-1} (max(2f, M − f) + 6f + 2M + 5)`,
/// in closed form `(M + 1) + (k − 1)(2M + 5) + 3k(k − 1) + Σ_{f=1}^{k-1} max(2f, M − f)`.
pub fn total(p: CubeParams) -> u64 {
    let k = p.k() as u64;
    let m = p.message_bits() as u64;
    let maxes: u64 = (1..p.k()).map(|f| pack_start(p, f)).sum();
    (m + 1) + (k - 1) * (2 * m + 5) + 3 * k * (k - 1) + maxes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_form_is_the_sum_of_the_loops() {
        for k in 1..=12 {
            for l in [1, 2, 8, 33, 64] {
                let p = CubeParams::new(k, l).unwrap();
                let ls = loops(p);
                let (start, last) = ls.last().unwrap();
                assert_eq!(start + last.len - 1, total(p), "k = {k}, L = {l}");
                assert_eq!(last.len, (k + l + 1) as u64, "the last loop is the cross");
            }
        }
    }

    #[test]
    fn worked_example_k5_l8() {
        // M = 13. f = 4: P = max(8, 9) = 9, Q = 9 + 4 + 13 + 1 = 27, R = 27 + 14 = 41,
        // λ = 41 + 8 + 13 + 2 = 64.
        let p = CubeParams::new(5, 8).unwrap();
        let lt = loop_timing(p, 0);
        assert_eq!(
            (lt.f, lt.pack2, lt.pack0, lt.rdv, lt.len),
            (4, 9, 27, 41, 64)
        );
        let lens: Vec<u64> = (0..5).map(|i| loop_timing(p, i).len).collect();
        // f = 3: P = max(6, 10) = 10, λ = 10 + 18 + 26 + 5 = 59; f = 2: P = 11, λ = 54;
        // f = 1: P = 12, λ = 49; f = 0: 14.
        assert_eq!(lens, vec![64, 59, 54, 49, 14]);
        assert_eq!(total(p), 240);
    }

    #[test]
    fn loops_shrink_with_f_and_the_schedule_beats_the_sequential_one() {
        for k in 2..=12 {
            for l in [1, 8, 64] {
                let p = CubeParams::new(k, l).unwrap();
                for f in 1..k {
                    assert!(loop_len(p, f) > loop_len(p, f - 1));
                }
                let seq = (k * (14 * k + 3 * l + 9)) as u64;
                assert!(total(p) < seq, "k = {k}, L = {l}");
            }
        }
    }
}
