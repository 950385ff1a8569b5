//! The top-level ports of a network (`docs/interface.md` §2), one port per quantity, and
//! their values as words: names and widths in a fixed order, typed outputs, and the
//! canonical run's inputs.
//!
//! A port of `w` bits has `⌈w/64⌉` 64-bit words in a [`PortWords`] buffer, least
//! significant first; a per-PE quantity of `b` bits holds PE `p` at bits `p·b ..`, as the
//! RTL's `[p*b +: b]`. Buffers are sized once and refilled every bit-time without
//! allocating.

use super::super::params::ArbiterPolicy;
use super::params::NetParams;
use super::r3load::R3Load;
use crate::lcan::routing::Algorithm;
use serde::Serialize;

/// The top-level outputs of one bit-time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NetOutputs {
    /// `done`.
    pub done: bool,
    /// `error`.
    pub error: bool,
    /// `phase`.
    pub phase: u8,
    /// `passes`.
    pub passes: u16,
    /// `bit_times`.
    pub bit_times: u32,
    /// `valid`, by PE.
    pub valid: Vec<bool>,
    /// `sent`, by PE.
    pub sent: Vec<bool>,
    /// `rmsg`, one `M`-bit value per PE.
    pub rmsg: Vec<u64>,
}

/// A port: name and width in bits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PortSpec {
    /// The Verilog name.
    pub name: String,
    /// Bits.
    pub width: usize,
}

fn port(name: &str, width: usize) -> PortSpec {
    PortSpec {
        name: name.to_string(),
        width,
    }
}

/// Values of a list of ports, as 64-bit words (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortWords {
    offsets: Vec<usize>,
    widths: Vec<usize>,
    words: Vec<u64>,
}

impl PortWords {
    /// A zeroed buffer for `ports`.
    pub fn new(ports: &[PortSpec]) -> Self {
        let mut offsets = vec![0];
        for p in ports {
            offsets.push(offsets.last().copied().unwrap_or(0) + p.width.div_ceil(64));
        }
        PortWords {
            words: vec![0; *offsets.last().unwrap_or(&0)],
            widths: ports.iter().map(|p| p.width).collect(),
            offsets,
        }
    }

    /// Number of ports.
    pub fn len(&self) -> usize {
        self.widths.len()
    }

    /// Whether there are no ports.
    pub fn is_empty(&self) -> bool {
        self.widths.is_empty()
    }

    /// Width of port `i`.
    pub fn width(&self, i: usize) -> usize {
        self.widths[i]
    }

    /// The words of port `i`.
    pub fn get(&self, i: usize) -> &[u64] {
        &self.words[self.offsets[i]..self.offsets[i + 1]]
    }

    /// The words of port `i`, to fill.
    pub fn get_mut(&mut self, i: usize) -> &mut [u64] {
        &mut self.words[self.offsets[i]..self.offsets[i + 1]]
    }

    /// The low 64 bits of port `i`.
    pub fn low(&self, i: usize) -> u64 {
        self.get(i).first().copied().unwrap_or(0)
    }

    /// Sets port `i` to `value` (ports of at most 64 bits).
    pub fn set(&mut self, i: usize, value: u64) {
        let w = self.get_mut(i);
        w.fill(0);
        w[0] = value;
    }

    /// Bit `bit` of port `i`.
    pub fn bit(&self, i: usize, bit: usize) -> bool {
        self.get(i)[bit / 64] >> (bit % 64) & 1 == 1
    }

    /// Inverts bit `bit` of port `i`.
    pub fn flip(&mut self, i: usize, bit: usize) {
        self.get_mut(i)[bit / 64] ^= 1 << (bit % 64);
    }
}

/// Writes `value` (`width ≤ 64` bits) at bit `at` of `words`.
pub fn put_bits(words: &mut [u64], at: usize, width: usize, value: u64) {
    let (i, s) = (at / 64, at % 64);
    words[i] |= value << s;
    if s + width > 64 {
        words[i + 1] |= value >> (64 - s);
    }
}

/// Output ports, in this order: `done`, `error`, `phase`, `passes`, `bit_times`, `valid`,
/// `sent`, `rmsg`.
pub fn output_ports(np: &NetParams) -> Vec<PortSpec> {
    vec![
        port("done", 1),
        port("error", 1),
        port("phase", 4),
        port("passes", 16),
        port("bit_times", 32),
        port("valid", np.n),
        port("sent", np.n),
        port("rmsg", np.n * np.msg_bits),
    ]
}

