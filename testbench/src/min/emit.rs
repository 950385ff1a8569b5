//! Emitting a MIN with ATAPE units as Verilog files (`lcanet_hdl::min::network`).

use lcanet_hdl::min::{build, MinRtlError};
use lcanet_hdl::netlist::NetlistError;
use lcanet_sim::min::Min;
use std::path::{Path, PathBuf};

/// The files of one emitted network.
#[derive(Debug, Clone)]
pub struct EmittedMin {
    /// The directory written.
    pub dir: PathBuf,
    /// The top module.
    pub top: String,
    /// The module files, dependencies first, the top last.
    pub files: Vec<PathBuf>,
    /// `<top>.f`.
    pub file_list: PathBuf,
    /// Number of module definitions.
    pub modules: usize,
    /// Bytes of Verilog.
    pub bytes: usize,
}

/// Why emitting failed.
#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    /// The generator refused the parameters or failed.
    #[error(transparent)]
    Rtl(#[from] MinRtlError),
    /// Validation or writing failed.
    #[error(transparent)]
    Netlist(#[from] NetlistError),
}

/// Generates `min` with `message_bits` payload bits per frame and writes it into `dir`
/// (nothing is written when generation fails).
pub fn emit(min: &Min, message_bits: u32, dir: &Path) -> Result<EmittedMin, EmitError> {
    let rtl = build(min, message_bits)?;
    let emitted = rtl.design.emit()?;
    let files = emitted.write_to(dir)?;
    Ok(EmittedMin {
        dir: dir.to_path_buf(),
        file_list: dir.join(&emitted.file_list.name),
        modules: emitted.modules.len(),
        bytes: emitted.module_bytes(),
        top: rtl.top,
        files,
    })
}
