//! Replaces instances of rust-hdl's `DFF` modules by flops written in the parent.
//!
//! rust-hdl writes every `DFF<T>` as a module of its own (`initial q = <init>;` and
//! `always @(posedge clock) q <= d;`) and every flip-flop of a block as an instance of it.
//! A switch of a large network holds a few hundred of them, and Verilator pays per
//! instance (one scope, one set of functions, long hierarchical names: the front end of a
//! 64-PE network spent 90 of its 160 s in `scope`/`linkdot` on 57,000 flop instances).
//! The parent therefore gets the flop itself, under the instance's name:
//!
//! ```verilog
//! reg [3:0] state;                          // was: dff_4 state(.d(state_d), …);
//! initial state = 4'h0;
//! always @(posedge state_clock) state <= state_d;
//! assign state_q = state;
//! ```
//!
//! Same behaviour in every simulator (the instance's ports were exactly these
//! connections), same names for everything the parent declared (`state_q` stays the wire a
//! test bench watches), and the `DFF` module disappears from the tree once nothing
//! instantiates it. A module is treated as a flop only if its ports and body are exactly
//! rust-hdl's `DFF` text; an instance whose connection list is not the plain
//! `.d(…), .q(…), .clock(…)` form is left as it was.

use crate::netlist::{Body, Direction, Leaf, LeafLine, Module};
use std::collections::{HashMap, HashSet};

/// What a flop module is: width, signedness and initial value (Verilog literal).
#[derive(Debug, Clone)]
struct Flop {
    width: usize,
    signed: bool,
    init: String,
}

/// Inlines every instance of a flop module in `tree` (children first, root last, as
/// [`super::convert`] returns it) and drops the flop modules no longer instantiated.
pub(crate) fn inline_flops(tree: Vec<Module>) -> Vec<Module> {
    let Some(root) = tree.last().map(|m| m.name.clone()) else {
        return tree;
    };
    let flops: HashMap<String, Flop> = tree
        .iter()
        .filter(|m| m.name != root)
        .filter_map(|m| flop_of(m).map(|f| (m.name.clone(), f)))
        .collect();
    if flops.is_empty() {
        return tree;
    }
    let mut tree = tree;
    for module in &mut tree {
        if let Body::Leaf(leaf) = &mut module.body {
            leaf.lines = rewrite_lines(std::mem::take(&mut leaf.lines), &flops);
        }
    }
    let used: HashSet<String> = tree
        .iter()
        .flat_map(|m| m.instantiated_modules().into_iter().map(str::to_owned))
        .collect();
    tree.into_iter()
        .filter(|m| !flops.contains_key(&m.name) || used.contains(&m.name))
        .collect()
}

/// `Some` if `m` is exactly rust-hdl's `DFF`: ports `d`, `q` (reg), `clock`, and a body of
/// `initial begin q = <init>; end` and `always @(posedge clock) begin q <= d; end`.
fn flop_of(m: &Module) -> Option<Flop> {
    let Body::Leaf(leaf) = &m.body else {
        return None;
    };
    if m.ports.len() != 3 {
        return None;
    }
    let d = m.port("d")?;
    let q = m.port("q")?;
    let clock = m.port("clock")?;
    let q_index = m.ports.iter().position(|p| p.name == "q")?;
    let q_style = leaf.port_styles.get(q_index)?;
    let d_style = leaf
        .port_styles
        .get(m.ports.iter().position(|p| p.name == "d")?)?;
    if d.direction != Direction::Input
        || q.direction != Direction::Output
        || clock.direction != Direction::Input
        || clock.width != 1
        || d.width != q.width
        || !q_style.reg
        || d_style.signed != q_style.signed
    {
        return None;
    }
    let text = significant_lines(leaf)?;
    let [a, b, c, e, f, g] = text.as_slice() else {
        return None;
    };
    let init = b.strip_prefix("q = ")?.strip_suffix(';')?.trim();
    let shape_ok = *a == "initial begin"
        && *c == "end"
        && *e == "always @(posedge clock) begin"
        && *f == "q <= d;"
        && *g == "end";
    (shape_ok && is_literal(init)).then(|| Flop {
        width: q.width,
        signed: q_style.signed,
        init: init.to_owned(),
    })
}

