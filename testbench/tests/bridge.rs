//! The Verilator bridge on hand-written designs: values against Rust-computed expectations,
//! ports of every storage width, internal signals by hierarchical name, VCD contents, the
//! build cache (hit, parallel builds) and error reports.

mod common;

use std::sync::Arc;

use common::{data, hier_design, u128_words, HierGolden};
use lcanet_testbench::artifact_dir;
use lcanet_testbench::bridge::{
    build_in, build_model, BridgeError, CacheOutcome, Design, Direction, Model, ModelLibrary,
    ModelOptions, PortSpec,
};
use rand::{Rng, SeedableRng};

#[test]
fn counter_counts_like_rust() {
    let design = Design::new([data("counter.v")], "counter");
    let (mut m, _) = build_model(&design, &ModelOptions::default(), None).unwrap();
    let (clk, rst, en) = (
        m.input("clk").unwrap(),
        m.input("rst").unwrap(),
        m.input("en").unwrap(),
    );
    let count = m.port("count").unwrap();
    let mut expected: u8 = 0;
    for bit_time in 0..600u32 {
        let r = bit_time < 2 || bit_time == 300;
        let e = bit_time % 3 != 0;
        m.set(rst, u64::from(r));
        m.set(en, u64::from(e));
        m.tick(clk);
        expected = if r {
            0
        } else {
            expected.wrapping_add(u8::from(e))
        };
        assert_eq!(m.get(count), u64::from(expected), "bit-time {bit_time}");
    }
    assert_eq!(m.time(), 6000);
}

fn wide_add(a: &[u32; 5], b: &[u32; 5], width: u32) -> [u32; 5] {
    let mut out = [0u32; 5];
    let mut carry = 0u64;
    for i in 0..5 {
        let s = u64::from(a[i]) + u64::from(b[i]) + carry;
        out[i] = s as u32;
        carry = s >> 32;
    }
    out[4] &= (1u32 << (width - 128)) - 1;
    out
}

#[test]
fn ports_of_every_width_round_trip() {
    let expected_ports = vec![
        PortSpec::new("a1", Direction::Input, 1),
        PortSpec::new("a7", Direction::Input, 7),
        PortSpec::new("a33", Direction::Input, 33),
        PortSpec::new("a64", Direction::Input, 64),
        PortSpec::new("a65", Direction::Input, 65),
        PortSpec::new("a130", Direction::Input, 130),
        PortSpec::new("y1", Direction::Output, 1),
        PortSpec::new("y7", Direction::Output, 7),
        PortSpec::new("y33", Direction::Output, 33),
        PortSpec::new("y64", Direction::Output, 64),
        PortSpec::new("y65", Direction::Output, 65),
        PortSpec::new("y130", Direction::Output, 130),
    ];
    let design = Design::new([data("widths.v")], "widths").with_ports(expected_ports);
    let opts = ModelOptions::default();
    let (mut m, info) = build_model(&design, &opts, None).unwrap();
    assert_eq!(info.manifest.ports.len(), 12);
    let i = |m: &Model, n: &str| m.input(n).unwrap();
    let (a1, a7, a33, a64, a65, a130) = (
        i(&m, "a1"),
        i(&m, "a7"),
        i(&m, "a33"),
        i(&m, "a64"),
        i(&m, "a65"),
        i(&m, "a130"),
    );
    let o = |m: &Model, n: &str| m.port(n).unwrap();
    let (y1, y7, y33, y64, y65, y130) = (
        o(&m, "y1"),
        o(&m, "y7"),
        o(&m, "y33"),
        o(&m, "y64"),
        o(&m, "y65"),
        o(&m, "y130"),
    );
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut w65 = [0u32; 3];
    let mut w130 = [0u32; 5];
    for round in 0..200 {
        let v1: u64 = rng.gen_range(0..2);
        let v7: u64 = rng.gen_range(0..128);
        let v33: u64 = rng.gen::<u64>() & ((1 << 33) - 1);
        let v64: u64 = if round == 0 { u64::MAX } else { rng.gen() };
        let v65: u128 = if round == 0 {
            (1u128 << 65) - 1
        } else {
            rng.gen::<u128>() & ((1u128 << 65) - 1)
        };
        let mut v130 = [0u32; 5];
        for w in v130.iter_mut() {
            *w = if round == 0 { u32::MAX } else { rng.gen() };
        }
        v130[4] &= 3;
        m.set(a1, v1);
        m.set(a7, v7 | 0x80); // bit 7 is above the width: dropped
        m.set(a33, v33);
        m.set(a64, v64);
        m.set_words(a65, &u128_words(v65)[..3]).unwrap();
        m.set_words(a130, &v130).unwrap();
        m.step();
        assert_eq!(m.get(y1), v1 ^ 1, "y1 round {round}");
        assert_eq!(m.get(y7), (v7 + 1) & 0x7f, "y7 round {round}");
        assert_eq!(
            m.get(y33),
            v33 ^ ((v1 << 32) | 0xdead_beef),
            "y33 round {round}"
        );
        assert_eq!(m.get(y64), v64.wrapping_add(v33), "y64 round {round}");
        m.get_words(y65, &mut w65).unwrap();
        let rot = (v65 >> 1) | ((v65 & 1) << 64);
        assert_eq!(w65, u128_words(rot)[..3], "y65 round {round}");
        assert_eq!(m.get(y65), rot as u64, "y65 low 64 bits, round {round}");
        m.get_words(y130, &mut w130).unwrap();
        let w = u128_words(v65);
        let add = wide_add(&v130, &[w[0], w[1], w[2], 0, 0], 130);
        assert_eq!(w130, add, "y130 round {round}");
        // Inputs read back as set (masked to their width).
        assert_eq!(m.get(a7), v7);
    }
    // A too-short buffer is an error, not a crash.
    let err = m.get_words(y130, &mut [0u32; 4]).unwrap_err();
    assert!(
        err.to_string()
            .contains("`y130` is 130 bits (5 words), the buffer has 4"),
        "{err}"
    );
}

