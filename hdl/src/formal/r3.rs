//! The formal harness of the R3 switch (`docs/protocol.md` §12): `r3_formal` instantiates
//! the switch (the signals of [`exposed`] made ports by the proof script), runs its own
//! copy of the §12.3 parsers from the input wires (`f_sc`, `f_sf`), decides the requests
//! of every edge by the §12.3 rules (`f_gnt`), and asserts:
//!
//! - `CHECK_P1`, `CHECK_P2`: at most one closed crosspoint into each output, out of each
//!   input;
//! - `CHECK_P3`: a closed crosspoint stays closed until `ctl_clear` or `ctl_init`;
//! - `CHECK_P4`: one bit-time after every bit-time each output carries what §12.3 step 1
//!   and §6 say — in `SRC` and `PASS` the lanes of the input whose crosspoint drives it,
//!   in `REV` the reverse path's, a fresh `V` (lane `W−1`) where a request was granted at
//!   that edge, 0 in every other mode; so a stream leaves a switch as it came in, one
//!   bit-time later, after the switch consumed its `V` and its own field (`nf + 1`
//!   bit-times from `V` in to `V` out);
//! - `CHECK_P5`: the crosspoints after every edge are exactly those before plus the
//!   requests granted: a request is the port code in the low `f` bits of the field that
//!   follows a `V` on an input that drives nothing; it is granted iff the code names an
//!   output (`q < d + u`), a `B` input asks for a `C` output, the output is not driven,
//!   and no lower input asks for it legally at the same edge; `ctl_clear`/`ctl_init` open
//!   everything;
//! - `AUX`: the switch's parsers are the harness's (`sc = f_sc`, `sf = f_sf`), and no
//!   `B → D` crosspoint is ever closed.
//!
//! Assumptions (§3, §12): the mode is constant during a step; no `ctl_clear` in `SRC`.

use super::text::{at_most_one, or_of, row, rows, sl, Text};
use super::Harness;

/// The switch's internal signals the harness reads (`docs/protocol.md` §12.4), with
/// widths, for `d`, `u`, `W` and `f`-bit fields.
pub fn exposed(d: usize, u: usize, w: usize, f: usize) -> Vec<(String, usize)> {
    let (ports, nfw, scb) = sizes(d, u, w, f);
    [
        ("tx_c", d * w),
        ("tx_d", u * w),
        ("xp_ac", d * d),
        ("xp_ad", d * u),
        ("xp_bc", u * d),
        ("xp_bd", u * u),
        ("sc", ports * scb),
        ("sf", ports * nfw),
    ]
    .into_iter()
    .map(|(n, w)| (n.to_string(), w))
    .collect()
}

/// `(d + u, nf·W, ⌈log2(nf + 2)⌉)`.
fn sizes(d: usize, u: usize, w: usize, f: usize) -> (usize, usize, usize) {
    let nf = f.div_ceil(w);
    (
        d + u,
        nf * w,
        lcanet_sim::lcan::cycle::params::clog2(nf + 2),
    )
}

