//! Every kind × policy × a few shapes elaborates, validates, and follows the RTL style rules.

use super::emit_switch;
use crate::style::check_files;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams, SwitchTopology};

const POLICIES: [ArbiterPolicy; 3] = [
    ArbiterPolicy::Fixed,
    ArbiterPolicy::RoundRobin,
    ArbiterPolicy::Random,
];

fn shapes() -> Vec<SwitchParams> {
    let mut out = Vec::new();
    for policy in POLICIES {
        for (d, u, w, l, t) in [
            (2, 1, 1, 1, SwitchTopology::Tree),
            (2, 1, 1, 3, SwitchTopology::Tree),
            (4, 2, 1, 3, SwitchTopology::Tree),
            (4, 4, 2, 2, SwitchTopology::Tree),
            (6, 2, 1, 4, SwitchTopology::Tree),
            (2, 2, 1, 3, SwitchTopology::Cb),
            (3, 3, 3, 4, SwitchTopology::Cb),
            (2, 2, 1, 10, SwitchTopology::Cb),
            (4, 4, 1, 1, SwitchTopology::Cb),
            (2, 2, 1, 16, SwitchTopology::Cb),
            (2, 2, 1, 3, SwitchTopology::Table { pes: 8 }),
            (3, 2, 2, 3, SwitchTopology::Table { pes: 12 }),
            (2, 1, 16, 2, SwitchTopology::Tree),
            (2, 1, 5, 2, SwitchTopology::Tree),
            (4, 2, 1, 2, SwitchTopology::Tree),
            (2, 2, 1, 1, SwitchTopology::Cb),
            (2, 2, 1, 2, SwitchTopology::Cb),
            (3, 3, 1, 1, SwitchTopology::Table { pes: 3 }),
        ] {
            out.push(SwitchParams::new(d, u, w, l, t, policy).unwrap());
        }
    }
    out
}

#[test]
fn every_shape_emits_and_follows_the_style_rules() {
    for p in shapes() {
        let e = emit_switch(p).unwrap_or_else(|err| panic!("{p:?}: {err}"));
        let files: Vec<(&str, &str)> = e
            .modules
            .iter()
            .map(|f| (f.name.as_str(), f.contents.as_str()))
            .collect();
        assert_eq!(files.len(), 1, "{p:?}: one module");
        let issues = check_files(files);
        assert!(issues.is_empty(), "{p:?}: {issues:?}");
    }
}
