//! What every design built with the same Verilator configuration shares, each in a cache
//! entry of its own keyed by the design-independent `VM_*` settings of `V<top>_classes.mk`
//! that matter to it:
//! - the Verilator runtime library (`libverilated.a`, `runtime-<hash>/`), most of a cold
//!   build's time: one for traced and untraced designs, with or without public signals
//!   (it holds the VCD writer and DPI whoever needed it first);
//! - the runtime headers precompiled (`pch-<hash>/`, one per tracing setting and
//!   optimization level: the `-DVM_TRACE` flag must match for g++ to use the header).
//!   Verilator's makefile precompiles a header per model that also includes the model's
//!   own headers, twice (fast and slow code): 3–8 s of CPU per model, often more than the
//!   model's own code on small designs. The shared header holds only `verilated.h` and
//!   `verilated_dpi.h` (the expensive part); each model's objects include it first and
//!   then parse their own small headers (`docs/testbench.md`, "The build cache").

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
    let settings = Settings::parse(classes_mk);
    let objects = settings.runtime_objects();
    let mut h = KeyHasher::default();
    h.field("lcanet-verilator-runtime")
        .field(SHIM_VERSION.to_le_bytes())
        .field(banner)
        .field("-fPIC");
    for (name, value) in settings.flags(RUNTIME_NEUTRAL) {
        h.field(format!("{name}={value}"));
    }
    h.field(objects.join(" "));
    let key = format!("runtime-{}", h.finish());
    let (dir, _) = get_or_build(cache, &key, RUNTIME_FILE, |tmp| {
        let mut cmd = make(obj, mk)?;
        cmd.arg(RUNTIME_FILE)
            .arg(format!("VM_GLOBAL_FAST={}", objects.join(" ")))
            .arg("VM_GLOBAL_SLOW=");
        log.run(Tool::Make, &mut cmd)?;
        let from = obj.join(RUNTIME_FILE);
        let to = tmp.join(RUNTIME_FILE);
        fs::copy(&from, &to).map_err(|e| BridgeError::io("copy", &from, e))?;
        Ok(())
    })?;
    Ok(dir.join(RUNTIME_FILE))
}

/// The text of the shared precompiled header (also its cache key's first field).
const PCH_TEXT: &str = "\
// lcanet: the Verilator runtime headers, precompiled once for every model of one
// Verilator configuration and optimization level (testbench/src/bridge/runtime.rs).
#ifndef LCANET_VL_PCH_H_
#define LCANET_VL_PCH_H_
#include \"verilated.h\"
#include \"verilated_dpi.h\"
#endif
";
/// The shared header's file name in its entry.
const PCH_FILE: &str = "vl_pch.h";

/// The shared precompiled header of one Verilator configuration and optimization level.
pub(super) struct SharedPch {
    /// `<entry>/vl_pch.h`; beside it `.fast`/`.slow` (copies, read only if the
    /// precompiled file cannot be used) and their `.gch` files.
    header: PathBuf,
}

impl SharedPch {
    /// The `make` variables of a model build with optimization variables `opt`
    /// (`OPT_FAST=…`, `OPT_SLOW=…`, `OPT_GLOBAL=…`), the shared header in: `OPT_FAST`
    /// gains `-include <header>.fast`, which reaches every object compiled as fast code
    /// (the model's fast files, the single `__ALL.cpp` of a small model, the shim);
    /// the slow files include `<header>.slow` through `VK_PCH_I_SLOW`; `VK_PCH_H` names
    /// the shared header so that make precompiles none of the model's own.
    pub(super) fn make_vars(&self, opt: &[&str]) -> Vec<String> {
        let h = self.header.display();
        let mut vars: Vec<String> = opt
            .iter()
            .map(|v| match v.strip_prefix("OPT_FAST=") {
                Some(o) => format!("OPT_FAST={o} -include {h}.fast"),
                None => v.to_string(),
            })
            .collect();
        vars.extend([
            format!("VK_PCH_H={h}"),
            "VK_PCH_I_FAST=".to_string(),
            format!("VK_PCH_I_SLOW=-include {h}.slow"),
        ]);
        vars
    }
}

/// Whether `path` can be written into a make variable and a prerequisite as it is.
pub(super) fn make_safe(path: &Path) -> bool {
    path.to_str().is_some_and(|s| {
        s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+@,".contains(c))
    })
}

