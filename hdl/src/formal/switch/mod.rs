//! The formal harness of one LCA switch (R1/R2: sequential, fast or chunked set-up; tree,
//! cb or Π): a SystemVerilog-for-Yosys module `lca_formal` that instantiates the switch
//! (as `generate switch` writes it, with the internal signals of [`exposed`] made ports by
//! the proof script), constrains its inputs by the controller's rules
//! (`docs/protocol.md` §3) and asserts, under `` `ifdef ``s, the properties of
//! [`Property`](super::Property) `P1` … `P6` and (`AUX`) the auxiliary invariants that make
//! them inductive (`docs/formal.md` lists both).
//!
//! - this file: the ports, the switch instance, the monitor of the step (`f_mid`, `f_mode`,
//!   `f_bt`, …), the receive shadows `f_ra`, `f_rb` (§6.1), the assumptions, and the
//!   derived state of §7 (which inputs drive, which outputs are driven);
//! - `props.rs`: P1–P4 and the witness against vacuity;
//! - `aux.rs`: the auxiliary invariants A1–A5 of P1–P4;
//! - `route.rs`: `down(Y, ·)`, `up(X, ·)` and the wire order from `q`, written from §1 and
//!   `docs/routing.md` §2 (not from the RTL);
//! - `arbiter.rs`: P5, the arbiters' choices against the policy's order, the pointer
//!   shadows, and their auxiliary invariants (A6);
//! - `effects.rs`: P6, crosspoints and waiting winners change only as §6, §7 say.
//!
//! All harness registers power up at zero, like the switch's.

mod arbiter;
mod aux;
mod effects;
mod props;
mod route;

use super::text::{row, rows, sl, Text};
use super::Harness;
use crate::lca::Layout;
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SetupMode};

/// The route tables a Π switch's harness gives it (`docs/protocol.md` §1, `tab_dn`,
/// `tab_up`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rom {
    /// Any contents (free inputs, constant in time): the proof holds for every table.
    Symbolic,
    /// These contents: `down[t]` (`d` bits), `up[h·n + t]` (`u` bits).
    Contents {
        /// `down_rom[t]`.
        down: Vec<u64>,
        /// `up_rom[h][t]` at `h·n + t`.
        up: Vec<u64>,
    },
}

/// One arbiter's step outcome signals: grants, rejections, chosen wires (`ch0`: the
/// uppers of UP, the up-wires of DOWN; `ch1`: DOWN's down-wires) and, where the arbiter
/// keeps them, the wires taken so far.
#[derive(Debug, Clone)]
pub(crate) struct ArbSigs {
    pub gnt: String,
    pub rej: String,
    pub ch0: String,
    pub ch1: Option<String>,
    pub used: Option<(String, String)>,
}

/// A view of an arbiter's outcome: its signals, how many requests it has decided by a
/// window bit-time (`chunk · (bt − n(P) + ahead)`, all of them at most), and whether it is
/// the outcome the commit uses.
#[derive(Debug, Clone)]
pub(crate) struct Track {
    pub tag: &'static str,
    pub sigs: ArbSigs,
    pub chunk: usize,
    pub ahead: usize,
    pub commit: bool,
}

/// The outcome views of the UP and the DOWN arbiter of `lay`'s switch.
pub(crate) fn tracks(lay: &Layout) -> (Vec<Track>, Vec<Track>) {
    let (d, u) = (lay.d, lay.u);
    let up = |sfx: &str| ArbSigs {
        gnt: format!("up_gnt{sfx}"),
        rej: format!("up_rej{sfx}"),
        ch0: format!("up_ch{sfx}"),
        ch1: None,
        used: None,
    };
    let dn = |sfx: &str, used: bool| ArbSigs {
        gnt: format!("dn_gnt{sfx}"),
        rej: format!("dn_rej{sfx}"),
        ch0: format!("dn_ch0{sfx}"),
        ch1: Some(format!("dn_ch1{sfx}")),
        used: used.then(|| (format!("dn_used_a{sfx}"), format!("dn_used_c{sfx}"))),
    };
    let t = |tag, sigs, chunk, ahead, commit| Track {
        tag,
        sigs,
        chunk,
        ahead,
        commit,
    };
    match lay.params.setup {
        SetupMode::Sequential => (
            vec![t("up", up(""), 1, 0, true)],
            vec![t("dn", dn("", true), 1, 0, true)],
        ),
        SetupMode::Fast => (
            vec![t("up", up(""), d, 1, true)],
            vec![t("dn", dn("", false), 2 * u + d, 1, true)],
        ),
        SetupMode::Chunked(m) => {
            let (mu, md) = (m.clamp(1, d), m.clamp(1, 2 * u + d));
            let (mut ups, mut dns) = (Vec::new(), Vec::new());
            if mu < d {
                ups.push(t("upq", up("_q"), mu, 0, false));
            }
            ups.push(t("up", up(""), mu, 1, true));
            if md < 2 * u + d {
                dns.push(t("dnq", dn("_q", true), md, 0, false));
            }
            dns.push(t("dn", dn("", false), md, 1, true));
            (ups, dns)
        }
    }
}

