//! Hostile input through the real binary (issue 16, item 4): exit code 1, a message on
//! stderr naming the violated condition, no panic, nothing on stdout, and nothing
//! written. The generated million-input run is in-process (`src/cli/hostile.rs`,
//! `docs/hostile-input.md`); these cases check what only a process shows: the exit code
//! and the streams.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn lcanet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lcanet"))
        .args(args)
        // A refused input must never reach a tool; if one did, it would fail at once.
        .env("LCANET_VERILATOR", "/nonexistent/lcanet-hostile-no-tools")
        .env("LCANET_IVERILOG", "/nonexistent/lcanet-hostile-no-tools")
        .env("LCANET_YOSYS", "/nonexistent/lcanet-hostile-no-tools")
        .output()
        .expect("run lcanet")
}

/// A fresh, empty scratch directory for one test (under the cargo target dir).
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_hostile_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file and directory under `dir`, with contents.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                out.push((p.clone(), Vec::new()));
                stack.push(p);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Runs `args` in `dir`, expects exit code 1, a clean message containing every one of
/// `needles`, nothing on stdout, and `dir` unchanged.
fn refuses(dir: &Path, args: &[&str], needles: &[&str]) {
    let before = tree(dir);
    let out = lcanet(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(
        err.lines().any(|l| l.starts_with("error: ")),
        "{args:?}: {err}"
    );
    for bad in ["panicked", "RUST_BACKTRACE", "Err(", "Some("] {
        assert!(!err.contains(bad), "{args:?}: stderr has {bad:?}: {err}");
    }
    for n in needles {
        assert!(err.contains(n), "{args:?}: stderr lacks {n:?}: {err}");
    }
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    assert_eq!(tree(dir), before, "{args:?} changed {}", dir.display());
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_generator_blocked_half_way_writes_nothing() {
    // Regression: the Verilog files were written, then summary.json (a directory here)
    // failed; now the output is staged and moved in only when complete.
    let dir = scratch("blocked");
    let out = dir.join("out");
    std::fs::create_dir_all(out.join("summary.json")).unwrap();
    std::fs::write(out.join("keep.txt"), "keep").unwrap();
    refuses(
        &dir,
        &[
            "generate",
            "min",
            "--network",
            "omega",
            "--m",
            "2",
            "-o",
            s(&out),
        ],
        &["summary.json is a directory", "nothing was written"],
    );
}

#[test]
fn an_export_blocked_half_way_writes_nothing() {
    // Regression: export-tb wrote the Verilog and the bench data, then failed on run.sh.
    let dir = scratch("export_blocked");
    let out = dir.join("tb");
    std::fs::create_dir_all(out.join("run.sh")).unwrap();
    refuses(
        &dir,
        &[
            "export-tb",
            "network",
            "--d",
            "2",
            "--u",
            "1",
            "--levels",
            "2",
            "--perm",
            "identity",
            "--seed",
            "1",
            "-o",
            s(&out),
        ],
        &["run.sh is a directory", "nothing was written"],
    );
}

#[test]
fn output_paths_that_cannot_be_created_leave_no_directories() {
    let dir = scratch("paths");
    std::fs::write(dir.join("afile"), "a file").unwrap();
    let long = dir.join("a/b").join("x".repeat(300));
    refuses(
        &dir,
        &["generate", "switch", "--d", "2", "--u", "1", "-o", s(&long)],
        &["File name too long"],
    );
    refuses(
        &dir,
        &[
            "generate",
            "hypercube",
            "--k",
            "2",
            "-o",
            s(&dir.join("afile/out")),
        ],
        &["afile is not a directory"],
    );
    refuses(
        &dir,
        &[
            "generate",
            "network",
            "--d",
            "2",
            "--u",
            "1",
            "--levels",
            "2",
            "-o",
            s(&dir.join("afile")),
        ],
        &["exists and is not a directory"],
    );
    refuses(
        &dir,
        &[
            "diagram",
            "--d",
            "2",
            "--u",
            "1",
            "--levels",
            "2",
            "-o",
            s(&dir.join("a/b").join("y".repeat(300) + ".dot")),
        ],
        &["File name too long"],
    );
    std::fs::create_dir(dir.join("net.pi")).unwrap();
    refuses(
        &dir,
        &[
            "info",
            "--d",
            "2",
            "--u",
            "1",
            "--levels",
            "2",
            "--write-pi",
            s(&dir.join("net.pi")),
        ],
        &["net.pi is a directory"],
    );
    refuses(
        &dir,
        &[
            "export-tb",
            "network",
            "--d",
            "2",
            "--u",
            "1",
            "--levels",
            "2",
            "-o",
            s(&dir.join("afile")),
        ],
        &["exists and is not a directory"],
    );
}

#[test]
fn numbers_past_their_limits_name_the_flag_or_the_limit() {
    let dir = scratch("numbers");
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["info", "--d", "2", "--u", "1", "--levels", "33"],
            &["levels = 33"],
        ),
        (
            &["info", "--d", "64", "--u", "1", "--levels", "4"],
            &["exceeds the limit"],
        ),
        (
            &[
                "info",
                "--d",
                "18446744073709551616",
                "--u",
                "1",
                "--levels",
                "2",
            ],
            &["--d"],
        ),
        (&["info", "--d", "-1", "--u", "1", "--levels", "2"], &["-1"]),
        (
            &["latin", "--network", "omega", "--m", "13"],
            &["1 ≤ m ≤ 12"],
        ),
        (
            &["generate", "hypercube", "--k", "13", "-o", "unused"],
            &["k"],
        ),
        (
            &[
                "generate",
                "min",
                "--network",
                "cube",
                "--m",
                "2",
                "--message-bits",
                "0",
                "-o",
                "unused",
            ],
            &["--message-bits"],
        ),
        (
            &[
                "sim", "switch", "--d", "2", "--u", "1", "--width", "0", "--cycles", "9",
            ],
            &["width"],
        ),
        (
            &["sim", "hypercube", "--k", "2", "--payload-bits", "65"],
            &["payload"],
        ),
        // Regression: overflowed `done + tail` (a panic in debug builds); 10^8 ran out
        // of memory.
        (
            &[
                "export-tb",
                "network",
                "--d",
                "2",
                "--u",
                "1",
                "--levels",
                "2",
                "--tail",
                "18446744073709551615",
                "-o",
                "unused",
            ],
            &["--tail 18446744073709551615 is larger than the limit"],
        ),
    ];
    for (args, needles) in cases {
        refuses(&dir, args, needles);
    }
}

#[test]
fn bad_permutation_and_pi_files_are_refused_before_any_build() {
    let dir = scratch("files");
    let perm = dir.join("p.perm");
    std::fs::write(&perm, "0 1 1 2\n").unwrap();
    let pi = dir.join("bad.pi");
    std::fs::write(
        &pi,
        "lcan d=2 u=2 levels=2 n=4\nlevel 0\n0.0 -> 0.0\n0.0 -> 1.0\n",
    )
    .unwrap();
    refuses(
        &dir,
        &[
            "sim",
            "network",
            "--d",
            "2",
            "--u",
            "1",
            "--levels",
            "2",
            "--perm",
            s(&perm),
        ],
        &["p.perm", "both send to 1"],
    );
    refuses(
        &dir,
        &[
            "sim",
            "min",
            "--network",
            "omega",
            "--m",
            "2",
            "--perm",
            s(&perm),
        ],
        &["p.perm"],
    );
    refuses(
        &dir,
        &["sim", "network", "--pi", s(&pi), "--perm", "identity"],
        &["bad.pi", "line 4", "connected twice"],
    );
    refuses(
        &dir,
        &["schedule", "--pi", s(&dir.join("missing.pi"))],
        &["missing.pi"],
    );
}
