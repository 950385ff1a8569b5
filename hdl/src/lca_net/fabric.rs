//! The switch fabric of a whole LCA network: one instance `lvl<i>_sw<j>` of its level's
//! switch module per switch of a [`Topology`] (one module per switch shape), wired through
//! level-wide link vectors.
//!
//! Every level `i` has two vectors: `lvl<i>_up` (`S_i·u_i·W` bits, the `D` outputs: switch
//! `j`'s upper `k` at row `j·u_i + k` of `W` bits) and `lvl<i>_dn` (`S_i·d_i·W` bits, the
//! `C` outputs: switch `j`'s downer `x` at row `j·d_i + x`). Links (`docs/interface.md` §7):
//! - upper `k` of `(i, j)` meets downer `x` of its parent `(i+1, j')`
//!   ([`Topology::up_link`]): the parent's `A(x)` reads `lvl<i>_up` row `j·u_i + k`, the
//!   child's `B(k)` reads `lvl<i+1>_dn` row `j'·d_{i+1} + x`;
//! - level 0: PE `p = j·d_0 + x` drives `A(x)` from row `p` of the caller's up-wire vector,
//!   and `lvl0_dn` row `p` is its down-wire;
//! - the top level's uppers: `B(k)` = 0, `lvl<l−1>_up` unread.
//!
//! Every switch reads the broadcast `ctl_*` — in R1 and R2 networks from its own tap
//! `lvl<i>_sw<j>_tap` (`<rows instance>_tap` for rows; [`super::tap`]), in R3 the top's
//! nets — and `clock`; the random policy also reads
//! `seed16` and gets the constant salts `splitmix64(2g + a) as u16` (`g` its global index).
//!
//! [`Structure::Rows`]: instead of one instance per switch, each level is one instance
//! `lvl<i>` of the switch module replicated as rows ([`crate::netlist::replicate`]): its
//! row ports are the level's switches' ports side by side (switch `j` at row `j`), so
//! `c`, `d` are `lvl<i>_dn`, `lvl<i>_up` themselves and `a`, `b` the switches' links in order.
//! With switch sizes that vary by level, consecutive levels of one switch shape are one
//! instance `lvl<i>_to_<j>` ([`row_groups`]): their switches in global order (level `i`'s
//! first), `level` a row port, so each shape's logic is written (and verilated, and
//! compiled) once per run of levels instead of once per level — the fat-tree of
//! `--topology fat-tree --levels 10` has seven levels of one shape. A network whose levels
//! all have one size keeps one instance per level (its files are unchanged).

use super::controller::CTL_SIGNALS;
use super::rom::rom_instance;
use super::spec::Structure;
use super::tap::{driver_instance, tap_instance, TAPS_PER_DRIVER};
use crate::netlist::{
    cat, lit, names, replicate, zero, Design, Direction, Module, ModuleBuilder, CLOCK, V,
};
use lcanet_sim::lcan::{DownEnd, Topology};
use lcanet_sim::rng::splitmix64;

/// How the fabric meets the rest of the network.
pub struct FabricWiring<'a> {
    /// The topology to build.
    pub topo: &'a Topology,
    /// The switch module of every level, level 0 first (levels of one shape share one).
    pub switches: &'a [Module],
    /// Link width `W`.
    pub width: usize,
    /// The PEs' up-wires, PE `p` at row `p` of `W` bits.
    pub pe_up: &'a V,
    /// The broadcast seed (random policy).
    pub seed16: Option<&'a V>,
    /// Π networks: the route ROM module of each switch, by global index (empty for tree
    /// and cb). Switch `lvl<i>_sw<j>` gets an instance `lvl<i>_sw<j>_rom` of it.
    pub roms: &'a [Module],
    /// R1, R2: the tap driver and the broadcast tap modules; each switch (each rows
    /// instance) gets its own tap instance `<inst>_tap` and reads `ctl_*` from it, and every
    /// [`TAPS_PER_DRIVER`] taps in order share a driver `tapdrv<g>`. `None` (R3): every
    /// switch reads the top's `ctl_*` nets.
    pub taps: Option<(&'a Module, &'a Module)>,
    /// Instances or rows.
    pub structure: Structure,
}

