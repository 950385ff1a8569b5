//! Word-level bindings of the golden [`Timeline`] to the top-level ports of the RTL
//! (docs/min.md §6): the values [`Timeline::expected`] and [`Timeline::stimulus`]
//! describe, packed into 32-bit words the way the ports carry them (`dout[q]`,
//! `dst[j*m +: m]`, `sw_crossed[s*n/2 + k]`, …), without allocating per bit-time.
//!
//! Nothing here decides behaviour: every value comes from the timeline's rows, transits
//! and payloads and from its stimulus rules, and tests check that the words equal the
//! packed [`BitTime`](super::BitTime) and [`Stimulus`](super::timeline::Stimulus) at
//! every bit-time. The buffers remember which frame they hold for `dst` and for each
//! stage's switch rows, so those are repacked only when they change; payload words are
//! cached per PE (a 64-bit word of a message serves 64 bit-times).
//!
//! [`DeliveryCheck`] is [`Timeline::check_deliveries`] in streaming form: it reads the
//! RTL's `dout` bit-time by bit-time and checks each frame's messages when it has left.

use super::frame::Payloads;
use super::timeline::{DeliveryError, Timeline};

/// 32-bit words needed for `bits` bits.
pub fn words_for(bits: usize) -> usize {
    bits.div_ceil(32)
}

fn set_bit(words: &mut [u32], i: usize, b: bool) {
    let mask = 1u32 << (i % 32);
    if b {
        words[i / 32] |= mask;
    } else {
        words[i / 32] &= !mask;
    }
}

fn get_bit(words: &[u32], i: usize) -> bool {
    (words[i / 32] >> (i % 32)) & 1 == 1
}

/// Packs `fields[j]` of `width` bits each at `[j*width +: width]`.
fn pack_fields(words: &mut [u32], width: usize, fields: &[usize]) {
    words.fill(0);
    for (j, &v) in fields.iter().enumerate() {
        let at = j * width;
        let low = (v as u64) << (at % 32);
        words[at / 32] |= low as u32;
        if let Some(w) = words.get_mut(at / 32 + 1) {
            *w |= (low >> 32) as u32;
        }
    }
}

/// A per-PE cache of one 64-bit payload word: `(key, word)`, key `u64::MAX` = empty.
#[derive(Debug, Clone)]
struct WordCache(Vec<(u64, u64)>);

impl WordCache {
    fn new(n: usize) -> Self {
        Self(vec![(u64::MAX, 0); n])
    }

    /// Bit `k` of the message `src → dst` sent in frame `i`, cached per `slot`.
    fn bit(
        &mut self,
        p: &Payloads,
        slot: usize,
        i: usize,
        src: usize,
        dst: usize,
        k: usize,
    ) -> bool {
        let words = u64::from(p.bits().div_ceil(64));
        let key = i as u64 * words + (k / 64) as u64;
        let e = &mut self.0[slot];
        if e.0 != key {
            *e = (key, p.word(src, dst, k / 64));
        }
        (e.1 >> (k % 64)) & 1 == 1
    }
}

/// The expected top-level outputs during one bit-time, as port words.
#[derive(Debug, Clone)]
pub struct ExpectedPorts {
    /// `dout` (`n` bits).
    pub dout: Vec<u32>,
    /// `dst` (`n·m` bits).
    pub dst: Vec<u32>,
    /// `busy`.
    pub busy: bool,
    /// `sending`.
    pub sending: bool,
    /// `frame`.
    pub frame: u64,
    /// `pos`.
    pub pos: u64,
    /// `conflict` (`m ≤ 12` bits).
    pub conflict: u64,
    /// `sw_crossed` (`m·n/2` bits).
    pub sw_crossed: Vec<u32>,
    /// `sw_conflict` (`m·n/2` bits).
    pub sw_conflict: Vec<u32>,
    /// The frame whose row `dst` holds (`None`: zeros, before `t0`).
    dst_frame: Option<usize>,
    /// Per stage, the frame whose decision its rows hold (`None`: zeros, no decision).
    stage_frame: Vec<Option<usize>>,
    payload: WordCache,
}

/// The top-level inputs during one bit-time, as port words.
#[derive(Debug, Clone)]
pub struct InputPorts {
    /// `reset`.
    pub reset: bool,
    /// `start`.
    pub start: bool,
    /// `single`.
    pub single: bool,
    /// `first` (`n·m` bits).
    pub first: Vec<u32>,
    /// `din` (`n` bits).
    pub din: Vec<u32>,
    /// `first` as sampled with `start`, and its complement (driven at every other time).
    first_at_start: Vec<u32>,
    first_otherwise: Vec<u32>,
    payload: WordCache,
}