#[test]
fn internal_signals_by_hierarchical_name() {
    let (mut m, _) = build_model(
        &hier_design(),
        &ModelOptions {
            trace: false,
            ..common::hier_observed()
        },
        None,
    )
    .unwrap();
    let (clk, rst, din) = (
        m.input("clk").unwrap(),
        m.input("rst").unwrap(),
        m.input("din").unwrap(),
    );
    let dout = m.port("dout").unwrap();
    let xp0 = m.signal("hier.lvl0_sw0.xp_sel").unwrap();
    let xp1 = m.signal("hier.lvl1_sw0.xp_sel").unwrap();
    let total1 = m.signal("hier.lvl1_sw0.total").unwrap();
    let mid = m.signal("hier.mid").unwrap();
    assert_eq!(m.signal_width(total1), Some(70));
    let mut g = HierGolden::default();
    let mut words = [0u32; 3];
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    for bit_time in 0..2000 {
        let r = bit_time < 1;
        let d: u8 = if bit_time < 1000 {
            15
        } else {
            rng.gen_range(0..16)
        };
        m.set(rst, u64::from(r));
        m.set(din, u64::from(d));
        m.tick(clk);
        g.clock(r, d);
        assert_eq!(m.read_signal(xp0), u64::from(g.xp0), "xp0 at {bit_time}");
        assert_eq!(m.read_signal(xp1), u64::from(g.xp1), "xp1 at {bit_time}");
        assert_eq!(m.read_signal(mid), u64::from(g.xp0), "mid at {bit_time}");
        assert_eq!(m.get(dout), u64::from(g.xp1), "dout at {bit_time}");
        m.read_signal_words(total1, &mut words).unwrap();
        assert_eq!(words, u128_words(g.total1)[..3], "total1 at {bit_time}");
    }
    let err = m.signal("hier.lvl0_sw9.xp_sel").unwrap_err().to_string();
    assert!(
        err.contains("no scope `hier.lvl0_sw9`") && err.contains("hier.lvl1_sw0"),
        "{err}"
    );
    let err = m.signal("hier.lvl0_sw0.nope").unwrap_err().to_string();
    assert!(
        err.contains("no signal `nope`") && err.contains("xp_sel"),
        "{err}"
    );
}

#[test]
fn signals_need_a_public_build_and_ports_are_checked() {
    let opts = ModelOptions::default();
    let (mut m, _) =
        build_model(&Design::new([data("counter.v")], "counter"), &opts, None).unwrap();
    let err = m.signal("counter.count").unwrap_err().to_string();
    assert!(err.contains("without public internal signals"), "{err}");
    assert!(matches!(
        m.input("count"),
        Err(BridgeError::NotAnInput { .. })
    ));
    let err = m.port("cnt").unwrap_err().to_string();
    assert!(
        err.contains("no port `cnt`") && err.contains("count"),
        "{err}"
    );
    let err = Model::new(
        &ModelLibrary::load(
            &lcanet_testbench::bridge::build(&Design::new([data("counter.v")], "counter"), &opts)
                .unwrap(),
        )
        .unwrap(),
        Some(std::path::Path::new("/tmp/x.vcd")),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("built without tracing"), "{err}");
    let wrong = Design::new([data("counter.v")], "counter").with_ports(vec![PortSpec::new(
        "count",
        Direction::Output,
        9,
    )]);
    let err = lcanet_testbench::bridge::build(&wrong, &opts)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("port `count`: expected Output 9 bit(s), Verilator has Output 8"),
        "{err}"
    );
    assert!(err.contains("top port `clk` is missing"), "{err}");
}

