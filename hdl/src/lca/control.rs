//! Step control: the bit-time counter `bt` and the decoding of the broadcast control
//! inputs into the enables every other block uses (`docs/protocol.md` §3, §6).

use rust_hdl::prelude::*;

/// `bt` (10 bits, saturating), mode decode, receive enables, the first arbitration bit-time
/// of each arbiter, the commit, and the switch's level as a one-hot vector.
#[derive(LogicBlock)]
pub struct StepControl {
    /// One edge per bit-time.
    pub clock: Signal<In, Clock>,
    /// `ctl_init`.
    pub ctl_init: Signal<In, Bit>,
    /// `ctl_last`.
    pub ctl_last: Signal<In, Bit>,
    /// `ctl_mode`.
    pub ctl_mode: Signal<In, Bits<3>>,
    /// `ctl_level`.
    pub ctl_level: Signal<In, Bits<4>>,
    /// The switch's level.
    pub level: Signal<In, Bits<4>>,
    /// Mode decode (reserved codes decode as none of these, i.e. `IDLE`).
    pub m_up: Signal<Out, Bit>,
    /// See `m_up`.
    pub m_down: Signal<Out, Bit>,
    /// See `m_up`.
    pub m_probe: Signal<Out, Bit>,
    /// See `m_up`.
    pub m_pass: Signal<Out, Bit>,
    /// See `m_up`.
    pub m_rev: Signal<Out, Bit>,
    /// Shift the A / B receive registers this bit-time.
    pub rx_a_en: Signal<Out, Bit>,
    /// See `rx_a_en`.
    pub rx_b_en: Signal<Out, Bit>,
    /// First bit-time of the UP / DOWN arbitration window (`bt = n(P)`).
    pub prep_up: Signal<Out, Bit>,
    /// See `prep_up`.
    pub prep_dn: Signal<Out, Bit>,
    /// This bit-time commits the step.
    pub commit: Signal<Out, Bit>,
    /// `DOWN` step serving this switch's waiting winners (`ctl_level = level`).
    pub serve_win: Signal<Out, Bit>,
    /// `level_is[j]`: the switch's level is `j`.
    pub level_is: Vec<Signal<Out, Bit>>,
    bt: DFF<Bits<10>>,
    c_n1: Constant<Bits<10>>,
    c_n2: Constant<Bits<10>>,
    c_nr: Constant<Bits<10>>,
    c_one: Constant<Bits<10>>,
    c_zero: Constant<Bits<10>>,
    c_max: Constant<Bits<10>>,
    c_up: Constant<Bits<3>>,
    c_down: Constant<Bits<3>>,
    c_probe: Constant<Bits<3>>,
    c_pass: Constant<Bits<3>>,
    c_rev: Constant<Bits<3>>,
    c_lv: Vec<Constant<Bits<4>>>,
    _l: usize,
}

impl StepControl {
    /// Control for packets of `n1`, `n2`, `nr` bit-times in a network of `l` levels.
    pub fn new(n1: usize, n2: usize, nr: usize, l: usize) -> Self {
        let c10 = |v: usize| Constant::new((v as u64).into());
        let c3 = |v: u64| Constant::new(v.into());
        StepControl {
            clock: Default::default(),
            ctl_init: Default::default(),
            ctl_last: Default::default(),
            ctl_mode: Default::default(),
            ctl_level: Default::default(),
            level: Default::default(),
            m_up: Default::default(),
            m_down: Default::default(),
            m_probe: Default::default(),
            m_pass: Default::default(),
            m_rev: Default::default(),
            rx_a_en: Default::default(),
            rx_b_en: Default::default(),
            prep_up: Default::default(),
            prep_dn: Default::default(),
            commit: Default::default(),
            serve_win: Default::default(),
            level_is: (0..l).map(|_| Default::default()).collect(),
            bt: Default::default(),
            c_n1: c10(n1),
            c_n2: c10(n2),
            c_nr: c10(nr),
            c_one: c10(1),
            c_zero: c10(0),
            c_max: c10(lcanet_sim::lcan::cycle::params::MAX_STEP),
            c_up: c3(1),
            c_down: c3(2),
            c_probe: c3(3),
            c_pass: c3(4),
            c_rev: c3(5),
            c_lv: (0..l).map(|j| Constant::new((j as u64).into())).collect(),
            _l: l,
        }
    }
}

impl Logic for StepControl {
    #[hdl_gen]
    fn update(&mut self) {
        self.bt.clock.next = self.clock.val();
        self.m_up.next = self.ctl_mode.val() == self.c_up.val();
        self.m_down.next = self.ctl_mode.val() == self.c_down.val();
        self.m_probe.next = self.ctl_mode.val() == self.c_probe.val();
        self.m_pass.next = self.ctl_mode.val() == self.c_pass.val();
        self.m_rev.next = self.ctl_mode.val() == self.c_rev.val();
        self.rx_a_en.next = (self.m_up.val() & (self.bt.q.val() < self.c_n1.val()))
            | (self.m_probe.val() & (self.bt.q.val() < self.c_nr.val()));
        self.rx_b_en.next = (self.m_down.val() & (self.bt.q.val() < self.c_n2.val()))
            | (self.m_probe.val() & (self.bt.q.val() < self.c_nr.val()));
        self.prep_up.next = (self.m_up.val() & (self.bt.q.val() == self.c_n1.val()))
            | (self.m_probe.val() & (self.bt.q.val() == self.c_nr.val()));
        self.prep_dn.next = (self.m_down.val() & (self.bt.q.val() == self.c_n2.val()))
            | (self.m_probe.val() & (self.bt.q.val() == self.c_nr.val()));
        self.commit.next = self.ctl_last.val() & !self.ctl_init.val();
        self.serve_win.next = self.m_down.val() & (self.ctl_level.val() == self.level.val());
        for j in 0..self._l {
            self.level_is[j].next = self.level.val() == self.c_lv[j].val();
        }
        self.bt.d.next = self.bt.q.val();
        if self.bt.q.val() != self.c_max.val() {
            self.bt.d.next = self.bt.q.val() + self.c_one.val();
        }
        if self.ctl_last.val() | self.ctl_init.val() {
            self.bt.d.next = self.c_zero.val();
        }
    }
}
