//! The PE interface unit of `docs/interface.md` §5: one per PE, between the top-level
//! load/result ports and the PE's link to its level-0 switch.
//!
//! [`Pe::up_lanes`] is the PE's up-wire (the top `W` bits of its transmit register);
//! [`Pe::edge`] applies one bit-time's rules given the controller's state and the PE's
//! down-wire lanes.

use super::super::bits::{BitReg, PacketBits};
use super::super::params::PacketFormat;
use super::params::{NetParams, Phase};
use crate::lcan::routing::Algorithm;

/// What the controller tells every PE in one bit-time (its registers, not its inputs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeCtl {
    /// Current phase.
    pub phase: Phase,
    /// Bit-time within the current step.
    pub bt: usize,
    /// Whether this is the last bit-time of the step.
    pub last: bool,
    /// Set-up step `s` of the pass.
    pub step: usize,
    /// `H` of the pass.
    pub top: usize,
    /// R3: the pass being run, `pk`.
    pub pass: usize,
}

impl PeCtl {
    /// Whether [`Pe::edge`] does nothing in this bit-time but shift the transmit register
    /// (every set-up bit-time but an `UP` step's last: a PE with an empty transmit
    /// register can skip it).
    pub fn only_shifts(&self) -> bool {
        match self.phase {
            Phase::Idle | Phase::Load | Phase::Probe | Phase::Down | Phase::Done => true,
            Phase::Up => !self.last,
            Phase::Plan | Phase::Arm | Phase::Deliv | Phase::Data | Phase::Src | Phase::Ack => {
                false
            }
        }
    }
}

/// The state of one PE interface (`docs/interface.md` §5.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pe {
    /// Latched `act`.
    pub act: bool,
    /// Latched destination (plain PE number).
    pub dst: u64,
    /// Latched message.
    pub msg: u64,
    /// The destination's label digits.
    pub enc: u64,
    /// Own label digits (a constant).
    pub s_enc: u64,
    /// LCA level of `(p, dst)` (meaningful for an in-range destination).
    pub h: usize,
    /// Acknowledged.
    pub sent: bool,
    /// Sends a frame in this pass.
    pub snd: bool,
    /// Completed receiving a frame in this pass.
    pub got: bool,
    /// Transmit register (`TX` bits).
    pub tx: BitReg,
    /// Frame receive register (`NF·W` bits).
    pub rxf: BitReg,
    /// R3: latched `pass`.
    pub pass: usize,
    /// R3: latched `route`, one output-port field per switch of the path (hop 0 first).
    pub route: Vec<u64>,
    /// `rmsg` as a value, kept with `rxf` (so the outputs cost no per-bit work).
    rmsg: u64,
    /// `M`.
    m: usize,
    /// Where message bit 0 is below the top of `rxf`: 1 (R1/R2 frame), `W` (R3: `V` takes
    /// a whole bit-time).
    msg_off: usize,
}

/// Effects of one PE edge on the network-wide state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PeEvents {
    /// A second frame arrived (`error`).
    pub dup: bool,
    /// `sent` rose at this edge.
    pub delivered: bool,
}

/// The serial PE-number-to-label-digits conversion of `docs/interface.md` §5.2: `AB` steps
/// of [`dbl`], most significant bit of `dst` first, starting from 0. Returns the digits and
/// whether some step overflowed (a final carry: `dst ≥ n`).
pub fn serial_encode(fmt: &PacketFormat, abin: usize, dst: u64) -> (u64, bool) {
    let mut enc = 0;
    let mut ovf = false;
    for i in (0..abin).rev() {
        let (e, c) = dbl(fmt, enc, (dst >> i) & 1);
        enc = e;
        ovf |= c;
    }
    (enc, ovf)
}

/// One step of the conversion: `2·enc + bit` in mixed radix (digit 0 first); returns the new
/// digits and the final carry (dropped by the hardware).
pub fn dbl(fmt: &PacketFormat, enc: u64, bit: u64) -> (u64, bool) {
    let mut c = bit;
    let mut out = 0;
    for &(off, w, radix) in &fmt.digits {
        let digit = (enc >> off) & ((1u64 << w) - 1);
        let mut v = 2 * digit + c;
        c = 0;
        if v >= radix as u64 {
            v -= radix as u64;
            c = 1;
        }
        out |= v << off;
    }
    (out, c == 1)
}

/// The LCA level of two encoded addresses of a tree or cb network (`docs/interface.md`
/// §5.2): the highest digit position where they differ, 0 if none.
pub fn digit_lca(fmt: &PacketFormat, a: u64, b: u64) -> usize {
    (0..fmt.digits.len())
        .rev()
        .find(|&j| fmt.digit(a, j) != fmt.digit(b, j))
        .unwrap_or(0)
}

impl Pe {
    /// A PE in its reset state with own label digits `s_enc`.
    pub fn new(np: &NetParams, s_enc: u64) -> Self {
        Pe {
            act: false,
            dst: 0,
            msg: 0,
            enc: 0,
            s_enc,
            h: 0,
            sent: false,
            snd: false,
            got: false,
            tx: BitReg::new(np.pe_tx_bits()),
            rxf: BitReg::new(np.pe_rx_bits()),
            pass: 0,
            route: Vec::new(),
            rmsg: 0,
            m: np.msg_bits,
            msg_off: if np.algorithm == Algorithm::R3 {
                np.width()
            } else {
                1
            },
        }
    }

    /// Pending: active and not yet acknowledged.
    pub fn pending(&self) -> bool {
        self.act && !self.sent
    }

    /// The up-wire lanes of this bit-time.
    pub fn up_lanes(&self, w: usize) -> u64 {
        self.tx.top(w)
    }

