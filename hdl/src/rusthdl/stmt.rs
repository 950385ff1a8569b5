//! Reads the statements of one rust-hdl `always @(*) begin … end` block (the "Update code"
//! rust-hdl writes for a combinational block): a token stream, a small statement tree
//! (`begin`/`end`, `if`/`else`, `case`/`endcase`, blocking assignments) and the
//! definite-assignment check the shadow rewrite relies on (`comb.rs`).
//!
//! Only the forms rust-hdl 0.46's `verilog_gen.rs` writes are accepted; anything else is an
//! issue with the line it was found on, never a panic.

use std::collections::{BTreeSet, HashMap, HashSet};

/// A problem with one block: 1-based line in rust-hdl's text, and what is wrong.
pub(crate) type StmtIssue = (usize, String);

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// An identifier as rust-hdl writes it (may contain `$`), or a keyword.
    Ident,
    /// A system name (`$signed`).
    System,
    /// A number, sized or not (`4'hf`, `32'h3`, `0`).
    Number,
    /// An operator or punctuation (`=`, `==`, `+:`, `(`, `;` …).
    Punct,
}

/// One token: its text, its position (index of the body line, byte range in that line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: Kind,
    pub text: String,
    /// Index into the lines passed to [`tokenize_line`]'s caller.
    pub line: usize,
    /// 1-based line number in rust-hdl's text, for messages.
    pub number: usize,
    pub start: usize,
    pub end: usize,
}

const PUNCT: [&str; 16] = [
    "===", "!==", "<<<", ">>>", "==", "!=", "<=", ">=", "<<", ">>", "&&", "||", "+:", "-:", "~&",
    "~|",
];

fn ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// Appends the tokens of one line (comments dropped). Strings, block comments and escaped
/// identifiers are refused: rust-hdl never writes them in update code.
pub(crate) fn tokenize_line(
    text: &str,
    line: usize,
    number: usize,
    out: &mut Vec<Token>,
) -> Result<(), StmtIssue> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let scan = |mut j: usize, ok: fn(char) -> bool| {
        while j < bytes.len() && ok(bytes[j] as char) {
            j += 1;
        }
        j
    };
    while i < bytes.len() {
        let c = bytes[i] as char;
        let rest = &text[i..];
        let (kind, end) = if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if rest.starts_with("//") {
            break;
        } else if rest.starts_with("/*") || c == '"' || c == '\\' || !c.is_ascii() {
            return Err((
                number,
                format!(
                    "unexpected `{}` in update code",
                    rest.chars().next().unwrap_or(c)
                ),
            ));
        } else if ident_start(c) {
            (Kind::Ident, scan(i + 1, ident_char))
        } else if c == '$' {
            (Kind::System, scan(i + 1, ident_char))
        } else if c.is_ascii_digit() || c == '\'' {
            let mut j = scan(i, |c| c.is_ascii_digit() || c == '_');
            if bytes.get(j) == Some(&b'\'') {
                j = scan(j + 1, |c| c.is_ascii_alphanumeric() || c == '_' || c == '?');
            }
            (Kind::Number, j)
        } else {
            let len = PUNCT
                .iter()
                .find(|p| rest.starts_with(*p))
                .map_or(1, |p| p.len());
            (Kind::Punct, i + len)
        };
        out.push(Token {
            kind,
            text: text[i..end].to_owned(),
            line,
            number,
            start: i,
            end,
        });
        i = end;
    }
    Ok(())
}

/// A signal read by a statement, with the line it is read on.
#[derive(Debug, Clone)]
pub(crate) struct Read {
    pub name: String,
    pub number: usize,
}

/// The statements rust-hdl writes in update code.
#[derive(Debug, Clone)]
pub(crate) enum Stmt {
    Block(Vec<Stmt>),
    If {
        reads: Vec<Read>,
        then: Box<Stmt>,
        otherwise: Option<Box<Stmt>>,
    },
    Case {
        reads: Vec<Read>,
        arms: Vec<Stmt>,
        has_default: bool,
    },
    /// `target = …;` or, with `partial`, `target[…] = …;` (which also reads `target`).
    Assign {
        target: String,
        partial: bool,
        reads: Vec<Read>,
        number: usize,
    },
    Empty,
}

