//! Switch settings, self-routing by destination tag, and admissibility.
//!
//! - [`Min::realize`]: the overall permutation of given switch settings (004 eq. (1)).
//! - [`Min::path`]: the unique path of a message, routed by its tag bits.
//! - [`Min::check`]: the paper's admissibility: a permutation is admissible when no two
//!   unique paths need the same switch output. Every contested output is reported with
//!   its stage, switch, port and the sources that want it; this does not depend on how
//!   a switch resolves a conflict.
//! - [`Min::transit`]: what our hardware does with *any* permutation (docs/min.md §3):
//!   at each switch the upper input's tag sets the switch (parallel when it asks for
//!   the upper output), the lower input takes the other output, and a conflict is
//!   flagged when both inputs ask for the same output (the lower one is deflected).
//!   The first stage with a conflict is the same in [`Min::check`] and
//!   [`Min::transit`]; later stages may differ because deflected messages travel on.

use super::Min;
use crate::perm::Permutation;

/// One hop of a path: the switch a message passes and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Hop {
    /// Stage `0..m`.
    pub stage: u32,
    /// Switch index within the stage, `0..n/2`.
    pub switch: usize,
    /// Input port (0 upper, 1 lower).
    pub input: u8,
    /// Output port (0 upper, 1 lower) = the tag bit of this stage.
    pub output: u8,
}

/// Per-switch settings: `cross[s][k]` is true when switch `k` of stage `s` is crossed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SwitchSettings {
    /// `cross[stage][switch]`.
    pub cross: Vec<Vec<bool>>,
}

impl SwitchSettings {
    /// All switches parallel.
    pub fn parallel(min: &Min) -> Self {
        Self {
            cross: vec![vec![false; min.switches_per_stage()]; min.m() as usize],
        }
    }

    /// Every switch of stage `s` crossed exactly when `crossed[s]` (004 §5: each
    /// stage permutation is `φ1` or `I`).
    pub fn uniform(min: &Min, crossed: &[bool]) -> Self {
        Self {
            cross: crossed
                .iter()
                .map(|&c| vec![c; min.switches_per_stage()])
                .collect(),
        }
    }

    /// When every switch of each stage has the same setting: `Some(crossed per
    /// stage)`, else `None`.
    pub fn as_uniform(&self) -> Option<Vec<bool>> {
        self.cross
            .iter()
            .map(|stage| {
                let first = *stage.first()?;
                stage.iter().all(|&c| c == first).then_some(first)
            })
            .collect()
    }
}

/// Renders per-stage uniform settings the way 004 Figs. 7–9 do, stage 0 first:
/// `I` for parallel, `φ1` for cross (e.g. `IIφ1`: only the last stage crossed).
pub fn settings_label(crossed: &[bool]) -> String {
    crossed
        .iter()
        .map(|&c| if c { "φ1" } else { "I" })
        .collect()
}

/// A switch output wanted by more than one message.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Conflict {
    /// Stage `0..m`.
    pub stage: u32,
    /// Switch index within the stage.
    pub switch: usize,
    /// The contested output port (0 upper, 1 lower).
    pub output: u8,
    /// The source PEs of the messages that want it, ascending.
    pub sources: Vec<usize>,
}

/// The result of the admissibility check: every contested switch output.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Admissibility {
    /// Conflicts in (stage, switch, output) order; empty when admissible.
    pub conflicts: Vec<Conflict>,
}

impl Admissibility {
    /// True when no two unique paths share a switch output.
    pub fn is_admissible(&self) -> bool {
        self.conflicts.is_empty()
    }

    /// The first conflict (lowest stage, then switch).
    pub fn first(&self) -> Option<&Conflict> {
        self.conflicts.first()
    }
}

/// What the hardware does with one permutation (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Transit {
    /// `arrivals[q]` is the source PE whose message leaves the network at PE `q`.
    pub arrivals: Vec<usize>,
    /// The switch settings the tags produced.
    pub settings: SwitchSettings,
    /// `conflict[s][k]`: both inputs of switch `k` of stage `s` asked for one output.
    pub conflict: Vec<Vec<bool>>,
    /// The flagged conflicts (upper source wins, lower source deflected).
    pub conflicts: Vec<Conflict>,
}

impl Min {
    /// The overall permutation realized by `settings`: PE `j` reaches `result.dst(j)`.
    pub fn realize(&self, settings: &SwitchSettings) -> Permutation {
        let dst = (0..self.n())
            .map(|pe| {
                let mut a = self.entry(pe);
                for s in 0..self.m() {
                    if settings.cross[s as usize][a / 2] {
                        a ^= 1;
                    }
                    a = self.link(s, a);
                }
                a
            })
            .collect();
        Permutation::new(dst).expect("switch settings always realize a permutation")
    }

