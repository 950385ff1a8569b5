//! Helpers shared by the integration tests: paths of the hand-written designs.
#![allow(dead_code)]

use std::path::PathBuf;

/// `testbench/tests/data/<name>`.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}
