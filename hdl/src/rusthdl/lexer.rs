//! A small Verilog lexer that rewrites rust-hdl identifiers: every `$` inside an identifier
//! becomes `_` (`state$q` becomes `state_q`). System names (`$signed`), numbers (`4'hf`),
//! strings, comments and compiler directives are copied unchanged.
//!
//! Replacing `$` can merge two names (`a$b` and a field called `a_b`); the [`Renamer`]
//! remembers every original spelling per module and reports such a collision instead of
//! letting wrong Verilog through.

use std::collections::HashMap;

/// A problem found while rewriting one module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LexIssue {
    /// Two different identifiers become the same after rewriting.
    Collision {
        first: String,
        second: String,
        sanitized: String,
    },
    /// An escaped identifier (`\name `), which rust-hdl never writes.
    EscapedIdentifier(String),
}

/// Rewrites the lines of one module, remembering original spellings.
#[derive(Debug, Default)]
pub(crate) struct Renamer {
    originals: HashMap<String, String>,
    in_block_comment: bool,
}

fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

impl Renamer {
    /// The rewritten form of one identifier, recorded for collision detection.
    pub(crate) fn ident(&mut self, original: &str) -> Result<String, LexIssue> {
        let sanitized = original.replace('$', "_");
        match self.originals.get(&sanitized) {
            Some(first) if first != original => Err(LexIssue::Collision {
                first: first.clone(),
                second: original.to_owned(),
                sanitized,
            }),
            Some(_) => Ok(sanitized),
            None => {
                self.originals
                    .insert(sanitized.clone(), original.to_owned());
                Ok(sanitized)
            }
        }
    }

    /// Rewrites one line.
    pub(crate) fn line(&mut self, line: &str) -> Result<String, LexIssue> {
        let mut out = String::with_capacity(line.len());
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if self.in_block_comment {
                out.push(c);
                if c == '*' && chars.peek().map(|p| p.1) == Some('/') {
                    out.push('/');
                    chars.next();
                    self.in_block_comment = false;
                }
                continue;
            }
            let next = chars.peek().map(|p| p.1);
            match c {
                '/' if next == Some('/') => {
                    out.push_str(&line[i..]);
                    break;
                }
                '/' if next == Some('*') => {
                    out.push_str("/*");
                    chars.next();
                    self.in_block_comment = true;
                }
                '"' => {
                    out.push('"');
                    let mut escaped = false;
                    for (_, s) in chars.by_ref() {
                        out.push(s);
                        if s == '"' && !escaped {
                            break;
                        }
                        escaped = s == '\\' && !escaped;
                    }
                }
                '\'' => {
                    // Based number: 'h1f, 'sb01, 'dx ...
                    out.push(c);
                    while let Some(&(_, s)) = chars.peek() {
                        if s.is_ascii_alphanumeric() || s == '_' || s == '?' {
                            out.push(s);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                }
                '\\' => {
                    let name: String = line[i..]
                        .chars()
                        .take_while(|c| !c.is_whitespace())
                        .collect();
                    return Err(LexIssue::EscapedIdentifier(name));
                }
                c if c.is_ascii_digit() => {
                    out.push(c);
                    while let Some(&(_, s)) = chars.peek() {
                        if s.is_ascii_digit() || s == '_' {
                            out.push(s);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                }
                '$' | '`' => {
                    // System task/function or compiler directive: copied as is.
                    out.push(c);
                    while let Some(&(_, s)) = chars.peek() {
                        if ident_char(s) {
                            out.push(s);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                }
                c if c.is_ascii_alphabetic() || c == '_' => {
                    let mut end = i + c.len_utf8();
                    while let Some(&(j, s)) = chars.peek() {
                        if ident_char(s) {
                            end = j + s.len_utf8();
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    out.push_str(&self.ident(&line[i..end])?);
                }
                c => out.push(c),
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_identifiers_only() {
        let mut r = Renamer::default();
        assert_eq!(
            r.line("state$d = $signed(state$q) + 4'hf; // top$state")
                .unwrap(),
            "state_d = $signed(state_q) + 4'hf; // top$state"
        );
        assert_eq!(r.line("x = \"a$b\" /* c$d").unwrap(), "x = \"a$b\" /* c$d");
        assert_eq!(r.line("e$f */ g$h").unwrap(), "e$f */ g_h");
        assert_eq!(
            r.line("`default_nettype none").unwrap(),
            "`default_nettype none"
        );
        assert_eq!(
            r.line("16'hdead_beef + 1'b1").unwrap(),
            "16'hdead_beef + 1'b1"
        );
    }

    #[test]
    fn reports_collisions_and_escapes() {
        let mut r = Renamer::default();
        r.line("a$b = 1;").unwrap();
        assert_eq!(
            r.line("a_b = 2;"),
            Err(LexIssue::Collision {
                first: "a$b".into(),
                second: "a_b".into(),
                sanitized: "a_b".into()
            })
        );
        assert_eq!(
            r.line("\\odd$name = 1;"),
            Err(LexIssue::EscapedIdentifier("\\odd$name".into()))
        );
    }
}
