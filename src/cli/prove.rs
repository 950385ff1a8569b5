//! `lcanet prove switch`: proves the LCA switch's invariants (`docs/formal.md`) with Yosys
//! for every reachable state — P1 no output with two drivers, P2 no input driving two
//! outputs, P3 crosspoints held through pass-through, P4 winning packets forwarded bit
//! for bit — by k-induction with auxiliary invariants (`sat -tempinduct`); a property that
//! does not prove is searched for a counterexample from power-up (`sat -seq`), written
//! as a VCD. `lcanet prove matrix` runs every configuration of the coverage matrix.
//!
//! A property is reported `proved` only when Yosys says the induction step succeeded;
//! `failed` when a counterexample from power-up was found; `unproved` (with the reason)
//! otherwise — induction failure without a counterexample, a time limit, a Yosys error.

use crate::cli::common::Staged;
use crate::cli::generate::switch::{PolicyArg, TopologyArg};
use crate::cli::Outcome;
use anyhow::{bail, Context};
use lcanet_hdl::formal::{
    bmc_script, harness, induction_script, witness_script, Property, ScriptFiles,
};
use lcanet_hdl::lca::{faulty_switch_design, switch_design, Layout, TestFault};
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams, SwitchTopology};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command as Proc, Stdio};
use std::time::{Duration, Instant};

/// Targets of `lcanet prove`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Prove the invariants of one LCA switch (P1-P4 of docs/formal.md) with Yosys.
    Switch(Args),
    /// Prove them for every configuration of the coverage matrix (2 <= d <= 4,
    /// 1 <= u <= 4, tree and cb, W = 1 and 2): one line per configuration.
    Matrix(MatrixArgs),
}

/// A deliberate defect to build into the switch (tests of the proof itself).
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum FaultArg {
    /// The DOWN arbiter treats a down-wire driven by an earlier step as free: P1 must fail.
    DrivenOutputFree,
}

/// The proof options shared by `prove switch` and `prove matrix`.
#[derive(Debug, Clone, clap::Args)]
pub struct ProofArgs {
    /// Levels of the network the switch serves (sets the address and level fields).
    #[arg(long, default_value_t = 3)]
    pub levels: usize,
    /// Contention arbiter policy.
    #[arg(long, value_enum, default_value = "fixed")]
    pub policy: PolicyArg,
    /// Properties to prove, comma-separated (P1,P2,P3,P4; default all).
    #[arg(long, value_delimiter = ',')]
    pub property: Vec<String>,
    /// Largest induction length k tried (1..=64).
    #[arg(long, default_value_t = 3)]
    pub max_k: usize,
    /// Bit-times from power-up searched for a counterexample when a property does not
    /// prove (1..=4096; default two of the longest step plus two).
    #[arg(long)]
    pub bmc_depth: Option<usize>,
    /// Time limit of one Yosys run in seconds (1..=86400); past it the property is unproved.
    #[arg(long, default_value_t = 900)]
    pub timeout: u64,
    /// Print one JSON document per line (per property, or per configuration for `matrix`).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `lcanet prove switch`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Downers.
    #[arg(long)]
    pub d: usize,
    /// Uppers.
    #[arg(long)]
    pub u: usize,
    /// Link width in bits per bit-time.
    #[arg(long, alias = "width", default_value_t = 1)]
    pub w: usize,
    /// Topology the switch is built for.
    #[arg(long, value_enum, default_value = "tree")]
    pub topology: TopologyArg,
    #[command(flatten)]
    pub proof: ProofArgs,
    /// Keep the switch, the harness, the Yosys scripts, logs and counterexamples here
    /// (written all or nothing). Without it they go to a temporary directory that is
    /// removed unless a property is not proved (its path is printed then).
    #[arg(long)]
    pub keep: Option<PathBuf>,
    /// Test only: build this defect into the switch (the proof must then fail).
    #[arg(long, value_enum)]
    pub fault: Option<FaultArg>,
}

