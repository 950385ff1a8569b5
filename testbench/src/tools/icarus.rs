//! Icarus Verilog: compile with `iverilog -g2005 -Wall` (warnings are failures) and run the
//! result with `vvp`, capturing its standard output.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{failed, locate, run_capture, run_checked, Tool, ToolError};

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

/// Runs `vvp -n <file>` in `cwd` (relative `$readmemh` paths resolve there) and captures stdout.
/// A non-zero exit is an error; what the simulation printed is the caller's to judge.
pub fn run(compiled: &Compiled, cwd: &Path) -> Result<RunOutput, ToolError> {
    let vvp = locate(Tool::Vvp)?;
    let mut cmd = Command::new(vvp);
    cmd.arg("-n").arg(&compiled.vvp_file).current_dir(cwd);
    let out = run_capture(Tool::Vvp, &mut cmd)?;
    if !out.status.success() {
        return Err(failed(Tool::Vvp, &cmd, &out, out.status.to_string()));
    }
    Ok(RunOutput {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}
