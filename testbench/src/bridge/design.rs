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

/// Internal signals made readable by hierarchical name ([`super::Model::signal`]): every
/// variable whose name matches `var` in every module whose name matches `module` (Verilator
/// wildcards `*` and `?`). The build writes them as `public_flat_rd` lines of a Verilator
/// configuration file, so the Verilog stays free of tool comments and Verilator optimizes
/// every other signal as usual.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicSignals {
    /// Module name pattern, e.g. `lca_switch_*`.
    pub module: String,
    /// Variable name pattern, e.g. `xp_*`.
    pub var: String,
}

impl PublicSignals {
    /// Variables matching `var` in modules matching `module`.
    pub fn new(module: impl Into<String>, var: impl Into<String>) -> Self {
        PublicSignals {
            module: module.into(),
            var: var.into(),
        }
    }
}

/// How hard the C++ compiler optimizes the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Optimize {
    /// `-O1`: quick to compile, and most of the speed for small designs (the default).
    /// `$LCANET_QUICK_OPT` ([`QUICK_OPT_ENV`]) can set another level.
    #[default]
    Quick,
    /// `-O3`: longer to compile, fastest to run (large networks, benchmarks).
    Fast,
    /// `-O0` whatever `$LCANET_QUICK_OPT` says: quickest to compile, several times slower
    /// to run (models that run briefly: the sweep's smallest networks).
    Unoptimized,
}

/// The environment variable that sets the g++ level of [`Optimize::Quick`] builds: `0`,
/// `1` (the default when unset or empty), `2` or `3`. `scripts/test` sets `0`: its models
/// run a few thousand bit-times at most, so compiling is nearly all their cost
/// (`docs/decisions/test-build.md`). The level is part of the build cache's key.
pub const QUICK_OPT_ENV: &str = "LCANET_QUICK_OPT";

impl Optimize {
    /// The g++ flag of the model's fast code: `-O3` for [`Optimize::Fast`]; for
    /// [`Optimize::Quick`] `-O1`, or `-O<k>` if [`QUICK_OPT_ENV`] says `k`. A malformed
    /// variable is an error that names it.
    pub fn cxx_flag(self) -> Result<&'static str, BridgeError> {
        match self {
            Optimize::Fast => Ok("-O3"),
            Optimize::Unoptimized => Ok("-O0"),
            Optimize::Quick => quick_flag(std::env::var(QUICK_OPT_ENV)),
        }
    }
}

/// The `-O` flag of quick builds for the value `v` of [`QUICK_OPT_ENV`].
fn quick_flag(v: Result<String, std::env::VarError>) -> Result<&'static str, BridgeError> {
    let refuse = |what: String| {
        BridgeError::Setting(format!(
            "{what}: the g++ level of quick model builds must be 0, 1, 2 or 3"
        ))
    };
    match v {
        Err(std::env::VarError::NotPresent) => Ok("-O1"),
        Err(std::env::VarError::NotUnicode(_)) => {
            Err(refuse(format!("{QUICK_OPT_ENV} is not valid Unicode")))
        }
        Ok(s) => match s.as_str() {
            "" | "1" => Ok("-O1"),
            "0" => Ok("-O0"),
            "2" => Ok("-O2"),
            "3" => Ok("-O3"),
            other => Err(refuse(format!("{QUICK_OPT_ENV}={other:?}"))),
        },
    }
}

/// Build options; all of them are part of the cache key. Every build runs Verilator with
/// `-Wall` and fails on any warning: the emitted Verilog must be clean in the very builds
/// the co-simulation uses.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ModelOptions {
    /// Build with VCD tracing (`--trace`), so that a model can write a VCD.
    pub trace: bool,
    /// With `trace`: FST instead of VCD (`--trace-fst`; the model's waveform file is then
    /// an FST, which GTKWave reads natively; linked with lz4 and zlib).
    #[serde(default)]
    pub fst: bool,
    /// Internal signals to make readable by hierarchical name (empty: none).
    pub public: Vec<PublicSignals>,
    /// C++ optimization.
    pub optimize: Optimize,
    /// Extra Verilator arguments.
    pub extra_args: Vec<String>,
    /// Module name patterns (wildcards `*`, `?`) Verilator must not inline into their
    /// parents (`no_inline` lines of the configuration file): a block instantiated many
    /// times then keeps one copy of its code instead of one per instance.
    #[serde(default)]
    pub no_inline: Vec<String>,
}

impl ModelOptions {
    /// Options with tracing on or off and nothing public.
    pub fn traced(trace: bool) -> Self {
        ModelOptions {
            trace,
            ..ModelOptions::default()
        }
    }

    /// Adds a pattern of public signals.
    pub fn with_public(mut self, module: &str, var: &str) -> Self {
        self.public.push(PublicSignals::new(module, var));
        self
    }

    /// A model evaluated by `threads` threads (Verilator's `--threads`, one more argument);
    /// 0 or 1 leaves the options as they are (single-threaded, the same cache key as
    /// before the option existed).
    pub fn with_threads(mut self, threads: usize) -> Self {
        if threads > 1 {
            self.extra_args
                .extend(["--threads".to_string(), threads.to_string()]);
        }
        self
    }

    /// Adds a pattern of modules that Verilator must not inline.
    pub fn with_no_inline(mut self, module: &str) -> Self {
        self.no_inline.push(module.to_string());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::{quick_flag, QUICK_OPT_ENV};
    use std::env::VarError;

    #[test]
    fn the_quick_level_defaults_to_o1_and_a_malformed_variable_is_refused_by_name() {
        let ok = |v: &str| quick_flag(Ok(v.to_string())).unwrap();
        assert_eq!(quick_flag(Err(VarError::NotPresent)).unwrap(), "-O1");
        assert_eq!(ok(""), "-O1");
        assert_eq!(ok("0"), "-O0");
        assert_eq!(ok("1"), "-O1");
        assert_eq!(ok("3"), "-O3");
        for bad in ["4", "-O0", " 0", "fast"] {
            let e = quick_flag(Ok(bad.to_string())).unwrap_err().to_string();
            assert!(
                e.contains(QUICK_OPT_ENV) && e.contains("0, 1, 2 or 3"),
                "{bad}: {e}"
            );
        }
        let e = quick_flag(Err(VarError::NotUnicode("\u{0}".into())));
        assert!(e.unwrap_err().to_string().contains("not valid Unicode"));
    }
}
