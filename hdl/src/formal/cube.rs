//! The formal harness of the hypercube node router (the default overlapped router,
//! `hc_node_k{K}_l{L}`, `docs/hypercube.md` §3, §12): `hc_formal` instantiates the
//! cube's own controller (`hc_ctrl_k{K}_l{L}`, inputs `reset`, `start`, `algorithm` free),
//! the tap that turns its decode into the node's broadcast, and one node whose links (`dim_in`), address,
//! message and `send` are free — every neighbour behaviour, every run of Algorithm 1 or 2
//! the controller can be started into. Over the node's ports it asserts:
//!
//! - `CHECK_P1` (transit, §3.2, §12.1): every pipeline register `P_j` takes the OR of the
//!   stay output of the stage below it and the link of that stage's dimension (the link
//!   only outside its enumeration window `ewin`, only for the dimensions above the loop's
//!   `i`), the injection register also the node's own frame bit; each stage runs the
//!   table of §3.2 (IDLE, HEAD: consume the address bit and re-emit the start bit, then
//!   PASS-STAY / PASS-CROSS), cleared by `s_clear` / `sclr`. Asserted: every outgoing link
//!   `dim_out[d]` carries stage `d`'s cross output (outside `ewin[d]` and the cross of
//!   dimension `i`, which carry the enumeration and step 1), and `rx_bit` is the delivery
//!   register (`P_k` ascending, `P_{i+1}` descending, 0 otherwise). So no bit is lost,
//!   duplicated or reordered through the node: each bit that enters leaves once, on the
//!   link or delivery its address bits name, in the order it came;
//! - `CHECK_P2` (collision, §3.2): `collision` is set exactly when, in a routing phase, both
//!   inputs of a pipeline register (a stay output and a link) are 1 in the same bit time,
//!   stays set, and is cleared by `load` only (the register holds their OR: P1);
//! - `CHECK_P3` (Algorithm 1, one frame end to end, §3.3): in a `semi` phase in which the
//!   node sends nothing (`send` was 0 at the load) and one aligned frame arrives from the
//!   neighbour across dimension `d0` (its start bit at phase cycle `c = 2 + 2·d0`, nothing
//!   else on any link), the frame leaves on the link of the first dimension `d > d0`
//!   whose address bit is 1 (start bit at `c = 2 + 2d`), or is delivered (`rx_bit`, start
//!   bit at `c = 2k + 1`) if there is none: every bit after the consumed address bits, in
//!   order, one per bit time; every other output 0. Written from §3.3's timing, with no
//!   model of the pipeline;
//! - `AUX`: the node's pipeline, stage states and collision flag are the model's (`p`,
//!   `stage_pass`/`stage_dir` as §3.2's `(pass, dir)`, `coll`), and the loop thermometer
//!   `low` is a thermometer (§2).
//!
//! The node's own frame bit (`tx`) is read from the node: what the node injects is
//! co-simulated (`testbench/tests/hypercube_cosim.rs`), what happens to every bit that
//! enters its pipeline is proved here. All harness registers power up at zero.

use super::text::{literal, Text};
use super::Harness;
use crate::netlist::{Direction, Module};
use lcanet_sim::hypercube::CubeParams;

/// The node's internal signals the harness reads (`docs/hypercube.md` §2 names `p`,
/// `stage_pass`, `stage_dir`, `coll`; `tx` is the node's own frame bit), with widths.
pub fn exposed(p: CubeParams) -> Vec<(String, usize)> {
    let k = p.k();
    [
        ("p", k + 1),
        ("stage_pass", k),
        ("stage_dir", k),
        ("coll", 1),
        ("tx", 1),
    ]
    .into_iter()
    .map(|(n, w)| (n.to_string(), w))
    .collect()
}

/// Bit times of Algorithm 1's `semi` phase, `2k + L + 2` (§3.3).
pub fn semi_len(p: CubeParams) -> usize {
    2 * p.k() + p.payload_bits() + 2
}

fn ports_of(m: &Module, dir: Direction) -> Vec<(String, usize)> {
    m.ports
        .iter()
        .filter(|q| q.direction == dir && q.name != "clock")
        .map(|q| (q.name.clone(), q.width))
        .collect()
}

