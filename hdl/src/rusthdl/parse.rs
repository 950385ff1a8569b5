//! Splits the text of rust-hdl's `generate_verilog` into its module definitions.
//!
//! rust-hdl writes each module as a header line `module <path>(<args>);`, the body, and
//! `endmodule // <path>`, where `<path>` is `top` for the block itself and `top$child`,
//! `top$child$grandchild` ... for the blocks it contains (one definition per instance).
//! Black boxes and wrapped cores are written differently and are rejected.

/// One module definition as rust-hdl wrote it.
#[derive(Debug, Clone)]
pub(crate) struct RawModule {
    /// rust-hdl's hierarchical module name: `top`, `top$state`, ...
    pub name: String,
    /// Port names in header order, as written (with `$`).
    pub args: Vec<String>,
    /// Body lines with their 1-based line numbers in the generated text.
    pub body: Vec<(usize, String)>,
}

/// A parse failure: 1-based line number and reason.
pub(crate) type ParseIssue = (usize, String);

/// Splits `text` into modules, in the order rust-hdl wrote them.
pub(crate) fn split_modules(text: &str) -> Result<Vec<RawModule>, ParseIssue> {
    let mut modules = Vec::new();
    let mut current: Option<RawModule> = None;
    for (idx, line) in text.lines().enumerate() {
        let number = idx + 1;
        let trimmed = line.trim();
        match current.as_mut() {
            Some(m) => {
                if trimmed == format!("endmodule // {}", m.name) {
                    modules.extend(current.take());
                } else if trimmed.starts_with("module ") {
                    return Err((
                        number,
                        format!(
                            "module `{}` is not closed before a new module starts",
                            m.name
                        ),
                    ));
                } else {
                    m.body.push((number, line.to_owned()));
                }
            }
            None => {
                if trimmed.is_empty() || trimmed.starts_with("//") {
                    continue;
                }
                let m = parse_header(trimmed).ok_or_else(|| {
                    (number, format!("expected `module top...(...);`, found `{trimmed}` (black boxes and wrapped cores are not supported)"))
                })?;
                if m.name != "top" && !m.name.starts_with("top$") {
                    return Err((number, format!("module `{}` was not generated from the block (a black box?); black boxes are not supported", m.name)));
                }
                current = Some(m);
            }
        }
    }
    if let Some(m) = current {
        return Err((
            text.lines().count(),
            format!("module `{}` has no `endmodule // {}`", m.name, m.name),
        ));
    }
    if modules.is_empty() {
        return Err((1, "no module definition found".to_owned()));
    }
    Ok(modules)
}

/// `module NAME(a,b,c);`
fn parse_header(line: &str) -> Option<RawModule> {
    let rest = line.strip_prefix("module ")?;
    let open = rest.find('(')?;
    let inner = rest[open + 1..].strip_suffix(");")?;
    let name = rest[..open].trim();
    if name.is_empty() {
        return None;
    }
    let args = inner
        .split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(str::to_owned)
        .collect();
    Some(RawModule {
        name: name.to_owned(),
        args,
        body: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_modules() {
        let text = "\n\nmodule top(a,b$0);\n    input wire a;\nendmodule // top\n\nmodule top$x(d);\nendmodule // top$x\n";
        let m = split_modules(text).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].name, "top");
        assert_eq!(m[0].args, vec!["a", "b$0"]);
        assert_eq!(m[0].body, vec![(4, "    input wire a;".to_owned())]);
        assert_eq!(m[1].name, "top$x");
    }

    #[test]
    fn rejects_foreign_text() {
        assert!(split_modules("module foo(a);\nendmodule\n").is_err());
        assert!(split_modules("module top(a);\n").is_err());
        assert!(split_modules("wire x;\n").is_err());
        assert!(split_modules("").is_err());
    }
}
