//! Turns the module definitions rust-hdl wrote for one block into leaf [`Module`]s:
//! renames `top` to the chosen name and `top$a$b` to `<name>__a__b`, rewrites `$` in
//! identifiers, extracts the port list (direction, width, `reg`/`signed` style) and keeps
//! the rest of each body as lines, with instance lines kept apart for renaming. Update
//! code is made glitch-free first (`comb.rs`).

use super::comb;
use super::lexer::{LexIssue, Renamer};
use super::parse::RawModule;
use super::ImportError;
use crate::netlist::{check_identifier, Body, Direction, Leaf, LeafLine, Module, Port, PortStyle};
use std::collections::HashMap;

/// Converts every module of one block; children come before parents, the block itself last.
pub(crate) fn convert(block: &str, raws: Vec<RawModule>) -> Result<Vec<Module>, ImportError> {
    let mut names: HashMap<String, String> = HashMap::new();
    let mut taken: HashMap<String, String> = HashMap::new();
    for raw in &raws {
        let new = match raw.name.strip_prefix("top") {
            Some("") => block.to_owned(),
            Some(path) => format!("{block}{}", path.replace('$', "__")),
            None => raw.name.clone(),
        };
        if let Err(issue) = check_identifier(&new) {
            return Err(ImportError::IllegalIdentifier {
                block: block.to_owned(),
                module: new,
                kind: "module",
                name: raw.name.clone(),
                issue,
            });
        }
        if let Some(other) = taken.insert(new.clone(), raw.name.clone()) {
            return Err(ImportError::Collision {
                block: block.to_owned(),
                module: new.clone(),
                first: other,
                second: raw.name.clone(),
                sanitized: new,
            });
        }
        names.insert(raw.name.clone(), new);
    }
    let mut raws = raws;
    raws.sort_by(|a, b| {
        depth(&b.name)
            .cmp(&depth(&a.name))
            .then_with(|| a.name.cmp(&b.name))
    });
    raws.iter()
        .map(|raw| convert_module(block, raw, &names))
        .collect()
}

fn depth(name: &str) -> usize {
    name.matches('$').count()
}

/// A port declaration line: `input wire  [3:0] d;`, `output reg signed [7:0] q;`.
struct PortDecl<'a> {
    direction: &'a str,
    style: PortStyle,
    width: usize,
    name: &'a str,
}

fn parse_port_decl(line: &str) -> Option<PortDecl<'_>> {
    let mut tokens = line.split_whitespace().peekable();
    let direction = tokens.next()?;
    let kind = tokens.next()?;
    let mut style = PortStyle {
        reg: kind == "reg",
        signed: false,
    };
    if kind != "reg" && kind != "wire" {
        return None;
    }
    if tokens.peek() == Some(&"signed") {
        style.signed = true;
        tokens.next();
    }
    let mut width = 1;
    if let Some(r) = tokens.peek().and_then(|t| t.strip_prefix('[')) {
        let msb = r.strip_suffix(":0]")?.parse::<usize>().ok()?;
        width = msb + 1;
        tokens.next();
    }
    let name = tokens.next()?.strip_suffix(';')?;
    tokens.next().is_none().then_some(PortDecl {
        direction,
        style,
        width,
        name,
    })
}

/// The name declared by `reg`/`wire`/`localparam`/`integer` lines, if the line is one.
fn declared_name(line: &str) -> Option<&str> {
    let mut tokens = line.split_whitespace();
    if !matches!(tokens.next()?, "reg" | "wire" | "localparam" | "integer") {
        return None;
    }
    let name = tokens.find(|t| *t != "signed" && !t.starts_with('['))?;
    Some(name.split(['=', ';']).next().unwrap_or(name))
}

fn convert_module(
    block: &str,
    raw: &RawModule,
    names: &HashMap<String, String>,
) -> Result<Module, ImportError> {
    let module = &names[&raw.name];
    match comb::shadow_comb_blocks(&raw.body) {
        Ok(body) => convert_body(block, module, raw, &body, names),
        Err((line, reason)) => {
            // A bad name (a keyword such as `end`) can be what the block fails on; it is the
            // more basic problem, so it is reported first.
            convert_body(block, module, raw, &raw.body, names)?;
            Err(ImportError::CombinationalBlock {
                block: block.to_owned(),
                module: module.clone(),
                line,
                reason,
            })
        }
    }
}

