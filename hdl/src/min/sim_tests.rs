//! The blocks, wired into whole networks inside rust-hdl's own simulator, against the
//! golden timeline of `lcanet_sim::min` at every bit-time (no external tool). The
//! wiring here is a test fixture; the emitted networks are assembled with the netlist
//! and co-simulated in Verilator by `lcanet-testbench`.

use super::{AnyOf, AtapeController, AtapeUnit, MinSwitch};
use lcanet_sim::min::hw::TagShifter;
use lcanet_sim::min::timeline::BitTime;
use lcanet_sim::min::{Min, Network, RunConfig, Timeline};
use lcanet_sim::perm::Permutation;
use lcanet_sim::rng::seeded;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
struct Fixture<const M: usize> {
    clock: Signal<In, Clock>,
    reset: Signal<In, Bit>,
    start: Signal<In, Bit>,
    single: Signal<In, Bit>,
    first: Vec<Signal<In, Bits<M>>>,
    din: Vec<Signal<In, Bit>>,
    ctrl: AtapeController<M>,
    units: Vec<AtapeUnit<M>>,
    sw: Vec<MinSwitch>,
    any: Vec<AnyOf>,
    _min: Min,
}

impl<const M: usize> Fixture<M> {
    fn new(min: Min, frame_len: usize) -> Self {
        let (n, half) = (min.n(), min.switches_per_stage());
        let sh = TagShifter::for_min(&min).unwrap();
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            single: Default::default(),
            first: (0..n).map(|_| Default::default()).collect(),
            din: (0..n).map(|_| Default::default()).collect(),
            ctrl: AtapeController::new(frame_len),
            units: (0..n).map(|_| AtapeUnit::new(sh.tap, sh.rot)).collect(),
            sw: (0..M * half).map(|_| MinSwitch::default()).collect(),
            any: (0..M).map(|_| AnyOf::new(half)).collect(),
            _min: min,
        }
    }

    fn outputs(&self) -> BitTime {
        let min = self._min;
        let (n, half) = (min.n(), min.switches_per_stage());
        let mut x = vec![false; n];
        let s = M - 1;
        for k in 0..half {
            x[min.link(s as u32, 2 * k)] = self.sw[s * half + k].out0.val();
            x[min.link(s as u32, 2 * k + 1)] = self.sw[s * half + k].out1.val();
        }
        let grid = |f: &dyn Fn(&MinSwitch) -> bool| {
            (0..M)
                .map(|s| (0..half).map(|k| f(&self.sw[s * half + k])).collect())
                .collect()
        };
        BitTime {
            pe_dout: x,
            pe_dst: self.units.iter().map(|u| u.dst.val().index()).collect(),
            busy: self.ctrl.busy.val(),
            sending: self.ctrl.sending.val(),
            frame: self.ctrl.frame.val().index(),
            pos: self.ctrl.pos.val().index(),
            stage_conflict: self.any.iter().map(|a| a.y.val()).collect(),
            cross: grid(&|sw| sw.crossed.val()),
            switch_conflict: grid(&|sw| sw.conflict.val()),
        }
    }
}

impl<const M: usize> Logic for Fixture<M> {
    fn update(&mut self) {
        let min = self._min;
        let (n, half) = (min.n(), min.switches_per_stage());
        let c = &mut self.ctrl;
        c.clock.next = self.clock.val();
        c.reset.next = self.reset.val();
        c.start.next = self.start.val();
        c.single.next = self.single.val();
        let mut x = vec![false; n];
        for (j, u) in self.units.iter_mut().enumerate() {
            u.clock.next = self.clock.val();
            u.reset.next = self.reset.val();
            u.load.next = c.load.val();
            u.next.next = c.next.val();
            u.hdr.next = c.hdr.val();
            u.pay.next = c.pay.val();
            u.flip.next = c.flip.val();
            u.first.next = self.first[j].val();
            u.din.next = self.din[j].val();
            x[min.entry(j)] = u.tx.val();
        }
        for s in 0..M {
            let mut y = vec![false; n];
            for k in 0..half {
                let sw = &mut self.sw[s * half + k];
                sw.clock.next = self.clock.val();
                sw.reset.next = self.reset.val();
                sw.dec.next = c.dec[s].val();
                sw.in0.next = x[2 * k];
                sw.in1.next = x[2 * k + 1];
                y[min.link(s as u32, 2 * k)] = sw.out0.val();
                y[min.link(s as u32, 2 * k + 1)] = sw.out1.val();
                self.any[s].x[k].next = sw.conflict.val();
            }
            x = y;
        }
    }
}

fn settle<B: Block>(b: &mut B) {
    assert!(simulate(b, 10_000), "the fixture did not settle");
}

fn run<const M: usize>(cfg: RunConfig) {
    let tl = Timeline::new(cfg.clone());
    let mut fx = Fixture::<M>::new(cfg.min, cfg.format.len());
    fx.connect_all();
    settle(&mut fx);
    for t in 0..tl.end() + 2 {
        let st = tl.stimulus(t);
        fx.reset.next = st.reset;
        fx.start.next = st.start;
        fx.single.next = st.single;
        for j in 0..cfg.min.n() {
            fx.first[j].next = bits::<M>(st.first[j] as u64);
            fx.din[j].next = st.din[j];
        }
        settle(&mut fx);
        assert_eq!(fx.outputs(), tl.expected(t), "{} t={t}", cfg.min);
        fx.clock.next = Clock { clk: true };
        settle(&mut fx);
        fx.clock.next = Clock { clk: false };
        settle(&mut fx);
    }
}

fn both<const M: usize>(seed: u64) {
    for net in Network::ALL {
        let min = Min::new(net, M as u32).unwrap();
        run::<M>(RunConfig::atape(min, 2, seed).unwrap());
        let p = Permutation::random(min.n(), &mut seeded(seed));
        run::<M>(RunConfig::single(min, p, 3, seed).unwrap());
    }
}

#[test]
fn blocks_match_the_timeline_m1_to_m4() {
    both::<1>(1);
    both::<2>(2);
    both::<3>(3);
    both::<4>(4);
}
