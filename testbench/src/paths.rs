//! Where things live on disk: the workspace root (known at compile time), the build cache
//! and the per-test artifact directories, each overridable by an environment variable.

use std::path::{Path, PathBuf};

/// Environment variable overriding the cache root (default `<workspace>/target/lcanet-cache`).
pub const CACHE_DIR_ENV: &str = "LCANET_CACHE_DIR";
/// Environment variable overriding the artifact root (default `<workspace>/target/lcanet-artifacts`).
pub const ARTIFACTS_DIR_ENV: &str = "LCANET_ARTIFACTS_DIR";

/// The workspace root: the parent of this crate's manifest directory, fixed at compile time.
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| manifest.to_path_buf())
}

/// The cache root: `$LCANET_CACHE_DIR`, else `<workspace>/target/lcanet-cache`.
/// Verilator builds live in its `verilator/` subdirectory.
pub fn cache_root() -> PathBuf {
    env_dir(CACHE_DIR_ENV).unwrap_or_else(|| workspace_root().join("target").join("lcanet-cache"))
}

/// The artifact root: `$LCANET_ARTIFACTS_DIR`, else `<workspace>/target/lcanet-artifacts`.
pub fn artifacts_root() -> PathBuf {
    env_dir(ARTIFACTS_DIR_ENV)
        .unwrap_or_else(|| workspace_root().join("target").join("lcanet-artifacts"))
}

fn env_dir(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}
