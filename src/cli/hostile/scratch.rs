//! Hints of the defects a generated input holds, and the scratch directory: input
//! files, output paths of every shape, and snapshots to prove nothing was written.

use super::*;

/// What a refusal must mention: any one hint of any defect the generator injected.
#[derive(Default)]
pub(super) struct Hints(pub(super) Vec<String>);

impl Hints {
    pub(super) fn add(&mut self, hints: &[&str]) {
        self.0.extend(hints.iter().map(|h| h.to_string()));
    }
}

/// The scratch area of one harness run: inputs, output paths, and the obstacles.
pub(super) struct Scratch {
    pub(super) root: PathBuf,
    /// The files each generator writes (key: command and variant), found by running it
    /// once; an existing output directory with a directory in the place of one of them
    /// makes that write fail after the others (a half-write, unless it is staged).
    pub(super) blocked: BTreeMap<String, Vec<String>>,
    pub(super) _tmp: tempfile::TempDir,
}

/// The existing output directory's one file (must stay unchanged on refusal).
pub(super) const SENTINEL: &str = "keep.txt";

/// Generators whose output file names are discovered, with their valid arguments.
pub(super) const DISCOVER: &[(&str, &[&str])] = &[
    (
        "generate switch",
        &["--d", "2", "--u", "1", "--width", "1", "--levels", "2"],
    ),
    ("generate hypercube", &["--k", "2", "--payload-bits", "4"]),
    (
        "generate hypercube sequential",
        &["--k", "2", "--payload-bits", "4", "--router", "sequential"],
    ),
    (
        "generate hypercube sort",
        &["--k", "2", "--payload-bits", "4", "--router", "sort"],
    ),
    (
        "generate hypercube quadratic",
        &["--k", "2", "--payload-bits", "4", "--router", "quadratic"],
    ),
    (
        "generate hypercube quadratic-sort",
        &[
            "--k",
            "2",
            "--payload-bits",
            "4",
            "--router",
            "quadratic-sort",
        ],
    ),
    (
        "generate min baseline",
        &["--network", "baseline", "--m", "2", "--message-bits", "4"],
    ),
    (
        "generate min omega",
        &["--network", "omega", "--m", "2", "--message-bits", "4"],
    ),
    (
        "generate min cube",
        &["--network", "cube", "--m", "2", "--message-bits", "4"],
    ),
    (
        "generate selftest cube full overlapped",
        &["hypercube", "--k", "2", "--payload-bits", "4"],
    ),
    (
        "generate selftest cube full sequential",
        &[
            "hypercube",
            "--k",
            "2",
            "--payload-bits",
            "4",
            "--router",
            "sequential",
        ],
    ),
    (
        "generate selftest cube full sort",
        &[
            "hypercube",
            "--k",
            "2",
            "--payload-bits",
            "4",
            "--router",
            "sort",
        ],
    ),
    (
        "generate selftest cube semi overlapped",
        &[
            "hypercube",
            "--k",
            "2",
            "--payload-bits",
            "4",
            "--algorithm",
            "semi",
        ],
    ),
    (
        "generate selftest min baseline",
        &[
            "min",
            "--network",
            "baseline",
            "--m",
            "2",
            "--message-bits",
            "4",
        ],
    ),
    (
        "generate selftest min omega",
        &[
            "min",
            "--network",
            "omega",
            "--m",
            "2",
            "--message-bits",
            "4",
        ],
    ),
    (
        "generate selftest min cube",
        &[
            "min",
            "--network",
            "cube",
            "--m",
            "2",
            "--message-bits",
            "4",
        ],
    ),
];