/// Converts one module whose update code was already rewritten (`body`).
fn convert_body(
    block: &str,
    module: &str,
    raw: &RawModule,
    body: &[(usize, String)],
    names: &HashMap<String, String>,
) -> Result<Module, ImportError> {
    let module = module.to_owned();
    let lex = |issue: LexIssue| match issue {
        LexIssue::Collision {
            first,
            second,
            sanitized,
        } => ImportError::Collision {
            block: block.to_owned(),
            module: module.clone(),
            first,
            second,
            sanitized,
        },
        LexIssue::EscapedIdentifier(what) => ImportError::Unsupported {
            block: block.to_owned(),
            module: module.clone(),
            what: format!("escaped identifier `{what}`"),
        },
    };
    let illegal = |kind: &'static str, name: &str, sanitized: &str| {
        check_identifier(sanitized).map_err(|issue| ImportError::IllegalIdentifier {
            block: block.to_owned(),
            module: module.clone(),
            kind,
            name: name.to_owned(),
            issue,
        })
    };
    let mut renamer = Renamer::default();
    let mut decls: HashMap<&str, PortDecl<'_>> = HashMap::new();
    let mut lines: Vec<LeafLine> = Vec::new();
    for (number, line) in body {
        let t = line.trim();
        if t == "// Module arguments" {
            continue;
        }
        if t.starts_with("// Update code (wrapper)") {
            return Err(ImportError::Unsupported {
                block: block.to_owned(),
                module: module.clone(),
                what: "wrapped Verilog (`Verilog::Wrapper`)".to_owned(),
            });
        }
        if matches!(
            t.split_whitespace().next(),
            Some("input" | "output" | "inout")
        ) {
            let decl = parse_port_decl(t).ok_or_else(|| ImportError::Parse {
                block: block.to_owned(),
                line: *number,
                reason: format!("unexpected port declaration `{t}`"),
            })?;
            if decl.direction == "inout" {
                return Err(ImportError::Unsupported {
                    block: block.to_owned(),
                    module: module.clone(),
                    what: format!(
                        "inout port `{}` (model a bi-directional link as two wires)",
                        decl.name
                    ),
                });
            }
            if raw.args.iter().any(|a| a == decl.name) && !decls.contains_key(decl.name) {
                decls.insert(decl.name, decl);
                continue;
            }
        }
        let first = t
            .split(|c: char| c.is_whitespace() || c == '(')
            .next()
            .unwrap_or("");
        if let (Some(child), true) = (names.get(first), t.ends_with('(')) {
            let indent_len = line.len() - line.trim_start().len();
            let rest = renamer.line(&t[first.len()..]).map_err(lex)?;
            let inst = rest.trim_start().trim_end_matches('(').trim_end();
            illegal("instance", inst, inst)?;
            lines.push(LeafLine::Instance {
                indent: line[..indent_len].to_owned(),
                module: child.clone(),
                rest,
            });
            continue;
        }
        let text = renamer.line(line.trim_end()).map_err(lex)?;
        if let Some(original) = declared_name(t) {
            illegal("signal", original, &original.replace('$', "_"))?;
        }
        lines.push(LeafLine::Text(text));
    }
    let mut ports = Vec::with_capacity(raw.args.len());
    let mut port_styles = Vec::with_capacity(raw.args.len());
    for arg in &raw.args {
        let decl = decls.get(arg.as_str()).ok_or_else(|| ImportError::Parse {
            block: block.to_owned(),
            line: raw.body.first().map_or(0, |l| l.0),
            reason: format!(
                "port `{arg}` of `{}` is listed in the header but never declared",
                raw.name
            ),
        })?;
        let name = renamer.ident(arg).map_err(lex)?;
        illegal("port", arg, &name)?;
        let direction = if decl.direction == "input" {
            Direction::Input
        } else {
            Direction::Output
        };
        ports.push(Port {
            name,
            direction,
            width: decl.width,
        });
        port_styles.push(decl.style);
    }
    Ok(Module {
        name: module.clone(),
        ports,
        body: Body::Leaf(Leaf {
            port_styles,
            lines: tidy(lines),
        }),
    })
}

/// Drops leading and trailing blank lines and collapses runs of blank lines into one.
fn tidy(lines: Vec<LeafLine>) -> Vec<LeafLine> {
    let blank = |l: &LeafLine| matches!(l, LeafLine::Text(t) if t.trim().is_empty());
    let mut out: Vec<LeafLine> = Vec::with_capacity(lines.len());
    for line in lines {
        if blank(&line) && out.last().is_none_or(blank) {
            continue;
        }
        out.push(if blank(&line) {
            LeafLine::Text(String::new())
        } else {
            line
        });
    }
    while out.last().is_some_and(blank) {
        out.pop();
    }
    out
}
