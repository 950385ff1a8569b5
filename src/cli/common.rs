//! Conventions shared by subcommands: seeds, JSON output, output directories.

use anyhow::{bail, Context};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// `--seed`: every random choice of a run derives from it.
#[derive(Debug, Clone, clap::Args)]
pub struct SeedArg {
    /// Seed for every random choice (printed when omitted, so any run can be reproduced).
    #[arg(long)]
    pub seed: Option<u64>,
}

impl SeedArg {
    /// The seed to use: the one given, or a fresh one announced on stderr.
    pub fn resolve(&self) -> u64 {
        match self.seed {
            Some(s) => s,
            None => {
                let s = lcanet_sim::rng::fresh_seed();
                eprintln!("seed: {s} (pass --seed {s} to reproduce this run)");
                s
            }
        }
    }
}

/// `--vcd`, `--json`, `--optimize`: the output and build options of the co-simulation
/// commands (`sim switch`, `sim network`).
#[derive(Debug, Clone, clap::Args)]
pub struct CosimArgs {
    /// Write a VCD waveform here (a mismatch keeps a VCD of its own anyway and prints where).
    #[arg(long)]
    pub vcd: Option<std::path::PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Compile the Verilated model with g++ -O3 instead of -O1: a cold build takes longer,
    /// the simulation runs faster (worth it for long runs and large networks).
    #[arg(long)]
    pub optimize: bool,
}

impl CosimArgs {
    /// The C++ optimization `--optimize` asks for.
    pub fn speed(&self) -> lcanet_testbench::bridge::Optimize {
        if self.optimize {
            lcanet_testbench::bridge::Optimize::Fast
        } else {
            lcanet_testbench::bridge::Optimize::Quick
        }
    }
}

/// The process's command line, recorded by `main` before dispatch (empty when the CLI runs
/// in-process, as in tests).
pub static INVOCATION: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();

/// The command-line arguments after the first `word` (e.g. after `selftest` in `lcanet
/// generate selftest …`), or none when the command line was not recorded.
pub fn invocation_after(word: &str) -> Vec<String> {
    INVOCATION
        .get()
        .and_then(|a| {
            a.iter()
                .position(|x| x == word)
                .map(|i| a[i + 1..].to_vec())
        })
        .unwrap_or_default()
}

/// Prints `value` as pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(value).context("serializing JSON output")?;
    println!("{text}");
    Ok(())
}

/// Creates `dir` (and parents) for output files.
pub fn ensure_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating directory {}", dir.display()))
}

/// Writes `contents` to `path` atomically (temp file + rename), so a failed run never
/// leaves a half-written file behind: on failure the temp file is removed, and so are
/// the directories this call created for it.
pub fn write_atomic(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    let file_name = path
        .file_name()
        .with_context(|| format!("{} is not a file path", path.display()))?;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let created = dir.and_then(first_missing);
    let tmp = path.with_file_name(format!(".{}.tmp", file_name.to_string_lossy()));
    let result = (|| {
        if let Some(dir) = dir {
            ensure_dir(dir)?;
        }
        if path.is_dir() {
            bail!("{} is a directory, not a file", path.display());
        }
        std::fs::write(&tmp, contents).with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("renaming into {}", path.display()))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
        if let Some(c) = &created {
            let _ = std::fs::remove_dir_all(c);
        }
    }
    result
}

/// The outermost ancestor of `path` (or `path` itself) that does not exist: what
/// `create_dir_all(path)` would create first. `None` if `path` exists.
pub fn first_missing(path: &Path) -> Option<PathBuf> {
    let mut missing = None;
    let mut p = Some(path);
    while let Some(q) = p.filter(|q| !q.as_os_str().is_empty()) {
        if q.symlink_metadata().is_ok() {
            break;
        }
        missing = Some(q.to_path_buf());
        p = q.parent();
    }
    missing
}

static STAGE_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The longest file name, in bytes, of the file systems lcanet writes to (Linux `NAME_MAX`).
const NAME_MAX: usize = 255;

/// An output directory written all or nothing: files go to a staging directory beside
/// the output (same file system), and [`Staged::commit`] moves them into place only
/// once everything was written. Dropped without a commit, it removes the staging
/// directory, so a refused or failed run leaves no output and no new directories.
#[derive(Debug)]
pub struct Staged {
    out: PathBuf,
    stage: PathBuf,
    /// The outermost directory of `out` that did not exist (removed on failure).
    created: Option<PathBuf>,
    committed: bool,
}

