//! Golden-file comparison: the emitted files of a design must equal the reviewed files
//! under `tests/golden/<name>/`; with `UPDATE_GOLDEN=1` they are rewritten instead (review
//! the diff).

use lcanet_hdl::netlist::Emitted;
use std::path::Path;

/// Compares (or, with `UPDATE_GOLDEN` set, rewrites) `tests/golden/<name>/`.
pub fn check(emitted: &Emitted, name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let _ = std::fs::remove_dir_all(&dir);
        emitted.write_to(&dir).expect("golden files written");
        return;
    }
    let mut expected: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}; run with UPDATE_GOLDEN=1", dir.display()))
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
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
            "{} differs from tests/golden/{name}/{}; if intended, regenerate with \
             UPDATE_GOLDEN=1 and review the diff.\n--- emitted ---\n{}",
            f.name,
            f.name,
            f.contents
        );
    }
}
