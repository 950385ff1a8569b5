//! Measures one emitted LCA switch: the Verilog, the C++ Verilator writes for it (with
//! `--trace` and the crosspoints public, as the network co-simulation builds it), the time
//! a cold Verilator build takes, the Verilated model's speed on legal traffic (bare: set the
//! inputs, tick; no golden model, no comparison), and the iCE40 LUTs and flip-flops Yosys
//! maps it to.
//!
//! ```sh
//! export LCANET_CACHE_DIR=/work/lcanet-cache
//! cargo run --release -p lcanet-testbench --example switch_measure -- [cb|tree] D U L [fixed|rr|random] [W]
//! ```
//! Default: `cb 2 2 10 rr 1` (the switch of CB-LCAN(2,2) with n = 1,024).
//!
//! The same figures for a ring of `RING` instances (the control registered once, `c` of
//! each switch into `a` of the next, `d` into `b` of the previous), where the switches'
//! inputs are internal signals as in a network: C++ per instance and time per switch and
//! bit-time.

use lcanet_hdl::lca::{add_switch, emit_switch, Layout};
use lcanet_hdl::netlist::{lit, Design as Netlist, ModuleBuilder};
use lcanet_sim::lcan::cycle::traffic::LegalTraffic;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams, SwitchTopology};
use lcanet_testbench::bridge::{build_in, Design, Model, ModelLibrary, ModelOptions, Optimize};
use lcanet_testbench::tools::{locate, yosys, Tool};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

fn parse() -> SwitchParams {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.into());
    let num = |i: usize, default: &str| get(i, default).parse::<usize>().expect("a number");
    let topology = match get(0, "cb").as_str() {
        "tree" => SwitchTopology::Tree,
        "cb" => SwitchTopology::Cb,
        t => panic!("topology {t}: tree or cb"),
    };
    let policy = match get(4, "rr").as_str() {
        "fixed" => ArbiterPolicy::Fixed,
        "rr" => ArbiterPolicy::RoundRobin,
        "random" => ArbiterPolicy::Random,
        p => panic!("policy {p}: fixed, rr or random"),
    };
    SwitchParams::new(
        num(1, "2"),
        num(2, "2"),
        num(5, "1"),
        num(3, "10"),
        topology,
        policy,
    )
    .expect("valid parameters")
}

/// `n` bit-times of legal traffic as (ctl_init, ctl_mode, ctl_last, ctl_clear, ctl_level, a, b).
fn stimulus(p: SwitchParams, level: usize, n: usize) -> Vec<[u64; 7]> {
    let mut t = LegalTraffic::new(p, level, 1);
    let w = p.width;
    (0..n)
        .map(|_| {
            let i = t.next_input();
            let lanes = |v: &[u64]| {
                v.iter()
                    .enumerate()
                    .fold(0u64, |acc, (x, &l)| acc | l << (x * w))
            };
            let c = i.ctl;
            [
                u64::from(c.init),
                u64::from(c.mode),
                u64::from(c.last),
                u64::from(c.clear),
                u64::from(c.level),
                lanes(i.a()),
                lanes(i.b()),
            ]
        })
        .collect()
}

/// Cold build seconds and bit-times per second of `design` driven with `stim` (its first
/// `inputs.len()` columns go to `inputs`).
fn speed(design: &Design, inputs: &[&str], stim: &[[u64; 7]], optimize: Optimize) -> (f64, f64) {
    let models = tempfile::tempdir().expect("temp dir");
    let opts = ModelOptions {
        optimize,
        ..ModelOptions::default()
    };
    let info = build_in(models.path(), design, &opts).expect("build");
    let lib = ModelLibrary::load(&info).expect("load");
    let mut m = Model::new(&lib, None).expect("model");
    let ids: Vec<_> = inputs.iter().map(|n| m.input(n).expect("input")).collect();
    let clock = m.input("clock").expect("clock");
    if let Ok(lv) = m.input("level") {
        m.set(lv, 1);
    }
    let t0 = Instant::now();
    for s in stim {
        for (id, v) in ids.iter().zip(s) {
            m.set(*id, *v);
        }
        m.tick(clock);
    }
    let secs = t0.elapsed().as_secs_f64();
    (info.manifest.build_seconds, stim.len() as f64 / secs)
}

/// The broadcast control inputs and their widths.
const CTL: [(&str, usize); 5] = [
    ("ctl_init", 1),
    ("ctl_mode", 3),
    ("ctl_last", 1),
    ("ctl_clear", 1),
    ("ctl_level", 4),
];

/// Switches in the ring.
const RING: usize = 16;