/// The harness of the R3 switch module `switch` (`d` downers, `u` uppers, `W` lanes,
/// `f`-bit route fields).
pub fn harness(d: usize, u: usize, w: usize, f: usize, switch: &str) -> Harness {
    let (ports, nfw, scb) = sizes(d, u, w, f);
    let nf = nfw / w;
    let sigs = exposed(d, u, w, f);
    let mut t = Text::new();
    t.line(format!(
        "// Formal harness of {switch} (lcanet prove r3; docs/formal.md). Do not edit: regenerate."
    ));
    t.line(format!("// d={d} u={u} W={w} f={f} nf={nf}"));
    t.line("`default_nettype none");
    t.line("");
    t.line("module r3_formal (");
    t.line("    input wire clock,");
    t.line(format!("    input wire [{}:0] a,", d * w - 1));
    t.line(format!("    input wire [{}:0] b,", u * w - 1));
    t.line("    input wire ctl_init,");
    t.line("    input wire [2:0] ctl_mode,");
    t.line("    input wire ctl_last,");
    t.line("    input wire ctl_clear");
    t.line(");");
    t.instance(
        switch,
        "sw",
        &[
            "clock",
            "a",
            "b",
            "ctl_init",
            "ctl_mode",
            "ctl_last",
            "ctl_clear",
        ],
        &[("out_c", d * w), ("out_d", u * w)],
        &[("c", "out_c"), ("d", "out_d")],
        &sigs,
    );
    t.line("");
    t.line(
        "    // The controller's rules: the mode is constant during a step; no ctl_clear in SRC.",
    );
    t.line("    reg f_mid = 1'b0;");
    t.line("    reg [2:0] f_mode = 3'd0;");
    t.line("    always @(posedge clock) begin");
    t.line("        f_mid <= !(ctl_init | ctl_last);");
    t.line("        f_mode <= ctl_mode;");
    t.line("    end");
    t.line("    always @* if (f_mid && !ctl_init) assume(ctl_mode == f_mode);");
    t.line("    always @* if (ctl_clear && !ctl_init) assume(ctl_mode != 3'd6);");
    t.line("");
    // Inputs i = A(0..d), then B(0..u); outputs o = C(0..d), then D(0..u).
    let xp = |i: usize, o: usize| -> String {
        match (i < d, o < d) {
            (true, true) => format!("xp_ac[{}]", i * d + o),
            (true, false) => format!("xp_ad[{}]", i * u + o - d),
            (false, true) => format!("xp_bc[{}]", (i - d) * d + o),
            (false, false) => format!("xp_bd[{}]", (i - d) * u + o - d),
        }
    };
    let all_xp = "{xp_ac, xp_ad, xp_bc, xp_bd}";
    t.line("    // Inputs i (A(0..d), B(0..u)) and their lanes; who drives, what is driven (§7)");
    t.line(format!("    wire [{}:0] f_in = {{b, a}};", ports * w - 1));
    t.line(format!(
        "    wire [{}:0] f_drives = {};",
        ports - 1,
        rows(ports, |i| {
            let v: Vec<String> = (0..ports).map(|o| xp(i, o)).collect();
            format!("(|{{{}}})", v.join(", "))
        })
    ));
    t.line(format!(
        "    wire [{}:0] f_driven = {};",
        ports - 1,
        rows(ports, |o| {
            let v: Vec<String> = (0..ports).map(|i| xp(i, o)).collect();
            format!("(|{{{}}})", v.join(", "))
        })
    ));
    t.line("    wire f_src = ctl_mode == 3'd6;");
    t.line("    // The parsers of §12.3 step 2, from the input wires: f_sc (0 wait for V, 1..nf");
    t.line("    // field, nf+1 done), f_sf the field shift register.");
    t.line(format!(
        "    reg [{}:0] f_sc = {}'d0;",
        ports * scb - 1,
        ports * scb
    ));
    t.line(format!(
        "    reg [{}:0] f_sf = {}'d0;",
        ports * nfw - 1,
        ports * nfw
    ));
    for i in 0..ports {
        let sc = row("f_sc", i, scb);
        let lanes = row("f_in", i, w);
        let shifted = if nfw > w {
            format!("{{{}, {lanes}}}", sl("f_sf", i * nfw, nfw - w))
        } else {
            lanes.clone()
        };
        t.line(format!(
            "    wire [{}:0] f_sf_next{i} = {shifted};",
            nfw - 1
        ));
        t.line(format!(
            "    wire f_start{i} = f_src && {sc} == {scb}'d0 && !f_drives[{i}] && f_in[{}];",
            i * w + w - 1
        ));
        t.line(format!(
            "    wire f_field{i} = f_src && {sc} >= {scb}'d1 && {sc} <= {scb}'d{nf};"
        ));
        t.line(format!("    wire f_req{i} = f_src && {sc} == {scb}'d{nf};"));
        t.line(format!(
            "    wire [{}:0] f_q{i} = {};",
            f - 1,
            sl(&format!("f_sf_next{i}"), 0, f)
        ));
        // Legal: q < d + u, and a B input only to a C output.
        let bound = if i < d { ports } else { d };
        let legal = if bound >= 1 << f {
            "1'b1".to_string()
        } else {
            format!("(f_q{i} < {f}'d{bound})")
        };
        t.line(format!("    wire f_legal{i} = f_req{i} && {legal};"));
    }
    t.line("    // The requests of this edge as rows over the outputs; the lowest input wins a free one");
    for i in 0..ports {
        t.line(format!(
            "    wire [{}:0] f_want{i} = {};",
            ports - 1,
            rows(ports, |o| format!("(f_legal{i} && f_q{i} == {f}'d{o})"))
        ));
    }
    for i in 0..ports {
        let earlier: Vec<String> = (0..i).map(|j| format!("f_want{j}")).collect();
        t.line(format!(
            "    wire [{}:0] f_gnt{i} = f_want{i} & ~f_driven & ~{};",
            ports - 1,
            or_of(&earlier, ports)
        ));
    }
    let granted = |o: usize| -> String {
        let v: Vec<String> = (0..ports).map(|i| format!("f_gnt{i}[{o}]")).collect();
        format!("({})", v.join(" | "))
    };
    t.line("    always @(posedge clock) begin");
    t.line("        if (ctl_init) begin");
    t.line(format!("            f_sc <= {}'d0;", ports * scb));
    t.line(format!("            f_sf <= {}'d0;", ports * nfw));
    t.line("        end else if (!f_src || ctl_last) begin");
    t.line(format!("            f_sc <= {}'d0;", ports * scb));
    t.line(format!("            f_sf <= {}'d0;", ports * nfw));
    t.line("        end else begin");
    for i in 0..ports {
        let sc = row("f_sc", i, scb);
        let sf = row("f_sf", i, nfw);
        t.line(format!(
            "            if (f_start{i}) begin {sc} <= {scb}'d1; {sf} <= {nfw}'d0; end"
        ));
        t.line(format!(
            "            else if (f_field{i}) begin {sc} <= {sc} + {scb}'d1; {sf} <= f_sf_next{i}; end"
        ));
    }
    t.line("        end");
    t.line("    end");
    t.line("");

    // P1, P2.
    t.line("`ifdef CHECK_P1");
    for o in 0..ports {
        let v: Vec<String> = (0..ports).map(|i| xp(i, o)).collect();
        t.check(&format!("P1 output {o}"), None, at_most_one(&v));
    }
    t.line("`endif");
    t.line("`ifdef CHECK_P2");
    for i in 0..ports {
        let v: Vec<String> = (0..ports).map(|o| xp(i, o)).collect();
        t.check(&format!("P2 input {i}"), None, at_most_one(&v));
    }
    t.line("`endif");
    let nxp = ports * ports;
    t.line("`ifdef CHECK_P3");
    t.line(format!("    reg [{}:0] f_prev_xp = {nxp}'d0;", nxp - 1));
    t.line("    reg f_hold = 1'b0;");
    t.line("    always @(posedge clock) begin");
    t.line("        f_hold <= !ctl_init && !ctl_clear;");
    t.line(format!("        f_prev_xp <= {all_xp};"));
    t.line("    end");
    t.check(
        "P3 closed stays closed",
        Some("f_hold".into()),
        format!("({all_xp} & f_prev_xp) == f_prev_xp"),
    );
    t.line("`endif");

    // P4: outputs.
    let lanes = |i: usize| row("f_in", i, w);
    let gate = |bit: String, v: String| format!("({{{w}{{{bit}}}}} & {v})");
    let fwd = |o: usize| -> String {
        let v: Vec<String> = (0..ports).map(|i| gate(xp(i, o), lanes(i))).collect();
        or_of(&v, w)
    };
    // REV: a closed i->o conducts partner(o) -> partner(i); partner of input i is output i.
    let rev = |o: usize| -> String {
        let v: Vec<String> = (0..ports).map(|x| gate(xp(o, x), lanes(x))).collect();
        or_of(&v, w)
    };
    let v_lane = format!("{w}'d{}", 1u64 << (w - 1));
    let next = |o: usize| -> String {
        format!(
            "(ctl_mode == 3'd5 ? {} : ({} ? {v_lane} : {}))",
            rev(o),
            granted(o),
            fwd(o)
        )
    };
    t.line("`ifdef CHECK_P4");
    t.line(format!(
        "    reg [{}:0] f_exp_out = {}'d0;",
        ports * w - 1,
        ports * w
    ));
    t.line("    reg f_chk_out = 1'b0;");
    t.line("    always @(posedge clock) begin");
    t.line("        f_chk_out <= 1'b1;");
    t.line(format!(
        "        if (ctl_init || !(ctl_mode == 3'd4 || ctl_mode == 3'd5 || f_src)) f_exp_out <= {}'d0;",
        ports * w
    ));
    t.line(format!("        else f_exp_out <= {};", rows(ports, next)));
    t.line("    end");
    t.check(
        "P4 C outputs",
        Some("f_chk_out".into()),
        format!("out_c == {}", sl("f_exp_out", 0, d * w)),
    );
    t.check(
        "P4 D outputs",
        Some("f_chk_out".into()),
        format!("out_d == {}", sl("f_exp_out", d * w, u * w)),
    );
    t.line("`endif");

    // P5: crosspoints exactly as granted.
    let closes = |i: usize, o: usize| format!("f_gnt{i}[{o}]");
    let closed_by = |f: &dyn Fn(usize, usize) -> String,
                     ins: std::ops::Range<usize>,
                     outs: std::ops::Range<usize>| {
        let n_out = outs.len();
        let ins: Vec<usize> = ins.collect();
        let outs: Vec<usize> = outs.collect();
        rows(ins.len(), |ii| rows(n_out, |oo| f(ins[ii], outs[oo])))
    };
    t.line("`ifdef CHECK_P5");
    t.line(format!("    reg [{}:0] f_exp_xp = {nxp}'d0;", nxp - 1));
    t.line("    reg f_chk_xp = 1'b0;");
    t.line("    always @(posedge clock) begin");
    t.line("        f_chk_xp <= 1'b1;");
    t.line(format!(
        "        if (ctl_init || ctl_clear) f_exp_xp <= {nxp}'d0;"
    ));
    t.line(format!(
        "        else if (f_src) f_exp_xp <= {all_xp} | {{{}, {}, {}, {}}};",
        closed_by(&closes, 0..d, 0..d),
        closed_by(&closes, 0..d, d..ports),
        closed_by(&closes, d..ports, 0..d),
        closed_by(&closes, d..ports, d..ports),
    ));
    t.line(format!("        else f_exp_xp <= {all_xp};"));
    t.line("    end");
    t.check(
        "P5 crosspoints closed exactly as granted",
        Some("f_chk_xp".into()),
        format!("{all_xp} == f_exp_xp"),
    );
    t.line("`endif");

    t.line("`ifdef CHECK_WITNESS");
    t.line("    // Crosspoints A->C, A->D, B->C closed by route fields, a fresh V sent, PASS data");
    for r in [
        "f_w_ac",
        "f_w_ad",
        "f_w_bc",
        "f_w_v",
        "f_w_pass",
        "f_was_pass",
    ] {
        t.line(format!("    reg {r} = 1'b0;"));
    }
    let any_gnt = (0..ports)
        .map(|i| format!("(|f_gnt{i})"))
        .collect::<Vec<_>>()
        .join(" | ");
    t.line("    always @(posedge clock) begin");
    t.line("        if (|xp_ac) f_w_ac <= 1'b1;");
    t.line("        if (|xp_ad) f_w_ad <= 1'b1;");
    t.line("        if (|xp_bc) f_w_bc <= 1'b1;");
    t.line(format!(
        "        if (!ctl_init && ({any_gnt})) f_w_v <= 1'b1;"
    ));
    t.line("        f_was_pass <= !ctl_init && ctl_mode == 3'd4;");
    t.line("        if (f_was_pass && (|{out_c, out_d})) f_w_pass <= 1'b1;");
    t.line("    end");
    t.check(
        "witness",
        None,
        "!(f_w_ac && f_w_ad && f_w_bc && f_w_v && f_w_pass)".into(),
    );
    t.line("`endif");

    t.line("`ifdef AUX");
    t.check("A1 parsers", None, "sc == f_sc && sf == f_sf".into());
    t.check("A1 no B->D", None, "xp_bd == 0".into());
    t.line("`endif");
    t.line("endmodule");
    t.line("");
    t.line("`default_nettype wire");
    Harness {
        top: "r3_formal".into(),
        switch: switch.to_string(),
        text: t.0,
    }
}
