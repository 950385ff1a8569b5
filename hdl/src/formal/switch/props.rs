//! P1–P4 of the LCA switch (`docs/formal.md`) and the witness against vacuity:
//!
//! - `CHECK_P1`: no output has two drivers (at most one closed crosspoint into each
//!   `C(x)`, `D(k)`);
//! - `CHECK_P2`: no input drives two outputs (at most one out of each `A(x)`, `B(k)`);
//! - `CHECK_P3`: in `PASS` and `REV` without `ctl_clear`/`ctl_init` the crosspoints do not
//!   change;
//! - `CHECK_P4`: every bit-time's output registers are §6's: a commit loads each with
//!   exactly the packet (or claim slot) the arbitration granted it, as received on its
//!   input (§4, §7), zeros where nothing was granted; between commits they shift out by
//!   `W`, zeros entering (so the wire carries the packet bit for bit); an `UP` commit
//!   stores a packet at its LCA level as the waiting winner unchanged; in `PASS`/`REV`
//!   each output carries the lanes of the input its closed crosspoint connects, one
//!   bit-time later;
//! - `CHECK_WITNESS`: not a property — its "counterexample" is a trace the assumptions
//!   allow in which crosspoints of every kind close, a granted packet is forwarded and
//!   `PASS` carries data (`A→D` only where the route table has an upward route: the top
//!   switch of a Π network has none).

use super::{c_drivers, d_drivers, zext4};
use crate::formal::text::{at_most_one, first_of, or_of, place, row, rows, sl, Text};
use crate::lca::Layout;

/// Writes P1–P4 and the witness; `goes_up`: some packet can be routed up (false only for
/// a Π switch whose given route table has no upward route, as the top level's).
pub(super) fn write(t: &mut Text, lay: &Layout, goes_up: bool) {
    let (d, u) = (lay.d, lay.u);
    let all_xp = "{xp_ac, xp_ad, xp_bc, xp_bd}";
    t.line("`ifdef CHECK_P1");
    t.line("    // P1: at most one closed crosspoint into each output");
    for x in 0..d {
        t.check(
            &format!("P1 C({x})"),
            None,
            at_most_one(&c_drivers(d, u, x)),
        );
    }
    for k in 0..u {
        t.check(
            &format!("P1 D({k})"),
            None,
            at_most_one(&d_drivers(d, u, k)),
        );
    }
    t.line("`endif");
    t.line("`ifdef CHECK_P2");
    t.line("    // P2: at most one closed crosspoint out of each input");
    for x in 0..d {
        let v: Vec<String> = (0..d)
            .map(|o| format!("xp_ac[{}]", x * d + o))
            .chain((0..u).map(|k| format!("xp_ad[{}]", x * u + k)))
            .collect();
        t.check(&format!("P2 A({x})"), None, at_most_one(&v));
    }
    for k in 0..u {
        let v: Vec<String> = (0..d)
            .map(|o| format!("xp_bc[{}]", k * d + o))
            .chain((0..u).map(|k2| format!("xp_bd[{}]", k * u + k2)))
            .collect();
        t.check(&format!("P2 B({k})"), None, at_most_one(&v));
    }
    t.line("`endif");
    t.line("`ifdef CHECK_P3");
    t.line("    // P3: a PASS or REV bit-time without ctl_clear/ctl_init leaves every crosspoint as it was");
    let nxp = (d + u) * (d + u);
    t.line(format!("    reg [{}:0] f_prev_xp = {nxp}'d0;", nxp - 1));
    t.line("    reg f_chk_hold = 1'b0;");
    t.line("    always @(posedge clock) begin");
    t.line(
        "        f_chk_hold <= !ctl_init && !ctl_clear && (ctl_mode == 3'd4 || ctl_mode == 3'd5);",
    );
    t.line(format!("        f_prev_xp <= {all_xp};"));
    t.line("    end");
    t.check(
        "P3 crosspoints held",
        Some("f_chk_hold".into()),
        format!("{all_xp} == f_prev_xp"),
    );
    t.line("`endif");
    p4(t, lay);
    witness(t, goes_up);
}

