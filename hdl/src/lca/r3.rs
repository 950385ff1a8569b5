//! The R3 switch (`docs/protocol.md` §12): source-routed, cut-through set-up with no
//! arbitration. Modes `IDLE`, `PASS`, `REV` (as the R1/R2 switch) and `SRC`: per input a
//! parser (`sc`, `sf`) that waits for the header bit-time `V`, collects the output-port field
//! and requests that output; the requests of one edge are granted by the guard rules of
//! §12.3 (`gnt`), closing their crosspoints and starting each granted output with a fresh
//! `V`. Module `lca_switch_r3_d<d>_u<u>_w<W>`: the route is in the stream, so neither the
//! level, the topology, the tables nor a policy changes its text.

use super::datapath::{forward, reverse};
use crate::netlist::{cat, elaborate, flag, lit, or_all, zero, Design, Module, ModuleBuilder, V};
use lcanet_sim::lcan::cycle::src_mode::route_field_bits;
use lcanet_sim::lcan::cycle::Mode;

/// The R3 switch's module name: `lca_switch_r3_d<d>_u<u>_w<W>`, with `_f<f>` appended when
/// its route fields are wider than its own `⌈log2(d + u)⌉` (a network whose switch sizes
/// vary by level has one field width, its widest level's: `docs/protocol.md` §12.1).
pub fn r3_switch_module_name(d: usize, u: usize, w: usize, f: usize) -> String {
    if f == route_field_bits(d, u) {
        format!("lca_switch_r3_d{d}_u{u}_w{w}")
    } else {
        format!("lca_switch_r3_d{d}_u{u}_w{w}_f{f}")
    }
}

/// Adds the R3 switch module with `f`-bit route fields to `design` (a no-op if it is there)
/// and returns it.
pub fn add_r3_switch(
    design: &mut Design,
    d: usize,
    u: usize,
    w: usize,
    f: usize,
) -> Result<Module, super::SwitchGenError> {
    let name = r3_switch_module_name(d, u, w, f);
    let module = elaborate(&format!("switch module `{name}`"), || {
        r3_switch_f(d, u, w, f)
    })?;
    design.add_module(module.clone())?;
    Ok(module)
}

/// The R3 switch module for `d` downers, `u` uppers, `W` lanes (fields of its own width).
pub fn r3_switch(d: usize, u: usize, w: usize) -> Module {
    r3_switch_f(d, u, w, route_field_bits(d, u))
}

/// A deliberate defect a test can build into the R3 switch, to show that the proof
/// catches it (`lcanet prove r3 --fault`; never set by the generators).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum R3Fault {
    /// A request is granted even if its output is driven: P1 fails.
    DrivenOutputFree,
    /// An input that forwards still parses a `V` in its stream: P2 fails.
    DrivingInputParses,
    /// An `SRC` commit opens the crosspoints: P3 fails.
    CommitOpens,
    /// A granted output starts with 0 instead of a fresh `V`: P4 fails.
    NoFreshHeader,
    /// The highest-numbered input wins a tie: P5 fails.
    HighestWins,
}

/// The R3 switch module for `d` downers, `u` uppers, `W` lanes and `f`-bit route fields
/// (`f ≥ ⌈log2(d + u)⌉`; the bits above the port code are ignored, as any padding).
pub fn r3_switch_f(d: usize, u: usize, w: usize, f: usize) -> Module {
    r3_module(d, u, w, f, None)
}

/// Test only: the R3 switch with the defect `fault`, named `<name>_fault`.
pub fn faulty_r3_switch(d: usize, u: usize, w: usize, f: usize, fault: R3Fault) -> Module {
    let mut m = r3_module(d, u, w, f, Some(fault));
    m.name = format!("{}_fault", m.name);
    m
}

