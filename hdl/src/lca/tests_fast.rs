//! The fast set-up (`docs/protocol.md` §13): every kind × policy × a few shapes elaborates,
//! validates and follows the RTL style rules; its module name and step lengths differ from
//! the sequential switch's, nothing else of the parameters does.

use super::{emit_switch, switch_module_name};
use crate::style::check_files;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SetupMode, SwitchParams, SwitchTopology};

fn shapes() -> Vec<SwitchParams> {
    let mut out = Vec::new();
    for policy in [
        ArbiterPolicy::Fixed,
        ArbiterPolicy::RoundRobin,
        ArbiterPolicy::Random,
    ] {
        for (d, u, w, l, t) in [
            (2, 1, 1, 3, SwitchTopology::Tree),
            (4, 2, 1, 3, SwitchTopology::Tree),
            (4, 4, 2, 2, SwitchTopology::Tree),
            (2, 2, 1, 3, SwitchTopology::Cb),
            (3, 3, 3, 4, SwitchTopology::Cb),
            (4, 4, 1, 1, SwitchTopology::Cb),
            (2, 2, 1, 3, SwitchTopology::Table { pes: 8 }),
            (3, 2, 2, 3, SwitchTopology::Table { pes: 12 }),
            (3, 3, 1, 1, SwitchTopology::Table { pes: 3 }),
        ] {
            let p = SwitchParams::new(d, u, w, l, t, policy).unwrap();
            out.push(p.with_setup(SetupMode::Fast).unwrap());
            // Chunked: one, two and three decisions per bit-time.
            out.push(p.with_setup(SetupMode::Chunked(1 + d % 3)).unwrap());
        }
    }
    out
}

#[test]
fn every_fast_shape_emits_and_follows_the_style_rules() {
    for p in shapes() {
        let e = emit_switch(p).unwrap_or_else(|err| panic!("{p:?}: {err}"));
        let files: Vec<(&str, &str)> = e
            .modules
            .iter()
            .map(|f| (f.name.as_str(), f.contents.as_str()))
            .collect();
        assert_eq!(files.len(), 1, "{p:?}: one module");
        assert!(files[0].0.contains("_fast"), "{p:?}: {}", files[0].0);
        let issues = check_files(files);
        assert!(issues.is_empty(), "{p:?}: {issues:?}");
    }
}

#[test]
fn the_fast_switch_has_its_own_name_and_no_arbitration_window() {
    let seq = SwitchParams::new(2, 2, 1, 8, SwitchTopology::Cb, ArbiterPolicy::RoundRobin).unwrap();
    let fast = seq.with_setup(SetupMode::Fast).unwrap();
    assert_eq!(
        switch_module_name(&fast),
        format!("{}_fast", switch_module_name(&seq))
    );
    let (fs, ff) = (seq.format(), fast.format());
    // CB(2,2), n = 256: P1 = 20, P2 = 32, PR = 12; K = d, 2u + d, u + d vs 0.
    assert_eq!((fs.t_up, fs.t_down, fs.t_probe), (23, 39, 17));
    assert_eq!((ff.t_up, ff.t_down, ff.t_probe), (21, 33, 13));
    // Two decisions per bit-time: K = ⌈2/2⌉ − 1, ⌈6/2⌉ − 1, ⌈4/2⌉ − 1.
    let two = seq.with_setup(SetupMode::Chunked(2)).unwrap();
    assert_eq!(
        switch_module_name(&two),
        format!("{}_fast2", switch_module_name(&seq))
    );
    let f2 = two.format();
    assert_eq!((f2.t_up, f2.t_down, f2.t_probe), (21, 35, 14));
    assert!(seq.with_setup(SetupMode::Chunked(0)).is_err());
}
