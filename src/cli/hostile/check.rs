//! Running one generated input and checking its properties: no panic, bounded time
//! (watchdog), a refusal that names the violated condition, nothing half-written.

use super::*;

/// `f()`, or false if it panics (the harness's own calls of the parsers).
pub(super) fn survives(f: impl FnOnce() -> bool) -> bool {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(false)
}

/// Counts of one harness run.
#[derive(Debug, Default)]
pub(super) struct Tally {
    pub inputs: u64,
    pub perm_inputs: u64,
    pub pi_inputs: u64,
    pub cli_inputs: u64,
    pub refused: u64,
    pub accepted: u64,
    pub panics: u64,
    pub slow: u64,
    pub slowest: Duration,
    pub slowest_input: String,
    /// Command lines per subcommand: (refused, accepted).
    pub per_command: BTreeMap<String, (u64, u64)>,
    /// Property violations other than panics (bad message, half-written output, …).
    pub failures: Vec<String>,
}

impl Tally {
    pub(super) fn fail(&mut self, what: String) {
        if self.failures.len() < 50 {
            self.failures.push(what);
        }
    }
}

/// Checks the text of a refusal; `None` if it is fine.
pub(super) fn bad_message(msg: &str, hints: &Hints) -> Option<String> {
    if msg.trim().is_empty() {
        return Some("empty error message".into());
    }
    for bad in ["panicked", "Err(", "Some(", "Ok(", "RUST_BACKTRACE"] {
        if msg.contains(bad) {
            return Some(format!("error message contains {bad:?}"));
        }
    }
    if !hints.0.is_empty()
        && !hints
            .0
            .iter()
            .any(|h| !h.is_empty() && msg.contains(h.as_str()))
    {
        return Some(format!("error names none of {:?}", hints.0));
    }
    None
}

pub(super) fn panic_text(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "non-string panic".into())
}

/// Every tool variable points at a missing file: an accidental build fails at once.
pub(super) fn fence_tools() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for v in [
            "LCANET_VERILATOR",
            "LCANET_IVERILOG",
            "LCANET_VVP",
            "LCANET_YOSYS",
            "LCANET_CXX",
            "LCANET_MAKE",
        ] {
            std::env::set_var(v, "/nonexistent/lcanet-hostile-no-tools");
        }
    });
}

/// The watchdog: aborts the process, naming the input, when one input runs too long.
pub(super) struct Watchdog {
    pub(super) current: Arc<Mutex<String>>,
    pub(super) started_ms: Arc<AtomicU64>,
    pub(super) stop: Arc<AtomicBool>,
}

impl Watchdog {
    pub(super) fn start(limit: Duration) -> Self {
        let current = Arc::new(Mutex::new(String::new()));
        let started_ms = Arc::new(AtomicU64::new(u64::MAX));
        let stop = Arc::new(AtomicBool::new(false));
        let (c, st, sp) = (current.clone(), started_ms.clone(), stop.clone());
        let epoch = Instant::now();
        std::thread::spawn(move || {
            while !sp.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                let s = st.load(Ordering::Relaxed);
                let now = epoch.elapsed().as_millis() as u64;
                if s != u64::MAX && now.saturating_sub(s) > limit.as_millis() as u64 {
                    let input = c.lock().map(|g| g.clone()).unwrap_or_default();
                    // Straight to the descriptor: captured output is lost on abort.
                    use std::io::Write;
                    let _ = writeln!(
                        std::io::stderr().lock(),
                        "HANG: one input ran longer than {limit:?} (HOSTILE_HANG_SECS): {input}"
                    );
                    std::process::abort();
                }
            }
        });
        let _ = EPOCH.set(epoch);
        Watchdog {
            current,
            started_ms,
            stop,
        }
    }
    pub(super) fn begin(&self, input: &str) {
        if let Ok(mut g) = self.current.lock() {
            input.clone_into(&mut g);
        }
        let now = EPOCH.get().map_or(0, |e| e.elapsed().as_millis() as u64);
        self.started_ms.store(now, Ordering::Relaxed);
    }
    pub(super) fn end(&self) {
        self.started_ms.store(u64::MAX, Ordering::Relaxed);
    }
}

pub(super) static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// A PE count for the parsers: the file's own, or at and past the limits.
pub(super) fn parser_n(g: &mut Gen) -> usize {
    match g.below(10) {
        0 => 0,
        1 => *g.pick(&[1usize << 20, (1 << 20) + 1, usize::MAX, 1 << 40]),
        _ => 1 + g.below(9),
    }
}

pub(super) fn check_perm_input(g: &mut Gen, t: &mut Tally, wd: &Watchdog) {
    let n = 1 + g.below(9);
    let text = perm_text(g, n);
    let n_parse = if g.chance(80) { n } else { parser_n(g) };
    let desc = format!("permutation file {text:?} with n = {n_parse}");
    wd.begin(&desc);
    let r = catch_unwind(|| {
        (
            PartialPermutation::parse(&text, n_parse).map(|p| p.len()),
            Permutation::parse(&text, n_parse).map(|p| p.len()),
        )
    });
    wd.end();
    t.perm_inputs += 1;
    match r {
        Err(p) => {
            t.panics += 1;
            t.fail(format!("PANIC {}: {desc}", panic_text(p)));
        }
        Ok((partial, full)) => {
            let hints = Hints(
                ["PE", "destination", "line", "permutation"]
                    .map(String::from)
                    .to_vec(),
            );
            for r in [partial, full] {
                match r {
                    Ok(len) if len != n_parse => t.fail(format!("accepted {len} PEs: {desc}")),
                    Ok(_) => t.accepted += 1,
                    Err(e) => {
                        t.refused += 1;
                        if let Some(why) = bad_message(&e.to_string(), &hints) {
                            t.fail(format!("{why}: {e}: {desc}"));
                        }
                    }
                }
            }
        }
    }
}

