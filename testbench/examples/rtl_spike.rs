//! The measured spike behind `docs/decisions/word-level-rtl.md`: one piece of the LCA
//! switch — the step counter `bt` and the receive registers `rx_a` (`d` rows of `P1` bits
//! shifted `W` lanes per bit-time, cleared at the commit) — written two ways:
//!
//! - **A**: rust-hdl, generic over `Bits<N>` (`D` = `d·W` input lanes, `P` = `P1`); a run-time
//!   width must be one of the instantiations compiled in (`dispatch!` below);
//! - **B**: the word-level builder (`lcanet_hdl::netlist`), widths from parameters.
//!
//! For each it prints the emitted Verilog's size and shape (modules, `always` blocks, clock
//! nets) and verilates it with the switch's co-simulation options (`--trace`), reporting the
//! C++ Verilator writes and the verilation time, side by side.
//!
//! ```sh
//! cargo run --release -p lcanet-testbench --example rtl_spike [-- D P]   # default D = 2, P = 9 (CB-LCAN(2,2), l = 3)
//! ```

use lcanet_hdl::netlist::{cat, zero, Design, ModuleBuilder};
use lcanet_testbench::tools::{locate, Tool};
use rust_hdl::prelude::*;
use std::process::Command;
use std::time::Instant;

/// Option A: `bt` and `d` receive registers of `P` bits, `D = d` lanes (W = 1).
#[derive(LogicBlock)]
struct RxStep<const D: usize, const P: usize> {
    clock: Signal<In, Clock>,
    ctl_init: Signal<In, Bit>,
    ctl_last: Signal<In, Bit>,
    rx_en: Signal<In, Bit>,
    a: Signal<In, Bits<D>>,
    /// Row `x` of the receive registers, for the rest of the switch.
    rx: Vec<Signal<Out, Bits<P>>>,
    bt_out: Signal<Out, Bits<10>>,
    bt: DFF<Bits<10>>,
    r: Vec<DFF<Bits<P>>>,
    c_zero: Constant<Bits<10>>,
    c_one: Constant<Bits<10>>,
    c_max: Constant<Bits<10>>,
    p_zero: Constant<Bits<P>>,
    p_one: Constant<Bits<P>>,
}

impl<const D: usize, const P: usize> Default for RxStep<D, P> {
    fn default() -> Self {
        RxStep {
            clock: Default::default(),
            ctl_init: Default::default(),
            ctl_last: Default::default(),
            rx_en: Default::default(),
            a: Default::default(),
            rx: (0..D).map(|_| Default::default()).collect(),
            bt_out: Default::default(),
            bt: Default::default(),
            r: (0..D).map(|_| Default::default()).collect(),
            c_zero: Constant::new(0.into()),
            c_one: Constant::new(1.into()),
            c_max: Constant::new(1023.into()),
            p_zero: Constant::new(0.into()),
            p_one: Constant::new(1.into()),
        }
    }
}

impl<const D: usize, const P: usize> Logic for RxStep<D, P> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, bt);
        self.bt_out.next = self.bt.q.val();
        if self.bt.q.val() != self.c_max.val() {
            self.bt.d.next = self.bt.q.val() + self.c_one.val();
        }
        if self.ctl_init.val() | self.ctl_last.val() {
            self.bt.d.next = self.c_zero.val();
        }
        for x in 0..D {
            self.r[x].clock.next = self.clock.val();
            self.r[x].d.next = self.r[x].q.val();
            if self.rx_en.val() {
                self.r[x].d.next = self.r[x].q.val() << self.p_one.val();
                if self.a.val().get_bit(x) {
                    self.r[x].d.next = (self.r[x].q.val() << self.p_one.val()) | self.p_one.val();
                }
            }
            if self.ctl_init.val() | self.ctl_last.val() {
                self.r[x].d.next = self.p_zero.val();
            }
            self.rx[x].next = self.r[x].q.val();
        }
    }
}

/// Option A's Verilog for run-time `(d, p)`: only the instantiations compiled in exist.
fn option_a(d: usize, p: usize) -> Option<String> {
    macro_rules! dispatch {
        ($(($dd:literal, $pp:literal)),*) => {
            match (d, p) {
                $(($dd, $pp) => {
                    let mut b = RxStep::<$dd, $pp>::default();
                    b.connect_all();
                    Some(generate_verilog_unchecked(&b))
                })*
                _ => None,
            }
        };
    }
    dispatch!((2, 9), (2, 13), (4, 9), (4, 13), (4, 17))
}

/// Option B: the same block, elaborated from run-time `(d, w, p)`.
fn option_b(d: usize, w: usize, p: usize) -> Design {
    let name = format!("rx_step_d{d}_w{w}_p{p}");
    let mut m = ModuleBuilder::new(name.as_str());
    m.clock();
    let init = m.input("ctl_init", 1);
    let last = m.input("ctl_last", 1);
    let rx_en = m.input("rx_en", 1);
    let a = m.input("a", d * w);
    let rx_out = m.output("rx", d * p);
    let bt_out = m.output("bt", 10);
    let bt = m.reg("bt_q", 10);
    let rx = m.reg("rx_a", d * p);
    m.assign(&bt_out, &bt);
    m.assign(&rx_out, &rx);
    let clear = m.def("clear", &init | &last);
    m.always(|s| {
        s.if_(&clear, |s| s.load(&bt, zero(10)))
            .elif(bt.is_not(1023), |s| s.load(&bt, bt.plus(1)));
        s.if_(&clear, |s| s.load(&rx, zero(d * p)))
            .elif(&rx_en, |s| {
                for x in 0..d {
                    s.load(&rx.row(x, p), cat([rx.row(x, p).low(p - w), a.row(x, w)]));
                }
            });
    });
    let mut design = Design::new(name.as_str());
    design.add_module(m.build()).expect("new");
    design
}

