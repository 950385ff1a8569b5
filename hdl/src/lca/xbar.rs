//! The crosspoint matrix (003 Figure 2) in its four groups — registers `xp_ac[x·d + x']`,
//! `xp_ad[x·u + k]`, `xp_bc[k·d + x]`, `xp_bd[k·u + k']` (input row, output column) — and
//! the pass-through and reverse datapaths (`docs/protocol.md` §6, §8).

use rust_hdl::prelude::*;

/// Crosspoint registers plus datapath. A crosspoint closes when its `set_*` bit is high at a
/// `commit`; `clr` (init or `ctl_clear`) opens everything and wins. `B→D` crosspoints exist
/// (any upper may connect to any upper) but no routing mode sets them.
#[derive(LogicBlock)]
pub struct Crossbar {
    /// One edge per bit-time.
    pub clock: Signal<In, Clock>,
    /// Apply the `set_*` bits this bit-time.
    pub commit: Signal<In, Bit>,
    /// Open every crosspoint.
    pub clr: Signal<In, Bit>,
    /// Reverse mode: conduct from `partner(out)` to `partner(in)`.
    pub rev: Signal<In, Bit>,
    /// Close `A(x)→C(x')` (`x·d + x'`).
    pub set_ac: Vec<Signal<In, Bit>>,
    /// Close `A(x)→D(k)` (`x·u + k`).
    pub set_ad: Vec<Signal<In, Bit>>,
    /// Close `B(k)→C(x)` (`k·d + x`).
    pub set_bc: Vec<Signal<In, Bit>>,
    /// Input lanes `A(x)` at `x·W ..`.
    pub a: Vec<Signal<In, Bit>>,
    /// Input lanes `B(k)` at `k·W ..`.
    pub b: Vec<Signal<In, Bit>>,
    /// Lanes for `C(x)` (pass-through or reverse).
    pub dc: Vec<Signal<Out, Bit>>,
    /// Lanes for `D(k)`.
    pub dd: Vec<Signal<Out, Bit>>,
    /// `A(x)` drives an output.
    pub a_drives: Vec<Signal<Out, Bit>>,
    /// `B(k)` drives an output.
    pub b_drives: Vec<Signal<Out, Bit>>,
    /// `C(x)` is driven.
    pub c_driven: Vec<Signal<Out, Bit>>,
    /// `D(k)` is driven.
    pub d_driven: Vec<Signal<Out, Bit>>,
    /// The crosspoints, by group.
    pub xp_ac: Vec<DFF<Bit>>,
    /// See `xp_ac`.
    pub xp_ad: Vec<DFF<Bit>>,
    /// See `xp_ac`.
    pub xp_bc: Vec<DFF<Bit>>,
    /// See `xp_ac`.
    pub xp_bd: Vec<DFF<Bit>>,
    _d: usize,
    _u: usize,
    _w: usize,
}

fn v<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}

impl Crossbar {
    /// A matrix for `d` downers, `u` uppers, `w` lanes.
    pub fn new(d: usize, u: usize, w: usize) -> Self {
        Crossbar {
            clock: Default::default(),
            commit: Default::default(),
            clr: Default::default(),
            rev: Default::default(),
            set_ac: v(d * d),
            set_ad: v(d * u),
            set_bc: v(u * d),
            a: v(d * w),
            b: v(u * w),
            dc: v(d * w),
            dd: v(u * w),
            a_drives: v(d),
            b_drives: v(u),
            c_driven: v(d),
            d_driven: v(u),
            xp_ac: v(d * d),
            xp_ad: v(d * u),
            xp_bc: v(u * d),
            xp_bd: v(u * u),
            _d: d,
            _u: u,
            _w: w,
        }
    }
}

