//! Golden files: the emitted Verilog of the smallest switch (tree, d = 2, u = 1, W = 1,
//! l = 1, fixed priority) and of a CB-LCAN(2,2) switch with the random policy (l = 3: the
//! digit decoder, claim keys, the cyclic priority select, the LFSR) is compared byte for
//! byte with `tests/lca_switch_golden/`. After an intended change: `UPDATE_GOLDEN=1 cargo
//! test -p lcanet-testbench --test lca_switch_golden`, then review `git diff`.

use lcanet_hdl::lca::emit_switch;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams, SwitchTopology};
use std::path::Path;

#[test]
fn small_switches_match_golden_files() {
    let designs = [
        SwitchParams::new(2, 1, 1, 1, SwitchTopology::Tree, ArbiterPolicy::Fixed).unwrap(),
        SwitchParams::new(2, 2, 1, 3, SwitchTopology::Cb, ArbiterPolicy::Random).unwrap(),
    ];
    let emitted: Vec<_> = designs.iter().map(|p| emit_switch(*p).unwrap()).collect();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lca_switch_golden");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let _ = std::fs::remove_dir_all(&dir);
        for e in &emitted {
            e.write_to(&dir).unwrap();
        }
        return;
    }
    let mut expected: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_GOLDEN=1)", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    expected.sort();
    let mut got: Vec<String> = emitted
        .iter()
        .flat_map(|e| e.files().map(|f| f.name.clone()))
        .collect();
    got.sort();
    assert_eq!(got, expected, "the set of emitted files changed");
    for f in emitted.iter().flat_map(|e| e.files()) {
        let want = std::fs::read_to_string(dir.join(&f.name)).unwrap();
        assert!(
            want == f.contents,
            "{} differs from the golden file (UPDATE_GOLDEN=1 to regenerate, then review)",
            f.name
        );
    }
}
