//! Combinational loops through continuous assigns, found signal by signal.
//!
//! Each assign `lhs = rhs` (or wire with a value) gives an edge from every signal `rhs`
//! reads to the signal it drives. A cycle means a signal depends on itself without a
//! register in between — even through other bits of itself, which Verilator reports as
//! UNOPTFLAT and evaluates by iteration, so it is refused as well. Paths through instances
//! are not followed (most blocks register their outputs; the PE rows module computes its
//! outputs in a combinational block): a loop through an instance is Verilator's UNOPTFLAT,
//! an error under `-Wall` in every build co-simulation uses.

/// Returns one cycle (nodes in order, the first repeated at the end) if the graph on
/// `nodes` nodes with `edges` (from, to) has one; the search is iterative and linear.
pub(super) fn find_cycle(nodes: usize, edges: &[(u32, u32)]) -> Option<Vec<usize>> {
    if edges.is_empty() {
        return None;
    }
    // Compressed adjacency: successors of n are succ[start[n]..start[n + 1]].
    let mut start = vec![0usize; nodes + 1];
    for &(from, _) in edges {
        start[from as usize + 1] += 1;
    }
    for i in 0..nodes {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut succ = vec![0u32; edges.len()];
    let mut sorted: Vec<(u32, u32)> = edges.to_vec();
    sorted.sort_unstable();
    for (from, to) in sorted {
        succ[fill[from as usize]] = to;
        fill[from as usize] += 1;
    }
    // 0 = unvisited, 1 = on the stack, 2 = done.
    let mut mark = vec![0u8; nodes];
    for root in 0..nodes {
        if mark[root] != 0 || start[root] == start[root + 1] {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, start[root])];
        mark[root] = 1;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if *next < start[node + 1] {
                let child = succ[*next] as usize;
                *next += 1;
                match mark[child] {
                    0 => {
                        mark[child] = 1;
                        stack.push((child, start[child]));
                    }
                    1 => {
                        let from = stack.iter().position(|(n, _)| *n == child)?;
                        let mut path: Vec<usize> = stack[from..].iter().map(|(n, _)| *n).collect();
                        path.push(child);
                        return Some(path);
                    }
                    _ => {}
                }
            } else {
                mark[node] = 2;
                stack.pop();
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::find_cycle;

    #[test]
    fn finds_cycles_only_when_present() {
        assert_eq!(find_cycle(3, &[(0, 1), (1, 2)]), None);
        assert_eq!(
            find_cycle(3, &[(0, 1), (1, 2), (2, 0)]),
            Some(vec![0, 1, 2, 0])
        );
        assert_eq!(find_cycle(2, &[(1, 1)]), Some(vec![1, 1]));
        // A diamond is not a cycle.
        assert_eq!(find_cycle(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]), None);
    }
}
