//! R3's pass minimisation on a [`Model`]: a legal assignment of (pass, option) to every
//! connection, shrunk one pass at a time by a tabu search over partial assignments
//! (PartialCol, Blöchliger & Zufferey 2008, with capacities and path options).
//!
//! To try `P − 1` passes, the pass with the fewest connections is emptied and its
//! connections become *unassigned*. A move puts an unassigned connection `c` into a pass
//! `p` with an option `o` and ejects (unassigns) the fewest connections of `p` needed to
//! keep every resource within its capacity; ejected connections may not return to `p` for
//! a tenure of `20 + 0.6·|unassigned| + r` iterations (`r` seeded, `0..10`). The best non-tabu
//! move is taken (a tabu move only if it reaches a new best). When nothing is unassigned,
//! `P − 1` passes are legal and the next pass is emptied; the search stops at the lower
//! bound or when an attempt exhausts its iteration budget. Every step keeps the assignment
//! legal, so the result is never worse than the starting schedule.

use super::model::Model;
use crate::rng::SimRng;
use rand::Rng;

/// A legal assignment: `at[c] = (pass, option)`.
#[derive(Clone)]
pub(super) struct Assignment {
    pub(super) passes: usize,
    pub(super) at: Vec<(u32, u32)>,
}

/// First fit: connections by decreasing number of resources (then source order), each in
/// the lowest pass with an option that fits, trying options in order.
pub(super) fn first_fit(m: &Model) -> Result<Assignment, String> {
    let n = m.opts.len();
    let r = m.cap.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(m.opts[i].first().map_or(0, |o| o.res.len())));
    // Usage counters by resource, then pass (`usage[x * room + p]`), so that trying pass
    // after pass reads each resource's counters in sequence; `room` passes fit.
    let mut room = 0usize;
    let mut usage: Vec<u8> = Vec::new();
    let mut passes = 0usize;
    let mut at = vec![(0u32, 0u32); n];
    for &i in &order {
        let mut placed = None;
        'passes: for p in 0..passes {
            for (o, opt) in m.opts[i].iter().enumerate() {
                if opt
                    .res
                    .iter()
                    .all(|&x| usage[x as usize * room + p] < m.cap[x as usize])
                {
                    placed = Some((p, o));
                    break 'passes;
                }
            }
        }
        let (p, o) = match placed {
            Some(x) => x,
            None => {
                check_size(passes + 1, r)?;
                if passes == room {
                    let wider = (2 * room)
                        .max(64)
                        .min(MAX_COUNTERS / r.max(1))
                        .max(passes + 1);
                    let mut grown = vec![0u8; wider * r];
                    for x in 0..r {
                        grown[x * wider..x * wider + passes]
                            .copy_from_slice(&usage[x * room..x * room + passes]);
                    }
                    usage = grown;
                    room = wider;
                }
                passes += 1;
                (passes - 1, 0)
            }
        };
        for &x in &m.opts[i][o].res {
            usage[x as usize * room + p] += 1;
        }
        at[i] = (p as u32, o as u32);
    }
    Ok(Assignment { passes, at })
}

/// Most pass × resource counters the search keeps (one byte each).
pub(super) const MAX_COUNTERS: usize = 1 << 28;

/// Refuses a problem whose usage table (`passes × resources` counters) would pass
/// [`MAX_COUNTERS`].
pub(super) fn check_size(passes: usize, resources: usize) -> Result<(), String> {
    if passes.saturating_mul(resources) > MAX_COUNTERS {
        return Err(format!(
            "R3's heuristic would need {passes} passes × {resources} resources usage counters, \
             more than the supported {MAX_COUNTERS}; route this network size with r1 or r2"
        ));
    }
    Ok(())
}

