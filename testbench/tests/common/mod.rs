//! Helpers shared by the integration tests: paths of the hand-written designs and the
//! golden models of the small test designs.
#![allow(dead_code)]

use std::path::PathBuf;

use lcanet_testbench::bridge::Design;

/// `testbench/tests/data/<name>`.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

/// The two-stage hierarchy (`stage.v`, `hier.v`) read from its file list.
pub fn hier_design() -> Design {
    Design::from_file_list(&data("hier.f"), "hier").expect("hier.f is readable")
}

/// Options for `hier.v` runs that watch its insides and write a VCD: traced, the stages'
/// signals and the top's `mid` public.
pub fn hier_observed() -> lcanet_testbench::bridge::ModelOptions {
    lcanet_testbench::bridge::ModelOptions::traced(true)
        .with_public("stage", "*")
        .with_public("hier", "mid")
}

/// Golden model of `hier.v`: two `stage` instances (INC 1 and 2) in a pipeline.
#[derive(Debug, Default, Clone, Copy)]
pub struct HierGolden {
    /// `lvl0_sw0.xp_sel`.
    pub xp0: u8,
    /// `lvl1_sw0.xp_sel`.
    pub xp1: u8,
    /// `lvl0_sw0.total` (70 bits; fits in u128).
    pub total0: u128,
    /// `lvl1_sw0.total`.
    pub total1: u128,
}

impl HierGolden {
    /// One rising clock edge with inputs `rst`, `din`.
    pub fn clock(&mut self, rst: bool, din: u8) {
        if rst {
            *self = HierGolden::default();
            return;
        }
        let mid = self.xp0;
        self.xp0 = (din + 1) & 0xf;
        self.total0 = (self.total0 + u128::from(din)) & ((1u128 << 70) - 1);
        self.xp1 = (mid + 2) & 0xf;
        self.total1 = (self.total1 + u128::from(mid)) & ((1u128 << 70) - 1);
    }
}

/// A 128-bit value as little-endian 32-bit words.
pub fn u128_words(v: u128) -> [u32; 4] {
    [
        v as u32,
        (v >> 32) as u32,
        (v >> 64) as u32,
        (v >> 96) as u32,
    ]
}
