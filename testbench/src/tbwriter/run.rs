//! Compiles a written test bench with the design in Icarus Verilog, runs it and reads its
//! verdict (`PASS`, or the first `FAIL bit-time N signal S expected E got G`).

use super::{TbError, TestbenchFiles};
use crate::tools::icarus;

/// The first failure a test bench reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TbFailure {
    /// Bit-time of the difference.
    pub bit_time: u64,
    /// Signal name as printed (`top.port`).
    pub signal: String,
    /// Expected value (hex, as printed by `%h`).
    pub expected: String,
    /// Actual value (hex, as printed by `%h`).
    pub got: String,
}

/// The verdict of a test bench run.
#[derive(Debug, Clone)]
pub struct TbOutcome {
    /// `None` when the bench printed `PASS`.
    pub failure: Option<TbFailure>,
    /// Everything the simulation printed.
    pub stdout: String,
}

impl TbOutcome {
    /// Whether the bench printed `PASS`.
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// Compiles (`iverilog -g2005 -Wall`, warnings fail) and runs (`vvp`) the bench with its
/// design files, in the bench's directory. A bench that printed `FAIL …` ends with
/// `$fatal` (exit status 1, so that FuseSoC and scripts see it); any other non-zero exit
/// is an error.
pub fn run_testbench(tb: &TestbenchFiles) -> Result<TbOutcome, TbError> {
    let mut files = vec![tb.testbench.clone()];
    files.extend(tb.design_files.iter().cloned());
    let compiled = icarus::compile(
        &files,
        &tb.module,
        &tb.dir.join(format!("{}.vvp", tb.module)),
    )?;
    let (out, exit_error) = icarus::run_any_status(&compiled, &tb.dir, icarus::vvp_timeout()?)?;
    let verdict = parse_verdict(&out.stdout);
    match (verdict, exit_error) {
        (Some(v), None) if v.passed() => Ok(v),
        (Some(v), Some(_)) if !v.passed() => Ok(v),
        (_, Some(e)) => Err(e.into()),
        (_, None) => Err(TbError::NoVerdict {
            testbench: tb.testbench.clone(),
            stdout: out.stdout.clone(),
        }),
    }
}

/// Reads the verdict from a bench's output.
pub fn parse_verdict(stdout: &str) -> Option<TbOutcome> {
    for line in stdout.lines() {
        let line = line.trim();
        if line == "PASS" || line.starts_with("PASS ") {
            return Some(TbOutcome {
                failure: None,
                stdout: stdout.to_string(),
            });
        }
        if let Some(rest) = line.strip_prefix("FAIL bit-time ") {
            let f: Vec<&str> = rest.split_whitespace().collect();
            if let [bt, "signal", sig, "expected", e, "got", g] = f.as_slice() {
                return Some(TbOutcome {
                    failure: Some(TbFailure {
                        bit_time: bt.parse().ok()?,
                        signal: sig.to_string(),
                        expected: e.to_string(),
                        got: g.to_string(),
                    }),
                    stdout: stdout.to_string(),
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_are_parsed() {
        assert!(parse_verdict("x\nPASS 3 bit-times\n").unwrap().passed());
        let f = parse_verdict("FAIL bit-time 7 signal c.count expected 08 got 07\n")
            .unwrap()
            .failure
            .unwrap();
        assert_eq!(
            (
                f.bit_time,
                f.signal.as_str(),
                f.expected.as_str(),
                f.got.as_str()
            ),
            (7, "c.count", "08", "07")
        );
        assert!(parse_verdict("nothing").is_none());
    }
}
