//! The node-facing outputs of a [`CycleTrace`] as the word-level ports of the cube's top
//! module (`docs/hypercube.md` §8–§9), bit time by bit time: one vector per quantity,
//! node `x` at row `x` (`rx_bit[x]`, `rx_payload[x*L +: L]`, ...), held as 32-bit words,
//! least significant first (the layout in which a test bench reads a Verilog vector).
//!
//! Everything is computed once from the trace; [`PortWords`]'s accessors then return
//! slices, so that a comparison at every bit time allocates nothing and loops over no
//! node. The values are the trace's ([`CycleTrace::node`], [`CycleTrace::global`]):
//! this is a change of representation, not a second model.

use super::{CycleTrace, GlobalOutputs};

/// The expected top-level output vectors of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortWords {
    /// Words of an `N`-bit vector.
    node_words: usize,
    /// Rows of `node_words` words, one per bit time `0..=last`: `rx_bit`.
    rx_bit: Vec<u32>,
    /// Rows of `node_words` words, one per bit time `0..=last`: `node_collision`.
    collision: Vec<u32>,
    /// `rx_valid` once `done` (all zeros before).
    rx_valid: Vec<u32>,
    /// `rx_payload` once `done` (`N·L` bits; all zeros before).
    rx_payload: Vec<u32>,
    /// All zeros, as long as the longest vector.
    zeros: Vec<u32>,
    /// Last bit time with its own row (`total + 1`: from then on nothing changes).
    last: u64,
    /// Bit times of the run.
    total: u64,
    /// First bit time at which some node's collision flag reads 1.
    first_collision: Option<u64>,
}

/// Words of 32 bits needed for `bits` bits.
pub fn words_for(bits: usize) -> usize {
    bits.div_ceil(32)
}

/// Writes the `width` low bits of `value` into `words` at bit `lsb`.
fn put(words: &mut [u32], lsb: usize, width: usize, value: u64) {
    for i in 0..width {
        if value >> i & 1 == 1 {
            let b = lsb + i;
            words[b / 32] |= 1 << (b % 32);
        }
    }
}

impl PortWords {
    /// The port vectors of `trace`.
    pub fn new(trace: &CycleTrace) -> Self {
        let n = trace.params.n();
        let l = trace.params.payload_bits();
        let nw = words_for(n);
        let last = trace.total + 1;
        let rows = last as usize + 1;
        let mut rx_bit = vec![0u32; rows * nw];
        let mut collision = vec![0u32; rows * nw];
        for x in 0..n {
            let set = |v: &mut Vec<u32>, t: u64| {
                if t <= last {
                    put(&mut v[t as usize * nw..][..nw], x, 1, 1);
                }
            };
            for d in &trace.deliveries[x] {
                for (j, &bit) in d.bits.iter().enumerate() {
                    if bit {
                        set(&mut rx_bit, d.start + j as u64);
                    }
                }
            }
            if let Some(c) = trace.collision_at[x] {
                for t in c..=last {
                    set(&mut collision, t);
                }
            }
        }
        let mut rx_valid = vec![0u32; nw];
        let mut rx_payload = vec![0u32; words_for(n * l)];
        for (x, placed) in trace.placement.iter().enumerate() {
            if let Some((_, payload)) = placed {
                put(&mut rx_valid, x, 1, 1);
                put(&mut rx_payload, x * l, l, *payload);
            }
        }
        PortWords {
            node_words: nw,
            zeros: vec![0; rx_payload.len().max(nw)],
            rx_bit,
            collision,
            rx_valid,
            rx_payload,
            last,
            total: trace.total,
            first_collision: trace.collision_at.iter().flatten().copied().min(),
        }
    }

    fn row<'a>(&self, rows: &'a [u32], t: u64) -> &'a [u32] {
        let r = t.min(self.last) as usize;
        &rows[r * self.node_words..][..self.node_words]
    }

    /// `rx_bit` (`N` bits) at bit time `t`: every node's delivery register.
    pub fn rx_bit(&self, t: u64) -> &[u32] {
        self.row(&self.rx_bit, t)
    }

    /// `node_collision` (`N` bits) at bit time `t`: the sticky collision flags.
    pub fn node_collision(&self, t: u64) -> &[u32] {
        self.row(&self.collision, t)
    }

    /// `rx_valid` (`N` bits) at bit time `t`.
    pub fn rx_valid(&self, t: u64) -> &[u32] {
        if t > self.total {
            &self.rx_valid
        } else {
            &self.zeros[..self.rx_valid.len()]
        }
    }

    /// `rx_payload` (`N·L` bits) at bit time `t`.
    pub fn rx_payload(&self, t: u64) -> &[u32] {
        if t > self.total {
            &self.rx_payload
        } else {
            &self.zeros[..self.rx_payload.len()]
        }
    }
}

