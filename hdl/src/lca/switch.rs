//! The LCA switch (003 §2.1, `docs/protocol.md`): `d` downers, `u` uppers, the crosspoint
//! matrix, two arbiters, receive/output registers and the glue that turns received packets
//! into requests (§7) and granted requests into closed crosspoints and forwarded packets.
//!
//! DOWN arbiter slots: `S(k)` = `k`, `X(x)` = `u + x`, `D(k)` = `u + d + k` (requesters
//! `k`, `u + x`, `k`); need class 0 (up-wire `A`) covers `S` and `X`, class 1 (down-wire
//! `C`) covers `X` and `D`. Route-decoder addresses: `S(k).s`, `X(x).s`, `X(x).t`, `D(k).t`.
//!
//! A switch of a Π network (`SwitchTopology::Table`) has the table decoder and two more
//! inputs, `tab_dn` and `tab_up`, carrying its route ROM (`docs/protocol.md` §1); the UP
//! arbiter then allows only the uppers of `up(X, c)` (tree/cb: every upper).

use super::arbiter::{Arbiter, ArbiterShape};
use super::control::StepControl;
use super::decoder::RouteDecoder;
use super::keys::KeyCompare;
use super::layout::Layout;
use super::shift::{RxBank, TxBank};
use super::xbar::Crossbar;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchTopology};
use rust_hdl::prelude::*;

/// One LCA switch; see the module documentation and `docs/protocol.md` §2 for the ports.
#[derive(LogicBlock)]
pub struct LcaSwitch {
    /// One edge per bit-time.
    pub clock: Signal<In, Clock>,
    /// Inputs from downers, `A(x)` lane `l` at `x·W + l`.
    pub a: Vec<Signal<In, Bit>>,
    /// Inputs from uppers, `B(k)` at `k·W ..`.
    pub b: Vec<Signal<In, Bit>>,
    /// Outputs to downers, `C(x)` at `x·W ..`.
    pub c: Vec<Signal<Out, Bit>>,
    /// Outputs to uppers, `D(k)` at `k·W ..`.
    pub d: Vec<Signal<Out, Bit>>,
    /// The switch's level (constant per instance).
    pub level: Signal<In, Bits<4>>,
    /// Broadcast control.
    pub ctl_init: Signal<In, Bit>,
    /// See `ctl_init`.
    pub ctl_mode: Signal<In, Bits<3>>,
    /// See `ctl_init`.
    pub ctl_last: Signal<In, Bit>,
    /// See `ctl_init`.
    pub ctl_clear: Signal<In, Bit>,
    /// See `ctl_init`.
    pub ctl_level: Signal<In, Bits<4>>,
    /// Random policy only: the top-level seed and this instance's salts.
    pub seed16: Vec<Signal<In, Bits<16>>>,
    /// See `seed16`.
    pub salt_up: Vec<Signal<In, Bits<16>>>,
    /// See `seed16`.
    pub salt_dn: Vec<Signal<In, Bits<16>>>,
    /// Π networks only: the switch's route ROM, `down_rom[t]` at `t·d ..`
    /// (`docs/protocol.md` §1; driven by the ROM instance beside the switch).
    pub tab_dn: Vec<Signal<In, Bit>>,
    /// Π networks only: `up_rom[h][t]` at `(h·n + t)·u ..`.
    pub tab_up: Vec<Signal<In, Bit>>,
    /// Step control.
    pub step: StepControl,
    /// Receive registers of `A` (`P1` bits each) and `B` (`P2` bits each).
    pub rxa: RxBank,
    /// See `rxa`.
    pub rxb: RxBank,
    /// Output registers of `C` and `D`.
    pub txc: TxBank,
    /// See `txc`.
    pub txd: TxBank,
    /// Crosspoints and datapath.
    pub xbar: Crossbar,
    /// Route decoder.
    pub dec: RouteDecoder,
    /// Claim keys.
    pub keys: KeyCompare,
    /// The UP arbiter (requesters `A(x)`, wires: uppers).
    pub up: Arbiter,
    /// The DOWN arbiter (requesters `B(k)`, `A(x)`; wires: downers).
    pub dn: Arbiter,
    /// Waiting winners, a `P1` packet per downer.
    pub win: Vec<DFF<Bit>>,
    eq1: Vec<Signal<Local, Bit>>,
    eqr: Vec<Signal<Local, Bit>>,
    su: Vec<Signal<Local, Bit>>,
    ss_b: Vec<Signal<Local, Bit>>,
    sd_b: Vec<Signal<Local, Bit>>,
    ss_x: Vec<Signal<Local, Bit>>,
    sd_x: Vec<Signal<Local, Bit>>,
    store: Vec<Signal<Local, Bit>>,
    drop: Signal<Local, Bit>,
    _d: usize,
    _u: usize,
    _w: usize,
    _l: usize,
    _hb: usize,
    _ab: usize,
    _p1: usize,
    _p2: usize,
    _pr: usize,
    _lc: usize,
    _ld: usize,
    _off_c: usize,
    _off_d: usize,
    _wa: usize,
    _wb: usize,
    _kb: usize,
    _n: usize,
    _rnd: usize,
    _ldec: usize,
    _pi: usize,
    _ntd: usize,
    _ntu: usize,
}