/// A ring of `RING` switches behind one register stage of control.
fn ring(p: SwitchParams) -> Netlist {
    let lay = Layout::new(p);
    let (d, u, w) = (lay.d, lay.u, lay.w);
    let mut design = Netlist::new("ring");
    let sw = add_switch(&mut design, &lay).expect("switch");
    let mut m = ModuleBuilder::new("ring");
    let clock = m.clock();
    let ins: Vec<_> = CTL
        .into_iter()
        .map(|(n, wd)| (n, m.input(n, wd), m.reg(format!("{n}_q"), wd)))
        .collect();
    let a_in = m.input("a", d * w);
    let y = m.output("y", d * w);
    let c: Vec<_> = (0..RING)
        .map(|i| m.wire(format!("sw{i}_c"), d * w))
        .collect();
    let dd: Vec<_> = (0..RING)
        .map(|i| m.wire(format!("sw{i}_d"), u * w))
        .collect();
    for i in 0..RING {
        let a = if i == 0 {
            a_in.clone()
        } else {
            c[i - 1].clone()
        };
        let mut b = m
            .instance(format!("sw{i}"), &sw)
            .pin("clock", &clock)
            .pin("a", a)
            .pin("b", &dd[(i + 1) % RING])
            .pin("level", lit(4, (i % p.levels) as u64));
        for (n, _, r) in &ins {
            b = b.pin(*n, r);
        }
        if p.policy == ArbiterPolicy::Random {
            b = b
                .pin("seed16", lit(16, 0xACE1))
                .pin("salt_up", lit(16, i as u64))
                .pin("salt_dn", lit(16, 0x100 + i as u64));
        }
        let _ = b.pin("c", &c[i]).pin("d", &dd[i]);
    }
    m.assign(&y, &c[RING - 1]);
    m.always(|s| {
        for (_, i, r) in &ins {
            s.load(r, i);
        }
    });
    design.add_module(m.build()).expect("ring");
    design
}

/// Verilates `files` as the network co-simulation builds a switch (`--trace`, `xp_*`
/// public); returns the C++ bytes and the seconds it took.
fn verilate(dir: &Path, files: &[std::path::PathBuf], top: &str) -> (u64, f64) {
    let vlt = dir.join("public.vlt");
    std::fs::write(
        &vlt,
        "`verilator_config\npublic_flat_rd -module \"lca_switch_*\" -var \"xp_*\"\n",
    )
    .expect("vlt");
    let obj = dir.join("obj");
    let t0 = Instant::now();
    let out = Command::new(locate(Tool::Verilator).expect("verilator: run scripts/setup"))
        .args(["--cc", "--trace", "-Wall", "--top-module", top, "--Mdir"])
        .arg(&obj)
        .arg(&vlt)
        .args(files)
        .output()
        .expect("verilator runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        lcanet_testbench::bridge::cpp_bytes(&obj),
        t0.elapsed().as_secs_f64(),
    )
}

fn main() {
    let p = parse();
    let level = 1.min(p.levels - 1);
    let stim = stimulus(p, level, 400_000);
    let emitted = emit_switch(p).expect("emit");
    let dir = tempfile::tempdir().expect("temp dir");
    let files = emitted.write_to(dir.path()).expect("write");
    let top = emitted.top.clone();
    println!("{top}");
    println!(
        "Verilog: {} bytes, {} lines",
        emitted.module_bytes(),
        emitted
            .modules
            .iter()
            .map(|f| f.contents.lines().count())
            .sum::<usize>()
    );
    let (bytes, secs) = verilate(dir.path(), &files, &top);
    println!(
        "Verilator --cc --trace (xp_* public), switch as top: {bytes} bytes of C++, {secs:.2} s"
    );
    let quick = std::env::var_os("SIZES_ONLY").is_some();
    let design = Design::new(files.clone(), top.clone());
    let all = [
        "ctl_init",
        "ctl_mode",
        "ctl_last",
        "ctl_clear",
        "ctl_level",
        "a",
        "b",
    ];
    for optimize in [Optimize::Quick, Optimize::Fast]
        .into_iter()
        .filter(|_| !quick)
    {
        let (build, rate) = speed(&design, &all, &stim, optimize);
        println!(
            "  untraced model, {optimize:?}: cold build {build:.1} s, {rate:.0} bit-times/s ({:.0} ns per bit-time, bridge calls included)",
            1e9 / rate
        );
    }
    match yosys::synth_ice40(&files, &top)
        .ok()
        .filter(|_| !quick)
        .ok_or("skipped")
    {
        Ok(s) => println!("  iCE40: {} LUTs, {} flip-flops", s.luts, s.ffs),
        Err(e) => println!("  iCE40: {e}"),
    }
    let ring = ring(p).emit().expect("ring");
    let rdir = tempfile::tempdir().expect("temp dir");
    let rfiles = ring.write_to(rdir.path()).expect("write");
    let (bytes, secs) = verilate(rdir.path(), &rfiles, "ring");
    if let Ok(keep) = std::env::var("KEEP_RING") {
        let _ = std::process::Command::new("cp")
            .arg("-r")
            .arg(rdir.path())
            .arg(keep)
            .status();
    }
    println!(
        "ring of {RING}: {bytes} bytes of C++ ({} per switch), verilated in {secs:.2} s",
        bytes / RING as u64
    );
    if quick {
        return;
    }
    let design = Design::new(rfiles, "ring");
    let (build, rate) = speed(&design, &all[..6], &stim[..100_000], Optimize::Fast);
    println!(
        "  untraced, Fast: cold build {build:.1} s, {rate:.0} bit-times/s, {:.0} ns per switch and bit-time",
        1e9 / rate / RING as f64
    );
}
