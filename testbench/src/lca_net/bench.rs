//! One Verilated build of a network, shared by every stimulus run on it.

use crate::bridge::{build, build_in, BridgeError, BuildInfo, CacheOutcome, Design, ModelLibrary};
use crate::bridge::{ModelOptions, Optimize};
use lcanet_hdl::lca_net::{network_design, NetGenError, NetSpec, Structure};
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

/// Called during a run with (bit-time, passes so far), every [`PROGRESS_EVERY`] bit-times.
pub type ProgressFn = Box<dyn Fn(u64, u64) + Send + Sync>;

/// How often a run reports progress, in bit-times.
pub const PROGRESS_EVERY: u64 = 256;

/// How to build a network model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetBuild {
    /// C++ optimization of the model.
    pub optimize: Optimize,
    /// With VCD tracing (otherwise [`NetBench::traced`] builds the traced variant on
    /// demand, e.g. for a failing run).
    pub trace: bool,
    /// Traced builds write FST instead of VCD.
    pub fst: bool,
    /// Extra Verilator arguments (measured choices for large networks,
    /// `docs/network-rtl.md`).
    pub extra_args: Vec<String>,
    /// Threads of the Verilated model (Verilator's `--threads`; 1 = single-threaded, the
    /// default and the fastest on a 2-core machine, `docs/testbench.md`).
    pub threads: usize,
}

impl NetBuild {
    /// Verilator arguments of every network build: no gate, DFG or table optimization
    /// across instance boundaries. With those optimizations on, Verilator substitutes an
    /// instance's inputs by its parent's link-vector slices and numbers each instance's
    /// lookup tables, so every switch instance's code differs and the C++ grows with the
    /// switch count; with them off, every instance of a block shares one copy of its code
    /// (`docs/network-rtl.md`, "Large networks"). Measured: CB-LCAN(2,2) n = 64 (192
    /// switches, R2) writes 4.0 MB of C++ instead of 11.8 MB without `-fno-table`, and
    /// `lcanet sim network` takes 17 s instead of 38 s end to end. Only for LCA networks:
    /// the cube's and the MIN's small blocks are inlined whatever the options, and
    /// without gate optimization the MIN's C++ doubles.
    pub const SHARE_ARGS: [&'static str; 3] = ["-fno-gate", "-fno-dfg", "-fno-table"];

    /// The modules a network build keeps out of their parents: the switches. Verilator
    /// inlines a module below its size threshold, and an inlined switch's code is written
    /// once per instance whatever [`Self::SHARE_ARGS`] says. The R3 switch (no arbiter)
    /// is small enough: CB-LCAN(3,11) with 3 levels (163 switches) wrote 44 MB of C++
    /// and took 165 s to build, 3.0 MB with the switch kept. (Every module kept, with
    /// `-fno-inline`, would also keep the PEs: rows networks then simulate 1.7x slower.)
    pub const NO_INLINE: &'static str = "lca_switch_*";

    /// `o` with the switch-code sharing of every LCA network build: [`Self::SHARE_ARGS`]
    /// and the switches kept from inlining ([`Self::NO_INLINE`]).
    pub fn shared(mut o: ModelOptions) -> ModelOptions {
        o.extra_args = Self::SHARE_ARGS.map(String::from).to_vec();
        o.with_no_inline(Self::NO_INLINE)
    }

    /// The build `lcanet sim network` uses: [`Self::SHARE_ARGS`] and `-O1` whatever the
    /// size: at n = 1,024 the C++ (38 MB) takes minutes to compile at `-O1` already and the
    /// run is seconds (1,525 bit-times/s), so `-O3` does not pay for itself end to end
    /// (`--optimize` asks for it).
    pub fn auto(trace: bool) -> Self {
        NetBuild {
            optimize: Optimize::Quick,
            trace,
            fst: false,
            extra_args: Self::SHARE_ARGS.map(String::from).to_vec(),
            threads: 1,
        }
    }

    /// Untraced `-O1` with [`Self::SHARE_ARGS`]: the quickest build (tests).
    pub fn quick() -> Self {
        NetBuild {
            optimize: Optimize::Quick,
            trace: false,
            fst: false,
            extra_args: Self::SHARE_ARGS.map(String::from).to_vec(),
            threads: 1,
        }
    }
}

/// The Verilator options of a network build: the switches' crosspoint vectors made
/// readable (they are compared at the end of every set-up), the switches
/// ([`NetBuild::NO_INLINE`]) and the PE module (written as rows, the PE rows module
/// `<pe>_x<n>`) not inlined; tracing as asked.
///
/// The PE module is kept out of line at every size: one copy of the PE's code instead of
/// one per PE. Measured side by side (issue 35, `docs/network-rtl.md`, "Large networks"):
/// CB-LCAN(2,2) n = 1,024 writes 28.1 MB of C++ instead of 38.6 MB, for an RTL about 1.1x
/// slower per bit-time; the build is most of a large network's co-simulation (n = 4,096:
/// 750 s of build for a minute of run). Until then only networks of fewer than 200
/// switches kept it.
pub fn model_options(how: &NetBuild, spec: &NetSpec) -> ModelOptions {
    let mut o = ModelOptions::traced(how.trace)
        .with_public("lca_switch_*", "xp_*")
        .with_no_inline(NetBuild::NO_INLINE)
        .with_no_inline(&pe_module_of(spec));
    o.fst = how.fst;
    o.optimize = how.optimize;
    o.extra_args = how.extra_args.clone();
    o.with_threads(how.threads)
}

/// The module the network's PE interfaces are instances of: the PE module, or written as
/// rows, its rows module.
fn pe_module_of(spec: &NetSpec) -> String {
    match spec.structure {
        Structure::Instances => spec.pe_module_name(),
        Structure::Rows => {
            lcanet_hdl::lca_net::pe::pe_rows_module_name(&spec.pe_module_name(), spec.net.n)
        }
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
    /// Bytes of Verilog written.
    pub verilog_bytes: usize,
    /// [`Emitted::digest`](lcanet_hdl::netlist::Emitted::digest) of that Verilog.
    pub rtl_digest: String,
    pub(crate) lib: Arc<ModelLibrary>,
    pub(crate) design: Design,
    pub(crate) how: NetBuild,
    pub(crate) progress: Option<ProgressFn>,
}

impl NetBench {
    /// Generates the network into `rtl_dir` and builds it (cached by content hash).
    pub fn build(spec: NetSpec, rtl_dir: &Path, how: NetBuild) -> Result<Self, NetCosimError> {
        Self::build_at(spec, rtl_dir, how, None)
    }

    /// [`NetBench::build`] with the model cache entries under `models_root` if given (a
    /// fresh directory measures a cold build; the Verilator runtime stays in the default
    /// cache).
    pub fn build_at(
        spec: NetSpec,
        rtl_dir: &Path,
        how: NetBuild,
        models_root: Option<&Path>,
    ) -> Result<Self, NetCosimError> {
        let t0 = Instant::now();
        let emitted = network_design(&spec)?.emit().map_err(NetGenError::from)?;
        emitted
            .write_to(rtl_dir)
            .map_err(|e| NetCosimError::Write(e.to_string()))?;
        let generate_seconds = t0.elapsed().as_secs_f64();
        let top = emitted.top.clone();
        let design = Design::from_file_list(&rtl_dir.join(&emitted.file_list.name), top.clone())?;
        let t1 = Instant::now();
        let options = model_options(&how, &spec);
        let info = match models_root {
            Some(root) => build_in(root, &design, &options)?,
            None => build(&design, &options)?,
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
            verilog_bytes: emitted.module_bytes(),
            rtl_digest: emitted.digest(),
            lib,
            design,
            how,
            progress: None,
        })
    }

    /// The same network with tracing (VCD, or FST with [`NetBuild::fst`]; built, or found
    /// in the cache, if needed).
    pub fn traced(&self) -> Result<Arc<ModelLibrary>, NetCosimError> {
        if self.lib.has_trace() {
            return Ok(self.lib.clone());
        }
        let how = NetBuild {
            trace: true,
            ..self.how.clone()
        };
        let info = build(&self.design, &model_options(&how, &self.spec))?;
        Ok(ModelLibrary::load(&info)?)
    }

    /// How the model was built.
    pub fn how(&self) -> &NetBuild {
        &self.how
    }

    /// Reports the progress of later runs to `f` (bit-time, passes so far).
    pub fn set_progress(&mut self, f: ProgressFn) {
        self.progress = Some(f);
    }

    /// Whether the model came from the cache.
    pub fn cache(&self) -> CacheOutcome {
        self.info.outcome
    }
}

#[cfg(test)]
mod tests {
    use super::{model_options, NetBuild};
    use lcanet_hdl::lca_net::NetSpec;
    use lcanet_sim::lcan::cycle::ArbiterPolicy;
    use lcanet_sim::lcan::routing::Algorithm;
    use lcanet_sim::lcan::{Size, Topology};

