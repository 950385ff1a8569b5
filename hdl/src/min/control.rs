//! The ATAPE controller (docs/min.md §3): one per network. It accepts `start`, counts
//! frame positions `0..F` and frames `0..N` (`N = n`, or 1 with `single`), keeps `busy`
//! until the last frame has left the `m` stages, and produces the strobes of the ATAPE
//! units (`load`, `next`, `flip`, `hdr`, `pay`) and of the stages (`dec[s]`: the stage-0
//! strobe `sending ∧ pos = 0` delayed by `2s` bit-times, when stage `s` sees its tag).

use rust_hdl::prelude::*;

/// The controller of a network of `M` stages and frames of `F = M + B` bit-times.
#[derive(Clone, Debug, LogicBlock)]
pub struct AtapeController<const M: usize> {
    /// The bit clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Start a run (accepted when not busy).
    pub start: Signal<In, Bit>,
    /// With `start`: send one frame instead of `n`.
    pub single: Signal<In, Bit>,
    /// A run is in progress (frames entering or still in the network).
    pub busy: Signal<Out, Bit>,
    /// Frames are entering the network.
    pub sending: Signal<Out, Bit>,
    /// The frame entering (0 when not sending).
    pub frame: Signal<Out, Bits<M>>,
    /// The position within it (0 when not sending).
    pub pos: Signal<Out, Bits<16>>,
    /// ATAPE units: load the first destination.
    pub load: Signal<Out, Bit>,
    /// ATAPE units: move to the next frame's destination.
    pub next: Signal<Out, Bit>,
    /// ATAPE units: the destination bit to flip at `next`.
    pub flip: Signal<Out, Bits<M>>,
    /// ATAPE units: a tag bit-time.
    pub hdr: Signal<Out, Bit>,
    /// ATAPE units: a payload bit-time.
    pub pay: Signal<Out, Bit>,
    /// Stage `s` decides (its tag bit is at its inputs).
    pub dec: Vec<Signal<Out, Bit>>,
    run: DFF<Bit>,
    drain: DFF<Bits<4>>,
    pos_r: DFF<Bits<16>>,
    frame_r: DFF<Bits<M>>,
    single_r: DFF<Bit>,
    chain: Vec<DFF<Bit>>,
    busy_l: Signal<Local, Bit>,
    last_l: Signal<Local, Bit>,
    endf_l: Signal<Local, Bit>,
    dec0_l: Signal<Local, Bit>,
    last_pos: Constant<Bits<16>>,
    tags: Constant<Bits<16>>,
    stages: Constant<Bits<4>>,
    one16: Constant<Bits<16>>,
    one4: Constant<Bits<4>>,
    one_m: Constant<Bits<M>>,
    zero16: Constant<Bits<16>>,
    zero4: Constant<Bits<4>>,
    zero_m: Constant<Bits<M>>,
    _chain: usize,
    _m: usize,
}

impl<const M: usize> AtapeController<M> {
    /// A controller for frames of `frame_len = M + B` bit-times (`M < frame_len ≤
    /// 65536`, `1 ≤ M ≤ 15`).
    pub fn new(frame_len: usize) -> Self {
        assert!((1..=15).contains(&M) && frame_len > M && frame_len <= 1 << 16);
        let chain = 2 * (M - 1);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            single: Default::default(),
            busy: Default::default(),
            sending: Default::default(),
            frame: Default::default(),
            pos: Default::default(),
            load: Default::default(),
            next: Default::default(),
            flip: Default::default(),
            hdr: Default::default(),
            pay: Default::default(),
            dec: (0..M).map(|_| Default::default()).collect(),
            run: Default::default(),
            drain: Default::default(),
            pos_r: Default::default(),
            frame_r: Default::default(),
            single_r: Default::default(),
            chain: (0..chain).map(|_| Default::default()).collect(),
            busy_l: Default::default(),
            last_l: Default::default(),
            endf_l: Default::default(),
            dec0_l: Default::default(),
            last_pos: Constant::new(bits::<16>(frame_len as u64 - 1)),
            tags: Constant::new(bits::<16>(M as u64)),
            stages: Constant::new(bits::<4>(M as u64)),
            one16: Constant::new(bits::<16>(1)),
            one4: Constant::new(bits::<4>(1)),
            one_m: Constant::new(bits::<M>(1)),
            zero16: Constant::new(bits::<16>(0)),
            zero4: Constant::new(bits::<4>(0)),
            zero_m: Constant::new(bits::<M>(0)),
            _chain: chain,
            _m: M,
        }
    }
}

impl<const M: usize> Logic for AtapeController<M> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, run, drain, pos_r, frame_r, single_r);
        for i in 0..self._chain {
            self.chain[i].clock.next = self.clock.val();
        }
        self.busy_l.next = self.run.q.val() | self.drain.q.val().any();
        self.last_l.next = self.single_r.q.val() | self.frame_r.q.val().all();
        self.endf_l.next = self.run.q.val() & (self.pos_r.q.val() == self.last_pos.val());
        self.dec0_l.next = self.run.q.val() & !self.pos_r.q.val().any();
        self.busy.next = self.busy_l.val();
        self.sending.next = self.run.q.val();
        self.frame.next = self.frame_r.q.val();
        self.pos.next = self.pos_r.q.val();
        self.load.next = !self.reset.val() & !self.busy_l.val() & self.start.val();
        self.next.next = self.endf_l.val() & !self.last_l.val();
        self.flip.next = (self.frame_r.q.val() + self.one_m.val()) & !self.frame_r.q.val();
        self.hdr.next = self.run.q.val() & (self.pos_r.q.val() < self.tags.val());
        self.pay.next = self.run.q.val() & (self.pos_r.q.val() >= self.tags.val());
        // Decision strobes: dec[s] = dec0 delayed by 2s through chain[0..2s].
        self.dec[0].next = self.dec0_l.val();
        for s in 1..self._m {
            self.dec[s].next = self.chain[2 * s - 1].q.val();
        }
        for i in 0..self._chain.min(1) {
            self.chain[i].d.next = self.dec0_l.val();
        }
        for i in 1..self._chain {
            self.chain[i].d.next = self.chain[i - 1].q.val();
        }
        // Counters.
        if self.run.q.val() {
            self.pos_r.d.next = self.pos_r.q.val() + self.one16.val();
        }
        if !self.run.q.val() & self.drain.q.val().any() {
            self.drain.d.next = self.drain.q.val() - self.one4.val();
        }
        if self.endf_l.val() {
            self.pos_r.d.next = self.zero16.val();
            if self.last_l.val() {
                self.run.d.next = false;
                self.drain.d.next = self.stages.val();
                self.frame_r.d.next = self.zero_m.val();
            } else {
                self.frame_r.d.next = self.frame_r.q.val() + self.one_m.val();
            }
        }
        if self.load.val() {
            self.run.d.next = true;
            self.pos_r.d.next = self.zero16.val();
            self.frame_r.d.next = self.zero_m.val();
            self.single_r.d.next = self.single.val();
        }
        if self.reset.val() {
            self.run.d.next = false;
            self.drain.d.next = self.zero4.val();
            self.pos_r.d.next = self.zero16.val();
            self.frame_r.d.next = self.zero_m.val();
            self.single_r.d.next = false;
            for i in 0..self._chain {
                self.chain[i].d.next = false;
            }
        }
    }
}
