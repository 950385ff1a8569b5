//! The auxiliary invariants of P1–P4 (`AUX`, `docs/formal.md` lists them with the reason
//! each is needed), proved together with the property they support. A3–A5 are stated for
//! every view of an arbiter's outcome ([`super::Track`]): the registers of the sequential
//! arbiter, the chunked arbiter's registers of the outcome so far and the chain's end
//! (wires), the fast arbiter's wires.

use super::{tracks, Track};
use crate::formal::text::{at_most_one, row, Text};
use crate::lca::Layout;

/// Writes A1–A5 under `` `ifdef AUX ``.
pub(super) fn write(t: &mut Text, lay: &Layout) {
    let f = &lay.fmt;
    let (n1, n2, nr) = (f.n1, f.n2, f.nr);
    t.line("`ifdef AUX");
    t.line("    // Auxiliary invariants (docs/formal.md): proved with the property they support.");
    t.line("    // Step control follows the controller: counter, level, windows, serve_win.");
    t.check("A1 bt", None, "bt == f_bt".into());
    t.check(
        "A1 step start",
        Some("!f_mid".into()),
        "f_bt == 10'd0".into(),
    );
    t.check("A1 no B->D", None, "xp_bd == 0".into());
    t.check(
        "A1 power-up",
        Some("!f_started".into()),
        "!f_mid && !up_window && !dn_window && !serve_win".into(),
    );
    t.check(
        "A1 up_window",
        None,
        format!("up_window == ((f_mode == 3'd1 && f_bt >= 10'd{n1}) || (f_mode == 3'd3 && f_bt >= 10'd{nr}))"),
    );
    t.check(
        "A1 dn_window",
        None,
        format!("dn_window == ((f_mode == 3'd2 && f_bt >= 10'd{n2}) || (f_mode == 3'd3 && f_bt >= 10'd{nr}))"),
    );
    t.check(
        "A1 serve_win",
        None,
        "serve_win == (f_mid && f_mode == 3'd2 && f_lvl == f_level)".into(),
    );
    t.line("    // The receive registers hold what arrived on the wires.");
    t.check("A2 rx_a", None, "rx_a == f_ra".into());
    t.check("A2 rx_b", None, "rx_b == f_rb".into());
    let (ups, dns) = tracks(lay);
    for tr in &ups {
        up_outcome(t, lay, tr);
    }
    for tr in &dns {
        dn_outcome(t, lay, tr);
    }
    t.line("`endif");
    t.line("");
}

/// A3 and A4 for a view of the UP arbiter's outcome.
fn up_outcome(t: &mut Text, lay: &Layout, tr: &Track) {
    let (d, u) = (lay.d, lay.u);
    let s = &tr.sigs;
    let (g, r, ch) = (&s.gnt, &s.rej, &s.ch0);
    let tag = tr.tag;
    t.line(format!(
        "    // UP outcome ({g}, {r}, {ch}): empty outside the window; one upper per granted"
    ));
    t.line(
        "    // A(x), each upper granted once; in PROBE the upper is not driven and A(x) drives",
    );
    t.line("    // nothing; a granted packet is valid and not at this level.");
    t.check(
        &format!("A3 {tag}"),
        Some("!up_window".into()),
        format!("{g} == 0 && {r} == 0 && {ch} == 0"),
    );
    for x in 0..d {
        let rw: Vec<String> = (0..u).map(|k| format!("{ch}[{}]", x * u + k)).collect();
        t.check(&format!("A4 {tag} row {x}"), None, at_most_one(&rw));
        t.check(
            &format!("A4 {tag} gnt {x}"),
            None,
            format!("(|{}) == {g}[{x}]", row(ch, x, u)),
        );
        t.check(
            &format!("A4 {tag} request {x}"),
            Some(format!("{g}[{x}]")),
            format!("f_a_valid[{x}] && !f_a_here[{x}]"),
        );
        t.check(
            &format!("A4 {tag} guard {x}"),
            Some(format!("f_mode == 3'd3 && {g}[{x}]")),
            format!("!f_a_drives[{x}]"),
        );
    }
    for k in 0..u {
        let col: Vec<String> = (0..d).map(|x| format!("{ch}[{}]", x * u + k)).collect();
        t.check(&format!("A4 {tag} column {k}"), None, at_most_one(&col));
        t.check(
            &format!("A4 {tag} free {k}"),
            Some(format!("f_mode == 3'd3 && (|{{{}}})", col.join(", "))),
            format!("!f_d_driven[{k}]"),
        );
    }
}

