//! The path intersection graph (003 §3.1): one vertex per connection, an edge between
//! two connections whose paths share a wire (`wire` model) or a switch (`switch` model).
//! With one path per connection the minimum number of passes is its chromatic number
//! `p = χ(PIG)`; [`chromatic_number`] computes it exactly for small graphs.

use super::paths::{Connection, Path};
use super::routing::Conflict;
use super::routing::RoutedConnection;
use super::topology::Topology;
use super::validate::check_path;
use std::collections::HashMap;

/// A path intersection graph.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Pig {
    /// The connections (vertices), in input order.
    pub vertices: Vec<Connection>,
    /// Edges `(i, j)`, `i < j`, sorted.
    pub edges: Vec<(usize, usize)>,
}

/// Why a PIG cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PigError {
    /// A connection has more than one path (give the paths explicitly).
    #[error("connection {src} -> {dst} has {paths} paths; the PIG needs one path per connection")]
    PathChoice {
        /// Source.
        src: usize,
        /// Destination.
        dst: usize,
        /// Number of paths.
        paths: u128,
    },
    /// A given path is not a path of the network.
    #[error("connection {src} -> {dst}: {reason}")]
    BadPath {
        /// Source.
        src: usize,
        /// Destination.
        dst: usize,
        /// Why.
        reason: String,
    },
}

/// The PIG of `conns` with the given paths (one per connection).
pub fn pig_with_paths(
    topo: &Topology,
    conns: &[Connection],
    paths: &[Path],
    conflict: Conflict,
) -> Result<Pig, PigError> {
    let mut users: HashMap<(u8, usize, usize, usize), Vec<usize>> = HashMap::new();
    for (i, (c, p)) in conns.iter().zip(paths).enumerate() {
        let rc = RoutedConnection {
            src: c.src,
            dst: c.dst,
            lca_level: topo.lca_level(c.src, c.dst),
            wires: p.clone(),
        };
        let switches = check_path(topo, &rc).map_err(|reason| PigError::BadPath {
            src: c.src,
            dst: c.dst,
            reason,
        })?;
        match conflict {
            Conflict::Wire => {
                for w in p {
                    users
                        .entry((w.dir as u8, w.level, w.switch, w.upper))
                        .or_default()
                        .push(i);
                }
            }
            Conflict::Switch => {
                let mut sw = switches;
                sw.sort_unstable();
                sw.dedup();
                for (l, s) in sw {
                    users.entry((2, l, s, 0)).or_default().push(i);
                }
            }
        }
    }
    let mut edges: Vec<(usize, usize)> = users
        .values()
        .flat_map(|v| {
            v.iter()
                .enumerate()
                .flat_map(move |(a, &i)| v[a + 1..].iter().map(move |&j| (i.min(j), i.max(j))))
        })
        .collect();
    edges.sort_unstable();
    edges.dedup();
    Ok(Pig {
        vertices: conns.to_vec(),
        edges,
    })
}

/// The PIG when every connection has exactly one path (T-LCAN with `u = 1`, or any
/// network where that holds for these connections).
pub fn pig(topo: &Topology, conns: &[Connection], conflict: Conflict) -> Result<Pig, PigError> {
    let mut paths = Vec::with_capacity(conns.len());
    for c in conns {
        let count = topo.path_count(c.src, c.dst);
        if count != 1 {
            return Err(PigError::PathChoice {
                src: c.src,
                dst: c.dst,
                paths: count,
            });
        }
        let mut one = topo.paths(c.src, c.dst, 1).unwrap_or_default();
        let path = one.pop().ok_or(PigError::PathChoice {
            src: c.src,
            dst: c.dst,
            paths: 0,
        })?;
        paths.push(path);
    }
    pig_with_paths(topo, conns, &paths, conflict)
}

/// The chromatic number of `g` by plain backtracking (exponential: small graphs only).
pub fn chromatic_number(g: &Pig) -> usize {
    let n = g.vertices.len();
    if n == 0 {
        return 0;
    }
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in &g.edges {
        adj[a].push(b);
        adj[b].push(a);
    }
    fn colorable(v: usize, k: usize, adj: &[Vec<usize>], color: &mut [usize]) -> bool {
        if v == adj.len() {
            return true;
        }
        let used = color[..v].iter().copied().max().map_or(0, |m| m + 1);
        for c in 0..k.min(used + 1) {
            if adj[v].iter().all(|&w| w >= v || color[w] != c) {
                color[v] = c;
                if colorable(v + 1, k, adj, color) {
                    return true;
                }
            }
        }
        false
    }
    let mut color = vec![0; n];
    (1..=n)
        .find(|&k| colorable(0, k, &adj, &mut color))
        .unwrap_or(n)
}
