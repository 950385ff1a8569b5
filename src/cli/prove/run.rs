//! Running a proof: a [`Job`] (a block's Verilog, its harness, the signals to expose, its
//! properties) is proved property by property with Yosys — per property a k-induction
//! with the auxiliary invariants (`sat -tempinduct`), and, if it does not prove, a search
//! for a counterexample from power-up (`sat -seq`) written as a VCD; and, the first time a
//! property would be reported proved or bounded, a witness that the harness's assumptions
//! admit real traffic.
//!
//! A property is `proved` only when Yosys says the induction step succeeded and a witness
//! was found; `failed` when a counterexample from power-up was found (itself a trace the
//! assumptions admit: no witness is needed, and none is searched for it); `bounded` when
//! the job declares the property bounded (the induction does not close), no
//! counterexample exists within the job's depth, and a witness was found; `unproved`
//! (with the reason) otherwise — induction failure without a counterexample, a time
//! limit, a Yosys error, no witness.

use crate::cli::common::Staged;
use anyhow::{bail, Context};
use lcanet_hdl::formal::{
    bmc_script, induction_script, witness_script, Block, Property, ScriptFiles,
};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Command as Proc, Stdio};
use std::time::{Duration, Instant};

/// The outcome of one property.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The induction succeeded: the property holds in every reachable state.
    Proved,
    /// A counterexample from power-up was found.
    Failed,
    /// A property the block's job declares bounded: its induction does not close, and no
    /// counterexample exists within `depth` bit-times of power-up (a bounded proof).
    Bounded,
    /// Neither (the reason says why).
    Unproved,
}

/// One property's result: a JSON line of `prove switch --json`.
#[derive(Debug, Clone, Serialize)]
pub struct PropertyResult {
    /// `P1` … `P6`.
    pub property: &'static str,
    /// What it states.
    pub statement: &'static str,
    /// The verdict.
    pub status: Status,
    /// Proved: the induction length k. Failed: the counterexample's length in bit-times.
    /// Bounded: the bit-times from power-up searched without a counterexample.
    pub depth: Option<usize>,
    /// Wall-clock seconds of the Yosys runs.
    pub seconds: f64,
    /// The counterexample (failed) or the failing induction trace (unproved), if any.
    pub vcd: Option<PathBuf>,
    /// Why a property is not proved.
    pub reason: Option<String>,
    /// The time step at which the witness trace (`witness.vcd`) shows that the assumptions
    /// admit traffic. `None`: no witness was found (then no property counts as proved), or
    /// none was searched yet (it is searched once per job, when a first property's
    /// induction succeeds or its bounded search finds no counterexample; a failed
    /// property's counterexample is its own trace of the assumptions).
    pub witness_depth: Option<usize>,
    /// Failed: the harness's assertion wires (`chk_*`) that are 0 at the violation.
    pub violated: Vec<String>,
    /// The block module proved.
    pub switch: String,
}

/// One block to prove, its files already written into the working directory.
#[derive(Debug, Clone)]
pub struct Job {
    /// Which kind of block (it decides the properties' statements).
    pub block: Block,
    /// The files and names the scripts use (`vcd` is set per run).
    pub files: ScriptFiles,
    /// Bit-times of the witness search.
    pub witness_depth: usize,
    /// Bit-times of the counterexample search (unless the plan gives one).
    pub bmc_depth: usize,
    /// Properties whose induction is not expected to close: with no counterexample
    /// within the search depth (and a witness) they are `bounded`, not `unproved`.
    pub bounded: Vec<Property>,
}

/// Validated proof options.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Properties to prove (only those the block has are run).
    pub props: Vec<Property>,
    /// Largest induction length.
    pub max_k: usize,
    /// Counterexample search depth, if given.
    pub bmc_depth: Option<usize>,
    /// Time limit of one Yosys run.
    pub timeout: Duration,
    /// JSON output.
    pub json: bool,
}