#[test]
fn bad_verilog_reports_verilator_stderr() {
    let dir = artifact_dir!("bad_verilog").unwrap();
    let f = dir.file("broken.v");
    std::fs::write(
        &f,
        "module broken(input a, output y);\n  assign y = a +;\nendmodule\n",
    )
    .unwrap();
    let cache = tempfile::tempdir().unwrap();
    let err = build_in(
        cache.path(),
        &Design::new([&f], "broken"),
        &ModelOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("verilator failed") && err.contains("broken.v:2"),
        "{err}"
    );
    // Nothing half-written is left in the cache.
    let entries: Vec<_> = std::fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        entries.iter().all(|n| n == "locks" || n == "tmp"),
        "{entries:?}"
    );
    assert_eq!(
        std::fs::read_dir(cache.path().join("tmp")).unwrap().count(),
        0
    );
}

#[test]
fn vcd_has_the_design_hierarchy_and_values() {
    let dir = artifact_dir!("vcd_hierarchy").unwrap();
    let vcd_path = dir.file("hier.vcd");
    let (mut m, _) =
        build_model(&hier_design(), &ModelOptions::traced(true), Some(&vcd_path)).unwrap();
    assert_eq!(m.vcd_path(), Some(vcd_path.as_path()));
    let (clk, rst, din) = (
        m.input("clk").unwrap(),
        m.input("rst").unwrap(),
        m.input("din").unwrap(),
    );
    let mut g = HierGolden::default();
    for bt in 0..20u8 {
        m.set(rst, u64::from(bt == 0));
        m.set(din, u64::from(bt % 16));
        m.tick(clk);
        g.clock(bt == 0, bt % 16);
    }
    drop(m); // closes the VCD
    let file = std::fs::File::open(&vcd_path).unwrap();
    let mut p = vcd::Parser::new(std::io::BufReader::new(file));
    let header = p.parse_header().unwrap();
    let xp = header
        .find_var(&["TOP", "hier", "lvl1_sw0", "xp_sel"])
        .expect("TOP.hier.lvl1_sw0.xp_sel");
    assert_eq!(xp.size, 4);
    let total = header
        .find_var(&["TOP", "hier", "lvl0_sw0", "total"])
        .expect("lvl0_sw0.total");
    assert_eq!(total.size, 70);
    assert!(header.find_var(&["TOP", "hier", "lvl0_sw0", "d"]).is_some());
    assert!(header.find_var(&["TOP", "clk"]).is_some());
    let (xp_code, total_code) = (xp.code, total.code);
    let (mut last_xp, mut last_total, mut last_time) = (Vec::new(), Vec::new(), 0);
    for cmd in p {
        match cmd.unwrap() {
            vcd::Command::Timestamp(t) => last_time = t,
            vcd::Command::ChangeVector(c, v) if c == xp_code => last_xp = v.to_vec(),
            vcd::Command::ChangeVector(c, v) if c == total_code => last_total = v.to_vec(),
            _ => {}
        }
    }
    let bits = |v: &[vcd::Value]| {
        v.iter()
            .fold(0u128, |a, b| (a << 1) | u128::from(*b == vcd::Value::V1))
    };
    assert_eq!(last_time, 195, "20 bit-times: last dump at 19*10 + 5");
    assert_eq!(bits(&last_xp), u128::from(g.xp1));
    assert_eq!(bits(&last_total), g.total0);
}

#[test]
fn second_build_is_a_cache_hit() {
    let cache = tempfile::tempdir().unwrap();
    let d = Design::new([data("counter.v")], "counter");
    let o = ModelOptions::default();
    let first = build_in(cache.path(), &d, &o).unwrap();
    assert_eq!(first.outcome, CacheOutcome::Built);
    let second = build_in(cache.path(), &d, &o).unwrap();
    assert_eq!(second.outcome, CacheOutcome::Hit);
    assert_eq!(first.dir, second.dir);
    assert!(second.library.is_file());
    // Another option is another entry.
    let other = ModelOptions::traced(true);
    let third = build_in(cache.path(), &d, &other).unwrap();
    assert_eq!(third.outcome, CacheOutcome::Built);
    assert_ne!(third.dir, first.dir);
}