/// The shared precompiled header for this Verilator configuration and the `make`
/// optimization variables `opt`, from the cache (precompiled with the design's makefile,
/// so with exactly the flags its objects use, the first time). `None` if the cache path
/// cannot go into a make variable (spaces and the like): the model then precompiles its
/// own, as Verilator's makefile does by default.
pub(super) fn shared_pch(
    cache: &Path,
    banner: &str,
    classes_mk: &str,
    obj: &Path,
    mk: &str,
    opt: &[&str],
    log: &mut Log,
) -> Result<Option<SharedPch>, BridgeError> {
    let cache = std::path::absolute(cache).map_err(|e| BridgeError::io("resolve", cache, e))?;
    if !make_safe(&cache) {
        return Ok(None);
    }
    let mut h = KeyHasher::default();
    h.field(PCH_TEXT).field(banner).field("-fPIC");
    for (name, value) in Settings::parse(classes_mk).flags(PCH_NEUTRAL) {
        h.field(format!("{name}={value}"));
    }
    for v in opt {
        h.field(v);
    }
    let key = format!("pch-{}", h.finish());
    let fast_gch = format!("{PCH_FILE}.fast.gch");
    let (dir, _) = get_or_build(&cache, &key, &fast_gch, |tmp| {
        let header = tmp.join(PCH_FILE);
        for name in ["", ".fast", ".slow"] {
            let p = tmp.join(format!("{PCH_FILE}{name}"));
            fs::write(&p, PCH_TEXT).map_err(|e| BridgeError::io("write", &p, e))?;
        }
        let mut cmd = make(obj, mk)?;
        cmd.arg(format!("{}.fast.gch", header.display()))
            .arg(format!("{}.slow.gch", header.display()))
            .args(opt);
        log.run(Tool::Make, &mut cmd)
    })?;
    Ok(Some(SharedPch {
        header: dir.join(PCH_FILE),
    }))
}

/// The runtime objects every runtime library holds, whatever its first design needed: the
/// VCD writer, DPI (public signals) and threads beside `verilated`. A design links only
/// the objects it uses from the archive, so one library serves traced and untraced
/// designs, with and without public signals (7 libraries of about 8 s of CPU each had been
/// built on a fresh clone's test run, one per combination).
const RUNTIME_OBJECTS: [&str; 4] = [
    "verilated",
    "verilated_dpi",
    "verilated_threads",
    "verilated_vcd_c",
];
/// Settings that change nothing in the runtime's objects: tracing only defines `WAVES` in
/// `verilated.h`, which no runtime source reads; parallel builds only split the model's
/// own files.
const RUNTIME_NEUTRAL: &[&str] = &[
    "VM_PARALLEL_BUILDS",
    "VM_TRACE",
    "VM_TRACE_FST",
    "VM_TRACE_SAIF",
    "VM_TRACE_VCD",
];
/// Settings that do not reach the precompiled header's compile line. (The `VM_TRACE*`
/// flags do: a header precompiled with another `-DVM_TRACE` is refused by g++.)
const PCH_NEUTRAL: &[&str] = &["VM_PARALLEL_BUILDS"];

/// Whether Verilator's makefile compiles the model as one translation unit,
/// `V<top>__ALL.cpp` (`VM_PARALLEL_BUILDS = 0`, the small models), rather than file by file.
pub(super) fn single_unit(classes_mk: &str) -> bool {
    Settings::parse(classes_mk)
        .scalars
        .iter()
        .any(|(name, value)| name == "VM_PARALLEL_BUILDS" && value == "0")
}

/// The design-independent settings of `V<top>_classes.mk`.
#[derive(Debug, PartialEq)]
struct Settings {
    /// `VM_X = v` lines, in file order.
    scalars: Vec<(String, String)>,
    /// The runtime objects the design asks for (`VM_GLOBAL_FAST` and `VM_GLOBAL_SLOW`).
    globals: Vec<String>,
}

