//! Builds a Verilated model into a cached shared library.
//!
//! Pipeline (in a temp directory, published atomically by [`super::cache`]):
//! 1. `verilator --cc -Wall [--trace] [config.vlt] -CFLAGS -fPIC --Mdir obj <files> shim.cpp`
//!    (any warning fails the build: nothing is waived);
//! 2. read the top ports from `obj/V<top>.h`, check them against the caller's list if given;
//! 3. generate `shim.cpp` ([`super::shim`]);
//! 4. get `libverilated.a` and the precompiled runtime headers from the runtime cache
//!    (built once per Verilator configuration, keyed by the `VM_*` settings of
//!    `V<top>_classes.mk`; [`super::runtime`]); with the shared precompiled header,
//!    `make V<top>__ALL.o` with the shim as one more file of the model's single
//!    translation unit (small models), else `make V<top>__ALL.a shim.o`;
//! 5. `g++ -shared` with a version script exporting only `lcanet_*`; write `manifest.json`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::cache::{get_or_build, CacheOutcome, KeyHasher};
use super::design::{Design, ModelOptions, Optimize, PublicSignals};
use super::error::BridgeError;
use super::ports::{check_expected, parse_verilated_header, HeaderPort, PortSpec};
use super::runtime::{make, make_safe, runtime_library, shared_pch, single_unit};
use super::shim::{generate, SHIM_VERSION};
use crate::paths::cache_root;
use crate::tools::{command_line, locate, run_checked, verilator_version, Tool};

/// The name of the model library inside a cache entry.
pub const LIBRARY_FILE: &str = "libmodel.so";
/// The file written last in a cache entry; its presence marks the entry complete.
pub const MANIFEST_FILE: &str = "manifest.json";

/// What a cache entry records about its build.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    /// Top module.
    pub top: String,
    /// The cache key.
    pub key: String,
    /// Ports as Verilator declared them (index = port index in the shim).
    pub ports: Vec<HeaderPort>,
    /// Build options.
    pub options: ModelOptions,
    /// Source files as given.
    pub files: Vec<PathBuf>,
    /// Verilator banner.
    pub verilator: String,
    /// Shim generator version.
    pub shim_version: u32,
    /// Wall time of the build, seconds.
    pub build_seconds: f64,
    /// Bytes of C++ (`.cpp` and `.h`) Verilator wrote for the design (the shim excluded).
    #[serde(default)]
    pub cpp_bytes: u64,
    /// Seconds Verilator itself took (the rest of `build_seconds` is compiling and linking).
    #[serde(default)]
    pub verilate_seconds: f64,
    /// The g++ level of the model's fast code (`-O1`, `-O3`, …; [`Optimize::cxx_flag`]).
    #[serde(default)]
    pub cxx_opt: String,
}

impl Manifest {
    /// The manifest of a build of `design` that started at `start`.
    pub(super) fn new(
        top: &str,
        key: &str,
        ports: Vec<HeaderPort>,
        options: &ModelOptions,
        design: &Design,
        banner: &str,
        start: Instant,
    ) -> Self {
        Manifest {
            top: top.to_string(),
            key: key.to_string(),
            ports,
            options: options.clone(),
            files: design.files.clone(),
            verilator: banner.to_string(),
            shim_version: SHIM_VERSION,
            build_seconds: start.elapsed().as_secs_f64(),
            cpp_bytes: 0,
            verilate_seconds: 0.0,
            cxx_opt: String::new(),
        }
    }

    /// Writes `manifest.json` into the entry directory `dir` (last: it marks the entry
    /// complete).
    pub(super) fn write_to(&self, dir: &Path) -> Result<(), BridgeError> {
        let json = serde_json::to_string_pretty(self)
            .map_err(|e| BridgeError::Internal(format!("serialize manifest: {e}")))?;
        write(&dir.join(MANIFEST_FILE), &json)
    }
}