/// Runs `f` in a working directory: `keep` staged (committed whatever the verdict, if
/// `f` returns), else a temporary directory kept only if a property is not proved.
/// `f` gets the directory to write in and the one its files will end up in.
pub fn with_workdir(
    keep: Option<&Path>,
    f: impl FnOnce(&Path, &Path) -> anyhow::Result<Vec<PropertyResult>>,
) -> anyhow::Result<Vec<PropertyResult>> {
    match keep {
        Some(out) => {
            let staged = Staged::new(out)?;
            let results = f(staged.path(), out)?;
            staged.commit()?;
            Ok(results)
        }
        None => {
            let tmp = tempfile::Builder::new()
                .prefix("lcanet-prove-")
                .tempdir()
                .context("creating a temporary directory")?;
            let results = f(tmp.path(), tmp.path())?;
            if results.iter().any(|r| r.status != Status::Proved) {
                let kept = tmp.keep();
                eprintln!("files of the proof kept in {}", kept.display());
            }
            Ok(results)
        }
    }
}

/// Proves `plan.props` (those `job.block` has) in `dir` (whose files end up in
/// `final_dir`), reporting each result to `report` as it comes.
pub fn prove(
    job: &Job,
    plan: &Plan,
    dir: &Path,
    final_dir: &Path,
    report: &mut dyn FnMut(&PropertyResult) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<PropertyResult>> {
    let files = |vcd: &str| ScriptFiles {
        vcd: vcd.to_string(),
        ..job.files.clone()
    };
    let depth = plan.bmc_depth.unwrap_or(job.bmc_depth);
    // The witness that the assumptions admit traffic: without one a proof could be
    // vacuous, and nothing is reported proved (or bounded). It is searched the first time
    // a property needs it.
    let mut witness = Witness {
        depth: job.witness_depth,
        found: None,
    };
    let own = Property::of(job.block);
    let mut results = Vec::new();
    for &prop in plan.props.iter().filter(|p| own.contains(p)) {
        let start = Instant::now();
        let mut r = PropertyResult {
            property: prop.name(),
            statement: prop.summary(job.block),
            status: Status::Unproved,
            depth: None,
            seconds: 0.0,
            vcd: None,
            reason: None,
            witness_depth: None,
            violated: Vec::new(),
            switch: job.files.block_top.clone(),
        };
        let proven = induct(dir, final_dir, &files, prop, plan, depth, &mut r)?;
        let needs_witness = proven || (job.bounded.contains(&prop) && bounded(&r, depth));
        if needs_witness {
            let w = witness.get(dir, &files, plan)?;
            r.witness_depth = w.as_ref().ok().copied();
            match (proven, w) {
                (true, Ok(_)) => r.status = Status::Proved,
                (true, Err(e)) => {
                    r.reason = Some(format!("the induction succeeded, but {e}"));
                    r.depth = None;
                }
                (false, Ok(_)) => {
                    r.status = Status::Bounded;
                    r.depth = Some(depth);
                }
                (false, Err(e)) => {
                    r.reason = Some(format!("{}; {e}", r.reason.take().unwrap_or_default()))
                }
            }
        } else {
            r.witness_depth = witness
                .found
                .as_ref()
                .and_then(|w| w.as_ref().ok().copied());
        }
        r.seconds = (start.elapsed().as_secs_f64() * 100.0).round() / 100.0;
        report(&r)?;
        results.push(r);
    }
    Ok(results)
}

/// The witness search of one job, run at most once.
struct Witness {
    /// Bit-times searched.
    depth: usize,
    /// Its outcome, once searched: the time step of the witness, or why there is none.
    found: Option<Result<usize, String>>,
}

impl Witness {
    /// The witness, searched for now if it was not yet.
    fn get(
        &mut self,
        dir: &Path,
        files: &dyn Fn(&str) -> ScriptFiles,
        plan: &Plan,
    ) -> anyhow::Result<Result<usize, String>> {
        if self.found.is_none() {
            let wd = self.depth;
            let found = match yosys(
                dir,
                "witness",
                &witness_script(&files("witness.vcd"), wd),
                plan.timeout,
            )? {
                Run::Done(log) if log.contains("model found: FAIL!") => {
                    match first_violation(&dir.join("witness.vcd")) {
                        Some((t, _)) => Ok(t),
                        None => Err("the witness trace could not be read".into()),
                    }
                }
                Run::Done(_) => Err(format!(
                    "no witness within {wd} bit-times: the assumptions may rule out traffic"
                )),
                Run::TimedOut => Err("the witness search timed out".into()),
                Run::Error(e) => Err(format!("the witness search failed: {e}")),
            };
            self.found = Some(found);
        }
        Ok(self.found.clone().expect("searched"))
    }
}

/// k-induction, then (if it does not prove) the counterexample search.
#[allow(clippy::too_many_arguments)]
fn induct(
    dir: &Path,
    final_dir: &Path,
    files: &dyn Fn(&str) -> ScriptFiles,
    prop: Property,
    plan: &Plan,
    depth: usize,
    r: &mut PropertyResult,
) -> anyhow::Result<bool> {
    let name = prop.name();
    let ind_vcd = format!("induction_{name}.vcd");
    let ind = yosys(
        dir,
        &format!("induction_{name}"),
        &induction_script(&files(&ind_vcd), &prop.define(), plan.max_k),
        plan.timeout,
    )?;
    let why = match ind {
        Run::TimedOut => Some(format!(
            "the induction did not finish within --timeout {} s",
            plan.timeout.as_secs()
        )),
        Run::Error(e) => Some(format!("Yosys failed: {e}")),
        Run::Done(log) => {
            let k = last_length(&log);
            if log.contains("Induction step proven: SUCCESS!") {
                // Proved once the witness is found (the caller's).
                r.depth = k;
                return Ok(true);
            } else if log.contains("model found for base case: FAIL!") {
                Some(format!(
                    "an assertion (the property or an auxiliary invariant) fails within {} bit-times of power-up",
                    k.unwrap_or(0)
                ))
            } else if log.contains("Reached maximum number of time steps") {
                Some(format!(
                    "the induction step fails up to k = {} (the auxiliary invariants are too weak)",
                    plan.max_k
                ))
            } else {
                Some("Yosys gave no verdict (see the log)".to_string())
            }
        }
    };
    let Some(why) = why else {
        return Ok(false);
    };
    if dir.join(&ind_vcd).exists() {
        r.vcd = Some(final_dir.join(&ind_vcd));
    }
    // Look for a counterexample to the property alone, from power-up.
    let cex_vcd = format!("cex_{name}.vcd");
    let bmc = yosys(
        dir,
        &format!("bmc_{name}"),
        &bmc_script(&files(&cex_vcd), &[&prop.define()], depth),
        plan.timeout,
    )?;
    match bmc {
        Run::Done(log) if log.contains("model found: FAIL!") => {
            failed(r, dir, final_dir, &cex_vcd, &why);
        }
        Run::Done(log) if log.contains("no model found: SUCCESS!") => {
            r.reason = Some(format!(
                "{why}; no counterexample to {name} within {depth} bit-times of power-up"
            ));
        }
        Run::TimedOut => {
            r.reason = Some(format!(
                "{why}; the search for a counterexample did not finish within --timeout {} s",
                plan.timeout.as_secs()
            ));
        }
        Run::Error(e) => r.reason = Some(format!("{why}; Yosys failed: {e}")),
        Run::Done(_) => {
            r.reason = Some(format!("{why}; the counterexample search gave no verdict"))
        }
    }
    Ok(false)
}

/// An unproved result whose only gap is the induction: the counterexample search
/// finished without one (bounded, once the witness is found).
fn bounded(r: &PropertyResult, depth: usize) -> bool {
    r.status == Status::Unproved
        && r.reason.as_ref().is_some_and(|why| {
            why.contains("the induction step fails")
                && why.ends_with(&format!("within {depth} bit-times of power-up"))
        })
}

fn failed(r: &mut PropertyResult, dir: &Path, final_dir: &Path, cex_vcd: &str, why: &str) {
    r.status = Status::Failed;
    let at = first_violation(&dir.join(cex_vcd));
    r.depth = at.as_ref().map(|(t, _)| *t);
    r.violated = at.map(|(_, names)| names).unwrap_or_default();
    r.vcd = Some(final_dir.join(cex_vcd));
    r.reason = Some(format!(
        "a counterexample from power-up: the VCD shows it, the failing assertion wires (chk_*) at 0 (induction: {why})"
    ));
}

/// The proof assumes the block powers up with every register at zero (`-set-init-zero`);
/// this checks the emitted `initial` block says so.
pub fn check_power_up_zero(file: &Path) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let Some(start) = text.find("initial begin") else {
        return Ok(());
    };
    let body = &text[start..];
    let end = body.find("end\n").unwrap_or(body.len());
    for line in body[..end].lines().skip(1) {
        let l = line.trim();
        // `name = <width>'<base><digits>;`: every digit 0.
        let zero = l
            .strip_suffix(';')
            .and_then(|v| v.split_once('\''))
            .is_some_and(|(_, v)| v.len() > 1 && v[1..].chars().all(|c| c == '0' || c == '_'));
        if !l.is_empty() && !zero {
            bail!(
                "the block powers up with a register not at zero ({l}); the proof assumes zeros (-set-init-zero)"
            );
        }
    }
    Ok(())
}

