//! The Π file: a general level interconnect, read and written (format in
//! `docs/pi-file.md`).
//!
//! ```text
//! # comment
//! lcan d=2 u=2 levels=3 n=8
//! level 0
//! 0.0 -> 0.0     # upper 0 of level-0 switch 0 meets downer 0 of level-1 switch 0
//! …
//! level 1
//! …
//! ```
//!
//! The header's `d` and `u` are one number (every level) or a comma-separated list of one
//! per level, level 0 first (`lcan d=4,4,4 u=2,2,4 levels=3 n=64`): switch sizes that
//! vary by level (002 §2.2).
//!
//! Validation (002 Definition 1): every `S_i = S_{i-1}·u_{i-1}/d_i` is an integer, each
//! level's map from uppers to downers is one-to-one and onto (no connector used twice, none
//! unused), and every two PEs are connected. Errors carry the 1-based line number.

use super::build::{check_ports, check_shapes};
use super::error::{TopologyError, MAX_LEVELS, MAX_PI_PES, MAX_PI_SWITCHES};
use super::reach::Reach;
use super::topology::{Kind, Topology};

fn err(line: usize, message: impl Into<String>) -> TopologyError {
    TopologyError::PiFile {
        line,
        message: message.into(),
    }
}

/// Parses `"a.b"` into two numbers.
fn pair(tok: &str, line: usize, what: &str) -> Result<(usize, usize), TopologyError> {
    let bad = || {
        err(
            line,
            format!("'{tok}' is not {what} written SWITCH.PORT (two non-negative integers)"),
        )
    };
    let (a, b) = tok.split_once('.').ok_or_else(bad)?;
    Ok((a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?))
}

/// The header line `lcan d=D u=U levels=L n=N`: the raw values of `d`, `u`, `levels`, `n`.
fn header<'a>(words: &[&'a str], line: usize) -> Result<[&'a str; 4], TopologyError> {
    let keys = ["d", "u", "levels", "n"];
    let mut vals = [None; 4];
    for w in &words[1..] {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| err(line, format!("'{w}' is not KEY=VALUE")))?;
        let i = keys.iter().position(|&key| key == k).ok_or_else(|| {
            err(
                line,
                format!("unknown key '{k}' (expected d, u, levels, n)"),
            )
        })?;
        if vals[i].replace(v).is_some() {
            return Err(err(line, format!("key '{k}' given twice")));
        }
    }
    let mut out = [""; 4];
    for i in 0..4 {
        out[i] = vals[i].ok_or_else(|| err(line, format!("the header lacks {}=…", keys[i])))?;
    }
    Ok(out)
}

/// The header once read: `d_i`, `u_i`, levels, and the switch counts `S_i`.
type Header = (Vec<usize>, Vec<usize>, usize, Vec<usize>);

/// A header number.
fn number(key: &str, v: &str, line: usize) -> Result<usize, TopologyError> {
    v.parse()
        .map_err(|_| err(line, format!("{key}={v}: not a non-negative integer")))
}

/// A header `d=` or `u=` value: one number for every level, or one per level.
fn per_level(key: &str, v: &str, levels: usize, line: usize) -> Result<Vec<usize>, TopologyError> {
    let items: Vec<&str> = v.split(',').collect();
    if items.len() == 1 {
        return Ok(vec![number(key, v, line)?; levels]);
    }
    if items.len() != levels {
        return Err(err(
            line,
            format!(
                "{key}={v} has {} entries but levels = {levels}: give one value for every level or one per level, level 0 first",
                items.len()
            ),
        ));
    }
    items
        .iter()
        .map(|x| {
            x.parse().map_err(|_| {
                err(
                    line,
                    format!("{key}={v}: '{x}' is not a non-negative integer"),
                )
            })
        })
        .collect()
}

