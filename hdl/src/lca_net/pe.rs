//! The PE interface unit (`docs/interface.md` §5): latches a PE's destination and message
//! at start, converts the destination to label digits (`CONV`), computes its LCA level,
//! injects the set-up packet (R1 `P1` / R2 probe), learns from the delivered S-claim
//! whether it sends (R1), sends its frame, receives a frame and answers with the
//! acknowledgement, and records the acknowledgement of its own frame.
//!
//! One module serves every PE: the PE's own label digits `s_enc` are an input port tied to
//! a constant per instance. Registers: `act`, `dst` (`AB`), `msg` (`M`), `enc` (`ab`, only
//! with `CONV`; otherwise `enc` is `dst`), `sent`, `snd`, `got`, `tx` (`TX`), `rxf` (`NF·W`).

use rust_hdl::prelude::*;

/// Generation parameters of the PE interface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeShape {
    /// PEs `n` (range check `dst ≥ n`).
    pub n: usize,
    /// Levels `l`.
    pub l: usize,
    /// Link width `W`.
    pub w: usize,
    /// Message bits `M`.
    pub m: usize,
    /// Plain PE number bits `AB`.
    pub abin: usize,
    /// Label address bits `ab` (= `AB` unless `CONV`).
    pub ab: usize,
    /// LCA level field bits `hb`.
    pub hb: usize,
    /// Label digits: `(offset, width, radix)`, digit 0 first.
    pub digits: Vec<(usize, usize, usize)>,
    /// Conversion in `LOAD`.
    pub conv: bool,
    /// R1 (else R2).
    pub r1: bool,
    /// Transmit register bits `TX`.
    pub tx: usize,
    /// Bit-times of the set-up packet: `n(P1)` (R1) or `n(PR)` (R2).
    pub nset: usize,
    /// Bit-times of a frame `NF`.
    pub nf: usize,
    /// `pad2 = n(P2)·W − P2` (R1: where `vS` arrives in `DELIV` bit-time 0).
    pub pad2: usize,
    /// A Π network: the LCA level comes from the per-PE table on the `lca` pins instead of
    /// label digits.
    pub pi: bool,
}

impl PeShape {
    /// Whether the PE reads its own address `s_enc`: always except in a Π network with R2
    /// (no source field in the probe, and the LCA level comes from the table).
    pub fn has_s_enc(&self) -> bool {
        self.r1 || !self.pi
    }
}