/// The ports every switch of a level shares when the level is written as rows.
pub const SHARED_PORTS: [&str; 7] = [
    "level",
    "ctl_init",
    "ctl_mode",
    "ctl_last",
    "ctl_clear",
    "ctl_level",
    "seed16",
];

/// The switch registers read by name from outside (the co-simulation compares them after
/// every set-up, the save files show them): rows in a rows module even where a network
/// never sets them (`xp_bd` of a CB-LCAN switch is 0 in every row).
pub const OBSERVED: [&str; 4] = ["xp_ac", "xp_ad", "xp_bc", "xp_bd"];

/// The instance name of level `i` written as rows: `lvl<i>`.
pub fn level_instance(level: usize) -> String {
    format!("lvl{level}")
}

/// The module of `count` switches as rows: `<switch>_x<count>`.
pub fn rows_module_name(switch: &str, count: usize) -> String {
    format!("{switch}_x{count}")
}

/// The levels written as one rows instance, in order: runs of consecutive levels of one
/// switch shape when the sizes vary by level, else every level alone.
pub fn row_groups(topo: &Topology) -> Vec<std::ops::Range<usize>> {
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    let shape = |i: usize| (topo.d_at(i), topo.u_at(i));
    for i in 0..topo.levels() {
        match groups.last_mut() {
            Some(g) if topo.uniform().is_none() && shape(g.start) == shape(i) => g.end = i + 1,
            _ => groups.push(i..i + 1),
        }
    }
    groups
}

/// The instance name of the rows instance of `levels`: `lvl<i>`, or `lvl<i>_to_<j>` for
/// levels `i..=j`.
pub fn rows_instance(levels: &std::ops::Range<usize>) -> String {
    if levels.len() == 1 {
        level_instance(levels.start)
    } else {
        format!("lvl{}_to_{}", levels.start, levels.end - 1)
    }
}

/// The instance name of switch `(level, sw)`: `lvl<level>_sw<sw>`.
pub fn switch_instance(level: usize, sw: usize) -> String {
    names::lvl_sw(level, sw)
}

/// The name of level `i`'s vector of upward (`D`) links.
pub fn up_links(level: usize) -> String {
    format!("lvl{level}_up")
}

/// The name of level `i`'s vector of downward (`C`) links (level 0: the PEs' down-wires).
pub fn down_links(level: usize) -> String {
    format!("lvl{level}_dn")
}

/// The arbiter salts of the switch with global index `g`: `(salt_up, salt_dn)`.
pub fn salts(g: usize) -> (u16, u16) {
    (
        splitmix64(2 * g as u64) as u16,
        splitmix64(2 * g as u64 + 1) as u16,
    )
}

/// Rows `rows` (each `w` bits) of `v`, as one value: runs of consecutive rows become one
/// part-select (`v[hi:lo]`); the first row is the least significant.
fn gather(v: &[&V], rows: &[(usize, usize)], w: usize) -> V {
    // (vector, first row, count), least significant first.
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    for &(vi, r) in rows {
        match runs.last_mut() {
            Some((pv, first, count)) if *pv == vi && *first + *count == r => *count += 1,
            _ => runs.push((vi, r, 1)),
        }
    }
    cat(runs
        .into_iter()
        .rev()
        .map(|(vi, first, count)| v[vi].part(first * w, count * w)))
}