/// `S_i` from `n`, `d_i`, `u_i` by 002 eq. (1), each checked to be an integer.
fn switch_counts(n: usize, ds: &[usize], us: &[usize]) -> Result<Vec<usize>, TopologyError> {
    let uniform = ds.iter().all(|&x| x == ds[0]) && us.iter().all(|&x| x == us[0]);
    if n == 0 || !n.is_multiple_of(ds[0]) {
        return Err(TopologyError::PesNotMultiple { n, d: ds[0] });
    }
    let mut s = vec![n / ds[0]];
    for i in 1..ds.len() {
        let (u, d) = (us[i - 1], ds[i]);
        let num = s[i - 1].saturating_mul(u);
        if !num.is_multiple_of(d) {
            return Err(if uniform {
                TopologyError::FractionalSwitches {
                    level: i,
                    prev: i - 1,
                    num,
                    den: d,
                }
            } else {
                TopologyError::FractionalSwitchesAt {
                    level: i,
                    prev: i - 1,
                    num,
                    den: d,
                }
            });
        }
        if num / d > MAX_PI_SWITCHES {
            return Err(TopologyError::TooLarge {
                what: "switches of one level of a Π file",
                value: num / d,
                limit: MAX_PI_SWITCHES,
            });
        }
        s.push(num / d);
    }
    let total: usize = s.iter().fold(0usize, |a, &x| a.saturating_add(x));
    if total > MAX_PI_SWITCHES {
        return Err(TopologyError::TooLarge {
            what: "total switches of a Π file",
            value: total,
            limit: MAX_PI_SWITCHES,
        });
    }
    Ok(s)
}