/// Result of [`build`]: a cache entry holding a loadable model library.
#[derive(Debug, Clone)]
pub struct BuildInfo {
    /// The cache entry directory.
    pub dir: PathBuf,
    /// The model library.
    pub library: PathBuf,
    /// Hit or built.
    pub outcome: CacheOutcome,
    /// Wall time of this call (lock wait + check, or the whole build).
    pub elapsed: Duration,
    /// The entry's manifest.
    pub manifest: Manifest,
}

/// Build jobs for `make` (`LCANET_BUILD_JOBS`, default 2).
pub(super) fn jobs() -> String {
    std::env::var("LCANET_BUILD_JOBS")
        .ok()
        .filter(|j| j.parse::<u32>().is_ok_and(|n| n > 0))
        .unwrap_or_else(|| "2".to_string())
}

/// Builds (or finds in the cache) the model library for `design` with `options`, in the
/// default cache `<cache root>/verilator/` (see [`crate::paths::cache_root`]).
pub fn build(design: &Design, options: &ModelOptions) -> Result<BuildInfo, BridgeError> {
    build_in(&cache_root().join("verilator"), design, options)
}

/// Like [`build`], with model entries under `models_root` (tests use a fresh directory to
/// observe a cold build). The Verilator runtime library is always cached in the default
/// cache, since it does not depend on the design.
pub fn build_in(
    models_root: &Path,
    design: &Design,
    options: &ModelOptions,
) -> Result<BuildInfo, BridgeError> {
    let start = Instant::now();
    validate(design)?;
    let banner = verilator_version()?;
    // Resolved once: the key and the build see the same `$LCANET_QUICK_OPT`.
    let opt = OptVars::of(options.optimize)?;
    let key = design_key("lcanet-verilator-model", design, options, &opt, banner)?;
    let runtime_root = cache_root().join("verilator");
    let (dir, outcome) = get_or_build(models_root, &key, MANIFEST_FILE, |tmp| {
        build_into(tmp, &runtime_root, design, options, &opt, &key, banner)
    })?;
    let manifest = read_manifest(&dir)?;
    if let Some(expected) = &design.expected_ports {
        let actual: Vec<PortSpec> = manifest.ports.iter().map(|p| p.spec.clone()).collect();
        check_expected(expected, &actual).map_err(|detail| BridgeError::PortsMismatch {
            top: design.top.clone(),
            detail,
        })?;
    }
    Ok(BuildInfo {
        library: dir.join(LIBRARY_FILE),
        dir,
        outcome,
        elapsed: start.elapsed(),
        manifest,
    })
}

/// The cache key of a model of `design` built with `options`: `tag` (the kind of model),
/// the shim version, the Verilator banner, the top, the options, the C++ optimization
/// flags `opt` they resolve to (`$LCANET_QUICK_OPT` included), and the name and text of
/// every Verilog file.
pub(super) fn design_key(
    tag: &str,
    design: &Design,
    options: &ModelOptions,
    opt: &OptVars,
    banner: &str,
) -> Result<String, BridgeError> {
    let mut h = KeyHasher::default();
    h.field(tag)
        .field(SHIM_VERSION.to_le_bytes())
        .field(banner)
        .field(&design.top)
        .field(
            serde_json::to_string(options)
                .map_err(|e| BridgeError::Internal(format!("serialize options: {e}")))?,
        )
        .field(opt.vars.join(" "));
    for f in &design.files {
        let text = fs::read(f).map_err(|e| BridgeError::io("read Verilog file", f, e))?;
        h.field(
            f.file_name()
                .map(|n| n.as_encoded_bytes())
                .unwrap_or_default(),
        )
        .field(text);
    }
    Ok(h.finish())
}

/// The manifest of the cache entry `dir`.
pub(super) fn read_manifest(dir: &Path) -> Result<Manifest, BridgeError> {
    let manifest_path = dir.join(MANIFEST_FILE);
    let raw = fs::read_to_string(&manifest_path)
        .map_err(|e| BridgeError::io("read manifest", &manifest_path, e))?;
    serde_json::from_str(&raw).map_err(|e| BridgeError::Io {
        what: "parse manifest",
        path: manifest_path.clone(),
        message: e.to_string(),
    })
}