    /// The unique path from `src` to `dst`, routed by the tag bits of `dst`.
    pub fn path(&self, src: usize, dst: usize) -> Vec<Hop> {
        let mut a = self.entry(src);
        let mut hops = Vec::with_capacity(self.m() as usize);
        for s in 0..self.m() {
            let output = ((dst >> self.tag_bit(s)) & 1) as u8;
            hops.push(Hop {
                stage: s,
                switch: a / 2,
                input: (a & 1) as u8,
                output,
            });
            a = self.link(s, (a & !1) | output as usize);
        }
        hops
    }

    /// Where a message from `src` routed by the tag of `dst` leaves the network.
    pub fn tag_route(&self, src: usize, dst: usize) -> usize {
        let last = *self.path(src, dst).last().expect("m >= 1");
        self.link(last.stage, 2 * last.switch + last.output as usize)
    }

    /// 004's admissibility: every switch output needed by two or more unique paths.
    pub fn check(&self, perm: &Permutation) -> Admissibility {
        let (m, half) = (self.m() as usize, self.switches_per_stage());
        // users[s][2k + port] = sources whose path leaves switch k of stage s on port.
        let mut users = vec![vec![Vec::new(); 2 * half]; m];
        for src in 0..self.n() {
            for hop in self.path(src, perm.dst(src)) {
                users[hop.stage as usize][2 * hop.switch + hop.output as usize].push(src);
            }
        }
        let conflicts = users
            .into_iter()
            .enumerate()
            .flat_map(|(s, outs)| {
                outs.into_iter()
                    .enumerate()
                    .filter(|(_, u)| u.len() > 1)
                    .map(move |(pos, sources)| Conflict {
                        stage: s as u32,
                        switch: pos / 2,
                        output: (pos & 1) as u8,
                        sources,
                    })
            })
            .collect();
        Admissibility { conflicts }
    }