pub(super) fn check_pi_input(g: &mut Gen, seeds: &[String], t: &mut Tally, wd: &Watchdog) {
    let text = pi_text(g, seeds);
    let desc = format!("Π file {text:?}");
    wd.begin(&desc);
    let r = catch_unwind(|| {
        Topology::from_pi_text(&text).map(|topo| {
            let back = Topology::from_pi_text(&topo.to_pi_text());
            let same = back.as_ref().is_ok_and(|b| {
                (b.n(), b.ds(), b.us(), b.levels())
                    == (topo.n(), topo.ds(), topo.us(), topo.levels())
            });
            if topo.n() <= 64 {
                let _ = topo.lca_distribution();
            }
            same
        })
    });
    wd.end();
    t.pi_inputs += 1;
    match r {
        Err(p) => {
            t.panics += 1;
            t.fail(format!("PANIC {}: {desc}", panic_text(p)));
        }
        Ok(Ok(true)) => t.accepted += 1,
        Ok(Ok(false)) => t.fail(format!(
            "accepted, but its own Π text does not round-trip: {desc}"
        )),
        Ok(Err(e)) => {
            t.refused += 1;
            let hints = Hints(
                [
                    "Π file",
                    "line",
                    "d = ",
                    "u = ",
                    "levels",
                    "n = ",
                    "connected",
                ]
                .map(String::from)
                .to_vec(),
            );
            if let Some(why) = bad_message(&e.to_string(), &hints) {
                t.fail(format!("{why}: {e}: {desc}"));
            }
        }
    }
}

pub(super) fn check_cli_input(
    g: &mut Gen,
    s: &Scratch,
    seeds: &[String],
    index: u64,
    t: &mut Tally,
    wd: &Watchdog,
) {
    let case_dir = s.root.join(format!("case{index}"));
    let case = cli_case(g, s, &case_dir, seeds);
    let command = case.cmd.to_string();
    let desc = case
        .argv
        .iter()
        .map(|a| format!("{a:?}"))
        .collect::<Vec<_>>()
        .join(" ");
    let before_root: Vec<PathBuf> = snapshot_names(&s.root);
    let before_existing = snapshot(&s.existing());
    wd.begin(&desc);
    let t0 = Instant::now();
    let r = catch_unwind(AssertUnwindSafe(|| {
        Cli::try_parse_from(&case.argv)
            .map_err(|e| e.to_string())
            .and_then(|cli| run(cli).map_err(|e| format!("{e:#}")))
    }));
    let took = t0.elapsed();
    wd.end();
    // The one listing of the existing directory after the run: every check below and the
    // reset compare it (the run is over, nothing else writes there).
    let after_existing = snapshot(&s.existing());
    t.cli_inputs += 1;
    if took > t.slowest {
        t.slowest = took;
        t.slowest_input = desc.chars().take(300).collect();
    }
    if took > Duration::from_secs(2) {
        t.slow += 1;
    }
    match r {
        Err(p) => {
            t.panics += 1;
            t.fail(format!("PANIC {}: {desc}", panic_text(p)));
        }
        Ok(Ok(outcome)) => {
            t.accepted += 1;
            t.per_command.entry(command).or_default().1 += 1;
            if case.defects > 0 {
                t.fail(format!(
                    "accepted an input with {} defect(s) (hints {:?}): {desc}",
                    case.defects, case.hints.0
                ));
            } else if outcome != Outcome::Success {
                t.fail(format!("valid input ended in {outcome:?}: {desc}"));
            }
            // Outputs must not refer to where they were staged.
            for (path, bytes) in snapshot(&case_dir).iter().chain(&after_existing) {
                if bytes.windows(16).any(|w| w == b".lcanet-staging-") {
                    t.fail(format!(
                        "{} names the staging directory: {desc}",
                        path.display()
                    ));
                }
            }
        }
        Ok(Err(msg)) => {
            t.refused += 1;
            t.per_command.entry(command).or_default().0 += 1;
            if case.defects == 0 {
                t.fail(format!("refused a valid input: {msg}: {desc}"));
            } else if msg.contains("lcanet-hostile-no-tools") {
                t.fail(format!("started a tool (the harness must not): {desc}"));
            } else if let Some(why) = bad_message(&msg, &case.hints) {
                t.fail(format!("{why}: {msg:?}: {desc}"));
            }
            // Nothing written: the case's own directory (every missing output path is in
            // it) does not exist, the existing directory is unchanged, no stray files.
            if case_dir.exists() {
                t.fail(format!(
                    "refused, but wrote {:?}: {desc}",
                    snapshot(&case_dir).keys().collect::<Vec<_>>()
                ));
            }
            if after_existing != before_existing {
                t.fail(format!(
                    "refused, but changed the existing output directory: {desc}"
                ));
            }
            let after_root = snapshot_names(&s.root);
            if after_root != before_root {
                t.fail(format!(
                    "refused, but left {:?} beside the outputs: {desc}",
                    after_root
                        .iter()
                        .filter(|p| !before_root.contains(p))
                        .collect::<Vec<_>>()
                ));
            }
        }
    }
    let _ = case.out;
    let _ = std::fs::remove_dir_all(&case_dir);
    if after_existing != before_existing {
        s.reset_existing();
    }
    for p in snapshot_names(&s.root) {
        if !before_root.contains(&p) {
            let _ = std::fs::remove_dir_all(&p).or_else(|_| std::fs::remove_file(&p));
        }
    }
}

/// The names directly in `dir`.
pub(super) fn snapshot_names(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}
