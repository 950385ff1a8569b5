//! P5: the arbiters' choices (`docs/protocol.md` §7, `docs/routing.md` §2), written from
//! the documents, not from the RTL. For every request the arbiter has decided:
//!
//! - it is a request of §7 (UP: a valid packet or probe on `A(x)` not at this level; DOWN:
//!   a valid S-slot or D-slot on `B(k)`, a waiting winner when `ctl_level = level`; PROBE:
//!   a turning probe on `A(x)`, a probe on `B(k)`);
//! - it is granted iff each of its needs finds an allowed wire (`down(Y, ·)`, `up(X, ·)`,
//!   [`super::route`]) that is free — not driven (where §7 says so) and not taken by a
//!   request earlier in the **service order** `(tier, key, (r − p) mod R, S before D)` —
//!   and its guard holds; it then takes, per need, the **first** such wire in the cyclic
//!   order from `q`; a rejected request takes nothing;
//! - the decided requests are the first ones of the service order (every request before
//!   a decided one is decided), as many as the arbiter has had bit-times for
//!   (`chunk · (bt − n(P) + ahead)`, all of them by the commit: "P5 … complete").
//!
//! The pointers `(p, q)` are the harness's own (`f_<arb>_p`, `f_<arb>_q`): 0 (fixed),
//! registers advanced after every arbitration with a grant to `(r_last + 1) mod R` and
//! `(q + 1) mod W` (round-robin), or drawn from a shadow of the 16-bit Galois LFSR
//! (random: `L₀ = seed16 ^ salt`, 1 if zero; one step after every arbitration with a
//! request). The requests "taken earlier" are read from the outcome itself: a check of
//! the outcome against its own prefix, which, request by request in service order, pins
//! it to the one arbitration §2 defines.
//!
//! Under `AUX` (A6): the RTL's policy registers equal the shadows, round-robin's
//! `*_last` is the requester of the last grant so far, and the checks above hold for the
//! chunked arbiter's registers of the outcome so far (`*_q`).

use super::route::{down, first_from, up};
use super::{tracks, Track};
use crate::formal::text::{and_of, count_ones, or_of, row, sl, Text};
use crate::lca::Layout;
use crate::netlist::index_bits;
use lcanet_sim::lcan::cycle::ArbiterPolicy;

/// The pointer of one arbiter: `None` for the fixed 0, else the harness wire's name.
struct Ptr {
    p: Option<String>,
    q: Option<String>,
}

/// A DOWN slot (`docs/protocol.md` §7): `S(k)`, `X(x)`, `D(k)`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    S(usize),
    X(usize),
    D(usize),
}

impl Slot {
    fn of(s: usize, u: usize, d: usize) -> Slot {
        if s < u {
            Slot::S(s)
        } else if s < u + d {
            Slot::X(s - u)
        } else {
            Slot::D(s - u - d)
        }
    }
    /// The requester index: `k` for `B(k)`, `u + x` for `A(x)`.
    fn requester(self, u: usize) -> usize {
        match self {
            Slot::S(k) | Slot::D(k) => k,
            Slot::X(x) => u + x,
        }
    }
    fn needs_a(self) -> bool {
        !matches!(self, Slot::D(_))
    }
    fn needs_c(self) -> bool {
        !matches!(self, Slot::S(_))
    }
}

/// Writes P5 (and A6 under `AUX`) under `` `ifdef CHECK_P5 ``.
pub(super) fn write(t: &mut Text, lay: &Layout) {
    let (d, u) = (lay.d, lay.u);
    t.line("`ifdef CHECK_P5");
    t.line("    // P5: the arbiters' choices follow the service order and the wire order of the");
    t.line("    // policy (docs/protocol.md §7, docs/routing.md §2).");
    let (up_ptr, dn_ptr) = pointers(t, lay);
    let (ups, dns) = tracks(lay);
    up_shared(t, lay, &up_ptr);
    for tr in &ups {
        up_checks(t, lay, tr, &up_ptr);
    }
    dn_shared(t, lay, &dn_ptr);
    for tr in &dns {
        dn_checks(t, lay, tr, &dn_ptr);
    }
    policy_update(t, lay, &ups, &dns);
    let _ = (d, u);
    t.line("`endif");
    t.line("");
}

