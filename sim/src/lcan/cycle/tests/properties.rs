//! Properties of the model under random legal traffic, over random parameters.

use crate::lcan::cycle::traffic::LegalTraffic;
use crate::lcan::cycle::{
    ArbiterPolicy, Mode, SlotOutcome, SwitchConsts, SwitchModel, SwitchParams, SwitchTopology,
};
use proptest::prelude::*;

fn policy(i: usize) -> ArbiterPolicy {
    [
        ArbiterPolicy::Fixed,
        ArbiterPolicy::RoundRobin,
        ArbiterPolicy::Random,
    ][i % 3]
}

/// Runs `cycles` bit-times and checks, every bit-time: the protocol is respected (legal
/// traffic), the crosspoint invariants hold, undriven outputs are 0 in PASS. Returns how
/// many grants and rejections were seen.
fn run(params: SwitchParams, level: usize, seed: u64, cycles: usize) -> (usize, usize) {
    let mut tr = LegalTraffic::new(params, level, seed);
    let consts = SwitchConsts {
        level: level as u8,
        salt_up: 0x1234,
        salt_dn: 0x4321,
    };
    let mut m = SwitchModel::new(params, consts);
    let (mut grants, mut rejects) = (0, 0);
    let mut pass_driven: Option<Vec<bool>> = None;
    for t in 0..cycles {
        let out = m.outputs();
        if let Some(driven) = &pass_driven {
            for (o, &dv) in driven.iter().enumerate() {
                assert!(
                    dv || out[o] == 0,
                    "bit-time {t}: undriven output {o} is not 0"
                );
            }
        }
        let inp = tr.next_input();
        let mode = Mode::from_code(inp.ctl.mode);
        let xp = m.crosspoints();
        pass_driven = (mode == Mode::Pass && !inp.ctl.init)
            .then(|| (0..params.d + params.u).map(|o| xp.is_driven(o)).collect());
        m.clock(&inp.ctl, tr.seed16(), inp.a(), inp.b())
            .unwrap_or_else(|e| panic!("bit-time {t}: legal traffic broke the protocol: {e}"));
        m.crosspoints()
            .check_invariants()
            .unwrap_or_else(|e| panic!("bit-time {t}: {e}"));
        assert_eq!(
            m.guard_rejections(),
            0,
            "bit-time {t}: a guard rejected legal traffic"
        );
        if inp.ctl.last {
            let o = m.last_outcome();
            for s in o.up.iter().chain(&o.down) {
                match s {
                    SlotOutcome::Granted(_) => grants += 1,
                    SlotOutcome::Rejected => rejects += 1,
                    SlotOutcome::Idle => {}
                }
            }
        }
    }
    (grants, rejects)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn legal_traffic_keeps_protocol_and_invariants(
        d in 2usize..=5, u in 1usize..=4, w in 1usize..=3, l in 1usize..=4,
        cb in any::<bool>(), pol in 0usize..3, seed in any::<u64>(), lv in 0usize..4,
    ) {
        let topo = if cb { SwitchTopology::Cb } else { SwitchTopology::Tree };
        let divisors: Vec<usize> = (1..=d).filter(|k| d % k == 0).collect();
        let u = if cb { u } else { divisors[u % divisors.len()] };
        let params = SwitchParams::new(d, u, w, l, topo, policy(pol)).unwrap();
        run(params, lv % l, seed, 3000);
    }
}

#[test]
fn traffic_exercises_both_grants_and_rejections() {
    for (d, u, topo) in [(4, 2, SwitchTopology::Tree), (3, 3, SwitchTopology::Cb)] {
        let params = SwitchParams::new(d, u, 1, 3, topo, ArbiterPolicy::RoundRobin).unwrap();
        let (g, r) = run(params, 1, 7, 20_000);
        assert!(g > 100 && r > 10, "{d},{u}: {g} grants, {r} rejections");
    }
}

#[test]
fn traffic_is_reproducible_from_its_seed() {
    let params =
        SwitchParams::new(4, 2, 2, 3, SwitchTopology::Tree, ArbiterPolicy::Random).unwrap();
    let mut a = LegalTraffic::new(params, 1, 99);
    let mut b = LegalTraffic::new(params, 1, 99);
    let mut c = LegalTraffic::new(params, 1, 100);
    let (mut same, mut differ) = (true, false);
    for _ in 0..2000 {
        let (x, y, z) = (a.next_input(), b.next_input(), c.next_input());
        same &= x == y;
        differ |= x != z;
    }
    assert!(same && differ);
}
