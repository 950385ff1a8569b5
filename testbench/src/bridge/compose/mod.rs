//! Composed builds: each distinct block module the top instantiates is verilated once, as
//! its own model class, and the library holds one model object per block *instance*, wired
//! by generated glue ([`glue`]) from the top's netlist ([`wiring`]). The library exports the
//! same C ABI as a single Verilated model, so [`crate::bridge::Model`] drives it unchanged.
//!
//! Why (`docs/decisions/composed-models.md`): Verilator compiles code per instance when it
//! flattens, and its `--hierarchical` wrappers make a network of registered blocks look like
//! one combinational loop; here the top's wiring costs no Verilator work at all, and a
//! registered block is re-evaluated only when one of its inputs changed.
//!
//! Limits: the top module must be structural (instances, nets, assigns); ports of the top
//! and of the blocks at most 64 bits wide; no VCD (signals inside blocks remain readable by
//! name with public signals).

pub mod glue;
pub mod wiring;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use lcanet_hdl::netlist::Design as Netlist;

use super::build::{
    design_key, link_library, read_manifest, user_opt_level, write, BuildInfo, Log, Manifest,
    LIBRARY_FILE, MANIFEST_FILE,
};
use super::cache::{get_or_build, KeyHasher};
use super::design::{Design, ModelOptions};
use super::error::BridgeError;
use super::ports::{HeaderPort, Storage};
use super::runtime::{make, runtime_library};
use crate::paths::cache_root;
use crate::tools::{locate, verilator_version, Tool};
pub use wiring::{wiring, Wiring};

/// Builds (or finds in the default cache) the composed model of `netlist`, whose Verilog
/// is `design` (the emitted file list; every file is part of the cache key). Each module
/// the top instantiates is read from `<its name>.v` and its descendants' files in the
/// directory of `design`'s first file.
pub fn build_composed(
    netlist: &Netlist,
    design: &Design,
    options: &ModelOptions,
) -> Result<BuildInfo, BridgeError> {
    let start = Instant::now();
    if options.trace {
        return Err(BridgeError::Design(
            "a composed model cannot write a VCD (ModelOptions::trace must be false)".into(),
        ));
    }
    if !options.public_signals {
        return Err(BridgeError::Design(
            "a composed model binds its wiring through Verilator's public variables (ModelOptions::public_signals must be true)"
                .into(),
        ));
    }
    if !options.hier_blocks.is_empty() {
        return Err(BridgeError::Design(
            "a composed model has no hierarchical blocks (ModelOptions::hier_blocks must be empty)"
                .into(),
        ));
    }
    let top = netlist
        .module(netlist.top())
        .ok_or_else(|| BridgeError::Design(format!("no top module `{}`", netlist.top())))?;
    let w = wiring(top, &|name| netlist.module(name).cloned())?;
    let dir = design
        .files
        .first()
        .and_then(|f| f.parent())
        .ok_or_else(|| BridgeError::Design("no Verilog files given".into()))?
        .to_path_buf();
    let block_files: Vec<Vec<PathBuf>> = w
        .blocks
        .iter()
        .map(|(name, _)| {
            closure(netlist, name)
                .iter()
                .map(|m| dir.join(format!("{m}.v")))
                .collect()
        })
        .collect();

    let banner = verilator_version()?;
    // The glue generator's and the wiring's source are part of the key: editing either
    // rebuilds without a version bump.
    let mut tag = KeyHasher::default();
    tag.field("lcanet-composed-model")
        .field(include_str!("glue.rs"))
        .field(include_str!("wiring.rs"));
    let key = design_key(&tag.finish(), design, options, banner)?;
    let models_root = cache_root().join("verilator");
    let (entry, outcome) = get_or_build(&models_root, &key, MANIFEST_FILE, |tmp| {
        build_into(
            tmp,
            &models_root,
            &w,
            &block_files,
            design,
            options,
            &key,
            banner,
        )
    })?;
    let manifest = read_manifest(&entry)?;
    Ok(BuildInfo {
        library: entry.join(LIBRARY_FILE),
        dir: entry,
        outcome,
        elapsed: start.elapsed(),
        manifest,
    })
}

