//! The formal harness of one LCA switch: a SystemVerilog-for-Yosys module `lca_formal`
//! that instantiates the switch (as `generate switch` writes it, with the internal
//! signals of [`EXPOSED`] made ports by the proof script), constrains its inputs by the
//! controller's rules (`docs/protocol.md` §3) and asserts, under `` `ifdef ``s:
//!
//! - `CHECK_P1`: no output has two drivers (at most one closed crosspoint into each
//!   `C(x)`, `D(k)`);
//! - `CHECK_P2`: no input drives two outputs (at most one out of each `A(x)`, `B(k)`);
//! - `CHECK_P3`: in `PASS` and `REV` without `ctl_clear`/`ctl_init` the crosspoints do not
//!   change (a closed one stays closed, none closes);
//! - `CHECK_P4`: a commit loads every output register with exactly the packet (or claim
//!   slot) the arbitration granted it, as received on its input (§4, §7), and zeros where
//!   nothing was granted; an `UP` commit stores a packet at its LCA level as the waiting
//!   winner unchanged; in `PASS`/`REV` each output carries the lanes of the input its
//!   closed crosspoint connects, one bit-time later;
//! - `AUX`: the auxiliary invariants that make each property inductive (`docs/formal.md`
//!   lists them with the reason each is needed); they are proved together with it.
//!
//! The receive shift registers are shadowed by the harness from the input wires
//! (`f_ra`, `f_rb`, written from §6.1), so P4 compares the forwarded bits with what
//! arrived on the wires, not with the switch's own copy. All harness registers power up
//! at zero, like the switch's.

use crate::lca::Layout;
use lcanet_sim::lcan::cycle::ArbiterPolicy;

/// A property of the switch the harness can assert.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Property {
    /// No output wire has two drivers.
    P1,
    /// No input drives two outputs (no multicast).
    P2,
    /// A closed crosspoint stays closed through pass-through.
    P3,
    /// A winning packet is forwarded without a bit lost or invented.
    P4,
}

impl Property {
    /// All properties, in order.
    pub const ALL: [Property; 4] = [Property::P1, Property::P2, Property::P3, Property::P4];

    /// `P1` … `P4`.
    pub fn name(self) -> &'static str {
        match self {
            Property::P1 => "P1",
            Property::P2 => "P2",
            Property::P3 => "P3",
            Property::P4 => "P4",
        }
    }

    /// The harness macro that enables the property's assertions.
    pub fn define(self) -> &'static str {
        match self {
            Property::P1 => "CHECK_P1",
            Property::P2 => "CHECK_P2",
            Property::P3 => "CHECK_P3",
            Property::P4 => "CHECK_P4",
        }
    }

    /// One line saying what the property states.
    pub fn summary(self) -> &'static str {
        match self {
            Property::P1 => "no output wire has two drivers",
            Property::P2 => "no input drives two outputs",
            Property::P3 => "a closed crosspoint stays closed through PASS/REV",
            Property::P4 => "a winning packet is forwarded without a bit lost or invented",
        }
    }

    /// The property named `s` (`P1` … `P4`, case-insensitive).
    pub fn parse(s: &str) -> Option<Property> {
        Property::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
    }
}

/// The switch's internal signals the harness reads (`docs/protocol.md` §11 names them);
/// the proof script makes them output ports of the switch with Yosys `expose`.
pub const EXPOSED: &[&str] = &[
    "bt",
    "up_window",
    "dn_window",
    "serve_win",
    "level_q",
    "rx_a",
    "rx_b",
    "tx_c",
    "tx_d",
    "xp_ac",
    "xp_ad",
    "xp_bc",
    "xp_bd",
    "win",
    "up_gnt",
    "up_rej",
    "up_ch",
    "dn_gnt",
    "dn_rej",
    "dn_ch0",
    "dn_ch1",
    "dn_used_a",
    "dn_used_c",
];

