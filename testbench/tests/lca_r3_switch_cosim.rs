//! The R3 switch alone (`docs/protocol.md` §12) against its golden model
//! (`SwitchModel::r3`), bit-time by bit-time: random steps of every mode it has (`SRC`,
//! `PASS`, `REV`, `IDLE`, and the arbitration codes it treats as `IDLE`) with random lanes
//! on every input — so headers collide, ask for driven outputs, out-of-range ports and a
//! `B→D` turn — and `ctl_clear` where the protocol allows it. Every bit-time the outputs `c`,
//! `d` and the four crosspoint vectors must be equal, and no output may have two drivers.
//! The guard rules are exercised (rejections counted by the model) and grants happen.

use lcanet_hdl::lca::r3::{add_r3_switch, r3_switch_module_name};
use lcanet_hdl::netlist::Design as NetDesign;
use lcanet_sim::lcan::cycle::{
    ArbiterPolicy, Control, SwitchConsts, SwitchModel, SwitchParams, SwitchTopology,
};
use lcanet_sim::rng::seeded;
use lcanet_testbench::artifact_dir;
use lcanet_testbench::bridge::{build_model, Design, ModelOptions};
use rand::Rng;

fn cosim(d: usize, u: usize, w: usize, seed: u64, bit_times: usize) -> (u64, usize) {
    let f = lcanet_sim::lcan::cycle::src_mode::route_field_bits(d, u);
    let name = r3_switch_module_name(d, u, w, f);
    let dir = artifact_dir!(format!("{name}_s{seed}")).unwrap();
    let mut nd = NetDesign::new(name.clone());
    add_r3_switch(&mut nd, d, u, w, f).unwrap();
    let emitted = nd.emit().unwrap();
    let rtl = dir.file("rtl");
    emitted.write_to(&rtl).unwrap();
    let design = Design::from_file_list(&rtl.join(&emitted.file_list.name), name.clone()).unwrap();
    let opts = ModelOptions::default().with_public("lca_switch_r3_*", "xp_*");
    let (mut m, _) = build_model(&design, &opts, None).unwrap();
    let (clock, a_in, b_in) = (
        m.input("clock").unwrap(),
        m.input("a").unwrap(),
        m.input("b").unwrap(),
    );
    let ctl_in = ["ctl_init", "ctl_mode", "ctl_last", "ctl_clear"].map(|s| m.input(s).unwrap());
    let (c_out, d_out) = (m.port("c").unwrap(), m.port("d").unwrap());
    let xps =
        ["xp_ac", "xp_ad", "xp_bc", "xp_bd"].map(|s| m.signal(&format!("{name}.{s}")).unwrap());
    let params = SwitchParams::new(d, u, w, 3, SwitchTopology::Cb, ArbiterPolicy::Fixed).unwrap();
    let mut gold = SwitchModel::r3(params, SwitchConsts::default());
    let mut rng = seeded(seed);
    let lanes = (1u64 << w) - 1;
    let (mut t, mut grants) = (0usize, 0usize);
    // A step plan: (mode code, length); the first bit-time is ctl_init.
    let mut plan: Vec<(u8, usize, bool)> = vec![(0, 1, false)];
    while plan.iter().map(|s| s.1).sum::<usize>() < bit_times {
        let code = match rng.gen_range(0..10) {
            0..=4 => 6,
            5 => 4,
            6 => 5,
            7 => 0,
            8 => rng.gen_range(1..4),
            _ => 7,
        };
        let clear = code != 6 && !(1..=3).contains(&code) && rng.gen_bool(0.5);
        plan.push((code, rng.gen_range(1..14), clear));
    }
    for (k, &(code, len, clear)) in plan.iter().enumerate() {
        for i in 0..len {
            let ctl = Control {
                init: k == 0,
                mode: code,
                last: i + 1 == len,
                clear: clear && i + 1 == len,
                level: 0,
            };
            let a: Vec<u64> = (0..d)
                .map(|_| {
                    if rng.gen_bool(0.4) {
                        rng.gen::<u64>() & lanes
                    } else {
                        0
                    }
                })
                .collect();
            let b: Vec<u64> = (0..u)
                .map(|_| {
                    if rng.gen_bool(0.4) {
                        rng.gen::<u64>() & lanes
                    } else {
                        0
                    }
                })
                .collect();
            let pack = |v: &[u64]| v.iter().rev().fold(0u64, |acc, &x| (acc << w) | x);
            m.set(a_in, pack(&a));
            m.set(b_in, pack(&b));
            m.set(ctl_in[0], u64::from(ctl.init));
            m.set(ctl_in[1], u64::from(ctl.mode));
            m.set(ctl_in[2], u64::from(ctl.last));
            m.set(ctl_in[3], u64::from(ctl.clear));
            m.tick(clock);
            let before = gold.crosspoints().closed_pairs().len();
            gold.clock(&ctl, 0, &a, &b)
                .unwrap_or_else(|e| panic!("seed {seed} t {t}: {e}"));
            grants += gold
                .crosspoints()
                .closed_pairs()
                .len()
                .saturating_sub(before);
            t += 1;
            let outs = gold.outputs();
            let ctx = format!("{name} seed {seed} bit-time {t} (step {k}, mode {code})");
            assert_eq!(m.get(c_out), pack(&outs[..d]), "{ctx}: c");
            assert_eq!(m.get(d_out), pack(&outs[d..]), "{ctx}: d");
            let xp = gold.crosspoints();
            let groups = [(0, 0, d, d), (0, d, d, u), (d, 0, u, d), (d, d, u, u)];
            for (g, &(i0, o0, rows, cols)) in groups.iter().enumerate() {
                let mut want = 0u64;
                for r in 0..rows {
                    for c in 0..cols {
                        if xp.is_closed(i0 + r, o0 + c) {
                            want |= 1 << (r * cols + c);
                        }
                    }
                }
                assert_eq!(m.read_signal(xps[g]), want, "{ctx}: crosspoint group {g}");
            }
            for o in 0..d + u {
                let drivers = (0..d + u).filter(|&i| xp.is_closed(i, o)).count();
                assert!(drivers <= 1, "{ctx}: output {o} has {drivers} drivers");
            }
        }
    }
    (gold.guard_rejections(), grants)
}

#[test]
fn r3_switch_matches_its_golden_model_on_random_streams() {
    for (d, u, w, seed) in [(2, 2, 1, 1), (3, 2, 1, 2), (4, 2, 2, 3), (2, 1, 3, 4)] {
        let (rejections, grants) = cosim(d, u, w, seed, 3000);
        eprintln!("d={d} u={u} W={w} seed {seed}: {grants} grants, {rejections} guard rejections");
        assert!(
            grants > 50 && rejections > 50,
            "d={d} u={u}: {grants} grants, {rejections} rejections"
        );
    }
}