impl Timeline {
    /// Buffers for [`Timeline::expected_ports`].
    pub fn expected_buffers(&self) -> ExpectedPorts {
        let min = &self.config().min;
        let (n, m) = (min.n(), min.m() as usize);
        let switches = m * min.switches_per_stage();
        ExpectedPorts {
            dout: vec![0; words_for(n)],
            dst: vec![0; words_for(n * m)],
            busy: false,
            sending: false,
            frame: 0,
            pos: 0,
            conflict: 0,
            sw_crossed: vec![0; words_for(switches)],
            sw_conflict: vec![0; words_for(switches)],
            dst_frame: None,
            stage_frame: vec![None; m],
            payload: WordCache::new(n),
        }
    }

    /// Buffers for [`Timeline::input_ports`].
    pub fn input_buffers(&self) -> InputPorts {
        let min = &self.config().min;
        let (n, m) = (min.n(), min.m() as usize);
        let first = self.config().first.as_slice();
        let mut at_start = vec![0; words_for(n * m)];
        pack_fields(&mut at_start, m, first);
        let complement: Vec<usize> = first.iter().map(|&d| !d & (n - 1)).collect();
        let mut otherwise = vec![0; words_for(n * m)];
        pack_fields(&mut otherwise, m, &complement);
        InputPorts {
            reset: false,
            start: false,
            single: false,
            first: otherwise.clone(),
            din: vec![0; words_for(n)],
            first_at_start: at_start,
            first_otherwise: otherwise,
            payload: WordCache::new(n),
        }
    }

    /// Fills `e` with the outputs expected during bit-time `t` ([`Timeline::expected`]
    /// as port words). Allocation-free.
    pub fn expected_ports(&self, t: u64, e: &mut ExpectedPorts) {
        let cfg = self.config();
        let min = &cfg.min;
        let (m, f) = (u64::from(min.m()), cfg.format.len() as u64);
        let (w, half) = (m as usize, min.switches_per_stage());
        let frames = cfg.frame_count() as u64;
        let t0 = cfg.t0();
        e.sending = t >= t0 && t < t0 + frames * f;
        (e.frame, e.pos) = if e.sending {
            ((t - t0) / f, (t - t0) % f)
        } else {
            (0, 0)
        };
        e.busy = t >= t0 && t < self.end();

        let dst_frame = (t >= t0).then(|| ((t - t0) / f).min(frames - 1) as usize);
        if dst_frame != e.dst_frame {
            match dst_frame {
                Some(i) => pack_fields(&mut e.dst, w, self.row(i).as_slice()),
                None => e.dst.fill(0),
            }
            e.dst_frame = dst_frame;
        }

        e.dout.fill(0);
        if t >= t0 + m && t < t0 + m + frames * f {
            let u = t - t0 - m;
            let (i, p) = ((u / f) as usize, u % f);
            if p >= m {
                let (row, arrivals) = (self.row(i), &self.transit(i).arrivals);
                for (q, &src) in arrivals.iter().enumerate() {
                    let b =
                        e.payload
                            .bit(self.payloads(), q, i, src, row.dst(src), (p - m) as usize);
                    if b {
                        e.dout[q / 32] |= 1 << (q % 32);
                    }
                }
            }
        }

        e.conflict = 0;
        for s in 0..w {
            // Decision of frame i at stage s during t0 + i·F + 2s, visible after it.
            let first_visible = t0 + 2 * s as u64 + 1;
            let i =
                (t >= first_visible).then(|| ((t - first_visible) / f).min(frames - 1) as usize);
            if i != e.stage_frame[s] {
                for k in 0..half {
                    let (c, x) = match i {
                        Some(i) => {
                            let tr = self.transit(i);
                            (tr.settings.cross[s][k], tr.conflict[s][k])
                        }
                        None => (false, false),
                    };
                    set_bit(&mut e.sw_crossed, s * half + k, c);
                    set_bit(&mut e.sw_conflict, s * half + k, x);
                }
                e.stage_frame[s] = i;
            }
            if let Some(i) = i {
                if self.transit(i).conflict[s].contains(&true) {
                    e.conflict |= 1 << s;
                }
            }
        }
    }

