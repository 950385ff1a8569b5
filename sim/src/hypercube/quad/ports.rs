//! A [`QuadTrace`] as the quadratic top's output vectors (`docs/hypercube.md` §14.3), bit
//! time by bit time, as 32-bit words, least significant first: `rx_bit[N·k]` (node `x`'s
//! unit `j` at bit `x·k + j`), `rx_valid[N]`, `rx_payload[N·L]` (the latched result of the
//! last finished batch), `node_collision[N]`, and the globals `done`, `bit_time`,
//! `batches_done`, `take`. Computed once, so that a comparison at every bit time loops
//! over no node.

use super::QuadTrace;
use crate::hypercube::cycle::ports::words_for;

/// The quadratic top's global outputs at one bit time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuadGlobals {
    /// The last batch's result is on the outputs.
    pub done: bool,
    /// Bit times of the run so far (frozen at `T` once done).
    pub bit_time: u64,
    /// Batches whose result has been on the outputs.
    pub batches_done: u64,
    /// A batch is taken from the PEs in this bit time.
    pub take: bool,
    /// OR of the nodes' collision flags.
    pub collision: bool,
}

/// The expected output vectors of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuadPorts {
    bit_words: usize,
    node_words: usize,
    rx_bit: Vec<u32>,
    collision: Vec<u32>,
    /// `(from bit time, rx_valid words, rx_payload words)`, one per batch, in time order.
    results: Vec<(u64, Vec<u32>, Vec<u32>)>,
    zeros_valid: Vec<u32>,
    zeros_payload: Vec<u32>,
    last: u64,
    total: u64,
    first_collision: Option<u64>,
    period: u64,
    batches: usize,
    result_times: Vec<u64>,
}

fn put(words: &mut [u32], lsb: usize, width: usize, value: u64) {
    for i in (0..width).filter(|i| value >> i & 1 == 1) {
        words[(lsb + i) / 32] |= 1 << ((lsb + i) % 32);
    }
}

impl QuadPorts {
    /// The vectors of `trace`.
    pub fn new(trace: &QuadTrace) -> Self {
        let p = trace.params;
        let (n, l) = (p.n(), p.payload_bits());
        let k = trace.columns();
        let bw = words_for(n * k);
        let nw = words_for(n);
        let last = trace.total + 1;
        let rows = last as usize + 1;
        let mut rx_bit = vec![0u32; rows * bw];
        let mut collision = vec![0u32; rows * nw];
        for x in 0..n {
            for j in 0..k {
                for d in &trace.deliveries[x][j] {
                    for (i, &bit) in d.bits.iter().enumerate() {
                        let t = d.start + i as u64;
                        if bit && t <= last {
                            put(&mut rx_bit[t as usize * bw..][..bw], x * k + j, 1, 1);
                        }
                    }
                }
            }
            if let Some(c) = trace.collision_at[x] {
                for t in c..=last {
                    put(&mut collision[t as usize * nw..][..nw], x, 1, 1);
                }
            }
        }
        let results = trace
            .placements
            .iter()
            .enumerate()
            .map(|(b, placed)| {
                let mut valid = vec![0u32; nw];
                let mut pay = vec![0u32; words_for(n * l)];
                for (x, r) in placed.iter().enumerate() {
                    if let Some((_, payload)) = r {
                        put(&mut valid, x, 1, 1);
                        put(&mut pay, x * l, l, *payload);
                    }
                }
                (trace.result_times[b], valid, pay)
            })
            .collect();
        QuadPorts {
            bit_words: bw,
            node_words: nw,
            rx_bit,
            collision,
            results,
            zeros_valid: vec![0; nw],
            zeros_payload: vec![0; words_for(n * l)],
            last,
            total: trace.total,
            first_collision: trace.collision_at.iter().flatten().copied().min(),
            period: trace.period,
            batches: trace.batches,
            result_times: trace.result_times.clone(),
        }
    }

    /// `rx_bit` (`N·columns` bits) at bit time `t`.
    pub fn rx_bit(&self, t: u64) -> &[u32] {
        let r = t.min(self.last) as usize;
        &self.rx_bit[r * self.bit_words..][..self.bit_words]
    }

    /// `node_collision` (`N` bits) at bit time `t`.
    pub fn node_collision(&self, t: u64) -> &[u32] {
        let r = t.min(self.last) as usize;
        &self.collision[r * self.node_words..][..self.node_words]
    }

    fn result(&self, t: u64) -> Option<&(u64, Vec<u32>, Vec<u32>)> {
        self.results.iter().rev().find(|r| r.0 <= t)
    }

    /// `rx_valid` (`N` bits) at bit time `t`: the last finished batch's.
    pub fn rx_valid(&self, t: u64) -> &[u32] {
        self.result(t).map_or(&self.zeros_valid, |r| &r.1)
    }

    /// `rx_payload` (`N·L` bits) at bit time `t`.
    pub fn rx_payload(&self, t: u64) -> &[u32] {
        self.result(t).map_or(&self.zeros_payload, |r| &r.2)
    }

    /// The globals at bit time `t`.
    pub fn globals(&self, t: u64) -> QuadGlobals {
        QuadGlobals {
            done: t > self.total,
            bit_time: t.saturating_sub(1).min(self.total),
            batches_done: self.result_times.iter().filter(|&&r| r <= t).count() as u64,
            take: t.is_multiple_of(self.period) && ((t / self.period) as usize) < self.batches,
            collision: self.first_collision.is_some_and(|c| t >= c),
        }
    }
}

impl QuadTrace {
    /// The run's expected outputs as the quadratic top's vectors.
    pub fn port_words(&self) -> QuadPorts {
        QuadPorts::new(self)
    }
}
