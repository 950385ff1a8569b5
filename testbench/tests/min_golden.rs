//! Golden files: the emitted Verilog of the omega network at m = 2, B = 2 (the switch,
//! the ATAPE unit, the controller and the top) is compared byte for byte with
//! `tests/min_golden/`. After an intended change: `UPDATE_GOLDEN=1 cargo test -p
//! lcanet-testbench --test min_golden`, then review `git diff`.

use lcanet_hdl::min::build;
use lcanet_hdl::style::check_files;
use lcanet_sim::min::{Min, Network};
use std::path::Path;

#[test]
fn omega_m2_matches_golden_files() {
    let min = Min::new(Network::Omega, 2).unwrap();
    let emitted = build(&min, 2).unwrap().design.emit().unwrap();
    let issues = check_files(
        emitted
            .modules
            .iter()
            .map(|f| (f.name.as_str(), f.contents.as_str())),
    );
    assert!(issues.is_empty(), "{issues:?}");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/min_golden");
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
            "{} differs from the golden file (UPDATE_GOLDEN=1 to regenerate, then review)\n{}",
            f.name,
            f.contents
        );
    }
}