/// The harness of the node `node` driven by the controller `ctrl` (through the tap `tap`,
/// if the cube has one between them).
pub fn harness(p: CubeParams, node: &Module, ctrl: &Module, tap: Option<&Module>) -> Harness {
    let (k, l) = (p.k(), p.payload_bits());
    let mut t = Text::new();
    t.line(format!(
        "// Formal harness of {} (lcanet prove cube; docs/formal.md). Do not edit: regenerate.",
        node.name
    ));
    t.line(format!("// k={k} L={l} M={}", p.message_bits()));
    t.line("`default_nettype none");
    t.line("");
    t.line("module hc_formal (");
    t.line("    input wire clock,");
    t.line("    input wire reset,");
    t.line("    input wire start,");
    t.line("    input wire algorithm,");
    t.line(format!("    input wire [{}:0] my_addr,", k - 1));
    t.line("    input wire send,");
    t.line(format!("    input wire [{}:0] dest,", k - 1));
    t.line(format!("    input wire [{}:0] payload,", l - 1));
    t.line(format!("    input wire [{}:0] dim_in", k - 1));
    t.line(");");
    t.line("");
    t.line(
        "    // The cube's controller and the node's tap (outputs as wires of the ports' names)",
    );
    t.instance_all(ctrl, "ctrl");
    if let Some(tap) = tap {
        t.instance_all(tap, "tap");
    }
    t.line("");
    t.line("    // The node: every controller output it reads, the free links and message");
    let node_in: Vec<String> = ports_of(node, Direction::Input)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let mut ins: Vec<&str> = vec!["clock"];
    ins.extend(node_in.iter().map(String::as_str));
    let node_out = ports_of(node, Direction::Output);
    let outs: Vec<(&str, usize)> = node_out.iter().map(|(n, w)| (n.as_str(), *w)).collect();
    let pins: Vec<(&str, &str)> = outs.iter().map(|(n, _)| (*n, *n)).collect();
    t.instance(&node.name, "node", &ins, &outs, &pins, &exposed(p));
    t.line("");
    model(&mut t, p);
    transit(&mut t, p);
    frame(&mut t, p);
    witness(&mut t, p);
    t.line("`ifdef AUX");
    let st: Vec<String> = (0..k)
        .map(|d| {
            format!(
                "{{stage_pass[{d}], stage_dir[{d}]}} == f_st[{}:{}]",
                2 * d + 1,
                2 * d
            )
        })
        .collect();
    t.check("A1 pipeline registers", None, "p == f_p".into());
    t.check("A1 stage states", None, format!("({})", st.join(" && ")));
    t.check("A1 collision flag", None, "coll == f_coll".into());
    t.check("A2 low is a thermometer", None, thermometer("low", k));
    t.line("`endif");
    t.line("endmodule");
    t.line("");
    t.line("`default_nettype wire");
    Harness {
        top: "hc_formal".into(),
        switch: node.name.clone(),
        text: t.0,
    }
}

/// `v` (`k` bits) is `0…01…1`.
fn thermometer(v: &str, k: usize) -> String {
    let ok: Vec<String> = (0..=k)
        .map(|ones| format!("{v} == {}", literal(k, |b| b < ones)))
        .collect();
    format!("({})", ok.join(" || "))
}

