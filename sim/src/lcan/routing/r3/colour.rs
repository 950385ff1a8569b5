//! Proper edge colouring of a bipartite multigraph with `C ≥ Δ` colours (König), by
//! alternating paths: for an edge `(a, b)` take a colour `α` free at `a` and `β` free at
//! `b`; if `α` is not free at `b`, swap `α` and `β` along the `α/β` path that starts at
//! `b` (it never reaches `a`, the graph being bipartite), after which `α` is free at both.
//! Each edge costs `O(C + path length)`.

const NONE: u32 = u32::MAX;

/// Colours `edges` (`(left, right)` vertex pairs, `left < nl`, `right < nr`) with
/// `colours` colours so that no two edges at one vertex share a colour. Fails (naming the
/// vertex) when a vertex has more than `colours` edges.
pub(crate) fn edge_colour(
    nl: usize,
    nr: usize,
    edges: &[(u32, u32)],
    colours: usize,
) -> Result<Vec<u32>, String> {
    let c = colours;
    let mut deg_l = vec![0usize; nl];
    let mut deg_r = vec![0usize; nr];
    for &(a, b) in edges {
        deg_l[a as usize] += 1;
        deg_r[b as usize] += 1;
    }
    if let Some(v) = deg_l.iter().position(|&x| x > c) {
        return Err(format!("left vertex {v} has degree {} > {c}", deg_l[v]));
    }
    if let Some(v) = deg_r.iter().position(|&x| x > c) {
        return Err(format!("right vertex {v} has degree {} > {c}", deg_r[v]));
    }
    // at_l[a*c + k]: the edge of colour k at left vertex a.
    let mut at_l = vec![NONE; nl * c];
    let mut at_r = vec![NONE; nr * c];
    let mut col = vec![NONE; edges.len()];
    let mut path: Vec<u32> = Vec::new();
    for (e, &(a, b)) in edges.iter().enumerate() {
        let (a, b) = (a as usize, b as usize);
        let free = |slots: &[u32], v: usize| (0..c).find(|&k| slots[v * c + k] == NONE);
        let alpha = free(&at_l, a).ok_or("no free colour at a left vertex")?;
        let beta = free(&at_r, b).ok_or("no free colour at a right vertex")?;
        if at_r[b * c + alpha] != NONE {
            // The α/β path from b: right --α--> left --β--> right --α--> ...
            path.clear();
            let (mut v, mut on_right, mut k) = (b, true, alpha);
            loop {
                let slot = if on_right {
                    at_r[v * c + k]
                } else {
                    at_l[v * c + k]
                };
                if slot == NONE {
                    break;
                }
                path.push(slot);
                let (l, r) = edges[slot as usize];
                v = if on_right { l as usize } else { r as usize };
                on_right = !on_right;
                k = if k == alpha { beta } else { alpha };
            }
            for &pe in &path {
                let (l, r) = edges[pe as usize];
                let k = col[pe as usize] as usize;
                at_l[l as usize * c + k] = NONE;
                at_r[r as usize * c + k] = NONE;
            }
            for &pe in &path {
                let (l, r) = edges[pe as usize];
                let k = if col[pe as usize] as usize == alpha {
                    beta
                } else {
                    alpha
                };
                col[pe as usize] = k as u32;
                at_l[l as usize * c + k] = pe;
                at_r[r as usize * c + k] = pe;
            }
        }
        debug_assert!(at_l[a * c + alpha] == NONE && at_r[b * c + alpha] == NONE);
        col[e] = alpha as u32;
        at_l[a * c + alpha] = e as u32;
        at_r[b * c + alpha] = e as u32;
    }
    Ok(col)
}

#[cfg(test)]
mod tests {
    use super::edge_colour;
    use crate::rng::seeded;
    use rand::Rng;

    #[test]
    fn colours_regular_multigraphs_properly() {
        let mut rng = seeded(5);
        for deg in 1..=5usize {
            let nv = 7;
            // A deg-regular bipartite multigraph: deg random perfect matchings.
            let mut edges = Vec::new();
            for _ in 0..deg {
                let mut perm: Vec<u32> = (0..nv as u32).collect();
                for i in (1..nv).rev() {
                    perm.swap(i, rng.gen_range(0..=i));
                }
                edges.extend((0..nv as u32).map(|a| (a, perm[a as usize])));
            }
            let col = edge_colour(nv, nv, &edges, deg).unwrap();
            for (i, &(a, b)) in edges.iter().enumerate() {
                assert!((col[i] as usize) < deg);
                for (j, &(a2, b2)) in edges.iter().enumerate().skip(i + 1) {
                    if a == a2 || b == b2 {
                        assert_ne!(col[i], col[j], "edges {i} and {j} share a vertex");
                    }
                }
            }
        }
    }

    #[test]
    fn rejects_a_vertex_of_too_high_degree() {
        let e = edge_colour(2, 2, &[(0, 0), (0, 1), (0, 1)], 2).unwrap_err();
        assert!(e.contains("left vertex 0 has degree 3"), "{e}");
    }
}