    fn baseline(pes: usize) -> NetSpec {
        let topo = Topology::complete_bipartite(2, 2, Size::Pes(pes)).unwrap();
        NetSpec::new(topo, Algorithm::R2, ArbiterPolicy::Fixed, 1, 8).unwrap()
    }

    #[test]
    fn the_switches_and_the_pe_module_are_kept_from_inlining_at_every_size() {
        // CB(2,2) n = 16: 4 levels of 8 switches (instances); n = 256: 8 levels of 128
        // (rows: the PEs are one instance of their rows module).
        for (spec, pe) in [
            (baseline(16), baseline(16).pe_module_name()),
            (
                baseline(256),
                format!("{}_x256", baseline(256).pe_module_name()),
            ),
        ] {
            assert_eq!(
                model_options(&NetBuild::quick(), &spec).no_inline,
                vec![NetBuild::NO_INLINE.to_string(), pe]
            );
        }
    }

    #[test]
    fn threads_add_verilators_option_and_one_thread_leaves_the_options_as_they_were() {
        let spec = baseline(16);
        let one = model_options(&NetBuild::quick(), &spec);
        assert_eq!(
            one.extra_args,
            NetBuild::SHARE_ARGS.map(String::from).to_vec()
        );
        let two = model_options(
            &NetBuild {
                threads: 2,
                ..NetBuild::quick()
            },
            &spec,
        );
        assert_eq!(two.extra_args[3..], ["--threads", "2"]);
    }
}
