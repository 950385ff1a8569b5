//! An independent check of the RTL style rules (`docs/netlist.md`, "RTL style") on emitted
//! Verilog *text*, for tests of every system: it reads the printed files, not the netlist
//! they came from, so a printer or generator bug that broke a rule would be caught.
//!
//! Rules checked per module:
//! - **one clock**: every `always` is `always @(posedge clock)` with `clock` an input port,
//!   and there is at most one per module; `clock` is used only there, in the port list and
//!   as `.clock(clock)` of instances (no derived or gated clock nets, no `assign x = clock`);
//! - **no flop outside the clocked block**: no level-sensitive block, no `negedge`; the one
//!   exception is a module's single combinational process `always @* begin : outputs`
//!   (blocking assignments only), with which a block replicated as rows computes outputs
//!   that are logic of its wires (`crate::netlist::replicate`);
//! - **word-level**: at most [`MAX_ONE_BIT_REGS`] one-bit registers per module, and no
//!   run of three or more signals named `<base>_<0>`, `<base>_<1>`, `<base>_<2>`… (a
//!   quantity split into bits, ports included).

use std::collections::BTreeMap;

/// The most one-bit registers a module may declare (flags such as `valid`, `got`, `phase`
/// are legitimate; a multi-bit quantity kept as bits is not).
pub const MAX_ONE_BIT_REGS: usize = 16;

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StyleIssue {
    /// The module.
    pub module: String,
    /// What is wrong.
    pub what: String,
}

impl std::fmt::Display for StyleIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "module `{}`: {}", self.module, self.what)
    }
}

/// Checks every module of the given files (name, text); returns every issue found.
pub fn check_files<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<StyleIssue> {
    let mut issues = Vec::new();
    for (_, text) in files {
        for module in split_modules(text) {
            check_module(&module, &mut issues);
        }
    }
    issues
}

struct ModuleText<'a> {
    name: String,
    lines: Vec<&'a str>,
}

fn split_modules(text: &str) -> Vec<ModuleText<'_>> {
    let mut out = Vec::new();
    let mut cur: Option<ModuleText<'_>> = None;
    for line in text.lines() {
        let t = strip_comment(line).trim();
        if let Some(rest) = t.strip_prefix("module ") {
            let name = rest
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap_or_default()
                .to_string();
            cur = Some(ModuleText {
                name,
                lines: Vec::new(),
            });
        } else if t.starts_with("endmodule") {
            if let Some(m) = cur.take() {
                out.push(m);
            }
        } else if let Some(m) = cur.as_mut() {
            m.lines.push(line);
        }
    }
    out
}

fn strip_comment(line: &str) -> &str {
    let line = line.split("//").next().unwrap_or("");
    match (line.find("/*"), line.find("*/")) {
        (Some(a), Some(b)) if b > a => {
            // Only single-line block comments (lint pragmas) occur in emitted files.
            if a == 0 {
                &line[b + 2..]
            } else {
                &line[..a]
            }
        }
        _ => line,
    }
}

/// The identifiers of a line, in order.
fn idents(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '\''))
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        })
}

/// `line` without a leading attribute instance (`(* keep *) always …` → `always …`).
fn strip_attribute(line: &str) -> &str {
    match line.strip_prefix("(*").and_then(|r| r.split_once("*)")) {
        Some((_, rest)) => rest.trim_start(),
        None => line,
    }
}