/// `(r − p) mod R` of every requester as wires `f_<arb>_rank<r>` (or constants, fixed).
fn ranks(t: &mut Text, arb: &str, r: usize, p: &Option<String>) {
    if let Some(p) = p {
        let ib = index_bits(r);
        let rb = ib + 2;
        for i in 0..r {
            t.line(format!(
                "    wire [{}:0] f_{arb}_rank{i} = ({{2'd0, {p}}} <= {rb}'d{i}) ? ({rb}'d{i} - {{2'd0, {p}}}) : ({rb}'d{} - {{2'd0, {p}}});",
                rb - 1,
                i + r
            ));
        }
    }
}

/// "Requester `a` comes before requester `b` in the order from `p`".
fn rank_lt(arb: &str, a: usize, b: usize, p: &Option<String>) -> String {
    match p {
        Some(_) => format!("(f_{arb}_rank{a} < f_{arb}_rank{b})"),
        None => if a < b { "1'b1" } else { "1'b0" }.to_string(),
    }
}

/// The pointer shadows and the wires `(p, q)` of both arbiters.
fn pointers(t: &mut Text, lay: &Layout) -> (Ptr, Ptr) {
    let (d, u) = (lay.d, lay.u);
    let arbs = [("up", d, u, "salt_up"), ("dn", u + d, d, "salt_dn")];
    let mut out = Vec::new();
    for (arb, r, w, salt) in arbs {
        let (ib, iw) = (index_bits(r), index_bits(w));
        out.push(match lay.policy() {
            ArbiterPolicy::Fixed => Ptr { p: None, q: None },
            ArbiterPolicy::RoundRobin => {
                t.line(format!("    reg [{}:0] f_{arb}_p = {ib}'d0;", ib - 1));
                t.line(format!("    reg [{}:0] f_{arb}_q = {iw}'d0;", iw - 1));
                Ptr {
                    p: Some(format!("f_{arb}_p")),
                    q: Some(format!("f_{arb}_q")),
                }
            }
            ArbiterPolicy::Random => {
                t.line(format!("    reg [15:0] f_{arb}_L = 16'd0;"));
                t.line(format!("    wire [15:0] f_{arb}_seed = seed16 ^ {salt};"));
                t.line(format!(
                    "    wire [15:0] f_{arb}_pm = {{8'd0, f_{arb}_L[7:0]}} * 16'd{r};"
                ));
                t.line(format!(
                    "    wire [15:0] f_{arb}_qm = {{8'd0, f_{arb}_L[15:8]}} * 16'd{w};"
                ));
                t.line(format!(
                    "    wire [{}:0] f_{arb}_p = {};",
                    ib - 1,
                    sl(&format!("f_{arb}_pm"), 8, ib)
                ));
                t.line(format!(
                    "    wire [{}:0] f_{arb}_q = {};",
                    iw - 1,
                    sl(&format!("f_{arb}_qm"), 8, iw)
                ));
                Ptr {
                    p: Some(format!("f_{arb}_p")),
                    q: Some(format!("f_{arb}_q")),
                }
            }
        });
    }
    let dn = out.pop().expect("two arbiters");
    let up = out.pop().expect("two arbiters");
    (up, dn)
}

