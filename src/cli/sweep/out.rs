//! The records file of `lcanet sweep --out FILE`, written as the sweep goes and all or
//! nothing: lines go to `.FILE.partial` beside it (missing directories are created), which
//! becomes `FILE` only at [`RecordsFile::commit`]. Dropped without a commit (an error, a
//! panic), it removes the partial file and the directories it created.

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
}

impl RecordsFile {
    /// Opens `.FILE.partial` for `--out FILE`: fails at once, leaving nothing behind, if
    /// `FILE` is a directory or cannot be created.
    pub fn create(out: &Path) -> anyhow::Result<Self> {
        let name = out
            .file_name()
            .with_context(|| format!("--out {}: not a file path", out.display()))?;
        if out.is_dir() {
            bail!(
                "--out {}: is a directory (the output is a JSON-lines file)",
                out.display()
            );
        }
        let dir = out.parent().filter(|p| !p.as_os_str().is_empty());
        let created = dir.and_then(first_missing);
        let partial = out.with_file_name(format!(".{}.partial", name.to_string_lossy()));
        let mut me = RecordsFile {
            out: out.to_path_buf(),
            partial,
            file: None,
            created,
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
        if self.file.take().is_some() || self.partial.exists() {
            let _ = std::fs::remove_file(&self.partial);
        }
        if let Some(c) = &self.created {
            let _ = std::fs::remove_dir_all(c);
        }
    }
}