fn validate(design: &Design) -> Result<(), BridgeError> {
    let top = &design.top;
    let ok = top
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && top.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok {
        return Err(BridgeError::Design(format!(
            "top module name {top:?} must be a plain Verilog identifier"
        )));
    }
    if design.files.is_empty() {
        return Err(BridgeError::Design(format!(
            "no Verilog files given for `{top}`"
        )));
    }
    Ok(())
}

/// A command runner that appends every command and its output to `build.log`.
pub(super) struct Log {
    path: PathBuf,
    text: String,
}

impl Log {
    pub(super) fn run(&mut self, tool: Tool, cmd: &mut Command) -> Result<(), BridgeError> {
        self.text.push_str(&format!("$ {}\n", command_line(cmd)));
        let r = run_checked(tool, cmd);
        match &r {
            Ok(out) => {
                self.text.push_str(&String::from_utf8_lossy(&out.stdout));
                self.text.push_str(&String::from_utf8_lossy(&out.stderr));
            }
            Err(e) => self.text.push_str(&format!("{e}\n")),
        }
        let _ = fs::write(&self.path, &self.text);
        r.map(|_| ()).map_err(BridgeError::from)
    }
}

/// Bytes of the C++ sources and headers Verilator wrote into `obj` (before the shim is
/// added).
pub fn cpp_bytes(obj: &Path) -> u64 {
    fs::read_dir(obj)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter(|e| {
                    let name = e.file_name();
                    let name = name.to_string_lossy();
                    name.ends_with(".cpp") || name.ends_with(".h")
                })
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// The Verilator configuration file making `public` signals readable (`public_flat_rd`)
/// and keeping `no_inline` modules out of their parents (`no_inline`).
fn config_file(public: &[PublicSignals], no_inline: &[String]) -> Result<String, BridgeError> {
    let check = |pat: &String, what: &str| {
        let ok = !pat.is_empty()
            && pat
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '*' | '?'));
        if ok {
            Ok(())
        } else {
            Err(BridgeError::Design(format!(
                "{what} pattern {pat:?} may only hold letters, digits, `_`, `*` and `?`"
            )))
        }
    };
    let mut text = String::from("`verilator_config\n");
    for p in public {
        check(&p.module, "public signal")?;
        check(&p.var, "public signal")?;
        text.push_str(&format!(
            "public_flat_rd -module \"{}\" -var \"{}\"\n",
            p.module, p.var
        ));
    }
    for m in no_inline {
        check(m, "no-inline module")?;
        text.push_str(&format!("no_inline -module \"{m}\"\n"));
    }
    Ok(text)
}

/// The C++ optimization of one build: the g++ flag of the fast code and the `make`
/// variables of Verilator's generated makefile (the shim is compiled with `OPT_FAST` too).
pub(super) struct OptVars {
    /// `-O1`, `-O3`, … ([`Optimize::cxx_flag`]).
    fast: &'static str,
    /// `OPT_FAST=…`, `OPT_SLOW=…`, `OPT_GLOBAL=…`.
    vars: [String; 3],
}

impl OptVars {
    fn of(optimize: Optimize) -> Result<Self, BridgeError> {
        let fast = optimize.cxx_flag()?;
        let (slow, global) = match optimize {
            Optimize::Quick | Optimize::Unoptimized => ("-O0", fast),
            Optimize::Fast => ("-O1", "-O2"),
        };
        Ok(OptVars {
            fast,
            vars: [
                format!("OPT_FAST={fast}"),
                format!("OPT_SLOW={slow}"),
                format!("OPT_GLOBAL={global}"),
            ],
        })
    }
}