/// The pipeline of §3.2 and §12.1, from the broadcast and the links: the model the
/// transit (P1) and collision (P2) properties compare the node's ports with.
fn model(t: &mut Text, p: CubeParams) {
    let k = p.k();
    t.line(
        "    // The model of §3.2 / §12.1: loop i works in the dimensions above i (act = ~low);",
    );
    t.line("    // it injects into P_{i+1} (P_0 in semi, P_k after the last dimension) and the");
    t.line("    // rendezvous delivers there; dimi = onehot(i) is the cross's dimension.");
    t.line(format!("    wire [{}:0] f_act = ~low;", k - 1));
    let inj: Vec<String> = (0..=k)
        .rev()
        .map(|j| {
            let below = if j == 0 {
                "1'b1".to_string()
            } else {
                format!("(&low[{}:0])", j - 1)
            };
            let here = if j == k {
                "1'b1".to_string()
            } else {
                format!("!low[{j}]")
            };
            format!("({below} && {here})")
        })
        .collect();
    t.line(format!("    wire [{k}:0] f_inj = {{{}}};", inj.join(", ")));
    let dimi: Vec<String> = (0..k)
        .rev()
        .map(|d| {
            if d + 1 == k {
                format!("low[{d}]")
            } else {
                format!("(low[{d}] && !low[{}])", d + 1)
            }
        })
        .collect();
    t.line(format!(
        "    wire [{}:0] f_dimi = {{{}}};",
        k - 1,
        dimi.join(", ")
    ));
    t.line("    // Pipeline registers P_0..P_k and the stage states (2 bits per stage, §3.2's");
    t.line("    // (pass, dir): 0 IDLE, 1 HEAD, 2 PASS-STAY, 3 PASS-CROSS)");
    t.line(format!("    reg [{k}:0] f_p = {}'d0;", k + 1));
    t.line(format!("    reg [{}:0] f_st = {}'d0;", 2 * k - 1, 2 * k));
    t.line("    reg f_coll = 1'b0;");
    t.line("    // A stage reads P_d ascending, P_{d+1} descending (only if it runs)");
    let lo = if k == 1 {
        "f_p[0]".to_string()
    } else {
        format!("f_p[{}:0]", k - 1)
    };
    let hi = if k == 1 {
        "f_p[1]".to_string()
    } else {
        format!("f_p[{k}:1]")
    };
    t.line(format!(
        "    wire [{km}:0] f_b = f_act & (({lo} & {{{k}{{fwd}}}}) | ({hi} & {{{k}{{bwd}}}}));",
        km = k - 1
    ));
    for d in 0..k {
        let s = format!("f_st[{}:{}]", 2 * d + 1, 2 * d);
        t.line(format!(
            "    wire f_stay{d} = f_act[{d}] && (({s} == 2'd1 && !f_b[{d}]) || ({s} == 2'd2 && f_b[{d}]));"
        ));
        t.line(format!(
            "    wire f_cross{d} = f_act[{d}] && ({s} == 2'd1 || {s} == 2'd3) && f_b[{d}];"
        ));
        t.line(format!(
            "    wire [1:0] f_nst{d} = (s_clear || sclr[{d}]) ? 2'd0 : {s} == 2'd0 ? {{1'b0, f_b[{d}]}} : {s} == 2'd1 ? {{1'b1, f_b[{d}]}} : {s};"
        ));
    }
    let cat = |f: &dyn Fn(usize) -> String| -> String {
        let v: Vec<String> = (0..k).rev().map(f).collect();
        format!("{{{}}}", v.join(", "))
    };
    t.line(format!(
        "    wire [{}:0] f_stay = {};",
        k - 1,
        cat(&|d| format!("f_stay{d}"))
    ));
    t.line(format!(
        "    wire [{}:0] f_cross = {};",
        k - 1,
        cat(&|d| format!("f_cross{d}"))
    ));
    t.line("    // A link enters the pipeline only if its dimension runs, outside its enumeration window");
    t.line(format!(
        "    wire [{}:0] f_link = dim_in & f_act & ~ewin;",
        k - 1
    ));
    t.line(format!(
        "    wire [{}:0] f_arrive = f_stay | f_link;",
        k - 1
    ));
    t.line("    wire f_meet = (fwd || bwd) && (|(f_stay & f_link));");
    t.line(
        "    wire f_deliver = (fwd && f_p[K]) || (bwd && (|(f_p & f_inj)));"
            .replace("K", &k.to_string()),
    );
    t.line("    always @(posedge clock) begin");
    t.line(format!(
        "        if (fwd) f_p <= {{f_arrive, 1'b0}} | (f_inj & {{{}{{tx}}}});",
        k + 1
    ));
    t.line("        else if (bwd) f_p <= {tx, f_arrive};");
    t.line(format!("        else f_p <= {}'d0;", k + 1));
    t.line(format!(
        "        f_st <= {};",
        cat(&|d| format!("f_nst{d}"))
    ));
    t.line("        if (load) f_coll <= 1'b0;");
    t.line("        else if (f_meet) f_coll <= 1'b1;");
    t.line("    end");
    t.line("");
}

/// P1 (the links and the delivery register carry the model's bits) and P2 (collision).
fn transit(t: &mut Text, p: CubeParams) {
    let k = p.k();
    t.line("`ifdef CHECK_P1");
    t.check("P1 delivery register", None, "rx_bit == f_deliver".into());
    for d in 0..k {
        t.check(
            &format!("P1 link {d}"),
            Some(format!("!ewin[{d}] && !(f_dimi[{d}] && ph_cross)")),
            format!("dim_out[{d}] == f_cross{d}"),
        );
    }
    t.line("`endif");
    t.line("`ifdef CHECK_P2");
    t.check("P2 collision flag", None, "collision == f_coll".into());
    t.line("`endif");
}