impl Staged {
    /// Prepares to write `out` (`-o DIR`): fails at once, writing nothing, if `out` or
    /// one of its ancestors is not a directory.
    pub fn new(out: &Path) -> anyhow::Result<Self> {
        if out.as_os_str().is_empty() {
            bail!("the output directory is an empty path");
        }
        if out.exists() && !out.is_dir() {
            bail!(
                "-o {}: exists and is not a directory (the output is a directory)",
                out.display()
            );
        }
        let created = first_missing(out);
        // A name the file system cannot hold would fail only at the final rename, after
        // all the work (a proof, a build): refuse it now.
        if let Some(m) = &created {
            let anchor_len = m.components().count() - 1;
            if let Some(c) = out
                .components()
                .skip(anchor_len)
                .find(|c| c.as_os_str().len() > NAME_MAX)
            {
                bail!(
                    "-o {}: File name too long: {:?}… has {} bytes, a file name at most {NAME_MAX}",
                    out.display(),
                    c.as_os_str()
                        .to_string_lossy()
                        .chars()
                        .take(16)
                        .collect::<String>(),
                    c.as_os_str().len()
                );
            }
        }
        let anchor = match &created {
            None => out.to_path_buf(),
            Some(m) => match m.parent().filter(|p| !p.as_os_str().is_empty()) {
                Some(p) => p.to_path_buf(),
                None => PathBuf::from("."),
            },
        };
        if !anchor.is_dir() {
            bail!(
                "-o {}: {} is not a directory",
                out.display(),
                anchor.display()
            );
        }
        let stage = anchor.join(format!(
            ".lcanet-staging-{}-{}",
            std::process::id(),
            STAGE_COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir(&stage).with_context(|| {
            format!(
                "-o {}: creating a staging directory in {}",
                out.display(),
                anchor.display()
            )
        })?;
        Ok(Staged {
            out: out.to_path_buf(),
            stage,
            created,
            committed: false,
        })
    }

    /// Where to write the files now.
    pub fn path(&self) -> &Path {
        &self.stage
    }

    /// Moves the staged files into the output directory. An existing directory keeps
    /// its other files; a staged file whose place is taken by a directory fails the
    /// commit before anything moves.
    pub fn commit(mut self) -> anyhow::Result<()> {
        let out = self.out.clone();
        self.repoint_save_files()?;
        if self.created.is_some() {
            if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
                ensure_dir(parent)?;
            }
            std::fs::rename(&self.stage, &out)
                .with_context(|| format!("moving the output into {}", out.display()))?;
            self.committed = true;
            return Ok(());
        }
        let entries: Vec<std::fs::DirEntry> = std::fs::read_dir(&self.stage)
            .with_context(|| format!("reading {}", self.stage.display()))?
            .collect::<Result<_, _>>()
            .with_context(|| format!("reading {}", self.stage.display()))?;
        for e in &entries {
            let dest = out.join(e.file_name());
            if dest.is_dir() && !e.path().is_dir() {
                bail!(
                    "{} is a directory where an output file goes; nothing was written",
                    dest.display()
                );
            }
        }
        for e in &entries {
            let dest = out.join(e.file_name());
            std::fs::rename(e.path(), &dest)
                .with_context(|| format!("moving the output into {}", dest.display()))?;
        }
        self.committed = true;
        let _ = std::fs::remove_dir_all(&self.stage);
        Ok(())
    }
}

impl Staged {
    /// GTKWave save files name their translate filters by absolute path: point those
    /// written into the staging directory at the output directory instead.
    fn repoint_save_files(&self) -> anyhow::Result<()> {
        let Ok(stage) = std::fs::canonicalize(&self.stage) else {
            return Ok(());
        };
        let anchor = stage.parent().unwrap_or(&stage).to_path_buf();
        let rest = match &self.created {
            None => PathBuf::new(),
            Some(m) => {
                let base = m.parent().filter(|p| !p.as_os_str().is_empty());
                match base {
                    Some(b) => self.out.strip_prefix(b).unwrap_or(&self.out).to_path_buf(),
                    None => self.out.clone(),
                }
            }
        };
        let target = if self.created.is_none() {
            std::fs::canonicalize(&self.out).unwrap_or_else(|_| self.out.clone())
        } else {
            anchor.join(rest)
        };
        let (from, to) = (stage.to_string_lossy(), target.to_string_lossy());
        for e in std::fs::read_dir(&self.stage)?.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "gtkw") {
                let text = std::fs::read_to_string(&p)
                    .with_context(|| format!("reading {}", p.display()))?;
                if text.contains(from.as_ref()) {
                    std::fs::write(&p, text.replace(from.as_ref(), to.as_ref()))
                        .with_context(|| format!("writing {}", p.display()))?;
                }
            }
        }
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if self.committed {
            return;
        }
        let _ = std::fs::remove_dir_all(&self.stage);
        if let Some(c) = &self.created {
            let _ = std::fs::remove_dir_all(c);
        }
    }
}