/// The UP arbiter's requests, allowed uppers and service order.
fn up_shared(t: &mut Text, lay: &Layout, ptr: &Ptr) {
    let (d, u, p1, ab, hb) = (lay.d, lay.u, lay.p1, lay.ab, lay.hb);
    t.line("    // UP arbiter (§7 UP, PROBE): requests, allowed uppers up(X, c), order from p");
    t.line(format!(
        "    wire [{}:0] f_up_req = f_a_valid & ~f_a_here & {{{d}{{f_up_win}}}};",
        d - 1
    ));
    for x in 0..d {
        t.line(format!(
            "    wire [{}:0] f_up_h{x} = (f_mode == 3'd3) ? {} : {};",
            hb - 1,
            sl("f_ra", x * p1 + ab, hb),
            sl("f_ra", x * p1 + 2 * ab, hb)
        ));
        t.line(format!(
            "    wire [{}:0] f_up_t{x} = {};",
            ab - 1,
            sl("f_ra", x * p1, ab)
        ));
        t.line(format!(
            "    wire [{}:0] f_up_allow{x} = {};",
            u - 1,
            up(lay, &format!("f_up_h{x}"), &format!("f_up_t{x}"))
        ));
    }
    ranks(t, "up", d, &ptr.p);
}

/// The P5 checks of one view of the UP arbiter's outcome.
fn up_checks(t: &mut Text, lay: &Layout, tr: &Track, ptr: &Ptr) {
    let (d, u) = (lay.d, lay.u);
    let f = &lay.fmt;
    let (g, r, ch) = (&tr.sigs.gnt, &tr.sigs.rej, &tr.sigs.ch0);
    let tag = tr.tag;
    let label = if tr.commit { "P5" } else { "A6" };
    if !tr.commit {
        t.line("`ifdef AUX");
    }
    t.line(format!("    // {label}: the UP outcome {g}, {r}, {ch}"));
    t.line(format!("    wire [{}:0] f_{tag}_dec = {g} | {r};", d - 1));
    for x in 0..d {
        let taken: Vec<String> = (0..d)
            .filter(|&y| y != x)
            .map(|y| {
                format!(
                    "({{{u}{{{}}}}} & {})",
                    rank_lt("up", y, x, &ptr.p),
                    row(ch, y, u)
                )
            })
            .collect();
        t.line(format!(
            "    wire [{}:0] f_{tag}_av{x} = f_up_allow{x} & ~{} & ((f_mode == 3'd3) ? ~f_d_driven : {{{u}{{1'b1}}}});",
            u - 1,
            or_of(&taken, u)
        ));
        t.line(format!(
            "    wire f_{tag}_ok{x} = (|f_{tag}_av{x}) && (f_mode != 3'd3 || !f_a_drives[{x}]);"
        ));
        t.line(format!(
            "    wire [{}:0] f_{tag}_pick{x} = {};",
            u - 1,
            first_from(&format!("f_{tag}_av{x}"), u, ptr.q.as_deref())
        ));
        t.check(
            &format!("{label} {tag} A({x}) decided as the protocol says"),
            Some(format!("f_up_win && f_{tag}_dec[{x}]")),
            format!(
                "f_up_req[{x}] && {g}[{x}] == f_{tag}_ok{x} && {r}[{x}] == !f_{tag}_ok{x} && {} == (f_{tag}_ok{x} ? f_{tag}_pick{x} : {u}'d0)",
                row(ch, x, u)
            ),
        );
        t.check(
            &format!("{label} {tag} A({x}) undecided takes nothing"),
            Some(format!("!f_{tag}_dec[{x}]")),
            format!("{} == {u}'d0", row(ch, x, u)),
        );
        let earlier: Vec<String> = (0..d)
            .filter(|&y| y != x)
            .map(|y| {
                format!(
                    "!(f_up_req[{y}] && {} && !f_{tag}_dec[{y}])",
                    rank_lt("up", y, x, &ptr.p)
                )
            })
            .collect();
        t.check(
            &format!("{label} {tag} A({x}) decided in service order"),
            Some(format!("f_up_win && f_{tag}_dec[{x}]")),
            and_of(&earlier),
        );
    }
    let n1 = f.n1;
    count(t, lay, tr, "up", d, "f_up_win", n1, f.nr, label);
    if !tr.commit {
        t.line("`endif");
    }
}

