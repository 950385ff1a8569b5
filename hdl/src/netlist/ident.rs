//! Legal Verilog identifiers for everything the netlist names: modules, ports, nets and
//! instances.
//!
//! The rule is deliberately narrower than the standard: a simple identifier
//! `[A-Za-z_][A-Za-z0-9_]*` of at most [`MAX_IDENTIFIER_LEN`] characters that is not a
//! Verilog-2005 or SystemVerilog keyword. `$` is legal inside Verilog identifiers but it is
//! what rust-hdl uses for hierarchy, it confuses waveform viewers and shells, and it is
//! rejected here so that it can never leak into emitted files.

use super::keywords::reserved_by;
use std::fmt;

/// The longest identifier accepted (IEEE 1364-2005 §3.7 requires tools to accept at least
/// 1024 characters).
pub const MAX_IDENTIFIER_LEN: usize = 1024;

/// Why a name is not a legal identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdentIssue {
    /// The name is empty.
    Empty,
    /// The name is longer than [`MAX_IDENTIFIER_LEN`].
    TooLong(usize),
    /// The first character is not a letter or `_`.
    BadStart(char),
    /// The name contains `$`.
    Dollar,
    /// The name contains a character outside `[A-Za-z0-9_]`.
    BadChar(char),
    /// The name is a keyword of the named standard.
    Keyword(&'static str),
}

impl fmt::Display for IdentIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdentIssue::Empty => write!(f, "it is empty"),
            IdentIssue::TooLong(n) => {
                write!(f, "it has {n} characters (at most {MAX_IDENTIFIER_LEN})")
            }
            IdentIssue::BadStart(c) => write!(f, "it starts with {c:?} (must be a letter or _)"),
            IdentIssue::Dollar => write!(f, "it contains `$` (use `_`)"),
            IdentIssue::BadChar(c) => write!(f, "it contains {c:?} (allowed: A-Z a-z 0-9 _)"),
            IdentIssue::Keyword(std) => write!(f, "it is a {std} keyword"),
        }
    }
}

/// Checks that `name` is a legal identifier under the rule of this module.
pub fn check_identifier(name: &str) -> Result<(), IdentIssue> {
    let first = name.chars().next().ok_or(IdentIssue::Empty)?;
    if name.len() > MAX_IDENTIFIER_LEN {
        return Err(IdentIssue::TooLong(name.len()));
    }
    if !(first.is_ascii_alphabetic() || first == '_') {
        return Err(if first == '$' {
            IdentIssue::Dollar
        } else {
            IdentIssue::BadStart(first)
        });
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
    {
        return Err(if c == '$' {
            IdentIssue::Dollar
        } else {
            IdentIssue::BadChar(c)
        });
    }
    match reserved_by(name) {
        Some(std) => Err(IdentIssue::Keyword(std)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_and_rejects() {
        assert_eq!(check_identifier("lvl2_sw13_up0"), Ok(()));
        assert_eq!(check_identifier("_x"), Ok(()));
        assert_eq!(check_identifier(""), Err(IdentIssue::Empty));
        assert_eq!(check_identifier("2x"), Err(IdentIssue::BadStart('2')));
        assert_eq!(check_identifier("a$b"), Err(IdentIssue::Dollar));
        assert_eq!(check_identifier("$a"), Err(IdentIssue::Dollar));
        assert_eq!(check_identifier("a.b"), Err(IdentIssue::BadChar('.')));
        assert_eq!(
            check_identifier("cell"),
            Err(IdentIssue::Keyword("Verilog-2005"))
        );
        assert_eq!(
            check_identifier(&"a".repeat(1025)),
            Err(IdentIssue::TooLong(1025))
        );
    }
}