/// Adds every switch of the fabric to `m` (and, for [`Structure::Rows`], each level's rows
/// module to `design`) and wires them; returns `lvl0_dn`, the PEs' down-wires (PE `p` at row
/// `p` of `W` bits).
pub fn add_fabric(
    design: &mut Design,
    m: &mut ModuleBuilder,
    f: &FabricWiring<'_>,
) -> Result<V, String> {
    let topo = f.topo;
    let (w, levels) = (f.width, topo.levels());
    let clock = m.clock();
    let ctl: Vec<V> = CTL_SIGNALS
        .iter()
        .map(|&(name, width)| V::signal(name, width))
        .collect();
    m.comment("Links: lvl<i>_up = the D outputs of level i, lvl<i>_dn = its C outputs");
    let up: Vec<V> = (0..levels)
        .map(|i| m.wire(up_links(i), topo.switch_count(i) * topo.u_at(i) * w))
        .collect();
    let dn: Vec<V> = (0..levels)
        .map(|i| m.wire(down_links(i), topo.switch_count(i) * topo.d_at(i) * w))
        .collect();
    m.allow_unread(up_links(levels - 1));
    let groups = row_groups(topo);
    let mut taps = 0;
    // Rows: the pins of every switch of the current group, in global order.
    let mut rows: Vec<Vec<(&str, V)>> = Vec::new();
    for level in 0..levels {
        m.comment(format!("Level {level}"));
        let count = topo.switch_count(level);
        let (d, u) = (topo.d_at(level), topo.u_at(level));
        let switch = &f.switches[level];
        let group = groups
            .iter()
            .find(|g| g.contains(&level))
            .cloned()
            .unwrap_or(level..level + 1);
        let merged = f.structure == Structure::Rows && group.len() > 1;
        for sw in 0..count {
            let inst = switch_instance(level, sw);
            let g = topo.global_index(level, sw);
            let rom = f.roms.get(g).map(|r| {
                let (_, outs) = m.instance_of(rom_instance(&inst), r);
                outs
            });
            // A(x): a PE's up-wire or a child's D(k).
            let a = if level == 0 {
                f.pe_up.row(sw, d * w)
            } else {
                let src = [&up[level - 1]];
                let uc = topo.u_at(level - 1);
                let rows: Vec<(usize, usize)> = (0..d)
                    .map(|x| match topo.down_link(level, sw, x) {
                        DownEnd::Switch { switch, upper } => (0, switch * uc + upper),
                        DownEnd::Pe(p) => unreachable!("PE {p} above level 0"),
                    })
                    .collect();
                gather(&src, &rows, w)
            };
            // B(k): the parent's C(x), or 0 at the top.
            let b = if level + 1 == levels {
                zero(u * w)
            } else {
                let src = [&dn[level + 1]];
                let dp = topo.d_at(level + 1);
                let rows: Vec<(usize, usize)> = (0..u)
                    .map(|k| {
                        let (p, x) = topo
                            .up_link(level, sw, k)
                            .expect("every upper below the top has a parent");
                        (0, p * dp + x)
                    })
                    .collect();
                gather(&src, &rows, w)
            };
            let mut pins: Vec<(&str, V)> = vec![("a", a), ("b", b)];
            if merged && switch.port("level").is_some() {
                // Several levels in one rows instance: the level is a row port.
                pins.push(("level", lit(4, level as u64)));
            }
            if f.seed16.is_some() {
                let (su, sd) = salts(g);
                pins.push(("salt_up", lit(16, u64::from(su))));
                pins.push(("salt_dn", lit(16, u64::from(sd))));
            }
            if let Some(outs) = rom {
                pins.push(("tab_dn", outs[0].clone()));
                pins.push(("tab_up", outs[1].clone()));
            }
            pins.push(("c", dn[level].row(sw, d * w)));
            pins.push(("d", up[level].row(sw, u * w)));
            match f.structure {
                Structure::Instances => {
                    let ctl = broadcast_of(m, f, &inst, &clock, &ctl, &mut taps);
                    let b = m.instance(inst, switch);
                    let _ = shared_pins(b, switch, &clock, Some(level), &ctl, f.seed16).pins(pins);
                }
                Structure::Rows => rows.push(pins),
            }
        }
        if f.structure == Structure::Rows && level + 1 == group.end {
            let count: usize = group.clone().map(|i| topo.switch_count(i)).sum();
            // A level of one switch is that switch (a loop of one row would select parts
            // of one-bit registers, which Verilog cannot).
            let module = if count == 1 {
                switch.clone()
            } else {
                let name = rows_module_name(&switch.name, count);
                let shared: Vec<&str> = SHARED_PORTS
                    .iter()
                    .copied()
                    .filter(|&p| !(merged && p == "level"))
                    .collect();
                let module = replicate(switch, count, &shared, &OBSERVED, &name)
                    .map_err(|e| e.to_string())?;
                design
                    .add_module(module.clone())
                    .map_err(|e| e.to_string())?;
                module
            };
            let inst = rows_instance(&group);
            let ctl = broadcast_of(m, f, &inst, &clock, &ctl, &mut taps);
            let b = m.instance(inst, &module);
            let level_pin = (!merged).then_some(level);
            let mut b = shared_pins(b, &module, &clock, level_pin, &ctl, f.seed16);
            // Row j of every row port is switch j's pin: concatenate, last switch first.
            let names: Vec<&str> = rows[0].iter().map(|(n, _)| *n).collect();
            for (k, port) in names.into_iter().enumerate() {
                let value = match port {
                    "c" => cat(group.clone().rev().map(|i| dn[i].clone())),
                    "d" => cat(group.clone().rev().map(|i| up[i].clone())),
                    _ => cat(rows.iter().rev().map(|r| r[k].1.clone())),
                };
                b = b.pin(port, value);
            }
            rows.clear();
        }
    }
    Ok(dn[0].clone())
}