/// Indices of the output ports in [`output_ports`].
pub mod out {
    /// `done`.
    pub const DONE: usize = 0;
    /// `error`.
    pub const ERROR: usize = 1;
    /// `phase`.
    pub const PHASE: usize = 2;
    /// `passes`.
    pub const PASSES: usize = 3;
    /// `bit_times`.
    pub const BIT_TIMES: usize = 4;
    /// `valid`.
    pub const VALID: usize = 5;
    /// `sent`.
    pub const SENT: usize = 6;
    /// `rmsg`.
    pub const RMSG: usize = 7;
}

/// Input ports except `clock`: `reset`, `start`, `act`, `dst`, `msg`, `seed` with the
/// random policy, and `pass`, `route`, `npass` with R3 (`docs/interface.md` §11.1).
pub fn input_ports(np: &NetParams) -> Vec<PortSpec> {
    let mut v = vec![
        port("reset", 1),
        port("start", 1),
        port("act", np.n),
        port("dst", np.n * np.abin),
        port("msg", np.n * np.msg_bits),
    ];
    if np.policy() == ArbiterPolicy::Random {
        v.push(port("seed", 16));
    }
    if np.algorithm == Algorithm::R3 {
        v.push(port("pass", np.n * np.pass_bits()));
        v.push(port("route", np.n * np.route_bits()));
        v.push(port("npass", np.pass_bits() + 1));
    }
    v
}

/// The canonical run's inputs (`docs/interface.md` §3): `reset` in bit-time 0, `start` in
/// bit-time 1, the load inputs constant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CanonicalInputs {
    words: PortWords,
}

impl CanonicalInputs {
    /// The inputs of a run of `act`, `dst`, `msg` (one per PE) and `seed16`.
    pub fn new(np: &NetParams, act: &[bool], dst: &[u64], msg: &[u64], seed16: u16) -> Self {
        let mut words = PortWords::new(&input_ports(np));
        for (p, &a) in act.iter().enumerate() {
            put_bits(words.get_mut(2), p, 1, u64::from(a));
        }
        for (p, &d) in dst.iter().enumerate() {
            put_bits(words.get_mut(3), p * np.abin, np.abin, d);
        }
        for (p, &m) in msg.iter().enumerate() {
            put_bits(words.get_mut(4), p * np.msg_bits, np.msg_bits, m);
        }
        if np.policy() == ArbiterPolicy::Random {
            words.set(5, u64::from(seed16));
        }
        CanonicalInputs { words }
    }

    /// R3: also the load inputs `pass`, `route`, `npass` (ports 5, 6, 7).
    pub fn with_r3(mut self, np: &NetParams, load: &R3Load) -> Self {
        let (pb, rb, f) = (np.pass_bits(), np.route_bits(), np.route_field_bits());
        for (p, &k) in load.pass.iter().enumerate() {
            put_bits(self.words.get_mut(5), p * pb, pb, k as u64);
        }
        for (p, fields) in load.route.iter().enumerate() {
            for (j, &q) in fields.iter().enumerate() {
                put_bits(self.words.get_mut(6), p * rb + j * f, f, q);
            }
        }
        self.words.set(7, load.npass as u64);
        self
    }

    /// The input values of bit-time `t`, in the order of [`input_ports`].
    pub fn at(&mut self, t: u64) -> &PortWords {
        self.words.set(0, u64::from(t == 0));
        self.words.set(1, u64::from(t == 1));
        &self.words
    }

    /// Whether an input other than `reset` and `start` may change between bit-times
    /// `t - 1` and `t` (only at the start of the run: the others are constant).
    pub fn load_inputs_change(t: u64) -> bool {
        t == 0
    }
}

/// The messages of a seeded run: PE `p` sends the `p`-th draw of a generator seeded with
/// `rng::derive(seed, "messages")`, masked to `m` bits. The CLI commands that need messages
/// use this, so a `--seed` reproduces them.
pub fn seeded_messages(n: usize, m: usize, seed: u64) -> Vec<u64> {
    use rand::Rng;
    let mut rng = crate::rng::seeded(crate::rng::derive(seed, "messages"));
    let mask = if m >= 64 { u64::MAX } else { (1u64 << m) - 1 };
    (0..n).map(|_| rng.gen::<u64>() & mask).collect()
}
