//! State shared by R1 and R2: the arbiters of every switch (persistent over passes), and
//! the wire claims, crosspoints and switch ownership of one pass (phase 3, which reads
//! the crosspoints, is in `phase3`).

use super::arbitrate::Arb;
use super::{Conflict, RoutingError};
use crate::lcan::arbiter::{seed16, Policy, Role};
use crate::lcan::paths::Connection;
use crate::lcan::topology::Topology;

/// A port of a switch: inputs `A(x)` (from downer `x`) and `B(k)` (from upper `k`),
/// outputs `C(x)` (to downer `x`) and `D(k)` (to upper `k`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Port {
    /// Input from downer `x`.
    A(usize),
    /// Input from upper `k`.
    B(usize),
    /// Output to downer `x`.
    C(usize),
    /// Output to upper `k`.
    D(usize),
}

impl Port {
    /// The other wire of the same link end (`A(x)↔C(x)`, `B(k)↔D(k)`).
    pub fn partner(self) -> Port {
        match self {
            Port::A(x) => Port::C(x),
            Port::C(x) => Port::A(x),
            Port::B(k) => Port::D(k),
            Port::D(k) => Port::B(k),
        }
    }
}

impl serde::Serialize for Port {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let (name, i) = match *self {
            Port::A(i) => ("A", i),
            Port::B(i) => ("B", i),
            Port::C(i) => ("C", i),
            Port::D(i) => ("D", i),
        };
        (name, i).serialize(ser)
    }
}

/// The crosspoints one switch closed in a pass (`input → output` pairs, sorted).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SwitchCrosspoints {
    /// Global switch index.
    pub global: usize,
    /// Level.
    pub level: usize,
    /// Index within the level.
    pub switch: usize,
    /// Closed crosspoints.
    pub closed: Vec<(Port, Port)>,
}

/// UP and DOWN arbiters of every switch, created lazily (reset state) on first use
/// (indexed by global switch index through a table of slots, so that a route costs
/// memory for the switches it uses, not for the whole network).
pub(crate) struct Arbiters {
    policy: Policy,
    seed16: u16,
    /// Global index of each level's first switch, then the total.
    offsets: Vec<usize>,
    /// `d_i`, `u_i` per level.
    ds: Vec<usize>,
    /// See `ds`.
    us: Vec<usize>,
    /// Per switch: `[up, down]` index into `pool`, `NONE` if not created yet.
    slot: Vec<[u32; 2]>,
    pool: Vec<Arb>,
}

/// No slot.
const NONE: u32 = u32::MAX;

/// No connection (in [`by_src`]).
pub(crate) const NO_CONN: u32 = u32::MAX;

/// The connection index of each source PE (`NO_CONN` for a PE that sends nothing).
pub(crate) fn by_src(n: usize, conns: &[Connection]) -> Vec<u32> {
    let mut v = vec![NO_CONN; n];
    for (i, c) in conns.iter().enumerate() {
        v[c.src] = i as u32;
    }
    v
}

impl Arbiters {
    pub(crate) fn new(topo: &Topology, policy: Policy, seed: u64) -> Self {
        Arbiters {
            policy,
            seed16: seed16(seed),
            offsets: (0..=topo.levels())
                .map(|l| (0..l).map(|i| topo.switch_count(i)).sum::<usize>())
                .collect(),
            ds: topo.ds().to_vec(),
            us: topo.us().to_vec(),
            slot: vec![[NONE; 2]; topo.total_switches()],
            pool: Vec::new(),
        }
    }

    fn get(&mut self, g: usize, role: Role) -> &mut Arb {
        let r = role as usize;
        if self.slot[g][r] == NONE {
            let level = self.offsets.partition_point(|&o| o <= g) - 1;
            let (d, u) = (self.ds[level], self.us[level]);
            let (requesters, wires) = match role {
                Role::Up => (d, u),
                Role::Down => (u + d, d),
            };
            self.slot[g][r] = self.pool.len() as u32;
            self.pool.push(Arb::new(
                self.policy,
                role,
                requesters,
                wires,
                g,
                self.seed16,
            ));
        }
        &mut self.pool[self.slot[g][r] as usize]
    }

    /// The UP arbiter of switch `g` (`R = d`, `W = u`).
    pub(crate) fn up(&mut self, g: usize) -> &mut Arb {
        self.get(g, Role::Up)
    }

    /// The DOWN arbiter of switch `g` (`R = u + d`, `W = d`).
    pub(crate) fn down(&mut self, g: usize) -> &mut Arb {
        self.get(g, Role::Down)
    }
}

/// Wire class indices of the DOWN arbiter.
pub(crate) const CLASS_C: usize = 0;
/// The up-wire class `A(x)` of the DOWN arbiter.
pub(crate) const CLASS_A: usize = 1;