    /// Fills `inp` with the inputs of bit-time `t` ([`Timeline::stimulus`] as port
    /// words). Allocation-free.
    pub fn input_ports(&self, t: u64, inp: &mut InputPorts) {
        let cfg = self.config();
        let (n, m, f) = (cfg.min.n(), u64::from(cfg.min.m()), cfg.format.len() as u64);
        let at_start = t == cfg.t_start;
        let single = cfg.frames == super::frame::Frames::Single;
        inp.reset = t < cfg.t_start;
        inp.start = at_start;
        inp.single = if at_start { single } else { !single };
        inp.first.copy_from_slice(if at_start {
            &inp.first_at_start
        } else {
            &inp.first_otherwise
        });
        let t0 = cfg.t0();
        let sending_end = t0 + cfg.frame_count() as u64 * f;
        let payload_at = (t >= t0 && t < sending_end)
            .then(|| (((t - t0) / f) as usize, (t - t0) % f))
            .filter(|&(_, p)| p >= m);
        inp.din.fill(0);
        for j in 0..n {
            let b = match payload_at {
                Some((i, p)) => {
                    let dst = self.row(i).dst(j);
                    inp.payload
                        .bit(self.payloads(), j, i, j, dst, (p - m) as usize)
                }
                None => self.junk(t, j),
            };
            if b {
                inp.din[j / 32] |= 1 << (j % 32);
            }
        }
    }
}

/// [`Timeline::check_deliveries`] in streaming form: feed it the RTL's `dout` words of
/// every bit-time ([`DeliveryCheck::record`]); it checks the messages of each frame once
/// the frame has left the network. Allocation-free per bit-time.
#[derive(Debug, Clone)]
pub struct DeliveryCheck {
    /// `received[q*words + w]`: word `w` of the payload PE `q` is receiving.
    received: Vec<u64>,
    words: usize,
    /// `sender[q]`: who sends to `q` in the frame being checked.
    sender: Vec<usize>,
    checked: usize,
    error: Option<DeliveryError>,
}

impl DeliveryCheck {
    /// A check of `tl`'s run.
    pub fn new(tl: &Timeline) -> Self {
        let n = tl.config().min.n();
        let words = tl.payloads().bits().div_ceil(64) as usize;
        Self {
            received: vec![0; n * words],
            words,
            sender: vec![0; n],
            checked: 0,
            error: None,
        }
    }

    /// Records `dout` (the RTL's PE outputs, `n` bits) of bit-time `t`; bit-times must
    /// come in order.
    pub fn record(&mut self, tl: &Timeline, t: u64, dout: &[u32]) {
        let cfg = tl.config();
        let (n, m, f) = (cfg.min.n(), u64::from(cfg.min.m()), cfg.format.len() as u64);
        let t0 = cfg.t0();
        let frames = cfg.frame_count() as u64;
        if self.error.is_some() || t < t0 + m || t >= t0 + m + frames * f {
            return;
        }
        let u = t - t0 - m;
        let (i, p) = ((u / f) as usize, u % f);
        if p < m {
            return;
        }
        let k = (p - m) as usize;
        for q in 0..n {
            let word = &mut self.received[q * self.words + k / 64];
            if k.is_multiple_of(64) {
                *word = 0;
            }
            if get_bit(dout, q) {
                *word |= 1 << (k % 64);
            }
        }
        if p + 1 == f {
            self.check_frame(tl, i);
        }
    }

    fn check_frame(&mut self, tl: &Timeline, i: usize) {
        let cfg = tl.config();
        let (n, m, f) = (cfg.min.n(), u64::from(cfg.min.m()), cfg.format.len() as u64);
        let bits = tl.payloads().bits() as usize;
        let row = tl.row(i);
        for j in 0..n {
            self.sender[row.dst(j)] = j;
        }
        for q in 0..n {
            let src = self.sender[q];
            for w in 0..self.words {
                let valid = (bits - 64 * w).min(64);
                let mask = if valid == 64 {
                    u64::MAX
                } else {
                    (1 << valid) - 1
                };
                let diff =
                    (self.received[q * self.words + w] ^ tl.payloads().word(src, q, w)) & mask;
                if diff != 0 {
                    let bit = 64 * w + diff.trailing_zeros() as usize;
                    self.error = Some(DeliveryError {
                        frame: i,
                        receiver: q,
                        sender: src,
                        bit,
                        bit_time: cfg.t0() + i as u64 * f + 2 * m + bit as u64,
                    });
                    return;
                }
            }
            self.checked += 1;
        }
    }