/// Arguments of `lcanet prove matrix`.
#[derive(Debug, clap::Args)]
pub struct MatrixArgs {
    #[command(flatten)]
    pub proof: ProofArgs,
    /// Keep every configuration's files in a subdirectory of this directory.
    #[arg(long)]
    pub keep: Option<PathBuf>,
}

/// The outcome of one property.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The induction succeeded: the property holds in every reachable state.
    Proved,
    /// A counterexample from power-up was found.
    Failed,
    /// Neither (the reason says why).
    Unproved,
}

/// One property's result: a JSON line of `prove switch --json`.
#[derive(Debug, Clone, Serialize)]
pub struct PropertyResult {
    /// `P1` … `P4`.
    pub property: &'static str,
    /// What it states.
    pub statement: &'static str,
    /// The verdict.
    pub status: Status,
    /// Proved: the induction length k. Failed: the counterexample's length in bit-times.
    pub depth: Option<usize>,
    /// Wall-clock seconds of the Yosys runs.
    pub seconds: f64,
    /// The counterexample (failed) or the failing induction trace (unproved), if any.
    pub vcd: Option<PathBuf>,
    /// Why a property is not proved.
    pub reason: Option<String>,
    /// The time step at which the witness trace (`witness.vcd`) shows that the assumptions
    /// admit traffic: crosspoints of every kind closed, a granted packet forwarded, data
    /// passed. `None`: no witness was found, and no property counts as proved.
    pub witness_depth: Option<usize>,
    /// Failed: the harness's assertion wires (`chk_*`) that are 0 at the violation.
    pub violated: Vec<String>,
    /// The switch module proved.
    pub switch: String,
}

/// One configuration.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Config {
    /// Downers, uppers, link width, levels.
    pub d: usize,
    /// See `d`.
    pub u: usize,
    /// See `d`.
    pub w: usize,
    /// See `d`.
    pub levels: usize,
    /// `tree` or `cb`.
    pub topology: &'static str,
    /// `fixed`, `round-robin` or `random`.
    pub policy: &'static str,
}

fn policy_name(p: PolicyArg) -> &'static str {
    match p {
        PolicyArg::Fixed => "fixed",
        PolicyArg::RoundRobin => "round-robin",
        PolicyArg::Random => "random",
    }
}

fn topology_name(t: TopologyArg) -> &'static str {
    match t {
        TopologyArg::Tree => "tree",
        TopologyArg::Cb => "cb",
    }
}

/// Validated proof options.
struct Plan {
    props: Vec<Property>,
    max_k: usize,
    bmc_depth: Option<usize>,
    timeout: Duration,
    json: bool,
}

fn plan(a: &ProofArgs) -> anyhow::Result<Plan> {
    let mut props = Vec::new();
    for s in &a.property {
        let p = Property::parse(s.trim()).with_context(|| {
            format!("--property {s}: not a property (the properties are P1, P2, P3, P4)")
        })?;
        if !props.contains(&p) {
            props.push(p);
        }
    }
    if props.is_empty() {
        props = Property::ALL.to_vec();
    }
    props.sort();
    if !(1..=64).contains(&a.max_k) {
        bail!("--max-k {}: must be between 1 and 64", a.max_k);
    }
    if let Some(n) = a.bmc_depth {
        if !(1..=4096).contains(&n) {
            bail!("--bmc-depth {n}: must be between 1 and 4096");
        }
    }
    if !(1..=86_400).contains(&a.timeout) {
        bail!(
            "--timeout {}: must be between 1 and 86400 seconds",
            a.timeout
        );
    }
    Ok(Plan {
        props,
        max_k: a.max_k,
        bmc_depth: a.bmc_depth,
        timeout: Duration::from_secs(a.timeout),
        json: a.json,
    })
}

/// Runs `lcanet prove …`.
pub fn run(command: Command) -> anyhow::Result<Outcome> {
    match command {
        Command::Switch(a) => run_switch(a),
        Command::Matrix(a) => run_matrix(a),
    }
}