fn v<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}

impl LcaSwitch {
    /// The switch for a layout.
    pub fn new(lay: &Layout) -> Self {
        let (d, u, w) = (lay.d, lay.u, lay.w);
        let policy = lay.params.policy;
        let rnd = usize::from(policy == ArbiterPolicy::Random);
        let n = lay.dn_slots;
        let pes = match lay.params.topology {
            SwitchTopology::Table { pes } => pes,
            _ => 0,
        };
        let pi = usize::from(pes > 0);
        // The digit decoder needs the one-hot level; the table decoder does not.
        let ldec = if pi == 1 { 0 } else { lay.l };
        let up = ArbiterShape {
            requester: (0..d).collect(),
            r: d,
            wires: u,
            class_slots: std::iter::once(0..d).collect(),
            policy,
        };
        let dn = ArbiterShape {
            requester: (0..u).chain((0..d).map(|x| u + x)).chain(0..u).collect(),
            r: u + d,
            wires: d,
            class_slots: vec![0..u + d, u..n],
            policy,
        };
        LcaSwitch {
            clock: Default::default(),
            a: v(d * w),
            b: v(u * w),
            c: v(d * w),
            d: v(u * w),
            level: Default::default(),
            ctl_init: Default::default(),
            ctl_mode: Default::default(),
            ctl_last: Default::default(),
            ctl_clear: Default::default(),
            ctl_level: Default::default(),
            seed16: v(rnd),
            salt_up: v(rnd),
            salt_dn: v(rnd),
            tab_dn: v(pes * d),
            tab_up: v(pi * lay.l * pes * u),
            step: StepControl::new(lay.fmt.n1, lay.fmt.n2, lay.fmt.nr, ldec),
            rxa: RxBank::new(d, lay.p1, lay.wa),
            rxb: RxBank::new(u, lay.p2, lay.wb),
            txc: TxBank::new(d, lay.lc, w),
            txd: TxBank::new(u, lay.ld, w),
            xbar: Crossbar::new(d, u, w),
            dec: RouteDecoder::new(&lay.params, &lay.fmt, lay.dec_slots),
            keys: KeyCompare::new(2 * u, lay.kb),
            up: Arbiter::new(&up),
            dn: Arbiter::new(&dn),
            win: v(d * lay.p1),
            eq1: v(d),
            eqr: v(d),
            su: v(u * d),
            ss_b: v(d * u),
            sd_b: v(d * u),
            ss_x: v(d * d),
            sd_x: v(d * d),
            store: v(d),
            drop: Default::default(),
            _d: d,
            _u: u,
            _w: w,
            _l: lay.l,
            _hb: lay.hb,
            _ab: lay.ab,
            _p1: lay.p1,
            _p2: lay.p2,
            _pr: lay.pr,
            _lc: lay.lc,
            _ld: lay.ld,
            _off_c: lay.off_c,
            _off_d: lay.off_d,
            _wa: lay.wa,
            _wb: lay.wb,
            _kb: lay.kb,
            _n: n,
            _rnd: rnd,
            _ldec: ldec,
            _pi: pi,
            _ntd: pes * d,
            _ntu: pi * lay.l * pes * u,
        }
    }
}

