//! The top-level ports of a network (`docs/interface.md` §2), one wire per bit, and their
//! values: names in a fixed order, typed outputs, and the canonical run's inputs.

use super::super::params::ArbiterPolicy;
use super::params::NetParams;
use serde::Serialize;

/// The top-level outputs of one bit-time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NetOutputs {
    /// `done`.
    pub done: bool,
    /// `error`.
    pub error: bool,
    /// `phase_<0..4>`.
    pub phase: u8,
    /// `passes_<0..16>`.
    pub passes: u16,
    /// `bit_times_<0..32>`.
    pub bit_times: u32,
    /// `valid_<p>`.
    pub valid: Vec<bool>,
    /// `sent_<p>`.
    pub sent: Vec<bool>,
    /// `rmsg_<p·M + i>` as one `M`-bit value per PE.
    pub rmsg: Vec<u64>,
}

fn vector(names: &mut Vec<String>, base: &str, bits: usize) {
    names.extend((0..bits).map(|i| format!("{base}_{i}")));
}

/// Output port names, in this order: `done`, `error`, `phase_*`, `passes_*`, `bit_times_*`,
/// `valid_*`, `sent_*`, `rmsg_*` (each vector from index 0 up).
pub fn output_names(np: &NetParams) -> Vec<String> {
    let mut v = vec!["done".to_string(), "error".to_string()];
    vector(&mut v, "phase", 4);
    vector(&mut v, "passes", 16);
    vector(&mut v, "bit_times", 32);
    vector(&mut v, "valid", np.n);
    vector(&mut v, "sent", np.n);
    vector(&mut v, "rmsg", np.n * np.msg_bits);
    v
}

fn bits(out: &mut Vec<u8>, value: u64, n: usize) {
    out.extend((0..n).map(|i| ((value >> i) & 1) as u8));
}

/// Output values in the order of [`output_names`].
pub fn output_values(np: &NetParams, o: &NetOutputs, out: &mut Vec<u8>) {
    out.clear();
    out.push(u8::from(o.done));
    out.push(u8::from(o.error));
    bits(out, u64::from(o.phase), 4);
    bits(out, u64::from(o.passes), 16);
    bits(out, u64::from(o.bit_times), 32);
    out.extend(o.valid.iter().map(|&b| u8::from(b)));
    out.extend(o.sent.iter().map(|&b| u8::from(b)));
    for &m in &o.rmsg {
        bits(out, m, np.msg_bits);
    }
}

/// Input port names except `clock`: `reset`, `start`, `act_*`, `dst_*`, `msg_*`, and
/// `seed_*` with the random policy.
pub fn input_names(np: &NetParams) -> Vec<String> {
    let mut v = vec!["reset".to_string(), "start".to_string()];
    vector(&mut v, "act", np.n);
    vector(&mut v, "dst", np.n * np.abin);
    vector(&mut v, "msg", np.n * np.msg_bits);
    if np.switch.policy == ArbiterPolicy::Random {
        vector(&mut v, "seed", 16);
    }
    v
}

/// The canonical run's input values in bit-time `t` (`docs/interface.md` §3), in the order
/// of [`input_names`].
pub fn input_values(
    np: &NetParams,
    t: u64,
    act: &[bool],
    dst: &[u64],
    msg: &[u64],
    seed16: u16,
    out: &mut Vec<u8>,
) {
    out.clear();
    out.push(u8::from(t == 0));
    out.push(u8::from(t == 1));
    out.extend(act.iter().map(|&b| u8::from(b)));
    for &d in dst {
        bits(out, d, np.abin);
    }
    for &m in msg {
        bits(out, m, np.msg_bits);
    }
    if np.switch.policy == ArbiterPolicy::Random {
        bits(out, u64::from(seed16), 16);
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
