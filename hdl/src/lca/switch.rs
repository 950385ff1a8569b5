//! The LCA switch module (003 §2.1, `docs/protocol.md`): its ports, the step control, and
//! the assembly of the sections written in the sibling files — receive and output
//! registers, crosspoints and waiting winners ([`super::datapath`]), the route decoder
//! ([`super::decoder`]), the UP and DOWN arbiters ([`super::up`], [`super::down`]).
//!
//! One module definition serves every switch of a network with these parameters: the
//! level, the salts, the seed and (Π) the route tables are input ports.

use super::commit;
use super::datapath::{self, State};
use super::decoder::Decoder;
use super::generate::switch_module_name;
use super::layout::Layout;
use super::{down, up};
use super::{down_fast, up_fast};
use crate::netlist::{zero, Module, ModuleBuilder, V};
use lcanet_sim::lcan::cycle::params::MAX_STEP;
use lcanet_sim::lcan::cycle::ArbiterPolicy;
use lcanet_sim::lcan::cycle::SetupMode;

/// The switch's ports (`docs/protocol.md` §2).
pub(super) struct Ports {
    /// `A(x)` lane `l` at `x·W + l`.
    pub a: V,
    /// `B(k)` lane `l` at `k·W + l`.
    pub b: V,
    /// The switch's level (constant per instance).
    pub level: V,
    /// Broadcast control.
    pub init: V,
    /// See `init`.
    pub mode: V,
    /// See `init`.
    pub last: V,
    /// See `init`.
    pub clear: V,
    /// See `init`.
    pub ctl_level: V,
    /// Random policy: `seed16`, `salt_up`, `salt_dn`.
    pub seed: Option<(V, V, V)>,
    /// Π: `tab_dn`, `tab_up`.
    pub tables: Option<(V, V)>,
    /// Outputs `C(x)`, `D(k)`.
    pub c: V,
    /// See `c`.
    pub d: V,
}

/// Step control: the counter and the decoded enables every section uses.
pub(super) struct Ctl {
    /// Mode decode (the input).
    pub m_up: V,
    /// See `m_up`.
    pub m_probe: V,
    /// See `m_up`.
    pub m_pass: V,
    /// See `m_up`.
    pub m_rev: V,
    /// This bit-time commits the step (`ctl_last` without `ctl_init`).
    pub commit: V,
    /// Shift the A / B receive registers this bit-time.
    pub rx_a_en: V,
    /// See `rx_a_en`.
    pub rx_b_en: V,
    /// The UP / DOWN arbiter's window: its packets are all in (`bt ≥ n(P)`); registers.
    pub up_window: V,
    /// See `up_window`.
    pub dn_window: V,
    /// The mode in the windows (`UP`, `DOWN`, `PROBE`), from the window registers.
    pub arb_up: V,
    /// See `arb_up`.
    pub arb_down: V,
    /// See `arb_up`.
    pub arb_probe: V,
    /// A `DOWN` step serving this switch's waiting winners (`ctl_level = level`), from its
    /// second bit-time on; a register.
    pub serve_win: V,
}

fn ports(m: &mut ModuleBuilder, lay: &Layout) -> Ports {
    let (d, u, w) = (lay.d, lay.u, lay.w);
    m.clock();
    let a = m.input("a", d * w);
    let b = m.input("b", u * w);
    let level = m.input("level", 4);
    let init = m.input("ctl_init", 1);
    let mode = m.input("ctl_mode", 3);
    let last = m.input("ctl_last", 1);
    let clear = m.input("ctl_clear", 1);
    let ctl_level = m.input("ctl_level", 4);
    let seed = (lay.policy() == ArbiterPolicy::Random).then(|| {
        (
            m.input("seed16", 16),
            m.input("salt_up", 16),
            m.input("salt_dn", 16),
        )
    });
    let tables = lay
        .pes
        .map(|n| (m.input("tab_dn", n * d), m.input("tab_up", lay.l * n * u)));
    let c = m.output("c", d * w);
    let dd = m.output("d", u * w);
    Ports {
        a,
        b,
        level,
        init,
        mode,
        last,
        clear,
        ctl_level,
        seed,
        tables,
        c,
        d: dd,
    }
}

