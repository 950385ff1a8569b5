//! Per-test artifact directories (VCD files, logs, generated test benches), so that tests
//! running in parallel never share a file.
//!
//! `ArtifactDir::new("bridge::counter_counts")` is `<artifact root>/bridge__counter_counts/`,
//! emptied when created (artifacts of the previous run of the same test are removed) and
//! kept afterwards, so a failing test's VCD stays on disk for GTKWave.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::paths::artifacts_root;

/// A directory owned by one test (or one CLI run).
#[derive(Debug, Clone)]
pub struct ArtifactDir {
    path: PathBuf,
}

/// Creates an [`ArtifactDir`] named after the calling module and `name`:
/// `artifact_dir!("counter_counts")`.
#[macro_export]
macro_rules! artifact_dir {
    ($name:expr) => {
        $crate::artifacts::ArtifactDir::new(&format!("{}::{}", module_path!(), $name))
    };
}

impl ArtifactDir {
    /// Creates (emptying it first) `<artifact root>/<sanitized name>/`.
    pub fn new(name: &str) -> std::io::Result<Self> {
        let path = artifacts_root().join(sanitize(name));
        if path.exists() {
            fs::remove_dir_all(&path)?;
        }
        fs::create_dir_all(&path)?;
        Ok(ArtifactDir { path })
    }

    /// A directory for one CLI run of `name`: `<artifact root>/<sanitized name>/<pid>-<k>/`
    /// (`k` counts the process's runs), so that two runs of the same design at once (two
    /// `lcanet sim network` of one network, two tests, two in-process runs) never share a
    /// file. It is kept afterwards (the run prints its Verilog's and a failure's VCD's
    /// paths); the directories of runs of `name` whose process has ended are removed
    /// first, where the system lists processes under `/proc`.
    pub fn for_run(name: &str) -> std::io::Result<Self> {
        let parent = artifacts_root().join(sanitize(name));
        let me = std::process::id();
        if Path::new("/proc/self").exists() {
            if let Ok(entries) = fs::read_dir(&parent) {
                for e in entries.flatten() {
                    let run = e.file_name().to_string_lossy().into_owned();
                    let pid = run.split('-').next().unwrap_or("").parse::<u32>();
                    if pid.is_ok_and(|p| p != me && !Path::new(&format!("/proc/{p}")).exists()) {
                        let _ = fs::remove_dir_all(e.path());
                    }
                }
            }
        }
        static RUNS: AtomicU32 = AtomicU32::new(0);
        let k = RUNS.fetch_add(1, Ordering::Relaxed);
        let path = parent.join(format!("{me}-{k}"));
        if path.exists() {
            fs::remove_dir_all(&path)?;
        }
        fs::create_dir_all(&path)?;
        Ok(ArtifactDir { path })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A file inside the directory.
    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

/// Keeps `[A-Za-z0-9_.-]`, turns every other character into `_`.
fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.chars().all(|c| c == '.') {
        "unnamed".to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_sanitized() {
        assert_eq!(super::sanitize("a::b c/d"), "a__b_c_d");
        assert_eq!(super::sanitize(".."), "unnamed");
    }
}