/// The state of one switch touched in a pass.
#[derive(Clone)]
struct SwitchState {
    /// Global index.
    g: usize,
    /// Free masks `[C, A, D]` (bit set = free).
    free: [u64; 3],
    /// Owner (switch model): connection and its priority key.
    owner: Option<(usize, u64)>,
}

/// Claims, crosspoints and ownership of one pass, kept per switch touched in the pass.
/// One `PassState` serves pass after pass: [`PassState::reset`] costs what the last pass
/// touched, not the size of the network.
pub(crate) struct PassState<'t> {
    pub(super) topo: &'t Topology,
    conflict: Conflict,
    /// The largest `d_i`: the stride of port indices.
    d: usize,
    /// Port slots per direction, `max d_i + max u_i`: inputs `A(0..d)`, `B(0..u)` at
    /// `0..d`, `max d_i..`; outputs `C(0..d)`, `D(0..u)` likewise.
    ports: usize,
    /// Per switch: index into `sw` (and block `· ports` of the port tables), or `NONE`.
    slot: Vec<u32>,
    sw: Vec<SwitchState>,
    /// Per touched switch and input port: the output port it drives, or `NONE`.
    xp: Vec<u32>,
    /// Per touched switch and output port: the input port driving it, or `NONE`.
    rev: Vec<u32>,
    /// Per touched switch and input port: the connection that closed it (switch model).
    closer: Vec<u32>,
}

impl<'t> PassState<'t> {
    pub(crate) fn new(topo: &'t Topology, conflict: Conflict) -> Self {
        PassState {
            topo,
            conflict,
            d: topo.max_d(),
            ports: topo.max_d() + topo.max_u(),
            slot: vec![NONE; topo.total_switches()],
            sw: Vec::new(),
            xp: Vec::new(),
            rev: Vec::new(),
            closer: Vec::new(),
        }
    }

    /// The conflict model.
    pub(crate) fn conflict(&self) -> Conflict {
        self.conflict
    }

    /// Forgets the last pass (every switch back to free, unowned, open).
    pub(crate) fn reset(&mut self) {
        for s in &self.sw {
            self.slot[s.g] = NONE;
        }
        self.sw.clear();
        self.xp.clear();
        self.rev.clear();
        self.closer.clear();
    }

    /// The index of switch `g` in `sw`, created (free, unowned, open) if untouched.
    fn touch(&mut self, g: usize) -> usize {
        if self.slot[g] == NONE {
            self.slot[g] = self.sw.len() as u32;
            let level = self.topo.from_global(g).0;
            let d = super::super::topology::mask(self.topo.d_at(level));
            let u = self.topo.all_uppers(level);
            self.sw.push(SwitchState {
                g,
                free: [d, d, u],
                owner: None,
            });
            for _ in 0..self.ports {
                self.xp.push(NONE);
                self.rev.push(NONE);
            }
            if self.conflict == Conflict::Switch {
                for _ in 0..self.ports {
                    self.closer.push(NONE);
                }
            }
        }
        self.slot[g] as usize
    }

    /// Port index of an input (`A(x)` → `x`, `B(k)` → `max d + k`) or an output (`C(x)` → `x`,
    /// `D(k)` → `max d + k`).
    fn index(&self, p: Port) -> usize {
        match p {
            Port::A(x) | Port::C(x) => x,
            Port::B(k) | Port::D(k) => self.d + k,
        }
    }

    fn input(&self, i: usize) -> Port {
        if i < self.d {
            Port::A(i)
        } else {
            Port::B(i - self.d)
        }
    }

    fn output(&self, i: usize) -> Port {
        if i < self.d {
            Port::C(i)
        } else {
            Port::D(i - self.d)
        }
    }

    /// The output input `input` of switch `g` drives, if its crosspoint is closed.
    pub(super) fn driven(&self, g: usize, input: Port) -> Option<Port> {
        let s = self.slot[g];
        if s == NONE {
            return None;
        }
        let o = self.xp[s as usize * self.ports + self.index(input)];
        (o != NONE).then(|| self.output(o as usize))
    }

    /// The input driving output `output` of switch `g`, if any.
    pub(super) fn driver(&self, g: usize, output: Port) -> Option<Port> {
        let s = self.slot[g];
        if s == NONE {
            return None;
        }
        let i = self.rev[s as usize * self.ports + self.index(output)];
        (i != NONE).then(|| self.input(i as usize))
    }

    /// The free masks `[C, A, D]` of switch `g`.
    pub(crate) fn free(&mut self, g: usize) -> &mut [u64; 3] {
        let s = self.touch(g);
        &mut self.sw[s].free
    }