/// "Requests decided = min(requests, chunk · (bt − n(P) + ahead))" in the window, and at
/// the commit every request decided.
#[allow(clippy::too_many_arguments)]
fn count(
    t: &mut Text,
    lay: &Layout,
    tr: &Track,
    arb: &str,
    slots: usize,
    win: &str,
    n_mode: usize,
    n_probe: usize,
    label: &str,
) {
    let _ = lay;
    let tag = tr.tag;
    let bits = |v: &str| -> Vec<String> { (0..slots).map(|i| format!("{v}[{i}]")).collect() };
    t.line(format!(
        "    wire [15:0] f_{tag}_nreq = {};",
        count_ones(&bits(&format!("f_{arb}_req")), 16)
    ));
    t.line(format!(
        "    wire [15:0] f_{tag}_ndec = {};",
        count_ones(&bits(&format!("f_{tag}_dec")), 16)
    ));
    t.line(format!(
        "    wire [15:0] f_{tag}_room = 16'd{} * ({{6'd0, f_bt}} + 16'd{} - ((f_mode == 3'd3) ? 16'd{n_probe} : 16'd{n_mode}));",
        tr.chunk, tr.ahead
    ));
    t.check(
        &format!("{label} {tag} decided one chunk per bit-time"),
        Some(win.into()),
        format!("f_{tag}_ndec == ((f_{tag}_nreq < f_{tag}_room) ? f_{tag}_nreq : f_{tag}_room)"),
    );
    if tr.commit {
        t.check(
            &format!("P5 {tag} complete at the commit"),
            Some(format!("ctl_last && !ctl_init && {win}")),
            format!("f_{tag}_dec == f_{arb}_req"),
        );
    }
}