/// The body's lines, trimmed, without blank and `//` comment lines; `None` if the body
/// instantiates anything.
fn significant_lines(leaf: &Leaf) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    for line in &leaf.lines {
        let LeafLine::Text(t) = line else {
            return None;
        };
        let t = t.trim();
        if !t.is_empty() && !t.starts_with("//") {
            out.push(t);
        }
    }
    Some(out)
}

/// A sized or plain number (`1'h0`, `4'b1010`, `12`): nothing that could refer to a signal.
fn is_literal(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '\'' || c == '_')
        && s.starts_with(|c: char| c.is_ascii_digit())
}

/// Rewrites the flop instances among `lines`.
fn rewrite_lines(lines: Vec<LeafLine>, flops: &HashMap<String, Flop>) -> Vec<LeafLine> {
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        if let LeafLine::Instance {
            indent,
            module,
            rest,
        } = &lines[i]
        {
            if let Some(flop) = flops.get(module) {
                if let Some((text, used)) = inline_instance(indent, rest, &lines[i + 1..], flop) {
                    out.extend(text.into_iter().map(LeafLine::Text));
                    i += 1 + used;
                    continue;
                }
            }
        }
        out.push(lines[i].clone());
        i += 1;
    }
    out
}

/// The replacement of one instance (`rest` is ` name(`, `tail` the lines after it) and the
/// number of `tail` lines it consumed; `None` if the connections are not in the plain form.
fn inline_instance(
    indent: &str,
    rest: &str,
    tail: &[LeafLine],
    flop: &Flop,
) -> Option<(Vec<String>, usize)> {
    let name = rest.trim().strip_suffix('(')?.trim();
    let mut conns = String::new();
    let mut used = 0;
    for line in tail {
        let LeafLine::Text(t) = line else {
            return None;
        };
        used += 1;
        conns.push_str(t.trim());
        if t.trim_end().ends_with(");") {
            break;
        }
    }
    let conns = conns.strip_suffix(");")?;
    let pins = parse_connections(conns)?;
    let pin = |port: &str| {
        pins.iter()
            .find(|(p, _)| p == port)
            .map(|(_, e)| e.as_str())
    };
    let (d, q, clock) = (pin("d")?, pin("q")?, pin("clock")?);
    if pins.len() != 3 || [d, q, clock].iter().any(|e| e.is_empty()) {
        return None;
    }
    let range = if flop.width > 1 {
        format!(" [{}:0]", flop.width - 1)
    } else {
        String::new()
    };
    let signed = if flop.signed { " signed" } else { "" };
    Some((
        vec![
            format!("{indent}reg{signed}{range} {name};"),
            format!("{indent}initial {name} = {};", flop.init),
            format!("{indent}always @(posedge {clock}) {name} <= {d};"),
            format!("{indent}assign {q} = {name};"),
        ],
        used,
    ))
}