fn step_control(m: &mut ModuleBuilder, lay: &Layout, p: &Ports) -> Ctl {
    let f = &lay.fmt;
    m.comment("Step control (docs/protocol.md §3, §6): bit-times since the step began, mode");
    let bt = m.reg("bt", 10);
    let m_up = m.def("m_up", p.mode.is(1));
    let m_down = m.def("m_down", p.mode.is(2));
    let m_probe = m.def("m_probe", p.mode.is(3));
    let m_pass = m.def("m_pass", p.mode.is(4));
    let m_rev = m.def("m_rev", p.mode.is(5));
    let commit = m.def("commit", &p.last & !&p.init);
    // The arbitration windows (bt >= n(P) for the mode's format) and serve_win are
    // registers, set from the mode one bit-time ahead (the mode and ctl_level are constant
    // during a step, and every step starts with bt = 0 outside the windows): the arbiters'
    // decisions read only registers, with no counter comparison in their paths.
    let up_window = m.reg("up_window", 1);
    let dn_window = m.reg("dn_window", 1);
    let serve_win = m.reg("serve_win", 1);
    let at = |v: usize| bt.is((v - 1) as u64);
    let a_modes = &m_up | &m_probe;
    let b_modes = &m_down | &m_probe;
    let rx_done = &up_window | &dn_window;
    let rx_a_en = m.def("rx_a_en", &a_modes & !&rx_done);
    let rx_b_en = m.def("rx_b_en", &b_modes & !&rx_done);
    // The mode as the windows see it: PROBE opens both.
    let arb_up = m.def("arb_up", &up_window & !&dn_window);
    let arb_down = m.def("arb_down", &dn_window & !&up_window);
    let arb_probe = m.def("arb_probe", &up_window & &dn_window);
    m.always(|s| {
        s.comment("bt: 0 after a commit or ctl_init, else counts up to 1023");
        s.if_(&p.init | &p.last, |s| s.load(&bt, zero(10)))
            .elif(bt.is_not(MAX_STEP as u64), |s| s.load(&bt, bt.plus(1)));
        s.comment("Windows: the packets of the step are all in from bit-time n(P) on");
        s.if_(&p.init | &p.last, |s| {
            s.load(&up_window, zero(1));
            s.load(&dn_window, zero(1));
            s.load(&serve_win, zero(1));
        })
        .else_(|s| {
            let opens = |w: &V, mode: &V, n: usize| mode & (w | at(n));
            s.load(
                &up_window,
                opens(&up_window, &m_up, f.n1) | opens(&up_window, &m_probe, f.nr),
            );
            s.load(
                &dn_window,
                opens(&dn_window, &m_down, f.n2) | opens(&dn_window, &m_probe, f.nr),
            );
            s.load(&serve_win, &m_down & p.ctl_level.eq(&p.level));
        });
    });
    Ctl {
        m_up,
        m_probe,
        m_pass,
        m_rev,
        commit,
        rx_a_en,
        rx_b_en,
        up_window,
        dn_window,
        arb_up,
        arb_down,
        arb_probe,
        serve_win,
    }
}

/// The switch module of `lay`.
pub(super) fn switch_module(lay: &Layout) -> Module {
    let mut m = ModuleBuilder::new(switch_module_name(&lay.params));
    let p = ports(&mut m, lay);
    let ctl = step_control(&mut m, lay, &p);
    let st: State = datapath::declare(&mut m, lay, &p, &ctl);
    let tables = p.tables.as_ref().map(|(dn, up)| (dn, up));
    let dec = Decoder::new(&mut m, lay, &p.level, tables);
    let (up, dn) = match lay.params.setup {
        SetupMode::Sequential => (
            up::build(&mut m, lay, &p, &ctl, &st, &dec),
            down::build(&mut m, lay, &p, &ctl, &st, &dec),
        ),
        SetupMode::Fast | SetupMode::Chunked(_) => (
            up_fast::build(&mut m, lay, &p, &ctl, &st, &dec),
            down_fast::build(&mut m, lay, &p, &ctl, &st, &dec),
        ),
    };
    commit::process(&mut m, lay, &p, &ctl, &st, &up, &dn);
    m.build()
}