/// The broadcast `ctl_*` that switch (or rows instance) `inst` reads: the outputs of its
/// own tap `<inst>_tap`, or without a tap (R3) the top's `ctl` nets. `taps` counts the taps
/// made so far: the first of every [`TAPS_PER_DRIVER`] adds the driver `tapdrv<g>` that it
/// and the next ones read (its inputs are the top's nets of the same names).
fn broadcast_of(
    m: &mut ModuleBuilder,
    f: &FabricWiring<'_>,
    inst: &str,
    clock: &V,
    ctl: &[V],
    taps: &mut usize,
) -> Vec<V> {
    let Some((driver, tap)) = f.taps else {
        return ctl.to_vec();
    };
    let drv = driver_instance(*taps / TAPS_PER_DRIVER);
    if taps.is_multiple_of(TAPS_PER_DRIVER) {
        let (b, _) = m.instance_of(drv.as_str(), driver);
        let _ = pin_inputs(b, driver, clock, |port| port.to_string());
    }
    *taps += 1;
    let (b, outs) = m.instance_of(tap_instance(inst), tap);
    let _ = pin_inputs(b, tap, clock, |port| names::output_net(&drv, port));
    outs
}

/// Pins `clock` and every other input of `module` to the top's net `net(port)`.
fn pin_inputs<'b>(
    mut b: crate::netlist::InstanceBuilder<'b>,
    module: &Module,
    clock: &V,
    net: impl Fn(&str) -> String,
) -> crate::netlist::InstanceBuilder<'b> {
    b = b.pin(CLOCK, clock);
    for p in module.ports.iter() {
        if p.direction == Direction::Input && p.name != CLOCK {
            b = b.pin(p.name.as_str(), V::signal(net(&p.name), p.width));
        }
    }
    b
}

/// Connects what every switch of a level shares: clock, level (unless it is a row port,
/// `None`), broadcast control, seed — those of them the switch module has (the R3 switch has
/// no `level`, no `ctl_level`).
fn shared_pins<'b>(
    b: crate::netlist::InstanceBuilder<'b>,
    module: &Module,
    clock: &V,
    level: Option<usize>,
    ctl: &[V],
    seed16: Option<&V>,
) -> crate::netlist::InstanceBuilder<'b> {
    let has = |name: &str| module.port(name).is_some();
    let mut b = b.pin("clock", clock);
    if let Some(level) = level.filter(|_| has("level")) {
        b = b.pin("level", lit(4, level as u64));
    }
    for (&(name, _), v) in CTL_SIGNALS.iter().zip(ctl) {
        if has(name) {
            b = b.pin(name, v);
        }
    }
    if let Some(seed) = seed16 {
        b = b.pin("seed16", seed);
    }
    b
}