#[test]
fn models_compile_against_the_shared_precompiled_header() {
    let cache = tempfile::tempdir().unwrap();
    let d = Design::new([data("counter.v")], "counter");
    // Written as one `__ALL.cpp` (a small model, the shim one of its files) and split
    // into several files (fast and slow code apart, the shim compiled on its own): every
    // object includes the shared header, none of the model's own is precompiled.
    for (split, objects) in [
        (false, &["Vcounter__ALL"][..]),
        (true, &["Vcounter", "shim", "Slow"][..]),
    ] {
        let o = ModelOptions {
            extra_args: if split {
                vec!["--output-split".into(), "1".into()]
            } else {
                Vec::new()
            },
            ..ModelOptions::default()
        };
        let built = build_in(cache.path(), &d, &o).unwrap();
        let log = std::fs::read_to_string(built.dir.join("build.log")).unwrap();
        // The model's own compiles (a cold cache also builds the runtime library here).
        let compiles: Vec<&str> = log
            .lines()
            .filter(|l| l.contains(" -c ") && (l.contains("Vcounter") || l.contains("shim")))
            .collect();
        for object in objects {
            assert!(
                compiles.iter().any(|l| l.contains(object)),
                "no compile of {object}: {log}"
            );
        }
        // The shim: inside the single unit, or compiled by itself, never both. The unit's
        // file is written by the build's own `includer.sh`, not Verilator's Python script.
        let in_unit = log
            .lines()
            .any(|l| l.contains("includer.sh -D") && l.contains("../shim.cpp"));
        assert!(!log.contains("bin/verilator_includer"), "{log}");
        let alone = compiles.iter().any(|l| l.contains("-o shim.o"));
        assert_eq!((in_unit, alone), (!split, split), "{log}");
        let shared = |l: &&str| l.contains("/vl_pch.h.fast") || l.contains("/vl_pch.h.slow");
        assert!(compiles.iter().all(shared), "{log}");
        assert!(!log.contains("Vcounter__pch.h.fast.gch"), "{log}");
        let slow = compiles.iter().any(|l| l.contains("/vl_pch.h.slow"));
        assert_eq!(split, slow, "{log}");
        // It lives in the runtime cache, precompiled.
        let include = compiles[0]
            .split_whitespace()
            .find(|w| w.ends_with("/vl_pch.h.fast") || w.ends_with("/vl_pch.h.slow"))
            .unwrap();
        let gch = std::path::PathBuf::from(format!("{include}.gch"));
        assert!(gch.is_file(), "{}", gch.display());
        let entry = gch.parent().unwrap().file_name().unwrap().to_str().unwrap();
        assert!(entry.starts_with("pch-"), "{entry}");
        // And the model counts.
        let mut m = Model::new(&ModelLibrary::load(&built).unwrap(), None).unwrap();
        let (clk, en) = (m.input("clk").unwrap(), m.input("en").unwrap());
        let count = m.port("count").unwrap();
        m.set(en, 1);
        let start = m.get(count);
        for _ in 0..5 {
            m.tick(clk);
        }
        assert_eq!(m.get(count), (start + 5) & 0xff);
    }
}

#[test]
fn parallel_builds_of_one_design_build_once() {
    let cache = Arc::new(tempfile::tempdir().unwrap());
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let cache = Arc::clone(&cache);
            std::thread::spawn(move || {
                let info =
                    build_in(cache.path(), &hier_design(), &ModelOptions::default()).unwrap();
                let lib = ModelLibrary::load(&info).unwrap();
                let mut m = Model::new(&lib, None).unwrap();
                let (clk, din) = (m.input("clk").unwrap(), m.input("din").unwrap());
                m.set(din, 5);
                m.tick(clk);
                m.tick(clk);
                (info.outcome, m.get(m.port("dout").unwrap()))
            })
        })
        .collect();
    let mut results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    results.sort_by_key(|r| r.0 == CacheOutcome::Hit);
    assert_eq!(results[0].0, CacheOutcome::Built);
    assert_eq!(results[1].0, CacheOutcome::Hit);
    assert_eq!(
        (results[0].1, results[1].1),
        (8, 8),
        "5 + 1 + 2 after two edges"
    );
}

#[test]
fn two_instances_of_one_library_are_independent() {
    let opts = ModelOptions::default().with_public("counter", "count");
    let info = lcanet_testbench::bridge::build(&Design::new([data("counter.v")], "counter"), &opts)
        .unwrap();
    let lib = ModelLibrary::load(&info).unwrap();
    let mut a = Model::new(&lib, None).unwrap();
    let mut b = Model::new(&lib, None).unwrap();
    let (clk, en, count) = (
        a.input("clk").unwrap(),
        a.input("en").unwrap(),
        a.port("count").unwrap(),
    );
    let xa = a.signal("counter.count").unwrap();
    let xb = b.signal("counter.count").unwrap();
    a.set(en, 1);
    b.set(en, 1);
    for _ in 0..5 {
        a.tick(clk);
    }
    for _ in 0..3 {
        b.tick(clk);
    }
    assert_eq!((a.get(count), b.get(count)), (5, 3));
    assert_eq!((a.read_signal(xa), b.read_signal(xb)), (5, 3));
}
