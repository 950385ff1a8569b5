//! Every combinational block that goes through the rust-hdl adapter is glitch-free in an
//! event-driven simulator (docs/decisions/comb-blocks.md): inside an `always @(*)` block,
//! a signal that another process can see (a port, a net connected to a child, a signal
//! used anywhere else in the module) is assigned by at most one statement. Without the
//! rewrite, rust-hdl's default-then-override style assigns it several times (`dn_lt_0 =
//! 1'b0; … dn_lt_0 = keys_lt_0;`) and Icarus loops forever on the glitches.
//!
//! The check reads the emitted text on its own terms (it counts assignment statements, so
//! it is stricter than needed for a signal assigned once in each branch of an `if`).

use lcanet_hdl::hypercube::cube::cube_design;
use lcanet_hdl::lca_net::{emit_fabric, NetSpec};
use lcanet_hdl::min::build;
use lcanet_hdl::netlist::Emitted;
use lcanet_hdl::rusthdl::import_verilog;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::routing::Algorithm;
use lcanet_sim::lcan::{Size, Topology};
use lcanet_sim::min::{Min, Network};
use std::collections::{HashMap, HashSet};

fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// `(signal, statements)` for every signal of `text` that some `always @(*) begin … end`
/// block assigns in more than one statement while something outside the block sees it.
fn glitching_targets(text: &str) -> Vec<(String, usize)> {
    let mut assigned: Vec<HashMap<String, usize>> = Vec::new();
    let mut outside: HashSet<&str> = HashSet::new();
    let mut depth = 0usize;
    for line in text.lines() {
        let t = line.trim();
        if depth == 0 && t == "always @(*) begin" {
            assigned.push(HashMap::new());
            depth = 1;
            continue;
        }
        if depth > 0 {
            depth += words(t).filter(|w| *w == "begin").count();
            depth -= words(t).filter(|w| *w == "end").count();
            let lhs = t.split_once(" = ").map(|(l, _)| l);
            if let Some(name) = lhs.filter(|l| words(l).count() == 1 && !l.contains('(')) {
                if let Some(counts) = assigned.last_mut() {
                    *counts.entry(name.to_owned()).or_insert(0) += 1;
                }
            }
            continue;
        }
        // A local's own declaration (`reg [3:0] x;`) does not make it visible elsewhere.
        if !t.starts_with("reg ") {
            outside.extend(words(t));
        }
    }
    let mut found: Vec<(String, usize)> = assigned
        .into_iter()
        .flatten()
        .filter(|(name, n)| *n > 1 && outside.contains(name.as_str()))
        .collect();
    found.sort();
    found
}

fn assert_glitch_free(what: &str, emitted: &Emitted) {
    let mut blocks = 0;
    for f in &emitted.modules {
        blocks += f.contents.matches("always @(*) begin").count();
        let bad = glitching_targets(&f.contents);
        assert!(
            bad.is_empty(),
            "{what}: {} assigns visible signals more than once in one `always @(*)` block (signal, statements): {bad:?}",
            f.name
        );
    }
    assert!(blocks > 0, "{what}: no combinational block was checked");
}

#[test]
fn the_checker_finds_a_default_then_override_block() {
    let text = "module m(a, y);\n    input wire a;\n    output reg y;\n    reg t;\n    always @(*) begin\n        y = 1'b0;\n        t = a;\n        t = ~t;\n        if (a) begin\n            y = t;\n        end\n    end\n    wire z;\nendmodule";
    assert_eq!(glitching_targets(text), [("y".to_owned(), 2)]);
}

#[test]
fn the_adapter_rewrites_a_default_then_override_block() {
    // The layout rust-hdl 0.46 writes.
    let raw = [
        "",
        "",
        "module top(a,b,y);",
        "",
        "    // Module arguments",
        "    input wire a;",
        "    input wire b;",
        "    output reg y;",
        "",
        "    // Local signals",
        "    reg t;",
        "",
        "    // Update code",
        "    always @(*) begin",
        "        y = 1'b0;",
        "        t = a;",
        "        t = t & b;",
        "        if (t) begin",
        "            y = a;",
        "        end",
        "    end",
        "",
        "endmodule // top",
        "",
    ]
    .join("\n");
    let modules = import_verilog("m", &raw).expect("imports");
    let mut design = lcanet_hdl::netlist::Design::new("m");
    design.add_leaf_tree(modules).expect("adds");
    let emitted = design.emit().expect("emits");
    let text = &emitted.modules[0].contents;
    assert!(text.contains("reg y__c;"), "{text}");
    assert!(
        text.contains("y__c = 1'b0;") && text.contains("y__c = a;"),
        "{text}"
    );
    assert!(text.contains("        y = y__c;\n    end\n"), "{text}");
    // `t` is used only inside the block: nothing else watches it, so it stays.
    assert!(
        text.contains("t = t & b;") && !text.contains("t__c"),
        "{text}"
    );
    assert_eq!(glitching_targets(text), []);
}

#[test]
fn lca_networks_are_glitch_free() {
    for (topo, algorithm, policy) in [
        (
            Topology::tree(2, 1, Size::Levels(2)),
            Algorithm::R2,
            ArbiterPolicy::Fixed,
        ),
        (
            Topology::complete_bipartite(2, 2, Size::Levels(3)),
            Algorithm::R2,
            ArbiterPolicy::RoundRobin,
        ),
        (
            Topology::tree(4, 2, Size::Levels(2)),
            Algorithm::R1,
            ArbiterPolicy::Random,
        ),
    ] {
        let topo = topo.unwrap();
        let what = format!("{topo:?} {algorithm:?}");
        let spec = NetSpec::new(topo, algorithm, policy, 1, 4).unwrap();
        assert_glitch_free(&what, &emit_fabric(&spec).unwrap());
    }
}

#[test]
fn hypercube_and_min_are_glitch_free() {
    let (cube, _) = cube_design(2, 4).unwrap();
    assert_glitch_free("hypercube k=2", &cube.emit().unwrap());
    let min = Min::new(Network::Omega, 3).unwrap();
    assert_glitch_free("omega m=3", &build(&min, 5).unwrap().design.emit().unwrap());
}