impl Settings {
    fn parse(classes_mk: &str) -> Self {
        let mut scalars = Vec::new();
        let mut globals = Vec::new();
        let mut in_global = false;
        for line in classes_mk.lines() {
            let t = line.trim();
            if t.starts_with("VM_") {
                in_global = t.starts_with("VM_GLOBAL_");
                if let Some((name, value)) = t.split_once(" = ") {
                    scalars.push((name.trim().to_string(), value.trim().to_string()));
                }
            } else if in_global && !t.is_empty() && !t.starts_with('#') {
                globals.push(t.trim_end_matches('\\').trim().to_string());
            } else {
                in_global = false;
            }
        }
        globals.retain(|g| !g.is_empty());
        Settings { scalars, globals }
    }

    /// The scalar settings but those named in `neutral`.
    fn flags<'a>(&'a self, neutral: &'a [&str]) -> impl Iterator<Item = &'a (String, String)> {
        self.scalars
            .iter()
            .filter(move |(name, _)| !neutral.contains(&name.as_str()))
    }

    /// The objects of the runtime library: [`RUNTIME_OBJECTS`] and whatever else the
    /// design asks for, sorted.
    fn runtime_objects(&self) -> Vec<String> {
        let mut all: Vec<String> = RUNTIME_OBJECTS.iter().map(|o| o.to_string()).collect();
        all.extend(self.globals.iter().cloned());
        all.sort();
        all.dedup();
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSES_MK: &str = "\
# Verilated -*- Makefile -*-
VM_C11 = 1
VM_TIMING = 0
VM_COVERAGE = 0
VM_PARALLEL_BUILDS = 0
VM_TRACE = 1
VM_TRACE_VCD = 1
VM_CLASSES_FAST += \\
\tVtop \\

VM_GLOBAL_FAST += \\
  verilated \\
  verilated_vcd_c \\
  verilated_threads \\

VM_GLOBAL_SLOW += \\

";

    #[test]
    fn one_runtime_serves_every_tracing_and_build_split_and_the_header_follows_tracing() {
        let s = Settings::parse(CLASSES_MK);
        assert_eq!(
            s.globals,
            ["verilated", "verilated_vcd_c", "verilated_threads"]
        );
        let names = |neutral| -> Vec<String> { s.flags(neutral).map(|f| f.0.clone()).collect() };
        assert_eq!(
            names(RUNTIME_NEUTRAL),
            ["VM_C11", "VM_TIMING", "VM_COVERAGE"]
        );
        assert_eq!(
            names(PCH_NEUTRAL),
            [
                "VM_C11",
                "VM_TIMING",
                "VM_COVERAGE",
                "VM_TRACE",
                "VM_TRACE_VCD"
            ]
        );
        assert_eq!(
            s.runtime_objects(),
            [
                "verilated",
                "verilated_dpi",
                "verilated_threads",
                "verilated_vcd_c"
            ]
        );
        // An object beyond the usual four (FST tracing) joins the library.
        let fst = Settings::parse(&CLASSES_MK.replace("verilated_vcd_c", "verilated_fst_c"));
        assert!(fst
            .runtime_objects()
            .contains(&"verilated_fst_c".to_string()));
        assert_eq!(fst.runtime_objects().len(), 5);
    }

    #[test]
    fn only_plain_paths_go_into_make_variables() {
        assert!(make_safe(Path::new(
            "/work/main/target/lcanet-cache/verilator"
        )));
        assert!(make_safe(Path::new("/tmp/a-b_c.d+e@f,g")));
        for bad in [
            "/tmp/with space",
            "/tmp/a:b",
            "/tmp/$x",
            "/tmp/#c",
            "/tmp/%p",
            "/tmp/ä",
        ] {
            assert!(!make_safe(Path::new(bad)), "{bad}");
        }
        let p = SharedPch {
            header: PathBuf::from("/c/pch-1/vl_pch.h"),
        };
        assert_eq!(
            p.make_vars(&["OPT_FAST=-O1", "OPT_SLOW=-O0", "OPT_GLOBAL=-O1"]),
            [
                "OPT_FAST=-O1 -include /c/pch-1/vl_pch.h.fast",
                "OPT_SLOW=-O0",
                "OPT_GLOBAL=-O1",
                "VK_PCH_H=/c/pch-1/vl_pch.h",
                "VK_PCH_I_FAST=",
                "VK_PCH_I_SLOW=-include /c/pch-1/vl_pch.h.slow",
            ]
        );
    }
}