/// The switch's internal signals the harness reads (`docs/protocol.md` §11, §13 name
/// them); the proof script makes them output ports of the switch with Yosys `expose`.
pub fn exposed(lay: &Layout) -> Vec<(String, usize)> {
    let (d, u, ns) = (lay.d, lay.u, lay.dn_slots);
    let mut v: Vec<(String, usize)> = [
        ("bt", 10),
        ("up_window", 1),
        ("dn_window", 1),
        ("serve_win", 1),
        ("rx_a", d * lay.p1),
        ("rx_b", u * lay.p2),
        ("tx_c", d * lay.lc),
        ("tx_d", u * lay.ld),
        ("xp_ac", d * d),
        ("xp_ad", d * u),
        ("xp_bc", u * d),
        ("xp_bd", u * u),
        ("win", d * lay.p1),
    ]
    .into_iter()
    .map(|(n, w)| (n.to_string(), w))
    .collect();
    let (ups, dns) = tracks(lay);
    for t in ups.iter().chain(&dns) {
        let s = &t.sigs;
        let (rows0, rows1) = if s.ch1.is_some() {
            (u + d, d + u)
        } else {
            (d, 0)
        };
        let (slots, wires) = if s.ch1.is_some() { (ns, d) } else { (d, u) };
        v.push((s.gnt.clone(), slots));
        v.push((s.rej.clone(), slots));
        v.push((s.ch0.clone(), rows0 * wires));
        if let Some(c1) = &s.ch1 {
            v.push((c1.clone(), rows1 * d));
        }
        if let Some((a, c)) = &s.used {
            v.push((a.clone(), d));
            v.push((c.clone(), d));
        }
    }
    let ib = crate::netlist::index_bits;
    match lay.policy() {
        ArbiterPolicy::Fixed => {}
        ArbiterPolicy::RoundRobin => {
            v.push(("up_p".into(), ib(d)));
            v.push(("up_q".into(), ib(u)));
            v.push(("dn_p".into(), ib(u + d)));
            v.push(("dn_q".into(), ib(d)));
            for (arb, r) in [("up", d), ("dn", u + d)] {
                v.push((format!("{arb}_last"), ib(r)));
            }
            if let SetupMode::Chunked(m) = lay.params.setup {
                if m < d {
                    v.push(("up_last_q".into(), ib(d)));
                }
                if m < 2 * u + d {
                    v.push(("dn_last_q".into(), ib(u + d)));
                }
            }
        }
        ArbiterPolicy::Random => {
            v.push(("up_lfsr".into(), 16));
            v.push(("dn_lfsr".into(), 16));
        }
    }
    v
}

