//! The build cache: content-addressed directories under `<cache root>/verilator/<hash>/`.
//!
//! Protocol, safe for parallel tests in one process and for several processes:
//! 1. take an exclusive lock on `locks/<hash>.lock` (`File::lock`, released on drop);
//! 2. if `<hash>/<marker>` exists, it is a hit: return it;
//! 3. otherwise build into a fresh `tmp/<hash>.<pid>.<n>/`, write the marker last, and
//!    `rename` it to `<hash>/` (atomic); a failed build removes its temp directory.
//!
//! A second builder of the same hash waits on the lock and then finds the winner's entry.
//! An entry is never half-written: it appears under its final name only when complete.

use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};

use super::error::BridgeError;

/// Whether a build was served from the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheOutcome {
    /// The entry existed: nothing was built.
    Hit,
    /// The entry was built by this call.
    Built,
}

/// Incremental SHA-256 over length-prefixed fields, so that field boundaries are unambiguous.
#[derive(Default)]
pub struct KeyHasher(Sha256);

impl KeyHasher {
    /// Adds one field.
    pub fn field(&mut self, bytes: impl AsRef<[u8]>) -> &mut Self {
        let b = bytes.as_ref();
        self.0.update((b.len() as u64).to_le_bytes());
        self.0.update(b);
        self
    }

    /// The hex digest (64 characters).
    pub fn finish(self) -> String {
        self.0
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// Returns the entry `<root>/<key>/`, building it with `build` (given an empty temp directory)
/// unless `<root>/<key>/<marker>` already exists.
pub fn get_or_build(
    root: &Path,
    key: &str,
    marker: &str,
    build: impl FnOnce(&Path) -> Result<(), BridgeError>,
) -> Result<(PathBuf, CacheOutcome), BridgeError> {
    let locks = root.join("locks");
    let tmp_root = root.join("tmp");
    for d in [root, &locks, &tmp_root] {
        fs::create_dir_all(d).map_err(|e| BridgeError::io("create cache directory", d, e))?;
    }
    let lock_path = locks.join(format!("{key}.lock"));
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| BridgeError::io("open lock file", &lock_path, e))?;
    lock.lock()
        .map_err(|e| BridgeError::io("lock", &lock_path, e))?;
    let result = locked_get_or_build(root, &tmp_root, key, marker, build);
    drop_lock(lock);
    result
}

fn drop_lock(lock: File) {
    // Closing the descriptor releases the lock; unlock explicitly for clarity.
    let _ = lock.unlock();
}

fn locked_get_or_build(
    root: &Path,
    tmp_root: &Path,
    key: &str,
    marker: &str,
    build: impl FnOnce(&Path) -> Result<(), BridgeError>,
) -> Result<(PathBuf, CacheOutcome), BridgeError> {
    let entry = root.join(key);
    if entry.join(marker).is_file() {
        return Ok((entry, CacheOutcome::Hit));
    }
    if entry.exists() {
        // Only possible if someone edited the cache by hand: start over.
        fs::remove_dir_all(&entry)
            .map_err(|e| BridgeError::io("remove incomplete cache entry", &entry, e))?;
    }
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp = tmp_root.join(format!("{key}.{}.{n}", std::process::id()));
    if tmp.exists() {
        let _ = fs::remove_dir_all(&tmp);
    }
    fs::create_dir_all(&tmp).map_err(|e| BridgeError::io("create build directory", &tmp, e))?;
    if let Err(e) = build(&tmp) {
        if std::env::var_os("LCANET_KEEP_FAILED_BUILDS").is_none() {
            let _ = fs::remove_dir_all(&tmp);
        }
        return Err(e);
    }
    if !tmp.join(marker).is_file() {
        let _ = fs::remove_dir_all(&tmp);
        return Err(BridgeError::Internal(format!(
            "cache builder for {key} did not write its marker `{marker}`"
        )));
    }
    fs::rename(&tmp, &entry).map_err(|e| BridgeError::io("publish cache entry", &entry, e))?;
    Ok((entry, CacheOutcome::Built))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_call_hits_and_failures_leave_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let (e1, o1) = get_or_build(root, "k1", "done", |d| {
            fs::write(d.join("done"), "x").map_err(|e| BridgeError::io("w", d, e))
        })
        .unwrap();
        assert_eq!(o1, CacheOutcome::Built);
        let (e2, o2) = get_or_build(root, "k1", "done", |_| {
            Err(BridgeError::Internal("must not be called".into()))
        })
        .unwrap();
        assert_eq!((e1, o2), (e2, CacheOutcome::Hit));
        let err = get_or_build(root, "k2", "done", |d| {
            fs::write(d.join("partial"), "x").unwrap();
            Err(BridgeError::Internal("boom".into()))
        });
        assert!(err.is_err());
        assert!(!root.join("k2").exists());
        assert_eq!(fs::read_dir(root.join("tmp")).unwrap().count(), 0);
    }

    #[test]
    fn key_fields_are_length_prefixed() {
        let mut a = KeyHasher::default();
        a.field("ab").field("c");
        let mut b = KeyHasher::default();
        b.field("a").field("bc");
        assert_ne!(a.finish(), b.finish());
    }
}