/// The DOWN arbiter's requests, allowed wires, keys and service order.
fn dn_shared(t: &mut Text, lay: &Layout, ptr: &Ptr) {
    let (d, u, n) = (lay.d, lay.u, lay.dn_slots);
    let (p1, p2, pr, ab, hb) = (lay.p1, lay.p2, lay.pr, lay.ab, lay.hb);
    t.line("    // DOWN arbiter (§7 DOWN, PROBE): slots S(k), X(x), D(k); requests, allowed");
    t.line("    // wires down(Y, ·), claim keys (l-1-h, s), order (tier, key, (r - p) mod R, S before D)");
    let down_mode = "(f_mode == 3'd2)";
    let probe = "(f_mode == 3'd3)";
    let serve = "(f_mid && f_lvl == f_level)";
    let mut reqs = Vec::new();
    for s in 0..n {
        let e = match Slot::of(s, u, d) {
            Slot::S(k) => format!("({down_mode} && f_rb[{}])", k * p2 + p2 - 1),
            Slot::D(k) => format!(
                "({down_mode} ? f_rb[{}] : ({probe} && f_rb[{}]))",
                k * p2 + p1 - 1,
                k * p2 + pr - 1
            ),
            Slot::X(x) => format!(
                "({down_mode} ? (win[{}] && {serve}) : ({probe} && f_a_valid[{x}] && f_a_here[{x}]))",
                x * p1 + p1 - 1
            ),
        };
        reqs.push(e);
    }
    reqs.reverse();
    t.line(format!(
        "    wire [{}:0] f_dn_req = {{{}}} & {{{n}{{f_dn_win}}}};",
        n - 1,
        reqs.join(", ")
    ));
    for s in 0..n {
        let slot = Slot::of(s, u, d);
        let addr = |t: &mut Text, name: &str, v: String| {
            t.line(format!("    wire [{}:0] {name} = {v};", ab - 1));
        };
        match slot {
            Slot::S(k) => {
                addr(t, &format!("f_dn_src{s}"), sl("f_rb", k * p2 + p1, ab));
                t.line(format!(
                    "    wire [{}:0] f_dn_alla{s} = {};",
                    d - 1,
                    down(lay, &format!("f_dn_src{s}"))
                ));
                t.line(format!(
                    "    wire [{}:0] f_dn_kh{s} = {};",
                    hb - 1,
                    sl("f_rb", k * p2 + p1 + ab, hb)
                ));
                t.line(format!("    wire [{}:0] f_dn_ks{s} = f_dn_src{s};", ab - 1));
            }
            Slot::D(k) => {
                addr(t, &format!("f_dn_dst{s}"), sl("f_rb", k * p2, ab));
                t.line(format!(
                    "    wire [{}:0] f_dn_allc{s} = {};",
                    d - 1,
                    down(lay, &format!("f_dn_dst{s}"))
                ));
                t.line(format!(
                    "    wire [{}:0] f_dn_kh{s} = {};",
                    hb - 1,
                    sl("f_rb", k * p2 + 2 * ab, hb)
                ));
                t.line(format!(
                    "    wire [{}:0] f_dn_ks{s} = {};",
                    ab - 1,
                    sl("f_rb", k * p2 + ab, ab)
                ));
            }
            Slot::X(x) => {
                addr(t, &format!("f_dn_src{s}"), sl("win", x * p1 + ab, ab));
                addr(t, &format!("f_dn_wdst{s}"), sl("win", x * p1, ab));
                addr(t, &format!("f_dn_pdst{s}"), sl("f_ra", x * p1, ab));
                let own = (0..d)
                    .rev()
                    .map(|y| if y == x { "1" } else { "0" })
                    .collect::<String>();
                t.line(format!(
                    "    wire [{}:0] f_dn_alla{s} = {probe} ? {d}'b{own} : {};",
                    d - 1,
                    down(lay, &format!("f_dn_src{s}"))
                ));
                t.line(format!(
                    "    wire [{}:0] f_dn_allc{s} = {probe} ? {} : {};",
                    d - 1,
                    down(lay, &format!("f_dn_pdst{s}")),
                    down(lay, &format!("f_dn_wdst{s}"))
                ));
            }
        }
    }
    ranks(t, "dn", u + d, &ptr.p);
    for s2 in 0..n {
        for s in 0..n {
            if s2 != s {
                t.line(format!(
                    "    wire f_dn_b{s2}_{s} = {};",
                    before(lay, s2, s, &ptr.p)
                ));
            }
        }
    }
}

/// "DOWN slot `a` comes before slot `b` in the service order".
fn before(lay: &Layout, a: usize, b: usize, p: &Option<String>) -> String {
    let (d, u) = (lay.d, lay.u);
    let (sa, sb) = (Slot::of(a, u, d), Slot::of(b, u, d));
    let (ra, rb) = (sa.requester(u), sb.requester(u));
    let lt = rank_lt("dn", ra, rb, p);
    let down_mode = "(f_mode == 3'd2)";
    let claim = |s: Slot| !matches!(s, Slot::X(_));
    match (claim(sa), claim(sb)) {
        (false, false) => lt,
        (false, true) => format!("(!{down_mode} && {lt})"),
        (true, false) => format!("({down_mode} || {lt})"),
        (true, true) => {
            let s_before_d = ra == rb && matches!(sa, Slot::S(_)) && matches!(sb, Slot::D(_));
            // Same requester (B(k)): S(k) before D(k).
            let tie = if s_before_d { "1'b1".to_string() } else { lt };
            let keylt = format!(
                "(f_dn_kh{a} > f_dn_kh{b} || (f_dn_kh{a} == f_dn_kh{b} && f_dn_ks{a} < f_dn_ks{b}))"
            );
            let keyeq = format!("(f_dn_kh{a} == f_dn_kh{b} && f_dn_ks{a} == f_dn_ks{b})");
            format!("({down_mode} ? ({keylt} || ({keyeq} && {tie})) : {tie})")
        }
    }
}