/// Parses `always @(*) <statement>` from the start of `tokens`; returns the statement and
/// the number of tokens it used.
pub(crate) fn parse_always(tokens: &[Token]) -> Result<(Stmt, usize), StmtIssue> {
    let mut p = Parser { tokens, pos: 0 };
    for expected in ["always", "@", "(", "*", ")"] {
        p.expect(expected)?;
    }
    let stmt = p.stmt()?;
    Ok((stmt, p.pos))
}

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn number(&self) -> usize {
        self.peek().or(self.tokens.last()).map_or(0, |t| t.number)
    }

    fn next(&mut self) -> Result<&Token, StmtIssue> {
        let number = self.number();
        let t = self
            .tokens
            .get(self.pos)
            .ok_or_else(|| (number, "the block ends early (missing `end`?)".to_owned()))?;
        self.pos += 1;
        Ok(t)
    }

    fn expect(&mut self, text: &str) -> Result<(), StmtIssue> {
        let t = self.next()?;
        if t.text == text {
            Ok(())
        } else {
            Err((t.number, format!("expected `{text}`, found `{}`", t.text)))
        }
    }

    fn at(&self, text: &str) -> bool {
        self.peek().is_some_and(|t| t.text == text)
    }

    /// Tokens up to (not including) the first of `stops` outside brackets; the identifiers
    /// among them are reads.
    fn expr(&mut self, stops: &[&str]) -> Result<Vec<Read>, StmtIssue> {
        let mut depth = 0usize;
        let mut reads = Vec::new();
        loop {
            let t = self.peek().ok_or_else(|| {
                (
                    self.number(),
                    format!("expression not closed by `{}`", stops.join("` or `")),
                )
            })?;
            if depth == 0 && stops.contains(&t.text.as_str()) {
                return Ok(reads);
            }
            match t.text.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    depth = depth
                        .checked_sub(1)
                        .ok_or_else(|| (t.number, format!("unbalanced `{}`", t.text)))?;
                }
                ";" | "begin" | "end" => {
                    return Err((
                        t.number,
                        format!("unexpected `{}` in an expression", t.text),
                    ))
                }
                _ if t.kind == Kind::Ident => reads.push(Read {
                    name: t.text.clone(),
                    number: t.number,
                }),
                _ => {}
            }
            self.pos += 1;
        }
    }

    fn stmt(&mut self) -> Result<Stmt, StmtIssue> {
        let t = self.next()?.clone();
        match t.text.as_str() {
            ";" => Ok(Stmt::Empty),
            "begin" => {
                let mut body = Vec::new();
                while !self.at("end") {
                    body.push(self.stmt()?);
                }
                self.pos += 1;
                Ok(Stmt::Block(body))
            }
            "if" => {
                self.expect("(")?;
                let reads = self.expr(&[")"])?;
                self.expect(")")?;
                let then = Box::new(self.stmt()?);
                let otherwise = if self.at("else") {
                    self.pos += 1;
                    Some(Box::new(self.stmt()?))
                } else {
                    None
                };
                Ok(Stmt::If {
                    reads,
                    then,
                    otherwise,
                })
            }
            "case" => {
                self.expect("(")?;
                let mut reads = self.expr(&[")"])?;
                self.expect(")")?;
                let (mut arms, mut has_default) = (Vec::new(), false);
                while !self.at("endcase") {
                    has_default |= self.at("default");
                    reads.extend(
                        self.expr(&[":"])?
                            .into_iter()
                            .filter(|r| r.name != "default"),
                    );
                    self.expect(":")?;
                    arms.push(self.stmt()?);
                }
                self.pos += 1;
                Ok(Stmt::Case {
                    reads,
                    arms,
                    has_default,
                })
            }
            _ if t.kind == Kind::Ident && !is_keyword(&t.text) => {
                let mut reads = Vec::new();
                let partial = self.at("[");
                if partial {
                    self.pos += 1;
                    reads = self.expr(&["]"])?;
                    self.expect("]")?;
                }
                self.expect("=")?;
                reads.extend(self.expr(&[";"])?);
                self.expect(";")?;
                Ok(Stmt::Assign {
                    target: t.text,
                    partial,
                    reads,
                    number: t.number,
                })
            }
            _ => Err((
                t.number,
                format!("unexpected `{}` where a statement should start", t.text),
            )),
        }
    }
}

fn is_keyword(word: &str) -> bool {
    matches!(
        word,
        "begin"
            | "end"
            | "if"
            | "else"
            | "case"
            | "casez"
            | "casex"
            | "endcase"
            | "default"
            | "for"
            | "while"
            | "repeat"
            | "forever"
            | "assign"
            | "always"
            | "initial"
    )
}