/// The PE interface block; see the module documentation.
#[derive(LogicBlock)]
pub struct PeInterface {
    /// One edge per bit-time.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Top-level inputs of this PE.
    pub act_in: Signal<In, Bit>,
    /// See `act_in` (`AB` bits).
    pub dst_in: Vec<Signal<In, Bit>>,
    /// See `act_in` (`M` bits).
    pub msg_in: Vec<Signal<In, Bit>>,
    /// This PE's label digits (constant per instance; absent in Π networks with R2).
    pub s_enc: Vec<Signal<In, Bit>>,
    /// Π only: this PE's LCA levels, `lca_level(p, t)` at bits `t·hb ..` (constant per
    /// instance).
    pub lca: Vec<Signal<In, Bit>>,
    /// The down-wire: `C(x)` lanes of the level-0 switch.
    pub din: Vec<Signal<In, Bit>>,
    /// The up-wire: drives `A(x)` lanes (top `W` bits of `tx`).
    pub dout: Vec<Signal<Out, Bit>>,
    /// Controller strobes.
    pub go: Signal<In, Bit>,
    /// See `go` (`CONV` only: one per `dst` bit).
    pub lsel: Vec<Signal<In, Bit>>,
    /// See `go`.
    pub plan: Signal<In, Bit>,
    /// See `go`.
    pub arm: Signal<In, Bit>,
    /// See `go`.
    pub up_load: Signal<In, Bit>,
    /// See `go`.
    pub sel_lvl: Signal<In, Bits<4>>,
    /// See `go`.
    pub deliv0: Signal<In, Bit>,
    /// See `go`.
    pub deliv1: Signal<In, Bit>,
    /// See `go`.
    pub data: Signal<In, Bit>,
    /// See `go`.
    pub data_last: Signal<In, Bit>,
    /// See `go`.
    pub ack: Signal<In, Bit>,
    /// Status to the top: received a frame.
    pub valid: Signal<Out, Bit>,
    /// The received message (`M` bits).
    pub rmsg: Vec<Signal<Out, Bit>>,
    /// Own frame acknowledged.
    pub sent: Signal<Out, Bit>,
    /// Status to the controller: `act ∧ ¬sent`.
    pub pend: Signal<Out, Bit>,
    /// Pending and `h_p = j` (`l` bits).
    pub hot: Vec<Signal<Out, Bit>>,
    /// `act ∧ dst ≥ n`.
    pub bad: Signal<Out, Bit>,
    /// A second frame arrives (in `DATA`).
    pub dup: Signal<Out, Bit>,
    r_act: DFF<Bit>,
    r_dst: Vec<DFF<Bit>>,
    r_msg: Vec<DFF<Bit>>,
    r_enc: Vec<DFF<Bit>>,
    r_sent: DFF<Bit>,
    r_snd: DFF<Bit>,
    r_got: DFF<Bit>,
    r_tx: Vec<DFF<Bit>>,
    r_rxf: Vec<DFF<Bit>>,
    enc: Vec<Signal<Local, Bit>>,
    diff: Vec<Signal<Local, Bit>>,
    hval: Signal<Local, Bits<4>>,
    ge: Signal<Local, Bit>,
    nz: Signal<Local, Bit>,
    pnd: Signal<Local, Bit>,
    inject: Signal<Local, Bit>,
    nrx: Vec<Signal<Local, Bit>>,
    cbit: Vec<Signal<Local, Bit>>,
    ld: Vec<Signal<Local, Bit>>,
    carry: Vec<Signal<Local, Bit>>,
    borrow: Vec<Signal<Local, Bit>>,
    sh: Vec<Signal<Local, Bit>>,
    vb: Vec<Signal<Local, Bit>>,
    sub: Vec<Signal<Local, Bit>>,
    dg: Vec<Signal<Local, Bit>>,
    use_sub: Vec<Signal<Local, Bit>>,
    c_dig: Vec<Constant<Bit>>,
    c_first: Vec<Constant<Bit>>,
    c_lastb: Vec<Constant<Bit>>,
    c_rbit: Vec<Constant<Bit>>,
    c_rtop: Vec<Constant<Bit>>,
    c_n: Vec<Constant<Bit>>,
    c_canbad: Constant<Bit>,
    c_lv: Vec<Constant<Bits<4>>>,
    c_r1: Constant<Bit>,
    peq: Vec<Signal<Local, Bit>>,
    lh: Vec<Signal<Local, Bit>>,
    c_t: Vec<Constant<Bit>>,
    c_pw: Vec<Constant<Bits<4>>>,
    _ldig: usize,
    _pi: usize,
    _pes: usize,
    _l: usize,
    _w: usize,
    _m: usize,
    _abin: usize,
    _ab: usize,
    _hb: usize,
    _tx: usize,
    _nfw: usize,
    _base: usize,
    _vs: usize,
    _nenc: usize,
    _ndir: usize,
    _nsel: usize,
    _nconv: usize,
    _isr1: usize,
    _isr2: usize,
}

fn v<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}

