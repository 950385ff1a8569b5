//! The named networks of 002 §2.2 (`--topology fat-tree|cm5|trac|baseline`): their
//! per-level switch sizes, from the paper's description (how each is read:
//! `docs/conventions.md`, "Named networks").
//!
//! - `fat-tree --levels L [--capacity C]`: Leiserson's binary fat-tree, a per-level T-LCAN.
//!   The channel from a level-`i` switch to its parent has capacity `c_i = min(2^(i+1), C)`
//!   links (doubling toward the root, as in Leiserson's universal fat-tree near the
//!   leaves, up to `C`); a level-`i` switch joins two child channels: `d_0 = 2` (two PEs),
//!   `d_i = 2·c_{i-1}`, `u_i = c_i` (the top's `u` is its channel to the outside, unwired).
//! - `cm5 --n N`: "a CB-LCAN(4,4) and many CB-LCAN(4,2)s": a per-level CB-LCAN with
//!   `d_i = 4`, `u_i = 2` at levels 0 and 1 (the CB-LCAN(4,2) clusters of 16 PEs), `u_i = 4`
//!   above (the CB-LCAN(4,4) over the clusters).
//! - `trac`: CB-LCAN(3,2). `baseline`: CB-LCAN(2,2) (the baseline network with full
//!   communication, = SW-banyan(2,2)).

use anyhow::{bail, Context};
use lcanet_sim::lcan::{Size, Topology};

/// A named network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// Leiserson's binary fat-tree, capacities doubling toward the root up to a cap.
    FatTree,
    /// The CM-5 data network as 002 reads it.
    Cm5,
    /// The TRAC network, CB-LCAN(3,2).
    Trac,
    /// The baseline network with full communication, CB-LCAN(2,2).
    Baseline,
}

/// The default largest channel capacity of `--topology fat-tree`: 8, so that the widest
/// switch (`d = 16`) is within the hardware generator's limit.
pub const DEFAULT_FAT_TREE_CAPACITY: usize = 8;

impl Preset {
    /// Its CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Preset::FatTree => "fat-tree",
            Preset::Cm5 => "cm5",
            Preset::Trac => "trac",
            Preset::Baseline => "baseline",
        }
    }

    /// What it is, in words (the first part of `info`'s description).
    pub fn title(self) -> &'static str {
        match self {
            Preset::FatTree => "binary fat-tree (Leiserson; 002 §2.2)",
            Preset::Cm5 => "CM-5 data network (002 §2.2: a CB-LCAN(4,4) over CB-LCAN(4,2)s)",
            Preset::Trac => "TRAC network (002 §2.2)",
            Preset::Baseline => "baseline network with full communication (002 §2.2)",
        }
    }

    /// The network of `size` (fat-tree: `capacity` is the largest channel capacity).
    pub fn build(self, size: Size, capacity: Option<usize>) -> anyhow::Result<Topology> {
        if capacity.is_some() && self != Preset::FatTree {
            bail!("--capacity is only for --topology fat-tree");
        }
        Ok(match self {
            Preset::Trac => Topology::complete_bipartite(3, 2, size)?,
            Preset::Baseline => Topology::complete_bipartite(2, 2, size)?,
            Preset::Cm5 => {
                let l = levels_of(size, 4, "cm5", "n = 4^l (16, 64, 256, 1024, …)")?;
                let us: Vec<usize> = (0..l).map(|i| if i < 2 { 2 } else { 4 }).collect();
                Topology::complete_bipartite_per_level(&vec![4; l], &us)?
            }
            Preset::FatTree => {
                let c = capacity.unwrap_or(DEFAULT_FAT_TREE_CAPACITY);
                if c == 0 {
                    bail!("--capacity 0: a channel needs at least one link");
                }
                let l = levels_of(size, 2, "fat-tree", "n = 2^l")?;
                let (ds, us) = fat_tree(l, c);
                Topology::tree_per_level(&ds, &us)
                    .with_context(|| format!("--topology fat-tree --levels {l} --capacity {c}"))?
            }
        })
    }
}