/// The harness of the switch module `switch` laid out by `lay`; `rom` is required for a
/// Π switch (and ignored otherwise).
pub fn harness(lay: &Layout, switch: &str, rom: Option<&Rom>) -> Harness {
    let (d, u, w) = (lay.d, lay.u, lay.w);
    let (p1, p2, pr, ab, hb) = (lay.p1, lay.p2, lay.pr, lay.ab, lay.hb);
    let f = &lay.fmt;
    let (n1, n2, nr) = (f.n1, f.n2, f.nr);
    let random = lay.policy() == ArbiterPolicy::Random;
    let table = lay.pes.map(|n| (n, rom.cloned().unwrap_or(Rom::Symbolic)));
    let sigs = exposed(lay);
    let mut t = Text::new();

    t.line(format!(
        "// Formal harness of {switch} (lcanet prove switch; docs/formal.md). Do not edit: regenerate."
    ));
    t.line(format!(
        "// d={d} u={u} W={w} l={} setup={} P1={p1} P2={p2} PR={pr} n(P1)={n1} n(P2)={n2} n(PR)={nr} T_UP={} T_DOWN={} T_PROBE={}",
        lay.l, lay.params.setup, f.t_up, f.t_down, f.t_probe
    ));
    t.line("`default_nettype none");
    t.line("");
    let mut ports = vec![
        "input wire clock".to_string(),
        format!("input wire [{}:0] a", d * w - 1),
        format!("input wire [{}:0] b", u * w - 1),
        "input wire [3:0] level".into(),
        "input wire ctl_init".into(),
        "input wire [2:0] ctl_mode".into(),
        "input wire ctl_last".into(),
        "input wire ctl_clear".into(),
        "input wire [3:0] ctl_level".into(),
    ];
    if random {
        for p in ["seed16", "salt_up", "salt_dn"] {
            ports.push(format!("input wire [15:0] {p}"));
        }
    }
    if let Some((n, _)) = &table {
        ports.push(format!("input wire [{}:0] tab_dn", n * d - 1));
        ports.push(format!("input wire [{}:0] tab_up", lay.l * n * u - 1));
    }
    t.line("module lca_formal (");
    t.line(format!("    {}", ports.join(",\n    ")));
    t.line(");");
    t.line("");
    t.line("    // The switch, its outputs and its exposed internal state (docs/protocol.md §11)");
    let mut inputs = vec![
        "clock",
        "a",
        "b",
        "level",
        "ctl_init",
        "ctl_mode",
        "ctl_last",
        "ctl_clear",
        "ctl_level",
    ];
    if random {
        inputs.extend(["seed16", "salt_up", "salt_dn"]);
    }
    if table.is_some() {
        inputs.extend(["tab_dn", "tab_up"]);
    }
    t.instance(
        switch,
        "sw",
        &inputs,
        &[("out_c", d * w), ("out_d", u * w)],
        &[("c", "out_c"), ("d", "out_d")],
        &sigs,
    );
    t.line("");
    monitor(&mut t, lay);
    if let Some((n, rom)) = &table {
        tables(&mut t, lay, *n, rom);
    }
    derived(&mut t, lay);

    // A given table with no upward route (the top switch of a Π network): no packet can
    // go up, and the witness does not ask for an A->D crosspoint.
    let goes_up =
        !matches!(&table, Some((_, Rom::Contents { up, .. })) if up.iter().all(|&m| m == 0));
    props::write(&mut t, lay, goes_up);
    arbiter::write(&mut t, lay);
    effects::write(&mut t, lay);
    aux::write(&mut t, lay);
    t.line("endmodule");
    t.line("");
    t.line("`default_nettype wire");
    let _ = (ab, hb);
    Harness {
        top: "lca_formal".into(),
        switch: switch.to_string(),
        text: t.0,
    }
}