impl Logic for LcaSwitch {
    #[hdl_gen]
    fn update(&mut self) {
        // Control, clocks, broadcast inputs.
        self.step.clock.next = self.clock.val();
        self.step.ctl_init.next = self.ctl_init.val();
        self.step.ctl_last.next = self.ctl_last.val();
        self.step.ctl_mode.next = self.ctl_mode.val();
        self.step.ctl_level.next = self.ctl_level.val();
        self.step.level.next = self.level.val();
        self.rxa.clock.next = self.clock.val();
        self.rxb.clock.next = self.clock.val();
        self.txc.clock.next = self.clock.val();
        self.txd.clock.next = self.clock.val();
        self.xbar.clock.next = self.clock.val();
        self.up.clock.next = self.clock.val();
        self.dn.clock.next = self.clock.val();
        self.up.init.next = self.ctl_init.val();
        self.dn.init.next = self.ctl_init.val();
        self.up.prep.next = self.step.prep_up.val();
        self.dn.prep.next = self.step.prep_dn.val();
        self.up.commit.next = self.step.commit.val();
        self.dn.commit.next = self.step.commit.val();
        for _once in 0..self._rnd {
            self.up.seed16[0].next = self.seed16[0].val();
            self.dn.seed16[0].next = self.seed16[0].val();
            self.up.salt[0].next = self.salt_up[0].val();
            self.dn.salt[0].next = self.salt_dn[0].val();
        }
        // Receive registers and the crossbar see the input lanes.
        self.rxa.en.next = self.step.rx_a_en.val();
        self.rxb.en.next = self.step.rx_b_en.val();
        self.rxa.clr.next = self.step.commit.val() | self.ctl_init.val();
        self.rxb.clr.next = self.step.commit.val() | self.ctl_init.val();
        self.xbar.commit.next = self.step.commit.val();
        self.xbar.clr.next = self.ctl_init.val() | self.ctl_clear.val();
        self.xbar.rev.next = self.step.m_rev.val();
        for w in self._w..(self._w + 1) {
            for wa in self._wa..(self._wa + 1) {
                for x in 0..self._d {
                    for l in 0..self._wa {
                        self.rxa.din[x * wa + l].next = self.a[x * w + l].val();
                    }
                    for l in 0..self._w {
                        self.xbar.a[x * w + l].next = self.a[x * w + l].val();
                    }
                }
            }
            for wb in self._wb..(self._wb + 1) {
                for k in 0..self._u {
                    for l in 0..self._wb {
                        self.rxb.din[k * wb + l].next = self.b[k * w + l].val();
                    }
                    for l in 0..self._w {
                        self.xbar.b[k * w + l].next = self.b[k * w + l].val();
                    }
                }
            }
        }
        // Is a packet's LCA level this switch's level? (UP: P1 layout, PROBE: probe layout.)
        for p1 in self._p1..(self._p1 + 1) {
            for ab in self._ab..(self._ab + 1) {
                for x in 0..self._d {
                    self.eq1[x].next = true;
                    self.eqr[x].next = true;
                    for bit in 0..self._hb {
                        self.eq1[x].next = self.eq1[x].val()
                            & !(self.rxa.q[x * p1 + 2 * ab + bit].val()
                                ^ self.level.val().get_bit(bit));
                        self.eqr[x].next = self.eqr[x].val()
                            & !(self.rxa.q[x * p1 + ab + bit].val()
                                ^ self.level.val().get_bit(bit));
                    }
                    for bit in self._hb..4 {
                        self.eq1[x].next = self.eq1[x].val() & !self.level.val().get_bit(bit);
                        self.eqr[x].next = self.eqr[x].val() & !self.level.val().get_bit(bit);
                    }
                }
            }
        }
        // Route decoder: S(k).s, X(x).s, X(x).t, D(k).t.
        for j in 0..self._ldec {
            self.dec.level_is[j].next = self.step.level_is[j].val();
        }
        // Table decoder (Π): the ROM's rows, and each downer's UP packet or probe (t, h).
        for i in 0..self._ntd {
            self.dec.tab_dn[i].next = self.tab_dn[i].val();
        }
        for i in 0..self._ntu {
            self.dec.tab_up[i].next = self.tab_up[i].val();
        }
        for _table in 0..self._pi {
            for p1 in self._p1..(self._p1 + 1) {
                for ab in self._ab..(self._ab + 1) {
                    for hb in self._hb..(self._hb + 1) {
                        for x in 0..self._d {
                            for i in 0..self._ab {
                                self.dec.uaddr[x * ab + i].next = self.rxa.q[x * p1 + i].val();
                            }
                            for i in 0..self._hb {
                                self.dec.uh[x * hb + i].next =
                                    self.rxa.q[x * p1 + 2 * ab + i].val();
                                if self.step.m_probe.val() {
                                    self.dec.uh[x * hb + i].next =
                                        self.rxa.q[x * p1 + ab + i].val();
                                }
                            }
                        }
                    }
                }
            }
        }
        for d in self._d..(self._d + 1) {
            for u in self._u..(self._u + 1) {
                for ab in self._ab..(self._ab + 1) {
                    for p1 in self._p1..(self._p1 + 1) {
                        for p2 in self._p2..(self._p2 + 1) {
                            for i in 0..self._ab {
                                for k in 0..self._u {
                                    self.dec.addr[k * ab + i].next =
                                        self.rxb.q[k * p2 + p1 + i].val();
                                    self.dec.addr[(u + 2 * d + k) * ab + i].next =
                                        self.rxb.q[k * p2 + i].val();
                                }
                                for x in 0..self._d {
                                    self.dec.addr[(u + x) * ab + i].next =
                                        self.win[x * p1 + ab + i].q.val();
                                    self.dec.addr[(u + d + x) * ab + i].next =
                                        self.win[x * p1 + i].q.val();
                                    if self.step.m_probe.val() {
                                        self.dec.addr[(u + d + x) * ab + i].next =
                                            self.rxa.q[x * p1 + i].val();
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // Keys (¬h, s) of S(k) (key k) and D(k) (key u + k), compared in DOWN steps only.
        self.keys.en.next = self.step.m_down.val();
        for u in self._u..(self._u + 1) {
            for kb in self._kb..(self._kb + 1) {
                for ab in self._ab..(self._ab + 1) {
                    for p1 in self._p1..(self._p1 + 1) {
                        for p2 in self._p2..(self._p2 + 1) {
                            for k in 0..self._u {
                                for i in 0..self._ab {
                                    self.keys.key[k * kb + i].next =
                                        self.rxb.q[k * p2 + p1 + i].val();
                                    self.keys.key[(u + k) * kb + i].next =
                                        self.rxb.q[k * p2 + ab + i].val();
                                }
                                for i in self._ab..self._kb {
                                    self.keys.key[k * kb + i].next =
                                        !self.rxb.q[k * p2 + p1 + i].val();
                                    self.keys.key[(u + k) * kb + i].next =
                                        !self.rxb.q[k * p2 + ab + i].val();
                                }
                            }
                        }
                    }
                }
            }
        }
        // UP arbiter: A(x) packets not at their LCA level; every upper allowed.
        for p1 in self._p1..(self._p1 + 1) {
            for pr in self._pr..(self._pr + 1) {
                for u in self._u..(self._u + 1) {
                    for x in 0..self._d {
                        self.up.req[x].next = (self.step.m_up.val()
                            & self.rxa.q[x * p1 + p1 - 1].val()
                            & !self.eq1[x].val())
                            | (self.step.m_probe.val()
                                & self.rxa.q[x * p1 + pr - 1].val()
                                & !self.eqr[x].val());
                        self.up.tier1[x].next = false;
                        self.up.guard[x].next = self.step.m_up.val() | !self.xbar.a_drives[x].val();
                        self.up.need0[x].next = true;
                        for k in 0..self._u {
                            self.up.allow0[x * u + k].next = true;
                            for _table in 0..self._pi {
                                self.up.allow0[x * u + k].next = self.dec.umask[x * u + k].val();
                            }
                        }
                    }
                    for k in 0..self._u {
                        self.up.free0[k].next = self.step.m_up.val() | !self.xbar.d_driven[k].val();
                    }
                }
            }
        }
        for i in 0..(self._d * self._d) {
            self.up.lt[i].next = false;
        }
        // DOWN arbiter.
        for d in self._d..(self._d + 1) {
            for u in self._u..(self._u + 1) {
                for n in self._n..(self._n + 1) {
                    for p1 in self._p1..(self._p1 + 1) {
                        for p2 in self._p2..(self._p2 + 1) {
                            for pr in self._pr..(self._pr + 1) {
                                for i in 0..(self._n * self._n) {
                                    self.dn.lt[i].next = false;
                                }
                                for k in 0..self._u {
                                    for j in 0..self._u {
                                        self.dn.lt[k * n + j].next =
                                            self.keys.lt[k * 2 * u + j].val();
                                        self.dn.lt[k * n + u + d + j].next =
                                            self.keys.lt[k * 2 * u + u + j].val();
                                        self.dn.lt[(u + d + k) * n + j].next =
                                            self.keys.lt[(u + k) * 2 * u + j].val();
                                        self.dn.lt[(u + d + k) * n + u + d + j].next =
                                            self.keys.lt[(u + k) * 2 * u + u + j].val();
                                    }
                                    // S(k): an S-claim; D(k): a D-claim or an R2 probe.
                                    self.dn.req[k].next =
                                        self.step.m_down.val() & self.rxb.q[k * p2 + p2 - 1].val();
                                    self.dn.req[u + d + k].next = (self.step.m_down.val()
                                        & self.rxb.q[k * p2 + p1 - 1].val())
                                        | (self.step.m_probe.val()
                                            & self.rxb.q[k * p2 + pr - 1].val());
                                    self.dn.tier1[k].next = false;
                                    self.dn.tier1[u + d + k].next = false;
                                    self.dn.guard[k].next = !self.xbar.d_driven[k].val();
                                    self.dn.guard[u + d + k].next = !self.xbar.b_drives[k].val();
                                    self.dn.need0[k].next = true;
                                    self.dn.need1[d + k].next = true;
                                    for y in 0..self._d {
                                        self.dn.allow0[k * d + y].next =
                                            self.dec.mask[k * d + y].val();
                                        self.dn.allow1[(d + k) * d + y].next =
                                            self.dec.mask[(u + 2 * d + k) * d + y].val();
                                    }
                                }
                                // X(x): a waiting winner (DOWN) or a turning probe (PROBE).
                                for x in 0..self._d {
                                    self.dn.req[u + x].next = (self.step.serve_win.val()
                                        & self.win[x * p1 + p1 - 1].q.val())
                                        | (self.step.m_probe.val()
                                            & self.rxa.q[x * p1 + pr - 1].val()
                                            & self.eqr[x].val());
                                    self.dn.tier1[u + x].next = self.step.m_down.val();
                                    self.dn.guard[u + x].next = true;
                                    self.dn.need0[u + x].next = true;
                                    self.dn.need1[x].next = true;
                                    for y in 0..self._d {
                                        self.dn.allow0[(u + x) * d + y].next =
                                            self.step.m_down.val()
                                                & self.dec.mask[(u + x) * d + y].val();
                                        self.dn.allow1[x * d + y].next =
                                            self.dec.mask[(u + d + x) * d + y].val();
                                    }
                                    self.dn.allow0[(u + x) * d + x].next =
                                        self.dn.allow0[(u + x) * d + x].val()
                                            | self.step.m_probe.val();
                                    self.dn.free0[x].next = !self.xbar.a_drives[x].val();
                                    self.dn.free1[x].next = !self.xbar.c_driven[x].val();
                                }
                            }
                        }
                    }
                }
            }
        }
        // Grants: which source goes to which output (meaningful at the commit).
        for d in self._d..(self._d + 1) {
            for u in self._u..(self._u + 1) {
                for x in 0..self._d {
                    for k in 0..self._u {
                        self.su[k * d + x].next =
                            self.up.gnt[x].val() & self.up.ch0[x * u + k].val();
                        self.ss_b[x * u + k].next =
                            self.dn.gnt[k].val() & self.dn.ch0[k * d + x].val();
                        self.sd_b[x * u + k].next =
                            self.dn.gnt[u + d + k].val() & self.dn.ch1[(d + k) * d + x].val();
                        self.xbar.set_ad[x * u + k].next = (self.step.m_probe.val()
                            & self.su[k * d + x].val())
                            | self.ss_b[x * u + k].val();
                        self.xbar.set_bc[k * d + x].next = self.sd_b[x * u + k].val();
                    }
                    for y in 0..self._d {
                        self.ss_x[x * d + y].next = self.step.m_down.val()
                            & self.dn.gnt[u + y].val()
                            & self.dn.ch0[(u + y) * d + x].val();
                        self.sd_x[x * d + y].next =
                            self.dn.gnt[u + y].val() & self.dn.ch1[y * d + x].val();
                    }
                }
                for x1 in 0..self._d {
                    for x2 in 0..self._d {
                        self.xbar.set_ac[x1 * d + x2].next = false;
                        for y in 0..self._d {
                            self.xbar.set_ac[x1 * d + x2].next = self.xbar.set_ac[x1 * d + x2]
                                .val()
                                | (self.dn.gnt[u + y].val()
                                    & self.dn.ch0[(u + y) * d + x1].val()
                                    & self.dn.ch1[y * d + x2].val());
                        }
                    }
                }
            }
        }
        // Output registers: load forwarded packets at a set-up commit; data in PASS/REV.
        self.txc.load.next =
            self.step.commit.val() & !(self.step.m_pass.val() | self.step.m_rev.val());
        self.txd.load.next = self.txc.load.val();
        self.txc.pass.next = self.step.m_pass.val() | self.step.m_rev.val();
        self.txd.pass.next = self.txc.pass.val();
        self.txc.clr.next = self.ctl_init.val();
        self.txd.clr.next = self.ctl_init.val();
        for d in self._d..(self._d + 1) {
            for u in self._u..(self._u + 1) {
                for w in self._w..(self._w + 1) {
                    for ab in self._ab..(self._ab + 1) {
                        for p1 in self._p1..(self._p1 + 1) {
                            for p2 in self._p2..(self._p2 + 1) {
                                for lc in self._lc..(self._lc + 1) {
                                    for ld in self._ld..(self._ld + 1) {
                                        for oc in self._off_c..(self._off_c + 1) {
                                            for od in self._off_d..(self._off_d + 1) {
                                                // D(k): an UP packet (bits 0..P1) or a probe (top).
                                                for k in 0..self._u {
                                                    for i in 0..self._ld {
                                                        self.txd.ld[k * ld + i].next = false;
                                                    }
                                                    for i in 0..self._p1 {
                                                        for x in 0..self._d {
                                                            self.txd.ld[k * ld + i].next =
                                                                self.txd.ld[k * ld + i].val()
                                                                    | (self.step.m_up.val()
                                                                        & self.su[k * d + x].val()
                                                                        & self.rxa.q[x * p1 + i]
                                                                            .val());
                                                        }
                                                    }
                                                    for i in 0..self._pr {
                                                        for x in 0..self._d {
                                                            self.txd.ld[k * ld + od + i].next =
                                                                self.txd.ld[k * ld + od + i].val()
                                                                    | (self.step.m_probe.val()
                                                                        & self.su[k * d + x].val()
                                                                        & self.rxa.q[x * p1 + i]
                                                                            .val());
                                                        }
                                                    }
                                                    for l in 0..self._w {
                                                        self.txd.pd[k * w + l].next =
                                                            self.xbar.dd[k * w + l].val();
                                                        self.d[k * w + l].next =
                                                            self.txd.out[k * w + l].val();
                                                    }
                                                }
                                                for x in 0..self._d {
                                                    for i in 0..self._lc {
                                                        self.txc.ld[x * lc + i].next = false;
                                                    }
                                                    // DOWN, D-slot: bits 0..P1, from a D-claim or a winner.
                                                    for i in 0..self._p1 {
                                                        for k in 0..self._u {
                                                            self.txc.ld[x * lc + i].next = self
                                                                .txc
                                                                .ld[x * lc + i]
                                                                .val()
                                                                | (self.step.m_down.val()
                                                                    & self.sd_b[x * u + k].val()
                                                                    & self.rxb.q[k * p2 + i].val());
                                                        }
                                                        for y in 0..self._d {
                                                            self.txc.ld[x * lc + i].next = self
                                                                .txc
                                                                .ld[x * lc + i]
                                                                .val()
                                                                | (self.step.m_down.val()
                                                                    & self.sd_x[x * d + y].val()
                                                                    & self.win[y * p1 + i].q.val());
                                                        }
                                                    }
                                                    // DOWN, S-slot: bits P1..P2; a winner's (v, h, s) are its bits ab..P1.
                                                    for i in self._p1..self._p2 {
                                                        for k in 0..self._u {
                                                            self.txc.ld[x * lc + i].next =
                                                                self.txc.ld[x * lc + i].val()
                                                                    | (self.ss_b[x * u + k].val()
                                                                        & self.rxb.q[k * p2 + i]
                                                                            .val());
                                                        }
                                                        for y in 0..self._d {
                                                            self.txc.ld[x * lc + i].next =
                                                                self.txc.ld[x * lc + i].val()
                                                                    | (self.ss_x[x * d + y].val()
                                                                        & self.win
                                                                            [y * p1 + i - p1 + ab]
                                                                            .q
                                                                            .val());
                                                        }
                                                    }
                                                    // PROBE: a descending or turning probe, at the top.
                                                    for i in 0..self._pr {
                                                        for k in 0..self._u {
                                                            self.txc.ld[x * lc + oc + i].next = self
                                                                .txc
                                                                .ld[x * lc + oc + i]
                                                                .val()
                                                                | (self.step.m_probe.val()
                                                                    & self.sd_b[x * u + k].val()
                                                                    & self.rxb.q[k * p2 + i].val());
                                                        }
                                                        for y in 0..self._d {
                                                            self.txc.ld[x * lc + oc + i].next = self
                                                                .txc
                                                                .ld[x * lc + oc + i]
                                                                .val()
                                                                | (self.step.m_probe.val()
                                                                    & self.sd_x[x * d + y].val()
                                                                    & self.rxa.q[y * p1 + i].val());
                                                        }
                                                    }
                                                    for l in 0..self._w {
                                                        self.txc.pd[x * w + l].next =
                                                            self.xbar.dc[x * w + l].val();
                                                        self.c[x * w + l].next =
                                                            self.txc.out[x * w + l].val();
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // Waiting winners: stored at an UP commit, dropped when served, cleared.
        self.drop.next = (self.step.commit.val() & self.step.serve_win.val())
            | self.ctl_clear.val()
            | self.ctl_init.val();
        for p1 in self._p1..(self._p1 + 1) {
            for x in 0..self._d {
                self.store[x].next = self.step.commit.val()
                    & self.step.m_up.val()
                    & self.rxa.q[x * p1 + p1 - 1].val()
                    & self.eq1[x].val();
                for i in 0..self._p1 {
                    self.win[x * p1 + i].clock.next = self.clock.val();
                    self.win[x * p1 + i].d.next = self.win[x * p1 + i].q.val();
                    if self.store[x].val() {
                        self.win[x * p1 + i].d.next = self.rxa.q[x * p1 + i].val();
                    }
                    if self.drop.val() {
                        self.win[x * p1 + i].d.next = false;
                    }
                }
            }
        }
    }
}
