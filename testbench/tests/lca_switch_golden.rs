//! Golden files: the emitted Verilog of the smallest switch (tree, d = 2, u = 1, W = 1,
//! l = 1, fixed priority) is compared byte for byte with `tests/lca_switch_golden/`.
//! After an intended change: `UPDATE_GOLDEN=1 cargo test -p lcanet-testbench --test
//! lca_switch_golden`, then review `git diff`.

use lcanet_hdl::lca::emit_switch;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams, SwitchTopology};
use std::path::Path;

#[test]
fn smallest_switch_matches_golden_files() {
    let params = SwitchParams::new(2, 1, 1, 1, SwitchTopology::Tree, ArbiterPolicy::Fixed).unwrap();
    let emitted = emit_switch(params).unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lca_switch_golden");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let _ = std::fs::remove_dir_all(&dir);
        emitted.write_to(&dir).unwrap();
        return;
    }
    let mut expected: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_GOLDEN=1)", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    expected.sort();
    let mut got: Vec<String> = emitted.files().map(|f| f.name.clone()).collect();
    got.sort();
    assert_eq!(got, expected, "the set of emitted files changed");
    for f in emitted.files() {
        let want = std::fs::read_to_string(dir.join(&f.name)).unwrap();
        assert!(
            want == f.contents,
            "{} differs from the golden file (UPDATE_GOLDEN=1 to regenerate, then review)",
            f.name
        );
    }
}