struct Figures {
    verilog_bytes: usize,
    modules: usize,
    always_blocks: usize,
    clock_nets: usize,
    ports: usize,
    cpp_bytes: u64,
    verilate_seconds: f64,
    /// Warnings of `verilator -Wall`.
    wall_warnings: usize,
}

fn measure(label: &str, files: &[(String, String)], top: &str) -> Figures {
    let dir = std::env::temp_dir().join(format!("lcanet_rtl_spike_{label}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut paths = Vec::new();
    let text: String = files.iter().map(|(_, t)| t.as_str()).collect();
    for (name, t) in files {
        std::fs::write(dir.join(name), t).expect("write");
        paths.push(dir.join(name));
    }
    // Verilated with -Wall like every co-simulation build; the warnings are a figure of
    // their own. A design that only builds with its warnings waived (rust-hdl's output) is
    // verilated again with them non-fatal, so that its C++ can still be measured.
    let verilate = |extra: &[&str]| {
        let start = Instant::now();
        let out = Command::new(locate(Tool::Verilator).expect("verilator: run scripts/setup"))
            .args(["--cc", "--trace", "-Wall"])
            .args(extra)
            .args(["--top-module", top, "--Mdir"])
            .arg(dir.join("obj"))
            .args(&paths)
            .output()
            .expect("verilator runs");
        (out, start.elapsed().as_secs_f64())
    };
    let (mut status, mut verilate_seconds) = verilate(&[]);
    let wall_warnings = String::from_utf8_lossy(&status.stderr)
        .matches("%Warning-")
        .count();
    if !status.status.success() && wall_warnings > 0 {
        (status, verilate_seconds) = verilate(&["-Wno-fatal"]);
    }
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    Figures {
        verilog_bytes: text.len(),
        modules: text.matches("\nmodule ").count() + usize::from(text.starts_with("module ")),
        always_blocks: text.matches("always @").count(),
        clock_nets: text.matches("$clock = clock").count(),
        ports: port_count(&text, top),
        cpp_bytes: lcanet_testbench::bridge::cpp_bytes(&dir.join("obj")),
        verilate_seconds,
        wall_warnings,
    }
}

/// Ports of module `top`: the identifiers of its header's parenthesized list (rust-hdl) or
/// of its ANSI declarations (builder).
fn port_count(text: &str, top: &str) -> usize {
    let start = text.find(&format!("module {top}")).expect("top module");
    let header = &text[start..];
    let header = &header[..header.find(");").expect("end of the port list")];
    let list = &header[header.find('(').expect("port list") + 1..];
    list.split(',').filter(|p| !p.trim().is_empty()).count()
}

fn compare(d: usize, p: usize) {
    let Some(a_text) = option_a(d, p) else {
        println!(
            "d = {d}, P1 = {p}: option A cannot emit it: rust-hdl widths are compile-time constants and this (D, P) was not instantiated"
        );
        return;
    };
    let a = measure("a", &[("rx_step.v".into(), a_text)], "top");
    let emitted = option_b(d, 1, p).emit().expect("valid");
    let b_files: Vec<(String, String)> = emitted
        .modules
        .iter()
        .map(|f| (f.name.clone(), f.contents.clone()))
        .collect();
    let b = measure("b", &b_files, &emitted.top);
    println!("\nrx/step piece of the LCA switch, d = {d}, W = 1, P1 = {p}");
    println!("{:<36} {:>12} {:>12}", "", "A rust-hdl", "B builder");
    let row = |what: &str, x: String, y: String| println!("{what:<36} {x:>12} {y:>12}");
    row(
        "Verilog bytes",
        a.verilog_bytes.to_string(),
        b.verilog_bytes.to_string(),
    );
    row(
        "module definitions",
        a.modules.to_string(),
        b.modules.to_string(),
    );
    row(
        "ports of the block",
        a.ports.to_string(),
        b.ports.to_string(),
    );
    row(
        "always blocks",
        a.always_blocks.to_string(),
        b.always_blocks.to_string(),
    );
    row(
        "derived clock nets (`x$clock = clock`)",
        a.clock_nets.to_string(),
        b.clock_nets.to_string(),
    );
    row(
        "verilator -Wall warnings",
        a.wall_warnings.to_string(),
        b.wall_warnings.to_string(),
    );
    row(
        "Verilator C++ bytes (--trace)",
        a.cpp_bytes.to_string(),
        b.cpp_bytes.to_string(),
    );
    row(
        "verilation seconds",
        format!("{:.3}", a.verilate_seconds),
        format!("{:.3}", b.verilate_seconds),
    );
    println!(
        "ratio A/B: Verilog {:.2}, C++ {:.2}",
        a.verilog_bytes as f64 / b.verilog_bytes as f64,
        a.cpp_bytes as f64 / b.cpp_bytes as f64
    );
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("D and P are numbers"))
        .collect();
    match args.as_slice() {
        [d, p] => compare(*d, *p),
        _ => {
            // CB-LCAN(2,2) l = 3 and l = 7, T-LCAN(4,2) l = 3, and a shape not compiled in.
            for (d, p) in [(2, 9), (2, 13), (4, 17), (2, 11)] {
                compare(d, p);
            }
        }
    }
}
