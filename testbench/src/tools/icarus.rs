//! Icarus Verilog: compile with `iverilog -g2005 -Wall` (warnings are failures) and run the
//! result with `vvp` (with a time limit), capturing its standard output.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::{failed, locate, run_capture_limited, run_checked, Tool, ToolError};

/// A compiled Icarus simulation (`vvp` input file).
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The `vvp` file written by `iverilog -o`.
    pub vvp_file: PathBuf,
    /// The root module given with `-s`.
    pub top: String,
}

/// Compiles `files` with `iverilog -g2005 -Wall -s <top> -o <out>`. Any warning on stderr makes
/// the compile fail, as does a non-zero exit.
pub fn compile(files: &[impl AsRef<Path>], top: &str, out: &Path) -> Result<Compiled, ToolError> {
    let iverilog = locate(Tool::Iverilog)?;
    let mut cmd = Command::new(iverilog);
    cmd.args(["-g2005", "-Wall", "-s", top, "-o"]).arg(out);
    for f in files {
        cmd.arg(f.as_ref());
    }
    let output = run_checked(Tool::Iverilog, &mut cmd)?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if stderr
        .lines()
        .any(|l| l.to_ascii_lowercase().contains("warning"))
    {
        return Err(failed(
            Tool::Iverilog,
            &cmd,
            &output,
            "exit 0 with warnings (-Wall warnings are failures)".to_string(),
        ));
    }
    Ok(Compiled {
        vvp_file: out.to_path_buf(),
        top: top.to_string(),
    })
}

/// The captured result of a `vvp` run.
#[derive(Debug, Clone)]
pub struct RunOutput {
    /// Everything the simulation printed on stdout (`$display`).
    pub stdout: String,
    /// What `vvp` printed on stderr.
    pub stderr: String,
}

/// How long `vvp` may run unless `LCANET_VVP_TIMEOUT` (seconds) says otherwise: a bench
/// stuck in a zero-delay loop never ends, and must fail rather than hang.
pub const DEFAULT_VVP_TIMEOUT_SECS: u64 = 1200;

/// The `vvp` time limit: `LCANET_VVP_TIMEOUT` seconds, or [`DEFAULT_VVP_TIMEOUT_SECS`].
pub fn vvp_timeout() -> Result<Duration, ToolError> {
    match std::env::var("LCANET_VVP_TIMEOUT") {
        Err(_) => Ok(Duration::from_secs(DEFAULT_VVP_TIMEOUT_SECS)),
        Ok(v) => match v.trim().parse::<u64>() {
            Ok(s) if s > 0 => Ok(Duration::from_secs(s)),
            _ => Err(ToolError::Parse {
                tool: "environment",
                what: "LCANET_VVP_TIMEOUT",
                detail: format!("{v:?} is not a positive number of seconds"),
            }),
        },
    }
}

/// Runs `vvp -n <file>` in `cwd` (relative `$readmemh` paths resolve there) and captures stdout,
/// killing it after [`vvp_timeout`]. A non-zero exit is an error; what the simulation printed
/// is the caller's to judge.
pub fn run(compiled: &Compiled, cwd: &Path) -> Result<RunOutput, ToolError> {
    run_limited(compiled, cwd, vvp_timeout()?)
}

/// As [`run`], with an explicit time limit.
pub fn run_limited(
    compiled: &Compiled,
    cwd: &Path,
    limit: Duration,
) -> Result<RunOutput, ToolError> {
    let (out, failure) = run_any_status(compiled, cwd, limit)?;
    match failure {
        None => Ok(out),
        Some(e) => Err(e),
    }
}

/// As [`run_limited`], but a non-zero exit (a bench that ends a failed run with `$fatal`)
/// still returns what was printed, beside the error it would be.
pub fn run_any_status(
    compiled: &Compiled,
    cwd: &Path,
    limit: Duration,
) -> Result<(RunOutput, Option<ToolError>), ToolError> {
    let vvp = locate(Tool::Vvp)?;
    let mut cmd = Command::new(vvp);
    cmd.arg("-n").arg(&compiled.vvp_file).current_dir(cwd);
    let out = run_capture_limited(
        Tool::Vvp,
        &mut cmd,
        limit,
        "set LCANET_VVP_TIMEOUT=<seconds> for a longer limit",
    )?;
    let failure =
        (!out.status.success()).then(|| failed(Tool::Vvp, &cmd, &out, out.status.to_string()));
    Ok((
        RunOutput {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        },
        failure,
    ))
}
