//! `verilator --lint-only -Wall`: every emitted file must lint clean. Diagnostics are parsed
//! into [`Diagnostic`]s; any warning or error makes [`lint`] fail with [`LintError::Findings`].

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{command_line, locate, run_capture, Tool, ToolError};

/// Severity of a Verilator diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// `%Warning-CODE`.
    Warning,
    /// `%Error` or `%Error-CODE`.
    Error,
}

/// One Verilator diagnostic, e.g. `%Warning-UNUSEDSIGNAL: a.v:6:16: Signal is not used: 'x'`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Warning or error.
    pub severity: Severity,
    /// The code (`UNUSEDSIGNAL`, `WIDTH`, ...); empty for plain `%Error`.
    pub code: String,
    /// Source file, when the diagnostic names one.
    pub file: Option<PathBuf>,
    /// Line number (1-based), when known.
    pub line: Option<u32>,
    /// Column (1-based), when known.
    pub column: Option<u32>,
    /// The message text.
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sev = match self.severity {
            Severity::Warning => "Warning",
            Severity::Error => "Error",
        };
        write!(f, "%{sev}")?;
        if !self.code.is_empty() {
            write!(f, "-{}", self.code)?;
        }
        if let Some(file) = &self.file {
            write!(f, ": {}", file.display())?;
            if let (Some(l), Some(c)) = (self.line, self.column) {
                write!(f, ":{l}:{c}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

/// Why linting did not pass.
#[derive(Debug, thiserror::Error)]
pub enum LintError {
    /// Verilator could not be found or started.
    #[error(transparent)]
    Tool(#[from] ToolError),
    /// Verilator reported warnings or errors.
    #[error("verilator --lint-only -Wall of top `{top}` found {} problem(s) (`{command}`):\n{}",
        .diagnostics.len(),
        .diagnostics.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))]
    Findings {
        /// Top module name.
        top: String,
        /// The command line.
        command: String,
        /// Every diagnostic, in Verilator's order.
        diagnostics: Vec<Diagnostic>,
    },
}

/// Runs `verilator --lint-only -Wall --top-module <top> <files>`; passes only when Verilator
/// exits 0 and reports nothing.
pub fn lint(files: &[impl AsRef<Path>], top: &str) -> Result<(), LintError> {
    let verilator = locate(Tool::Verilator)?;
    let mut cmd = Command::new(verilator);
    cmd.args(["--lint-only", "-Wall", "--quiet-stats", "--top-module", top]);
    for f in files {
        cmd.arg(f.as_ref());
    }
    let out = run_capture(Tool::Verilator, &mut cmd)?;
    let text = String::from_utf8_lossy(&out.stderr);
    let mut diagnostics = parse_diagnostics(&text);
    // "Exiting due to N warning(s)" is a summary, not a finding.
    diagnostics.retain(|d| !(d.file.is_none() && d.message.starts_with("Exiting due to")));
    if diagnostics.is_empty() && !out.status.success() {
        diagnostics.push(Diagnostic {
            severity: Severity::Error,
            code: String::new(),
            file: None,
            line: None,
            column: None,
            message: format!(
                "exit status {}: {}",
                out.status,
                super::relevant_lines(&text)
            ),
        });
    }
    if diagnostics.is_empty() {
        Ok(())
    } else {
        Err(LintError::Findings {
            top: top.to_string(),
            command: command_line(&cmd),
            diagnostics,
        })
    }
}

/// Parses Verilator's `%Warning-CODE: file:line:col: message` / `%Error...` lines.
pub fn parse_diagnostics(text: &str) -> Vec<Diagnostic> {
    text.lines().filter_map(parse_line).collect()
}

fn parse_line(line: &str) -> Option<Diagnostic> {
    let (severity, rest) = if let Some(r) = line.strip_prefix("%Warning") {
        (Severity::Warning, r)
    } else if let Some(r) = line.strip_prefix("%Error") {
        (Severity::Error, r)
    } else {
        return None;
    };
    let (code, rest) = match rest.strip_prefix('-') {
        Some(r) => {
            let end = r.find(':')?;
            (r[..end].to_string(), &r[end..])
        }
        None => (String::new(), rest),
    };
    let rest = rest.strip_prefix(':')?.trim_start();
    // Location "file:line:col: message" (the file may not contain ':' here).
    let mut parts = rest.splitn(4, ':');
    let (file, l, c, msg) = (parts.next(), parts.next(), parts.next(), parts.next());
    if let (Some(file), Some(l), Some(c), Some(msg)) = (file, l, c, msg) {
        if let (Ok(l), Ok(c)) = (l.parse::<u32>(), c.parse::<u32>()) {
            return Some(Diagnostic {
                severity,
                code,
                file: Some(PathBuf::from(file)),
                line: Some(l),
                column: Some(c),
                message: msg.trim().to_string(),
            });
        }
    }
    Some(Diagnostic {
        severity,
        code,
        file: None,
        line: None,
        column: None,
        message: rest.trim().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_warning_and_error_lines() {
        let text = "%Warning-UNUSEDSIGNAL: u.v:6:16: Signal is not used: 'spare'\n\
                    : ... note: In instance 'u'\n\
                    %Error: bad.v:1:46: syntax error, unexpected ';'\n\
                    %Error: Exiting due to 1 error(s)\n";
        let d = parse_diagnostics(text);
        assert_eq!(d.len(), 3);
        assert_eq!(d[0].severity, Severity::Warning);
        assert_eq!(d[0].code, "UNUSEDSIGNAL");
        assert_eq!(d[0].file.as_deref(), Some(Path::new("u.v")));
        assert_eq!((d[0].line, d[0].column), (Some(6), Some(16)));
        assert_eq!(d[0].message, "Signal is not used: 'spare'");
        assert_eq!(d[1].severity, Severity::Error);
        assert_eq!(d[1].line, Some(1));
        assert_eq!(d[2].file, None);
        assert!(d[2].message.starts_with("Exiting due to"));
    }
}
