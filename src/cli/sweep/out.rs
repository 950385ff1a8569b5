//! The records file of `lcanet sweep --out FILE`, written as the sweep goes and all or
//! nothing: lines go to `.FILE.partial` beside it (missing directories are created), which
//! becomes `FILE` only at [`RecordsFile::commit`]. Dropped without a commit (an error, a
//! panic), it removes the partial file and the directories it created — unless the sweep
//! resumes (`--resume`): then the partial file is a journal, begun with the records kept
//! from the last one, and it stays when the sweep stops so that the next run goes on.

use crate::cli::common::{ensure_dir, first_missing};
use anyhow::{bail, Context};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// An open records file.
#[derive(Debug)]
pub struct RecordsFile {
    out: PathBuf,
    partial: PathBuf,
    file: Option<File>,
    created: Option<PathBuf>,
    /// A journal (`--resume`): never removed by a drop.
    journal: bool,
}

/// The partial file of `--out FILE`: `.FILE.partial` beside it.
pub fn partial_path(out: &Path) -> anyhow::Result<PathBuf> {
    let name = out
        .file_name()
        .with_context(|| format!("--out {}: not a file path", out.display()))?;
    if out.is_dir() {
        bail!(
            "--out {}: is a directory (the output is a JSON-lines file)",
            out.display()
        );
    }
    Ok(out.with_file_name(format!(".{}.partial", name.to_string_lossy())))
}

impl RecordsFile {
    /// Opens `.FILE.partial` for `--out FILE`: fails at once, leaving nothing behind, if
    /// `FILE` is a directory or cannot be created.
    pub fn create(out: &Path) -> anyhow::Result<Self> {
        let partial = partial_path(out)?;
        let dir = out.parent().filter(|p| !p.as_os_str().is_empty());
        let created = dir.and_then(first_missing);
        let mut me = RecordsFile {
            out: out.to_path_buf(),
            partial,
            file: None,
            created,
            journal: false,
        };
        if let Some(d) = dir {
            ensure_dir(d).with_context(|| format!("--out {}", out.display()))?;
        }
        let file = File::create(&me.partial).with_context(|| {
            format!("--out {}: creating {}", out.display(), me.partial.display())
        })?;
        me.file = Some(file);
        Ok(me)
    }

    /// Opens the journal of `--out FILE --resume`: `.FILE.partial` holding `kept` (the
    /// records kept from the last journal, one line each) and then what this run adds.
    /// The kept lines are written to a new file that replaces the journal, so a stop at
    /// any moment leaves the old journal or the new one, never a mix.
    pub fn resume(out: &Path, kept: &[String]) -> anyhow::Result<Self> {
        let partial = partial_path(out)?;
        if let Some(d) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
            ensure_dir(d).with_context(|| format!("--out {}", out.display()))?;
        }
        let fresh = partial.with_extension("partial.new");
        let write = || -> std::io::Result<File> {
            let mut f = File::create(&fresh)?;
            for line in kept {
                writeln!(f, "{line}")?;
            }
            f.sync_all()?;
            std::fs::rename(&fresh, &partial)?;
            std::fs::OpenOptions::new().append(true).open(&partial)
        };
        let file = match write() {
            Ok(f) => f,
            Err(e) => {
                let _ = std::fs::remove_file(&fresh);
                return Err(e).with_context(|| {
                    format!(
                        "--out {}: writing the journal {}",
                        out.display(),
                        partial.display()
                    )
                });
            }
        };
        Ok(RecordsFile {
            out: out.to_path_buf(),
            partial,
            file: Some(file),
            created: None,
            journal: true,
        })
    }

    /// The file the lines go to until the commit.
    pub fn partial(&self) -> &Path {
        &self.partial
    }

    /// Appends one line (flushed, so that `tail -f` follows the sweep).
    pub fn line(&mut self, line: &str) -> anyhow::Result<()> {
        let f = self.file.as_mut().context("the records file is closed")?;
        writeln!(f, "{line}")
            .and_then(|_| f.flush())
            .with_context(|| format!("writing {}", self.partial.display()))
    }

    /// Renames the partial file to `FILE`.
    pub fn commit(mut self) -> anyhow::Result<()> {
        drop(self.file.take());
        std::fs::rename(&self.partial, &self.out).with_context(|| {
            format!(
                "renaming {} to {}",
                self.partial.display(),
                self.out.display()
            )
        })?;
        self.created = None;
        Ok(())
    }
}

impl Drop for RecordsFile {
    fn drop(&mut self) {
        if self.journal {
            return;
        }
        if self.file.take().is_some() || self.partial.exists() {
            let _ = std::fs::remove_file(&self.partial);
        }
        if let Some(c) = &self.created {
            let _ = std::fs::remove_dir_all(c);
        }
    }
}