/// `module` and every module below it, each once, parents first.
fn closure(netlist: &Netlist, module: &str) -> Vec<String> {
    let mut out = vec![module.to_string()];
    let mut k = 0;
    while k < out.len() {
        if let Some(m) = netlist.module(&out[k]) {
            for c in m.instantiated_modules() {
                if !out.iter().any(|o| o == c) {
                    out.push(c.to_string());
                }
            }
        }
        k += 1;
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn build_into(
    tmp: &Path,
    runtime_root: &Path,
    w: &Wiring,
    block_files: &[Vec<PathBuf>],
    design: &Design,
    options: &ModelOptions,
    key: &str,
    banner: &str,
) -> Result<(), BridgeError> {
    let start = Instant::now();
    let mut log = Log::new(tmp.join("build.log"));
    let glue = tmp.join("glue.cpp");
    write(&glue, "// placeholder, replaced once the ports are known\n")?;
    let objs: Vec<PathBuf> = (0..w.blocks.len())
        .map(|b| tmp.join(format!("obj{b}")))
        .collect();
    let last = w.blocks.len().checked_sub(1).ok_or_else(|| {
        BridgeError::Design(format!("top module `{}` instantiates no block", w.top))
    })?;
    let mut headers = Vec::new();
    for (b, (name, _)) in w.blocks.iter().enumerate() {
        let mut cmd = Command::new(locate(Tool::Verilator)?);
        cmd.args(["--cc", "--quiet-stats", "-Wno-fatal", "--top-module", name]);
        cmd.arg("--public-flat-rw");
        cmd.args(&options.extra_args);
        cmd.args(["-CFLAGS", "-fPIC", "--Mdir"]).arg(&objs[b]);
        if b == last {
            // The glue is compiled by the last block's makefile (Verilator's flags), and
            // includes every block's header.
            for o in &objs[..last] {
                cmd.arg("-CFLAGS").arg(format!("-I{}", o.display()));
            }
            cmd.arg(&glue);
        }
        cmd.args(&block_files[b]);
        log.run(Tool::Verilator, &mut cmd)?;
        let header = objs[b].join(format!("V{name}.h"));
        let text = fs::read_to_string(&header).map_err(|e| BridgeError::io("read", &header, e))?;
        let ports =
            super::ports::parse_verilated_header(&text).map_err(|detail| BridgeError::Header {
                top: name.clone(),
                path: header.clone(),
                detail,
            })?;
        check_ports(name, &w.blocks[b].1, &ports)?;
        headers.push(ports);
    }
    let abs = fs::canonicalize(tmp).map_err(|e| BridgeError::io("resolve", tmp, e))?;
    let bin_dir = abs.to_str().filter(|d| !d.contains(['"', '\\', '\n'])).ok_or_else(|| {
        BridgeError::Design(format!(
            "the cache directory {} must be UTF-8 without quotes or backslashes (the glue includes its tables by path)",
            abs.display()
        ))
    })?;
    let (text, blob) = glue::generate(w, &headers, bin_dir);
    let words = tmp.join("glue_words.bin");
    fs::write(&words, blob.word_bytes()).map_err(|e| BridgeError::io("write", &words, e))?;
    let chars = tmp.join("glue_chars.bin");
    fs::write(&chars, &blob.chars).map_err(|e| BridgeError::io("write", &chars, e))?;
    write(&glue, &text)?;
    let opt = user_opt_level(&options.extra_args);
    for (b, (name, _)) in w.blocks.iter().enumerate() {
        let mut build = make(&objs[b], &format!("V{name}.mk"))?;
        build.arg(format!("V{name}__ALL.a"));
        if b == last {
            build.arg("glue.o");
        }
        if let Some(level) = opt {
            build.arg(format!("OPT_FAST={level}"));
        }
        log.run(Tool::Make, &mut build)?;
    }
    let name = &w.blocks[last].0;
    let classes = objs[last].join(format!("V{name}_classes.mk"));
    let classes_text =
        fs::read_to_string(&classes).map_err(|e| BridgeError::io("read", &classes, e))?;
    let runtime = runtime_library(
        runtime_root,
        banner,
        &classes_text,
        &objs[last],
        &format!("V{name}.mk"),
        &mut log,
    )?;
    let mut objects = vec![objs[last].join("glue.o")];
    for (b, (name, _)) in w.blocks.iter().enumerate() {
        objects.push(objs[b].join(format!("V{name}__ALL.a")));
    }
    link_library(tmp, &objects, &runtime, &mut log)?;
    for o in &objs {
        fs::remove_dir_all(o).map_err(|e| BridgeError::io("remove", o, e))?;
    }
    let ports = w
        .ports
        .iter()
        .map(|p| HeaderPort {
            spec: p.clone(),
            member: p.name.clone(),
            storage: match p.width {
                0..=8 => Storage::C8,
                9..=16 => Storage::S16,
                17..=32 => Storage::I32,
                _ => Storage::Q64,
            },
        })
        .collect();
    Manifest::new(&w.top, key, ports, options, design, banner, start).write_to(tmp)
}

/// Checks that Verilator declared every port of block `name` as the netlist has it.
fn check_ports(
    name: &str,
    want: &[wiring::BlockPort],
    got: &[HeaderPort],
) -> Result<(), BridgeError> {
    for p in want {
        match got.iter().find(|h| h.spec.name == p.name) {
            Some(h) if h.spec.width == p.width && h.spec.dir == p.dir => {}
            Some(h) => {
                return Err(BridgeError::Design(format!(
                    "composed build: port `{}` of `{name}` is {:?} {} bits in the netlist, {:?} {} bits for Verilator",
                    p.name, p.dir, p.width, h.spec.dir, h.spec.width
                )))
            }
            None => {
                return Err(BridgeError::Design(format!(
                    "composed build: Verilator has no port `{}` on `{name}`",
                    p.name
                )))
            }
        }
    }
    Ok(())
}