fn build_into(
    tmp: &Path,
    cache: &Path,
    design: &Design,
    options: &ModelOptions,
    opt_vars: &OptVars,
    key: &str,
    banner: &str,
) -> Result<(), BridgeError> {
    let start = Instant::now();
    let top = &design.top;
    let mut log = Log {
        path: tmp.join("build.log"),
        text: String::new(),
    };
    let shim = tmp.join("shim.cpp");
    let obj = tmp.join("obj");
    write(&shim, "// placeholder, replaced once the ports are known\n")?;
    let mut cmd = Command::new(locate(Tool::Verilator)?);
    // One bit-time is PERIOD = 10 time units: with 1 ns units a VCD shows 10 ns per bit-time.
    cmd.args([
        "--cc",
        "--quiet-stats",
        "--no-decoration",
        "-Wall",
        "--timescale",
        "1ns/1ns",
        "--top-module",
        top,
    ]);
    if options.trace {
        cmd.arg(if options.fst {
            "--trace-fst"
        } else {
            "--trace"
        });
    }
    if opt_vars.fast == "-O0" {
        // Unoptimized code compiles so fast that a model split into files for a parallel
        // `make` (Verilator's default above about 20,000 statements) spends most of its
        // compile loading the precompiled header once per file: one translation unit
        // instead (a 0.8 MB rows network: 1.7 s of CPU instead of 5.4 s). Before the
        // caller's arguments, which may split again.
        cmd.args(["--output-split", "0"]);
    }
    cmd.args(&options.extra_args);
    cmd.args(["-CFLAGS", "-fPIC", "--Mdir"]).arg(&obj);
    if !options.public.is_empty() || !options.no_inline.is_empty() {
        let config = tmp.join("config.vlt");
        write(&config, &config_file(&options.public, &options.no_inline)?)?;
        cmd.arg(&config);
    }
    cmd.args(&design.files).arg(&shim);
    let verilate_start = Instant::now();
    log.run(Tool::Verilator, &mut cmd)?;
    let verilate_seconds = verilate_start.elapsed().as_secs_f64();
    let cpp_bytes = cpp_bytes(&obj);

    let header = obj.join(format!("V{top}.h"));
    let text = fs::read_to_string(&header).map_err(|e| BridgeError::io("read", &header, e))?;
    let ports = parse_verilated_header(&text).map_err(|detail| BridgeError::Header {
        top: top.clone(),
        path: header.clone(),
        detail,
    })?;
    if let Some(expected) = &design.expected_ports {
        let actual: Vec<PortSpec> = ports.iter().map(|p| p.spec.clone()).collect();
        check_expected(expected, &actual).map_err(|detail| BridgeError::PortsMismatch {
            top: top.clone(),
            detail,
        })?;
    }
    write(&shim, &generate(top, &ports, !options.public.is_empty()))?;
    let mk = format!("V{top}.mk");
    let classes = obj.join(format!("V{top}_classes.mk"));
    let classes_text =
        fs::read_to_string(&classes).map_err(|e| BridgeError::io("read", &classes, e))?;
    let runtime = runtime_library(cache, banner, &classes_text, &obj, &mk, &mut log)?;
    let opt: Vec<&str> = opt_vars.vars.iter().map(String::as_str).collect();
    let pch = shared_pch(cache, banner, &classes_text, &obj, &mk, &opt, &mut log)?;
    let mut build = make(&obj, &mk)?;
    let objects = if single_unit(&classes_text) {
        // A small model is one translation unit, `V<top>__ALL.cpp` (Verilator's
        // `verilator_includer` over the makefile's `VM_FAST` and `VM_SLOW` files): the shim
        // joins it as one more file, which saves a compiler run and a load of the
        // precompiled header per model (about 0.2 s of CPU; as much as compiling a small
        // model). `VM_FAST` comes from the environment because the makefile appends to it
        // (`+=`); on the command line it would replace the model's files. The object is
        // linked as it is: from an archive the linker would take no member, since nothing
        // outside it refers to the shim's symbols.
        build
            .env("VM_FAST", "../shim")
            .arg(format!("V{top}__ALL.o"));
        // The unit's `#include` lines are written by a shell script instead of Verilator's
        // Python one: the same text, without a Python start (about 0.1 s of CPU) per model.
        let includer = tmp.join("includer.sh");
        if make_safe(&includer) {
            write(&includer, INCLUDER)?;
            build.arg(format!("VERILATOR_INCLUDER=/bin/sh {}", includer.display()));
        }
        vec![obj.join(format!("V{top}__ALL.o"))]
    } else {
        build.arg(format!("V{top}__ALL.a")).arg("shim.o");
        vec![obj.join("shim.o"), obj.join(format!("V{top}__ALL.a"))]
    };
    match &pch {
        Some(pch) => build.args(pch.make_vars(&opt)),
        None => build.args(opt),
    };
    log.run(Tool::Make, &mut build)?;

    // Verilator's FST writer compresses with lz4 and zlib (`verilated.mk`'s LDLIBS).
    let libs: &[&str] = if options.trace && options.fst {
        &["-llz4", "-lz"]
    } else {
        &[]
    };
    link_library(tmp, &objects, &runtime, libs, &mut log)?;
    fs::remove_dir_all(&obj).map_err(|e| BridgeError::io("remove", &obj, e))?;

    let mut manifest = Manifest::new(top, key, ports, options, design, banner, start);
    manifest.cpp_bytes = cpp_bytes;
    manifest.verilate_seconds = verilate_seconds;
    manifest.cxx_opt = opt_vars.fast.to_string();
    manifest.write_to(tmp)
}