impl Scratch {
    pub(super) fn new() -> Self {
        let tmp = tempfile::tempdir().expect("scratch directory");
        let root = tmp.path().to_path_buf();
        std::fs::write(root.join("afile"), "a regular file\n").unwrap();
        let mut blocked = BTreeMap::new();
        let discover = |key: &str, args: &[&str]| {
            let dir = root.join("discover");
            let mut argv: Vec<OsString> = vec!["lcanet".into()];
            argv.extend(key.split(' ').take(2).map(OsString::from));
            argv.extend(args.iter().map(OsString::from));
            argv.extend(["-o".into(), dir.clone().into_os_string()]);
            let cli = Cli::try_parse_from(&argv).expect("discovery arguments parse");
            run(cli).expect("discovery run");
            let names: BTreeSet<String> = std::fs::read_dir(&dir)
                .unwrap()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            std::fs::remove_dir_all(&dir).unwrap();
            names
        };
        for (key, args) in DISCOVER {
            let mut names = discover(key, args);
            if key.starts_with("generate selftest") {
                // `--active-low-leds` picks another board and so another pin file:
                // only the files written either way can block a write.
                let low = discover(key, &[*args, &["--active-low-leds"]].concat());
                names.retain(|n| low.contains(n));
            }
            blocked.insert(key.to_string(), names.into_iter().collect());
        }
        let s = Scratch {
            root,
            blocked,
            _tmp: tmp,
        };
        s.reset_existing();
        s
    }
    pub(super) fn existing(&self) -> PathBuf {
        self.root.join("existing")
    }
    pub(super) fn blocked_dir(&self, key: &str, k: usize) -> PathBuf {
        self.existing()
            .join("blocked")
            .join(key.replace(' ', "_"))
            .join(k.to_string())
    }
    pub(super) fn reset_existing(&self) {
        let e = self.existing();
        let _ = std::fs::remove_dir_all(&e);
        std::fs::create_dir_all(&e).unwrap();
        std::fs::write(e.join(SENTINEL), "existing output\n").unwrap();
        // Directories named like output files: that write must fail.
        for blocked in [
            "dir.dot",
            "dir.pi",
            "dir.png",
            "dir.txt",
            "dir.",
            "dir.DOT ",
            "dir.jsonl",
        ] {
            std::fs::create_dir_all(e.join("blocked").join(blocked)).unwrap();
        }
        for (key, names) in &self.blocked {
            for (k, name) in names.iter().enumerate() {
                let d = self.blocked_dir(key, k);
                std::fs::create_dir_all(d.join(name)).unwrap();
                std::fs::write(d.join(SENTINEL), "existing output\n").unwrap();
            }
        }
    }
    pub(super) fn input(&self, name: &str, contents: &str) -> PathBuf {
        self.input_bytes(name, contents.as_bytes())
    }
    pub(super) fn input_bytes(&self, name: &str, contents: &[u8]) -> PathBuf {
        let p = self.root.join("inputs").join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, contents).unwrap();
        p
    }
}

/// A recursive listing of `dir` with file contents.
pub(super) fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            // The entry's type from the listing itself (no `stat` per entry); symbolic
            // links are not followed, and the harness makes none.
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                out.insert(p.clone(), b"<dir>".to_vec());
                stack.push(p);
            } else {
                out.insert(p.clone(), std::fs::read(&p).unwrap_or_default());
            }
        }
    }
    out
}

/// An output path given to a command (whether writing there must fail is counted as a defect).
pub(super) struct OutPath {
    pub(super) path: PathBuf,
}

pub(super) fn out_dir(b: &mut Builder, s: &Scratch, key: &str, case_dir: &Path) -> OutPath {
    let hostile_path = b.hit(b.rate / 2);
    let g = &mut *b.g;
    let pick = if hostile_path {
        [0, 1, 2, 4, 5][g.below(5)]
    } else {
        [3, 4, 6][g.below(3)]
    };
    let (path, hostile, hint): (PathBuf, bool, String) = match pick {
        0 => (s.root.join("afile"), true, "afile".into()),
        1 => (s.root.join("afile").join("out"), true, "afile".into()),
        2 => (s.existing().join(SENTINEL).join("x"), true, SENTINEL.into()),
        3 => (
            case_dir.join("a").join("b").join("out"),
            false,
            String::new(),
        ),
        4 => match s.blocked.get(key) {
            Some(names) => {
                let k = g.below(names.len());
                (s.blocked_dir(key, k), true, names[k].clone())
            }
            None => (s.existing(), false, String::new()),
        },
        5 => (case_dir.join("x".repeat(300)), true, "too long".into()),
        _ => (case_dir.join("out"), false, String::new()),
    };
    if hostile {
        b.defects += 1;
        b.hints.add(&[
            &hint,
            "File name too long",
            "Not a directory",
            "Is a directory",
            "exists",
        ]);
    }
    OutPath { path }
}

pub(super) fn out_file(b: &mut Builder, s: &Scratch, case_dir: &Path, ext: &str) -> OutPath {
    let hostile_path = b.hit(b.rate / 2);
    let g = &mut *b.g;
    let pick = if hostile_path {
        g.below(3)
    } else {
        3 + g.below(2)
    };
    let (path, hostile, hint): (PathBuf, bool, &str) = match pick {
        0 => (s.root.join("afile").join(format!("x.{ext}")), true, "afile"),
        1 => (
            s.existing().join("blocked").join(format!("dir.{ext}")),
            true,
            "dir.",
        ),
        2 => (
            case_dir.join(format!("{}.{ext}", "y".repeat(300))),
            true,
            "too long",
        ),
        3 => (
            case_dir.join("a").join("b").join(format!("x.{ext}")),
            false,
            "",
        ),
        _ => (case_dir.join(format!("x.{ext}")), false, ""),
    };
    if hostile {
        b.defects += 1;
        b.hints.add(&[
            hint,
            "File name too long",
            "Not a directory",
            "Is a directory",
        ]);
    }
    OutPath { path }
}
