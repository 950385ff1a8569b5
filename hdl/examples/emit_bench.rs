//! Measures netlist assembly, validation and emission for networks of N instances of one
//! rust-hdl leaf (default sizes 1000, 2000, 5000, 10000), and the bytes emitted per instance.
//!
//! Run: `cargo run --release -p lcanet-hdl --example emit_bench [N ...]`

use lcanet_hdl::netlist::{names, Design, Expr, ModuleBuilder};
use lcanet_hdl::rusthdl::add_block;
use rust_hdl::prelude::*;
use std::time::Instant;

/// Two requests in, two grants out (every other clock), a 4-bit count of request 0.
#[derive(LogicBlock)]
struct Switch {
    pub clock: Signal<In, Clock>,
    pub req: Vec<Signal<In, Bit>>,
    pub grant: Vec<Signal<Out, Bit>>,
    pub count: Signal<Out, Bits<4>>,
    state: DFF<Bits<4>>,
    phase: DFF<Bit>,
    one: Constant<Bits<4>>,
    _d: usize,
}

impl Switch {
    fn new(d: usize) -> Self {
        Self {
            clock: Default::default(),
            req: (0..d).map(|_| Default::default()).collect(),
            grant: (0..d).map(|_| Default::default()).collect(),
            count: Default::default(),
            state: Default::default(),
            phase: Default::default(),
            one: Constant::new(1.into()),
            _d: d,
        }
    }
}

impl Logic for Switch {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, phase);
        self.count.next = self.state.q.val();
        for i in 0..self._d {
            self.grant[i].next = self.req[i].val() & self.phase.q.val();
        }
        if self.req[0].val() {
            self.state.d.next = self.state.q.val() + self.one.val();
        }
        self.phase.d.next = !self.phase.q.val();
    }
}

/// `n` switches in levels of `per_level`; switch `s` of level `l > 0` takes its requests
/// from grants of switches `s` and `(s + 1) % per_level` of level `l - 1` (a shuffle).
fn network(n: usize, per_level: usize) -> Design {
    let mut design = Design::new("bench_top");
    design.param("instances", n).param("per_level", per_level);
    let leaf = add_block(&mut design, "switch_d2", &mut Switch::new(2)).expect("imports");
    let leaf = design.module(&leaf).expect("added").clone();
    let levels = n.div_ceil(per_level);
    let mut m = ModuleBuilder::new("bench_top");
    m.input("clock", 1).input("pe_in", 2 * per_level);
    let mut last_level = 0;
    for i in 0..n {
        let (level, sw) = (i / per_level, i % per_level);
        let inst = names::lvl_sw(level, sw);
        let (r0, r1) = if level == 0 {
            (Expr::bit("pe_in", 2 * sw), Expr::bit("pe_in", 2 * sw + 1))
        } else {
            let a = names::output_net(&names::lvl_sw(level - 1, sw), "grant_0");
            let b = names::output_net(&names::lvl_sw(level - 1, (sw + 1) % per_level), "grant_1");
            (Expr::sig(a), Expr::sig(b))
        };
        m.instance_of(&inst, &leaf)
            .pin("clock", "clock")
            .pin("req_0", r0)
            .pin("req_1", r1);
        m.allow_unread(names::output_net(&inst, "count"));
        last_level = level;
    }
    // Grants of the last level leave the network; earlier levels' grants are all read.
    let last: Vec<Expr> = (0..per_level)
        .filter(|sw| last_level * per_level + sw < n)
        .flat_map(|sw| {
            let inst = names::lvl_sw(last_level, sw);
            [
                names::output_net(&inst, "grant_1"),
                names::output_net(&inst, "grant_0"),
            ]
        })
        .map(Expr::sig)
        .collect();
    m.output("pe_out", last.len());
    m.assign("pe_out", Expr::concat(last));
    if levels * per_level != n {
        // A partial last level leaves some grants of the level before unread.
        for sw in n % per_level..per_level {
            for p in ["grant_0", "grant_1"] {
                m.allow_unread(names::output_net(&names::lvl_sw(last_level - 1, sw), p));
            }
        }
    }
    design.add_module(m.build()).expect("new");
    design
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("instance count"))
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1000, 2000, 5000, 10000]
    } else {
        sizes
    };
    println!("instances  build_ms  validate_ms  emit_ms(incl. validate)  top_bytes  total_bytes  bytes/instance");
    for n in sizes {
        let t = Instant::now();
        let design = network(n, 50);
        let build = t.elapsed();
        let t = Instant::now();
        design.validate().expect("valid");
        let validate = t.elapsed();
        let t = Instant::now();
        let emitted = design.emit().expect("valid");
        let emit = t.elapsed();
        let top = emitted.modules.last().expect("top").contents.len();
        let total = emitted.module_bytes();
        println!(
            "{n:>9}  {:>8.1}  {:>11.1}  {:>23.1}  {top:>9}  {total:>11}  {:>14.1}",
            build.as_secs_f64() * 1e3,
            validate.as_secs_f64() * 1e3,
            emit.as_secs_f64() * 1e3,
            top as f64 / n as f64
        );
    }
}