fn p4(t: &mut Text, lay: &Layout) {
    let (d, u, w) = (lay.d, lay.u, lay.w);
    let (p1, p2, pr, ab, hb) = (lay.p1, lay.p2, lay.pr, lay.ab, lay.hb);
    let (lc, ld) = (lay.lc, lay.ld);
    let rx_a_row = |x: usize| row("f_ra", x, p1);
    let win_row = |x: usize| row("win", x, p1);
    let up_tx_d = |probe: bool| {
        rows(u, |k| {
            let cases: Vec<(String, String)> = (0..d)
                .map(|x| {
                    let v = if probe {
                        sl("f_ra", x * p1, pr)
                    } else {
                        rx_a_row(x)
                    };
                    (format!("up_ch[{}]", x * u + k), v)
                })
                .collect();
            let width = if probe { pr } else { p1 };
            let lsb = if probe { lay.off_d } else { 0 };
            place(&first_of(&cases, width), width, lsb, ld)
        })
    };
    let down_tx_c = rows(d, |x| {
        let s_cases: Vec<(String, String)> = (0..u)
            .map(|k| {
                (
                    format!("dn_ch0[{}]", k * d + x),
                    sl("f_rb", k * p2 + p1, p2 - p1),
                )
            })
            .chain((0..d).map(|y| {
                (
                    format!("dn_ch0[{}]", (u + y) * d + x),
                    sl("win", y * p1 + ab, p1 - ab),
                )
            }))
            .collect();
        let d_cases: Vec<(String, String)> = (0..d)
            .map(|y| (format!("dn_ch1[{}]", y * d + x), win_row(y)))
            .chain((0..u).map(|k| {
                (
                    format!("dn_ch1[{}]", (d + k) * d + x),
                    sl("f_rb", k * p2, p1),
                )
            }))
            .collect();
        let v = format!(
            "{{{}, {}}}",
            first_of(&s_cases, p2 - p1),
            first_of(&d_cases, p1)
        );
        place(&v, p2, 0, lc)
    });
    let probe_tx_c = rows(d, |x| {
        let cases: Vec<(String, String)> = (0..d)
            .map(|y| (format!("dn_ch1[{}]", y * d + x), sl("f_ra", y * p1, pr)))
            .chain((0..u).map(|k| {
                (
                    format!("dn_ch1[{}]", (d + k) * d + x),
                    sl("f_rb", k * p2, pr),
                )
            }))
            .collect();
        place(&first_of(&cases, pr), pr, lay.off_c, lc)
    });
    let lanes = |sig: &str, i: usize| row(sig, i, w);
    let gate = |bit: String, v: String| format!("({{{w}{{{bit}}}}} & {v})");
    let pass_c_row = |x: usize| {
        let t: Vec<String> = (0..d)
            .map(|y| gate(format!("xp_ac[{}]", y * d + x), lanes("a", y)))
            .chain((0..u).map(|k| gate(format!("xp_bc[{}]", k * d + x), lanes("b", k))))
            .collect();
        or_of(&t, w)
    };
    let pass_d_row = |k: usize| {
        let t: Vec<String> = (0..d)
            .map(|x| gate(format!("xp_ad[{}]", x * u + k), lanes("a", x)))
            .chain((0..u).map(|k2| gate(format!("xp_bd[{}]", k2 * u + k), lanes("b", k2))))
            .collect();
        or_of(&t, w)
    };
    // REV: a closed i->o conducts partner(o) -> partner(i): output C(x) (partner of A(x))
    // takes A(x') for a closed A(x)->C(x') and B(k) for A(x)->D(k); D(k) takes A(x) for
    // B(k)->C(x) and B(k') for B(k)->D(k').
    let rev_c_row = |x: usize| {
        let t: Vec<String> = (0..d)
            .map(|o| gate(format!("xp_ac[{}]", x * d + o), lanes("a", o)))
            .chain((0..u).map(|k| gate(format!("xp_ad[{}]", x * u + k), lanes("b", k))))
            .collect();
        or_of(&t, w)
    };
    let rev_d_row = |k: usize| {
        let t: Vec<String> = (0..d)
            .map(|o| gate(format!("xp_bc[{}]", k * d + o), lanes("a", o)))
            .chain((0..u).map(|k2| gate(format!("xp_bd[{}]", k * u + k2), lanes("b", k2))))
            .collect();
        or_of(&t, w)
    };
    let (pass_c, pass_d) = (rows(d, pass_c_row), rows(u, pass_d_row));
    let (rev_c, rev_d) = (rows(d, rev_c_row), rows(u, rev_d_row));
    // Outside a commit (§6.2): PASS/REV put the forwarded lanes at the top of the output
    // register, zeros below; every other mode shifts it by W, zeros entering.
    let top = |v: String, len: usize| place(&v, w, len - w, len);
    let fwd_tx_c = format!(
        "((ctl_mode == 3'd5) ? {} : {})",
        rows(d, |x| top(rev_c_row(x), lc)),
        rows(d, |x| top(pass_c_row(x), lc))
    );
    let fwd_tx_d = format!(
        "((ctl_mode == 3'd5) ? {} : {})",
        rows(u, |k| top(rev_d_row(k), ld)),
        rows(u, |k| top(pass_d_row(k), ld))
    );
    let shift = |reg: &str, n: usize, len: usize| {
        rows(n, |i| {
            if len > w {
                format!("{{{}, {w}'d0}}", sl(reg, i * len, len - w))
            } else {
                format!("{w}'d0")
            }
        })
    };
    let win_next = rows(d, |x| {
        let valid = format!("f_ra[{}]", x * p1 + p1 - 1);
        let here = format!(
            "({} == f_level)",
            zext4(&sl("f_ra", x * p1 + 2 * ab, hb), hb)
        );
        format!("(({valid} && {here}) ? {} : {})", rx_a_row(x), win_row(x))
    });
    t.line("`ifdef CHECK_P4");
    t.line("    // P4: the commit loads each output register with exactly what was granted to it,");
    t.line(
        "    // as received on the wires (docs/protocol.md §4, §7), zeros elsewhere; between commits",
    );
    t.line("    // the registers shift out (§6.2); an UP commit keeps a packet at its LCA level as the");
    t.line("    // waiting winner; PASS/REV forward lanes.");
    let reg = |t: &mut Text, name: &str, width: usize| {
        t.line(format!("    reg [{}:0] {name} = {width}'d0;", width - 1));
    };
    reg(t, "f_exp_tx_c", d * lc);
    reg(t, "f_exp_tx_d", u * ld);
    reg(t, "f_exp_win", d * p1);
    reg(t, "f_exp_c", d * w);
    reg(t, "f_exp_d", u * w);
    t.line("    reg f_chk_tx = 1'b0;");
    t.line("    reg f_chk_win = 1'b0;");
    t.line("    reg f_chk_pass = 1'b0;");
    t.line("    always @(posedge clock) begin");
    t.line("        f_chk_tx <= 1'b1;");
    t.line("        f_chk_win <= ctl_last && !ctl_init && ctl_mode == 3'd1;");
    t.line("        f_chk_pass <= !ctl_init && (ctl_mode == 3'd4 || ctl_mode == 3'd5);");
    t.line("        if (ctl_init) begin");
    t.line(format!("            f_exp_tx_c <= {}'d0;", d * lc));
    t.line(format!("            f_exp_tx_d <= {}'d0;", u * ld));
    t.line("        end else if (ctl_mode == 3'd4 || ctl_mode == 3'd5) begin");
    t.line(format!("            f_exp_tx_c <= {fwd_tx_c};"));
    t.line(format!("            f_exp_tx_d <= {fwd_tx_d};"));
    t.line("        end else if (!ctl_last) begin");
    t.line(format!(
        "            f_exp_tx_c <= {};",
        shift("tx_c", d, lc)
    ));
    t.line(format!(
        "            f_exp_tx_d <= {};",
        shift("tx_d", u, ld)
    ));
    t.line("        end else");
    t.line("        case (ctl_mode)");
    t.line("            3'd1: begin");
    t.line(format!("                f_exp_tx_c <= {}'d0;", d * lc));
    t.line(format!("                f_exp_tx_d <= {};", up_tx_d(false)));
    t.line("            end");
    t.line("            3'd2: begin");
    t.line(format!("                f_exp_tx_c <= {down_tx_c};"));
    t.line(format!("                f_exp_tx_d <= {}'d0;", u * ld));
    t.line("            end");
    t.line("            3'd3: begin");
    t.line(format!("                f_exp_tx_c <= {probe_tx_c};"));
    t.line(format!("                f_exp_tx_d <= {};", up_tx_d(true)));
    t.line("            end");
    t.line("            default: begin");
    t.line(format!("                f_exp_tx_c <= {}'d0;", d * lc));
    t.line(format!("                f_exp_tx_d <= {}'d0;", u * ld));
    t.line("            end");
    t.line("        endcase");
    t.line(format!("        f_exp_win <= {win_next};"));
    t.line(format!(
        "        f_exp_c <= (ctl_mode == 3'd5) ? {rev_c} : {pass_c};"
    ));
    t.line(format!(
        "        f_exp_d <= (ctl_mode == 3'd5) ? {rev_d} : {pass_d};"
    ));
    t.line("    end");
    t.check(
        "P4 tx C",
        Some("f_chk_tx".into()),
        "tx_c == f_exp_tx_c".into(),
    );
    t.line("    // (the check of D is split from C so that a counterexample names the side)");
    t.check(
        "P4 tx D",
        Some("f_chk_tx".into()),
        "tx_d == f_exp_tx_d".into(),
    );
    t.check(
        "P4 winners",
        Some("f_chk_win".into()),
        "win == f_exp_win".into(),
    );
    t.check(
        "P4 pass C",
        Some("f_chk_pass".into()),
        "out_c == f_exp_c".into(),
    );
    t.check(
        "P4 pass D",
        Some("f_chk_pass".into()),
        "out_d == f_exp_d".into(),
    );
    t.line("`endif");
    t.line("");
}

