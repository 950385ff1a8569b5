//! The emitted Verilog of the 2-cube with 4-bit payloads (node, controller, top) must
//! equal the reviewed files under `tests/golden/hypercube_k2_l4/`, and every emitted
//! hypercube module follows the RTL style rules. Regenerate the golden files with
//! `UPDATE_GOLDEN=1 cargo test -p lcanet-hdl --test hypercube_golden` and review the diff.

use lcanet_hdl::hypercube::cube::cube_design;
use std::path::Path;

#[test]
fn the_2_cube_matches_its_golden_files() {
    let (design, _) = cube_design(2, 4).expect("valid parameters");
    let emitted = design.emit().expect("the cube is valid");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/hypercube_k2_l4");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let _ = std::fs::remove_dir_all(&dir);
        emitted.write_to(&dir).expect("golden files written");
        return;
    }
    let mut expected: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}; run with UPDATE_GOLDEN=1", dir.display()))
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    expected.sort();
    let mut produced: Vec<String> = emitted.files().map(|f| f.name.clone()).collect();
    produced.sort();
    assert_eq!(
        produced, expected,
        "emitted file set differs from the golden set"
    );
    for f in emitted.files() {
        let golden = std::fs::read_to_string(dir.join(&f.name)).expect("golden file");
        assert!(
            f.contents == golden,
            "{} differs from tests/golden/hypercube_k2_l4/{}; if intended, regenerate with \
             UPDATE_GOLDEN=1 and review the diff.\n--- emitted ---\n{}",
            f.name,
            f.name,
            f.contents
        );
    }
}

#[test]
fn every_emitted_module_follows_the_rtl_style_rules() {
    for (k, l) in [
        (1, 1),
        (1, 8),
        (2, 4),
        (3, 8),
        (4, 2),
        (6, 8),
        (10, 8),
        (12, 64),
    ] {
        let (design, _) = cube_design(k, l).expect("valid parameters");
        let emitted = design.emit().expect("the cube is valid");
        let issues = lcanet_hdl::style::check_files(
            emitted
                .modules
                .iter()
                .map(|f| (f.name.as_str(), f.contents.as_str())),
        );
        assert!(issues.is_empty(), "k = {k}, L = {l}: {issues:?}");
    }
}