/// How a Yosys run ended.
enum Run {
    /// It finished; its log.
    Done(String),
    /// It was stopped at the time limit.
    TimedOut,
    /// It could not run or reported an error.
    Error(String),
}

/// Runs the Yosys `script` (saved as `<name>.ys`, log in `<name>.log`) in `dir`.
fn yosys(dir: &Path, name: &str, script: &str, limit: Duration) -> anyhow::Result<Run> {
    let ys = format!("{name}.ys");
    let log = format!("{name}.log");
    std::fs::write(dir.join(&ys), script)
        .with_context(|| format!("writing {}", dir.join(&ys).display()))?;
    let log_file = std::fs::File::create(dir.join(&log))
        .with_context(|| format!("creating {}", dir.join(&log).display()))?;
    let exe = lcanet_testbench::tools::locate(lcanet_testbench::tools::Tool::Yosys)?;
    let mut child = match Proc::new(&exe)
        .arg("-s")
        .arg(&ys)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(log_file)
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => bail!(
            "running {} (scripts/setup installs Yosys): {e}",
            exe.display()
        ),
    };
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().context("waiting for yosys")? {
            break Some(s);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = std::fs::read_to_string(dir.join(&log)).unwrap_or_default();
    Ok(match status {
        None => Run::TimedOut,
        Some(s) if s.success() => Run::Done(text),
        Some(_) => {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut e, &mut err);
            }
            let line = text
                .lines()
                .chain(err.lines())
                .find(|l| l.contains("ERROR"))
                .unwrap_or("exit status not zero")
                .trim()
                .to_string();
            Run::Error(format!("{line} (log: {log})"))
        }
    })
}

