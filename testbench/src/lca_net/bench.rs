//! One Verilated build of a network, shared by every stimulus run on it.

use crate::bridge::compose::build_composed;
use crate::bridge::{
    build, BridgeError, BuildInfo, CacheOutcome, Design, ModelLibrary, ModelOptions,
};
use crate::lca::{model_options, BuildSpeed};
use lcanet_hdl::lca_net::{network_design, NetGenError, NetSpec};
use lcanet_hdl::netlist::Body;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Why a co-simulation could not run (as opposed to: it ran and found a difference).
#[derive(Debug, thiserror::Error)]
pub enum NetCosimError {
    /// Generating the Verilog failed.
    #[error(transparent)]
    Gen(Box<NetGenError>),
    /// Writing the Verilog failed.
    #[error("writing the network's Verilog: {0}")]
    Write(String),
    /// Building or driving the Verilated model failed.
    #[error(transparent)]
    Bridge(Box<BridgeError>),
    /// The golden model refused the stimulus or failed.
    #[error("golden model: {0}")]
    Model(String),
}

impl From<NetGenError> for NetCosimError {
    fn from(e: NetGenError) -> Self {
        NetCosimError::Gen(Box::new(e))
    }
}

impl From<BridgeError> for NetCosimError {
    fn from(e: BridgeError) -> Self {
        NetCosimError::Bridge(Box::new(e))
    }
}

/// A network built into a Verilated model library.
pub struct NetBench {
    /// What was built.
    pub spec: NetSpec,
    /// Top module.
    pub top: String,
    /// Where the Verilog is.
    pub rtl_dir: PathBuf,
    /// The build (cache entry).
    pub info: BuildInfo,
    /// Wall-clock seconds of the build (or cache lookup).
    pub build_seconds: f64,
    /// Seconds to generate and write the Verilog.
    pub generate_seconds: f64,
    pub(crate) lib: Arc<ModelLibrary>,
    pub(crate) design: Design,
    pub(crate) options: ModelOptions,
    kind: ModelKind,
    netlist: lcanet_hdl::netlist::Design,
    pub(crate) progress: Option<ProgressFn>,
}

/// Called during a run with (bit-time, passes so far), every [`PROGRESS_EVERY`] bit-times.
pub type ProgressFn = Box<dyn Fn(u64, u64) + Send + Sync>;

/// How often a run reports progress, in bit-times.
pub const PROGRESS_EVERY: u64 = 64;

/// How the network becomes a Verilated model (`docs/network-rtl.md`, "Large networks").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelKind {
    /// Every instance flattened into one model: full VCDs, slow to build beyond ~100 switches.
    Flat,
    /// Verilator `--hierarchical`: the switch and the PE interface verilated once each as
    /// hierarchical blocks; VCDs hold the blocks' ports.
    Hierarchical,
    /// One Verilated model per distinct block, one model object per instance, wired by
    /// generated glue (`bridge::compose`): the fastest to build and to run at large `n`;
    /// no VCD.
    Composed,
}

impl ModelKind {
    /// The name the CLI and the JSON reports use.
    pub fn name(self) -> &'static str {
        match self {
            ModelKind::Flat => "flat",
            ModelKind::Hierarchical => "hierarchical",
            ModelKind::Composed => "composed",
        }
    }
}

/// How to build a network model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NetBuild {
    /// C++ optimization of the model.
    pub speed: BuildSpeed,
    /// With VCD tracing (otherwise [`NetBench::traced`] builds the traced variant on demand).
    /// A composed model cannot trace.
    pub trace: bool,
    /// Flat, hierarchical or composed.
    pub kind: ModelKind,
}

impl NetBuild {
    /// Up to this many switches a traced build is flat, so that its VCD holds every signal
    /// inside the switches and PE interfaces (a hierarchical VCD holds their ports only);
    /// from here on even a traced build is hierarchical (a flat one does not finish).
    pub const FLAT_TRACE_MAX_SWITCHES: usize = 127;

    /// A failing run is repeated on a traced build for its VCD only up to this many
    /// switches: above 127 that build is hierarchical, ~5 minutes at 1,024 switches
    /// (n = 256) and unfinished at 5,120 (n = 1,024; `docs/network-rtl.md`).
    pub const FAILURE_VCD_MAX_SWITCHES: usize = 1024;

    /// The build `lcanet sim network --model auto` picks: composed without a VCD (it
    /// builds and runs fastest, `docs/network-rtl.md`); with one, flat up to
    /// [`Self::FLAT_TRACE_MAX_SWITCHES`] switches (full waveforms), hierarchical above.
    pub fn auto(spec: &NetSpec, speed: BuildSpeed, trace: bool) -> Self {
        NetBuild {
            speed,
            trace,
            kind: Self::auto_kind(spec, trace),
        }
    }