/// Levels of a network of `size` whose `n` is `radix^l`.
fn levels_of(size: Size, radix: usize, name: &str, rule: &str) -> anyhow::Result<usize> {
    match size {
        Size::Levels(l) => {
            if !(1..=lcanet_sim::lcan::MAX_LEVELS).contains(&l) {
                bail!(
                    "--levels {l} is out of range 1..={}",
                    lcanet_sim::lcan::MAX_LEVELS
                );
            }
            Ok(l)
        }
        Size::Pes(n) => {
            let mut v = radix;
            let mut l = 1;
            while v < n && l < 64 {
                v = v.saturating_mul(radix);
                l += 1;
            }
            if v != n {
                bail!("--topology {name}: n = {n} is not {rule}");
            }
            Ok(l)
        }
    }
}

/// The per-level sizes of the binary fat-tree of `l` levels with capacities capped at `c`:
/// `c_i = min(2^(i+1), c)`, `d_0 = 2`, `d_i = 2·c_{i-1}`, `u_i = c_i`.
pub fn fat_tree(l: usize, c: usize) -> (Vec<usize>, Vec<usize>) {
    let cap = |i: usize| 1usize.checked_shl(i as u32 + 1).map_or(c, |p| p.min(c));
    let us: Vec<usize> = (0..l).map(cap).collect();
    let ds: Vec<usize> = (0..l)
        .map(|i| if i == 0 { 2 } else { 2 * us[i - 1] })
        .collect();
    (ds, us)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_presets_of_002() {
        let f = Preset::FatTree.build(Size::Levels(10), None).unwrap();
        assert_eq!(f.n(), 1024);
        assert_eq!(f.ds(), &[2, 4, 8, 16, 16, 16, 16, 16, 16, 16]);
        assert_eq!(f.us(), &[2, 4, 8, 8, 8, 8, 8, 8, 8, 8]);
        assert_eq!(f.total_switches(), 1023);
        // Uncapped: every channel doubles, d_i = u_i = 2^(i+1).
        let full = Preset::FatTree.build(Size::Pes(16), Some(64)).unwrap();
        assert_eq!(
            (full.ds(), full.us()),
            (&[2, 4, 8, 16][..], &[2, 4, 8, 16][..])
        );
        // Capacity 1 is the binary tree T-LCAN(2,1).
        let bin = Preset::FatTree.build(Size::Levels(3), Some(1)).unwrap();
        assert_eq!(bin.uniform(), Some((2, 1)));
        let c = Preset::Cm5.build(Size::Pes(1024), None).unwrap();
        assert_eq!(c.ds(), &[4; 5]);
        assert_eq!(c.us(), &[2, 2, 4, 4, 4]);
        assert_eq!(c.switches_per_level(), &[256, 128, 64, 64, 64]);
        let t = Preset::Trac.build(Size::Levels(3), None).unwrap();
        assert_eq!((t.n(), t.uniform()), (27, Some((3, 2))));
        let b = Preset::Baseline.build(Size::Pes(16), None).unwrap();
        assert_eq!(b.uniform(), Some((2, 2)));
        for (r, want) in [
            (
                Preset::Cm5.build(Size::Pes(100), None),
                "--topology cm5: n = 100 is not n = 4^l",
            ),
            (
                Preset::FatTree.build(Size::Pes(12), None),
                "--topology fat-tree: n = 12 is not n = 2^l",
            ),
            (
                Preset::FatTree.build(Size::Levels(4), Some(0)),
                "--capacity 0",
            ),
            (
                Preset::Trac.build(Size::Levels(2), Some(4)),
                "--capacity is only for --topology fat-tree",
            ),
            (
                Preset::Cm5.build(Size::Levels(40), None),
                "--levels 40 is out of range 1..=32",
            ),
            (
                Preset::FatTree.build(Size::Levels(7), Some(64)),
                "d_6 = 128 is out of range 2..=64 (level 6)",
            ),
        ] {
            let e = format!("{:#}", r.expect_err(want));
            assert!(e.contains(want), "'{e}' lacks '{want}'");
        }
    }
}