/// P3: one aligned frame through the node in Algorithm 1, from §3.3's timing alone.
fn frame(t: &mut Text, p: CubeParams) {
    let (k, l) = (p.k(), p.payload_bits());
    let last = 2 * k + l + 1;
    t.line("`ifdef CHECK_P3");
    t.line("    // The semi phase's cycle c (0 at its c_start), and whether the node sends");
    t.line("    reg [7:0] f_c = 8'd0;");
    t.line("    reg f_in = 1'b0;");
    t.line("    reg f_sent = 1'b0;");
    t.line("    wire f_c0 = ph_semi && c_start;");
    t.line("    wire [7:0] f_cn = f_c0 ? 8'd0 : f_c;");
    t.line("    wire f_semi = f_c0 || (ph_semi && f_in);");
    t.line("    always @(posedge clock) begin");
    t.line("        f_c <= (f_cn == 8'd255) ? f_cn : f_cn + 8'd1;");
    t.line("        f_in <= f_semi;");
    t.line("        if (load) f_sent <= send;");
    t.line("    end");
    t.line("    // What the links carried 1..k bit times ago (bit n-1: n ago)");
    t.line(format!("    reg [{}:0] f_h = {}'d0;", k * k - 1, k * k));
    t.line("    always @(posedge clock) begin");
    for d in 0..k {
        let keep = if k > 1 {
            format!("{{{}, dim_in[{d}]}}", super::text::sl("f_h", d * k, k - 1))
        } else {
            format!("dim_in[{d}]")
        };
        t.line(format!(
            "        {} <= {keep};",
            super::text::row("f_h", d, k)
        ));
    }
    t.line("    end");
    for d0 in 0..k {
        let s0 = 2 + 2 * d0;
        let others = if k == 1 {
            "1'b1".to_string()
        } else {
            format!("((dim_in & ~{}) == {k}'d0)", literal(k, |b| b == d0))
        };
        t.line(format!(
            "    // A frame from across dimension {d0}: its start bit at c = {s0}, nothing else;"
        ));
        t.line(format!(
            "    // f_a{d0}[a] its address bit a (of dimension {d0} + a), taken at c = {s0} + a"
        ));
        t.line(format!("    reg [{k}:0] f_a{d0} = {}'d0;", k + 1));
        t.line(format!("    reg f_ok{d0} = 1'b0;"));
        t.line(format!(
            "    wire f_now{d0} = {others} && (f_cn < 8'd{s0} ? !dim_in[{d0}] : (f_cn == 8'd{s0} ? dim_in[{d0}] : 1'b1));"
        ));
        t.line(format!(
            "    wire f_g{d0} = f_semi && !f_sent && (f_c0 || f_ok{d0}) && f_cn <= 8'd{last};"
        ));
        t.line("    always @(posedge clock) begin");
        t.line(format!(
            "        f_ok{d0} <= f_semi && (f_c0 || f_ok{d0}) && f_now{d0};"
        ));
        t.line(format!("        if (f_c0) f_a{d0} <= {}'d0;", k + 1));
        for a in 1..k - d0 {
            t.line(format!(
                "        if (f_semi && f_cn == 8'd{}) f_a{d0}[{a}] <= dim_in[{d0}];",
                s0 + a
            ));
        }
        t.line("    end");
        // Expected output j (a link d0 < j < k, or the delivery j = k): its start bit at
        // `first`, then the bit that arrived j − d0 bit times earlier.
        let mut exp = Vec::new();
        for j in d0 + 1..=k {
            let first = if j == k { 1 + 2 * k } else { 2 + 2 * j };
            let mut path: Vec<String> = (1..j - d0).map(|a| format!("!f_a{d0}[{a}]")).collect();
            if j < k {
                path.push(format!("f_a{d0}[{}]", j - d0));
            }
            let path = if path.is_empty() {
                "1'b1".to_string()
            } else {
                path.join(" && ")
            };
            t.line(format!(
                "    wire f_x{d0}_{j} = ({path}) && (f_cn == 8'd{first} || (f_cn > 8'd{first} && f_h[{}]));",
                d0 * k + (j - d0) - 1
            ));
            exp.push((j, format!("f_x{d0}_{j}")));
        }
        let wire_exp: Vec<String> = (0..k)
            .rev()
            .map(|j| {
                exp.iter()
                    .find(|(jj, _)| *jj == j)
                    .map_or("1'b0".into(), |(_, e)| e.clone())
            })
            .collect();
        let rx_exp = exp
            .iter()
            .find(|(jj, _)| *jj == k)
            .map_or("1'b0".into(), |(_, e)| e.clone());
        t.check(
            &format!("P3 frame from dimension {d0}"),
            Some(format!("f_g{d0}")),
            format!(
                "{{rx_bit, dim_out}} == {{{rx_exp}, {}}}",
                wire_exp.join(", ")
            ),
        );
    }
    t.line("`endif");
}

