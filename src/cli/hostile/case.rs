//! Generated command lines: a builder that injects defects component by component,
//! and one generator per subcommand (valid inputs small, so each runs in milliseconds).

use super::*;

/// One generated command line.
pub(super) struct CliCase {
    /// The subcommand (an entry of [`COMMANDS`]).
    pub(super) cmd: &'static str,
    pub(super) argv: Vec<OsString>,
    pub(super) hints: Hints,
    /// Number of defects injected (0: a valid input, which must succeed).
    pub(super) defects: usize,
    /// The output path it was given, if any.
    pub(super) out: Option<OutPath>,
}

pub(super) struct Builder<'a> {
    pub(super) g: &'a mut Gen,
    pub(super) argv: Vec<OsString>,
    pub(super) hints: Hints,
    pub(super) defects: usize,
    /// Percent chance of a defect in each component.
    pub(super) rate: usize,
    /// Single-defect mode: only component `target` (counted by `slot`) is defective, so
    /// that the check of every component is reached, not only the first one.
    pub(super) single: bool,
    pub(super) slot: usize,
    pub(super) target: usize,
}

impl Builder<'_> {
    /// Whether the next component gets a defect.
    pub(super) fn hit(&mut self, percent: usize) -> bool {
        let i = self.slot;
        self.slot += 1;
        if self.single {
            i == self.target
        } else {
            self.g.chance(percent)
        }
    }
    pub(super) fn arg(&mut self, flag: &str, value: impl Into<OsString>) {
        let value = value.into();
        if self.g.chance(20) {
            let mut joined = OsString::from(format!("{flag}="));
            joined.push(&value);
            self.argv.push(joined);
        } else {
            self.argv.push(flag.into());
            self.argv.push(value);
        }
    }
    pub(super) fn flag(&mut self, flag: &str) {
        self.argv.push(flag.into());
    }
    /// A number flag: `valid`, or (a defect) a hostile value outside `ok`, a superset of
    /// what the command accepts (so the value is refused for certain).
    pub(super) fn number(
        &mut self,
        flag: &str,
        valid: &str,
        ok: impl Fn(u128) -> bool,
        hints: &[&str],
    ) {
        let bad: Vec<&str> = HOSTILE_NUMBERS
            .iter()
            .copied()
            .filter(|v| !v.parse::<u128>().is_ok_and(&ok))
            .collect();
        if self.hit(self.rate) && !bad.is_empty() {
            // Half the time a number (past a limit) rather than a string clap refuses,
            // so that the command's own checks are reached.
            let numeric: Vec<&str> = bad
                .iter()
                .copied()
                .filter(|v| v.parse::<u128>().is_ok())
                .collect();
            let v = if !numeric.is_empty() && self.g.chance(50) {
                *self.g.pick(&numeric)
            } else {
                *self.g.pick(&bad)
            };
            self.defects += 1;
            self.hints.add(hints);
            self.hints.add(&[flag, &format!("'{v}'")]);
            self.arg(flag, v);
        } else {
            self.arg(flag, valid);
        }
    }
    /// A number flag at an extreme the command accepts (one of `extremes`), in one case
    /// of ten; else as [`Builder::number`].
    pub(super) fn extreme(
        &mut self,
        flag: &str,
        extremes: &[&'static str],
        valid: &str,
        ok: impl Fn(u128) -> bool,
        hints: &[&str],
    ) {
        if self.g.chance(10) {
            let v = self.g.pick_str(extremes);
            self.arg(flag, v);
        } else {
            self.number(flag, valid, ok, hints);
        }
    }
    /// A value-enum flag: one of `valid` (or left at its default), or an unknown value.
    pub(super) fn choice(&mut self, flag: &str, valid: &[&'static str]) {
        if self.hit(self.rate / 5) {
            let v = self
                .g
                .pick_str(&["", "R1", "r 1", "none", "-", "\u{0}x", "all"]);
            self.arg(flag, v);
            self.defect(&[flag]);
        } else if self.g.chance(50) {
            let v = self.g.pick_str(valid);
            self.arg(flag, v);
        }
    }
    pub(super) fn defect(&mut self, hints: &[&str]) {
        self.defects += 1;
        self.hints.add(hints);
    }
}

/// `--topology … --d … --u … --levels|--n … [--pi …]` (small when valid); returns the
/// number of PEs of the network when it is valid.
///
/// `hw`: the network is generated as hardware, whose switches take d, u ≤ 16 and
/// levels ≤ 16 (`MAX_PARAM`), tighter than the topology's own limits (d, u ≤ 64,
/// levels ≤ 32).
pub(super) fn topology_args(
    b: &mut Builder,
    s: &Scratch,
    seeds: &[String],
    hw: bool,
) -> Option<usize> {
    let defects = b.defects;
    if b.g.below(4) == 3 {
        // A Π file.
        let valid = b.g.pick(seeds).clone();
        let text = if b.hit(b.rate) {
            pi_text(b.g, seeds)
        } else {
            valid
        };
        let parsed = catch_unwind(|| Topology::from_pi_text(&text).ok())
            .ok()
            .flatten();
        if parsed.is_none() {
            b.defect(&["Π file"]);
        }
        let path = if b.hit(b.rate / 3) {
            b.defect(&["reading the Π file"]);
            s.root.join("missing.pi")
        } else {
            s.input("net.pi", &text)
        };
        if b.g.chance(50) {
            b.arg("--topology", "file");
        }
        b.arg("--pi", path);
        if b.hit(b.rate / 3) {
            b.arg("--d", "7");
            b.defect(&["--d", "disagrees"]);
        }
        return parsed.filter(|_| b.defects == defects).map(|t| t.n());
    }
    if b.g.below(4) == 0 {
        return per_level_args(b);
    }
    let (name, d, u, l, n) = *b.g.pick(&[
        ("tree", "2", "1", "2", 4),
        ("tree", "4", "2", "2", 8),
        ("tree", "4", "2", "3", 16),
        ("cb", "2", "2", "2", 4),
        ("cb", "2", "1", "3", 8),
    ]);
    if b.hit(b.rate / 6) {
        b.arg("--topology", "cube");
        b.defect(&["--topology"]);
    } else if name != "tree" || b.g.chance(90) {
        b.arg("--topology", name); // (tree is the default)
    }
    let max = if hw { 16 } else { 64 };
    b.number("--d", d, |v| (2..=max).contains(&v), &["d = ", "--d"]);
    b.number("--u", u, |v| (1..=max).contains(&v), &["u = ", "--u"]);
    let size_defect = b.hit(b.rate / 2);
    match if size_defect { b.g.below(5) } else { 5 } {
        0 => {
            b.arg("--levels", l);
            b.arg("--n", "4");
            b.defect(&["--levels", "--n"]);
        }
        1 => b.defect(&["--levels", "--n"]),
        2 => {
            // A size past every limit: must be refused, never allocated.
            let v =
                *b.g.pick(&["33", "64", "1000", "4294967296", "18446744073709551615"]);
            b.arg("--levels", v);
            b.defect(&["levels", "n = ", "limit", "switches"]);
        }
        3 => {
            let v = *b.g.pick(&[
                "0",
                "3",
                "12",
                "1048577",
                "4294967296",
                "18446744073709551615",
            ]);
            b.arg("--n", v);
            b.defect(&["n = ", "--n", "limit"]);
        }
        4 => {
            // With --topology tree or cb, --pi is refused; without --topology, --pi
            // selects `file` and this header-only file is refused.
            b.arg("--pi", s.input("unused.pi", "lcan d=2 u=2 levels=2 n=4\n"));
            b.defect(&["--pi", "Π file"]);
        }
        _ => b.arg("--levels", l),
    }
    (b.defects == defects).then_some(n)
}

/// Per-level `--d`/`--u` vectors (`4,2` with `2,4`, …) or a named network of 002 §2.2
/// (`fat-tree`, `cm5`, `trac`, `baseline`), small when valid (every `d_i`, `u_i` ≤ 8, so
/// also within the hardware's limits); returns the number of PEs when valid.
fn per_level_args(b: &mut Builder) -> Option<usize> {
    let defects = b.defects;
    if b.g.chance(50) {
        let (name, flag, size, n) = *b.g.pick(&[
            ("fat-tree", "--levels", "3", 8),
            ("fat-tree", "--n", "16", 16),
            ("cm5", "--n", "16", 16),
            ("cm5", "--levels", "3", 64),
            ("trac", "--levels", "2", 9),
            ("baseline", "--n", "8", 8),
        ]);
        b.arg("--topology", name);
        if !b.hit(b.rate / 2) {
            b.arg(flag, size);
            if name == "fat-tree" && b.g.chance(30) {
                let c = b.g.pick_str(&["1", "2", "64"]);
                b.arg("--capacity", c);
            }
            return (b.defects == defects).then_some(n);
        }
        match b.g.below(5) {
            0 => {
                // Not a power of the preset's radix, or past every limit.
                let v =
                    *b.g.pick(&["0", "12", "100", "1048577", "18446744073709551615"]);
                b.arg("--n", v);
                b.defect(&["n = ", "--n", "limit", "is not", "out of range"]);
            }
            1 => {
                let v = b.g.pick_str(&["0", "33", "4294967296"]);
                b.arg("--levels", v);
                b.defect(&["--levels", "levels = ", "out of range", "limit", "n = "]);
            }
            2 => b.defect(&["--levels", "--n"]),
            3 => {
                b.arg(flag, size);
                let f = *b.g.pick(&["--d", "--u"]);
                b.arg(f, "4");
                b.defect(&["fixes the network's switch sizes", f]);
            }
            _ => {
                b.arg(flag, size);
                if name == "fat-tree" {
                    let c = b.g.pick_str(&["0", "-1", "x"]);
                    b.arg("--capacity", c);
                    b.defect(&["--capacity", "'-1'", "'x'", "d_", "out of range"]);
                } else {
                    b.arg("--capacity", "4");
                    b.defect(&["--capacity is only for --topology fat-tree"]);
                }
            }
        }
        return None;
    }
    let (name, d, u, n) = *b.g.pick(&[
        ("cb", "2,2,2", "1,1,2", 8),
        ("cb", "4,2", "2,4", 8),
        ("cb", "3,2", "2,3", 6),
        ("tree", "2,4,8", "2,4,8", 8),
        ("tree", "2,2,4", "1,2,1", 8),
        ("tree", "2,4", "2,2", 4),
    ]);
    b.arg("--topology", name);
    if !b.hit(b.rate) {
        b.arg("--d", d);
        b.arg("--u", u);
        return Some(n);
    }
    let (flag, other) = if b.g.chance(50) {
        ("--d", "--u")
    } else {
        ("--u", "--d")
    };
    let (mine, theirs) = if flag == "--d" { (d, u) } else { (u, d) };
    let mut items: Vec<String> = mine.split(',').map(str::to_string).collect();
    let mut hints: Vec<&str> = vec![flag];
    match b.g.below(6) {
        0 => {
            let i = b.g.below(items.len());
            let v =
                *b.g.pick(&["0", "65", "x", "", "-1", "18446744073709551616", "1e3", " "]);
            items[i] = v.to_string();
            hints.extend(["out of range", "not a non-negative integer", "(level"]);
            if i == 0 && v == "-1" {
                // clap takes a value starting with '-' for a flag: "unexpected argument".
                hints.push("'-1");
            }
        }
        1 => {
            items.push("2".into());
            hints.push("entries but the other vector has");
        }
        2 if items.len() >= 3 => {
            items.pop();
            hints.push("entries but the other vector has");
        }
        3 => {
            items = vec!["2".to_string(); 40];
            hints.extend(["at most one per level", "at most 32 levels"]);
        }
        4 => {
            b.arg("--levels", "7");
            hints.extend(["--levels 7 disagrees"]);
        }
        _ => {
            // A tree whose d_1 is no multiple of u_0 (002 Definition 2 per level), or
            // the same shape as a CB with an n that disagrees.
            if name == "tree" {
                b.arg("--d", "4,6");
                b.arg("--u", "4,1");
                b.defect(&["d_1 = 6 is not a multiple of u_0 = 4"]);
            } else {
                b.arg("--d", d);
                b.arg("--u", u);
                b.arg("--n", "1000");
                b.defect(&["--n 1000 disagrees"]);
            }
            return None;
        }
    }
    b.arg(flag, items.join(","));
    b.arg(other, theirs);
    b.defect(&hints);
    None
}

/// `--perm FILE` (or a keyword) for a network of `n` PEs; returns whether it is valid.
pub(super) fn perm_arg(
    b: &mut Builder,
    s: &Scratch,
    n: usize,
    keywords: &[&str],
    full: bool,
    no_files: bool,
) {
    if !b.hit(b.rate) {
        let k = *b.g.pick(keywords);
        b.arg("--perm", k);
        return;
    }
    if b.g.chance(10) {
        b.arg("--perm", s.root.join("missing.perm"));
        b.defect(&["reading the", "missing.perm"]);
        return;
    }
    if b.g.chance(5) {
        b.arg("--perm", s.root.join("existing"));
        b.defect(&["reading the", "existing"]);
        return;
    }
    let text = perm_text(b.g, n);
    // The oracle runs the parser too: a panic there (counted when the command runs)
    // must not stop the harness.
    let ok = survives(|| {
        if full {
            Permutation::parse(&text, n).is_ok()
        } else {
            PartialPermutation::parse(&text, n).is_ok()
        }
    });
    if !ok {
        b.defect(&["permutation file", "routing file", "p.perm"]);
    } else if no_files {
        b.defect(&["--perm"]);
    }
    b.arg("--perm", s.input("p.perm", &text));
}

/// `latin --method psi` with an `--order` (`random` takes `--seed`) or a `--first-column`
/// (for `--m 2`, whose networks all start row 0 with 0); defects: an order or column
/// without `--method psi`, both at once, and malformed columns.
fn latin_psi_args(b: &mut Builder) {
    if b.g.chance(40) {
        return;
    }
    if b.hit(b.rate / 4) {
        // Choosing an order of Ψ for Table 2.
        b.arg("--order", "random");
        b.defect(&["need --method psi"]);
        return;
    }
    b.arg("--method", "psi");
    if b.g.chance(50) {
        b.choice("--order", &["eq8", "table2", "random"]);
        b.arg("--seed", "3");
        return;
    }
    if b.hit(b.rate / 4) {
        b.arg("--order", "eq8");
        b.arg("--first-column", "0,1,2,3");
        b.defect(&["cannot be used with"]);
        return;
    }
    let col = if b.hit(b.rate) {
        let (v, hints): (&str, &[&str]) = *b.g.pick(&[
            ("0,1,2", &["3 entries, need n = 4"][..]),
            ("0,1,2,3,4", &["5 entries"][..]),
            ("1,0,2,3", &["starts with 1"][..]),
            ("0,1,1,3", &["repeats 1"][..]),
            ("0,1,2,4", &["entry 3 is 4"][..]),
            ("0,1,,3", &["entry 2", "not a non-negative integer"][..]),
            ("0;1;2;3", &["not a non-negative integer"][..]),
            ("", &["not a non-negative integer"][..]),
            (
                "0,1,2,18446744073709551616",
                &["not a non-negative integer"][..],
            ),
            ("0,1,2,\u{0}3", &["not a non-negative integer"][..]),
        ]);
        b.defect(hints);
        v
    } else {
        *b.g.pick(&["0,1,2,3", "0,3,2,1", "0, 2, 3, 1"])
    };
    b.arg("--first-column", col);
}

pub(super) const COMMANDS: &[&str] = &[
    "info",
    "diagram",
    "latin",
    "schedule",
    "generate switch",
    "generate network",
    "generate hypercube",
    "generate min",
    "generate selftest",
    "generate selftest hypercube",
    "generate selftest min",
    "sim switch",
    "sim network",
    "sim hypercube",
    "sim ataape",
    "sim min",
    "export-tb network",
    "bench cosim",
    "bench routing",
    "bench all-to-all",
    "bench hypercube",
    "sweep",
    "sweep --report",
    "sweep --resume",
    "sweep --submit",
    "prove switch",
    "prove matrix",
];

/// Commands that build a model or run a tool: only ever given refused inputs.
/// (`export-tb network` runs the golden model only; it is never given `--run`.)
pub(super) fn builds(cmd: &str) -> bool {
    cmd.starts_with("sim ")
        || cmd.starts_with("bench")
        || cmd == "sweep"
        || cmd == "sweep --resume"
        || cmd == "sweep --submit"
        || cmd.starts_with("prove")
}

pub(super) fn cli_case(g: &mut Gen, s: &Scratch, case_dir: &Path, seeds: &[String]) -> CliCase {
    let cmd = *g.pick(COMMANDS);
    // Valid inputs (no defect) for the computing commands in 1 case of 12; else half
    // the cases with one defect in a random place, half with a defect in each component
    // with probability `rate`.
    let rate = if builds(cmd) || g.below(12) != 0 {
        30
    } else {
        0
    };
    let single = rate > 0 && g.chance(50);
    let target = g.below(14);
    let mut b = Builder {
        g,
        argv: vec!["lcanet".into()],
        hints: Hints::default(),
        defects: 0,
        rate,
        single,
        slot: 0,
        target,
    };
    b.argv.extend(cmd.split(' ').map(OsString::from));
    let mut out = None;
    match cmd {
        "info" => {
            topology_args(&mut b, s, seeds, false);
            if b.g.chance(40) {
                let o = out_file(&mut b, s, case_dir, "pi");
                b.arg("--write-pi", &o.path);
                out = Some(o);
            }
            if b.g.chance(50) {
                b.flag("--json");
            }
        }
        "diagram" => {
            topology_args(&mut b, s, seeds, false);
            let ext = if b.hit(b.rate / 3) {
                b.defect(&[".dot or .svg"]);
                *b.g.pick(&["png", "DOT ", "", "txt"])
            } else {
                "dot"
            };
            let o = out_file(&mut b, s, case_dir, ext);
            b.arg("-o", &o.path);
            out = Some(o);
            if b.g.chance(30) {
                let title = *b.g.pick(&["\"quoted\" <b>", "\u{0}", "\\", "}", "ä ∑ 𝟘"]);
                b.arg("--title", title);
            }
        }
        "latin" | "generate min" | "sim min" | "sim ataape" => {
            let net = if b.hit(b.rate / 4) {
                b.defect(&["--network"]);
                "butterfly"
            } else {
                *b.g.pick(&[
                    "baseline",
                    "omega",
                    "cube",
                    "reverse-baseline",
                    "reverse-omega",
                    "reverse-cube",
                ])
            };
            b.arg("--network", net);
            b.number("--m", "2", |v| (1..=12).contains(&v), &["m", "--m"]);
            if cmd == "latin" {
                latin_psi_args(&mut b);
            }
            if cmd != "latin" {
                b.number(
                    "--message-bits",
                    "4",
                    |v| (1..=4096).contains(&v),
                    &["--message-bits", "B"],
                );
            }
            if cmd == "generate min" {
                let key = format!("{cmd} {net}");
                let o = out_dir(&mut b, s, &key, case_dir);
                b.arg("-o", &o.path);
                out = Some(o);
            }
            if cmd == "sim min" {
                perm_arg(&mut b, s, 4, &["identity"], true, false);
            }
            if b.g.chance(50) {
                b.flag("--json");
            }
        }
        "schedule" => {
            let n = topology_args(&mut b, s, seeds, false).unwrap_or(4);
            let any = |v| v <= u128::from(u64::MAX);
            b.extreme(
                "--seed",
                &["0", "18446744073709551615"],
                "7",
                any,
                &["--seed"],
            );
            b.choice("--algorithm", &["r1", "r2", "r3"]);
            b.choice("--arbiter", &["fixed", "round-robin", "random"]);
            b.choice("--conflict", &["wire", "switch"]);
            b.choice("--optimal", &["auto", "off"]);
            if b.g.chance(20) {
                let max = &["18446744073709551615"];
                b.extreme("--opt-budget", max, "1000", any, &["--opt-budget"]);
            }
            if b.g.chance(30) {
                // --trials draws its own permutations: random or worst-case only.
                b.number(
                    "--trials",
                    "3",
                    |v| v <= u128::from(u64::MAX),
                    &["--trials"],
                );
                b.hints.add(&["--trials"]);
                perm_arg(&mut b, s, n, &["random", "worst-case"], false, true);
            } else {
                perm_arg(
                    &mut b,
                    s,
                    n,
                    &["random", "identity", "worst-case"],
                    false,
                    false,
                );
            }
            if b.g.chance(50) {
                b.flag("--json");
            }
        }
        "generate switch" | "sim switch" => {
            let sw = |v: u128| (1..=16).contains(&v);
            b.number("--d", "2", |v| (2..=16).contains(&v), &["d", "--d"]);
            b.number("--u", "1", sw, &["u", "--u"]);
            b.number("--width", "1", sw, &["width", "--width"]);
            b.number("--levels", "2", sw, &["levels", "--levels"]);
            b.choice("--arbiter", &["fixed", "round-robin", "random"]);
            b.choice("--topology", &["tree", "cb"]);
            if cmd == "generate switch" {
                // File names depend on the arbiter and the topology: the discovered ones
                // are those of the defaults.
                let custom = b.argv.iter().any(|a| {
                    a.to_str()
                        .is_some_and(|a| a.starts_with("--arbiter") || a.starts_with("--topology"))
                });
                let key = if custom {
                    "generate switch custom"
                } else {
                    cmd
                };
                let o = out_dir(&mut b, s, key, case_dir);
                b.arg("-o", &o.path);
                out = Some(o);
            } else {
                b.number(
                    "--cycles",
                    "10",
                    |v| v <= u128::from(u64::MAX),
                    &["--cycles"],
                );
            }
        }
        "generate network" | "sim network" | "export-tb network" | "bench cosim" => {
            let n = topology_args(&mut b, s, seeds, true).unwrap_or(4);
            b.choice("--algorithm", &["r1", "r2"]);
            b.choice("--arbiter", &["fixed", "round-robin", "random"]);
            b.choice("--structure", &["auto", "instances", "rows"]);
            b.number(
                "--width",
                "1",
                |v| (1..=16).contains(&v),
                &["width", "W", "--width"],
            );
            b.number(
                "--message-bits",
                "4",
                |v| (1..=64).contains(&v),
                &["message", "M", "--message-bits"],
            );
            if cmd == "sim network" || cmd == "export-tb network" {
                perm_arg(&mut b, s, n, &["random", "identity"], false, false);
            }
            if cmd == "export-tb network" {
                if b.g.chance(30) {
                    let ok = |v| v <= 1_000_000;
                    b.extreme("--tail", &["0", "1", "4097"], "4", ok, &["--tail"]);
                }
                let any = |v| v <= u128::from(u64::MAX);
                let far = &["1000001", "18446744073709551615"];
                b.extreme("--max-bit-times", far, "100000", any, &["--max-bit-times"]);
                let seeds = &["0", "18446744073709551615"];
                b.extreme("--seed", seeds, "7", any, &["--seed"]);
            }
            if cmd == "generate network" || cmd == "export-tb network" {
                let o = out_dir(&mut b, s, cmd, case_dir);
                b.arg("-o", &o.path);
                out = Some(o);
            }
        }
        "generate selftest" | "generate selftest hypercube" | "generate selftest min" => {
            selftest_args(&mut b, s, case_dir, seeds, cmd, &mut out)
        }
        "bench routing" => bench_routing_args(&mut b, s, case_dir, &mut out),
        "bench all-to-all" => bench_all_to_all_args(&mut b, s, case_dir, &mut out),
        "bench hypercube" => bench_hypercube_args(&mut b, s, case_dir, &mut out),
        "sweep" => sweep_args(&mut b, s, case_dir, &mut out),
        "sweep --report" => report_args(&mut b, s),
        "sweep --resume" => resume_args(&mut b, s),
        "sweep --submit" => submit_args(&mut b, s),
        "prove switch" | "prove matrix" => prove_args(&mut b, s, cmd, case_dir, &mut out),
        "generate hypercube" | "sim hypercube" => {
            b.number("--k", "2", |v| (1..=12).contains(&v), &["k", "--k"]);
            b.number(
                "--payload-bits",
                "4",
                |v| (1..=64).contains(&v),
                &["payload", "--payload-bits"],
            );
            // The output files (and so the blocked output directories) depend on the router.
            let mut key = "generate hypercube";
            let mut quadratic = false;
            if b.hit(b.rate / 5) {
                let v = b.g.pick_str(&["", "quad", "Sort", "overlapped,sort", "-"]);
                b.arg("--router", v);
                b.defect(&["--router"]);
            } else if b.g.chance(50) {
                let v = b.g.pick_str(&[
                    "overlapped",
                    "sequential",
                    "sort",
                    "quadratic",
                    "quadratic-sort",
                ]);
                b.arg("--router", v);
                quadratic = v.starts_with("quadratic");
                key = match v {
                    "sequential" => "generate hypercube sequential",
                    "sort" => "generate hypercube sort",
                    "quadratic" => "generate hypercube quadratic",
                    "quadratic-sort" => "generate hypercube quadratic-sort",
                    _ => key,
                };
            }
            if cmd == "generate hypercube" {
                let o = out_dir(&mut b, s, key, case_dir);
                b.arg("-o", &o.path);
                out = Some(o);
            } else if quadratic {
                // H-permutations: random ones (files are the permutation parser's).
                b.number("--h", "2", |v| (1..=255).contains(&v), &["--h", "H = "]);
                if b.hit(b.rate / 4) {
                    let (flag, v, hint) = *b.g.pick(&[
                        ("--algorithm", "semi", "--algorithm semi"),
                        ("--perm", "packing", "--perm packing"),
                    ]);
                    b.arg(flag, v);
                    b.defect(&[hint]);
                }
            } else {
                perm_arg(&mut b, s, 4, &["random", "packing"], false, false);
                b.choice("--algorithm", &["semi", "full"]);
                if b.hit(b.rate / 6) {
                    b.arg("--h", "2");
                    b.defect(&["--h 2 applies to --router quadratic"]);
                }
            }
        }
        _ => unreachable!("{cmd}"),
    }
    // Command-line noise: unknown flags, repeated flags, a non-UTF-8 argument.
    if b.hit(b.rate / 6) {
        match b.g.below(3) {
            0 => {
                b.flag("--frobnicate");
                b.defect(&["--frobnicate"]);
            }
            1 => {
                #[cfg(unix)]
                {
                    use std::os::unix::ffi::OsStringExt;
                    b.argv
                        .push(OsString::from_vec(vec![b'-', b'-', 0xff, 0xfe]));
                    b.defect(&["UTF-8", "unexpected argument", "\u{fffd}"]);
                }
            }
            _ => {
                b.flag("--json");
                b.flag("--json");
                b.defect(&["--json", "more than once"]);
            }
        }
    }
    // Commands that build: at least one defect refused before any build, always.
    if builds(cmd) && b.defects == 0 {
        match b.g.below(3) {
            0 => {
                b.flag("--frobnicate");
                b.defect(&["--frobnicate"]);
            }
            1 => {
                b.arg("--perm", s.root.join("missing.perm"));
                b.defect(&["--perm", "missing.perm"]);
            }
            _ => {
                b.arg("--width", "0");
                // (`prove switch` takes `--width` as an alias of `--w`.)
                b.defect(&[
                    "--width",
                    "width",
                    "--payload-bits",
                    "--message-bits",
                    "--k",
                    "--w ",
                ]);
            }
        }
    }
    CliCase {
        cmd,
        argv: b.argv,
        hints: b.hints,
        defects: b.defects,
        out,
    }
}

/// `generate selftest [hypercube | min]`: the family's flags (the self-test's limits:
/// messages of at most 32 bits, R1/R2 only, a MIN of m ≤ 7), then the self-test's own:
/// seed, report interval, clock and baud rate, LED polarity, the hidden fault. `--run`
/// (a Verilator build) is only ever given below `--report-every`, which refuses it before
/// anything is written.
fn selftest_args(
    b: &mut Builder,
    s: &Scratch,
    case_dir: &Path,
    seeds: &[String],
    cmd: &str,
    out: &mut Option<OutPath>,
) {
    let msg = |v| (1..=32).contains(&v);
    let key = match cmd {
        "generate selftest hypercube" => {
            b.number("--k", "2", |v| (1..=12).contains(&v), &["k", "--k"]);
            b.number("--payload-bits", "4", msg, &["payload", "--payload-bits"]);
            b.choice("--algorithm", &["semi", "full"]);
            let semi = b.argv.iter().any(|a| a.to_str() == Some("semi"))
                || b.argv
                    .iter()
                    .any(|a| a.to_str() == Some("--algorithm=semi"));
            let router = if b.hit(b.rate / 5) {
                let v = b.g.pick_str(&["quadratic", "quadratic-sort"]);
                b.arg("--router", v);
                b.defect(&["have no self-test"]);
                "overlapped"
            } else if b.g.chance(50) {
                let v = b.g.pick_str(&["overlapped", "sequential", "sort"]);
                b.arg("--router", v);
                v
            } else {
                "overlapped"
            };
            if semi && router != "overlapped" {
                b.defect(&["applies to --algorithm full only"]);
            }
            format!(
                "generate selftest cube {} {router}",
                if semi { "semi" } else { "full" }
            )
        }
        "generate selftest min" => {
            let net = if b.hit(b.rate / 4) {
                b.defect(&["--network"]);
                "butterfly"
            } else {
                *b.g.pick(&["baseline", "omega", "cube"])
            };
            b.arg("--network", net);
            b.number("--m", "2", |v| (1..=7).contains(&v), &["m", "--m"]);
            b.number("--message-bits", "4", msg, &["--message-bits", "B"]);
            format!("generate selftest min {net}")
        }
        _ => {
            topology_args(b, s, seeds, true);
            if b.hit(b.rate / 5) {
                b.arg("--algorithm", "r3");
                b.defect(&["R3"]);
            } else {
                b.choice("--algorithm", &["r1", "r2"]);
            }
            b.choice("--arbiter", &["fixed", "round-robin", "random"]);
            b.number(
                "--message-bits",
                "4",
                msg,
                &["message", "M", "--message-bits"],
            );
            cmd.to_string()
        }
    };
    let u32_ok = |v| (1..=u128::from(u32::MAX)).contains(&v);
    b.extreme(
        "--lfsr-seed",
        &["1", "4294967295"],
        "7",
        u32_ok,
        &["--lfsr-seed"],
    );
    b.number("--report-every", "10", u32_ok, &["--report-every"]);
    // Supersets of what the command accepts (the divisor must be 2 … 2^24 clocks and
    // within 2 % of the baud rate).
    if b.g.chance(50) {
        let ok = |v| (200_000..=2_000_000_000_000).contains(&v);
        b.number("--clock-hz", "12000000", ok, &["--clock-hz"]);
    }
    if b.g.chance(50) {
        let ok = |v| (1..=6_000_000).contains(&v);
        b.number("--baud", "115200", ok, &["--baud"]);
    }
    if b.g.chance(30) {
        b.flag("--active-low-leds");
    }
    if b.g.chance(20) {
        b.flag("--inject-fault");
    }
    if b.hit(b.rate / 5) {
        // Below --report-every (10 or more when accepted): refused before any build.
        let v = *b.g.pick(&["0", "1", "9"]);
        b.arg("--run", v);
        b.defect(&["--run"]);
    }
    let o = out_dir(b, s, &key, case_dir);
    b.arg("-o", &o.path);
    *out = Some(o);
    if b.g.chance(50) {
        b.flag("--json");
    }
}

/// `bench routing`: sweep selection, sample counts and bit-time parameters, each at and
/// past its limit (the sweep itself never runs: the command is in [`builds`]).
fn bench_routing_args(b: &mut Builder, s: &Scratch, case_dir: &Path, out: &mut Option<OutPath>) {
    if b.hit(b.rate / 4) {
        let v = b.g.pick_str(&["cube", "tree,", "tree;cb"]);
        b.arg("--topology", v);
        b.defect(&["--topology"]);
    } else if b.g.chance(50) {
        let t = b.g.pick_str(&["tree", "cb", "tree,cb"]);
        b.arg("--topology", t);
    }
    if b.hit(b.rate / 3) {
        let v =
            b.g.pick_str(&["3:2", "2:2", "0:1", "2", "a:b", "4:0", ":", "2:1:1"]);
        b.arg("--du", v);
        // 3:2 and 2:2 are valid CB-LCANs but no T-LCANs: refused only with the tree kind.
        b.defect(&["--du", "D:U", "d ≥ 2"]);
        if v == "2:2" || v == "3:2" {
            b.arg("--topology", "tree");
        }
    } else if b.g.chance(40) {
        let v = b.g.pick_str(&["2:1", "4:2"]);
        b.arg("--du", v);
        b.arg("--topology", "tree");
    }
    let n = |v: u128| (1..=16_384).contains(&v);
    b.number("--n-max", "64", n, &["--n-max", "n-min", "limit"]);
    if b.g.chance(30) {
        b.number(
            "--n-min",
            "16",
            |v| (1..=64).contains(&v),
            &["--n-min", "n-max"],
        );
    }
    b.choice("--arbiter", &["fixed", "round-robin", "random"]);
    if b.hit(b.rate / 5) {
        let v = b.g.pick_str(&["r4", "r1,,r2", "R 3", "none"]);
        b.arg("--algorithms", v);
        b.defect(&["--algorithms", "algorithm"]);
    } else if b.g.chance(50) {
        let v = b.g.pick_str(&["r1", "r2,r3", "r1,r2,r3"]);
        b.arg("--algorithms", v);
    }
    let samples = |v: u128| (1..=100_000).contains(&v);
    b.number("--perms", "3", samples, &["--perms"]);
    b.number("--worst", "1", |v| v <= 100_000, &["--worst"]);
    b.number("--jobs", "1", |v| (1..=1024).contains(&v), &["--jobs"]);
    b.number(
        "--message-bits",
        "8",
        |v| (1..=64).contains(&v),
        &["--message-bits", "message", "M"],
    );
    b.number(
        "--width",
        "1",
        |v| (1..=16).contains(&v),
        &["--width", "width", "W"],
    );
    if b.g.chance(20) {
        b.flag("--quick");
    }
    let o = out_dir(b, s, "bench routing", case_dir);
    b.arg("--out", &o.path);
    *out = Some(o);
}

/// `bench all-to-all`: sizes, message bits, limits of co-simulation and synthesis,
/// selections, threads and the output directory (never run: the command is in
/// [`builds`]).
fn bench_all_to_all_args(b: &mut Builder, s: &Scratch, case_dir: &Path, out: &mut Option<OutPath>) {
    if b.hit(b.rate / 2) {
        let v = b.g.pick_str(&[
            "3",
            "0",
            "1",
            "8192",
            "64..8",
            "8..",
            "..8",
            "8...16",
            "8,,16",
            "x",
            "-8",
            "18446744073709551616",
            "8..2^10",
            "",
        ]);
        b.arg("--n", v);
        b.defect(&["--n", &format!("'{v}'")]);
    } else {
        let v = b.g.pick_str(&["4", "2..4", "4,2"]);
        b.arg("--n", v);
    }
    b.number(
        "--message-bits",
        "4",
        |v| (1..=64).contains(&v),
        &["--message-bits"],
    );
    b.number("--cosim-max-n", "4", |v| v <= 64, &["--cosim-max-n"]);
    b.number("--synth-max-n", "0", |v| v <= 2048, &["--synth-max-n"]);
    b.number("--jobs", "1", |v| (1..=256).contains(&v), &["--jobs"]);
    b.extreme(
        "--seed",
        &["0", "18446744073709551615"],
        "5",
        |v| v <= u128::from(u64::MAX),
        &["--seed"],
    );
    // The families of the networks chosen (None: no --networks, every family).
    let mut families: Option<&[&str]> = None;
    if b.hit(b.rate / 4) {
        let v =
            b.g.pick_str(&["butterfly", "CB(2,", "", ",", "omega,benes", "T(3,1)"]);
        b.arg("--networks", v);
        b.defect(&["--networks"]);
    } else if b.g.chance(50) {
        let (v, f): (&str, &[&str]) = *b.g.pick(&[
            ("omega", &["min"][..]),
            ("CB(2,2),hypercube", &["lcan", "hypercube"][..]),
            ("cb22, T-2-1", &["lcan"][..]),
            ("Reverse_Cube", &["min"][..]),
        ]);
        b.arg("--networks", v);
        families = Some(f);
    }
    if b.hit(b.rate / 5) {
        let v = b.g.pick_str(&["mesh", "min,,lcan", "MIN;lcan"]);
        b.arg("--families", v);
        b.defect(&["--families"]);
    } else if b.g.chance(40) {
        let v =
            b.g.pick_str(&["min", "lcan,hypercube", "min,lcan,hypercube"]);
        b.arg("--families", v);
        if families.is_some_and(|f| !f.iter().any(|x| v.split(',').any(|y| y == *x))) {
            b.defect(&["select no network together"]);
        }
        families = Some(&[]);
    }
    if b.hit(b.rate / 5) {
        let v = b.g.pick_str(&["r4", "R 1", "atape,,r1", "alg3"]);
        b.arg("--algorithms", v);
        b.defect(&["--algorithms"]);
    } else if families.is_none() && b.g.chance(30) {
        // Alone (no --networks, no --families), any algorithm selects some network.
        let v = b.g.pick_str(&["atape", "R3,alg1", "r1,r2,alg2"]);
        b.arg("--algorithms", v);
    }
    if b.g.chance(70) {
        let o = out_dir(b, s, "bench all-to-all", case_dir);
        b.arg("--out", &o.path);
        *out = Some(o);
    }
}

/// A range of cube dimensions `A..B` (or `A`) for `flag`: valid, or one past a limit,
/// reversed, empty or malformed.
fn k_range(b: &mut Builder, flag: &str, valid: &'static str) {
    if b.hit(b.rate / 3) {
        let v = b.g.pick_str(&[
            "0",
            "13",
            "3..2",
            "0..4",
            "2..13",
            "x",
            "1..",
            "..3",
            "",
            " ",
            "2...3",
            "2..x",
            "18446744073709551616",
            "-1..2",
            "٣",
        ]);
        b.arg(flag, v);
        // `-1..2` reads as a flag of its own.
        b.defect(&[flag, "cube dimension", "unexpected argument"]);
    } else if b.g.chance(50) {
        b.arg(flag, valid);
    }
}

/// `bench hypercube`: the k ranges, payload, routers, co-simulation bound and output
/// directory (the bench itself never runs: the command is in [`builds`]).
fn bench_hypercube_args(b: &mut Builder, s: &Scratch, case_dir: &Path, out: &mut Option<OutPath>) {
    k_range(b, "--k", "1..2");
    b.number(
        "--payload-bits",
        "4",
        |v| (1..=64).contains(&v),
        &["payload", "--payload-bits"],
    );
    if b.hit(b.rate / 5) {
        let v =
            b.g.pick_str(&["quad", "sort,,overlapped", "Sort", "all", ""]);
        b.arg("--routers", v);
        b.defect(&["--routers"]);
    } else if b.g.chance(50) {
        let v =
            b.g.pick_str(&["sort", "overlapped,sequential", "quadratic,quadratic-sort"]);
        b.arg("--routers", v);
    }
    b.number(
        "--cosim-max-k",
        "2",
        |v| v <= 12,
        &["--cosim-max-k", "cosim-max-k"],
    );
    b.number(
        "--quad-max-k",
        "2",
        |v| v <= 12,
        &["--quad-max-k", "quad-max-k"],
    );
    b.number(
        "--batches",
        "2",
        |v| (1..=255).contains(&v),
        &["--batches", "batches"],
    );
    if b.g.chance(30) {
        b.flag("--yosys");
        k_range(b, "--yosys-k", "2");
    }
    if b.g.chance(50) {
        let o = out_dir(b, s, "bench hypercube", case_dir);
        b.arg("--out", &o.path);
        *out = Some(o);
    }
}

/// `sweep`: size bounds, sample counts, selections, shards and the output file (the sweep
/// itself never runs: the command is in [`builds`]).
fn sweep_args(b: &mut Builder, s: &Scratch, case_dir: &Path, out: &mut Option<OutPath>) {
    b.number("--max-n", "4", |v| (2..=1024).contains(&v), &["--max-n"]);
    b.number("--perms", "2", |v| (1..=100_000).contains(&v), &["--perms"]);
    if b.g.chance(30) {
        let any = |v| (1..=u128::from(u64::MAX)).contains(&v);
        b.number("--max-switches", "64", any, &["--max-switches"]);
    }
    if b.hit(b.rate / 4) {
        let v = b.g.pick_str(&["r9", "r1,,r2", "", "R 1"]);
        b.arg("--algorithms", v);
        b.defect(&["--algorithms", "algorithm"]);
    }
    b.choice(
        "--arbiters",
        &["fixed", "round-robin", "random", "fixed,random"],
    );
    if b.hit(b.rate / 3) {
        let v =
            b.g.pick_str(&["3/3", "0/0", "1", "a/b", "-1/2", "18446744073709551616/2"]);
        b.arg("--shard", v);
        b.defect(&["--shard", "shard", "unexpected argument"]);
    } else if b.g.chance(30) {
        b.arg("--shard", "1/7");
    }
    b.number("--width", "1", |v| (1..=16).contains(&v), &["--width"]);
    b.number(
        "--message-bits",
        "8",
        |v| (1..=64).contains(&v),
        &["--message-bits"],
    );
    let o = out_file(b, s, case_dir, "jsonl");
    b.arg("--out", &o.path);
    *out = Some(o);
}

/// Record lines of the `--max-n 4` list with 2 permutations each, for `--report` and
/// `--resume`. Valid records name their configuration right and carry no digest or a
/// made-up one (stale: read, never counted); a defect is a line that is not a record, a
/// configuration that does not exist or is not the one at its index, another permutation
/// count or seed, an inconsistent match count, or bytes that are not UTF-8.
struct Records {
    lines: Vec<String>,
    /// The file's bytes, if they are not the lines (the not-UTF-8 defect).
    bytes: Option<Vec<u8>>,
    seed: u64,
}

impl Records {
    fn generate(b: &mut Builder) -> Records {
        use crate::cli::sweep::configs::{configs, hardware_algorithms, shapes};
        use lcanet_sim::lcan::cycle::ArbiterPolicy;
        let list = configs(
            &shapes(4, 4096, 1, 8).keep,
            &hardware_algorithms(),
            &[
                ArbiterPolicy::Fixed,
                ArbiterPolicy::RoundRobin,
                ArbiterPolicy::Random,
            ],
        );
        let seed = b.g.next() % 1000;
        let record = |g: &mut Gen, i: usize| -> serde_json::Value {
            let c = &list[i];
            let mut r = serde_json::json!({
                "index": c.index, "topology": c.shape.kind_name(), "d": c.shape.d,
                "u": c.shape.u, "levels": c.shape.levels, "algorithm": c.algorithm.name(),
                "arbiter": c.policy_name(), "width": 1, "message_bits": 8, "seed": seed,
                "perms": 2, "matched": 2, "match": true, "build_seconds": 1.5,
                "run_seconds": 0.25,
            });
            if g.chance(70) {
                r["rtl"] = serde_json::Value::String(format!("{:016x}", g.next()));
            }
            r
        };
        let mut lines: Vec<String> = (0..b.g.below(6))
            .map(|_| {
                let i = b.g.below(list.len());
                record(b.g, i).to_string()
            })
            .collect();
        let mut bytes: Option<Vec<u8>> = None;
        if b.hit(b.rate) {
            let i = b.g.below(list.len());
            let mut r = record(b.g, i);
            let at = b.g.below(lines.len() + 1);
            match b.g.below(9) {
                0 => {
                    let bad = b.g.pick_str(&[
                        "{",
                        "null",
                        "[]",
                        "{\"index\": -1}",
                        "{\"index\": 3}",
                        "\u{0}",
                        "{\"index\": 18446744073709551616}",
                    ]);
                    lines.insert(at, bad.to_string());
                    b.defect(&["not a sweep record"]);
                }
                1 => {
                    let text = r.to_string();
                    let cut = 1 + b.g.below(text.len() - 1);
                    lines.insert(at, text[..cut].to_string());
                    b.defect(&["not a sweep record"]);
                }
                2 => {
                    r["d"] = serde_json::Value::String("two".into());
                    lines.insert(at, r.to_string());
                    b.defect(&["not a sweep record"]);
                }
                3 => {
                    let past = list.len() + b.g.below(1 << 20);
                    r["index"] = serde_json::Value::from(past);
                    lines.insert(at, r.to_string());
                    b.defect(&["does not exist"]);
                }
                4 => {
                    match b.g.below(4) {
                        0 => r["d"] = serde_json::Value::from(r["d"].as_u64().unwrap_or(0) + 1),
                        1 => r["algorithm"] = serde_json::Value::String("r9".into()),
                        2 => r["arbiter"] = serde_json::Value::String("lottery".into()),
                        _ => r["width"] = serde_json::Value::from(2),
                    }
                    lines.insert(at, r.to_string());
                    b.defect(&["other flags"]);
                }
                5 => {
                    r["perms"] = serde_json::Value::from(3);
                    r["matched"] = serde_json::Value::from(3);
                    lines.insert(at, r.to_string());
                    b.defect(&["--perms says 2"]);
                }
                6 => {
                    // Another seed than the first record's (or than --seed, if given).
                    r["seed"] = serde_json::Value::from(seed + 1);
                    lines.insert(at, r.to_string());
                    if lines.len() == 1 {
                        lines.push(record(b.g, i).to_string());
                    }
                    b.defect(&["share one seed"]);
                }
                7 => {
                    if b.g.chance(50) {
                        r["matched"] = serde_json::Value::from(3);
                    } else {
                        r["match"] = serde_json::Value::Bool(false);
                    }
                    lines.insert(at, r.to_string());
                    b.defect(&["inconsistent"]);
                }
                _ => {
                    let mut text = lines.join("\n").into_bytes();
                    text.extend_from_slice(&[b'\n', 0xff, 0xfe, b'{', 0xc3]);
                    bytes = Some(text);
                    b.defect(&["reading it"]);
                }
            }
        }
        Records { lines, bytes, seed }
    }

    /// The file's bytes: the lines, each ended by a newline.
    fn bytes(&self) -> Vec<u8> {
        self.bytes.clone().unwrap_or_else(|| {
            let mut text = self.lines.join("\n");
            if !text.is_empty() {
                text.push('\n');
            }
            text.into_bytes()
        })
    }

    /// `--seed`, sometimes: the records' own or (a defect, if there are records) another.
    fn seed_flag(&self, b: &mut Builder) {
        if b.g.chance(20) {
            // With no record, nothing disagrees with it.
            if !self.lines.is_empty() && b.hit(b.rate / 3) {
                b.arg("--seed", (self.seed + 7).to_string());
                b.defect(&["share one seed", "--seed says"]);
            } else {
                b.arg("--seed", self.seed.to_string());
            }
        }
    }
}

/// `sweep --resume --out FILE` with a journal (`.FILE.partial`) of generated records in the
/// existing output directory: a command that builds, so only ever refused inputs (the
/// journal's defects, or one added before any build). The checks see that the journal
/// is left as it was and no records file appears.
fn resume_args(b: &mut Builder, s: &Scratch) {
    let records = Records::generate(b);
    let out = s.existing().join("j.jsonl");
    std::fs::write(s.existing().join(".j.jsonl.partial"), records.bytes())
        .expect("the scratch directory is writable");
    b.arg("--max-n", "4");
    b.arg("--perms", "2");
    records.seed_flag(b);
    b.arg("--out", out);
    if b.g.chance(50) {
        b.flag("--json");
    }
}

/// `sweep --submit slurm --results DIR`, DIR holding generated records as the one shard of
/// `--shards 1`, with the scheduler's flags each at and past its limit: a command that
/// submits jobs, so only ever refused inputs (the records' defects, a flag's, or a
/// records file that is not a shard's), refused before any Slurm command runs.
fn submit_args(b: &mut Builder, s: &Scratch) {
    // The command line so far ends in `--submit`.
    b.argv.push("slurm".into());
    let records = Records::generate(b);
    let dir = s.root.join("inputs").join("results");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the scratch directory is writable");
    std::fs::write(dir.join("shard-000.jsonl"), records.bytes())
        .expect("the scratch directory is writable");
    if b.hit(b.rate / 5) {
        std::fs::write(dir.join("shard-7.jsonl"), b"").expect("the scratch directory is writable");
        b.defect(&["shard-7.jsonl", "not a shard file"]);
    }
    b.arg("--max-n", "4");
    b.arg("--perms", "2");
    records.seed_flag(b);
    if b.hit(b.rate / 6) {
        b.arg("--results", dir.join("shard-000.jsonl"));
        b.defect(&["--results", "not a directory"]);
    } else {
        b.arg("--results", &dir);
    }
    // 483 configurations with n ≤ 4: so many shards at most; the records are all shard 0
    // of 1.
    b.number("--shards", "1", |v| (1..=483).contains(&v), &["--shards"]);
    let any = |v: u128| (1..=u128::from(u64::MAX)).contains(&v);
    b.number("--cpus", "1", |v| (1..=1024).contains(&v), &["--cpus"]);
    b.number(
        "--mem",
        "1024",
        |v| (64..=u128::from(u64::MAX)).contains(&v),
        &["--mem"],
    );
    b.number("--time", "30", any, &["--time"]);
    b.number("--max-running", "4", any, &["--max-running"]);
    if b.hit(b.rate / 5) {
        let (flag, v, hint) = *b.g.pick(&[
            ("--partition", "a b", "--partition"),
            ("--partition", "x;rm", "--partition"),
            ("--scratch", "relative/dir", "absolute"),
            ("--cache-dir", "cache", "absolute"),
            // clap's own refusal: "a value is required for '--cache-dir <DIR>'".
            ("--cache-dir", "", "--cache-dir"),
        ]);
        b.arg(flag, v);
        b.defect(&[hint]);
    }
    if b.g.chance(50) {
        b.flag("--dry-run");
    }
    if b.g.chance(50) {
        b.flag("--json");
    }
}

/// `sweep --report FILE…` (runs nothing, so valid inputs run too): record files of
/// [`Records`], or paths that hold none, or a flag `--report` excludes.
fn report_args(b: &mut Builder, s: &Scratch) {
    let clean = b.defects;
    let records = Records::generate(b);
    let mut path: Option<PathBuf> = None;
    if b.defects > clean {
        // The defect is in the records.
    } else if b.g.chance(5) {
        path = Some(s.root.join("missing.jsonl"));
        b.defect(&["no such file or directory", "missing.jsonl"]);
    } else if b.g.chance(5) {
        // A directory without records.
        let empty = s.root.join("inputs").join("no-records");
        let _ = std::fs::create_dir_all(&empty);
        path = Some(empty);
        b.defect(&["no *.jsonl files"]);
    }
    let path = path.unwrap_or_else(|| s.input_bytes("r.jsonl", &records.bytes()));
    b.argv.push(path.into());
    b.number("--max-n", "4", |v| (2..=1024).contains(&v), &["--max-n"]);
    b.number("--perms", "2", |v| (1..=100_000).contains(&v), &["--perms"]);
    records.seed_flag(b);
    if b.hit(b.rate / 5) {
        let (flag, value) =
            *b.g.pick(&[("--out", "x.jsonl"), ("--list", ""), ("--inject-fault", "")]);
        if value.is_empty() {
            b.flag(flag);
        } else {
            b.arg(flag, value);
        }
        b.defect(&["cannot be used with", flag]);
    }
    if b.g.chance(50) {
        b.flag("--json");
    }
}

/// `prove switch|matrix`: switch shape, proof options and the kept directory (Yosys itself
/// never runs: the command is in [`builds`]).
fn prove_args(b: &mut Builder, s: &Scratch, cmd: &str, case_dir: &Path, out: &mut Option<OutPath>) {
    if cmd == "prove switch" {
        let sw = |v: u128| (1..=16).contains(&v);
        b.number("--d", "4", |v| (2..=16).contains(&v), &["d", "--d"]);
        b.number("--u", "2", sw, &["u", "--u"]);
        b.number("--w", "1", sw, &["width", "--w"]);
        b.choice("--topology", &["tree", "cb"]);
        if b.hit(b.rate / 4) {
            // A tree switch needs d to be a multiple of u.
            b.arg("--d", "3");
            b.arg("--u", "2");
            b.arg("--topology", "tree");
            b.defect(&["multiple", "--d", "--u", "--topology"]);
        }
    }
    if cmd == "prove switch" {
        b.number(
            "--levels",
            "2",
            |v| (1..=16).contains(&v),
            &["levels", "--levels"],
        );
        b.choice("--policy", &["fixed", "round-robin", "random"]);
    } else {
        // The matrix takes slices of its rows, never a switch shape.
        b.choice("--slice", &["smoke"]);
        b.choice("--variant", &["sequential", "levels,fast", "pi", "r3"]);
        b.choice("--policy", &["fixed", "round-robin,random"]);
    }
    if b.hit(b.rate / 3) {
        let v = b.g.pick_str(&["P7", "p1;P2", "", "P 1", "all"]);
        b.arg("--property", v);
        b.defect(&["--property", "property"]);
    } else if b.g.chance(30) {
        b.arg("--property", "P1,P4");
    }
    b.number("--max-k", "1", |v| (1..=64).contains(&v), &["--max-k"]);
    if b.g.chance(40) {
        b.number(
            "--bmc-depth",
            "30",
            |v| (1..=4096).contains(&v),
            &["--bmc-depth"],
        );
    }
    b.number(
        "--timeout",
        "60",
        |v| (1..=86_400).contains(&v),
        &["--timeout"],
    );
    if b.g.chance(50) {
        let o = out_dir(b, s, cmd, case_dir);
        b.arg("--keep", &o.path);
        *out = Some(o);
    }
}
