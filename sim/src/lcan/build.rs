//! Constructors of T-LCAN(d,u) and CB-LCAN(d,u), with the parameter validation of
//! 002 Theorem 1, Definitions 2–3 and Corollaries 1–2.
//!
//! - T-LCAN: `d` a multiple of `u`, `n = d·(d/u)^(l-1)`, `S_i = (d/u)^(l-1-i)`; switch `s`
//!   of level `i` sends upper `k` to downer `(s mod (d/u))·u + k` of parent `⌊s/(d/u)⌋`.
//! - CB-LCAN: `n = d^l`, `S_i = d^(l-1-i)·u^i`; a level-`i` switch label is `l-1-i` base-`d`
//!   digits (high) then `i` base-`u` digits (low); the switch whose lowest base-`d` digit
//!   is `j` sends upper `k` to downer `j` of the switch obtained by deleting `j` and
//!   appending `k`.

use super::error::{sat_mul, TopologyError, MAX_LEVELS, MAX_PES, MAX_PORTS, MAX_SWITCHES};
use super::topology::{Kind, Size, Topology};

/// Checks `d` and `u` against the port limits.
pub(crate) fn check_ports(d: usize, u: usize) -> Result<(), TopologyError> {
    if !(2..=MAX_PORTS).contains(&d) {
        return Err(TopologyError::PortsOutOfRange {
            name: "d",
            value: d,
            min: 2,
            max: MAX_PORTS,
        });
    }
    if !(1..=MAX_PORTS).contains(&u) {
        return Err(TopologyError::PortsOutOfRange {
            name: "u",
            value: u,
            min: 1,
            max: MAX_PORTS,
        });
    }
    Ok(())
}

fn check_levels(levels: usize) -> Result<(), TopologyError> {
    if levels == 0 || levels > MAX_LEVELS {
        return Err(TopologyError::LevelsOutOfRange {
            levels,
            max: MAX_LEVELS,
        });
    }
    Ok(())
}

fn check_pes(n: usize) -> Result<(), TopologyError> {
    if n > MAX_PES {
        return Err(TopologyError::TooLarge {
            what: "n",
            value: n,
            limit: MAX_PES,
        });
    }
    Ok(())
}

/// `base^exp`, saturating.
pub(crate) fn sat_pow(base: usize, exp: usize) -> usize {
    (0..exp).fold(1usize, |acc, _| sat_mul(acc, base))
}

/// The smallest `l ≥ 1` with `first·base^(l-1) = n`, if any (`base ≥ 2`).
fn solve_levels(n: usize, first: usize, base: usize) -> Option<usize> {
    let mut v = first;
    let mut l = 1;
    while v < n {
        v = sat_mul(v, base);
        l += 1;
    }
    (v == n).then_some(l)
}

fn check_switches(switches: &[usize]) -> Result<(), TopologyError> {
    let total = switches.iter().fold(0usize, |a, &s| a.saturating_add(s));
    if total > MAX_SWITCHES {
        return Err(TopologyError::TooLarge {
            what: "total switches",
            value: total,
            limit: MAX_SWITCHES,
        });
    }
    Ok(())
}

impl Topology {
    /// T-LCAN(d,u) = LCAN(d, u, l, (d/u)-ary tree) (002 Definitions 2 and 5).
    pub fn tree(d: usize, u: usize, size: Size) -> Result<Self, TopologyError> {
        check_ports(d, u)?;
        if !d.is_multiple_of(u) {
            return Err(TopologyError::NotMultiple { d, u });
        }
        let k = d / u;
        let levels = match size {
            Size::Levels(l) => {
                check_levels(l)?;
                check_pes(sat_mul(d, sat_pow(k, l - 1)))?;
                l
            }
            Size::Pes(n) => {
                check_pes(n)?;
                if k == 1 {
                    return Err(if n == d {
                        TopologyError::TreeLevelsAmbiguous { d }
                    } else {
                        TopologyError::TreeSize { n, d, k }
                    });
                }
                let l = solve_levels(n, d, k).ok_or(TopologyError::TreeSize { n, d, k })?;
                check_levels(l)?;
                l
            }
        };
        let switches: Vec<usize> = (0..levels).map(|i| sat_pow(k, levels - 1 - i)).collect();
        check_switches(&switches)?;
        let up_links: Vec<Vec<(u32, u32)>> = (0..levels - 1)
            .map(|i| {
                (0..switches[i] * u)
                    .map(|idx| {
                        let (s, j) = (idx / u, idx % u);
                        ((s / k) as u32, ((s % k) * u + j) as u32)
                    })
                    .collect()
            })
            .collect();
        Ok(Topology::from_parts(Kind::Tree, d, u, switches, &up_links))
    }

    /// CB-LCAN(d,u) = LCAN(d, u, l, complete bipartite) (002 Definitions 3–4, Corollary 1).
    pub fn complete_bipartite(d: usize, u: usize, size: Size) -> Result<Self, TopologyError> {
        check_ports(d, u)?;
        let levels = match size {
            Size::Levels(l) => {
                check_levels(l)?;
                check_pes(sat_pow(d, l))?;
                l
            }
            Size::Pes(n) => {
                check_pes(n)?;
                let l = solve_levels(n, d, d).ok_or(TopologyError::CbSize { n, d })?;
                check_levels(l)?;
                l
            }
        };
        let switches: Vec<usize> = (0..levels)
            .map(|i| sat_mul(sat_pow(d, levels - 1 - i), sat_pow(u, i)))
            .collect();
        check_switches(&switches)?;
        let up_links: Vec<Vec<(u32, u32)>> = (0..levels - 1)
            .map(|i| {
                let ui = sat_pow(u, i);
                (0..switches[i] * u)
                    .map(|idx| {
                        let (s, k) = (idx / u, idx % u);
                        let (hi, lo) = (s / ui, s % ui);
                        let parent = (hi / d) * ui * u + lo * u + k;
                        (parent as u32, (hi % d) as u32)
                    })
                    .collect()
            })
            .collect();
        Ok(Topology::from_parts(
            Kind::CompleteBipartite,
            d,
            u,
            switches,
            &up_links,
        ))
    }
}