impl Logic for Crossbar {
    #[hdl_gen]
    fn update(&mut self) {
        for d in self._d..(self._d + 1) {
            for u in self._u..(self._u + 1) {
                for w in self._w..(self._w + 1) {
                    // Registers.
                    for i in 0..(self._d * self._d) {
                        self.xp_ac[i].clock.next = self.clock.val();
                        self.xp_ac[i].d.next = (self.xp_ac[i].q.val()
                            | (self.commit.val() & self.set_ac[i].val()))
                            & !self.clr.val();
                    }
                    for i in 0..(self._d * self._u) {
                        self.xp_ad[i].clock.next = self.clock.val();
                        self.xp_ad[i].d.next = (self.xp_ad[i].q.val()
                            | (self.commit.val() & self.set_ad[i].val()))
                            & !self.clr.val();
                        self.xp_bc[i].clock.next = self.clock.val();
                        self.xp_bc[i].d.next = (self.xp_bc[i].q.val()
                            | (self.commit.val() & self.set_bc[i].val()))
                            & !self.clr.val();
                    }
                    for i in 0..(self._u * self._u) {
                        self.xp_bd[i].clock.next = self.clock.val();
                        self.xp_bd[i].d.next = self.xp_bd[i].q.val() & !self.clr.val();
                    }
                    // Which inputs drive, which outputs are driven.
                    for x in 0..self._d {
                        self.a_drives[x].next = false;
                        self.c_driven[x].next = false;
                        for y in 0..self._d {
                            self.a_drives[x].next =
                                self.a_drives[x].val() | self.xp_ac[x * d + y].q.val();
                            self.c_driven[x].next =
                                self.c_driven[x].val() | self.xp_ac[y * d + x].q.val();
                        }
                        for k in 0..self._u {
                            self.a_drives[x].next =
                                self.a_drives[x].val() | self.xp_ad[x * u + k].q.val();
                            self.c_driven[x].next =
                                self.c_driven[x].val() | self.xp_bc[k * d + x].q.val();
                        }
                    }
                    for k in 0..self._u {
                        self.b_drives[k].next = false;
                        self.d_driven[k].next = false;
                        for x in 0..self._d {
                            self.b_drives[k].next =
                                self.b_drives[k].val() | self.xp_bc[k * d + x].q.val();
                            self.d_driven[k].next =
                                self.d_driven[k].val() | self.xp_ad[x * u + k].q.val();
                        }
                        for j in 0..self._u {
                            self.b_drives[k].next =
                                self.b_drives[k].val() | self.xp_bd[k * u + j].q.val();
                            self.d_driven[k].next =
                                self.d_driven[k].val() | self.xp_bd[j * u + k].q.val();
                        }
                    }
                    // Datapath. Forward: out o <- in i for closed i->o. Reverse: a closed
                    // i->o carries partner(o) -> partner(i); partners A(x)<->C(x), B(k)<->D(k).
                    for l in 0..self._w {
                        for x in 0..self._d {
                            self.dc[x * w + l].next = false;
                            for y in 0..self._d {
                                if self.rev.val() {
                                    self.dc[x * w + l].next = self.dc[x * w + l].val()
                                        | (self.xp_ac[x * d + y].q.val() & self.a[y * w + l].val());
                                } else {
                                    self.dc[x * w + l].next = self.dc[x * w + l].val()
                                        | (self.xp_ac[y * d + x].q.val() & self.a[y * w + l].val());
                                }
                            }
                            for k in 0..self._u {
                                if self.rev.val() {
                                    self.dc[x * w + l].next = self.dc[x * w + l].val()
                                        | (self.xp_ad[x * u + k].q.val() & self.b[k * w + l].val());
                                } else {
                                    self.dc[x * w + l].next = self.dc[x * w + l].val()
                                        | (self.xp_bc[k * d + x].q.val() & self.b[k * w + l].val());
                                }
                            }
                        }
                        for k in 0..self._u {
                            self.dd[k * w + l].next = false;
                            for x in 0..self._d {
                                if self.rev.val() {
                                    self.dd[k * w + l].next = self.dd[k * w + l].val()
                                        | (self.xp_bc[k * d + x].q.val() & self.a[x * w + l].val());
                                } else {
                                    self.dd[k * w + l].next = self.dd[k * w + l].val()
                                        | (self.xp_ad[x * u + k].q.val() & self.a[x * w + l].val());
                                }
                            }
                            for j in 0..self._u {
                                if self.rev.val() {
                                    self.dd[k * w + l].next = self.dd[k * w + l].val()
                                        | (self.xp_bd[k * u + j].q.val() & self.b[j * w + l].val());
                                } else {
                                    self.dd[k * w + l].next = self.dd[k * w + l].val()
                                        | (self.xp_bd[j * u + k].q.val() & self.b[j * w + l].val());
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
