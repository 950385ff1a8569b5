//! The Verilator bridge: build a Verilog design into a cached shared library with a
//! generated C++ shim, load it with `libloading`, and drive it from Rust.
//!
//! ```no_run
//! use lcanet_testbench::bridge::{build, Design, Model, ModelLibrary, ModelOptions};
//! let info = build(&Design::new(["counter.v"], "counter"), &ModelOptions::default())?;
//! let lib = ModelLibrary::load(&info)?;
//! let mut m = Model::new(&lib, None)?;
//! let (clk, en, count) = (m.input("clk")?, m.input("en")?, m.port("count")?);
//! m.set(en, 1);
//! m.tick(clk);
//! assert_eq!(m.get(count), 1);
//! # Ok::<(), lcanet_testbench::bridge::BridgeError>(())
//! ```

mod build;
pub mod cache;
mod design;
mod error;
mod library;
mod model;
pub mod ports;
mod runtime;
pub mod shim;
mod shim_text;

pub use build::{build, build_in, cpp_bytes, BuildInfo, Manifest, LIBRARY_FILE, MANIFEST_FILE};
pub use cache::CacheOutcome;
pub use design::{Design, ModelOptions, Optimize, PublicSignals, QUICK_OPT_ENV};
pub use error::BridgeError;
pub use library::ModelLibrary;
pub use model::{InputId, Model, PortId, SignalId, PERIOD};
pub use ports::{Direction, PortSpec};

use std::path::Path;
use std::sync::Arc;

/// Builds (or reuses) `design` and instantiates one model, writing a VCD to `vcd` if given.
/// Returns the model and the build information (cache hit or built).
pub fn build_model(
    design: &Design,
    options: &ModelOptions,
    vcd: Option<&Path>,
) -> Result<(Model, BuildInfo), BridgeError> {
    let info = build(design, options)?;
    let lib: Arc<ModelLibrary> = ModelLibrary::load(&info)?;
    let model = Model::new(&lib, vcd)?;
    Ok((model, info))
}