impl PeInterface {
    /// A PE interface for `shape`.
    pub fn new(s: &PeShape) -> Self {
        let (ab, l) = (s.ab, s.l);
        let nenc = if s.conv { ab } else { 0 };
        let nconv = usize::from(s.conv);
        let ndir = if s.conv { 0 } else { ab };
        let mut c_dig = Vec::with_capacity(ab * l);
        let (mut first, mut lastb, mut rbit, mut rtop) = (
            vec![false; ab],
            vec![false; ab],
            vec![false; ab],
            vec![false; ab],
        );
        let mut dig_of = vec![usize::MAX; ab];
        for (j, &(off, w, radix)) in s.digits.iter().enumerate() {
            for i in 0..w {
                dig_of[off + i] = j;
                rbit[off + i] = (radix >> i) & 1 == 1;
            }
            if w > 0 {
                first[off] = true;
                lastb[off + w - 1] = true;
                rtop[off + w - 1] = (radix >> w) & 1 == 1;
            }
        }
        // Π: no label digits; the LCA level is looked up instead.
        let ldig = if s.pi { 0 } else { l };
        let pi = usize::from(s.pi);
        let pes = pi * s.n;
        for &dj in &dig_of {
            for j in 0..ldig {
                c_dig.push(Constant::new(dj == j));
            }
        }
        let bits = |x: Vec<bool>| x.into_iter().map(Constant::new).collect::<Vec<_>>();
        let nfw = s.nf * s.w;
        PeInterface {
            clock: Default::default(),
            reset: Default::default(),
            act_in: Default::default(),
            dst_in: v(s.abin),
            msg_in: v(s.m),
            s_enc: v(if s.has_s_enc() { ab } else { 0 }),
            lca: v(pes * s.hb),
            din: v(s.w),
            dout: v(s.w),
            go: Default::default(),
            lsel: v(if s.conv { s.abin } else { 0 }),
            plan: Default::default(),
            arm: Default::default(),
            up_load: Default::default(),
            sel_lvl: Default::default(),
            deliv0: Default::default(),
            deliv1: Default::default(),
            data: Default::default(),
            data_last: Default::default(),
            ack: Default::default(),
            valid: Default::default(),
            rmsg: v(s.m),
            sent: Default::default(),
            pend: Default::default(),
            hot: v(l),
            bad: Default::default(),
            dup: Default::default(),
            r_act: Default::default(),
            r_dst: v(s.abin),
            r_msg: v(s.m),
            r_enc: v(nenc),
            r_sent: Default::default(),
            r_snd: Default::default(),
            r_got: Default::default(),
            r_tx: v(s.tx),
            r_rxf: v(nfw),
            enc: v(ab),
            diff: v(ldig),
            hval: Default::default(),
            ge: Default::default(),
            nz: Default::default(),
            pnd: Default::default(),
            inject: Default::default(),
            nrx: v(nfw),
            cbit: v(nconv),
            ld: v(nconv),
            carry: v(nconv),
            borrow: v(nconv),
            sh: v(nenc),
            vb: v(nenc),
            sub: v(nenc),
            dg: v(nconv * l),
            use_sub: v(nconv),
            c_dig,
            c_first: bits(first[..nenc].to_vec()),
            c_lastb: bits(lastb[..nenc].to_vec()),
            c_rbit: bits(rbit[..nenc].to_vec()),
            c_rtop: bits(rtop[..nenc].to_vec()),
            c_n: (0..s.abin)
                .map(|b| Constant::new((s.n >> b) & 1 == 1))
                .collect(),
            c_canbad: Constant::new(!s.n.is_power_of_two()),
            c_lv: (0..l).map(|j| Constant::new((j as u64).into())).collect(),
            c_r1: Constant::new(s.r1),
            peq: v(pi),
            lh: v(pi * s.hb),
            c_t: (0..pes)
                .flat_map(|t| (0..ab).map(move |i| Constant::new((t >> i) & 1 == 1)))
                .collect(),
            c_pw: (0..pi * s.hb)
                .map(|i| Constant::new((1u64 << i).into()))
                .collect(),
            _ldig: ldig,
            _pi: pi,
            _pes: pes,
            _l: l,
            _w: s.w,
            _m: s.m,
            _abin: s.abin,
            _ab: ab,
            _hb: s.hb,
            _tx: s.tx,
            _nfw: nfw,
            _base: s.tx - s.nset * s.w,
            _vs: s.w - 1 - s.pad2,
            _nenc: nenc,
            _ndir: ndir,
            _nsel: if s.conv { s.abin } else { 0 },
            _nconv: nconv,
            _isr1: usize::from(s.r1),
            _isr2: usize::from(!s.r1),
        }
    }
}

