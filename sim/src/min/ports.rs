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
//! fetched for all PEs once per 64 payload bits and packed bit-time by bit-time.
//!
//! [`DeliveryCheck`] is [`Timeline::check_deliveries`] in streaming form: it reads the
//! RTL's `dout` bit-time by bit-time and checks each frame's messages when it has left.

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

/// One 64-bit word of every PE's current payload (word `w` of frame `i`'s messages,
/// fetched once per 64 payload bits), from which a bit-time's payload bits are packed.
#[derive(Debug, Clone)]
struct PayloadWords {
    /// `(frame, word)` held, if any.
    key: Option<(usize, usize)>,
    /// Per PE.
    words: Vec<u64>,
}

impl PayloadWords {
    fn new(n: usize) -> Self {
        Self {
            key: None,
            words: vec![0; n],
        }
    }

    /// Holds word `k / 64` of frame `i`'s messages (`word(q, w)` for PE `q`), then packs
    /// bit `k % 64` of every PE's into `out` (PE `q` at bit `q`).
    #[inline]
    fn pack_bit(
        &mut self,
        i: usize,
        k: usize,
        out: &mut [u32],
        word: impl Fn(usize, usize) -> u64,
    ) {
        let w = k / 64;
        if self.key != Some((i, w)) {
            for (q, x) in self.words.iter_mut().enumerate() {
                *x = word(q, w);
            }
            self.key = Some((i, w));
        }
        let shift = k % 64;
        for (o, chunk) in out.iter_mut().zip(self.words.chunks(32)) {
            let mut acc = 0u32;
            for (b, &x) in chunk.iter().enumerate() {
                acc |= (((x >> shift) & 1) as u32) << b;
            }
            *o = acc;
        }
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
    payload: PayloadWords,
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
    payload: PayloadWords,
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
            payload: PayloadWords::new(n),
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
            payload: PayloadWords::new(n),
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
                // PE q receives the message of the source its transit delivers.
                let (row, arrivals) = (self.row(i), &self.transit(i).arrivals);
                let payloads = self.payloads();
                e.payload
                    .pack_bit(i, (p - m) as usize, &mut e.dout, |q, w| {
                        let src = arrivals[q];
                        payloads.word(src, row.dst(src), w)
                    });
            }
        }

        for s in 0..w {
            // Decision of frame i at stage s during t0 + i·F + 2s, visible after it.
            let first_visible = t0 + 2 * s as u64 + 1;
            let i =
                (t >= first_visible).then(|| ((t - first_visible) / f).min(frames - 1) as usize);
            if i != e.stage_frame[s] {
                let mut any = false;
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
                    any |= x;
                }
                e.stage_frame[s] = i;
                e.conflict = (e.conflict & !(1 << s)) | (u64::from(any) << s);
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
        match payload_at {
            Some((i, p)) => {
                let (row, payloads) = (self.row(i), self.payloads());
                inp.payload
                    .pack_bit(i, (p - m) as usize, &mut inp.din, |j, w| {
                        payloads.word(j, row.dst(j), w)
                    });
            }
            None => {
                inp.din.fill(0);
                for j in 0..n {
                    if self.junk(t, j) {
                        inp.din[j / 32] |= 1 << (j % 32);
                    }
                }
            }
        }
    }
}

/// [`Timeline::check_deliveries`] in streaming form: feed it the RTL's `dout` words of
/// every bit-time ([`DeliveryCheck::record`]); it checks the messages of each frame once
/// the frame has left the network. Allocation-free per bit-time.
#[derive(Debug, Clone)]
pub struct DeliveryCheck {
    /// `received[w*n + q]`: word `w` of the payload PE `q` is receiving.
    received: Vec<u64>,
    n: usize,
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
            n,
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
        let row = &mut self.received[(k / 64) * n..(k / 64 + 1) * n];
        if k.is_multiple_of(64) {
            row.fill(0);
        }
        // Only the PEs receiving a 1 (words of dout beyond n bits are zero).
        for (wi, &word) in dout.iter().enumerate().take(n.div_ceil(32)) {
            let mut bits = word;
            while bits != 0 {
                let q = wi * 32 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if q < n {
                    row[q] |= 1u64 << (k % 64);
                }
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
                let got = self.received[w * self.n + q];
                let diff = (got ^ tl.payloads().word(src, q, w)) & mask;
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
