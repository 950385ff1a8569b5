//! Errors of the Verilator bridge: building, loading and driving a model.

use std::path::{Path, PathBuf};

use crate::tools::ToolError;

/// What went wrong building, loading or driving a Verilated model.
#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    /// An external tool (verilator, make, g++) was missing or failed.
    #[error(transparent)]
    Tool(#[from] ToolError),
    /// A file operation failed.
    #[error("cannot {what} {path}: {message}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// OS error text.
        message: String,
    },
    /// The design given to the builder is not usable (no files, bad top name, ...).
    #[error("invalid design: {0}")]
    Design(String),
    /// A malformed environment setting (its name and the rule it breaks).
    #[error("invalid setting: {0}")]
    Setting(String),
    /// Verilator's generated header could not be read for ports.
    #[error("cannot read the ports of `{top}` from {path}: {detail}")]
    Header {
        /// Top module.
        top: String,
        /// The `V<top>.h` file.
        path: PathBuf,
        /// What was wrong.
        detail: String,
    },
    /// The caller's expected port list differs from Verilator's.
    #[error("ports of `{top}` differ from the expected list: {detail}")]
    PortsMismatch {
        /// Top module.
        top: String,
        /// Every difference.
        detail: String,
    },
    /// The shared library could not be loaded or lacks an entry point.
    #[error("cannot load model library {path}: {message}")]
    Load {
        /// The `.so` file.
        path: PathBuf,
        /// Loader message.
        message: String,
    },
    /// The model could not be instantiated (e.g. the VCD file cannot be opened).
    #[error("cannot create model `{top}`: {message}")]
    Create {
        /// Top module.
        top: String,
        /// The shim's message.
        message: String,
    },
    /// No top port has this name.
    #[error("`{top}` has no port `{name}` (ports: {known})")]
    NoSuchPort {
        /// Top module.
        top: String,
        /// The name asked for.
        name: String,
        /// The ports that exist.
        known: String,
    },
    /// The port is an output and cannot be driven.
    #[error("port `{name}` of `{top}` is an output, it cannot be driven")]
    NotAnInput {
        /// Top module.
        top: String,
        /// The port.
        name: String,
    },
    /// An internal signal lookup failed.
    #[error("cannot access signal `{name}` of `{top}`: {message}")]
    Signal {
        /// Top module.
        top: String,
        /// Hierarchical name asked for.
        name: String,
        /// Why.
        message: String,
    },
    /// A word buffer is shorter than the value it must hold.
    #[error("`{name}` is {width} bits ({need} words), the buffer has {got} words")]
    BufferTooSmall {
        /// Port or signal name.
        name: String,
        /// Width in bits.
        width: u32,
        /// Words needed.
        need: usize,
        /// Words given.
        got: usize,
    },
    /// A bug in lcanet itself (not the user's input).
    #[error("internal error in lcanet-testbench (a bug): {0}")]
    Internal(String),
}

impl BridgeError {
    pub(crate) fn io(what: &'static str, path: &Path, e: std::io::Error) -> Self {
        BridgeError::Io {
            what,
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }
}
