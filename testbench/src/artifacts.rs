//! Per-test artifact directories (VCD files, logs, generated test benches), so that tests
//! running in parallel never share a file.
//!
//! `ArtifactDir::new("bridge::counter_counts")` is `<artifact root>/bridge__counter_counts/`,
//! emptied when created (artifacts of the previous run of the same test are removed) and
//! kept afterwards, so a failing test's VCD stays on disk for GTKWave.

use std::fs;
use std::path::{Path, PathBuf};

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