impl Topology {
    /// Reads a Π file (`docs/pi-file.md`); every error names its line.
    pub fn from_pi_text(text: &str) -> Result<Self, TopologyError> {
        let mut params: Option<Header> = None;
        let mut links: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut used_down: Vec<Vec<usize>> = Vec::new();
        let mut section: Option<usize> = None;
        let mut last_line = 0;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            last_line = line;
            let words: Vec<&str> = raw
                .split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            if words.is_empty() {
                continue;
            }
            let Some((ds, us, levels, switches)) = &params else {
                if words[0] != "lcan" {
                    return Err(err(
                        line,
                        "the first line must be the header 'lcan d=D u=U levels=L n=N'",
                    ));
                }
                let [d, u, levels, n] = header(&words, line)?;
                let levels = number("levels", levels, line)?;
                let n = number("n", n, line)?;
                if levels == 0 || levels > MAX_LEVELS {
                    return Err(err(
                        line,
                        format!("levels = {levels} is out of range 1..={MAX_LEVELS}"),
                    ));
                }
                let ds = per_level("d", d, levels, line)?;
                let us = per_level("u", u, levels, line)?;
                if !d.contains(',') && !u.contains(',') {
                    check_ports(ds[0], us[0]).map_err(|e| err(line, e.to_string()))?;
                }
                check_shapes(&ds, &us).map_err(|e| err(line, e.to_string()))?;
                if n > MAX_PI_PES {
                    return Err(err(
                        line,
                        format!("n = {n} exceeds the limit {MAX_PI_PES} for Π files"),
                    ));
                }
                let s = switch_counts(n, &ds, &us).map_err(|e| err(line, e.to_string()))?;
                links = (0..levels - 1)
                    .map(|l| vec![(u32::MAX, 0); s[l] * us[l]])
                    .collect();
                used_down = (0..levels - 1)
                    .map(|l| vec![0; s[l + 1] * ds[l + 1]])
                    .collect();
                params = Some((ds, us, levels, s));
                continue;
            };
            let levels = *levels;
            if words[0] == "level" {
                let expect = section.map_or(0, |s| s + 1);
                if let Some(s) = section {
                    check_section_complete(&links[s], us[s], s)?;
                }
                let lv: Option<usize> = words.get(1).and_then(|w| w.parse().ok());
                if words.len() != 2 || lv != Some(expect) || expect + 1 >= levels {
                    return Err(err(
                        line,
                        if expect + 1 >= levels {
                            format!(
                                "unexpected '{}': the sections are level 0..={} in order",
                                raw.trim(),
                                levels.saturating_sub(2)
                            )
                        } else {
                            format!(
                                "expected 'level {expect}' (sections come in order 0..={})",
                                levels - 2
                            )
                        },
                    ));
                }
                section = Some(expect);
                continue;
            }
            let Some(level) = section else {
                return Err(err(line, "a link line before any 'level I' section"));
            };
            if words.len() != 3 || words[1] != "->" {
                return Err(err(line, "a link line is 'SWITCH.UPPER -> SWITCH.DOWNER'"));
            }
            let (s, k) = pair(words[0], line, "an upper")?;
            let (p, x) = pair(words[2], line, "a downer")?;
            let sw = &switches;
            let (u, d) = (us[level], ds[level + 1]);
            if s >= sw[level] || k >= u {
                return Err(err(line, format!("upper {k} of level-{level} switch {s} does not exist (S_{level} = {}, u = {u})", sw[level])));
            }
            if p >= sw[level + 1] || x >= d {
                return Err(err(
                    line,
                    format!(
                        "downer {x} of level-{} switch {p} does not exist (S_{} = {}, d = {d})",
                        level + 1,
                        level + 1,
                        sw[level + 1]
                    ),
                ));
            }
            let slot = &mut links[level][s * u + k];
            if slot.0 != u32::MAX {
                return Err(err(line, format!("upper {k} of level-{level} switch {s} is connected twice (Π is one-to-one)")));
            }
            let first = &mut used_down[level][p * d + x];
            if *first != 0 {
                return Err(err(line, format!("downer {x} of level-{} switch {p} is connected twice (first on line {}; Π is one-to-one)", level + 1, *first)));
            }
            *first = line;
            *slot = (p as u32, x as u32);
        }
        let Some((ds, us, levels, switches)) = params else {
            return Err(err(
                last_line.max(1),
                "no header 'lcan d=D u=U levels=L n=N' found",
            ));
        };
        if let Some(s) = section {
            check_section_complete(&links[s], us[s], s)?;
        }
        let done = section.map_or(0, |s| s + 1);
        if done + 1 < levels {
            return Err(TopologyError::UnusedConnector {
                what: format!(
                    "every upper of level {done} (the file has no 'level {done}' section)"
                ),
            });
        }
        let mut topo = Topology::from_parts(Kind::File, ds, us, switches, &links);
        topo.reach = Some(Box::new(Reach::build(&topo)?));
        Ok(topo)
    }

    /// Writes this network's Π in the file format (any kind; a T- or CB-LCAN written
    /// out reads back as an equivalent `File` topology). `d` and `u` are single numbers
    /// when every level has the same switches, else one per level.
    pub fn to_pi_text(&self) -> String {
        let (d, u) = match self.uniform() {
            Some((d, u)) => (d.to_string(), u.to_string()),
            None => (join(&self.ds), join(&self.us)),
        };
        let mut s = format!(
            "# LCAN(d={d}, u={u}, l={}) with {} PEs, Π = {}\nlcan d={d} u={u} levels={} n={}\n",
            self.levels(),
            self.n,
            self.kind.name(),
            self.levels(),
            self.n
        );
        for level in 0..self.levels().saturating_sub(1) {
            s.push_str(&format!("level {level}\n"));
            for sw in 0..self.switch_count(level) {
                for k in 0..self.us[level] {
                    if let Some((p, x)) = self.up_link(level, sw, k) {
                        s.push_str(&format!("{sw}.{k} -> {p}.{x}\n"));
                    }
                }
            }
        }
        s
    }
}

/// `4,4,2`.
fn join(values: &[usize]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Every upper of a finished section must have a line.
fn check_section_complete(
    links: &[(u32, u32)],
    u: usize,
    level: usize,
) -> Result<(), TopologyError> {
    if let Some(i) = links.iter().position(|l| l.0 == u32::MAX) {
        return Err(TopologyError::UnusedConnector {
            what: format!(
                "upper {} of level-{level} switch {} has no line in section 'level {level}'",
                i % u,
                i / u
            ),
        });
    }
    Ok(())
}