/// The harness of one switch.
#[derive(Debug, Clone)]
pub struct Harness {
    /// The harness module's name (`lca_formal`).
    pub top: String,
    /// The switch module it instantiates.
    pub switch: String,
    /// The SystemVerilog text.
    pub text: String,
}

/// `sig[lsb +: width]` as a static slice.
fn sl(sig: &str, lsb: usize, width: usize) -> String {
    if width == 1 {
        format!("{sig}[{lsb}]")
    } else {
        format!("{sig}[{}:{lsb}]", lsb + width - 1)
    }
}

/// Row `i` of a vector of `len`-bit rows.
fn row(sig: &str, i: usize, len: usize) -> String {
    sl(sig, i * len, len)
}

/// "At most one of `bits` is 1", pairwise.
fn at_most_one(bits: &[String]) -> String {
    let mut pairs = Vec::new();
    for i in 0..bits.len() {
        for j in i + 1..bits.len() {
            pairs.push(format!("({} & {})", bits[i], bits[j]));
        }
    }
    if pairs.is_empty() {
        "1'b1".into()
    } else {
        format!("!({})", pairs.join(" | "))
    }
}

/// The OR of `terms` (`width` bits), zero if there are none.
fn or_of(terms: &[String], width: usize) -> String {
    if terms.is_empty() {
        format!("{width}'d0")
    } else {
        format!("({})", terms.join(" | "))
    }
}

/// A priority choice: the value of the first true condition, zero if none.
fn first_of(cases: &[(String, String)], width: usize) -> String {
    let mut s = format!("{width}'d0");
    for (cond, val) in cases.iter().rev() {
        s = format!("({cond} ? {val} : {s})");
    }
    s
}

/// `v` (`width` bits) at bit `lsb` of a `total`-bit value, zeros elsewhere.
fn place(v: &str, width: usize, lsb: usize, total: usize) -> String {
    let mut parts = Vec::new();
    let above = total - lsb - width;
    if above > 0 {
        parts.push(format!("{above}'d0"));
    }
    parts.push(v.to_string());
    if lsb > 0 {
        parts.push(format!("{lsb}'d0"));
    }
    format!("{{{}}}", parts.join(", "))
}

/// Concatenation of rows `n-1 … 0`.
fn rows(n: usize, f: impl Fn(usize) -> String) -> String {
    let parts: Vec<String> = (0..n).rev().map(f).collect();
    format!("{{{}}}", parts.join(", "))
}

/// Text builder.
struct Text(String, usize);

impl Text {
    fn line(&mut self, s: impl AsRef<str>) {
        self.0.push_str(s.as_ref());
        self.0.push('\n');
    }
    /// An assertion, as a named wire `chk_<n>_<name>` (1 while it holds; a counterexample
    /// trace shows which one fails) and the `assert` of that wire.
    fn check(&mut self, name: &str, guard: Option<String>, expr: String) {
        let slug: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let wire = format!("chk_{}_{slug}", self.1);
        self.1 += 1;
        let value = match guard {
            Some(g) => format!("!({g}) || ({expr})"),
            None => expr,
        };
        self.line(format!("    wire {wire} = {value}; // {name}"));
        self.line(format!("    always @* assert({wire});"));
    }
}