fn params_of(
    d: usize,
    u: usize,
    w: usize,
    t: TopologyArg,
    a: &ProofArgs,
) -> anyhow::Result<SwitchParams> {
    Ok(SwitchParams::new(
        d,
        u,
        w,
        a.levels,
        SwitchTopology::from(t),
        ArbiterPolicy::from(a.policy),
    )?)
}

fn run_switch(a: Args) -> anyhow::Result<Outcome> {
    let plan = plan(&a.proof)?;
    let params = params_of(a.d, a.u, a.w, a.topology, &a.proof)?;
    let fault = a
        .fault
        .map(|FaultArg::DrivenOutputFree| TestFault::DrivenOutputFree);
    let results = with_workdir(a.keep.as_deref(), |dir, final_dir| {
        prove_config(params, fault, &plan, dir, final_dir, &mut |r| {
            print_result(r, plan.json)
        })
    })?;
    Ok(verdict(&results))
}

fn verdict(results: &[PropertyResult]) -> Outcome {
    if results.iter().all(|r| r.status == Status::Proved) {
        Outcome::Success
    } else {
        Outcome::Mismatch
    }
}

fn print_result(r: &PropertyResult, json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string(r)?)?;
    } else {
        let depth = match (r.status, r.depth) {
            (Status::Proved, Some(k)) => format!(", k = {k}"),
            (Status::Failed, Some(n)) => format!(", violated at time step {n}"),
            _ => String::new(),
        };
        writeln!(
            out,
            "{} {:?}{depth} ({:.1} s): {}",
            r.property, r.status, r.seconds, r.statement
        )?;
        if let Some(reason) = &r.reason {
            writeln!(out, "   reason: {reason}")?;
        }
        if !r.violated.is_empty() {
            writeln!(out, "   violated: {}", r.violated.join(", "))?;
        }
        if let Some(v) = &r.vcd {
            writeln!(out, "   trace: {}", v.display())?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Runs `f` in a working directory: `keep` staged (committed whatever the verdict, if
/// `f` returns), else a temporary directory kept only if a property is not proved.
/// `f` gets the directory to write in and the one its files will end up in.
fn with_workdir(
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

/// Proves `plan.props` of one switch in `dir` (whose files end up in `final_dir`),
/// reporting each result to `report` as it comes.
fn prove_config(
    params: SwitchParams,
    fault: Option<TestFault>,
    plan: &Plan,
    dir: &Path,
    final_dir: &Path,
    report: &mut dyn FnMut(&PropertyResult) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<PropertyResult>> {
    let design = match fault {
        Some(f) => faulty_switch_design(params, f),
        None => switch_design(params),
    }
    .context("generating the switch")?;
    let emitted = design.emit().context("emitting the switch")?;
    emitted
        .write_to(dir)
        .with_context(|| format!("writing the switch into {}", dir.display()))?;
    let switch_file = format!("{}.v", emitted.top);
    check_power_up_zero(&dir.join(&switch_file))?;
    let lay = Layout::new(params);
    let h = harness(&lay, &emitted.top);
    let harness_file = "lca_formal.sv".to_string();
    std::fs::write(dir.join(&harness_file), &h.text)
        .with_context(|| format!("writing the harness into {}", dir.display()))?;
    let f = params.format();
    let depth = plan
        .bmc_depth
        .unwrap_or(2 * f.t_up.max(f.t_down).max(f.t_probe) + 2);
    // One PROBE step can close crosspoints of all three kinds and forward probes; a PASS
    // step after it carries data: the witness needs little more than T_PROBE.
    let witness_depth = f.t_probe + 6;
    let files = |vcd: String| ScriptFiles {
        switch_file: switch_file.clone(),
        switch_top: emitted.top.clone(),
        harness_file: harness_file.clone(),
        harness_top: h.top.clone(),
        vcd,
    };
    // First a witness that the assumptions admit traffic: without one a proof could be
    // vacuous, and nothing is reported proved.
    let witness: Result<usize, String> = match yosys(
        dir,
        "witness",
        &witness_script(&files("witness.vcd".into()), witness_depth),
        plan.timeout,
    )? {
        Run::Done(log) if log.contains("model found: FAIL!") => {
            match first_violation(&dir.join("witness.vcd")) {
                Some((t, _)) => Ok(t),
                None => Err("the witness trace could not be read".into()),
            }
        }
        Run::Done(_) => Err(format!(
            "no witness within {witness_depth} bit-times: the assumptions may rule out traffic"
        )),
        Run::TimedOut => Err("the witness search timed out".into()),
        Run::Error(e) => Err(format!("the witness search failed: {e}")),
    };
    let mut results = Vec::new();
    for &prop in &plan.props {
        let name = prop.name();
        let start = Instant::now();
        let ind_vcd = format!("induction_{name}.vcd");
        let ind = yosys(
            dir,
            &format!("induction_{name}"),
            &induction_script(&files(ind_vcd.clone()), prop, plan.max_k),
            plan.timeout,
        )?;
        let mut r = PropertyResult {
            property: name,
            statement: prop.summary(),
            status: Status::Unproved,
            depth: None,
            seconds: 0.0,
            vcd: None,
            reason: None,
            witness_depth: witness.as_ref().ok().copied(),
            violated: Vec::new(),
            switch: emitted.top.clone(),
        };
        let why = match ind {
            Run::TimedOut => Some(format!(
                "the induction did not finish within --timeout {} s",
                plan.timeout.as_secs()
            )),
            Run::Error(e) => Some(format!("Yosys failed: {e}")),
            Run::Done(log) => {
                let k = last_length(&log);
                if log.contains("Induction step proven: SUCCESS!") {
                    match &witness {
                        Ok(_) => {
                            r.status = Status::Proved;
                            r.depth = k;
                            None
                        }
                        Err(e) => Some(format!("the induction succeeded, but {e}")),
                    }
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
        if let Some(why) = why {
            if dir.join(&ind_vcd).exists() {
                r.vcd = Some(final_dir.join(&ind_vcd));
            }
            // Look for a counterexample to the property alone, from power-up.
            let cex_vcd = format!("cex_{name}.vcd");
            let bmc = yosys(
                dir,
                &format!("bmc_{name}"),
                &bmc_script(&files(cex_vcd.clone()), prop, depth),
                plan.timeout,
            )?;
            match bmc {
                Run::Done(log) if log.contains("model found: FAIL!") => {
                    r.status = Status::Failed;
                    let at = first_violation(&dir.join(&cex_vcd));
                    r.depth = at.as_ref().map(|(t, _)| *t);
                    r.violated = at.map(|(_, names)| names).unwrap_or_default();
                    r.vcd = Some(final_dir.join(&cex_vcd));
                    r.reason = Some(format!(
                        "a counterexample from power-up: the VCD shows it, the failing assertion wires (chk_*) at 0 (induction: {why})"
                    ));
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
        }
        r.seconds = (start.elapsed().as_secs_f64() * 100.0).round() / 100.0;
        report(&r)?;
        results.push(r);
    }
    Ok(results)
}

/// The proof assumes the switch powers up with every register at zero (`-set-init-zero`);
/// this checks the emitted `initial` block says so.
fn check_power_up_zero(file: &Path) -> anyhow::Result<()> {
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
                "the switch powers up with a register not at zero ({l}); the proof assumes zeros (-set-init-zero)"
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
    let text = std::fs::read_to_string(vcd).ok()?;
    let mut names = std::collections::HashMap::new();
    for l in text.lines() {
        let t: Vec<&str> = l.split_whitespace().collect();
        if t.len() >= 5 && t[0] == "$var" && t[2] == "1" {
            let name = t[4].trim_start_matches('\\');
            if name.starts_with("chk_") {
                names.insert(t[3].to_string(), name.to_string());
            }
        }
    }
    let mut value: std::collections::HashMap<String, char> = std::collections::HashMap::new();
    let mut time: Option<usize> = None;
    let failing = |value: &std::collections::HashMap<String, char>| {
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

/// Every configuration of the coverage matrix: 2 ≤ d ≤ 4, 1 ≤ u ≤ 4 (tree: u | d),
/// W ∈ {1, 2}.
pub fn matrix() -> Vec<(usize, usize, usize, TopologyArg)> {
    let mut v = Vec::new();
    for topo in [TopologyArg::Tree, TopologyArg::Cb] {
        for d in 2..=4 {
            for u in 1..=4 {
                if matches!(topo, TopologyArg::Tree) && d % u != 0 {
                    continue;
                }
                for w in [1, 2] {
                    v.push((d, u, w, topo));
                }
            }
        }
    }
    v
}

/// One line of `prove matrix`.
#[derive(Debug, Serialize)]
struct MatrixLine {
    config: Config,
    /// `proved` if every property is.
    status: Status,
    seconds: f64,
    properties: Vec<PropertyResult>,
}

fn run_matrix(a: MatrixArgs) -> anyhow::Result<Outcome> {
    let plan = plan(&a.proof)?;
    let configs = matrix();
    // Validate every configuration before proving any.
    let mut all = Vec::new();
    for &(d, u, w, t) in &configs {
        all.push((params_of(d, u, w, t, &a.proof)?, (d, u, w, t)));
    }
    let run_all = |dir: &Path, final_dir: &Path| -> anyhow::Result<Vec<PropertyResult>> {
        let mut every = Vec::new();
        for (params, (d, u, w, t)) in &all {
            let config = Config {
                d: *d,
                u: *u,
                w: *w,
                levels: a.proof.levels,
                topology: topology_name(*t),
                policy: policy_name(a.proof.policy),
            };
            let sub = format!("{}_d{d}_u{u}_w{w}", topology_name(*t));
            let (cdir, cfinal) = (dir.join(&sub), final_dir.join(&sub));
            std::fs::create_dir_all(&cdir)
                .with_context(|| format!("creating {}", cdir.display()))?;
            let start = Instant::now();
            let results = prove_config(*params, None, &plan, &cdir, &cfinal, &mut |_| Ok(()))?;
            let line = MatrixLine {
                config,
                status: if results.iter().all(|r| r.status == Status::Proved) {
                    Status::Proved
                } else if results.iter().any(|r| r.status == Status::Failed) {
                    Status::Failed
                } else {
                    Status::Unproved
                },
                seconds: (start.elapsed().as_secs_f64() * 10.0).round() / 10.0,
                properties: results.clone(),
            };
            let mut out = std::io::stdout().lock();
            if plan.json {
                writeln!(out, "{}", serde_json::to_string(&line)?)?;
            } else {
                let per: Vec<String> = results
                    .iter()
                    .map(|r| format!("{} {:?} {:.1}s", r.property, r.status, r.seconds))
                    .collect();
                writeln!(
                    out,
                    "{:<4} d={d} u={u} W={w}: {:?} in {:.1} s ({})",
                    config.topology,
                    line.status,
                    line.seconds,
                    per.join(", ")
                )?;
            }
            out.flush()?;
            every.extend(results);
        }
        Ok(every)
    };
    let results = with_workdir(a.keep.as_deref(), run_all)?;
    Ok(verdict(&results))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_matrix_has_every_valid_configuration() {
        let m = matrix();
        // tree: (2,1) (2,2) (3,1) (3,3) (4,1) (4,2) (4,4); cb: 3 × 4; each with W = 1, 2.
        assert_eq!(m.len(), (7 + 12) * 2);
        assert!(m
            .iter()
            .all(|&(d, u, _, t)| !matches!(t, TopologyArg::Tree) || d % u == 0));
    }

    #[test]
    fn yosys_verdicts_are_read_from_the_log() {
        let log = "** Trying induction with length 1 **\n** Trying induction with length 2 **\nInduction step proven: SUCCESS!\n";
        assert_eq!(last_length(log), Some(2));
        assert_eq!(last_length("nothing"), None);
    }
}
