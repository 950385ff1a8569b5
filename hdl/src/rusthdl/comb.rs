//! Makes rust-hdl's combinational blocks glitch-free in event-driven simulators
//! (docs/decisions/comb-blocks.md).
//!
//! rust-hdl writes a block's update code as one `always @(*)` with defaults first and
//! overrides after (`y = 1'b0; … y = x;`), so an evaluation can drive `y` 1 → 0 → 1. Icarus
//! wakes every process sensitive to `y` at each change; two blocks that read each other's
//! outputs then glitch each other forever at one time step. The rewrite: every target that
//! some path through the block assigns more than once, and that anything outside the block
//! can see (a port, or a signal used elsewhere in the module), is computed in a shadow `reg`
//! named `<target>__c`; every mention of the target inside the block becomes the shadow, and
//! the target is assigned once, from its shadow, at the end of the block. A target then
//! changes only when its final value does. Targets assigned at most once on every path
//! already do, and signals used only inside the block are watched by no other process:
//! both are left as they are.
//!
//! Reading the shadow where the target was read is exact because rust-hdl assigns every
//! target before reading it; [`stmt::check_definite_assignment`] verifies that, and that
//! every target is assigned on every path, and the import fails naming the signal if not.

use super::stmt::{self, Kind, Token};
use std::collections::{HashMap, HashSet};

/// A problem with a module's update code: 1-based line in rust-hdl's text, and what.
pub(crate) type CombIssue = (usize, String);

/// The suffix of a shadow's name: `m_up` is computed in `m_up__c`.
pub(crate) const SHADOW_SUFFIX: &str = "__c";

/// Rewrites every multi-statement `always @(*)` block of one module's body (rust-hdl's
/// lines with their numbers); the other lines are kept as they are.
pub(crate) fn shadow_comb_blocks(
    body: &[(usize, String)],
) -> Result<Vec<(usize, String)>, CombIssue> {
    let mut out = body.to_vec();
    // Later blocks first, so earlier indices stay valid while lines are inserted.
    let starts: Vec<usize> = (0..body.len())
        .filter(|&i| body[i].1.trim_start().starts_with("always @(*) begin"))
        .collect();
    for &start in starts.iter().rev() {
        rewrite_block(&mut out, start)?;
    }
    Ok(out)
}

