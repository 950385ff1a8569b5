//! What to build: the design ([`Design`]: Verilog files, top module, optionally the expected
//! port list) and the build options ([`ModelOptions`]), both part of the cache key.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::BridgeError;
use super::ports::PortSpec;

/// What to build: Verilog files and the top module (the emitter's `<top>.f` list, read).
#[derive(Debug, Clone)]
pub struct Design {
    /// The Verilog files, in order.
    pub files: Vec<PathBuf>,
    /// The top module name.
    pub top: String,
    /// The ports the caller expects (checked against Verilator's); `None` to skip the check.
    pub expected_ports: Option<Vec<PortSpec>>,
}

impl Design {
    /// A design from files and a top module, without an expected port list.
    pub fn new(
        files: impl IntoIterator<Item = impl Into<PathBuf>>,
        top: impl Into<String>,
    ) -> Self {
        Design {
            files: files.into_iter().map(Into::into).collect(),
            top: top.into(),
            expected_ports: None,
        }
    }

    /// Reads a file list (`<top>.f`: one path per line, relative to the list's directory;
    /// blank lines and `//`/`#` comments ignored).
    pub fn from_file_list(list: &Path, top: impl Into<String>) -> Result<Self, BridgeError> {
        let text =
            fs::read_to_string(list).map_err(|e| BridgeError::io("read file list", list, e))?;
        let base = list.parent().unwrap_or(Path::new("."));
        let mut files = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let l = line.trim();
            if l.is_empty() || l.starts_with("//") || l.starts_with('#') {
                continue;
            }
            if l.starts_with('-') || l.starts_with('+') {
                return Err(BridgeError::Design(format!(
                    "{}:{}: options ({l:?}) are not supported in a file list, only file paths",
                    list.display(),
                    n + 1
                )));
            }
            files.push(base.join(l));
        }
        Ok(Design::new(files, top))
    }

    /// Sets the expected port list.
    pub fn with_ports(mut self, ports: Vec<PortSpec>) -> Self {
        self.expected_ports = Some(ports);
        self
    }
}

/// Build options; all of them are part of the cache key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelOptions {
    /// Build with VCD tracing (`--trace`), so that a model can write a VCD.
    pub trace: bool,
    /// Make every internal signal readable by hierarchical name (`--public-flat-rw`).
    pub public_signals: bool,
    /// Extra Verilator arguments.
    pub extra_args: Vec<String>,
    /// Modules to verilate once each as hierarchical blocks (`--hierarchical` with a
    /// `hier_block` configuration line per module): every instance then shares one compiled
    /// model instead of Verilator emitting code per instance, which is what makes networks
    /// of thousands of switches buildable. Empty: a flat build (and the cache key of the
    /// options as they were before this field existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hier_blocks: Vec<String>,
}

impl Default for ModelOptions {
    /// Tracing and public signals on: what the co-simulation contract needs.
    fn default() -> Self {
        ModelOptions {
            trace: true,
            public_signals: true,
            extra_args: Vec::new(),
            hier_blocks: Vec::new(),
        }
    }
}