/// Every signal the statement assigns (fully or partly), in order of first assignment.
pub(crate) fn targets(stmt: &Stmt, out: &mut Vec<String>) {
    match stmt {
        Stmt::Block(body) => body.iter().for_each(|s| targets(s, out)),
        Stmt::If {
            then, otherwise, ..
        } => {
            targets(then, out);
            if let Some(o) = otherwise {
                targets(o, out);
            }
        }
        Stmt::Case { arms, .. } => arms.iter().for_each(|s| targets(s, out)),
        Stmt::Assign { target, .. } => {
            if !out.contains(target) {
                out.push(target.clone());
            }
        }
        Stmt::Empty => {}
    }
}

/// For each target, the largest number of assignments to it (full or partial) along one
/// path through the statement. A target assigned at most once on every path changes at
/// most once per evaluation already.
pub(crate) fn max_assignments(stmt: &Stmt) -> HashMap<String, usize> {
    let merge_max = |mut a: HashMap<String, usize>, b: HashMap<String, usize>| {
        for (k, v) in b {
            let e = a.entry(k).or_insert(0);
            *e = (*e).max(v);
        }
        a
    };
    match stmt {
        Stmt::Empty => HashMap::new(),
        Stmt::Assign { target, .. } => HashMap::from([(target.clone(), 1)]),
        Stmt::Block(body) => {
            let mut sum = HashMap::new();
            for (k, v) in body.iter().flat_map(max_assignments) {
                *sum.entry(k).or_insert(0) += v;
            }
            sum
        }
        Stmt::If {
            then, otherwise, ..
        } => merge_max(
            max_assignments(then),
            otherwise
                .as_deref()
                .map(max_assignments)
                .unwrap_or_default(),
        ),
        Stmt::Case { arms, .. } => arms
            .iter()
            .map(max_assignments)
            .fold(HashMap::new(), merge_max),
    }
}

/// Checks that no target of the block is read (or partly assigned) before it has been
/// assigned in full on every path, and that every target is assigned on every path through
/// the block (no latch). `targets` is the set [`targets`] found.
pub(crate) fn check_definite_assignment(
    block: &Stmt,
    targets: &HashSet<String>,
    end_number: usize,
) -> Result<(), StmtIssue> {
    let mut assigned = BTreeSet::new();
    walk(block, targets, &mut assigned)?;
    let mut missing = targets
        .iter()
        .filter(|t| !assigned.contains(*t))
        .collect::<Vec<_>>();
    missing.sort();
    match missing.first() {
        None => Ok(()),
        Some(first) => Err((
            end_number,
            format!(
                "`{first}` is not assigned on every path through the block (it would be a latch)"
            ),
        )),
    }
}

fn read_all(
    reads: &[Read],
    targets: &HashSet<String>,
    assigned: &BTreeSet<String>,
) -> Result<(), StmtIssue> {
    match reads
        .iter()
        .find(|r| targets.contains(&r.name) && !assigned.contains(&r.name))
    {
        None => Ok(()),
        Some(r) => Err((
            r.number,
            format!(
                "`{}` is read before it is assigned on every path through the block",
                r.name
            ),
        )),
    }
}