/// The monitor of the controller's protocol (§3), the receive shadows (§6.1) and the
/// controller's rules as assumptions.
fn monitor(t: &mut Text, lay: &Layout) {
    let (d, u, w) = (lay.d, lay.u, lay.w);
    let (p1, p2) = (lay.p1, lay.p2);
    let f = &lay.fmt;
    let (n1, n2, nr) = (f.n1, f.n2, f.nr);
    t.line("    // The step as the controller runs it (docs/protocol.md §3): f_mid is 1 from the");
    t.line("    // step's second bit-time on; f_mode, f_lvl, f_level hold the previous bit-time's");
    t.line(
        "    // ctl_mode, ctl_level, level; f_bt counts bit-times since the step began (§5 bt).",
    );
    t.line("    reg f_mid = 1'b0;");
    t.line("    reg f_started = 1'b0;");
    t.line("    reg [2:0] f_mode = 3'd0;");
    t.line("    reg [3:0] f_lvl = 4'd0;");
    t.line("    reg [3:0] f_level = 4'd0;");
    t.line("    reg [9:0] f_bt = 10'd0;");
    t.line("    // Receive shadows: rx <- (rx << W) | lanes while bt < n(P) of the mode's format (§6.1)");
    t.line(format!("    reg [{}:0] f_ra = {}'d0;", d * p1 - 1, d * p1));
    t.line(format!("    reg [{}:0] f_rb = {}'d0;", u * p2 - 1, u * p2));
    let shift = |reg: &str, i: usize, len: usize, lanes: &str| -> String {
        let lane = row(lanes, i, w);
        if w >= len {
            format!("{} <= {};", row(reg, i, len), sl(lanes, i * w, len))
        } else {
            format!(
                "{} <= {{{}, {lane}}};",
                row(reg, i, len),
                sl(reg, i * len, len - w)
            )
        }
    };
    t.line("    always @(posedge clock) begin");
    t.line("        f_mid <= !(ctl_init | ctl_last);");
    t.line("        f_started <= 1'b1;");
    t.line("        f_mode <= ctl_mode;");
    t.line("        f_lvl <= ctl_level;");
    t.line("        f_level <= level;");
    t.line("        if (ctl_init | ctl_last) f_bt <= 10'd0;");
    t.line("        else if (f_bt != 10'd1023) f_bt <= f_bt + 10'd1;");
    t.line(format!(
        "        if (ctl_init | ctl_last) f_ra <= {}'d0;",
        d * p1
    ));
    t.line(format!(
        "        else if ((ctl_mode == 3'd1 && f_bt < 10'd{n1}) || (ctl_mode == 3'd3 && f_bt < 10'd{nr})) begin"
    ));
    for x in 0..d {
        t.line(format!("            {}", shift("f_ra", x, p1, "a")));
    }
    t.line("        end");
    t.line(format!(
        "        if (ctl_init | ctl_last) f_rb <= {}'d0;",
        u * p2
    ));
    t.line(format!(
        "        else if ((ctl_mode == 3'd2 && f_bt < 10'd{n2}) || (ctl_mode == 3'd3 && f_bt < 10'd{nr})) begin"
    ));
    for k in 0..u {
        t.line(format!("            {}", shift("f_rb", k, p2, "b")));
    }
    t.line("        end");
    t.line("    end");
    t.line("");
    t.line(
        "    // The controller's rules (docs/protocol.md §2, §3); ctl_init may come at any time.",
    );
    t.line("    always @* if (f_mid && !ctl_init) assume(ctl_mode == f_mode); // the mode is constant during a step");
    t.line("    always @* if (f_mid && !ctl_init && ctl_mode == 3'd2) assume(ctl_level == f_lvl); // so is ctl_level in DOWN");
    t.line(
        "    always @* if (f_started) assume(level == f_level); // level is constant per instance",
    );
    t.line("    always @* if (ctl_clear && !ctl_init) assume(ctl_mode == 3'd0 || ctl_mode == 3'd4 || ctl_mode == 3'd5); // clear only in IDLE, PASS, REV");
    for (mode, tt, name) in [
        (1, f.t_up, "UP"),
        (2, f.t_down, "DOWN"),
        (3, f.t_probe, "PROBE"),
    ] {
        t.line(format!(
            "    always @* if (ctl_last && !ctl_init && ctl_mode == 3'd{mode}) assume(f_bt >= 10'd{}); // a {name} step lasts at least T_{name} = {tt}",
            tt - 1
        ));
    }
    t.line("");
}

/// A Π switch's route tables: constant in time (`level`, the tables: per instance), and
/// equal to given contents unless symbolic.
fn tables(t: &mut Text, lay: &Layout, n: usize, rom: &Rom) {
    let (d, u, l) = (lay.d, lay.u, lay.l);
    t.line("    // The route tables (docs/protocol.md §1): constant per instance");
    t.line(format!(
        "    reg [{}:0] f_tab_dn = {}'d0;",
        n * d - 1,
        n * d
    ));
    t.line(format!(
        "    reg [{}:0] f_tab_up = {}'d0;",
        l * n * u - 1,
        l * n * u
    ));
    t.line("    always @(posedge clock) begin");
    t.line("        f_tab_dn <= tab_dn;");
    t.line("        f_tab_up <= tab_up;");
    t.line("    end");
    t.line("    always @* if (f_started) assume(tab_dn == f_tab_dn && tab_up == f_tab_up);");
    if let Rom::Contents { down, up } = rom {
        let dn = super::text::literal(n * d, |i| down[i / d] >> (i % d) & 1 == 1);
        let upv = super::text::literal(l * n * u, |i| up[i / u] >> (i % u) & 1 == 1);
        t.line("    // ... and these contents (the switch's ROM in its network)");
        t.line(format!("    always @* assume(tab_dn == {dn});"));
        t.line(format!("    always @* assume(tab_up == {upv});"));
    }
    t.line("");
}