/// The P5 checks of one view of the DOWN arbiter's outcome.
fn dn_checks(t: &mut Text, lay: &Layout, tr: &Track, ptr: &Ptr) {
    let (d, u, n) = (lay.d, lay.u, lay.dn_slots);
    let f = &lay.fmt;
    let s_ = &tr.sigs;
    let (g, r, c0) = (&s_.gnt, &s_.rej, &s_.ch0);
    let c1 = s_.ch1.as_deref().expect("DOWN has down-wires");
    let tag = tr.tag;
    let label = if tr.commit { "P5" } else { "A6" };
    if !tr.commit {
        t.line("`ifdef AUX");
    }
    t.line(format!(
        "    // {label}: the DOWN outcome {g}, {r}, {c0}, {c1}"
    ));
    t.line(format!("    wire [{}:0] f_{tag}_dec = {g} | {r};", n - 1));
    let row0 = |s: usize| -> Option<String> {
        match Slot::of(s, u, d) {
            Slot::S(k) => Some(row(c0, k, d)),
            Slot::X(x) => Some(row(c0, u + x, d)),
            Slot::D(_) => None,
        }
    };
    let row1 = |s: usize| -> Option<String> {
        match Slot::of(s, u, d) {
            Slot::X(x) => Some(row(c1, x, d)),
            Slot::D(k) => Some(row(c1, d + k, d)),
            Slot::S(_) => None,
        }
    };
    for s in 0..n {
        let slot = Slot::of(s, u, d);
        let name = match slot {
            Slot::S(k) => format!("S({k})"),
            Slot::X(x) => format!("X({x})"),
            Slot::D(k) => format!("D({k})"),
        };
        let taken = |rowf: &dyn Fn(usize) -> Option<String>| -> String {
            let v: Vec<String> = (0..n)
                .filter(|&o| o != s)
                .filter_map(|o| rowf(o).map(|rw| format!("({{{d}{{f_dn_b{o}_{s}}}}} & {rw})")))
                .collect();
            or_of(&v, d)
        };
        let mut ok = vec![match slot {
            Slot::S(k) => format!("!f_d_driven[{k}]"),
            Slot::D(k) => format!("!f_b_drives[{k}]"),
            Slot::X(_) => "1'b1".to_string(),
        }];
        let mut rows_ok = Vec::new();
        if slot.needs_a() {
            t.line(format!(
                "    wire [{}:0] f_{tag}_ava{s} = f_dn_alla{s} & ~f_a_drives & ~{};",
                d - 1,
                taken(&row0)
            ));
            t.line(format!(
                "    wire [{}:0] f_{tag}_pka{s} = {};",
                d - 1,
                first_from(&format!("f_{tag}_ava{s}"), d, ptr.q.as_deref())
            ));
            ok.push(format!("(|f_{tag}_ava{s})"));
            rows_ok.push((row0(s).expect("a row"), format!("f_{tag}_pka{s}")));
        }
        if slot.needs_c() {
            t.line(format!(
                "    wire [{}:0] f_{tag}_avc{s} = f_dn_allc{s} & ~f_c_driven & ~{};",
                d - 1,
                taken(&row1)
            ));
            t.line(format!(
                "    wire [{}:0] f_{tag}_pkc{s} = {};",
                d - 1,
                first_from(&format!("f_{tag}_avc{s}"), d, ptr.q.as_deref())
            ));
            ok.push(format!("(|f_{tag}_avc{s})"));
            rows_ok.push((row1(s).expect("a row"), format!("f_{tag}_pkc{s}")));
        }
        t.line(format!("    wire f_{tag}_ok{s} = {};", and_of(&ok)));
        let wires: Vec<String> = rows_ok
            .iter()
            .map(|(rw, pk)| format!("{rw} == (f_{tag}_ok{s} ? {pk} : {d}'d0)"))
            .collect();
        t.check(
            &format!("{label} {tag} {name} decided as the protocol says"),
            Some(format!("f_dn_win && f_{tag}_dec[{s}]")),
            format!(
                "f_dn_req[{s}] && {g}[{s}] == f_{tag}_ok{s} && {r}[{s}] == !f_{tag}_ok{s} && {}",
                and_of(&wires)
            ),
        );
        let zeros: Vec<String> = rows_ok
            .iter()
            .map(|(rw, _)| format!("{rw} == {d}'d0"))
            .collect();
        t.check(
            &format!("{label} {tag} {name} undecided takes nothing"),
            Some(format!("!f_{tag}_dec[{s}]")),
            and_of(&zeros),
        );
        let earlier: Vec<String> = (0..n)
            .filter(|&o| o != s)
            .map(|o| format!("!(f_dn_req[{o}] && f_dn_b{o}_{s} && !f_{tag}_dec[{o}])"))
            .collect();
        t.check(
            &format!("{label} {tag} {name} decided in service order"),
            Some(format!("f_dn_win && f_{tag}_dec[{s}]")),
            and_of(&earlier),
        );
    }
    count(t, lay, tr, "dn", n, "f_dn_win", f.n2, f.nr, label);
    if !tr.commit {
        t.line("`endif");
    }
}