impl PortWords {
    /// The global outputs `done`, `bit_time`, `collision` at bit time `t` (as
    /// [`CycleTrace::global`], without looking at every node).
    pub fn global(&self, t: u64) -> GlobalOutputs {
        GlobalOutputs {
            done: t > self.total,
            bit_time: t.saturating_sub(1).min(self.total),
            collision: self.first_collision.is_some_and(|c| t >= c),
        }
    }
}

impl CycleTrace {
    /// The run's expected outputs as the top module's vectors.
    pub fn port_words(&self) -> PortWords {
        PortWords::new(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hypercube::cycle::simulate;
    use crate::hypercube::generate::random_semi_contraction;
    use crate::hypercube::timing::Algorithm;
    use crate::hypercube::CubeParams;
    use crate::perm::PartialPermutation;
    use crate::rng::seeded;

    fn bit(words: &[u32], i: usize) -> bool {
        words[i / 32] >> (i % 32) & 1 == 1
    }

    fn field(words: &[u32], lsb: usize, width: usize) -> u64 {
        (0..width).fold(0, |acc, i| acc | u64::from(bit(words, lsb + i)) << i)
    }

    /// Every bit of every vector equals the per-node outputs, at every bit time.
    fn agrees(trace: &CycleTrace) {
        let pw = trace.port_words();
        let (n, l) = (trace.params.n(), trace.params.payload_bits());
        for t in 0..=trace.total + 3 {
            assert_eq!(pw.global(t), trace.global(t), "t = {t}");
            for x in 0..n {
                let o = trace.node(t, x);
                assert_eq!(bit(pw.rx_bit(t), x), o.rx_bit, "t = {t}, node {x}");
                assert_eq!(bit(pw.rx_valid(t), x), o.rx_valid, "t = {t}, node {x}");
                assert_eq!(
                    bit(pw.node_collision(t), x),
                    o.collision,
                    "t = {t}, node {x}"
                );
                assert_eq!(field(pw.rx_payload(t), x * l, l), o.rx_payload, "t = {t}");
            }
        }
    }

    #[test]
    fn vectors_hold_the_per_node_outputs() {
        for k in 1..=6 {
            let p = CubeParams::new(k, 7).unwrap();
            let r = random_semi_contraction(k, &mut seeded(k as u64));
            let pay: Vec<u64> = (0..p.n() as u64).map(|x| (x * 37 + 5) % 128).collect();
            agrees(&simulate(p, Algorithm::Semi, &r, &pay).unwrap());
            let full = crate::perm::Permutation::random(p.n(), &mut seeded(9)).to_partial();
            for alg in [Algorithm::Full, Algorithm::FullSequential, Algorithm::Sort] {
                agrees(&simulate(p, alg, &full, &pay).unwrap());
            }
        }
    }

    #[test]
    fn collisions_are_in_the_vectors() {
        // 0 -> 0 and 1 -> 4 on a 3-cube meet at node 0 after dimension 0 (t = 4).
        let r = PartialPermutation::parse("0 4 - - - - 7 3", 8).unwrap();
        let p = CubeParams::new(3, 4).unwrap();
        let tr = simulate(p, Algorithm::Semi, &r, &[5, 3, 0, 0, 0, 0, 1, 2]).unwrap();
        agrees(&tr);
        let pw = tr.port_words();
        assert_eq!(pw.node_collision(3)[0] & 1, 0);
        assert_eq!(pw.node_collision(4)[0] & 1, 1);
        assert_eq!(pw.node_collision(1000)[0] & 1, 1);
    }

    #[test]
    fn wide_vectors_span_words() {
        // 64 nodes of 64-bit payloads: rx_payload is 4096 bits, 128 words.
        let p = CubeParams::new(6, 64).unwrap();
        let r = random_semi_contraction(6, &mut seeded(3));
        let pay: Vec<u64> = (0..64u64).map(|x| u64::MAX - x).collect();
        let tr = simulate(p, Algorithm::Semi, &r, &pay).unwrap();
        let pw = tr.port_words();
        assert_eq!(pw.rx_payload(0).len(), 128);
        assert_eq!(pw.rx_bit(0).len(), 2);
        agrees(&tr);
    }
}