fn r3_module(d: usize, u: usize, w: usize, f: usize, fault: Option<R3Fault>) -> Module {
    let ports = d + u;
    let nf = f.div_ceil(w);
    let nfw = nf * w;
    let scb = lcanet_sim::lcan::cycle::params::clog2(nf + 2);
    let mut m = ModuleBuilder::new(r3_switch_module_name(d, u, w, f));
    m.clock();
    let a = m.input("a", d * w);
    let b = m.input("b", u * w);
    let init = m.input("ctl_init", 1);
    let mode = m.input("ctl_mode", 3);
    let last = m.input("ctl_last", 1);
    let clear = m.input("ctl_clear", 1);
    let c_o = m.output("c", d * w);
    let d_o = m.output("d", u * w);

    m.comment("Mode decode (docs/protocol.md §3, §12)");
    let m_src = m.def("m_src", mode.is(u64::from(Mode::Src.code())));
    let m_pass = m.def("m_pass", mode.is(u64::from(Mode::Pass.code())));
    let m_rev = m.def("m_rev", mode.is(u64::from(Mode::Rev.code())));
    let commit = m.def("commit", &last & !&init);

    m.comment("Output registers (W bits each: the ports), crosspoints (row = input)");
    let tx_c = m.reg("tx_c", d * w);
    let tx_d = m.reg("tx_d", u * w);
    m.assign(&c_o, &tx_c);
    m.assign(&d_o, &tx_d);
    let xp_ac = m.reg("xp_ac", d * d);
    let xp_ad = m.reg("xp_ad", d * u);
    let xp_bc = m.reg("xp_bc", u * d);
    let xp_bd = m.reg("xp_bd", u * u);
    m.comment(
        "SRC parsers, input i = A(0..d) then B(0..u): sc (0 wait, 1..nf field, nf+1 done), sf",
    );
    let sc = m.reg("sc", ports * scb);
    let sf = m.reg("sf", ports * nfw);

    m.comment("Input i drives / output o is driven (i, o: A or C first, then B or D)");
    let row_any = |x: &V, r: usize, wd: usize| x.row(r, wd).any();
    let drives = m.def(
        "drives",
        cat((0..ports).rev().map(|i| {
            if i < d {
                row_any(&xp_ac, i, d) | row_any(&xp_ad, i, u)
            } else {
                row_any(&xp_bc, i - d, d) | row_any(&xp_bd, i - d, u)
            }
        })),
    );
    let driven = m.def(
        "driven",
        cat([
            or_all(
                u,
                (0..d)
                    .map(|x| xp_ad.row(x, u))
                    .chain((0..u).map(|k| xp_bd.row(k, u))),
            ),
            or_all(
                d,
                (0..d)
                    .map(|x| xp_ac.row(x, d))
                    .chain((0..u).map(|k| xp_bc.row(k, d))),
            ),
        ]),
    );
    m.comment("PASS/SRC forward through closed crosspoints, REV backwards (§6)");
    let pass_c = m.def(
        "pass_c",
        m_rev.select(
            reverse(&a, &b, &xp_ac, &xp_ad, d, w),
            forward(&a, &b, &xp_ac, &xp_bc, d, u, w),
        ),
    );
    let pass_d = m.def(
        "pass_d",
        m_rev.select(
            reverse(&a, &b, &xp_bc, &xp_bd, u, w),
            forward(&a, &b, &xp_ad, &xp_bd, d, u, w),
        ),
    );

    m.comment("Parse (§12.3 step 2): V starts a field, nf bit-times of field, then a request");
    let ins = m.def("ins", cat([b.clone(), a.clone()]));
    let lanes = |i: usize| ins.row(i, w);
    let start = m.def(
        "start",
        cat((0..ports).rev().map(|i| {
            let idle = if fault == Some(R3Fault::DrivingInputParses) {
                // `drives` still read (the netlist allows no unread wire), as nothing.
                !(drives.bit(i) & !drives.bit(i))
            } else {
                !drives.bit(i)
            };
            &m_src & sc.row(i, scb).is(0) & idle & lanes(i).bit(w - 1)
        })),
    );
    let in_field = m.def(
        "in_field",
        cat((0..ports).rev().map(|i| {
            let s = sc.row(i, scb);
            &m_src & s.is_not(0) & s.le(&lit(scb, nf as u64))
        })),
    );
    let sf_shift = m.def(
        "sf_shift",
        cat((0..ports).rev().map(|i| {
            if nfw > w {
                cat([sf.row(i, nfw).low(nfw - w), lanes(i)])
            } else {
                lanes(i)
            }
        })),
    );
    let req = m.def(
        "req",
        cat((0..ports)
            .rev()
            .map(|i| &m_src & sc.row(i, scb).is(nf as u64))),
    );
    let req_q = m.def(
        "req_q",
        cat((0..ports).rev().map(|i| sf_shift.row(i, nfw).low(f))),
    );
    // Range (q < d + u) and direction (a B input only to C): the guard of §12.3.
    let legal = m.def(
        "legal",
        cat((0..ports).rev().map(|i| {
            let q = req_q.row(i, f);
            let bound = if i < d { ports } else { d };
            let ok = if bound >= 1 << f {
                flag(true)
            } else {
                q.lt(&lit(f, bound as u64))
            };
            req.bit(i) & ok
        })),
    );
    m.comment("Requests as one-hot rows over the outputs; the lowest input wins a free output");
    let want = m.def(
        "want",
        cat((0..ports).rev().map(|i| {
            let q = req_q.row(i, f);
            cat((0..ports).rev().map(|o| legal.bit(i) & q.is(o as u64)))
        })),
    );
    let gnt = m.def(
        "gnt",
        cat((0..ports).rev().map(|i| {
            let others: Vec<usize> = if fault == Some(R3Fault::HighestWins) {
                (i + 1..ports).collect()
            } else {
                (0..i).collect()
            };
            let earlier = or_all(ports, others.into_iter().map(|j| want.row(j, ports)));
            if fault == Some(R3Fault::DrivenOutputFree) {
                // `driven` still read (the netlist allows no unread wire), as nothing.
                want.row(i, ports) & !earlier & !(&driven & !&driven)
            } else {
                want.row(i, ports) & !&driven & !earlier
            }
        })),
    );
    let opened = m.def(
        "opened",
        or_all(ports, (0..ports).map(|i| gnt.row(i, ports))),
    );
    let v_lanes = if fault == Some(R3Fault::NoFreshHeader) {
        zero(w)
    } else {
        lit(w, 1 << (w - 1))
    };
    let out_next = |pass: &V, first: usize, count: usize| {
        cat((first..first + count).rev().map(|o| {
            opened
                .bit(o)
                .select(v_lanes.clone(), pass.row(o - first, w))
        }))
    };
    let tx_c_next = m.def("tx_c_next", out_next(&pass_c, 0, d));
    let tx_d_next = m.def("tx_d_next", out_next(&pass_d, d, u));
    let sc_next = m.def(
        "sc_next",
        cat((0..ports).rev().map(|i| {
            let s = sc.row(i, scb);
            start
                .bit(i)
                .select(lit(scb, 1), in_field.bit(i).select(s.plus(1), s.clone()))
        })),
    );
    let sf_next = m.def(
        "sf_next",
        cat((0..ports).rev().map(|i| {
            start.bit(i).select(
                zero(nfw),
                in_field.bit(i).select(sf_shift.row(i, nfw), sf.row(i, nfw)),
            )
        })),
    );
    let g = |i: usize, o0: usize, n: usize| gnt.row(i, ports).part(o0, n);
    let gnt_ac = cat((0..d).rev().map(|x| g(x, 0, d)));
    let gnt_ad = cat((0..d).rev().map(|x| g(x, d, u)));
    let gnt_bc = cat((0..u).rev().map(|k| g(d + k, 0, d)));
    let gnt_bd = cat((0..u).rev().map(|k| g(d + k, d, u)));
    let moving = &m_src | &m_pass | &m_rev;

    m.always(|p| {
        p.if_(&init, |p| {
            p.comment("ctl_init: reset values");
            for (r, wd) in [
                (&tx_c, d * w),
                (&tx_d, u * w),
                (&xp_ac, d * d),
                (&xp_ad, d * u),
                (&xp_bc, u * d),
                (&xp_bd, u * u),
                (&sc, ports * scb),
                (&sf, ports * nfw),
            ] {
                p.load(r, zero(wd));
            }
        })
        .else_(|p| {
            p.comment("Outputs: PASS/REV/SRC forward (a granted output starts with V), else 0");
            p.if_(&moving, |p| {
                p.load(&tx_c, &tx_c_next);
                p.load(&tx_d, &tx_d_next);
            })
            .else_(|p| {
                p.load(&tx_c, zero(d * w));
                p.load(&tx_d, zero(u * w));
            });
            p.comment("Parsers: move in SRC, back to 0 at every commit");
            p.if_(&m_src & !&commit, |p| {
                p.load(&sc, &sc_next);
                p.load(&sf, &sf_next);
            })
            .else_(|p| {
                p.load(&sc, zero(ports * scb));
                p.load(&sf, zero(ports * nfw));
            });
            p.comment("Crosspoints: ctl_clear opens all, SRC closes the granted ones");
            let opens = if fault == Some(R3Fault::CommitOpens) {
                &clear | (&m_src & &commit)
            } else {
                clear.clone()
            };
            p.if_(&opens, |p| {
                p.load(&xp_ac, zero(d * d));
                p.load(&xp_ad, zero(d * u));
                p.load(&xp_bc, zero(u * d));
                p.load(&xp_bd, zero(u * u));
            })
            .elif(&m_src, |p| {
                p.load(&xp_ac, &xp_ac | gnt_ac);
                p.load(&xp_ad, &xp_ad | gnt_ad);
                p.load(&xp_bc, &xp_bc | gnt_bc);
                p.load(&xp_bd, &xp_bd | gnt_bd);
            });
        });
    });
    m.build()
}
