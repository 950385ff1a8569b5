//! Phase 3 of a pass (docs/routing.md §3.3, shared by R1 and R2): every sender's data
//! follows the closed crosspoints; a PE reached by a complete path answers with an
//! acknowledgement that runs back with the network in reverse mode (a closed `in → out`
//! conducts from the partner of `out` to the partner of `in`). Acknowledged sources are
//! delivered, and their paths are the wires the data crossed.

use super::state::{PassState, Port, NO_CONN};
use super::{RoutedConnection, RoutingError};
use crate::lcan::paths::{Connection, Dir, Wire};
use crate::lcan::topology::DownEnd;

impl PassState<'_> {
    /// Phase 3: data from every sender along closed crosspoints, then the
    /// acknowledgement back in reverse mode; returns the acknowledged connections.
    pub(crate) fn deliver(
        &self,
        conns: &[Connection],
        lca: &[usize],
        by_src: &[u32],
        senders: &[usize],
    ) -> Result<Vec<RoutedConnection>, RoutingError> {
        let mut out = Vec::new();
        for &s in senders {
            let Some((t, wires)) = self.forward(s)? else {
                continue;
            };
            let ci = by_src[s];
            if ci == NO_CONN {
                return Err(RoutingError::Internal(format!(
                    "PE {s} sent without a connection"
                )));
            }
            let ci = ci as usize;
            if conns[ci].dst != t {
                return Err(RoutingError::Internal(format!(
                    "data of PE {s} reached PE {t}, not its destination {}",
                    conns[ci].dst
                )));
            }
            if self.reverse(t)? != Some(s) {
                return Err(RoutingError::Internal(format!(
                    "the acknowledgement of PE {t} did not return to PE {s}"
                )));
            }
            out.push(RoutedConnection {
                src: s,
                dst: t,
                lca_level: lca[ci],
                wires,
            });
        }
        out.sort_by_key(|c| c.src);
        Ok(out)
    }

    fn forward(&self, s: usize) -> Result<Option<(usize, Vec<Wire>)>, RoutingError> {
        let topo = self.topo;
        let (mut level, mut sw) = (0, topo.pe_switch(s));
        let mut input = Port::A(s % topo.d_at(0));
        let mut wires = Vec::new();
        for _ in 0..=2 * topo.levels() {
            let g = topo.global_index(level, sw);
            let Some(out) = self.driven(g, input) else {
                return Ok(None);
            };
            match out {
                Port::D(k) => {
                    wires.push(Wire {
                        dir: Dir::Up,
                        level,
                        switch: sw,
                        upper: k,
                    });
                    let (p, x) = self.up_end(level, sw, k)?;
                    (level, sw, input) = (level + 1, p, Port::A(x));
                }
                Port::C(x) => match topo.down_link(level, sw, x) {
                    DownEnd::Pe(t) => return Ok(Some((t, wires))),
                    DownEnd::Switch { switch, upper } => {
                        wires.push(Wire {
                            dir: Dir::Down,
                            level: level - 1,
                            switch,
                            upper,
                        });
                        (level, sw, input) = (level - 1, switch, Port::B(upper));
                    }
                },
                _ => {
                    return Err(RoutingError::Internal(format!(
                        "crosspoint into input {out:?}"
                    )))
                }
            }
        }
        Err(RoutingError::Internal(format!("the data of PE {s} loops")))
    }

    fn reverse(&self, t: usize) -> Result<Option<usize>, RoutingError> {
        let topo = self.topo;
        let (mut level, mut sw) = (0, topo.pe_switch(t));
        let mut arriving = Port::A(t % topo.d_at(0));
        for _ in 0..=2 * topo.levels() {
            let g = topo.global_index(level, sw);
            let Some(input) = self.driver(g, arriving.partner()) else {
                return Ok(None);
            };
            match input.partner() {
                Port::C(x) => match topo.down_link(level, sw, x) {
                    DownEnd::Pe(s) => return Ok(Some(s)),
                    DownEnd::Switch { switch, upper } => {
                        (level, sw, arriving) = (level - 1, switch, Port::B(upper));
                    }
                },
                Port::D(k) => {
                    let (p, x) = self.up_end(level, sw, k)?;
                    (level, sw, arriving) = (level + 1, p, Port::A(x));
                }
                other => return Err(RoutingError::Internal(format!("reverse into {other:?}"))),
            }
        }
        Err(RoutingError::Internal(format!(
            "the acknowledgement of PE {t} loops"
        )))
    }

    fn up_end(&self, level: usize, sw: usize, k: usize) -> Result<(usize, usize), RoutingError> {
        self.topo
            .up_link(level, sw, k)
            .ok_or_else(|| RoutingError::Internal(format!("upper {k} of top switch {sw} used")))
    }
}