/// The witness: a single frame's body bit leaves under P3's conditions, a collision is
/// flagged, and (k ≥ 2) the rendezvous of a full run delivers a bit.
fn witness(t: &mut Text, p: CubeParams) {
    let k = p.k();
    t.line("`ifdef CHECK_WITNESS");
    t.line("    reg f_w_frame = 1'b0;");
    t.line("    reg f_w_coll = 1'b0;");
    t.line("    reg f_w_rdv = 1'b0;");
    t.line("    reg [7:0] f_wc = 8'd0;");
    t.line("    reg f_win = 1'b0;");
    t.line("    reg f_wsent = 1'b0;");
    t.line("    wire f_wc0 = ph_semi && c_start;");
    t.line("    wire [7:0] f_wcn = f_wc0 ? 8'd0 : f_wc;");
    t.line("    wire f_wsemi = f_wc0 || (ph_semi && f_win);");
    t.line("    reg f_wone = 1'b0;");
    t.line("    // One frame, from across dimension 0, and the node sends nothing");
    let others = if k == 1 {
        "1'b1".to_string()
    } else {
        format!("(dim_in[{}:1] == {}'d0)", k - 1, k - 1)
    };
    t.line(format!(
        "    wire f_wnow = {others} && (f_wcn < 8'd2 ? !dim_in[0] : (f_wcn == 8'd2 ? dim_in[0] : 1'b1));"
    ));
    t.line("    always @(posedge clock) begin");
    t.line("        f_wc <= (f_wcn == 8'd255) ? f_wcn : f_wcn + 8'd1;");
    t.line("        f_win <= f_wsemi;");
    t.line("        if (load) f_wsent <= send;");
    t.line("        f_wone <= f_wsemi && (f_wc0 || f_wone) && f_wnow;");
    t.line(format!(
        "        if (f_wsemi && f_wone && !f_wsent && f_wcn > 8'd{} && (rx_bit || (|dim_out))) f_w_frame <= 1'b1;",
        2 * k + 1
    ));
    t.line("        if (collision) f_w_coll <= 1'b1;");
    t.line("        if (bwd && rx_bit) f_w_rdv <= 1'b1;");
    t.line("    end");
    let rdv = if k >= 2 { " && f_w_rdv" } else { "" };
    t.check("witness", None, format!("!(f_w_frame && f_w_coll{rdv})"));
    t.line("`endif");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hypercube::cube::blocks;
    use crate::hypercube::overlap::controller::tap;
    use crate::hypercube::Router;

    #[test]
    fn the_harness_wires_the_controller_into_the_node() {
        let p = CubeParams::new(3, 2).unwrap();
        let (node, ctrl) = blocks(Router::Overlapped, p);
        let tap = tap(p);
        let h = harness(p, &node, &ctrl, Some(&tap));
        assert_eq!(h.switch, "hc_node_k3_l2");
        for def in ["CHECK_P1", "CHECK_P2", "CHECK_P3", "AUX", "CHECK_WITNESS"] {
            assert!(h.text.contains(&format!("`ifdef {def}")), "{def}");
        }
        // Every strobe the node reads comes from the tap, the tap's decode from the
        // controller.
        for port in node
            .ports
            .iter()
            .filter(|q| q.direction == Direction::Input)
        {
            assert!(
                h.text.contains(&format!(".{0}({0})", port.name)),
                "{}",
                port.name
            );
        }
        assert!(h.text.contains("hc_ctrl_k3_l2_tap tap"));
        assert!(h.text.contains(".pre(pre)"));
        for (n, _) in exposed(p) {
            assert!(h.text.contains(&format!(".{n}({n})")), "{n}");
        }
        // One P3 check per dimension a frame can arrive from.
        assert_eq!(h.text.matches("P3 frame from dimension").count(), 3);
    }
}