/// The requester index of the last grant (in service order) of an outcome view, as an
/// expression of `index_bits(R)` bits; `R` requesters.
fn last_grant(lay: &Layout, arb: &str, g: &str, ptr: &Ptr) -> String {
    let (d, u) = (lay.d, lay.u);
    let (slots, r) = if arb == "up" {
        (d, d)
    } else {
        (2 * u + d, u + d)
    };
    let ib = index_bits(r);
    let terms: Vec<String> = (0..slots)
        .map(|s| {
            let later: Vec<String> = (0..slots)
                .filter(|&o| o != s)
                .map(|o| {
                    let b = if arb == "up" {
                        rank_lt("up", s, o, &ptr.p)
                    } else {
                        format!("f_dn_b{s}_{o}")
                    };
                    format!("({b} && {g}[{o}])")
                })
                .collect();
            let req = if arb == "up" {
                s
            } else {
                Slot::of(s, u, d).requester(u)
            };
            let none_later = if later.is_empty() {
                "1'b1".to_string()
            } else {
                format!("!({})", later.join(" || "))
            };
            format!("(({g}[{s}] && {none_later}) ? {ib}'d{req} : {ib}'d0)")
        })
        .collect();
    or_of(&terms, ib)
}

/// The policy shadows' updates at the commit (§2 step 4) and A6 for the RTL's policy
/// registers.
fn policy_update(t: &mut Text, lay: &Layout, ups: &[Track], dns: &[Track]) {
    let (d, u) = (lay.d, lay.u);
    let policy = lay.policy();
    if policy == ArbiterPolicy::Fixed {
        return;
    }
    let (up_ptr, dn_ptr) = (
        Ptr {
            p: Some("f_up_p".into()),
            q: Some("f_up_q".into()),
        },
        Ptr {
            p: Some("f_dn_p".into()),
            q: Some("f_dn_q".into()),
        },
    );
    let commit_of = |v: &[Track]| v.iter().find(|t| t.commit).expect("a commit view").clone();
    let (cu, cd) = (commit_of(ups), commit_of(dns));
    t.line(
        "    // The policy state's update (docs/routing.md §2 step 4), at a commit that arbitrated",
    );
    t.line("    always @(posedge clock) begin");
    for (arb, r, w, tr, ptr, salt) in [
        ("up", d, u, &cu, &up_ptr, "salt_up"),
        ("dn", u + d, d, &cd, &dn_ptr, "salt_dn"),
    ] {
        let (ib, iw) = (index_bits(r), index_bits(w));
        let g = &tr.sigs.gnt;
        let at = format!("ctl_last && f_{arb}_win");
        match policy {
            ArbiterPolicy::RoundRobin => {
                let last = last_grant(lay, arb, g, ptr);
                // (x + 1) mod n; a 1-bit index of n = 1 stays 0, a power of two wraps.
                let next_p = if r == 1 {
                    format!("{ib}'d0")
                } else if r.is_power_of_two() {
                    format!("(({last}) + {ib}'d1)")
                } else {
                    format!(
                        "((({last}) == {ib}'d{}) ? {ib}'d0 : ({last}) + {ib}'d1)",
                        r - 1
                    )
                };
                let next_q = if w == 1 {
                    format!("{iw}'d0")
                } else if w.is_power_of_two() {
                    format!("(f_{arb}_q + {iw}'d1)")
                } else {
                    format!(
                        "((f_{arb}_q == {iw}'d{}) ? {iw}'d0 : f_{arb}_q + {iw}'d1)",
                        w - 1
                    )
                };
                t.line(format!(
                    "        if (ctl_init) begin f_{arb}_p <= {ib}'d0; f_{arb}_q <= {iw}'d0; end"
                ));
                t.line(format!(
                    "        else if ({at} && (|{g})) begin f_{arb}_p <= {next_p}; f_{arb}_q <= {next_q}; end"
                ));
            }
            ArbiterPolicy::Random => {
                let _ = salt;
                t.line(format!(
                    "        if (ctl_init) f_{arb}_L <= (f_{arb}_seed == 16'd0) ? 16'd1 : f_{arb}_seed;"
                ));
                t.line(format!(
                    "        else if ({at} && (|f_{arb}_req)) f_{arb}_L <= {{1'b0, f_{arb}_L[15:1]}} ^ (f_{arb}_L[0] ? 16'hB400 : 16'h0000);"
                ));
            }
            ArbiterPolicy::Fixed => {}
        }
    }
    t.line("    end");
    t.line("`ifdef AUX");
    t.line("    // A6: the RTL's policy state is the protocol's (docs/protocol.md §11 names)");
    match policy {
        ArbiterPolicy::RoundRobin => {
            // The pointers are indices: p < R, q < Wn (§2: updated mod R, mod Wn). Without
            // this the induction step may start from p = 7 with R = 6, where the order
            // from p, and so the requester of the last grant, means nothing.
            for (arb, r, w) in [("up", d, u), ("dn", u + d, d)] {
                let (ib, iw) = (index_bits(r), index_bits(w));
                t.check(
                    &format!("A6 {arb}_p in range"),
                    None,
                    format!("f_{arb}_p <= {ib}'d{}", r - 1),
                );
                t.check(
                    &format!("A6 {arb}_q in range"),
                    None,
                    format!("f_{arb}_q <= {iw}'d{}", w - 1),
                );
            }
            for arb in ["up", "dn"] {
                t.check(
                    &format!("A6 {arb}_p"),
                    None,
                    format!("{arb}_p == f_{arb}_p"),
                );
                t.check(
                    &format!("A6 {arb}_q"),
                    None,
                    format!("{arb}_q == f_{arb}_q"),
                );
            }
            // Round-robin's requester of the last grant so far, where it is a register.
            let seq = lay.params.setup == lcanet_sim::lcan::cycle::SetupMode::Sequential;
            for (arb, views, ptr) in [("up", ups, &up_ptr), ("dn", dns, &dn_ptr)] {
                for tr in views {
                    let reg = if seq {
                        Some(format!("{arb}_last"))
                    } else if !tr.commit {
                        Some(format!("{arb}_last_q"))
                    } else {
                        None
                    };
                    if let Some(reg) = reg {
                        let g = &tr.sigs.gnt;
                        t.check(
                            &format!("A6 {reg}"),
                            Some(format!("|{g}")),
                            format!("{reg} == {}", last_grant(lay, arb, g, ptr)),
                        );
                    }
                }
            }
        }
        ArbiterPolicy::Random => {
            for arb in ["up", "dn"] {
                t.check(
                    &format!("A6 {arb}_lfsr"),
                    None,
                    format!("{arb}_lfsr == f_{arb}_L"),
                );
            }
        }
        ArbiterPolicy::Fixed => {}
    }
    t.line("`endif");
}