/// The search state for a fixed number of passes.
struct State<'m> {
    m: &'m Model,
    /// Per connection and option, its resources most contended first (so that a pass
    /// that needs too many ejections is rejected after few checks).
    scan: &'m [Vec<Vec<u32>>],
    k: usize,
    /// Usage counters by resource, then pass: `usage[x * k + p]` (the search tries pass
    /// after pass for the same resources, which then reads each in sequence).
    usage: Vec<u8>,
    members: Vec<Vec<u32>>,
    /// `(pass, option, position in members)`, pass `u32::MAX` if unassigned.
    at: Vec<(u32, u32, u32)>,
    free: Vec<u32>,
    /// With a slot table ([`Model::slot`]): per connection and slot, the resource its
    /// option uses there (`NONE`: none, or unassigned).
    cur: Vec<u32>,
    /// Per connection, the passes it may not enter and until which iteration (short
    /// lists: entries expire after a tenure).
    tabu: Vec<Vec<(u32, u64)>>,
}

const NONE: u32 = u32::MAX;

/// Fixed part of the tabu tenure. PartialCol's `0.6·|U| + rand(0..10)` alone cycles here:
/// `|U|` stays at 1–2 while the passes are tight; with 20 more, R3 matched the exact
/// optimum on 200 of 200 random permutations of T-LCAN(2,1) at n = 32 (without: 196).
const TENURE_BASE: u64 = 20;

impl<'m> State<'m> {
    fn uses(&self, c: u32, res: u32) -> bool {
        if let Some(slot) = &self.m.slot {
            return self.cur[c as usize * self.m.slots + usize::from(slot[res as usize])] == res;
        }
        let (_, o, _) = self.at[c as usize];
        self.m.opts[c as usize][o as usize]
            .res
            .binary_search(&res)
            .is_ok()
    }

    fn insert(&mut self, c: u32, p: usize, o: usize) {
        for &x in &self.m.opts[c as usize][o].res {
            self.usage[x as usize * self.k + p] += 1;
            if let Some(slot) = &self.m.slot {
                self.cur[c as usize * self.m.slots + usize::from(slot[x as usize])] = x;
            }
        }
        self.at[c as usize] = (p as u32, o as u32, self.members[p].len() as u32);
        self.members[p].push(c);
    }

    fn remove(&mut self, c: u32) {
        let (p, o, pos) = self.at[c as usize];
        let p = p as usize;
        for &x in &self.m.opts[c as usize][o as usize].res {
            self.usage[x as usize * self.k + p] -= 1;
            if let Some(slot) = &self.m.slot {
                self.cur[c as usize * self.m.slots + usize::from(slot[x as usize])] = NONE;
            }
        }
        self.members[p].swap_remove(pos as usize);
        if let Some(&moved) = self.members[p].get(pos as usize) {
            self.at[moved as usize].2 = pos;
        }
        self.at[c as usize] = (NONE, 0, 0);
    }

    /// The connections to eject from pass `p` so that `c` fits with option `o`, into
    /// `out`; `false` if more than `limit` would be needed. Counts resource checks in
    /// `work`.
    fn ejections(
        &self,
        c: usize,
        p: usize,
        o: usize,
        limit: usize,
        work: &mut u64,
        out: &mut Vec<u32>,
    ) -> bool {
        out.clear();
        for &x in &self.scan[c][o] {
            *work += 1;
            let used = self.usage[x as usize * self.k + p];
            if used < self.m.cap[x as usize] {
                continue;
            }
            let freed = out.iter().filter(|&&w| self.uses(w, x)).count();
            if (used as usize) - freed < self.m.cap[x as usize] as usize {
                continue;
            }
            if out.len() == limit {
                return false;
            }
            let Some(w) = self.members[p]
                .iter()
                .copied()
                .find(|&w| !out.contains(&w) && self.uses(w, x))
            else {
                return false;
            };
            *work += self.members[p].len() as u64;
            out.push(w);
        }
        true
    }
}

/// Tries to reduce `a` to fewer passes, down to `lower`, spending at most `budget` resource
/// checks in total and `iters` iterations per attempt. Returns the best legal assignment.
pub(super) fn shrink(
    m: &Model,
    mut a: Assignment,
    lower: usize,
    budget: u64,
    iters: u64,
    rng: &mut SimRng,
) -> Assignment {
    let mut load = vec![0u64; m.cap.len()];
    for opts in &m.opts {
        for o in opts {
            for &x in &o.res {
                load[x as usize] += 1;
            }
        }
    }
    let scan: Vec<Vec<Vec<u32>>> = m
        .opts
        .iter()
        .map(|opts| {
            opts.iter()
                .map(|o| {
                    let mut v = o.res.clone();
                    v.sort_by_key(|&x| {
                        std::cmp::Reverse(load[x as usize] * 256 / u64::from(m.cap[x as usize]))
                    });
                    v
                })
                .collect()
        })
        .collect();
    let mut work = 0u64;
    while a.passes > lower && work < budget {
        match attempt(m, &scan, &a, iters, budget - work, &mut work, rng) {
            Some(b) => a = b,
            None => break,
        }
    }
    a
}