/// `.a(x),.b(y[3:0])` → `[("a", "x"), ("b", "y[3:0]")]`; `None` on anything else.
fn parse_connections(s: &str) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut rest = s.trim();
    while !rest.is_empty() {
        rest = rest.strip_prefix('.')?;
        let open = rest.find('(')?;
        let port = rest[..open].trim().to_owned();
        let mut depth = 0usize;
        let mut close = None;
        for (k, c) in rest[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + k);
                        break;
                    }
                }
                _ => {}
            }
        }
        let close = close?;
        out.push((port, rest[open + 1..close].trim().to_owned()));
        rest = rest[close + 1..].trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::netlist::{Port, PortStyle};

    fn text(lines: &[&str]) -> Vec<LeafLine> {
        lines
            .iter()
            .map(|l| LeafLine::Text((*l).to_owned()))
            .collect()
    }

    fn dff(name: &str, width: usize, init: &str) -> Module {
        Module {
            name: name.to_owned(),
            ports: vec![
                Port::input("d", width),
                Port::output("q", width),
                Port::input("clock", 1),
            ],
            body: Body::Leaf(Leaf {
                port_styles: vec![
                    PortStyle::default(),
                    PortStyle {
                        reg: true,
                        signed: false,
                    },
                    PortStyle::default(),
                ],
                lines: text(&[
                    "    // Update code (custom)",
                    "    initial begin",
                    &format!("       q = {init};"),
                    "    end",
                    "",
                    "    always @(posedge clock) begin",
                    "       q <= d;",
                    "    end",
                ]),
            }),
        }
    }

    fn parent(child: &str) -> Module {
        let mut lines = text(&[
            "    reg [3:0] s_d;",
            "    wire [3:0] s_q;",
            "    reg s_clock;",
        ]);
        lines.push(LeafLine::Instance {
            indent: "    ".into(),
            module: child.into(),
            rest: " s(".into(),
        });
        lines.extend(text(&[
            "        .d(s_d),",
            "        .q(s_q),",
            "        .clock(s_clock)",
            "    );",
            "    always @(*) begin",
            "        s_clock = clock;",
            "        s_d = s_q + 4'h1;",
            "    end",
        ]));
        Module {
            name: "top".into(),
            ports: vec![Port::input("clock", 1)],
            body: Body::Leaf(Leaf {
                port_styles: vec![PortStyle::default()],
                lines,
            }),
        }
    }

    fn lines_of(m: &Module) -> Vec<String> {
        let Body::Leaf(l) = &m.body else {
            panic!("not a leaf")
        };
        l.lines
            .iter()
            .map(|l| match l {
                LeafLine::Text(t) => t.clone(),
                LeafLine::Instance { module, rest, .. } => format!("INSTANCE {module}{rest}"),
            })
            .collect()
    }

    #[test]
    fn an_instance_becomes_a_flop_named_after_it_and_the_module_goes() {
        let out = inline_flops(vec![dff("top__s", 4, "4'h5"), parent("top__s")]);
        assert_eq!(out.len(), 1, "the DFF module is dropped");
        let lines = lines_of(&out[0]);
        let expect = [
            "    reg [3:0] s;",
            "    initial s = 4'h5;",
            "    always @(posedge s_clock) s <= s_d;",
            "    assign s_q = s;",
        ];
        assert_eq!(&lines[3..7], &expect);
        assert!(!lines
            .iter()
            .any(|l| l.contains("INSTANCE") || l.contains(".d(")));
    }

    #[test]
    fn a_module_that_is_not_exactly_a_dff_is_kept() {
        let mut odd = dff("top__s", 4, "4'h0");
        if let Body::Leaf(l) = &mut odd.body {
            l.lines[6] = LeafLine::Text("       q <= d + 4'h1;".into());
        }
        let out = inline_flops(vec![odd, parent("top__s")]);
        assert_eq!(out.len(), 2);
        assert!(lines_of(&out[1]).iter().any(|l| l == "INSTANCE top__s s("));
    }

    #[test]
    fn an_initial_value_that_is_not_a_literal_is_not_inlined() {
        let out = inline_flops(vec![dff("top__s", 4, "other"), parent("top__s")]);
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn the_root_is_never_inlined_even_if_it_is_a_dff() {
        let out = inline_flops(vec![dff("top", 1, "1'h0")]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].name, "top");
    }

    #[test]
    fn connections_with_slices_and_calls_parse() {
        let pins = parse_connections(".d(a[3:0]),.q({b, f(c)}),.clock(k)").unwrap();
        assert_eq!(pins[1], ("q".to_owned(), "{b, f(c)}".to_owned()));
        assert_eq!(pins.len(), 3);
        assert!(parse_connections("d(a)").is_none());
        assert!(parse_connections(".d(a").is_none());
    }
}