impl Logic for PeInterface {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_act, r_sent, r_snd, r_got);
        for b in 0..self._abin {
            self.r_dst[b].clock.next = self.clock.val();
            self.r_dst[b].d.next = self.r_dst[b].q.val();
        }
        for b in 0..self._m {
            self.r_msg[b].clock.next = self.clock.val();
            self.r_msg[b].d.next = self.r_msg[b].q.val();
        }
        for b in 0..self._nenc {
            self.r_enc[b].clock.next = self.clock.val();
            self.r_enc[b].d.next = self.r_enc[b].q.val();
            self.enc[b].next = self.r_enc[b].q.val();
        }
        for b in 0..self._ndir {
            self.enc[b].next = self.r_dst[b].q.val();
        }
        for b in 0..self._nfw {
            self.r_rxf[b].clock.next = self.clock.val();
            self.r_rxf[b].d.next = self.r_rxf[b].q.val();
        }
        // Status.
        self.pnd.next = self.r_act.q.val() & !self.r_sent.q.val();
        self.pend.next = self.pnd.val();
        self.sent.next = self.r_sent.q.val();
        // dst >= n (bit-serial comparison, least significant bit first).
        self.ge.next = true;
        for b in 0..self._abin {
            self.ge.next = (self.r_dst[b].q.val() & !self.c_n[b].val())
                | (!(self.r_dst[b].q.val() ^ self.c_n[b].val()) & self.ge.val());
        }
        self.bad.next = self.r_act.q.val() & self.ge.val() & self.c_canbad.val();
        // LCA level: the highest digit where own and destination labels differ.
        for l in self._l..(self._l + 1) {
            for j in 0..self._ldig {
                self.diff[j].next = false;
                for b in 0..self._ab {
                    self.diff[j].next = self.diff[j].val()
                        | (self.c_dig[b * l + j].val() & (self.s_enc[b].val() ^ self.enc[b].val()));
                }
            }
        }
        self.hval.next = self.c_lv[0].val();
        for j in 0..self._ldig {
            if self.diff[j].val() {
                self.hval.next = self.c_lv[j].val();
            }
        }
        // Π: the LCA level is row `dst` of this PE's table (0 for `dst ≥ n`).
        for _table in 0..self._pi {
            for ab in self._ab..(self._ab + 1) {
                for hb in self._hb..(self._hb + 1) {
                    for i in 0..self._hb {
                        self.lh[i].next = false;
                    }
                    for t in 0..self._pes {
                        self.peq[0].next = true;
                        for b in 0..self._ab {
                            self.peq[0].next = self.peq[0].val()
                                & !(self.enc[b].val() ^ self.c_t[t * ab + b].val());
                        }
                        for i in 0..self._hb {
                            self.lh[i].next =
                                self.lh[i].val() | (self.peq[0].val() & self.lca[t * hb + i].val());
                        }
                    }
                    for i in 0..self._hb {
                        if self.lh[i].val() {
                            self.hval.next = self.hval.val() | self.c_pw[i].val();
                        }
                    }
                }
            }
        }
        for j in 0..self._l {
            self.hot[j].next = self.pnd.val() & (self.hval.val() == self.c_lv[j].val());
        }
        // Is any lane of the down-wire 1?
        self.nz.next = false;
        for i in 0..self._w {
            self.nz.next = self.nz.val() | self.din[i].val();
        }
        // Outputs.
        for nfw in self._nfw..(self._nfw + 1) {
            self.valid.next = self.r_rxf[nfw - 1].q.val();
            for i in 0..self._m {
                self.rmsg[i].next = self.r_rxf[nfw - 2 - i].q.val();
            }
            self.dup.next = self.data.val() & self.r_rxf[nfw - 1].q.val() & self.nz.val();
        }
        for tx in self._tx..(self._tx + 1) {
            for w in self._w..(self._w + 1) {
                for i in 0..self._w {
                    self.dout[i].next = self.r_tx[tx - w + i].q.val();
                }
                // Default: shift up by W, zeros enter.
                for b in 0..self._w {
                    self.r_tx[b].clock.next = self.clock.val();
                    self.r_tx[b].d.next = false;
                }
                for b in self._w..self._tx {
                    self.r_tx[b].clock.next = self.clock.val();
                    self.r_tx[b].d.next = self.r_tx[b - w].q.val();
                }
            }
        }
        // Set-up packet injection.
        self.inject.next = self.pnd.val()
            & (self.hval.val() == self.sel_lvl.val())
            & (self.arm.val() | self.up_load.val());
        if !self.c_r1.val() {
            self.inject.next = self.pnd.val() & self.arm.val();
        }
        if self.inject.val() {
            for b in 0..self._tx {
                self.r_tx[b].d.next = false;
            }
            for base in self._base..(self._base + 1) {
                for ab in self._ab..(self._ab + 1) {
                    for hb in self._hb..(self._hb + 1) {
                        for _r1 in 0..self._isr1 {
                            for b in 0..self._ab {
                                self.r_tx[base + b].d.next = self.enc[b].val();
                                self.r_tx[base + ab + b].d.next = self.s_enc[b].val();
                            }
                            for i in 0..self._hb {
                                self.r_tx[base + 2 * ab + i].d.next = self.hval.val().get_bit(i);
                            }
                            self.r_tx[base + 2 * ab + hb].d.next = true;
                        }
                        for _r2 in 0..self._isr2 {
                            for b in 0..self._ab {
                                self.r_tx[base + b].d.next = self.enc[b].val();
                            }
                            for i in 0..self._hb {
                                self.r_tx[base + ab + i].d.next = self.hval.val().get_bit(i);
                            }
                            self.r_tx[base + ab + hb].d.next = true;
                        }
                    }
                }
            }
        }
        // Who sends: R2 every pending PE at ARM; R1 the S-claim's valid bit in DELIV.
        if self.arm.val() & !self.c_r1.val() {
            self.r_snd.d.next = self.pnd.val();
        }
        for vs in self._vs..(self._vs + 1) {
            if self.deliv0.val() & self.c_r1.val() {
                self.r_snd.d.next = self.din[vs].val();
            }
        }
        if self.plan.val() {
            self.r_snd.d.next = false;
            self.r_got.d.next = false;
        }
        // Frame out, left-aligned.
        if self.deliv1.val() & self.r_snd.q.val() {
            for tx in self._tx..(self._tx + 1) {
                for b in 0..self._tx {
                    self.r_tx[b].d.next = false;
                }
                self.r_tx[tx - 1].d.next = true;
                for i in 0..self._m {
                    self.r_tx[tx - 2 - i].d.next = self.r_msg[i].q.val();
                }
            }
        }
        // Frame in.
        for w in self._w..(self._w + 1) {
            for nfw in self._nfw..(self._nfw + 1) {
                for b in 0..self._w {
                    self.nrx[b].next = self.din[b].val();
                }
                for b in self._w..self._nfw {
                    self.nrx[b].next = self.r_rxf[b - w].q.val();
                }
                if self.data.val() & !self.r_rxf[nfw - 1].q.val() {
                    for b in 0..self._nfw {
                        self.r_rxf[b].d.next = self.nrx[b].val();
                    }
                    if self.nrx[nfw - 1].val() {
                        self.r_got.d.next = true;
                    }
                }
            }
        }
        // Acknowledgement out and in.
        if self.data_last.val() & self.r_got.q.val() {
            for tx in self._tx..(self._tx + 1) {
                for b in 0..self._tx {
                    self.r_tx[b].d.next = false;
                }
                self.r_tx[tx - 1].d.next = true;
            }
        }
        if self.ack.val() & self.r_snd.q.val() & self.nz.val() {
            self.r_sent.d.next = true;
        }
        // Label conversion during LOAD: enc <- dbl(enc, dst[AB-1-i]) (CONV only).
        for _once in 0..self._nconv {
            self.cbit[0].next = false;
            self.ld[0].next = false;
            for k in 0..self._nsel {
                self.cbit[0].next =
                    self.cbit[0].val() | (self.lsel[k].val() & self.r_dst[k].q.val());
                self.ld[0].next = self.ld[0].val() | self.lsel[k].val();
            }
            self.carry[0].next = self.cbit[0].val();
            self.borrow[0].next = false;
            self.use_sub[0].next = false;
            for j in 0..self._l {
                self.dg[j].next = false;
            }
            self.sh[0].next = false;
            for b in 1..self._nenc {
                self.sh[b].next = self.r_enc[b - 1].q.val();
            }
            for l in self._l..(self._l + 1) {
                for b in 0..self._nenc {
                    self.vb[b].next = self.sh[b].val();
                    if self.c_first[b].val() {
                        self.vb[b].next = self.carry[0].val();
                        self.borrow[0].next = false;
                    }
                    self.sub[b].next =
                        self.vb[b].val() ^ self.c_rbit[b].val() ^ self.borrow[0].val();
                    self.borrow[0].next = (!self.vb[b].val() & self.c_rbit[b].val())
                        | (!(self.vb[b].val() ^ self.c_rbit[b].val()) & self.borrow[0].val());
                    if self.c_lastb[b].val() {
                        // The doubled digit's extra top bit is the old top bit.
                        self.borrow[0].next = (!self.r_enc[b].q.val() & self.c_rtop[b].val())
                            | (!(self.r_enc[b].q.val() ^ self.c_rtop[b].val())
                                & self.borrow[0].val());
                        self.carry[0].next = !self.borrow[0].val();
                        for j in 0..self._l {
                            if self.c_dig[b * l + j].val() {
                                self.dg[j].next = !self.borrow[0].val();
                            }
                        }
                    }
                }
                for b in 0..self._nenc {
                    self.use_sub[0].next = false;
                    for j in 0..self._l {
                        self.use_sub[0].next = self.use_sub[0].val()
                            | (self.c_dig[b * l + j].val() & self.dg[j].val());
                    }
                    if self.ld[0].val() {
                        self.r_enc[b].d.next = self.vb[b].val();
                        if self.use_sub[0].val() {
                            self.r_enc[b].d.next = self.sub[b].val();
                        }
                    }
                }
            }
        }
        // Start and reset.
        if self.go.val() {
            self.r_act.d.next = self.act_in.val();
            self.r_sent.d.next = false;
            self.r_snd.d.next = false;
            self.r_got.d.next = false;
            for b in 0..self._abin {
                self.r_dst[b].d.next = self.dst_in[b].val();
            }
            for b in 0..self._m {
                self.r_msg[b].d.next = self.msg_in[b].val();
            }
            for b in 0..self._nenc {
                self.r_enc[b].d.next = false;
            }
            for b in 0..self._tx {
                self.r_tx[b].d.next = false;
            }
            for b in 0..self._nfw {
                self.r_rxf[b].d.next = false;
            }
        }
        if self.reset.val() {
            self.r_act.d.next = false;
            self.r_sent.d.next = false;
            self.r_snd.d.next = false;
            self.r_got.d.next = false;
            for b in 0..self._abin {
                self.r_dst[b].d.next = false;
            }
            for b in 0..self._m {
                self.r_msg[b].d.next = false;
            }
            for b in 0..self._nenc {
                self.r_enc[b].d.next = false;
            }
            for b in 0..self._tx {
                self.r_tx[b].d.next = false;
            }
            for b in 0..self._nfw {
                self.r_rxf[b].d.next = false;
            }
        }
    }
}