/// Which inputs drive, which outputs are driven (§7), the packet on `A(x)`, the windows.
fn derived(t: &mut Text, lay: &Layout) {
    let (d, u, p1, pr, ab, hb) = (lay.d, lay.u, lay.p1, lay.pr, lay.ab, lay.hb);
    let f = &lay.fmt;
    t.line("    // Which inputs drive and which outputs are driven (docs/protocol.md §7)");
    let a_drv = |x: usize| format!("(|{{{}, {}}})", row("xp_ad", x, u), row("xp_ac", x, d));
    let b_drv = |k: usize| format!("(|{{{}, {}}})", row("xp_bd", k, u), row("xp_bc", k, d));
    t.line(format!(
        "    wire [{}:0] f_a_drives = {};",
        d - 1,
        rows(d, a_drv)
    ));
    t.line(format!(
        "    wire [{}:0] f_b_drives = {};",
        u - 1,
        rows(u, b_drv)
    ));
    t.line(format!(
        "    wire [{}:0] f_c_driven = {};",
        d - 1,
        rows(d, |x| format!("(|{{{}}})", c_drivers(d, u, x).join(", ")))
    ));
    t.line(format!(
        "    wire [{}:0] f_d_driven = {};",
        u - 1,
        rows(u, |k| format!("(|{{{}}})", d_drivers(d, u, k).join(", ")))
    ));
    t.line(
        "    // The packet received on A(x): valid bit and LCA level (a probe in PROBE, else P1)",
    );
    t.line(format!(
        "    wire [{}:0] f_a_valid = (f_mode == 3'd3) ? {} : {};",
        d - 1,
        rows(d, |x| format!("f_ra[{}]", x * p1 + pr - 1)),
        rows(d, |x| format!("f_ra[{}]", x * p1 + p1 - 1))
    ));
    t.line(format!(
        "    wire [{}:0] f_a_here = (f_mode == 3'd3) ? {} : {};",
        d - 1,
        rows(d, |x| format!(
            "({} == f_level)",
            zext4(&sl("f_ra", x * p1 + ab, hb), hb)
        )),
        rows(d, |x| format!(
            "({} == f_level)",
            zext4(&sl("f_ra", x * p1 + 2 * ab, hb), hb)
        ))
    ));
    t.line("    // The arbitration windows: the step's packets are all in (bt >= n(P), §3, §7)");
    t.line(format!(
        "    wire f_up_win = (f_mode == 3'd1 && f_bt >= 10'd{}) || (f_mode == 3'd3 && f_bt >= 10'd{});",
        f.n1, f.nr
    ));
    t.line(format!(
        "    wire f_dn_win = (f_mode == 3'd2 && f_bt >= 10'd{}) || (f_mode == 3'd3 && f_bt >= 10'd{});",
        f.n2, f.nr
    ));
    t.line("");
}

/// `h` (`hb` bits) zero-extended to the 4 bits of `level`.
pub(crate) fn zext4(h: &str, hb: usize) -> String {
    if hb < 4 {
        format!("{{{}'d0, {h}}}", 4 - hb)
    } else {
        h.to_string()
    }
}

/// The crosspoints into `C(x)`.
pub(crate) fn c_drivers(d: usize, u: usize, x: usize) -> Vec<String> {
    let mut v: Vec<String> = (0..d).map(|y| format!("xp_ac[{}]", y * d + x)).collect();
    v.extend((0..u).map(|k| format!("xp_bc[{}]", k * d + x)));
    v
}

/// The crosspoints into `D(k)`.
pub(crate) fn d_drivers(d: usize, u: usize, k: usize) -> Vec<String> {
    let mut v: Vec<String> = (0..d).map(|x| format!("xp_ad[{}]", x * u + k)).collect();
    v.extend((0..u).map(|k2| format!("xp_bd[{}]", k2 * u + k)));
    v
}

#[cfg(test)]
mod tests;