/// The last induction length Yosys tried.
fn last_length(log: &str) -> Option<usize> {
    log.lines()
        .filter_map(|l| l.strip_prefix("** Trying induction with length "))
        .filter_map(|r| r.split_whitespace().next()?.parse().ok())
        .next_back()
}

/// The first time step of a counterexample VCD at which an assertion wire of the
/// harness (`chk_*`) is 0, and the names of those that are.
pub fn first_violation(vcd: &Path) -> Option<(usize, Vec<String>)> {
    use std::collections::HashMap;
    let text = std::fs::read_to_string(vcd).ok()?;
    let mut names = HashMap::new();
    for l in text.lines() {
        let t: Vec<&str> = l.split_whitespace().collect();
        if t.len() >= 5 && t[0] == "$var" && t[2] == "1" {
            let name = t[4].trim_start_matches('\\');
            if name.starts_with("chk_") {
                names.insert(t[3].to_string(), name.to_string());
            }
        }
    }
    let mut value: HashMap<String, char> = HashMap::new();
    let mut time: Option<usize> = None;
    let failing = |value: &HashMap<String, char>| {
        let mut f: Vec<String> = names
            .iter()
            .filter(|(id, _)| value.get(*id) == Some(&'0'))
            .map(|(_, n)| n.clone())
            .collect();
        f.sort();
        f
    };
    for l in text.lines() {
        if let Some(t) = l.strip_prefix('#') {
            if let Some(now) = time {
                let f = failing(&value);
                if !f.is_empty() {
                    return Some((now, f));
                }
            }
            time = t.trim().parse().ok();
        } else if let Some(c) = l.chars().next().filter(|c| matches!(c, '0' | '1' | 'x')) {
            value.insert(l[1..].trim().to_string(), c);
        }
    }
    let f = failing(&value);
    (!f.is_empty()).then(|| (time.unwrap_or(0), f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yosys_verdicts_are_read_from_the_log() {
        let log = "** Trying induction with length 1 **\n** Trying induction with length 2 **\nInduction step proven: SUCCESS!\n";
        assert_eq!(last_length(log), Some(2));
        assert_eq!(last_length("nothing"), None);
    }
}
