//! State shared by R1 and R2: the arbiters of every switch (persistent over passes), and
//! the wire claims, crosspoints and switch ownership of one pass (phase 3, which reads
//! the crosspoints, is in `phase3`).

use super::{Conflict, RoutingError};
use crate::lcan::arbiter::{seed16, Arbiter, Policy, Role};
use crate::lcan::topology::Topology;
use std::collections::HashMap;

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

/// UP and DOWN arbiters of every switch, created lazily (reset state) on first use.
pub(crate) struct Arbiters {
    policy: Policy,
    seed16: u16,
    d: usize,
    u: usize,
    up: HashMap<usize, Arbiter>,
    down: HashMap<usize, Arbiter>,
}

impl Arbiters {
    pub(crate) fn new(topo: &Topology, policy: Policy, seed: u64) -> Self {
        Arbiters {
            policy,
            seed16: seed16(seed),
            d: topo.d(),
            u: topo.u(),
            up: HashMap::new(),
            down: HashMap::new(),
        }
    }

    /// The UP arbiter of switch `g` (`R = d`, `W = u`).
    pub(crate) fn up(&mut self, g: usize) -> &mut Arbiter {
        let (p, s, d, u) = (self.policy, self.seed16, self.d, self.u);
        self.up
            .entry(g)
            .or_insert_with(|| Arbiter::new(p, Role::Up, d, u, g, s))
    }

    /// The DOWN arbiter of switch `g` (`R = u + d`, `W = d`).
    pub(crate) fn down(&mut self, g: usize) -> &mut Arbiter {
        let (p, s, d, u) = (self.policy, self.seed16, self.d, self.u);
        self.down
            .entry(g)
            .or_insert_with(|| Arbiter::new(p, Role::Down, u + d, d, g, s))
    }
}

/// Wire class indices of the DOWN arbiter.
pub(crate) const CLASS_C: usize = 0;
/// The up-wire class `A(x)` of the DOWN arbiter.
pub(crate) const CLASS_A: usize = 1;

/// Claims, crosspoints and ownership of one pass.
pub(crate) struct PassState<'t> {
    pub(super) topo: &'t Topology,
    conflict: Conflict,
    /// Free masks per switch: `[C, A, D]` (bit set = free).
    free: HashMap<usize, [u64; 3]>,
    pub(super) xp: HashMap<(usize, Port), Port>,
    pub(super) rev: HashMap<(usize, Port), Port>,
    /// Owner of each switch (switch model): connection and its priority key.
    owner: HashMap<usize, (usize, u64)>,
    /// Which connection closed each crosspoint, by input (switch model only).
    closer: HashMap<(usize, Port), usize>,
}

impl<'t> PassState<'t> {
    pub(crate) fn new(topo: &'t Topology, conflict: Conflict) -> Self {
        PassState {
            topo,
            conflict,
            free: HashMap::new(),
            xp: HashMap::new(),
            rev: HashMap::new(),
            owner: HashMap::new(),
            closer: HashMap::new(),
        }
    }

    /// The free masks `[C, A, D]` of switch `g`.
    pub(crate) fn free(&mut self, g: usize) -> &mut [u64; 3] {
        let (d, u) = (self.topo.all_downers(), self.topo.all_uppers());
        self.free.entry(g).or_insert([d, d, u])
    }

    /// May connection `c` be granted something at switch `g` (switch model ownership:
    /// only if `g` is unowned or owned by `c`)?
    pub(crate) fn eligible(&self, g: usize, c: usize) -> bool {
        self.conflict == Conflict::Wire || self.owner.get(&g).is_none_or(|&(o, _)| o == c)
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
            self.owner.entry(g).or_insert((c, key));
        }
    }

    /// R2, switch model: before an arbitration at `g` whose best request has priority
    /// `key`, a current owner with a larger key is cut there: its crosspoints at `g` open,
    /// the wires they claimed are free again, and `g` is unowned (docs/routing.md §5).
    pub(crate) fn preempt(&mut self, g: usize, key: u64) {
        let Some(&(o, okey)) = self.owner.get(&g) else {
            return;
        };
        if okey <= key {
            return;
        }
        self.owner.remove(&g);
        let cut: Vec<(usize, Port)> = self
            .closer
            .iter()
            .filter(|&(&(sw, _), &who)| sw == g && who == o)
            .map(|(&k, _)| k)
            .collect();
        for k in cut {
            self.closer.remove(&k);
            if let Some(out) = self.xp.remove(&k) {
                self.rev.remove(&(g, out));
                let f = self.free(g);
                match out {
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
        if self.conflict == Conflict::Switch {
            self.closer.insert((g, input), c);
        }
        if let Some(prev) = self.rev.insert((g, output), input) {
            return Err(RoutingError::Internal(format!(
                "switch {g}: output {output:?} driven by {prev:?} and {input:?}"
            )));
        }
        if let Some(prev) = self.xp.insert((g, input), output) {
            return Err(RoutingError::Internal(format!(
                "switch {g}: input {input:?} drives {prev:?} and {output:?}"
            )));
        }
        Ok(())
    }

    /// The closed crosspoints, grouped by switch.
    pub(crate) fn crosspoints(&self) -> Vec<SwitchCrosspoints> {
        let mut by: HashMap<usize, Vec<(Port, Port)>> = HashMap::new();
        for (&(g, i), &o) in &self.xp {
            by.entry(g).or_default().push((i, o));
        }
        let mut out: Vec<SwitchCrosspoints> = by
            .into_iter()
            .map(|(global, mut closed)| {
                closed.sort();
                let (level, switch) = self.topo.from_global(global);
                SwitchCrosspoints {
                    global,
                    level,
                    switch,
                    closed,
                }
            })
            .collect();
        out.sort_by_key(|s| s.global);
        out
    }
}