fn witness(t: &mut Text, goes_up: bool) {
    t.line("`ifdef CHECK_WITNESS");
    t.line("    // Not a property: its counterexample is a trace, allowed by the assumptions, in which");
    t.line("    // crosspoints of every kind close, a commit forwards a granted packet and PASS");
    t.line("    // carries a 1 (so the assumptions do not rule out what P1-P6 speak about).");
    if !goes_up {
        t.line(
            "    // The route table has no upward route (up(X, ·) is empty for every packet): no",
        );
        t.line("    // A->D crosspoint can close, so none is asked for.");
    }
    for r in [
        "f_seen_ac",
        "f_seen_ad",
        "f_seen_bc",
        "f_seen_grant",
        "f_seen_pass",
        "f_was_pass",
    ] {
        t.line(format!("    reg {r} = 1'b0;"));
    }
    t.line("    always @(posedge clock) begin");
    t.line("        if (|xp_ac) f_seen_ac <= 1'b1;");
    t.line("        if (|xp_ad) f_seen_ad <= 1'b1;");
    t.line("        if (|xp_bc) f_seen_bc <= 1'b1;");
    t.line("        if (ctl_last && !ctl_init && (|up_ch || |dn_ch1)) f_seen_grant <= 1'b1;");
    t.line("        f_was_pass <= !ctl_init && ctl_mode == 3'd4;");
    t.line("        if (f_was_pass && (|{out_c, out_d})) f_seen_pass <= 1'b1;");
    t.line("    end");
    let ad = if goes_up { " && f_seen_ad" } else { "" };
    t.check(
        "witness",
        None,
        format!("!(f_seen_ac{ad} && f_seen_bc && f_seen_grant && f_seen_pass)"),
    );
    t.line("`endif");
    t.line("");
}
