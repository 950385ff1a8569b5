//! The switch fabric of a network model: every switch, the links between them, and one
//! bit-time of them all ([`Fabric::clock`]) that does work only where there is some.
//!
//! Every switch output is a register, so a bit-time first reads the outputs into the
//! inputs they drive (before any switch is clocked), then clocks the switches. Only a switch
//! with a nonzero receive or output register (*live*) has a nonzero output, so outputs are
//! read from the live switches alone and scattered along the links. A switch is clocked only
//! if it is live, receives a nonzero input, or — at a commit (`ctl_last`) or `ctl_clear` —
//! holds state that the commit or clear changes (*awake*: closed crosspoints, waiting
//! winners, a step outcome); at `ctl_init`, or without the fast path, every switch is.
//! Any other switch would receive zeros into zero registers, shift zero output registers and
//! commit nothing: it would only count the bit-time. That count ([`StepClock`]) follows the
//! broadcast control alone, the same for every switch, so the fabric keeps one and gives it
//! to each switch before clocking it; [`Fabric::switches`] brings every switch's copy up to
//! date. Most switches are idle in most bit-times (a set-up step moves packets between two
//! levels). `tests::quiet_fast_path_changes_nothing` compares every switch with full
//! clocking every bit-time; `docs/network-rtl.md` ("Golden model speed") has the measurements.

use super::super::params::SwitchTopology;
use super::super::route::RouteTable;
use super::super::step_clock::StepClock;
use super::super::switch::SwitchModel;
use super::super::types::{Control, Mode, ProtocolError, SwitchConsts};
use super::bitset::BitSet;
use super::model::NetError;
use super::params::NetParams;
use crate::lcan::routing::Algorithm;
use crate::lcan::Topology;
use crate::rng::splitmix64;
use std::sync::Arc;

/// Where a switch output goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dest {
    /// Nowhere (an upper of the top level).
    None,
    /// A PE's down-wire.
    Pe(usize),
    /// An input slot of a switch.
    In(usize),
}

impl SwitchModel {
    /// Every receive and output register is zero (its outputs are 0).
    fn registers_zero(&self) -> bool {
        self.rx_a
            .iter()
            .chain(&self.rx_b)
            .chain(&self.tx_c)
            .chain(&self.tx_d)
            .all(|r| r.is_zero())
            && self.sc.iter().all(|&s| s == 0)
    }

    /// Nothing a commit or `ctl_clear` would change: no closed crosspoint, no waiting
    /// winner, an idle step outcome.
    fn at_rest(&self) -> bool {
        self.xp.is_all_open() && self.winners.iter().all(Option::is_none) && self.outcome.is_idle()
    }
}

/// The switches of a network and their links (see the module documentation).
#[derive(Debug, Clone)]
pub(super) struct Fabric {
    switches: Vec<SwitchModel>,
    /// Port slots per switch: `A`/`C` at `0..d`, `B`/`D` at `dm..dm + u` (one stride for
    /// every level's size).
    ports: usize,
    /// `max d_i`.
    dm: usize,
    /// `d` at level 0 (PE `p` is on `A(p mod d)` of level-0 switch `⌊p/d⌋`).
    d0: usize,
    /// Per output slot (`C` at `0..`, `D` at `dm..`): where it goes.
    dest: Vec<Dest>,
    /// Per input slot: this bit-time's lanes (zero outside [`Fabric::clock`]).
    inp: Vec<u64>,
    /// Per PE: the down-wire lanes of the last bit-time clocked.
    down: Vec<u64>,
    live: BitSet,
    awake: BitSet,
    busy: BitSet,
    /// The step count of every switch (only clocked switches hold it).
    step: StepClock,
}