    /// `valid` output.
    pub fn valid(&self) -> bool {
        let n = self.rxf.len();
        self.rxf.get(n - 1)
    }

    /// `rmsg` output (`M` bits, unmasked): `rxf[NF·W−2−i]` at bit `i` (R3:
    /// `rxf[NF·W−1−W−i]`).
    pub fn rmsg(&self, m: usize) -> u64 {
        let n = self.rxf.len();
        let top = n - 1 - self.msg_off;
        (0..m).fold(0, |acc, i| acc | (u64::from(self.rxf.get(top - i)) << i))
    }

    /// [`Pe::rmsg`] of the interface's own `M`, kept up to date with `rxf`.
    pub fn rmsg_value(&self) -> u64 {
        self.rmsg
    }

    /// The start edge: latch the inputs, clear everything else.
    pub fn start(&mut self, act: bool, dst: u64, msg: u64, enc: u64, h: usize) {
        self.act = act;
        self.dst = dst;
        self.msg = msg;
        self.enc = enc;
        self.h = h;
        self.sent = false;
        self.snd = false;
        self.got = false;
        self.tx.clear();
        self.rxf.clear();
        self.rmsg = 0;
    }

    /// R3's extra start-edge latches: the pass and the route fields.
    pub fn start_r3(&mut self, pass: usize, route: &[u64]) {
        self.pass = pass;
        self.route = route.to_vec();
    }

    /// R3: the source-routed stream (`docs/interface.md` §11.3) as packet bits: `V`, fields
    /// `0 … 2h`, the message.
    fn stream(&self, np: &NetParams) -> PacketBits {
        let w = np.width();
        let (f, nf) = (np.route_field_bits(), np.field_bit_times());
        let mut p = PacketBits::new();
        p.push(1, 1).push(0, w - 1);
        for j in 0..2 * self.h + 1 {
            let field = self.route.get(j).copied().unwrap_or(0);
            p.push(0, nf * w - f).push(field, f);
        }
        for i in 0..self.m {
            p.push((self.msg >> i) & 1, 1);
        }
        p
    }

    /// The frame receive rule (`docs/interface.md` §5.5, R3 §11.3).
    fn receive(&mut self, input: u64, w: usize, ev: &mut PeEvents) {
        let top = self.rxf.len() - 1;
        if !self.rxf.get(top) {
            self.rxf.shift_in(input, w);
            self.rmsg = self.rmsg(self.m);
            if self.rxf.get(top) {
                self.got = true;
            }
        } else if input != 0 {
            ev.dup = true;
        }
    }

    /// One edge (neither reset nor start): `input` is the down-wire lanes of this bit-time.
    pub fn edge(&mut self, np: &NetParams, ctl: &PeCtl, input: u64) -> PeEvents {
        let w = np.width();
        let mut ev = PeEvents::default();
        let mut load: Option<PacketBits> = None;
        let mut frame = false;
        let mut ack = false;
        let mut stream = false;
        match ctl.phase {
            Phase::Plan => {
                self.snd = false;
                self.got = false;
            }
            Phase::Arm => match np.algorithm {
                Algorithm::R1 => {
                    if self.pending() && self.h == ctl.top {
                        load = Some(self.p1(np));
                    }
                }
                Algorithm::R2 => {
                    if self.pending() {
                        load = Some(self.probe(np));
                    }
                    self.snd = self.pending();
                }
                Algorithm::R3 => {
                    self.snd = self.pending() && self.pass == ctl.pass;
                    if self.snd {
                        stream = true;
                    }
                }
            },
            Phase::Up => {
                if ctl.last
                    && ctl.step < ctl.top
                    && self.pending()
                    && self.h + 1 + ctl.step == ctl.top
                {
                    load = Some(self.p1(np));
                }
            }
            Phase::Deliv => {
                if ctl.bt == 0 && np.algorithm == Algorithm::R1 {
                    let pad = np.fmt.n2 * w - np.fmt.p2;
                    self.snd = (input >> (w - 1 - pad)) & 1 == 1;
                }
                if ctl.bt == 1 && self.snd {
                    frame = true;
                }
            }
            Phase::Data | Phase::Src => {
                let got_before = self.got;
                self.receive(input, w, &mut ev);
                if ctl.last && got_before {
                    ack = true;
                }
            }
            Phase::Ack => {
                if self.snd && input != 0 && !self.sent {
                    self.sent = true;
                    ev.delivered = true;
                }
            }
            Phase::Idle | Phase::Load | Phase::Probe | Phase::Down | Phase::Done => {}
        }
        let len = self.tx.len();
        if let Some(p) = load {
            p.load_into(&mut self.tx, w);
        } else if stream {
            // Left-aligned: stream bit 0 at the top of tx.
            let p = self.stream(np);
            self.tx.clear();
            for i in 0..p.len() {
                self.tx.set(len - 1 - i, p.bit(i));
            }
        } else if frame {
            self.tx.clear();
            self.tx.set(len - 1, true);
            for i in 0..np.msg_bits {
                self.tx.set(len - 2 - i, (self.msg >> i) & 1 == 1);
            }
        } else if ack {
            self.tx.clear();
            self.tx.set(len - 1, true);
        } else {
            self.tx.shift_in(0, w);
        }
        ev
    }

    fn p1(&self, np: &NetParams) -> PacketBits {
        let (hb, ab) = (np.fmt.hb, np.fmt.ab);
        let mut p = PacketBits::new();
        p.push(1, 1)
            .push(self.h as u64, hb)
            .push(self.s_enc, ab)
            .push(self.enc, ab);
        p
    }

    fn probe(&self, np: &NetParams) -> PacketBits {
        let mut p = PacketBits::new();
        p.push(1, 1)
            .push(self.h as u64, np.fmt.hb)
            .push(self.enc, np.fmt.ab);
        p
    }
}