/// `verilator_includer` (Verilator's `bin/`, Python) in `sh`: the arguments
/// `-DNAME=VALUE` become `#define NAME VALUE`, the others `#include "FILE"`, after the
/// same first line.
const INCLUDER: &str = r#"# lcanet: Verilator's verilator_includer without a Python start (testbench/src/bridge/build.rs)
printf '%s\n' "// DESCRIPTION: Generated by verilator_includer via makefile"
for a in "$@"; do
  case $a in
    -D*=*) a=${a#-D}; printf '#define %s %s\n' "${a%%=*}" "${a#*=}" ;;
    *) printf '#include "%s"\n' "$a" ;;
  esac
done
"#;

/// Links `objects` and the Verilator runtime (and `libs`) into the entry's
/// [`LIBRARY_FILE`], exporting only the shim's `lcanet_*` symbols.
pub(super) fn link_library(
    tmp: &Path,
    objects: &[PathBuf],
    runtime: &Path,
    libs: &[&str],
    log: &mut Log,
) -> Result<(), BridgeError> {
    let map = tmp.join("exports.map");
    write(&map, "{ global: lcanet_*; local: *; };\n")?;
    let mut link = Command::new(locate(Tool::Cxx)?);
    link.arg("-shared")
        .arg("-o")
        .arg(tmp.join(LIBRARY_FILE))
        .args(objects)
        .arg(runtime)
        .arg(format!("-Wl,--version-script={}", map.display()))
        .args(libs)
        .arg("-lpthread");
    log.run(Tool::Cxx, &mut link)
}

pub(super) fn write(path: &Path, text: &str) -> Result<(), BridgeError> {
    fs::write(path, text).map_err(|e| BridgeError::io("write", path, e))
}

#[cfg(test)]
mod tests {
    use super::{config_file, PublicSignals};

    #[test]
    fn public_signals_and_no_inline_modules_become_configuration_lines_and_odd_patterns_are_refused(
    ) {
        let text = config_file(
            &[
                PublicSignals::new("lca_switch_*", "xp_*"),
                PublicSignals::new("top", "phase"),
            ],
            &["lca_switch_*".to_string()],
        )
        .unwrap();
        assert_eq!(
            text,
            "`verilator_config\npublic_flat_rd -module \"lca_switch_*\" -var \"xp_*\"\npublic_flat_rd -module \"top\" -var \"phase\"\nno_inline -module \"lca_switch_*\"\n"
        );
        assert!(config_file(&[PublicSignals::new("a\" b", "x")], &[]).is_err());
        assert!(config_file(&[PublicSignals::new("a", "")], &[]).is_err());
        assert!(config_file(&[], &["sw\" -var".to_string()]).is_err());
        assert!(config_file(&[], &[String::new()]).is_err());
    }
}
