//! A stable 64-bit fingerprint of a [`Schedule`] (FNV-1a over every field of every pass,
//! in order): two schedules have the same digest when they are equal, and a change in
//! any pass, path, sender or crosspoint changes it (up to hash collisions). The
//! speed-ups of the step models are checked against digests recorded before them
//! (`tests::digest_tests`, `sim/examples/routing_speed.rs`): same input, same seed →
//! bit-for-bit the same schedule.

use super::state::Port;
use super::Schedule;
use crate::lcan::paths::Dir;

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Fnv {
    fn word(&mut self, x: u64) {
        for b in x.to_le_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn port(&mut self, p: Port) {
        let (tag, i) = match p {
            Port::A(i) => (0, i),
            Port::B(i) => (1, i),
            Port::C(i) => (2, i),
            Port::D(i) => (3, i),
        };
        self.word(tag);
        self.word(i as u64);
    }
}

impl Schedule {
    /// The fingerprint of this schedule: every pass's steps, top level, attempted count,
    /// senders, delivered connections with their wires, and closed crosspoints.
    pub fn digest(&self) -> u64 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        h.word(self.passes.len() as u64);
        for p in &self.passes {
            h.word(p.steps as u64);
            h.word(p.top_level as u64);
            h.word(p.attempted as u64);
            h.word(p.senders.len() as u64);
            for &s in &p.senders {
                h.word(s as u64);
            }
            h.word(p.delivered.len() as u64);
            for c in &p.delivered {
                h.word(c.src as u64);
                h.word(c.dst as u64);
                h.word(c.lca_level as u64);
                h.word(c.wires.len() as u64);
                for w in &c.wires {
                    h.word(u64::from(w.dir == Dir::Down));
                    h.word(w.level as u64);
                    h.word(w.switch as u64);
                    h.word(w.upper as u64);
                }
            }
            h.word(p.crosspoints.len() as u64);
            for s in &p.crosspoints {
                h.word(s.global as u64);
                h.word(s.level as u64);
                h.word(s.switch as u64);
                h.word(s.closed.len() as u64);
                for &(i, o) in &s.closed {
                    h.port(i);
                    h.port(o);
                }
            }
        }
        h.0
    }
}
