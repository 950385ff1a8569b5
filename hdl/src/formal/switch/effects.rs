//! P6: the crosspoints and the waiting winners change only as `docs/protocol.md` §6, §7
//! say. After every bit-time:
//!
//! - `ctl_init` or `ctl_clear`: every crosspoint open, no waiting winner (clear wins over a
//!   commit);
//! - a `DOWN` or `PROBE` commit: the crosspoints are those before plus exactly the ones
//!   the grants name (§7 "on grant": `S(k)` on up-wire `A(x)` closes `A(x)→D(k)`; `X(y)`
//!   on `(A(x'), C(x''))` closes `A(x')→C(x'')`; `D(k)` on `C(x)` closes `B(k)→C(x)`; in
//!   `PROBE` an UP grant of `A(x)` on upper `k` closes `A(x)→D(k)`);
//! - a `DOWN` commit with `ctl_level = level`: every waiting winner dropped;
//! - an `UP` commit: `win[x]` becomes the packet on `A(x)` if it is valid and at this
//!   level, else stays;
//! - every other bit-time: crosspoints and winners unchanged.

use crate::formal::text::{or_of, rows, sl, Text};
use crate::lca::Layout;

/// Writes P6 under `` `ifdef CHECK_P6 ``.
pub(super) fn write(t: &mut Text, lay: &Layout) {
    let (d, u, p1, ab, hb) = (lay.d, lay.u, lay.p1, lay.ab, lay.hb);
    let nxp = (d + u) * (d + u);
    t.line("`ifdef CHECK_P6");
    t.line("    // P6: crosspoints and waiting winners change only as §6, §7 say");
    // Closed by the grants of this commit (the step outcome, valid in the commit bit-time).
    let close_ac = rows(d, |x1| {
        rows(d, |x2| {
            let v: Vec<String> = (0..d)
                .map(|y| format!("(dn_ch0[{}] & dn_ch1[{}])", (u + y) * d + x1, y * d + x2))
                .collect();
            or_of(&v, 1)
        })
    });
    let close_ad = rows(d, |x| {
        rows(u, |k| {
            format!(
                "(dn_ch0[{}] | ((f_mode == 3'd3) & up_ch[{}]))",
                k * d + x,
                x * u + k
            )
        })
    });
    let close_bc = rows(u, |k| rows(d, |x| format!("dn_ch1[{}]", (d + k) * d + x)));
    let win_up = rows(d, |x| {
        let here = format!(
            "({} == f_level)",
            super::zext4(&sl("f_ra", x * p1 + 2 * ab, hb), hb)
        );
        format!(
            "((f_ra[{}] && {here}) ? {} : {})",
            x * p1 + p1 - 1,
            sl("f_ra", x * p1, p1),
            sl("win", x * p1, p1)
        )
    });
    t.line(format!("    reg [{}:0] f_exp_xp = {nxp}'d0;", nxp - 1));
    t.line(format!(
        "    reg [{}:0] f_exp_wn = {}'d0;",
        d * p1 - 1,
        d * p1
    ));
    t.line("    reg f_chk_fx = 1'b0;");
    t.line("    always @(posedge clock) begin");
    t.line("        f_chk_fx <= 1'b1;");
    t.line("        if (ctl_init || ctl_clear) begin");
    t.line(format!("            f_exp_xp <= {nxp}'d0;"));
    t.line(format!("            f_exp_wn <= {}'d0;", d * p1));
    t.line("        end else if (ctl_last && (ctl_mode == 3'd2 || ctl_mode == 3'd3)) begin");
    t.line(format!(
        "            f_exp_xp <= {{xp_ac | {close_ac}, xp_ad | {close_ad}, xp_bc | {close_bc}, xp_bd}};"
    ));
    t.line("            f_exp_wn <= (ctl_mode == 3'd2 && ctl_level == level) ? 0 : win;");
    t.line("        end else if (ctl_last && ctl_mode == 3'd1) begin");
    t.line("            f_exp_xp <= {xp_ac, xp_ad, xp_bc, xp_bd};");
    t.line(format!("            f_exp_wn <= {win_up};"));
    t.line("        end else begin");
    t.line("            f_exp_xp <= {xp_ac, xp_ad, xp_bc, xp_bd};");
    t.line("            f_exp_wn <= win;");
    t.line("        end");
    t.line("    end");
    t.check(
        "P6 crosspoints",
        Some("f_chk_fx".into()),
        "{xp_ac, xp_ad, xp_bc, xp_bd} == f_exp_xp".into(),
    );
    t.check(
        "P6 waiting winners",
        Some("f_chk_fx".into()),
        "win == f_exp_wn".into(),
    );
    t.line("`endif");
    t.line("");
}