impl Fabric {
    /// The switches of `topo` in their power-up state, wired per its numbering.
    pub(super) fn new(topo: &Topology, np: &NetParams) -> Self {
        let (dm, ports) = (topo.max_d(), topo.max_d() + topo.max_u());
        let total = topo.total_switches();
        let mut switches = Vec::with_capacity(total);
        let mut dest = vec![Dest::None; total * ports];
        for g in 0..total {
            let (level, j) = topo.from_global(g);
            let consts = SwitchConsts {
                level: level as u8,
                salt_up: splitmix64(2 * g as u64) as u16,
                salt_dn: splitmix64(2 * g as u64 + 1) as u16,
            };
            let params = *np.switch_at(level);
            switches.push(match params.topology {
                SwitchTopology::Table { .. } if np.algorithm != Algorithm::R3 => {
                    let table = RouteTable::for_switch(topo, level, j);
                    SwitchModel::with_table(params, consts, Arc::new(table))
                }
                _ if np.algorithm == Algorithm::R3 => SwitchModel::r3(params, consts),
                _ => SwitchModel::new(params, consts),
            });
            let d = topo.d_at(level);
            if level == 0 {
                for x in 0..d {
                    dest[g * ports + x] = Dest::Pe(j * d + x);
                }
            }
            for k in 0..topo.u_at(level) {
                if let Some((parent, x)) = topo.up_link(level, j, k) {
                    let pg = topo.global_index(level + 1, parent);
                    // D(k) of this switch drives A(x) of the parent, whose C(x) drives B(k).
                    dest[g * ports + dm + k] = Dest::In(pg * ports + x);
                    dest[pg * ports + x] = Dest::In(g * ports + dm + k);
                }
            }
        }
        Fabric {
            switches,
            ports,
            dm,
            d0: topo.d_at(0),
            dest,
            inp: vec![0; total * ports],
            down: vec![0; topo.n()],
            live: BitSet::new(total),
            awake: BitSet::new(total),
            busy: BitSet::new(total),
            step: StepClock::RESET,
        }
    }

    /// Switch `g` (its step count may be stale: [`Fabric::switches`] has it right).
    pub(super) fn get(&self, g: usize) -> &SwitchModel {
        &self.switches[g]
    }

    /// Every switch, by global index, with its step count up to date.
    pub(super) fn switches(&self) -> &[SwitchModel] {
        for sw in &self.switches {
            sw.step.set(self.step);
        }
        &self.switches
    }

    /// Number of switches.
    pub(super) fn len(&self) -> usize {
        self.switches.len()
    }

    /// PE `p`'s down-wire lanes in the bit-time last clocked.
    pub(super) fn down(&self, p: usize) -> u64 {
        self.down[p]
    }

    /// One bit-time of `ctl` for every switch; `ups` are the PEs' up-wire lanes (every
    /// nonzero one, by PE). With `every`, every switch is clocked (no fast path). Bit-time
    /// `t` names a protocol error.
    pub(super) fn clock(
        &mut self,
        ctl: &Control,
        seed16: u16,
        ups: impl Iterator<Item = (usize, u64)>,
        every: bool,
        t: u64,
    ) -> Result<(), NetError> {
        let ports = self.ports;
        // Outputs of this bit-time (registers) along the links, from the live switches.
        self.down.fill(0);
        self.busy.copy_from(&self.live);
        for g in self.live.iter() {
            let sw = &self.switches[g];
            let d = sw.params().d;
            for o in 0..d + sw.params().u {
                let v = sw.output(o);
                let slot = g * ports + if o < d { o } else { self.dm + o - d };
                match (v, self.dest[slot]) {
                    (0, _) | (_, Dest::None) => {}
                    (_, Dest::Pe(p)) => self.down[p] = v,
                    (_, Dest::In(s)) => {
                        self.inp[s] = v;
                        self.busy.put(s / ports, true);
                    }
                }
            }
        }
        for (p, v) in ups {
            if v != 0 {
                let g = p / self.d0;
                self.inp[g * ports + p % self.d0] = v;
                self.busy.put(g, true);
            }
        }
        if ctl.last || ctl.clear {
            self.busy.union_with(&self.awake);
        }
        if ctl.init || every {
            self.busy.fill();
        }
        // Clock them (the set is taken out while its members are clocked).
        let busy = std::mem::replace(&mut self.busy, BitSet::new(0));
        let total = self.switches.len();
        let r = busy.iter().take_while(|&g| g < total).try_for_each(|g| {
            self.clock_one(g, ctl, seed16)
                .map_err(|err| NetError::Protocol { t, g, err })
        });
        self.busy = busy;
        r?;
        self.step.tick(ctl);
        Ok(())
    }

    fn clock_one(&mut self, g: usize, ctl: &Control, seed16: u16) -> Result<(), ProtocolError> {
        let sw = &mut self.switches[g];
        sw.step.set(self.step);
        let (d, u) = (sw.params().d, sw.params().u);
        let slots = &mut self.inp[g * self.ports..(g + 1) * self.ports];
        let r = sw.clock(ctl, seed16, &slots[..d], &slots[self.dm..self.dm + u]);
        slots.fill(0);
        if r.is_err() {
            self.inp.fill(0);
        }
        self.live.put(g, !sw.registers_zero());
        // Only these bit-times close crosspoints, set or drop winners, or set an outcome.
        if ctl.init
            || ctl.last
            || ctl.clear
            || sw.effective_mode(Mode::from_code(ctl.mode)) == Mode::Src
        {
            self.awake.put(g, !sw.at_rest());
        }
        r
    }
}
