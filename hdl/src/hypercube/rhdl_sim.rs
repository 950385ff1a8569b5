//! Tests: a whole k-cube of [`Node`]s and a [`Controller`] wired in Rust and run in
//! rust-hdl's own simulator, compared at every bit time with the cycle-level golden
//! model of `lcanet-sim` (the Verilator co-simulation of the emitted Verilog lives in
//! `lcanet-testbench`; this one checks the blocks without any external tool).

use super::controller::Controller;
use super::node::Node;
use lcanet_sim::hypercube::cycle::{simulate as model, CycleTrace};
use lcanet_sim::hypercube::generate::{random_packing, random_semi_contraction};
use lcanet_sim::hypercube::timing::Algorithm;
use lcanet_sim::hypercube::CubeParams;
use lcanet_sim::perm::{PartialPermutation, Permutation};
use lcanet_sim::rng::seeded;
use rand::Rng;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
struct SimCube {
    clock: Signal<In, Clock>,
    reset: Signal<In, Bit>,
    start: Signal<In, Bit>,
    algorithm: Signal<In, Bit>,
    ctrl: Controller,
    nodes: Vec<Node>,
    _k: usize,
}

impl SimCube {
    fn new(k: usize, l: usize) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            algorithm: Default::default(),
            ctrl: Controller::new(k, l),
            nodes: (0..1 << k).map(|_| Node::new(k, l)).collect(),
            _k: k,
        }
    }
}

impl Logic for SimCube {
    fn update(&mut self) {
        let k = self._k;
        let c = &mut self.ctrl;
        c.clock.next = self.clock.val();
        c.reset.next = self.reset.val();
        c.start.next = self.start.val();
        c.algorithm.next = self.algorithm.val();
        let wires: Vec<Vec<bool>> = self
            .nodes
            .iter()
            .map(|n| n.dim_out.iter().map(|w| w.val()).collect())
            .collect();
        for (x, n) in self.nodes.iter_mut().enumerate() {
            n.clock.next = self.clock.val();
            let (s, c) = (&mut n.ctl, &self.ctrl);
            s.clear.next = c.clear.val();
            s.load.next = c.load.val();
            s.done.next = c.done.val();
            s.fwd.next = c.fwd.val();
            s.bwd.next = c.bwd.val();
            s.enum_on.next = c.enum_on.val();
            s.xdim_on.next = c.xdim_on.val();
            s.k_semi.next = c.k_semi.val();
            s.k_pack2.next = c.k_pack2.val();
            s.k_pack0.next = c.k_pack0.val();
            s.k_rdv.next = c.k_rdv.val();
            s.k_enum2.next = c.k_enum2.val();
            s.c_start.next = c.c_start.val();
            s.c_addr.next = c.c_addr.val();
            s.c_body.next = c.c_body.val();
            s.c_rxstart.next = c.c_rxstart.val();
            s.c_rxbody.next = c.c_rxbody.val();
            s.c_window.next = c.c_window.val();
            s.last.next = c.last.val();
            s.e_inject.next = c.e_inject.val();
            s.e_capture.next = c.e_capture.val();
            s.x_decide.next = c.x_decide.val();
            for d in 0..k {
                n.sel[d].next = c.sel[d].val();
                n.low[d].next = c.low[d].val();
                n.my_addr[d].next = x >> d & 1 == 1;
                n.dim_in[d].next = wires[x ^ (1 << d)][d];
            }
        }
    }
}

fn bits_value(v: &[Signal<Out, Bit>]) -> u64 {
    v.iter()
        .rev()
        .fold(0, |acc, b| acc << 1 | u64::from(b.val()))
}

fn settle(cube: &mut SimCube) {
    assert!(simulate(cube, 200), "the cube did not settle");
}

/// Runs one routing and compares every output at every bit time; panics with the first
/// mismatch.
fn cosim(k: usize, l: usize, alg: Algorithm, r: &PartialPermutation, pay: &[u64]) {
    let p = CubeParams::new(k, l).unwrap();
    let tr: CycleTrace = model(p, alg, r, pay).unwrap();
    let mut cube = SimCube::new(k, l);
    cube.connect_all();
    cube.algorithm.next = alg == Algorithm::Full;
    for (x, n) in cube.nodes.iter_mut().enumerate() {
        n.send.next = r.dst(x).is_some();
        let dst = r.dst(x).unwrap_or(0);
        for d in 0..k {
            n.dest[d].next = dst >> d & 1 == 1;
        }
        for j in 0..l {
            n.payload[j].next = pay[x] >> j & 1 == 1;
        }
    }
    // Reset for two cycles.
    cube.reset.next = true;
    for _ in 0..2 {
        cube.clock.next = Clock { clk: false };
        settle(&mut cube);
        cube.clock.next = Clock { clk: true };
        settle(&mut cube);
    }
    cube.reset.next = false;
    for t in 0..=tr.total + 3 {
        cube.start.next = t == 0;
        cube.clock.next = Clock { clk: false };
        settle(&mut cube);
        let g = tr.global(t);
        let ctx = format!("k={k} L={l} {alg:?} {r:?} t={t}");
        assert_eq!(cube.ctrl.done.val(), g.done, "done at {ctx}");
        assert_eq!(
            cube.ctrl.bit_time.val().index() as u64,
            g.bit_time,
            "bit_time at {ctx}"
        );
        for (x, n) in cube.nodes.iter().enumerate() {
            let e = tr.node(t, x);
            assert_eq!(n.rx_bit.val(), e.rx_bit, "node{x} rx_bit at {ctx}");
            assert_eq!(n.rx_valid.val(), e.rx_valid, "node{x} rx_valid at {ctx}");
            assert_eq!(
                bits_value(&n.rx_payload),
                e.rx_payload,
                "node{x} rx_payload at {ctx}"
            );
            assert_eq!(n.collision.val(), e.collision, "node{x} collision at {ctx}");
        }
        cube.clock.next = Clock { clk: true };
        settle(&mut cube);
    }
}

fn payloads(n: usize, l: usize, seed: u64) -> Vec<u64> {
    let mut rng = seeded(seed);
    (0..n).map(|_| rng.gen_range(0..1u64 << l)).collect()
}

#[test]
fn semi_contractions_and_packings_match_the_model() {
    for k in 1..=3 {
        for seed in 0..3 {
            let r = random_semi_contraction(k, &mut seeded(seed));
            cosim(k, 5, Algorithm::Semi, &r, &payloads(1 << k, 5, seed));
            let r = random_packing(k, &mut seeded(seed + 100));
            cosim(k, 3, Algorithm::Semi, &r, &payloads(1 << k, 3, seed));
        }
    }
}

#[test]
fn a_collision_matches_the_model() {
    let r = PartialPermutation::parse("0 4 - - 6 - - 5", 8).unwrap();
    cosim(3, 4, Algorithm::Semi, &r, &[1, 2, 4, 8, 3, 5, 7, 9]);
}

#[test]
fn algorithm_2_matches_the_model() {
    for k in 1..=4 {
        for seed in 0..3 {
            let mut rng = seeded(seed);
            let n = 1 << k;
            let perm = Permutation::random(n, &mut rng);
            // Seed 2 leaves some PEs silent (a partial permutation).
            let dst = (0..n)
                .map(|s| (seed != 2 || rng.gen_bool(0.6)).then(|| perm.dst(s)))
                .collect();
            let r = PartialPermutation::new(dst).unwrap();
            cosim(k, 4, Algorithm::Full, &r, &payloads(n, 4, seed));
        }
    }
}
