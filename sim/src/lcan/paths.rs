//! Connections, wires and paths (docs/routing.md §1).
//!
//! A link between levels is named by its lower end `(level, switch, upper)`; its
//! **up-wire** carries data up, its **down-wire** down. A path is the list of wires a
//! connection uses: up-wires bottom to top, then down-wires top to bottom, turning at one
//! LCA switch; the PE wires at both ends are implicit. In JSON a wire is
//! `["up", level, switch, upper]` or `["down", level, switch, upper]`.

use super::topology::{bits, DownEnd, Kind, Topology};
use serde::ser::SerializeTuple;
use std::collections::HashMap;

/// The direction of a wire of a bi-directional link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Carries data from the lower switch's `D(k)` into the upper switch's `A(x)`.
    Up,
    /// Carries data from the upper switch's `C(x)` into the lower switch's `B(k)`.
    Down,
}

/// One wire, named by the lower end of its link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Wire {
    /// Up-wire or down-wire.
    pub dir: Dir,
    /// Level of the link's lower switch.
    pub level: usize,
    /// Index of the lower switch in its level.
    pub switch: usize,
    /// The lower switch's upper the link leaves from.
    pub upper: usize,
}

impl serde::Serialize for Wire {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut t = ser.serialize_tuple(4)?;
        t.serialize_element(match self.dir {
            Dir::Up => "up",
            Dir::Down => "down",
        })?;
        t.serialize_element(&self.level)?;
        t.serialize_element(&self.switch)?;
        t.serialize_element(&self.upper)?;
        t.end()
    }
}

/// A connection: source PE and destination PE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Connection {
    /// Source PE.
    pub src: usize,
    /// Destination PE.
    pub dst: usize,
}

/// A path: up-wires bottom to top, then down-wires top to bottom.
pub type Path = Vec<Wire>;

impl Topology {
    /// Calls `f` with every path connection `(s, t)` may take, in a fixed order (uppers and
    /// downers ascending, up part varying slowest), until `f` returns `false`. Returns
    /// `false` if stopped early. T-LCAN: `∏_{i<h} u_i²` paths (`u^(2h)`); CB-LCAN:
    /// `∏_{i<h} u_i` (`u^h`).
    pub fn visit_paths(&self, s: usize, t: usize, f: &mut dyn FnMut(&[Wire]) -> bool) -> bool {
        let h = self.lca_level(s, t);
        let mut wires = Vec::with_capacity(2 * h);
        self.visit_up(0, self.pe_switch(s), s, t, h, &mut wires, f)
    }

    #[allow(clippy::too_many_arguments)]
    fn visit_up(
        &self,
        level: usize,
        x: usize,
        s: usize,
        t: usize,
        h: usize,
        wires: &mut Vec<Wire>,
        f: &mut dyn FnMut(&[Wire]) -> bool,
    ) -> bool {
        if level == h {
            return self.visit_down(level, x, t, wires, f);
        }
        for k in bits(self.up(level, x, s, t)) {
            let Some((p, _)) = self.up_link(level, x, k) else {
                continue;
            };
            wires.push(Wire {
                dir: Dir::Up,
                level,
                switch: x,
                upper: k,
            });
            let go_on = self.visit_up(level + 1, p, s, t, h, wires, f);
            wires.pop();
            if !go_on {
                return false;
            }
        }
        true
    }

    fn visit_down(
        &self,
        level: usize,
        y: usize,
        t: usize,
        wires: &mut Vec<Wire>,
        f: &mut dyn FnMut(&[Wire]) -> bool,
    ) -> bool {
        if level == 0 {
            return f(wires);
        }
        for x in bits(self.down(level, y, t)) {
            let DownEnd::Switch { switch, upper } = self.down_link(level, y, x) else {
                continue;
            };
            wires.push(Wire {
                dir: Dir::Down,
                level: level - 1,
                switch,
                upper,
            });
            let go_on = self.visit_down(level - 1, switch, t, wires, f);
            wires.pop();
            if !go_on {
                return false;
            }
        }
        true
    }

    /// Every path of `(s, t)`, or `None` if there are more than `cap`.
    pub fn paths(&self, s: usize, t: usize, cap: usize) -> Option<Vec<Path>> {
        let mut out = Vec::new();
        let complete = self.visit_paths(s, t, &mut |w| {
            out.push(w.to_vec());
            out.len() <= cap
        });
        (complete && out.len() <= cap).then_some(out)
    }

    /// The number of paths of `(s, t)` (saturating).
    pub fn path_count(&self, s: usize, t: usize) -> u128 {
        let h = self.lca_level(s, t);
        let us = self.us[..h].iter().map(|&u| u as u128);
        match self.kind {
            Kind::Tree => us.fold(1u128, |a, u| a.saturating_mul(u.saturating_mul(u))),
            Kind::CompleteBipartite => us.fold(1u128, |a, u| a.saturating_mul(u)),
            Kind::File => {
                let mut memo = HashMap::new();
                self.count_up(0, self.pe_switch(s), s, t, h, &mut memo)
            }
        }
    }

    fn count_up(
        &self,
        level: usize,
        x: usize,
        s: usize,
        t: usize,
        h: usize,
        memo: &mut HashMap<(usize, usize), u128>,
    ) -> u128 {
        if level == h {
            return self.count_down(level, x, t);
        }
        if let Some(&c) = memo.get(&(level, x)) {
            return c;
        }
        let mut c: u128 = 0;
        for k in bits(self.up(level, x, s, t)) {
            if let Some((p, _)) = self.up_link(level, x, k) {
                c = c.saturating_add(self.count_up(level + 1, p, s, t, h, memo));
            }
        }
        memo.insert((level, x), c);
        c
    }

    fn count_down(&self, level: usize, y: usize, t: usize) -> u128 {
        if level == 0 {
            return 1;
        }
        let mut c: u128 = 0;
        for x in bits(self.down(level, y, t)) {
            if let DownEnd::Switch { switch, .. } = self.down_link(level, y, x) {
                c = c.saturating_add(self.count_down(level - 1, switch, t));
            }
        }
        c
    }
}