    /// The number of messages found intact, or the first wrong one.
    pub fn finish(&self) -> Result<usize, DeliveryError> {
        match &self.error {
            Some(e) => Err(e.clone()),
            None => Ok(self.checked),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::min::{Min, Network, RunConfig};
    use crate::perm::Permutation;
    use crate::rng::seeded;

    fn packed_bits(bits: impl Iterator<Item = bool>, len: usize) -> Vec<u32> {
        let mut w = vec![0; words_for(len)];
        for (i, b) in bits.enumerate() {
            set_bit(&mut w, i, b);
        }
        w
    }

    fn agree(cfg: RunConfig) {
        let tl = Timeline::new(cfg.clone());
        let (n, m) = (cfg.min.n(), cfg.min.m() as usize);
        let mut e = tl.expected_buffers();
        let mut inp = tl.input_buffers();
        for t in 0..tl.end() + 3 {
            let x = tl.expected(t);
            tl.expected_ports(t, &mut e);
            let sw = m * cfg.min.switches_per_stage();
            assert_eq!(e.dout, packed_bits(x.pe_dout.iter().copied(), n), "t={t}");
            let mut dst = vec![0; words_for(n * m)];
            pack_fields(&mut dst, m, &x.pe_dst);
            assert_eq!(e.dst, dst, "t={t}");
            assert_eq!((e.busy, e.sending), (x.busy, x.sending), "t={t}");
            assert_eq!((e.frame, e.pos), (x.frame as u64, x.pos as u64), "t={t}");
            let sc = x.stage_conflict.iter().enumerate();
            assert_eq!(e.conflict, sc.fold(0, |a, (s, &c)| a | (u64::from(c) << s)));
            assert_eq!(
                e.sw_crossed,
                packed_bits(x.cross.iter().flatten().copied(), sw)
            );
            let flags = x.switch_conflict.iter().flatten().copied();
            assert_eq!(e.sw_conflict, packed_bits(flags, sw), "t={t}");

            let s = tl.stimulus(t);
            tl.input_ports(t, &mut inp);
            assert_eq!(
                (inp.reset, inp.start, inp.single),
                (s.reset, s.start, s.single)
            );
            let mut first = vec![0; words_for(n * m)];
            pack_fields(&mut first, m, &s.first);
            assert_eq!(inp.first, first, "t={t}");
            assert_eq!(inp.din, packed_bits(s.din.iter().copied(), n), "t={t}");
        }
    }

    #[test]
    fn port_words_equal_the_packed_timeline_at_every_bit_time() {
        let mut rng = seeded(11);
        for net in Network::ALL {
            for m in 1..=6 {
                let min = Min::new(net, m).unwrap();
                for bits in [1, 70] {
                    agree(RunConfig::atape(min, bits, u64::from(m)).unwrap());
                }
                let p = Permutation::random(min.n(), &mut rng);
                agree(RunConfig::single(min, p, 5, 3).unwrap());
            }
        }
    }

    #[test]
    fn streaming_delivery_check_agrees_with_check_deliveries() {
        for net in Network::ALL {
            let min = Min::new(net, 3).unwrap();
            for bits in [3, 64, 130] {
                let tl = Timeline::new(RunConfig::atape(min, bits, 5).unwrap());
                let mut e = tl.expected_buffers();
                let flips: [Option<(u64, usize)>; 3] = [
                    None,
                    Some((tl.end() - 1, 6)),
                    Some((tl.config().t0() + 40, 2)),
                ];
                for flip in flips {
                    let mut check = DeliveryCheck::new(&tl);
                    let dout =
                        |t: u64, q: usize| tl.expected(t).pe_dout[q] ^ (flip == Some((t, q)));
                    for t in 0..tl.end() + 2 {
                        tl.expected_ports(t, &mut e);
                        if let Some((_, q)) = flip.filter(|&(ft, _)| ft == t) {
                            e.dout[q / 32] ^= 1 << (q % 32);
                        }
                        check.record(&tl, t, &e.dout);
                    }
                    let want = tl.check_deliveries(dout);
                    assert_eq!(check.finish(), want, "{min} B={bits} flip {flip:?}");
                    if flip.is_none() {
                        assert_eq!(want, Ok(64));
                    } else if flip == flips[1] {
                        // The last payload bit of the last frame, at PE 6.
                        assert!(want.is_err());
                    }
                }
            }
        }
    }
}
