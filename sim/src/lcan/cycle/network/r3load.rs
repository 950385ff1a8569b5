//! R3 in hardware: from an off-line R3 schedule (`routing::route(.., Algorithm::R3)`) to the
//! network's load inputs `pass`, `route`, `npass` (`docs/interface.md` §11.1): per source
//! its pass and, per switch of its path, the output-port code to take there.

use super::params::NetParams;
use crate::lcan::routing::{RoutedConnection, Schedule};
use crate::lcan::Topology;
use crate::lcan::{Dir, Wire};

/// The R3 schedule as the network's load inputs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct R3Load {
    /// `npass`: passes to run.
    pub npass: usize,
    /// `pass[p]`: the pass in which PE `p` sends (0 for a PE that sends nothing).
    pub pass: Vec<usize>,
    /// `route[p]`: the port code at each switch of PE `p`'s path, hop 0 first (`2h + 1`
    /// fields; empty for a PE that sends nothing).
    pub route: Vec<Vec<u64>>,
}

/// Why a schedule cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum R3LoadError {
    /// The schedule's network is not this one.
    #[error("connection {src} -> {dst}: a PE number beyond the network's n = {n}")]
    OutOfRange {
        /// Source.
        src: usize,
        /// Destination.
        dst: usize,
        /// PEs.
        n: usize,
    },
    /// A source appears in two passes (or twice in one).
    #[error("PE {0} is scheduled twice")]
    Twice(usize),
    /// A path that is not `h` connected up-wires then `h` down-wires.
    #[error("connection {src} -> {dst} (LCA level {h}): its path is not {h} connected up-wires then {h} down-wires from the source's level-0 switch to the destination's ({why})")]
    BadPath {
        /// Source.
        src: usize,
        /// Destination.
        dst: usize,
        /// LCA level.
        h: usize,
        /// What is wrong.
        why: String,
    },
    /// More passes than the `npass` port holds.
    #[error("{passes} passes do not fit the {bits}-bit npass port")]
    TooManyPasses {
        /// Passes.
        passes: usize,
        /// Port bits.
        bits: usize,
    },
}

/// Converts an R3 schedule on `topo` into the load inputs of the network `np`
/// (`docs/interface.md` §11.1).
pub fn r3_load(
    topo: &Topology,
    np: &NetParams,
    schedule: &Schedule,
) -> Result<R3Load, R3LoadError> {
    let n = topo.n();
    let mut load = R3Load {
        npass: schedule.passes.len(),
        pass: vec![0; n],
        route: vec![Vec::new(); n],
    };
    let bits = np.pass_bits() + 1;
    if load.npass >> bits != 0 {
        return Err(R3LoadError::TooManyPasses {
            passes: load.npass,
            bits,
        });
    }
    let mut seen = vec![false; n];
    for (k, pass) in schedule.passes.iter().enumerate() {
        for c in &pass.delivered {
            if c.src >= n || c.dst >= n {
                return Err(R3LoadError::OutOfRange {
                    src: c.src,
                    dst: c.dst,
                    n,
                });
            }
            if std::mem::replace(&mut seen[c.src], true) {
                return Err(R3LoadError::Twice(c.src));
            }
            load.pass[c.src] = k;
            load.route[c.src] = hops(topo, c)?;
        }
    }
    Ok(load)
}

/// The port codes of one connection's path: `d_j + upper` going up at level `j`, the downer
/// at the LCA switch and coming down.
pub fn hops(topo: &Topology, c: &RoutedConnection) -> Result<Vec<u64>, R3LoadError> {
    let (d, h) = (topo.d_at(0), topo.lca_level(c.src, c.dst));
    let bad = |why: String| R3LoadError::BadPath {
        src: c.src,
        dst: c.dst,
        h,
        why,
    };
    if c.wires.len() != 2 * h {
        return Err(bad(format!("{} wires", c.wires.len())));
    }
    let (up, down) = c.wires.split_at(h);
    let parent = |w: &Wire| {
        topo.up_link(w.level, w.switch, w.upper)
            .ok_or_else(|| bad(format!("wire {w:?} has no parent")))
    };
    let mut fields = Vec::with_capacity(2 * h + 1);
    // Going up: the switch reached at level j must be the one the wire leaves.
    let mut at = c.src / d;
    for (j, w) in up.iter().enumerate() {
        if w.dir != Dir::Up || w.level != j || w.switch != at || w.upper >= topo.u_at(j) {
            return Err(bad(format!(
                "up-wire {j} is {w:?}, expected one leaving switch {at} of level {j}"
            )));
        }
        fields.push((topo.d_at(j) + w.upper) as u64);
        at = parent(w)?.0;
    }
    // Down-wires are listed top to bottom: down[m] is at level h − 1 − m.
    for (m, v) in down.iter().enumerate() {
        let i = h - 1 - m;
        if v.dir != Dir::Down || v.level != i || v.upper >= topo.u_at(i) {
            return Err(bad(format!(
                "down-wire {m} is {v:?}, expected one at level {i}"
            )));
        }
        let (par, x) = parent(v)?;
        if par != at {
            return Err(bad(format!(
                "down-wire {m} ({v:?}) does not hang from switch {at} of level {}",
                i + 1
            )));
        }
        fields.push(x as u64);
        at = v.switch;
    }
    if at != c.dst / d {
        return Err(bad(format!(
            "it ends at level-0 switch {at}, the destination is below {}",
            c.dst / d
        )));
    }
    fields.push((c.dst % d) as u64);
    Ok(fields)
}