fn check_module(m: &ModuleText<'_>, issues: &mut Vec<StyleIssue>) {
    let mut push = |what: String| {
        issues.push(StyleIssue {
            module: m.name.clone(),
            what,
        })
    };
    let mut always = 0;
    let mut comb = 0;
    let mut clock_is_input = false;
    let mut one_bit_regs = Vec::new();
    // Declared names, for the bit-split check.
    let mut declared: Vec<String> = Vec::new();
    // Inside the always block, `reg`/`integer` declarations are the process's temporaries
    // and loop variables (values within one pass), not flip-flops.
    let mut in_always = false;
    for raw in &m.lines {
        let line = strip_attribute(strip_comment(raw).trim());
        if line.is_empty() {
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        // Declarations (ANSI ports and body declarations).
        if in_always && matches!(first, "reg" | "integer") {
            continue;
        }
        if matches!(first, "input" | "output" | "reg" | "wire") {
            let decl = line.trim_end_matches([',', ';']);
            let decl = decl.split('=').next().unwrap_or(decl);
            let name = idents(decl).last().unwrap_or_default().to_string();
            let ranged = decl.contains('[');
            if first == "input" && name == "clock" && !ranged {
                clock_is_input = true;
            }
            if first == "reg" && !ranged {
                one_bit_regs.push(name.clone());
            }
            declared.push(name);
            // A wire declared with a value may read the clock: checked below.
            if !line.contains('=') {
                continue;
            }
        }
        if first == "always" {
            in_always = true;
            let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
            if compact.starts_with("always@*begin:outputs") {
                comb += 1;
                continue;
            }
            always += 1;
            if !compact.starts_with("always@(posedgeclock)") {
                push(format!(
                    "`{line}`: every flop must be in `always @(posedge clock)` (no other sensitivity, no combinational always block)"
                ));
            }
            continue;
        }
        let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.starts_with(".clock(") {
            if compact.trim_end_matches(',') != ".clock(clock)" {
                push(format!(
                    "`{line}`: an instance clock must be `clock` itself (no derived clocks)"
                ));
            }
            continue;
        }
        if compact.contains("negedge") {
            push(format!("`{line}`: negedge logic (one clock edge only)"));
        }
        if idents(line).any(|w| w == "clock") {
            push(format!(
                "`{line}` uses `clock` as data (no derived or gated clocks)"
            ));
        }
    }
    if always > 1 {
        push(format!(
            "{always} always blocks: one `always @(posedge clock)` per module"
        ));
    }
    if comb > 1 {
        push(format!(
            "{comb} combinational blocks: at most one `always @* begin : outputs` per module"
        ));
    }
    if always > 0 && !clock_is_input {
        push("registers without a one-bit input `clock`".to_string());
    }
    if one_bit_regs.len() > MAX_ONE_BIT_REGS {
        push(format!(
            "{} one-bit registers ({}…): a multi-bit quantity kept as bits? (at most {MAX_ONE_BIT_REGS})",
            one_bit_regs.len(),
            one_bit_regs[..4].join(", ")
        ));
    }
    // Runs of `<base>_<k>` names.
    let mut runs: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for name in &declared {
        if let Some((base, idx)) = name.rsplit_once('_') {
            if let Ok(i) = idx.parse::<usize>() {
                runs.entry(base).or_default().push(i);
            }
        }
    }
    for (base, idx) in runs {
        if [0, 1, 2].iter().all(|i| idx.contains(i)) {
            push(format!(
                "signals `{base}_0`, `{base}_1`, `{base}_2`… ({} of them): one quantity split into bits or parts; make it one vector",
                idx.len()
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issues(text: &str) -> Vec<String> {
        check_files([("x.v", text)])
            .into_iter()
            .map(|i| i.what)
            .collect()
    }

    const GOOD: &str = "module good (\n    input wire clock,\n    input wire [3:0] a,\n    output wire [3:0] y\n);\n    reg [3:0] r;\n    reg f;\n    wire [3:0] n = a ^ r;\n    assign y = r;\n    sub u0 (\n        .clock(clock),\n        .x(n)\n    );\n    always @(posedge clock) begin\n        r <= n;\n        f <= ~f;\n    end\nendmodule\n";

    #[test]
    fn accepts_word_level_single_clock_modules() {
        assert_eq!(issues(GOOD), Vec::<String>::new());
        // An attribute on the process (a kept register copy) is still the one clock.
        let kept = GOOD.replace("    always @(", "    (* keep *) always @(");
        assert_eq!(issues(&kept), Vec::<String>::new());
        let negedge = GOOD.replace("    always @(posedge", "    (* keep *) always @(negedge");
        assert!(issues(&negedge).iter().any(|i| i.contains("posedge clock")));
    }

    #[test]
    fn rejects_derived_clocks_other_always_blocks_and_split_bits() {
        let derived = GOOD.replace(
            "wire [3:0] n = a ^ r;",
            "wire [3:0] n = a ^ r;\n    wire r_clock = clock;",
        );
        assert!(issues(&derived).iter().any(|i| i.contains("as data")));
        let pin = GOOD.replace(".clock(clock)", ".clock(n[0])");
        assert!(issues(&pin).iter().any(|i| i.contains("instance clock")));
        let comb = GOOD.replace(
            "    assign y = r;",
            "    always @(*) y2 = r;\n    assign y = r;",
        );
        assert!(issues(&comb).iter().any(|i| i.contains("posedge clock")));
        let split = GOOD.replace("    reg f;", "    reg r_0;\n    reg r_1;\n    reg r_2;");
        assert!(issues(&split).iter().any(|i| i.contains("split into bits")));
        let many: String = (0..20).map(|i| format!("    reg flag{i};\n")).collect();
        let flags = GOOD.replace("    reg f;\n", &many);
        assert!(issues(&flags)
            .iter()
            .any(|i| i.contains("one-bit registers")));
    }
}