/// The resource usage (`getrusage`) of this process (`libc::RUSAGE_SELF`, every thread)
/// or of its children that have ended (`libc::RUSAGE_CHILDREN`: Verilator, make, g++).
pub fn rusage(who: libc::c_int) -> libc::rusage {
    // SAFETY: getrusage only writes the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(who, &mut u) };
    u
}

/// User plus system CPU seconds of `who` so far ([`rusage`]).
pub fn cpu_seconds(who: libc::c_int) -> f64 {
    let u = rusage(who);
    let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    s(u.ru_utime) + s(u.ru_stime)
}

/// The progress bar of long runs, on stderr: `len` steps counted as `what` ("routings",
/// "configurations"), with elapsed time, an estimate of what remains, and a message.
/// `hidden` (under `--json`, or for runs too short to need one) draws nothing.
pub fn progress_bar(len: usize, what: &str, hidden: bool) -> indicatif::ProgressBar {
    if hidden {
        return indicatif::ProgressBar::hidden();
    }
    let b = indicatif::ProgressBar::new(len as u64);
    let style = format!("{{bar:40}} {{pos}}/{{len}} {what}  {{elapsed}} (eta {{eta}}) {{msg}}");
    b.set_style(
        indicatif::ProgressStyle::with_template(&style)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    b
}

/// A rayon pool of `threads` worker threads (at least one) for a command's `--jobs`:
/// work runs inside it with `pool.install(|| items.par_iter()…)`
/// (`docs/decisions/libraries.md`).
pub fn thread_pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .context("starting the worker threads")
}

/// `--shard i/N`: shard `i` of `N` (0-based) takes items `i, i + N, i + 2N, …` of a list
/// (interleaved, so that every shard gets small and large ones alike): the sweep's
/// configurations, the proof matrix's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0 ≤ index < count`.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl Shard {
    /// Whether item `index` belongs to this shard.
    pub fn owns(&self, index: usize) -> bool {
        index % self.count == self.index
    }
}