    /// The hardware's behaviour on `perm` (upper input sets the switch; conflicts
    /// flagged, the lower message deflected).
    pub fn transit(&self, perm: &Permutation) -> Transit {
        let (n, half) = (self.n(), self.switches_per_stage());
        // at[a] = source PE whose message is at input position a of the current stage.
        let mut at = vec![0usize; n];
        for pe in 0..n {
            at[self.entry(pe)] = pe;
        }
        let mut settings = SwitchSettings::parallel(self);
        let mut conflict = vec![vec![false; half]; self.m() as usize];
        let mut conflicts = Vec::new();
        for s in 0..self.m() {
            let bit = self.tag_bit(s);
            let mut next = vec![0usize; n];
            for k in 0..half {
                let (up, low) = (at[2 * k], at[2 * k + 1]);
                let want_up = (perm.dst(up) >> bit) & 1;
                let want_low = (perm.dst(low) >> bit) & 1;
                let cross = want_up == 1;
                settings.cross[s as usize][k] = cross;
                if want_up == want_low {
                    conflict[s as usize][k] = true;
                    let mut sources = vec![up, low];
                    sources.sort_unstable();
                    conflicts.push(Conflict {
                        stage: s,
                        switch: k,
                        output: want_up as u8,
                        sources,
                    });
                }
                let (o0, o1) = if cross { (low, up) } else { (up, low) };
                next[self.link(s, 2 * k)] = o0;
                next[self.link(s, 2 * k + 1)] = o1;
            }
            at = next;
        }
        Transit {
            arrivals: at,
            settings,
            conflict,
            conflicts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::min::Network;
    use crate::rng::seeded;

    #[test]
    fn tag_routing_reaches_every_destination_from_every_input() {
        for net in Network::ALL {
            for m in 1..=7 {
                let min = Min::new(net, m).unwrap();
                for src in 0..min.n() {
                    for dst in 0..min.n() {
                        assert_eq!(min.tag_route(src, dst), dst, "{net} m={m} {src}->{dst}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_fig3_baseline_example() {
        // 004 Fig. 3: σ0 = (2,3), σ1 = (0,1)(4,5), σ2 = all crossed realizes
        // 3 7 5 1 0 4 2 6.
        let min = Min::new(Network::Baseline, 3).unwrap();
        let cross = vec![
            vec![false, true, false, false],
            vec![true, false, true, false],
            vec![true; 4],
        ];
        let p = min.realize(&SwitchSettings { cross });
        assert_eq!(p.as_slice(), &[3, 7, 5, 1, 0, 4, 2, 6]);
        // And routing 5 -> 4 takes "down, up, up" (004 §2).
        let ports: Vec<u8> = min.path(5, 4).iter().map(|h| h.output).collect();
        assert_eq!(ports, vec![1, 0, 0]);
    }

    #[test]
    fn realized_permutations_are_admissible_and_transit_reproduces_them() {
        let mut rng = seeded(11);
        for net in Network::ALL {
            for m in 1..=6 {
                let min = Min::new(net, m).unwrap();
                for _ in 0..20 {
                    use rand::Rng;
                    let cross = (0..m)
                        .map(|_| (0..min.switches_per_stage()).map(|_| rng.gen()).collect())
                        .collect();
                    let settings = SwitchSettings { cross };
                    let p = min.realize(&settings);
                    assert!(min.check(&p).is_admissible());
                    let t = min.transit(&p);
                    assert!(t.conflicts.is_empty());
                    assert_eq!(t.settings, settings);
                    for (q, &src) in t.arrivals.iter().enumerate() {
                        assert_eq!(p.dst(src), q);
                    }
                }
            }
        }
    }

    #[test]
    fn a_reverse_network_realizes_the_inverses_with_mirrored_settings() {
        use rand::Rng;
        let mut rng = seeded(5);
        for net in Network::FORWARD {
            for m in 1..=7 {
                let (fwd, rev) = (
                    Min::new(net, m).unwrap(),
                    Min::new(net.reverse(), m).unwrap(),
                );
                for _ in 0..8 {
                    let cross: Vec<Vec<bool>> = (0..m)
                        .map(|_| (0..fwd.switches_per_stage()).map(|_| rng.gen()).collect())
                        .collect();
                    let mirrored: Vec<Vec<bool>> = cross.iter().rev().cloned().collect();
                    let p = fwd.realize(&SwitchSettings { cross });
                    let q = rev.realize(&SwitchSettings { cross: mirrored });
                    assert_eq!(q, p.inverse(), "{net} m={m}");
                }
            }
        }
    }

    #[test]
    fn admissible_iff_realizable_exhaustively_for_n4_and_n8() {
        use std::collections::HashSet;
        for net in Network::ALL {
            for m in 2..=3u32 {
                let min = Min::new(net, m).unwrap();
                let switches = (m as usize) * min.switches_per_stage();
                let mut realizable = HashSet::new();
                for bits in 0u32..(1 << switches) {
                    let cross = (0..m as usize)
                        .map(|s| {
                            (0..min.switches_per_stage())
                                .map(|k| bits >> (s * min.switches_per_stage() + k) & 1 == 1)
                                .collect()
                        })
                        .collect();
                    realizable.insert(min.realize(&SwitchSettings { cross }).as_slice().to_vec());
                }
                // Unique paths: distinct settings give distinct permutations (n^{n/2}).
                assert_eq!(realizable.len(), 1 << switches);
                let mut all: Vec<usize> = (0..min.n()).collect();
                permute_all(&mut all, 0, &mut |p| {
                    let perm = Permutation::new(p.to_vec()).unwrap();
                    let adm = min.check(&perm);
                    let tr = min.transit(&perm);
                    assert_eq!(adm.is_admissible(), realizable.contains(p), "{net} {p:?}");
                    assert_eq!(tr.conflicts.is_empty(), adm.is_admissible());
                    if let Some(first) = adm.first() {
                        // The first conflicting stage agrees between the two views.
                        assert_eq!(tr.conflicts[0].stage, first.stage);
                        let at_stage = |c: &&Conflict| c.stage == first.stage;
                        let a: Vec<_> = adm.conflicts.iter().filter(at_stage).collect();
                        let b: Vec<_> = tr.conflicts.iter().filter(at_stage).collect();
                        assert_eq!(a, b);
                    }
                });
            }
        }
    }

    fn permute_all(v: &mut Vec<usize>, k: usize, f: &mut impl FnMut(&[usize])) {
        if k == v.len() {
            f(v);
            return;
        }
        for i in k..v.len() {
            v.swap(k, i);
            permute_all(v, k + 1, f);
            v.swap(k, i);
        }
    }

    #[test]
    fn a_non_admissible_permutation_names_the_switch() {
        // Baseline m = 3: 0 -> 0 and 1 -> 1 both enter switch 0 of stage 0 and both
        // want the upper output (destination bit 2 is 0 for both).
        let min = Min::new(Network::Baseline, 3).unwrap();
        let p = Permutation::new(vec![0, 1, 4, 5, 2, 3, 6, 7]).unwrap();
        let adm = min.check(&p);
        let c = adm.first().unwrap();
        assert_eq!((c.stage, c.switch, c.output), (0, 0, 0));
        assert_eq!(c.sources, vec![0, 1]);
        let t = min.transit(&p);
        assert!(t.conflict[0][0]);
    }
}
