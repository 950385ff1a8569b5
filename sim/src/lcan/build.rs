//! Constructors of T-LCAN(d,u) and CB-LCAN(d,u), with the parameter validation of
//! 002 Theorem 1, Definitions 2–3 and Corollaries 1–2.
//!
//! - T-LCAN: `d` a multiple of `u`, `n = d·(d/u)^(l-1)`, `S_i = (d/u)^(l-1-i)`; switch `s`
//!   of level `i` sends upper `k` to downer `(s mod (d/u))·u + k` of parent `⌊s/(d/u)⌋`.
//! - CB-LCAN: `n = d^l`, `S_i = d^(l-1-i)·u^i`; a level-`i` switch label is `l-1-i` base-`d`
//!   digits (high) then `i` base-`u` digits (low); the switch whose lowest base-`d` digit
//!   is `j` sends upper `k` to downer `j` of the switch obtained by deleting `j` and
//!   appending `k`.
//! - Per level (`tree_per_level`, `complete_bipartite_per_level`): the same rules with
//!   `d_i`, `u_i` of each level; the uniform constructors are the special case of equal
//!   entries (same numbering, same links).

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

/// Checks a per-level shape: `ds` and `us` of one length `1..=MAX_LEVELS`, every `d_i` and
/// `u_i` within the port limits (errors name the level).
pub(crate) fn check_shapes(ds: &[usize], us: &[usize]) -> Result<(), TopologyError> {
    if ds.len() != us.len() {
        return Err(TopologyError::ShapeLengths {
            d: ds.len(),
            u: us.len(),
        });
    }
    check_levels(ds.len())?;
    for (level, (&d, &u)) in ds.iter().zip(us).enumerate() {
        for (name, value, min) in [("d", d, 2), ("u", u, 1)] {
            if !(min..=MAX_PORTS).contains(&value) {
                return Err(TopologyError::PortsOutOfRangeAt {
                    name,
                    level,
                    value,
                    min,
                    max: MAX_PORTS,
                });
            }
        }
    }
    Ok(())
}

/// The product of `values`, saturating.
fn sat_product(values: impl IntoIterator<Item = usize>) -> usize {
    values.into_iter().fold(1usize, sat_mul)
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
        Topology::build_tree(vec![d; levels], vec![u; levels])
    }

    /// The T-LCAN with switch sizes that vary by level: a level-`i` switch has `ds[i]`
    /// downers and `us[i]` uppers, and the `u_i` uppers of a switch all go to one parent,
    /// whose `d_{i+1}` downers therefore split into `d_{i+1}/u_i` child groups (002 §2.2: a
    /// fat-tree "requires a vector of d's and u's, a vector element per level"; Definition 2
    /// level by level). Conditions: `u_i | d_{i+1}`; `n = d_0·∏_{i≥1} d_i/u_{i-1}`, one top
    /// switch. Equal entries give [`Topology::tree`].
    pub fn tree_per_level(ds: &[usize], us: &[usize]) -> Result<Self, TopologyError> {
        check_shapes(ds, us)?;
        for level in 1..ds.len() {
            let (d, u) = (ds[level], us[level - 1]);
            if !d.is_multiple_of(u) {
                return Err(TopologyError::NotMultipleAt { level, d, u });
            }
        }
        check_pes(sat_mul(
            ds[0],
            sat_product((1..ds.len()).map(|i| ds[i] / us[i - 1])),
        ))?;
        Topology::build_tree(ds.to_vec(), us.to_vec())
    }

    /// Builds a validated per-level tree: `S_i = ∏_{m>i} d_m/u_{m-1}`; switch `s` of level
    /// `i` sends upper `j` to downer `(s mod k)·u_i + j` of parent `⌊s/k⌋`, `k = d_{i+1}/u_i`.
    fn build_tree(ds: Vec<usize>, us: Vec<usize>) -> Result<Self, TopologyError> {
        let levels = ds.len();
        let k = |i: usize| ds[i] / us[i - 1];
        let switches: Vec<usize> = (0..levels)
            .map(|i| sat_product((i + 1..levels).map(k)))
            .collect();
        check_switches(&switches)?;
        let up_links: Vec<Vec<(u32, u32)>> = (0..levels - 1)
            .map(|i| {
                let (u, k) = (us[i], k(i + 1));
                (0..switches[i] * u)
                    .map(|idx| {
                        let (s, j) = (idx / u, idx % u);
                        ((s / k) as u32, ((s % k) * u + j) as u32)
                    })
                    .collect()
            })
            .collect();
        Ok(Topology::from_parts(
            Kind::Tree,
            ds,
            us,
            switches,
            &up_links,
        ))
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
        Topology::build_cb(vec![d; levels], vec![u; levels])
    }

    /// The CB-LCAN with switch sizes that vary by level (002 Definition 3 with a base-`d_j`
    /// PE digit `j` and a base-`u_j` switch digit appended at level `j`; `docs/conventions.md`
    /// "Per-level switch sizes"). Every shape is valid: `n = ∏ d_i`,
    /// `S_i = ∏_{m>i} d_m · ∏_{m<i} u_m`. Equal entries give [`Topology::complete_bipartite`].
    pub fn complete_bipartite_per_level(ds: &[usize], us: &[usize]) -> Result<Self, TopologyError> {
        check_shapes(ds, us)?;
        check_pes(sat_product(ds.iter().copied()))?;
        Topology::build_cb(ds.to_vec(), us.to_vec())
    }

    /// Builds a validated per-level CB-LCAN. A level-`i` switch's label is the base-`d`
    /// digits `p_{l-1} … p_{i+1}` (high) then the base-`u` digits `k_0 … k_{i-1}` (low, `k_0`
    /// most significant); the switch whose lowest base-`d` digit is `j` sends upper `k` to
    /// downer `j` of the switch obtained by deleting `j` and appending `k` (base `u_i`).
    fn build_cb(ds: Vec<usize>, us: Vec<usize>) -> Result<Self, TopologyError> {
        let levels = ds.len();
        let switches: Vec<usize> = (0..levels)
            .map(|i| {
                sat_mul(
                    sat_product(ds[i + 1..].iter().copied()),
                    sat_product(us[..i].iter().copied()),
                )
            })
            .collect();
        check_switches(&switches)?;
        let up_links: Vec<Vec<(u32, u32)>> = (0..levels - 1)
            .map(|i| {
                let (u, d) = (us[i], ds[i + 1]);
                let ui = sat_product(us[..i].iter().copied());
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
            ds,
            us,
            switches,
            &up_links,
        ))
    }
}