fn walk(
    stmt: &Stmt,
    targets: &HashSet<String>,
    assigned: &mut BTreeSet<String>,
) -> Result<(), StmtIssue> {
    match stmt {
        Stmt::Empty => {}
        Stmt::Block(body) => {
            for s in body {
                walk(s, targets, assigned)?;
            }
        }
        Stmt::Assign {
            target,
            partial,
            reads,
            number,
        } => {
            read_all(reads, targets, assigned)?;
            if *partial {
                if !assigned.contains(target) {
                    return Err((
                        *number,
                        format!("`{target}` is partly assigned before it is assigned in full on every path through the block"),
                    ));
                }
            } else {
                assigned.insert(target.clone());
            }
        }
        Stmt::If {
            reads,
            then,
            otherwise,
        } => {
            read_all(reads, targets, assigned)?;
            let mut a = assigned.clone();
            walk(then, targets, &mut a)?;
            let mut b = assigned.clone();
            if let Some(o) = otherwise {
                walk(o, targets, &mut b)?;
            }
            *assigned = a.intersection(&b).cloned().collect();
        }
        Stmt::Case {
            reads,
            arms,
            has_default,
        } => {
            read_all(reads, targets, assigned)?;
            let mut all: Option<BTreeSet<String>> = (!has_default).then(|| assigned.clone());
            for arm in arms {
                let mut a = assigned.clone();
                walk(arm, targets, &mut a)?;
                all = Some(match all {
                    None => a,
                    Some(x) => x.intersection(&a).cloned().collect(),
                });
            }
            *assigned = all.unwrap_or_else(|| assigned.clone());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Stmt, StmtIssue> {
        let mut tokens = Vec::new();
        for (i, line) in text.lines().enumerate() {
            tokenize_line(line, i, i + 1, &mut tokens)?;
        }
        let (stmt, used) = parse_always(&tokens)?;
        assert_eq!(used, tokens.len());
        Ok(stmt)
    }

    fn check(text: &str) -> Result<Vec<String>, StmtIssue> {
        let stmt = parse(text)?;
        let mut t = Vec::new();
        targets(&stmt, &mut t);
        check_definite_assignment(&stmt, &t.iter().cloned().collect(), 99)?;
        Ok(t)
    }

    #[test]
    fn tokens_keep_sized_numbers_and_dollar_names_whole() {
        let mut t = Vec::new();
        tokenize_line("a$b = $signed(x) + 4'hf; // c$d", 0, 1, &mut t).unwrap();
        let texts: Vec<&str> = t.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            ["a$b", "=", "$signed", "(", "x", ")", "+", "4'hf", ";"]
        );
        assert_eq!(t[2].kind, Kind::System);
        assert_eq!((t[0].start, t[0].end), (0, 3));
        let mut t = Vec::new();
        tokenize_line("x[(32'h0)+:(4)] = y <= z;", 0, 1, &mut t).unwrap();
        assert!(t.iter().any(|t| t.text == "+:") && t.iter().any(|t| t.text == "<="));
        assert!(tokenize_line("x = \"s\";", 0, 7, &mut t).is_err());
    }

    #[test]
    fn defaults_then_overrides_are_accepted() {
        let text = "always @(*) begin\n  a = 1'b0;\n  b = x;\n  if (b) begin\n    a = b;\n  end\n  else begin\n    c = 1'b1;\n  end\n  c = a;\n  case (s)\n    k$0: begin\n      v = c;\n    end\n    default: begin\n      v = a;\n    end\n  endcase\n  w = 4'h0;\n  w[(32'h0)+:(2)] = v;\nend";
        assert_eq!(check(text).unwrap(), ["a", "b", "c", "v", "w"]);
        let counts = max_assignments(&parse(text).unwrap());
        let count = |s: &str| counts.get(s).copied();
        assert_eq!(
            [
                count("a"),
                count("b"),
                count("c"),
                count("v"),
                count("w"),
                count("x")
            ],
            [Some(2), Some(1), Some(2), Some(1), Some(2), None]
        );
    }

    #[test]
    fn reads_before_assignment_are_found() {
        let early = "always @(*) begin\n  a = b;\n  b = x;\nend";
        assert_eq!(
            check(early).unwrap_err(),
            (
                2,
                "`b` is read before it is assigned on every path through the block".into()
            )
        );
        let one_branch = "always @(*) begin\n  if (x) begin\n    a = x;\n  end\n  b = a;\nend";
        assert_eq!(check(one_branch).unwrap_err().0, 5);
        let partial = "always @(*) begin\n  w[(32'h0)+:(2)] = x;\nend";
        assert!(check(partial).unwrap_err().1.contains("partly assigned"));
    }

    #[test]
    fn latches_are_found() {
        let latch = "always @(*) begin\n  if (x) begin\n    a = x;\n  end\nend";
        assert!(check(latch)
            .unwrap_err()
            .1
            .contains("`a` is not assigned on every path"));
        let no_default =
            "always @(*) begin\n  case (s)\n    1'b0: begin\n      a = x;\n    end\n  endcase\nend";
        assert!(check(no_default).is_err());
        let both = "always @(*) begin\n  if (x) begin\n    a = x;\n  end else begin\n    a = y;\n  end\n  b = a;\nend";
        assert_eq!(check(both).unwrap(), ["a", "b"]);
    }

    #[test]
    fn malformed_blocks_are_issues_not_panics() {
        for bad in [
            "always @(*) begin\n  a = b;\n",
            "always @(*) begin\n  a = (b;\nend",
            "always @(*) begin\n  = b;\nend",
            "always @(*) begin\n  a = b)\nend",
            "always @(posedge c) begin\nend",
            "always @(*) begin\n  case (s)\n    1: a = b;\nend",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