/// Tokens of the block starting at line `start`, up to its closing `end`, with the index
/// of the line holding that `end`.
fn block_tokens(body: &[(usize, String)], start: usize) -> Result<(Vec<Token>, usize), CombIssue> {
    let mut tokens = Vec::new();
    let mut depth = 0i64;
    for (i, (number, text)) in body.iter().enumerate().skip(start) {
        let before = tokens.len();
        stmt::tokenize_line(text, i, *number, &mut tokens)?;
        for t in &tokens[before..] {
            match t.text.as_str() {
                "begin" => depth += 1,
                "end" => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 {
            return Ok((tokens, i));
        }
    }
    Err((
        body[start].0,
        "the `always @(*)` block has no closing `end`".to_owned(),
    ))
}

fn rewrite_block(body: &mut Vec<(usize, String)>, start: usize) -> Result<(), CombIssue> {
    let number = body[start].0;
    let (tokens, end_line) = block_tokens(body, start)?;
    let (block, used) = stmt::parse_always(&tokens)?;
    if used != tokens.len() {
        let t = &tokens[used];
        return Err((
            t.number,
            format!("unexpected `{}` after the block's `end`", t.text),
        ));
    }
    let closing = &tokens[used - 1];
    if closing.text != "end" || body[end_line].1[..closing.start].trim() != "" {
        return Err((
            closing.number,
            "the block's closing `end` must start its line".to_owned(),
        ));
    }
    let mut targets = Vec::new();
    stmt::targets(&block, &mut targets);
    let set: HashSet<String> = targets.iter().cloned().collect();
    stmt::check_definite_assignment(&block, &set, closing.number)?;

    let inside = start..=end_line;
    let decls = declarations(body, &inside);
    let used_outside = identifiers_outside(body, &inside, &decls);
    let counts = stmt::max_assignments(&block);
    let shadowed: Vec<&String> = targets
        .iter()
        .filter(|t| counts.get(*t).is_some_and(|&n| n > 1))
        .filter(|t| decls.get(*t).is_none_or(|d| d.port) || used_outside.contains(*t))
        .collect();
    if shadowed.is_empty() {
        return Ok(());
    }
    let taken = words(body);
    let mut shadow_decls = Vec::with_capacity(shadowed.len());
    for t in &shadowed {
        let d = decls.get(*t).ok_or_else(|| {
            (
                number,
                format!(
                    "target `{t}` of the block has no declaration of the form `reg [m:0] {t};`"
                ),
            )
        })?;
        let name = format!("{t}{SHADOW_SUFFIX}");
        if let Some(n) = taken.get(name.as_str()) {
            return Err((
                *n,
                format!("`{name}`, the shadow of `{t}`, already names something in the module"),
            ));
        }
        shadow_decls.push(format!("{}reg {}{name};", d.indent, d.shape));
    }

    // Rename the targets inside the block, right to left so byte offsets stay valid.
    let shadow: HashSet<&str> = shadowed.iter().map(|s| s.as_str()).collect();
    for t in tokens.iter().rev() {
        if t.kind == Kind::Ident && shadow.contains(t.text.as_str()) {
            body[t.line].1.insert_str(t.end, SHADOW_SUFFIX);
        }
    }
    let end_indent = &body[end_line].1[..closing.start];
    let inner = format!("{end_indent}    ");
    let mut finals = vec![(
        closing.number,
        format!("{inner}// Each target changes once, to its final value (docs/decisions/comb-blocks.md)"),
    )];
    finals.extend(
        shadowed
            .iter()
            .map(|t| (closing.number, format!("{inner}{t} = {t}{SHADOW_SUFFIX};"))),
    );
    body.splice(end_line..end_line, finals);

    let at = if start > 0 && body[start - 1].1.trim() == "// Update code" {
        start - 1
    } else {
        start
    };
    let indent = body[at].1[..body[at].1.len() - body[at].1.trim_start().len()].to_owned();
    let mut head = vec![(
        number,
        format!("{indent}// Shadows: the update code computes into these, then assigns each target once"),
    )];
    head.extend(shadow_decls.into_iter().map(|d| (number, d)));
    head.push((number, String::new()));
    body.splice(at..at, head);
    Ok(())
}

/// A declaration of a signal outside the block.
struct Decl {
    /// Declared as a port (`input`/`output`): observed from outside the module.
    port: bool,
    /// Its indentation, reused for the shadow.
    indent: String,
    /// `signed [7:0] ` or `` (a bit), as a `reg` of the same shape would be written.
    shape: String,
    /// Index of the declaring line.
    line: usize,
}

/// The signals declared outside `inside` by `input`/`output`/`reg`/`wire` lines of the
/// plain form rust-hdl writes (`reg signed [7:0] x;`); other lines declare nothing here.
fn declarations(
    body: &[(usize, String)],
    inside: &std::ops::RangeInclusive<usize>,
) -> HashMap<String, Decl> {
    let mut decls = HashMap::new();
    for (i, (_, text)) in body.iter().enumerate() {
        if inside.contains(&i) {
            continue;
        }
        let mut words = text.split_whitespace();
        let port = match words.next() {
            Some("input" | "output" | "inout") => {
                words.next();
                true
            }
            Some("reg" | "wire") => false,
            _ => continue,
        };
        let mut shape = String::new();
        let mut name = None;
        for w in words {
            if w == "signed" || w.starts_with('[') {
                shape.push_str(w);
                shape.push(' ');
            } else if name.is_none() {
                name = Some(w);
            } else {
                name = None;
                break;
            }
        }
        let Some(name) = name
            .and_then(|n| n.strip_suffix(';'))
            .filter(|n| !n.contains(['[', '=']))
        else {
            continue;
        };
        decls.insert(
            name.to_owned(),
            Decl {
                port,
                indent: text[..text.len() - text.trim_start().len()].to_owned(),
                shape,
                line: i,
            },
        );
    }
    decls
}

/// Identifiers mentioned outside `inside`, not counting the line that declares each.
fn identifiers_outside(
    body: &[(usize, String)],
    inside: &std::ops::RangeInclusive<usize>,
    decls: &HashMap<String, Decl>,
) -> HashSet<String> {
    let mut found = HashSet::new();
    for (i, (number, text)) in body.iter().enumerate() {
        if inside.contains(&i) {
            continue;
        }
        let mut tokens = Vec::new();
        // Text outside update code (custom code, comments with quotes) may not tokenize;
        // such a line is searched word by word instead.
        if stmt::tokenize_line(text, i, *number, &mut tokens).is_ok() {
            found.extend(
                tokens
                    .into_iter()
                    .filter(|t| {
                        t.kind == Kind::Ident && decls.get(&t.text).is_none_or(|d| d.line != i)
                    })
                    .map(|t| t.text),
            );
        } else {
            found.extend(
                text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                    .map(str::to_owned),
            );
        }
    }
    found
}

/// Every word of the body (identifier-like runs) with the first line number it is on.
fn words(body: &[(usize, String)]) -> HashMap<&str, usize> {
    let mut words = HashMap::new();
    for (number, text) in body {
        for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$')) {
            words.entry(w).or_insert(*number);
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(lines: &[&str]) -> Vec<(usize, String)> {
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| (i + 1, (*l).to_owned()))
            .collect()
    }

    fn text(body: &[(usize, String)]) -> Vec<&str> {
        body.iter().map(|(_, l)| l.as_str()).collect()
    }

    const STEP: [&str; 15] = [
        "    output reg [3:0] y;",
        "    output reg z;",
        "    reg  signed [1:0] s$d;",
        "    reg  t;",
        "    child c(.d(s$d));",
        "    // Update code",
        "    always @(*) begin",
        "        y = 4'h0;",
        "        t = a;",
        "        s$d = 2'b0;",
        "        if (t) begin",
        "            y = y + 4'h1; s$d = 2'b1;",
        "        end",
        "        z = y == 4'h0;",
        "    end",
    ];

    #[test]
    fn multiply_assigned_visible_targets_get_shadows() {
        let out = shadow_comb_blocks(&body(&STEP)).unwrap();
        let expect = [
            "    output reg [3:0] y;",
            "    output reg z;",
            "    reg  signed [1:0] s$d;",
            "    reg  t;",
            "    child c(.d(s$d));",
            "    // Shadows: the update code computes into these, then assigns each target once",
            "    reg [3:0] y__c;",
            "    reg signed [1:0] s$d__c;",
            "",
            "    // Update code",
            "    always @(*) begin",
            "        y__c = 4'h0;",
            "        t = a;",
            "        s$d__c = 2'b0;",
            "        if (t) begin",
            "            y__c = y__c + 4'h1; s$d__c = 2'b1;",
            "        end",
            "        z = y__c == 4'h0;",
            "        // Each target changes once, to its final value (docs/decisions/comb-blocks.md)",
            "        y = y__c;",
            "        s$d = s$d__c;",
            "    end",
        ];
        assert_eq!(text(&out), expect);
        // Line numbers of rust-hdl's text stay with their lines.
        assert_eq!(out[11], (8, "        y__c = 4'h0;".to_owned()));
    }

    #[test]
    fn blocks_without_glitches_are_unchanged() {
        let lines = [
            "    output reg y;",
            "    reg t;",
            "    always @(*) begin",
            "        t = a;",
            "        t = ~t;",
            "        if (t) begin",
            "            y = a;",
            "        end",
            "        else begin",
            "            y = b;",
            "        end",
            "    end",
            "    always @(*) c$x = y;",
        ];
        let out = shadow_comb_blocks(&body(&lines)).unwrap();
        assert_eq!(text(&out), lines);
    }

    #[test]
    fn broken_assumptions_are_reported_with_their_line() {
        let mut early = STEP;
        early[7] = "        t = y;";
        early[8] = "        y = 4'h0;";
        let err = shadow_comb_blocks(&body(&early)).unwrap_err();
        assert_eq!(
            err,
            (
                8,
                "`y` is read before it is assigned on every path through the block".into()
            )
        );
        let mut taken = STEP;
        taken[3] = "    reg  y__c;";
        let err = shadow_comb_blocks(&body(&taken)).unwrap_err();
        assert_eq!(err.0, 4);
        assert!(
            err.1.contains("`y__c`, the shadow of `y`, already names"),
            "{}",
            err.1
        );
        let mut undeclared = STEP;
        undeclared[0] = "    // y is not declared";
        let err = shadow_comb_blocks(&body(&undeclared)).unwrap_err();
        assert!(
            err.1.contains("`y` of the block has no declaration"),
            "{}",
            err.1
        );
        let unclosed = &STEP[..STEP.len() - 1];
        let err = shadow_comb_blocks(&body(unclosed)).unwrap_err();
        assert_eq!(
            err,
            (7, "the `always @(*)` block has no closing `end`".into())
        );
        let mut trailing = STEP;
        trailing[14] = "    end y = 1;";
        assert!(shadow_comb_blocks(&body(&trailing)).is_err());
    }
}