    /// The kind [`Self::auto`] picks for `spec` with or without tracing.
    fn auto_kind(spec: &NetSpec, trace: bool) -> ModelKind {
        if !trace {
            ModelKind::Composed
        } else if spec.topo.total_switches() > Self::FLAT_TRACE_MAX_SWITCHES {
            ModelKind::Hierarchical
        } else {
            ModelKind::Flat
        }
    }
}

impl NetBench {
    /// Generates the network into `rtl_dir` and builds it flat (cached by content hash);
    /// `trace = false` builds faster and cannot write a VCD until [`NetBench::traced`] builds
    /// the traced variant (a failing run does that itself).
    pub fn build_with(
        spec: NetSpec,
        rtl_dir: &Path,
        speed: BuildSpeed,
        trace: bool,
    ) -> Result<Self, NetCosimError> {
        let how = NetBuild {
            speed,
            trace,
            kind: ModelKind::Flat,
        };
        Self::build_how(spec, rtl_dir, how)
    }

    /// Generates the network into `rtl_dir` and builds it as `how` says.
    pub fn build_how(spec: NetSpec, rtl_dir: &Path, how: NetBuild) -> Result<Self, NetCosimError> {
        let t0 = Instant::now();
        let netlist = network_design(&spec)?;
        if how.kind == ModelKind::Composed && how.trace {
            return Err(NetCosimError::Bridge(Box::new(BridgeError::Design(
                "a composed model writes no VCD: use a flat or hierarchical build for waveforms"
                    .into(),
            ))));
        }
        let hier_blocks = if how.kind == ModelKind::Hierarchical {
            repeated_modules(&netlist)
        } else {
            Vec::new()
        };
        let emitted = netlist.emit().map_err(NetGenError::from)?;
        emitted
            .write_to(rtl_dir)
            .map_err(|e| NetCosimError::Write(e.to_string()))?;
        let generate_seconds = t0.elapsed().as_secs_f64();
        let top = emitted.top.clone();
        let design = Design::from_file_list(&rtl_dir.join(&emitted.file_list.name), top.clone())?;
        let t1 = Instant::now();
        let mut options = model_options(how.speed);
        options.trace = how.trace;
        options.hier_blocks = hier_blocks;
        let info = match how.kind {
            ModelKind::Composed => build_composed(&netlist, &design, &options)?,
            _ => build(&design, &options)?,
        };
        let build_seconds = t1.elapsed().as_secs_f64();
        let lib = ModelLibrary::load(&info)?;
        Ok(NetBench {
            spec,
            top,
            rtl_dir: rtl_dir.to_path_buf(),
            info,
            build_seconds,
            generate_seconds,
            lib,
            design,
            options,
            kind: how.kind,
            netlist,
            progress: None,
        })
    }

    /// The same network with VCD tracing (built, or found in the cache, if needed).
    pub fn traced(&self) -> Result<Arc<ModelLibrary>, NetCosimError> {
        if self.lib.has_trace() {
            return Ok(self.lib.clone());
        }
        let mut options = ModelOptions {
            trace: true,
            ..self.options.clone()
        };
        if self.kind == ModelKind::Composed
            && NetBuild::auto_kind(&self.spec, true) == ModelKind::Hierarchical
        {
            options.hier_blocks = repeated_modules(&self.netlist);
        }
        let info = build(&self.design, &options)?;
        Ok(ModelLibrary::load(&info)?)
    }

    /// The modules built as hierarchical blocks (empty for a flat build).
    pub fn hier_blocks(&self) -> &[String] {
        &self.options.hier_blocks
    }

    /// Reports the progress of later runs to `f` (bit-time, passes so far).
    pub fn set_progress(&mut self, f: ProgressFn) {
        self.progress = Some(f);
    }

    /// How the model was built.
    pub fn kind(&self) -> ModelKind {
        self.kind
    }

    /// Whether the model came from the cache.
    pub fn cache(&self) -> CacheOutcome {
        self.info.outcome
    }
}

/// The modules the top instantiates more than once, in name order.
fn repeated_modules(design: &lcanet_hdl::netlist::Design) -> Vec<String> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    if let Some(Body::Structural(s)) = design.module(design.top()).map(|m| &m.body) {
        for i in &s.instances {
            *count.entry(i.module.as_str()).or_default() += 1;
        }
    }
    count
        .into_iter()
        .filter(|&(_, c)| c > 1)
        .map(|(m, _)| m.to_owned())
        .collect()
}