/// Parses `i/N` with `0 ≤ i < N`.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let bad = || format!("'{s}' is not a shard I/N (0 ≤ I < N, e.g. 0/4)");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let index: usize = i.trim().parse().map_err(|_| bad())?;
    let count: usize = n.trim().parse().map_err(|_| bad())?;
    if count == 0 {
        return Err(format!("'{s}': the number of shards must be at least 1"));
    }
    if index >= count {
        return Err(format!(
            "'{s}': shard {index} does not exist among {count} shards (they are 0 … {})",
            count - 1
        ));
    }
    Ok(Shard { index, count })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_list() {
        let s: Vec<Shard> = (0..3)
            .map(|i| parse_shard(&format!("{i}/3")).unwrap())
            .collect();
        for index in 0..20 {
            assert_eq!(s.iter().filter(|sh| sh.owns(index)).count(), 1);
        }
        assert!(parse_shard("3/3").unwrap_err().contains("does not exist"));
        assert!(parse_shard("0/0").unwrap_err().contains("at least 1"));
        assert!(parse_shard("a/2").unwrap_err().contains("not a shard"));
        assert!(parse_shard("1").unwrap_err().contains("not a shard"));
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// Regression (hostile-input harness): writing onto a directory left `.NAME.tmp`
    /// beside it.
    #[test]
    fn write_atomic_onto_a_directory_fails_and_leaves_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("x.pi");
        std::fs::create_dir(&target).unwrap();
        let err = format!("{:#}", write_atomic(&target, b"text").unwrap_err());
        assert!(err.contains("is a directory"), "{err}");
        assert_eq!(listing(tmp.path()), ["x.pi"]);
    }

    /// Regression: a failed write into missing nested directories left them behind.
    #[test]
    fn write_atomic_failure_removes_the_directories_it_created() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("a/b").join("y".repeat(300) + ".dot");
        let err = format!("{:#}", write_atomic(&target, b"text").unwrap_err());
        assert!(err.contains("too long"), "{err}");
        assert!(listing(tmp.path()).is_empty(), "{:?}", listing(tmp.path()));
        // And the ordinary case still creates them.
        write_atomic(&tmp.path().join("a/b/c.dot"), b"text").unwrap();
        assert_eq!(
            std::fs::read(tmp.path().join("a/b/c.dot")).unwrap(),
            b"text"
        );
    }

    #[test]
    fn staged_output_appears_only_on_commit() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("a/b/out");
        let staged = Staged::new(&out).unwrap();
        std::fs::write(staged.path().join("f.v"), "module f; endmodule\n").unwrap();
        assert!(!tmp.path().join("a").exists());
        staged.commit().unwrap();
        assert_eq!(listing(&out), ["f.v"]);
        assert_eq!(listing(tmp.path()), ["a"]);
    }

    /// Regression: a refused or failed generator left its directories (and, in an
    /// existing directory, the files written before the failure).
    #[test]
    fn staged_output_dropped_without_commit_leaves_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let staged = Staged::new(&tmp.path().join("a/b/out")).unwrap();
        std::fs::write(staged.path().join("f.v"), "x").unwrap();
        drop(staged);
        assert!(listing(tmp.path()).is_empty());
        // A name that is too long is refused before any work (regression: `prove
        // --keep` ran the whole proof and failed at the commit), and leaves nothing.
        let err = Staged::new(&tmp.path().join("a").join("x".repeat(300))).unwrap_err();
        let err = format!("{err:#}");
        assert!(
            err.contains("too long") && err.contains("300 bytes"),
            "{err}"
        );
        assert!(listing(tmp.path()).is_empty(), "{:?}", listing(tmp.path()));
        // 255 bytes is still a name.
        let ok = Staged::new(&tmp.path().join("a").join("x".repeat(255))).unwrap();
        std::fs::write(ok.path().join("f.v"), "x").unwrap();
        ok.commit().unwrap();
        assert_eq!(
            listing(&tmp.path().join("a").join("x".repeat(255))),
            ["f.v"]
        );
    }

    /// Regression: `generate min -o DIR` with a directory named `summary.json` in DIR
    /// wrote every Verilog file and then failed.
    #[test]
    fn staged_commit_into_an_existing_directory_is_all_or_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        std::fs::create_dir_all(out.join("summary.json")).unwrap();
        std::fs::write(out.join("keep.txt"), "keep").unwrap();
        let staged = Staged::new(&out).unwrap();
        std::fs::write(staged.path().join("a.v"), "a").unwrap();
        std::fs::write(staged.path().join("summary.json"), "{}").unwrap();
        let err = format!("{:#}", staged.commit().unwrap_err());
        assert!(err.contains("summary.json is a directory"), "{err}");
        assert_eq!(listing(&out), ["keep.txt", "summary.json"]);
        assert_eq!(listing(tmp.path()), ["out"]);
        // Without the obstacle the files join the existing ones.
        std::fs::remove_dir(out.join("summary.json")).unwrap();
        let staged = Staged::new(&out).unwrap();
        std::fs::write(staged.path().join("a.v"), "a").unwrap();
        staged.commit().unwrap();
        assert_eq!(listing(&out), ["a.v", "keep.txt"]);
    }

    /// Regression: save files named their filters inside the staging directory.
    #[test]
    fn staged_save_files_name_the_output_directory() {
        let tmp = tempfile::tempdir().unwrap();
        for out in [tmp.path().join("new/dir"), tmp.path().to_path_buf()] {
            let staged = Staged::new(&out).unwrap();
            let stage = std::fs::canonicalize(staged.path()).unwrap();
            let text = format!("{}\n@2024\n", stage.join("x_phase.txt").display());
            std::fs::write(staged.path().join("x.gtkw"), text).unwrap();
            staged.commit().unwrap();
            let back = std::fs::read_to_string(out.join("x.gtkw")).unwrap();
            let want = std::fs::canonicalize(&out).unwrap().join("x_phase.txt");
            assert!(back.starts_with(&format!("{}\n", want.display())), "{back}");
        }
    }

    #[test]
    fn staged_refuses_a_file_in_place_of_the_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("afile");
        std::fs::write(&file, "x").unwrap();
        let err = format!("{:#}", Staged::new(&file).unwrap_err());
        assert!(err.contains("exists and is not a directory"), "{err}");
        let err = format!("{:#}", Staged::new(&file.join("out")).unwrap_err());
        assert!(err.contains("afile is not a directory"), "{err}");
        assert_eq!(listing(tmp.path()), ["afile"]);
    }
}