/// The harness of the switch module `switch` laid out by `lay` (tree or cb topology;
/// `switch` is [`switch_module_name`](crate::lca::switch_module_name) of its parameters, or a test-only faulty variant's).
pub fn harness(lay: &Layout, switch: &str) -> Harness {
    let switch = switch.to_string();
    let (d, u, w) = (lay.d, lay.u, lay.w);
    let (p1, p2, pr, ab, hb) = (lay.p1, lay.p2, lay.pr, lay.ab, lay.hb);
    let (lc, ld) = (lay.lc, lay.ld);
    let f = &lay.fmt;
    let (n1, n2, nr) = (f.n1, f.n2, f.nr);
    let ns = lay.dn_slots;
    let random = lay.policy() == ArbiterPolicy::Random;
    let mut t = Text(String::new(), 0);

    t.line(format!(
        "// Formal harness of {switch} (lcanet prove switch; docs/formal.md). Do not edit: regenerate."
    ));
    t.line(format!(
        "// d={d} u={u} W={w} l={} P1={p1} P2={p2} PR={pr} n(P1)={n1} n(P2)={n2} n(PR)={nr} T_UP={} T_DOWN={} T_PROBE={}",
        lay.l, f.t_up, f.t_down, f.t_probe
    ));
    t.line("`default_nettype none");
    t.line("");
    t.line("module lca_formal (");
    t.line("    input wire clock,");
    t.line(format!("    input wire [{}:0] a,", d * w - 1));
    t.line(format!("    input wire [{}:0] b,", u * w - 1));
    t.line("    input wire [3:0] level,");
    t.line("    input wire ctl_init,");
    t.line("    input wire [2:0] ctl_mode,");
    t.line("    input wire ctl_last,");
    t.line("    input wire ctl_clear,");
    if random {
        t.line("    input wire [3:0] ctl_level,");
        t.line("    input wire [15:0] seed16,");
        t.line("    input wire [15:0] salt_up,");
        t.line("    input wire [15:0] salt_dn");
    } else {
        t.line("    input wire [3:0] ctl_level");
    }
    t.line(");");
    t.line("");
    t.line("    // The switch, its outputs and its exposed internal state (docs/protocol.md §11)");
    let widths: Vec<(&str, usize)> = vec![
        ("bt", 10),
        ("up_window", 1),
        ("dn_window", 1),
        ("serve_win", 1),
        ("level_q", 4),
        ("rx_a", d * p1),
        ("rx_b", u * p2),
        ("tx_c", d * lc),
        ("tx_d", u * ld),
        ("xp_ac", d * d),
        ("xp_ad", d * u),
        ("xp_bc", u * d),
        ("xp_bd", u * u),
        ("win", d * p1),
        ("up_gnt", d),
        ("up_rej", d),
        ("up_ch", d * u),
        ("dn_gnt", ns),
        ("dn_rej", ns),
        ("dn_ch0", (u + d) * d),
        ("dn_ch1", (d + u) * d),
        ("dn_used_a", d),
        ("dn_used_c", d),
    ];
    debug_assert_eq!(widths.len(), EXPOSED.len());
    t.line(format!("    wire [{}:0] out_c;", d * w - 1));
    t.line(format!("    wire [{}:0] out_d;", u * w - 1));
    for (n, wd) in &widths {
        t.line(format!("    wire [{}:0] {n};", wd - 1));
    }
    let mut pins = vec![
        ".clock(clock)".to_string(),
        ".a(a)".into(),
        ".b(b)".into(),
        ".level(level)".into(),
        ".ctl_init(ctl_init)".into(),
        ".ctl_mode(ctl_mode)".into(),
        ".ctl_last(ctl_last)".into(),
        ".ctl_clear(ctl_clear)".into(),
        ".ctl_level(ctl_level)".into(),
    ];
    if random {
        pins.extend([
            ".seed16(seed16)".to_string(),
            ".salt_up(salt_up)".into(),
            ".salt_dn(salt_dn)".into(),
        ]);
    }
    pins.extend([".c(out_c)".to_string(), ".d(out_d)".into()]);
    pins.extend(EXPOSED.iter().map(|n| format!(".{n}({n})")));
    t.line(format!("    {switch} sw ("));
    t.line(format!("        {}", pins.join(",\n        ")));
    t.line("    );");
    t.line("");

    // ---- Monitor of the controller's protocol (§3) and the receive shadows (§6.1).
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

    // ---- Derived state, as §7 defines it.
    t.line("    // Which inputs drive and which outputs are driven (docs/protocol.md §7)");
    let a_drv = |x: usize| format!("(|{{{}, {}}})", row("xp_ad", x, u), row("xp_ac", x, d));
    let b_drv = |k: usize| format!("(|{{{}, {}}})", row("xp_bd", k, u), row("xp_bc", k, d));
    let c_drv = |x: usize| {
        let mut v: Vec<String> = (0..d).map(|y| format!("xp_ac[{}]", y * d + x)).collect();
        v.extend((0..u).map(|k| format!("xp_bc[{}]", k * d + x)));
        v
    };
    let d_drv = |k: usize| {
        let mut v: Vec<String> = (0..d).map(|x| format!("xp_ad[{}]", x * u + k)).collect();
        v.extend((0..u).map(|k2| format!("xp_bd[{}]", k2 * u + k)));
        v
    };
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
        rows(d, |x| format!("(|{{{}}})", c_drv(x).join(", ")))
    ));
    t.line(format!(
        "    wire [{}:0] f_d_driven = {};",
        u - 1,
        rows(u, |k| format!("(|{{{}}})", d_drv(k).join(", ")))
    ));
    let zext4 = |h: String| {
        if hb < 4 {
            format!("{{{}'d0, {h}}}", 4 - hb)
        } else {
            h
        }
    };
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
            zext4(sl("f_ra", x * p1 + ab, hb))
        )),
        rows(d, |x| format!(
            "({} == f_level)",
            zext4(sl("f_ra", x * p1 + 2 * ab, hb))
        ))
    ));
    t.line("");

    // ---- Properties.
    let all_xp = "{xp_ac, xp_ad, xp_bc, xp_bd}";
    t.line("`ifdef CHECK_P1");
    t.line("    // P1: at most one closed crosspoint into each output");
    for x in 0..d {
        t.check(&format!("P1 C({x})"), None, at_most_one(&c_drv(x)));
    }
    for k in 0..u {
        t.check(&format!("P1 D({k})"), None, at_most_one(&d_drv(k)));
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
        "P3",
        Some("f_chk_hold".into()),
        format!("{all_xp} == f_prev_xp"),
    );
    t.line("`endif");

    // P4's expected values.
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
    let pass_c = rows(d, |x| {
        let t: Vec<String> = (0..d)
            .map(|y| gate(format!("xp_ac[{}]", y * d + x), lanes("a", y)))
            .chain((0..u).map(|k| gate(format!("xp_bc[{}]", k * d + x), lanes("b", k))))
            .collect();
        or_of(&t, w)
    });
    let pass_d = rows(u, |k| {
        let t: Vec<String> = (0..d)
            .map(|x| gate(format!("xp_ad[{}]", x * u + k), lanes("a", x)))
            .chain((0..u).map(|k2| gate(format!("xp_bd[{}]", k2 * u + k), lanes("b", k2))))
            .collect();
        or_of(&t, w)
    });
    // REV: a closed i->o conducts partner(o) -> partner(i): output C(x) (partner of A(x))
    // takes A(x') for a closed A(x)->C(x') and B(k) for A(x)->D(k); D(k) takes A(x) for
    // B(k)->C(x) and B(k') for B(k)->D(k').
    let rev_c = rows(d, |x| {
        let t: Vec<String> = (0..d)
            .map(|o| gate(format!("xp_ac[{}]", x * d + o), lanes("a", o)))
            .chain((0..u).map(|k| gate(format!("xp_ad[{}]", x * u + k), lanes("b", k))))
            .collect();
        or_of(&t, w)
    });
    let rev_d = rows(u, |k| {
        let t: Vec<String> = (0..d)
            .map(|o| gate(format!("xp_bc[{}]", k * d + o), lanes("a", o)))
            .chain((0..u).map(|k2| gate(format!("xp_bd[{}]", k * u + k2), lanes("b", k2))))
            .collect();
        or_of(&t, w)
    });
    let win_next = rows(d, |x| {
        let valid = format!("f_ra[{}]", x * p1 + p1 - 1);
        let here = format!("({} == f_level)", zext4(sl("f_ra", x * p1 + 2 * ab, hb)));
        format!("(({valid} && {here}) ? {} : {})", rx_a_row(x), win_row(x))
    });
    t.line("`ifdef CHECK_P4");
    t.line("    // P4: the commit loads each output register with exactly what was granted to it,");
    t.line(
        "    // as received on the wires (docs/protocol.md §4, §7), zeros elsewhere; an UP commit",
    );
    t.line("    // keeps a packet at its LCA level as the waiting winner; PASS/REV forward lanes.");
    t.line(format!(
        "    reg [{}:0] f_exp_tx_c = {}'d0;",
        d * lc - 1,
        d * lc
    ));
    t.line(format!(
        "    reg [{}:0] f_exp_tx_d = {}'d0;",
        u * ld - 1,
        u * ld
    ));
    t.line(format!(
        "    reg [{}:0] f_exp_win = {}'d0;",
        d * p1 - 1,
        d * p1
    ));
    t.line(format!("    reg [{}:0] f_exp_c = {}'d0;", d * w - 1, d * w));
    t.line(format!("    reg [{}:0] f_exp_d = {}'d0;", u * w - 1, u * w));
    t.line("    reg f_chk_tx = 1'b0;");
    t.line("    reg f_chk_win = 1'b0;");
    t.line("    reg f_chk_pass = 1'b0;");
    t.line("    always @(posedge clock) begin");
    t.line("        f_chk_tx <= ctl_last && !ctl_init && ctl_mode != 3'd4 && ctl_mode != 3'd5;");
    t.line("        f_chk_win <= ctl_last && !ctl_init && ctl_mode == 3'd1;");
    t.line("        f_chk_pass <= !ctl_init && (ctl_mode == 3'd4 || ctl_mode == 3'd5);");
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
        "P4 commit C",
        Some("f_chk_tx".into()),
        "tx_c == f_exp_tx_c".into(),
    );
    t.line("    // (the check of D is split from C so that a counterexample names the side)");
    t.check(
        "P4 commit D",
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

    // ---- Witness: the assumptions admit real traffic (the proofs are not vacuous).
    t.line("`ifdef CHECK_WITNESS");
    t.line("    // Not a property: its counterexample is a trace, allowed by the assumptions, in which");
    t.line("    // crosspoints of every kind close, a commit forwards a granted packet and PASS");
    t.line("    // carries a 1 (so the assumptions do not rule out what P1-P4 speak about).");
    t.line("    reg f_seen_ac = 1'b0;");
    t.line("    reg f_seen_ad = 1'b0;");
    t.line("    reg f_seen_bc = 1'b0;");
    t.line("    reg f_seen_grant = 1'b0;");
    t.line("    reg f_seen_pass = 1'b0;");
    t.line("    reg f_was_pass = 1'b0;");
    t.line("    always @(posedge clock) begin");
    t.line("        if (|xp_ac) f_seen_ac <= 1'b1;");
    t.line("        if (|xp_ad) f_seen_ad <= 1'b1;");
    t.line("        if (|xp_bc) f_seen_bc <= 1'b1;");
    t.line("        if (ctl_last && !ctl_init && (|up_ch || |dn_ch1)) f_seen_grant <= 1'b1;");
    t.line("        f_was_pass <= !ctl_init && ctl_mode == 3'd4;");
    t.line("        if (f_was_pass && (|{out_c, out_d})) f_seen_pass <= 1'b1;");
    t.line("    end");
    t.check(
        "witness",
        None,
        "!(f_seen_ac && f_seen_ad && f_seen_bc && f_seen_grant && f_seen_pass)".into(),
    );
    t.line("`endif");
    t.line("");

    // ---- Auxiliary invariants.
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
    t.check("A1 level", None, "level_q == f_level".into());
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
    t.line("    // Outside its window an arbiter's step outcome is empty.");
    t.check(
        "A3 up",
        Some("!up_window".into()),
        "up_gnt == 0 && up_rej == 0 && up_ch == 0".into(),
    );
    t.check(
        "A3 down",
        Some("!dn_window".into()),
        "dn_gnt == 0 && dn_rej == 0 && dn_ch0 == 0 && dn_ch1 == 0 && dn_used_a == 0 && dn_used_c == 0"
            .into(),
    );
    t.line("    // UP outcome: one upper per granted A(x), each upper granted once; in PROBE the");
    t.line("    // upper is not driven and A(x) drives nothing; a granted packet is valid and not here.");
    for x in 0..d {
        let r: Vec<String> = (0..u).map(|k| format!("up_ch[{}]", x * u + k)).collect();
        t.check(&format!("A4 up_ch row {x}"), None, at_most_one(&r));
        t.check(
            &format!("A4 up_gnt {x}"),
            None,
            format!("(|{}) == up_gnt[{x}]", row("up_ch", x, u)),
        );
        t.check(
            &format!("A4 up request {x}"),
            Some(format!("up_gnt[{x}]")),
            format!("f_a_valid[{x}] && !f_a_here[{x}]"),
        );
        t.check(
            &format!("A4 up guard {x}"),
            Some(format!("f_mode == 3'd3 && up_gnt[{x}]")),
            format!("!f_a_drives[{x}]"),
        );
    }
    for k in 0..u {
        let col: Vec<String> = (0..d).map(|x| format!("up_ch[{}]", x * u + k)).collect();
        t.check(&format!("A4 up_ch column {k}"), None, at_most_one(&col));
        t.check(
            &format!("A4 up free {k}"),
            Some(format!("f_mode == 3'd3 && (|{{{}}})", col.join(", "))),
            format!("!f_d_driven[{k}]"),
        );
    }
    t.line(
        "    // DOWN outcome: one wire per row, each wire taken once and recorded in dn_used_*,",
    );
    t.line("    // never a driven one; guards of S(k) and D(k); in PROBE, X(x) takes A(x) itself");
    t.line("    // for a valid probe at this level and S-slots are not served.");
    for r in 0..u + d {
        let v: Vec<String> = (0..d).map(|x| format!("dn_ch0[{}]", r * d + x)).collect();
        t.check(&format!("A5 dn_ch0 row {r}"), None, at_most_one(&v));
        t.check(
            &format!("A5 dn_ch0 row {r} granted"),
            Some(format!("|{}", row("dn_ch0", r, d))),
            format!("dn_gnt[{r}]"),
        );
    }
    for r in 0..d + u {
        let v: Vec<String> = (0..d).map(|x| format!("dn_ch1[{}]", r * d + x)).collect();
        t.check(&format!("A5 dn_ch1 row {r}"), None, at_most_one(&v));
        t.check(
            &format!("A5 dn_ch1 row {r} granted"),
            Some(format!("|{}", row("dn_ch1", r, d))),
            format!("dn_gnt[{}]", u + r),
        );
    }
    for x in 0..d {
        let c0: Vec<String> = (0..u + d)
            .map(|r| format!("dn_ch0[{}]", r * d + x))
            .collect();
        let c1: Vec<String> = (0..d + u)
            .map(|r| format!("dn_ch1[{}]", r * d + x))
            .collect();
        t.check(&format!("A5 dn_ch0 column {x}"), None, at_most_one(&c0));
        t.check(&format!("A5 dn_ch1 column {x}"), None, at_most_one(&c1));
        t.check(
            &format!("A5 dn_used_a {x}"),
            None,
            format!("dn_used_a[{x}] == (|{{{}}})", c0.join(", ")),
        );
        t.check(
            &format!("A5 dn_used_c {x}"),
            None,
            format!("dn_used_c[{x}] == (|{{{}}})", c1.join(", ")),
        );
    }
    t.check(
        "A5 up-wires free",
        None,
        "(dn_used_a & f_a_drives) == 0".into(),
    );
    t.check(
        "A5 down-wires free",
        None,
        "(dn_used_c & f_c_driven) == 0".into(),
    );
    for k in 0..u {
        t.check(
            &format!("A5 S({k})"),
            Some(format!("|{}", row("dn_ch0", k, d))),
            format!("f_mode == 3'd2 && !f_d_driven[{k}]"),
        );
        t.check(
            &format!("A5 D({k})"),
            Some(format!("|{}", row("dn_ch1", d + k, d))),
            format!("!f_b_drives[{k}]"),
        );
    }
    for x in 0..d {
        let others: Vec<String> = (0..d)
            .filter(|&o| o != x)
            .map(|o| format!("dn_ch0[{}]", (u + x) * d + o))
            .collect();
        if !others.is_empty() {
            t.check(
                &format!("A5 probe X({x}) own wire"),
                Some("f_mode == 3'd3".into()),
                format!("!(|{{{}}})", others.join(", ")),
            );
        }
        t.check(
            &format!("A5 probe X({x}) here"),
            Some(format!("f_mode == 3'd3 && (|{})", row("dn_ch0", u + x, d))),
            format!("f_a_valid[{x}] && f_a_here[{x}]"),
        );
    }
    t.line("`endif");
    t.line("endmodule");
    t.line("");
    t.line("`default_nettype wire");
    Harness {
        top: "lca_formal".into(),
        switch,
        text: t.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lca::switch_module_name;
    use lcanet_sim::lcan::cycle::{SwitchParams, SwitchTopology};

    #[test]
    fn harness_names_the_switch_and_every_property() {
        let p = SwitchParams::new(2, 2, 1, 3, SwitchTopology::Tree, ArbiterPolicy::Fixed).unwrap();
        let h = harness(&Layout::new(p), &switch_module_name(&p));
        assert_eq!(h.switch, "lca_switch_tree_d2_u2_w1_l3_fixed");
        for prop in Property::ALL {
            assert!(h.text.contains(&format!("`ifdef {}", prop.define())));
        }
        assert!(h.text.contains("`ifdef AUX"));
        for n in EXPOSED {
            assert!(h.text.contains(&format!(".{n}({n})")), "{n}");
        }
        assert_eq!(Property::parse("p3"), Some(Property::P3));
        assert_eq!(Property::parse("P5"), None);
    }

    #[test]
    fn the_test_fault_changes_only_the_down_wire_free_check() {
        use crate::lca::{faulty_switch_design, switch_design, TestFault};
        let p = SwitchParams::new(3, 1, 2, 3, SwitchTopology::Cb, ArbiterPolicy::Fixed).unwrap();
        let text = |d: crate::netlist::Design| {
            let e = d.emit().unwrap();
            e.modules
                .into_iter()
                .map(|f| f.contents)
                .collect::<String>()
        };
        let good = text(switch_design(p).unwrap());
        let bad = text(faulty_switch_design(p, TestFault::DrivenOutputFree).unwrap());
        let name = switch_module_name(&p);
        let renamed = bad.replace(&format!("{name}_fault"), &name);
        let differ: Vec<(&str, &str)> = good
            .lines()
            .zip(renamed.lines())
            .filter(|(g, b)| g != b && !g.starts_with("// Parameters"))
            .collect();
        assert_eq!(differ.len(), 1, "{differ:?}");
        assert!(differ[0]
            .0
            .contains("wire [2:0] _dn_free_c = ~(c_driven | dn_used_c);"));
        assert!(bad.contains(&format!("module {name}_fault (")));
    }

    #[test]
    fn at_most_one_is_pairwise() {
        assert_eq!(at_most_one(&["a".into()]), "1'b1");
        assert_eq!(
            at_most_one(&["a".into(), "b".into(), "c".into()]),
            "!((a & b) | (a & c) | (b & c))"
        );
    }
}
