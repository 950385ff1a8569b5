//! The switch fabric of a whole LCA network: one instance `lvl<i>_sw<j>` of the (single)
//! switch module per switch of a [`Topology`], wired through level-wide link vectors.
//!
//! Every level `i` has two vectors: `lvl<i>_up` (`S_i·u·W` bits, the `D` outputs: switch
//! `j`'s upper `k` at row `j·u + k` of `W` bits) and `lvl<i>_dn` (`S_i·d·W` bits, the `C`
//! outputs: switch `j`'s downer `x` at row `j·d + x`). Links (`docs/interface.md` §7):
//! - upper `k` of `(i, j)` meets downer `x` of its parent `(i+1, j')`
//!   ([`Topology::up_link`]): the parent's `A(x)` reads `lvl<i>_up` row `j·u + k`, the
//!   child's `B(k)` reads `lvl<i+1>_dn` row `j'·d + x`;
//! - level 0: PE `p = j·d + x` drives `A(x)` from row `p` of the caller's up-wire vector,
//!   and `lvl0_dn` row `p` is its down-wire;
//! - the top level's uppers: `B(k)` = 0, `lvl<l−1>_up` unread.
//!
//! Every switch reads the broadcast `ctl_*` nets and `clock`; the random policy also reads
//! `seed16` and gets the constant salts `splitmix64(2g + a) as u16` (`g` its global index).

use super::controller::CTL_SIGNALS;
use super::rom::rom_instance;
use crate::netlist::{cat, lit, names, zero, Module, ModuleBuilder, V};
use lcanet_sim::lcan::{DownEnd, Topology};
use lcanet_sim::rng::splitmix64;

/// How the fabric meets the rest of the network.
pub struct FabricWiring<'a> {
    /// The topology to build.
    pub topo: &'a Topology,
    /// The switch module (every instance uses it).
    pub switch: &'a Module,
    /// Link width `W`.
    pub width: usize,
    /// The PEs' up-wires, PE `p` at row `p` of `W` bits.
    pub pe_up: &'a V,
    /// The broadcast seed (random policy).
    pub seed16: Option<&'a V>,
    /// Π networks: the route ROM module of each switch, by global index (empty for tree
    /// and cb). Switch `lvl<i>_sw<j>` gets an instance `lvl<i>_sw<j>_rom` of it.
    pub roms: &'a [Module],
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

/// Adds every switch of the fabric to `m` and wires them; returns `lvl0_dn`, the PEs'
/// down-wires (PE `p` at row `p` of `W` bits).
pub fn add_fabric(m: &mut ModuleBuilder, f: &FabricWiring<'_>) -> V {
    let topo = f.topo;
    let (d, u, w, levels) = (topo.d(), topo.u(), f.width, topo.levels());
    let clock = m.clock();
    let ctl: Vec<V> = CTL_SIGNALS
        .iter()
        .map(|&(name, width)| V::signal(name, width))
        .collect();
    m.comment("Links: lvl<i>_up = the D outputs of level i, lvl<i>_dn = its C outputs");
    let up: Vec<V> = (0..levels)
        .map(|i| m.wire(up_links(i), topo.switch_count(i) * u * w))
        .collect();
    let dn: Vec<V> = (0..levels)
        .map(|i| m.wire(down_links(i), topo.switch_count(i) * d * w))
        .collect();
    m.allow_unread(up_links(levels - 1));
    for level in 0..levels {
        m.comment(format!("Level {level}"));
        for sw in 0..topo.switch_count(level) {
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
                let rows: Vec<(usize, usize)> = (0..d)
                    .map(|x| match topo.down_link(level, sw, x) {
                        DownEnd::Switch { switch, upper } => (0, switch * u + upper),
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
                let rows: Vec<(usize, usize)> = (0..u)
                    .map(|k| {
                        let (p, x) = topo
                            .up_link(level, sw, k)
                            .expect("every upper below the top has a parent");
                        (0, p * d + x)
                    })
                    .collect();
                gather(&src, &rows, w)
            };
            let mut b_inst = m
                .instance(inst, f.switch)
                .pin("clock", &clock)
                .pin("a", a)
                .pin("b", b)
                .pin("level", lit(4, level as u64));
            for (&(name, _), v) in CTL_SIGNALS.iter().zip(&ctl) {
                b_inst = b_inst.pin(name, v);
            }
            if let Some(seed) = f.seed16 {
                let (su, sd) = salts(g);
                b_inst = b_inst
                    .pin("seed16", seed)
                    .pin("salt_up", lit(16, u64::from(su)))
                    .pin("salt_dn", lit(16, u64::from(sd)));
            }
            if let Some(outs) = rom {
                b_inst = b_inst.pin("tab_dn", &outs[0]).pin("tab_up", &outs[1]);
            }
            let _ = b_inst
                .pin("c", dn[level].row(sw, d * w))
                .pin("d", up[level].row(sw, u * w));
        }
    }
    dn[0].clone()
}
