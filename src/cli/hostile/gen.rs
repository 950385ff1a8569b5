//! Hostile-input generators: a seeded SplitMix64, hostile numbers and tokens, and
//! permutation and Π file texts (valid, mutated, hostile headers).

use super::*;

/// SplitMix64: small, seedable, dependency-free.
pub(super) struct Gen(pub(super) u64);

impl Gen {
    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub(super) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    pub(super) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    pub(super) fn pick_str(&mut self, items: &[&'static str]) -> &'static str {
        items[self.below(items.len())]
    }
}

/// Numbers at and past every limit, and strings that are not numbers.
pub(super) const HOSTILE_NUMBERS: &[&str] = &[
    "0",
    "1",
    "13",
    "17",
    "32",
    "33",
    "64",
    "65",
    "4097",
    "1048576",
    "1048577",
    "2097153",
    "4294967296",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "-1",
    "-0",
    "+3",
    "3.0",
    "1e3",
    "0x10",
    "",
    " 3",
    "abc",
    "٣",
    "３",
    "NaN",
    "\u{202e}2",
];

/// Tokens for permutation files.
pub(super) const HOSTILE_TOKENS: &[&str] = &[
    "-",
    "--",
    "-1",
    "−1",
    "+1",
    "1.0",
    "1e2",
    "0x1",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999",
    "٣",
    "３",
    "𝟘",
    "\u{0}",
    "#",
    "3#x",
    "a",
    "NaN",
    "4294967296",
    "0",
];

pub(super) const SEPARATORS: &[&str] = &[
    " ", " ", "\n", "\t", "\r\n", "  ", "\u{a0}", "\u{3000}", "\u{b}", "\u{c}", "\r",
];

/// The contents of a permutation file for `n` PEs, valid or (usually) not.
pub(super) fn perm_text(g: &mut Gen, n: usize) -> String {
    match g.below(20) {
        0 => {
            // Raw bytes, read as the CLI reads them would refuse non-UTF-8 earlier.
            let len = g.below(64);
            let bytes: Vec<u8> = (0..len).map(|_| g.next() as u8).collect();
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        1 => return "#".repeat(g.below(3)) + &"9".repeat(g.below(400)),
        2 => {
            // Far too many tokens.
            let extra = n + 1 + g.below(3 * n + 2);
            return (0..extra)
                .map(|i| (i % n.max(1)).to_string() + " ")
                .collect();
        }
        _ => {}
    }
    let mut toks: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    for i in (1..toks.len()).rev() {
        let j = g.below(i + 1);
        toks.swap(i, j);
    }
    if g.chance(30) {
        for t in toks.iter_mut() {
            if g.chance(20) {
                *t = "-".into();
            }
        }
    }
    for _ in 0..g.below(4) {
        if toks.is_empty() {
            toks.push(g.pick(HOSTILE_TOKENS).to_string());
            continue;
        }
        let i = g.below(toks.len());
        match g.below(6) {
            0 => toks[i] = g.pick(HOSTILE_TOKENS).to_string(),
            1 => {
                let t = toks[i].clone();
                toks.insert(g.below(toks.len() + 1), t);
            }
            2 => {
                toks.remove(i);
            }
            3 => toks.insert(i, g.pick(HOSTILE_TOKENS).to_string()),
            4 => {
                let j = g.below(toks.len());
                toks[i] = toks[j].clone();
            }
            _ => toks[i] = format!("{} # {}", toks[i], g.pick(HOSTILE_TOKENS)) + "\n",
        }
    }
    let mut s = String::new();
    for t in toks {
        s.push_str(&t);
        s.push_str(g.pick_str(SEPARATORS));
    }
    s
}

/// Small valid networks whose Π files are mutated.
pub(super) fn pi_seeds() -> Vec<Topology> {
    vec![
        Topology::tree(2, 1, Size::Levels(2)).unwrap(),
        Topology::tree(4, 2, Size::Levels(2)).unwrap(),
        Topology::tree(4, 2, Size::Levels(3)).unwrap(),
        Topology::complete_bipartite(2, 2, Size::Levels(2)).unwrap(),
        Topology::complete_bipartite(2, 2, Size::Levels(3)).unwrap(),
        Topology::complete_bipartite(3, 3, Size::Levels(2)).unwrap(),
        // Switch sizes that vary by level: headers with d and u lists.
        Topology::complete_bipartite_per_level(&[4, 2], &[2, 4]).unwrap(),
        Topology::tree_per_level(&[2, 4, 8], &[2, 4, 8]).unwrap(),
    ]
}

/// The contents of a Π file, valid or (usually) not.
pub(super) fn pi_text(g: &mut Gen, seeds: &[String]) -> String {
    if g.chance(10) {
        // A header alone, with hostile values: sizes that would not fit in memory.
        let mut s = String::from("lcan");
        for key in ["d", "u", "levels", "n", "x"] {
            if g.chance(85) || key == "x" && g.chance(10) {
                let v = if (key == "d" || key == "u") && g.chance(30) {
                    // A per-level list: lengths that disagree with levels, empty and
                    // hostile entries, more entries than levels can have.
                    g.pick(&[
                        "4,4",
                        "2,2,2",
                        "4,,2",
                        "2,0,2",
                        "2,99",
                        "18446744073709551616,2",
                        "2,-1",
                        ",",
                        "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2",
                    ])
                    .to_string()
                } else if g.chance(50) {
                    g.pick(HOSTILE_NUMBERS).to_string()
                } else {
                    g.pick(&["2", "4", "8", "32", "64", "1024", "1025"])
                        .to_string()
                };
                s += &format!(" {key}={v}");
            }
        }
        s.push('\n');
        if g.chance(50) {
            s += "level 0\n0.0 -> 0.0\n";
        }
        return s;
    }
    let base = g.pick(seeds).clone();
    let mut lines: Vec<String> = base.lines().map(str::to_string).collect();
    for _ in 0..1 + g.below(3) {
        if lines.is_empty() {
            break;
        }
        let i = g.below(lines.len());
        match g.below(9) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(g.below(lines.len() + 1), l);
            }
            2 => {
                let j = g.below(lines.len());
                lines.swap(i, j);
            }
            3 | 4 => {
                // Replace one number in the line by a hostile one.
                let line = lines[i].clone();
                let digits: Vec<usize> = line
                    .char_indices()
                    .filter(|(_, c)| c.is_ascii_digit())
                    .map(|(k, _)| k)
                    .collect();
                if let Some(&k) = digits.get(g.below(digits.len().max(1))) {
                    let end = line[k..]
                        .find(|c: char| !c.is_ascii_digit())
                        .map_or(line.len(), |e| k + e);
                    lines[i] = format!("{}{}{}", &line[..k], g.pick(HOSTILE_NUMBERS), &line[end..]);
                }
            }
            5 => lines[i] = lines[i].replace("->", g.pick_str(&["=>", "-", "", "->->", " -> "])),
            6 => lines.insert(
                i,
                g.pick(&[
                    "level",
                    "level 99",
                    "level -1",
                    "lcan d=2 u=2 levels=2 n=4",
                    "0.0",
                    "0.0 -> 0.0 -> 0.0",
                    "0. -> .0",
                    "garbage",
                    "\u{feff}level 0",
                    "# comment",
                    "",
                ])
                .to_string(),
            ),
            7 => lines[i] = lines[i].replace('.', g.pick_str(&[",", "..", ""])),
            _ => lines[i] = lines[i].replace('=', g.pick_str(&["==", " = ", ":"])),
        }
    }
    lines.join(g.pick_str(&["\n", "\r\n", "\n\n"]))
}
