//! Banks of receive and output shift registers (`docs/protocol.md` §5, §6), one row per
//! port, `W` lanes per bit-time, lane `W−1` the earlier bit.

use rust_hdl::prelude::*;

/// `n` receive registers of `len` bits: `rx ← (rx << W) | lanes` when `en`, zero on `clr`.
/// Only `min(W, len)` lanes can reach a register, so that is the width of each `din` row.
#[derive(LogicBlock)]
pub struct RxBank {
    /// One edge per bit-time.
    pub clock: Signal<In, Clock>,
    /// Shift this bit-time.
    pub en: Signal<In, Bit>,
    /// Clear (commit or init); wins over `en`.
    pub clr: Signal<In, Bit>,
    /// Lanes, row `i` at `i·win .. i·win + win`.
    pub din: Vec<Signal<In, Bit>>,
    /// Register contents, row `i` at `i·len ..`.
    pub q: Vec<Signal<Out, Bit>>,
    r: Vec<DFF<Bit>>,
    _n: usize,
    _len: usize,
    _win: usize,
}

impl RxBank {
    /// `n` registers of `len` bits taking `win ≤ len` lanes per bit-time.
    pub fn new(n: usize, len: usize, win: usize) -> Self {
        assert!(win <= len, "RxBank: {win} lanes into {len} bits (bug)");
        RxBank {
            clock: Default::default(),
            en: Default::default(),
            clr: Default::default(),
            din: (0..n * win).map(|_| Default::default()).collect(),
            q: (0..n * len).map(|_| Default::default()).collect(),
            r: (0..n * len).map(|_| Default::default()).collect(),
            _n: n,
            _len: len,
            _win: win,
        }
    }
}

impl Logic for RxBank {
    #[hdl_gen]
    fn update(&mut self) {
        for len in self._len..(self._len + 1) {
            for win in self._win..(self._win + 1) {
                for i in 0..self._n {
                    for b in 0..self._win {
                        self.r[i * len + b].clock.next = self.clock.val();
                        self.r[i * len + b].d.next = self.r[i * len + b].q.val();
                        if self.en.val() {
                            self.r[i * len + b].d.next = self.din[i * win + b].val();
                        }
                    }
                    for b in self._win..self._len {
                        self.r[i * len + b].clock.next = self.clock.val();
                        self.r[i * len + b].d.next = self.r[i * len + b].q.val();
                        if self.en.val() {
                            self.r[i * len + b].d.next = self.r[i * len + b - win].q.val();
                        }
                    }
                    for b in 0..self._len {
                        if self.clr.val() {
                            self.r[i * len + b].d.next = false;
                        }
                        self.q[i * len + b].next = self.r[i * len + b].q.val();
                    }
                }
            }
        }
    }
}

/// `n` output registers of `len = m·W` bits; the port is the top `W` bits. Every bit-time
/// either loads `ld` (a commit in a set-up mode), takes `pd` at the top (`PASS`/`REV`),
/// or shifts up by `W` with zeros entering. `clr` (init) zeroes everything.
#[derive(LogicBlock)]
pub struct TxBank {
    /// One edge per bit-time.
    pub clock: Signal<In, Clock>,
    /// Load `ld` this bit-time.
    pub load: Signal<In, Bit>,
    /// Take `pd` this bit-time (data modes).
    pub pass: Signal<In, Bit>,
    /// Clear (init); wins over everything.
    pub clr: Signal<In, Bit>,
    /// Load values, row `i` at `i·len ..`.
    pub ld: Vec<Signal<In, Bit>>,
    /// Pass-through lanes, row `i` at `i·W ..`.
    pub pd: Vec<Signal<In, Bit>>,
    /// Output lanes, row `i` at `i·W ..`.
    pub out: Vec<Signal<Out, Bit>>,
    r: Vec<DFF<Bit>>,
    _n: usize,
    _len: usize,
    _w: usize,
}

impl TxBank {
    /// `n` registers of `len` bits (a multiple of `w`).
    pub fn new(n: usize, len: usize, w: usize) -> Self {
        assert!(
            len.is_multiple_of(w) && len >= w,
            "TxBank: {len} bits for {w} lanes (bug)"
        );
        TxBank {
            clock: Default::default(),
            load: Default::default(),
            pass: Default::default(),
            clr: Default::default(),
            ld: (0..n * len).map(|_| Default::default()).collect(),
            pd: (0..n * w).map(|_| Default::default()).collect(),
            out: (0..n * w).map(|_| Default::default()).collect(),
            r: (0..n * len).map(|_| Default::default()).collect(),
            _n: n,
            _len: len,
            _w: w,
        }
    }
}

impl Logic for TxBank {
    #[hdl_gen]
    fn update(&mut self) {
        for len in self._len..(self._len + 1) {
            for w in self._w..(self._w + 1) {
                for top in (self._len - self._w)..(self._len - self._w + 1) {
                    for i in 0..self._n {
                        for b in 0..self._w {
                            self.r[i * len + b].clock.next = self.clock.val();
                            self.r[i * len + b].d.next = false;
                        }
                        for b in self._w..self._len {
                            self.r[i * len + b].clock.next = self.clock.val();
                            self.r[i * len + b].d.next = self.r[i * len + b - w].q.val();
                        }
                        for b in 0..self._len {
                            if self.pass.val() {
                                self.r[i * len + b].d.next = false;
                            }
                        }
                        for b in 0..self._w {
                            if self.pass.val() {
                                self.r[i * len + top + b].d.next = self.pd[i * w + b].val();
                            }
                            self.out[i * w + b].next = self.r[i * len + top + b].q.val();
                        }
                        for b in 0..self._len {
                            if self.load.val() {
                                self.r[i * len + b].d.next = self.ld[i * len + b].val();
                            }
                            if self.clr.val() {
                                self.r[i * len + b].d.next = false;
                            }
                        }
                    }
                }
            }
        }
    }
}
