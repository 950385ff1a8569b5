//! The schedule validator, independent of the routing algorithms: it uses only the
//! topology's links and LCA queries.
//!
//! A schedule (a list of passes, each a list of routed connections) is valid for a
//! (partial) permutation when every connection of the permutation is routed exactly once
//! and nothing else is (so each PE sends once and receives once), every path is a path of
//! the network from its source up to an LCA switch and down to its destination, and no
//! wire (`wire` model) or switch (`switch` model) carries two connections in a pass.

use super::paths::{Dir, Wire};
use super::routing::{Conflict, RoutedConnection};
use super::topology::Topology;
use crate::perm::PartialPermutation;
use std::collections::HashMap;

/// Why a schedule is invalid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    /// The permutation does not fit the network.
    #[error("the permutation has {perm} PEs but the network has n = {n}")]
    SizeMismatch {
        /// PEs of the permutation.
        perm: usize,
        /// PEs of the network.
        n: usize,
    },
    /// A routed connection is not in the permutation.
    #[error("pass {pass}: connection {src} -> {dst} is not in the permutation")]
    NotInPermutation {
        /// Pass index.
        pass: usize,
        /// Source.
        src: usize,
        /// Destination.
        dst: usize,
    },
    /// A PE sends twice.
    #[error("PE {src} sends in pass {first} and again in pass {second}")]
    SentTwice {
        /// Source.
        src: usize,
        /// First pass.
        first: usize,
        /// Second pass.
        second: usize,
    },
    /// A connection is never routed.
    #[error("connection {src} -> {dst} is never routed")]
    Missing {
        /// Source.
        src: usize,
        /// Destination.
        dst: usize,
    },
    /// A path is not a path of the network for its connection.
    #[error("pass {pass}: connection {src} -> {dst}: {reason}")]
    BadPath {
        /// Pass index.
        pass: usize,
        /// Source.
        src: usize,
        /// Destination.
        dst: usize,
        /// What is wrong.
        reason: String,
    },
    /// Two connections share a wire.
    #[error("pass {pass}: connections from PE {a} and PE {b} both use wire {wire:?}")]
    WireConflict {
        /// Pass index.
        pass: usize,
        /// The shared wire.
        wire: Wire,
        /// One source.
        a: usize,
        /// The other source.
        b: usize,
    },
    /// Two connections share a switch (`switch` model).
    #[error(
        "pass {pass}: connections from PE {a} and PE {b} both use level-{level} switch {switch}"
    )]
    SwitchConflict {
        /// Pass index.
        pass: usize,
        /// Level of the shared switch.
        level: usize,
        /// Its index.
        switch: usize,
        /// One source.
        a: usize,
        /// The other source.
        b: usize,
    },
}

/// The switches `(level, index)` a routed connection's path visits, after checking that
/// it is a path of `topo` for its connection (LCA level, structure, links).
pub fn check_path(topo: &Topology, c: &RoutedConnection) -> Result<Vec<(usize, usize)>, String> {
    if c.src >= topo.n() || c.dst >= topo.n() {
        return Err(format!("PE out of range 0..{}", topo.n()));
    }
    let h = topo.lca_level(c.src, c.dst);
    if c.lca_level != h {
        return Err(format!(
            "lca_level is {} but the LCA level is {h}",
            c.lca_level
        ));
    }
    if c.wires.len() != 2 * h {
        return Err(format!(
            "{} wires; a path to LCA level {h} has {}",
            c.wires.len(),
            2 * h
        ));
    }
    let mut cur = topo.pe_switch(c.src);
    let mut visited = vec![(0, cur)];
    for (i, w) in c.wires[..h].iter().enumerate() {
        if w.dir != Dir::Up || w.level != i || w.switch != cur || w.upper >= topo.u_at(i) {
            return Err(format!(
                "wire {i} is {w:?}; expected an up-wire from level-{i} switch {cur}"
            ));
        }
        let (p, _) = topo
            .up_link(i, cur, w.upper)
            .ok_or_else(|| format!("wire {i}: the top level has no up-links"))?;
        cur = p;
        visited.push((i + 1, cur));
    }
    if !topo.is_below(h, cur, c.dst) {
        return Err(format!("turns at level-{h} switch {cur}, which is not an LCA switch (the destination is not below it)"));
    }
    for (i, w) in c.wires[h..].iter().enumerate() {
        let level = h - 1 - i;
        let ok = w.dir == Dir::Down
            && w.level == level
            && w.switch < topo.switch_count(level)
            && w.upper < topo.u_at(level)
            && topo.up_link(level, w.switch, w.upper).map(|(p, _)| p) == Some(cur);
        if !ok {
            return Err(format!(
                "wire {} is {w:?}; expected a down-wire from level-{} switch {cur}",
                h + i,
                level + 1
            ));
        }
        cur = w.switch;
        visited.push((level, cur));
    }
    if cur != topo.pe_switch(c.dst) {
        return Err(format!(
            "ends at level-0 switch {cur}, not at the destination's {}",
            topo.pe_switch(c.dst)
        ));
    }
    Ok(visited)
}

/// Validates `passes` as a schedule of `perm` on `topo` under `conflict`.
pub fn validate(
    topo: &Topology,
    perm: &PartialPermutation,
    passes: &[Vec<RoutedConnection>],
    conflict: Conflict,
) -> Result<(), ScheduleError> {
    if perm.len() != topo.n() {
        return Err(ScheduleError::SizeMismatch {
            perm: perm.len(),
            n: topo.n(),
        });
    }
    let mut sent_in: Vec<Option<usize>> = vec![None; topo.n()];
    for (pass, list) in passes.iter().enumerate() {
        let mut wires: HashMap<Wire, usize> = HashMap::new();
        let mut switches: HashMap<(usize, usize), usize> = HashMap::new();
        for c in list {
            if c.src >= perm.len() || perm.dst(c.src) != Some(c.dst) {
                return Err(ScheduleError::NotInPermutation {
                    pass,
                    src: c.src,
                    dst: c.dst,
                });
            }
            if let Some(first) = sent_in[c.src].replace(pass) {
                return Err(ScheduleError::SentTwice {
                    src: c.src,
                    first,
                    second: pass,
                });
            }
            let visited = check_path(topo, c).map_err(|reason| ScheduleError::BadPath {
                pass,
                src: c.src,
                dst: c.dst,
                reason,
            })?;
            match conflict {
                Conflict::Wire => {
                    for &w in &c.wires {
                        if let Some(a) = wires.insert(w, c.src) {
                            return Err(ScheduleError::WireConflict {
                                pass,
                                wire: w,
                                a,
                                b: c.src,
                            });
                        }
                    }
                }
                Conflict::Switch => {
                    for (level, switch) in visited {
                        if let Some(&a) = switches.get(&(level, switch)) {
                            if a != c.src {
                                return Err(ScheduleError::SwitchConflict {
                                    pass,
                                    level,
                                    switch,
                                    a,
                                    b: c.src,
                                });
                            }
                        }
                        switches.insert((level, switch), c.src);
                    }
                }
            }
        }
    }
    if let Some((src, dst)) = perm.pairs().find(|&(s, _)| sent_in[s].is_none()) {
        return Err(ScheduleError::Missing { src, dst });
    }
    Ok(())
}