    /// May connection `c` be granted something at switch `g` (switch model ownership:
    /// only if `g` is unowned or owned by `c`)?
    pub(crate) fn eligible(&self, g: usize, c: usize) -> bool {
        if self.conflict == Conflict::Wire || self.slot[g] == NONE {
            return true;
        }
        self.sw[self.slot[g] as usize]
            .owner
            .is_none_or(|(o, _)| o == c)
    }

    /// Grants per arbitration: 1 in the switch model.
    pub(crate) fn max_grants(&self) -> usize {
        match self.conflict {
            Conflict::Wire => usize::MAX,
            Conflict::Switch => 1,
        }
    }

    /// Records that connection `c` (priority `key`) was granted something at `g`.
    pub(crate) fn own(&mut self, g: usize, c: usize, key: u64) {
        if self.conflict == Conflict::Switch {
            let s = self.touch(g);
            self.sw[s].owner.get_or_insert((c, key));
        }
    }

    /// R2, switch model: before an arbitration at `g` whose best request has priority
    /// `key`, a current owner with a larger key is cut there: its crosspoints at `g` open,
    /// the wires they claimed are free again, and `g` is unowned (docs/routing.md §5).
    pub(crate) fn preempt(&mut self, g: usize, key: u64) {
        if self.slot[g] == NONE {
            return;
        }
        let s = self.slot[g] as usize;
        let Some((o, okey)) = self.sw[s].owner else {
            return;
        };
        if okey <= key {
            return;
        }
        self.sw[s].owner = None;
        for i in 0..self.ports {
            let at = s * self.ports + i;
            if self.closer[at] != o as u32 {
                continue;
            }
            self.closer[at] = NONE;
            let out = self.xp[at];
            if out != NONE {
                self.xp[at] = NONE;
                self.rev[s * self.ports + out as usize] = NONE;
                let port = self.output(out as usize);
                let f = &mut self.sw[s].free;
                match port {
                    Port::C(x) => f[0] |= 1 << x,
                    Port::D(k) => f[2] |= 1 << k,
                    _ => {}
                }
            }
        }
    }

    /// Closes crosspoint `input → output` of switch `g` for connection `c`.
    pub(crate) fn close(
        &mut self,
        g: usize,
        c: usize,
        input: Port,
        output: Port,
    ) -> Result<(), RoutingError> {
        let (i, o) = (self.index(input), self.index(output));
        let bad = |what: &str| {
            RoutingError::Internal(format!(
                "switch {g}: crosspoint {input:?} → {output:?} is not {what}"
            ))
        };
        if !matches!(input, Port::A(_) | Port::B(_)) {
            return Err(bad("from an input"));
        }
        if !matches!(output, Port::C(_) | Port::D(_)) {
            return Err(bad("to an output"));
        }
        let s = self.touch(g);
        let base = s * self.ports;
        if self.conflict == Conflict::Switch {
            self.closer[base + i] = c as u32;
        }
        let prev = self.rev[base + o];
        if prev != NONE {
            return Err(RoutingError::Internal(format!(
                "switch {g}: output {output:?} driven by {:?} and {input:?}",
                self.input(prev as usize)
            )));
        }
        self.rev[base + o] = i as u32;
        let prev = self.xp[base + i];
        if prev != NONE {
            return Err(RoutingError::Internal(format!(
                "switch {g}: input {input:?} drives {:?} and {output:?}",
                self.output(prev as usize)
            )));
        }
        self.xp[base + i] = o as u32;
        Ok(())
    }

    /// The closed crosspoints, grouped by switch (ascending global index; each switch's
    /// `input → output` pairs sorted).
    pub(crate) fn crosspoints(&self) -> Vec<SwitchCrosspoints> {
        let mut order: Vec<(usize, usize)> = self
            .sw
            .iter()
            .enumerate()
            .map(|(s, st)| (st.g, s))
            .collect();
        order.sort_unstable();
        let mut out = Vec::with_capacity(order.len());
        for (global, s) in order {
            let base = s * self.ports;
            // Inputs in port order A(0..d), B(0..u) is `Port`'s order.
            let row = &self.xp[base..base + self.ports];
            let count = row.iter().filter(|&&o| o != NONE).count();
            if count == 0 {
                continue;
            }
            let mut closed = Vec::with_capacity(count);
            for (i, &o) in row.iter().enumerate() {
                if o != NONE {
                    closed.push((self.input(i), self.output(o as usize)));
                }
            }
            let (level, switch) = self.topo.from_global(global);
            out.push(SwitchCrosspoints {
                global,
                level,
                switch,
                closed,
            });
        }
        out
    }
}
