use super::*;
use crate::formal::Property;
use crate::lca::{switch_module_name, Layout};
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SetupMode, SwitchParams, SwitchTopology};

fn params(setup: SetupMode, policy: ArbiterPolicy) -> SwitchParams {
    SwitchParams::new(2, 2, 1, 3, SwitchTopology::Tree, policy)
        .unwrap()
        .with_setup(setup)
        .unwrap()
}

#[test]
fn harness_names_the_switch_and_every_property() {
    let p = params(SetupMode::Sequential, ArbiterPolicy::Fixed);
    let h = harness(&Layout::new(p), &switch_module_name(&p), None);
    assert_eq!(h.switch, "lca_switch_tree_d2_u2_w1_l3_fixed");
    for prop in Property::of(crate::formal::Block::Switch) {
        assert!(
            h.text.contains(&format!("`ifdef {}", prop.define())),
            "{prop:?}"
        );
    }
    assert!(h.text.contains("`ifdef AUX"));
    for (n, _) in exposed(&Layout::new(p)) {
        assert!(h.text.contains(&format!(".{n}({n})")), "{n}");
    }
    assert_eq!(Property::parse("p3"), Some(Property::P3));
    assert_eq!(Property::parse("P9"), None);
}

#[test]
fn the_views_of_the_outcome_follow_the_setup() {
    let lay = |s| Layout::new(params(s, ArbiterPolicy::RoundRobin));
    let names = |s| -> Vec<String> { exposed(&lay(s)).into_iter().map(|(n, _)| n).collect() };
    let seq = names(SetupMode::Sequential);
    assert!(seq.contains(&"dn_used_a".into()) && seq.contains(&"up_last".into()));
    let fast = names(SetupMode::Fast);
    // No register of the outcome so far (`*_gnt_q`, `*_last_q`, …); `up_q` and `dn_q` are
    // round-robin's wire pointers (§2), in every set-up.
    let so_far = |n: &String| n.ends_with("_q") && !["up_q", "dn_q"].contains(&n.as_str());
    assert!(
        !fast.contains(&"dn_used_a".into()) && !fast.iter().any(so_far),
        "{fast:?}"
    );
    assert!(fast.contains(&"up_q".into()) && fast.contains(&"dn_q".into()));
    // (2,2): 2 UP slots, 6 DOWN slots; M = 2 keeps the DOWN outcome so far in registers.
    let chunked = names(SetupMode::Chunked(2));
    assert!(chunked.contains(&"dn_gnt_q".into()) && !chunked.contains(&"up_gnt_q".into()));
    assert!(chunked.contains(&"dn_last_q".into()));
    let (ups, dns) = tracks(&lay(SetupMode::Chunked(2)));
    assert_eq!((ups.len(), dns.len()), (1, 2));
    assert_eq!((dns[0].chunk, dns[0].ahead, dns[0].commit), (2, 0, false));
    assert_eq!((dns[1].chunk, dns[1].ahead, dns[1].commit), (2, 1, true));
}

#[test]
fn a_symbolic_rom_is_free_but_constant_and_contents_are_pinned() {
    let p = SwitchParams::new(
        2,
        2,
        1,
        3,
        SwitchTopology::Table { pes: 8 },
        ArbiterPolicy::Fixed,
    )
    .unwrap();
    let lay = Layout::new(p);
    let name = switch_module_name(&p);
    let sym = harness(&lay, &name, Some(&Rom::Symbolic)).text;
    assert!(sym.contains("assume(tab_dn == f_tab_dn && tab_up == f_tab_up)"));
    assert!(!sym.contains("assume(tab_dn == 16'b"));
    let rom = Rom::Contents {
        down: vec![1, 2, 0, 0, 0, 0, 0, 0],
        up: vec![3; 24],
    };
    let fixed = harness(&lay, &name, Some(&rom)).text;
    assert!(
        fixed.contains("assume(tab_dn == 16'b0000000000001001);"),
        "{fixed}"
    );
    // The witness asks for every kind of crosspoint, A->D only where a packet can go up.
    let all = "!(f_seen_ac && f_seen_ad && f_seen_bc && f_seen_grant && f_seen_pass)";
    assert!(fixed.contains(all) && sym.contains(all));
    let top = Rom::Contents {
        down: vec![1, 2, 0, 0, 0, 0, 0, 0],
        up: vec![0; 24],
    };
    let top = harness(&lay, &name, Some(&top)).text;
    assert!(!top.contains(all));
    assert!(top.contains("!(f_seen_ac && f_seen_bc && f_seen_grant && f_seen_pass)"));
}