/// One attempt at `a.passes − 1` passes.
fn attempt(
    m: &Model,
    scan: &[Vec<Vec<u32>>],
    a: &Assignment,
    iters: u64,
    budget: u64,
    work: &mut u64,
    rng: &mut SimRng,
) -> Option<Assignment> {
    let k = a.passes - 1;
    let n = m.opts.len();
    let r = m.cap.len();
    // Empty the smallest pass; renumber the others 0..k.
    let mut sizes = vec![0usize; a.passes];
    for &(p, _) in &a.at {
        sizes[p as usize] += 1;
    }
    let victim = (0..a.passes).min_by_key(|&p| sizes[p]).unwrap_or(0);
    let mut st = State {
        m,
        scan,
        k,
        usage: vec![0; k * r],
        members: vec![Vec::new(); k],
        at: vec![(NONE, 0, 0); n],
        free: Vec::new(),
        cur: if m.slot.is_some() {
            vec![NONE; n * m.slots]
        } else {
            Vec::new()
        },
        tabu: vec![Vec::new(); n],
    };
    let mut ej: Vec<u32> = Vec::new();
    for (c, &(p, o)) in a.at.iter().enumerate() {
        let p = p as usize;
        if p == victim {
            st.free.push(c as u32);
        } else {
            st.insert(c as u32, if p > victim { p - 1 } else { p }, o as usize);
        }
    }
    let start = *work;
    let mut best = st.free.len();
    for it in 1..=iters {
        if st.free.is_empty() {
            break;
        }
        if *work - start > budget {
            return None;
        }
        // The best move: (cost, c index in free, pass, option, ejections).
        let mut pick: Option<(usize, usize, usize, usize, Vec<u32>)> = None;
        let mut ties = 0u32;
        for fi in 0..st.free.len() {
            let c = st.free[fi] as usize;
            for p in 0..st.k {
                let tabu = st.tabu[c]
                    .iter()
                    .any(|&(q, until)| q as usize == p && until > it);
                for o in 0..m.opts[c].len() {
                    let limit = pick.as_ref().map_or(usize::MAX, |x| x.0);
                    if !st.ejections(c, p, o, limit, work, &mut ej) {
                        continue;
                    }
                    let cost = ej.len();
                    if tabu && st.free.len() - 1 + cost >= best {
                        continue;
                    }
                    let better = match &pick {
                        None => true,
                        Some(x) if cost < x.0 => true,
                        Some(x) if cost == x.0 => {
                            ties += 1;
                            rng.gen_range(0..=ties) == 0
                        }
                        _ => false,
                    };
                    if better {
                        if pick.as_ref().is_none_or(|x| cost < x.0) {
                            ties = 0;
                        }
                        pick = Some((cost, fi, p, o, ej.clone()));
                    }
                }
            }
        }
        let Some((_, fi, p, o, ej)) = pick else {
            continue;
        };
        let c = st.free.swap_remove(fi);
        let tenure = TENURE_BASE + (6 * st.free.len() / 10) as u64 + rng.gen_range(0..10u64);
        for w in ej {
            st.remove(w);
            let list = &mut st.tabu[w as usize];
            list.retain(|&(q, until)| q as usize != p && until > it);
            list.push((p as u32, it + tenure));
            st.free.push(w);
        }
        st.insert(c, p, o);
        best = best.min(st.free.len());
    }
    if !st.free.is_empty() {
        return None;
    }
    Some(Assignment {
        passes: k,
        at: st.at.iter().map(|&(p, o, _)| (p, o)).collect(),
    })
}