/// A3 and A5 for a view of the DOWN arbiter's outcome.
fn dn_outcome(t: &mut Text, lay: &Layout, tr: &Track) {
    let (d, u) = (lay.d, lay.u);
    let s = &tr.sigs;
    let (g, r, c0) = (&s.gnt, &s.rej, &s.ch0);
    let c1 = s.ch1.as_deref().expect("the DOWN arbiter has down-wires");
    let tag = tr.tag;
    let mut empty = format!("{g} == 0 && {r} == 0 && {c0} == 0 && {c1} == 0");
    if let Some((ua, uc)) = &s.used {
        empty.push_str(&format!(" && {ua} == 0 && {uc} == 0"));
    }
    t.line(format!(
        "    // DOWN outcome ({g}, {r}, {c0}, {c1}): one wire per row, each wire taken once,"
    ));
    t.line("    // never a driven one; guards of S(k) and D(k); in PROBE, X(x) takes A(x) itself");
    t.line("    // for a valid probe at this level and S-slots are not served.");
    t.check(&format!("A3 {tag}"), Some("!dn_window".into()), empty);
    for rw in 0..u + d {
        let v: Vec<String> = (0..d).map(|x| format!("{c0}[{}]", rw * d + x)).collect();
        t.check(&format!("A5 {tag} ch0 row {rw}"), None, at_most_one(&v));
        t.check(
            &format!("A5 {tag} ch0 row {rw} granted"),
            Some(format!("|{}", row(c0, rw, d))),
            format!("{g}[{rw}]"),
        );
    }
    for rw in 0..d + u {
        let v: Vec<String> = (0..d).map(|x| format!("{c1}[{}]", rw * d + x)).collect();
        t.check(&format!("A5 {tag} ch1 row {rw}"), None, at_most_one(&v));
        t.check(
            &format!("A5 {tag} ch1 row {rw} granted"),
            Some(format!("|{}", row(c1, rw, d))),
            format!("{g}[{}]", u + rw),
        );
    }
    let mut used_a = Vec::new();
    let mut used_c = Vec::new();
    for x in 0..d {
        let col0: Vec<String> = (0..u + d)
            .map(|rw| format!("{c0}[{}]", rw * d + x))
            .collect();
        let col1: Vec<String> = (0..d + u)
            .map(|rw| format!("{c1}[{}]", rw * d + x))
            .collect();
        t.check(
            &format!("A5 {tag} ch0 column {x}"),
            None,
            at_most_one(&col0),
        );
        t.check(
            &format!("A5 {tag} ch1 column {x}"),
            None,
            at_most_one(&col1),
        );
        let (a, c) = (
            format!("(|{{{}}})", col0.join(", ")),
            format!("(|{{{}}})", col1.join(", ")),
        );
        if let Some((ua, uc)) = &s.used {
            t.check(
                &format!("A5 {tag} used_a {x}"),
                None,
                format!("{ua}[{x}] == {a}"),
            );
            t.check(
                &format!("A5 {tag} used_c {x}"),
                None,
                format!("{uc}[{x}] == {c}"),
            );
        }
        used_a.push(a);
        used_c.push(c);
    }
    used_a.reverse();
    used_c.reverse();
    t.check(
        &format!("A5 {tag} up-wires free"),
        None,
        format!("({{{}}} & f_a_drives) == 0", used_a.join(", ")),
    );
    t.check(
        &format!("A5 {tag} down-wires free"),
        None,
        format!("({{{}}} & f_c_driven) == 0", used_c.join(", ")),
    );
    for k in 0..u {
        t.check(
            &format!("A5 {tag} S({k})"),
            Some(format!("|{}", row(c0, k, d))),
            format!("f_mode == 3'd2 && !f_d_driven[{k}]"),
        );
        t.check(
            &format!("A5 {tag} D({k})"),
            Some(format!("|{}", row(c1, d + k, d))),
            format!("!f_b_drives[{k}]"),
        );
    }
    for x in 0..d {
        let others: Vec<String> = (0..d)
            .filter(|&o| o != x)
            .map(|o| format!("{c0}[{}]", (u + x) * d + o))
            .collect();
        if !others.is_empty() {
            t.check(
                &format!("A5 {tag} probe X({x}) own wire"),
                Some("f_mode == 3'd3".into()),
                format!("!(|{{{}}})", others.join(", ")),
            );
        }
        t.check(
            &format!("A5 {tag} probe X({x}) here"),
            Some(format!("f_mode == 3'd3 && (|{})", row(c0, u + x, d))),
            format!("f_a_valid[{x}] && f_a_here[{x}]"),
        );
    }
}
