//! The datapath's clocked statements (`docs/protocol.md` §6): receive, outputs (shift,
//! pass-through data, or the commit's packets), crosspoints and waiting winners. The commit
//! closes the crosspoints the arbiters granted and loads the packets they forward: an UP
//! packet or probe into `tx_d` of its upper, a DOWN packet (S-slot and D-slot, each from a
//! claim on `B` or a waiting winner) or a probe into `tx_c` of its downer.

use super::datapath::State;
use super::decoder::pick;
use super::down::DnArb;
use super::layout::{Layout, TestFault};
use super::logic::gate;
use super::switch::{Ctl, Ports};
use super::up::UpArb;
use crate::netlist::{cat, or_all, zero, ModuleBuilder, Proc, V};

/// `v` at bit `lsb` of a `len`-bit value, zeros elsewhere.
fn place(v: V, lsb: usize, len: usize) -> V {
    let above = len - lsb - v.width();
    let mut parts = Vec::new();
    if above > 0 {
        parts.push(zero(above));
    }
    parts.push(v);
    if lsb > 0 {
        parts.push(zero(lsb));
    }
    cat(parts)
}

/// `reg ← (reg << W) | lanes` for every row of a `rows × len` register.
fn shift_rows(s: &mut Proc, reg: &V, rows: usize, len: usize, lanes: &V, w: usize) {
    for i in 0..rows {
        let row = reg.row(i, len);
        let next = if w >= len {
            lanes.row(i, w).low(len)
        } else {
            cat([row.low(len - w), lanes.row(i, w)])
        };
        s.load(&row, next);
    }
}

/// The process statements of the datapath, the commit included.
pub(super) fn process(
    m: &mut ModuleBuilder,
    lay: &Layout,
    p: &Ports,
    ctl: &Ctl,
    st: &State,
    up: &UpArb,
    dn: &DnArb,
) {
    let (d, u, w) = (lay.d, lay.u, lay.w);
    let (p1, p2, pr, ab) = (lay.p1, lay.p2, lay.pr, lay.ab);
    let (lc, ld) = (lay.lc, lay.ld);
    let rx_b_row = |k: usize| st.rx_b.row(k, p2);
    let rx_a_row = |x: usize| st.rx_a.row(x, p1);
    let win_row = |x: usize| st.win.row(x, p1);
    // Commit loads: UP packets to D, DOWN packets (S-slot, D-slot) to C, probes to both.
    let up_load = |probe: bool| {
        cat((0..u).rev().map(|k| {
            let src = |x: usize| {
                let v = if probe {
                    rx_a_row(x).low(pr)
                } else if lay.fault == Some(TestFault::UpDropsLastBit) {
                    cat([rx_a_row(x).bits(p1 - 1, 1), zero(1)])
                } else {
                    rx_a_row(x)
                };
                (v, up.ch.bit(x * u + k))
            };
            let width = if probe { pr } else { p1 };
            let v = pick(width, (0..d).map(src));
            place(v, if probe { lay.off_d } else { 0 }, ld)
        }))
    };
    let down_load = cat((0..d).rev().map(|x| {
        let s_slot = pick(
            p2 - p1,
            (0..u)
                .map(|k| (rx_b_row(k).bits(p2 - 1, p1), dn.ch0.bit(k * d + x)))
                .chain((0..d).map(|y| (win_row(y).bits(p1 - 1, ab), dn.ch0.bit((u + y) * d + x)))),
        );
        let d_slot = pick(
            p1,
            (0..d)
                .map(|y| (win_row(y), dn.ch1.bit(y * d + x)))
                .chain((0..u).map(|k| (rx_b_row(k).low(p1), dn.ch1.bit((d + k) * d + x)))),
        );
        place(cat([s_slot, d_slot]), 0, lc)
    }));
    let probe_c = cat((0..d).rev().map(|x| {
        let v = pick(
            pr,
            (0..d)
                .map(|y| (rx_a_row(y).low(pr), dn.ch1.bit(y * d + x)))
                .chain((0..u).map(|k| (rx_b_row(k).low(pr), dn.ch1.bit((d + k) * d + x)))),
        );
        place(v, lay.off_c, lc)
    }));
    // Crosspoints granted: S(k) on up-wire A(x) closes A(x)->D(k); X(y) on (A(x'), C(x''))
    // closes A(x')->C(x''); D(k) on down-wire C(x) closes B(k)->C(x); in PROBE an UP grant
    // of A(x) on upper k closes A(x)->D(k).
    let turned = |x: usize| or_all(1, (0..d).map(|y| dn.ch0.bit((u + y) * d + x)));
    let set_ad = cat((0..d)
        .rev()
        .flat_map(|x| (0..u).rev().map(move |k| (x, k)))
        .map(|(x, k)| {
            if lay.fault == Some(TestFault::TurnAlsoUp) && k == 0 {
                dn.ch0.bit(k * d + x) | turned(x)
            } else {
                dn.ch0.bit(k * d + x)
            }
        }))
        | up.ch.when(&ctl.m_probe);
    let set_ac = or_all(
        d * d,
        (0..d).map(|y| {
            cat((0..d)
                .rev()
                .map(|x1| gate(&dn.ch1.row(y, d), &dn.ch0.bit((u + y) * d + x1))))
        }),
    );
    let set_bc = dn.ch1.bits((d + u) * d - 1, d * d);
    let (init, clear, commit) = (&p.init, &p.clear, &ctl.commit);
    m.always(|s| {
        s.comment("Receive (docs/protocol.md §6.1); cleared by every commit");
        s.if_(init | &p.last, |s| s.load(&st.rx_a, zero(d * p1)))
            .elif(&ctl.rx_a_en, |s| shift_rows(s, &st.rx_a, d, p1, &p.a, w));
        s.if_(init | &p.last, |s| s.load(&st.rx_b, zero(u * p2)))
            .elif(&ctl.rx_b_en, |s| shift_rows(s, &st.rx_b, u, p2, &p.b, w));
        s.comment("Outputs (§6.2, §6.3): pass-through data, the commit's packets, or shift");
        s.if_(init, |s| {
            s.load(&st.tx_c, zero(d * lc));
            s.load(&st.tx_d, zero(u * ld));
        })
        .elif(&ctl.m_pass | &ctl.m_rev, |s| {
            for x in 0..d {
                s.load(&st.tx_c.row(x, lc), place(st.pass_c.row(x, w), lc - w, lc));
            }
            for k in 0..u {
                s.load(&st.tx_d.row(k, ld), place(st.pass_d.row(k, w), ld - w, ld));
            }
        })
        .elif(commit, |s| {
            s.case(&p.mode, |c| {
                c.arm(&[1], |s| {
                    s.load(&st.tx_c, zero(d * lc));
                    s.load(&st.tx_d, up_load(false));
                });
                c.arm(&[2], |s| {
                    s.load(&st.tx_c, down_load.clone());
                    s.load(&st.tx_d, zero(u * ld));
                });
                c.arm(&[3], |s| {
                    s.load(&st.tx_c, probe_c.clone());
                    s.load(&st.tx_d, up_load(true));
                });
                c.default(|s| {
                    s.load(&st.tx_c, zero(d * lc));
                    s.load(&st.tx_d, zero(u * ld));
                });
            });
        })
        .else_(|s| {
            shift_rows(s, &st.tx_c, d, lc, &zero(d * w), w);
            shift_rows(s, &st.tx_d, u, ld, &zero(u * w), w);
        });
        s.comment("Crosspoints (§6.3, §6.4): closed at a commit, all opened by ctl_clear");
        let opens = if lay.fault == Some(TestFault::RevOpens) {
            init | clear | &ctl.m_rev
        } else {
            init | clear
        };
        s.if_(opens, |s| {
            s.load(&st.xp_ac, zero(d * d));
            s.load(&st.xp_ad, zero(d * u));
            s.load(&st.xp_bc, zero(u * d));
            s.load(&st.xp_bd, zero(u * u));
        })
        .elif(commit, |s| {
            s.load(&st.xp_ac, &st.xp_ac | &set_ac);
            s.load(&st.xp_ad, &st.xp_ad | &set_ad);
            s.load(&st.xp_bc, &st.xp_bc | &set_bc);
        });
        s.comment("Waiting winners: stored at an UP commit, dropped when served or cleared");
        let drop_all = if lay.fault == Some(TestFault::ClearKeepsWinners) {
            init | (commit & &ctl.serve_win)
        } else {
            init | clear | (commit & &ctl.serve_win)
        };
        s.if_(drop_all, |s| {
            s.load(&st.win, zero(d * p1));
        })
        .elif(commit & &ctl.m_up, |s| {
            for x in 0..d {
                s.if_(st.a_valid.bit(x) & st.a_here.bit(x), |s| {
                    s.load(&win_row(x), rx_a_row(x));
                });
            }
        });
    });
}
