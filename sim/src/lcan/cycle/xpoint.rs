//! The crosspoint matrix of the LCA switch (003 Figure 2) and its two datapaths:
//! pass-through and reverse (`docs/protocol.md` §6, step 2).
//!
//! Ports are numbered as in the RTL: inputs `0..d` are `A(0..d)`, `d..d+u` are `B(0..u)`;
//! outputs `0..d` are `C(0..d)`, `d..d+u` are `D(0..u)`. The four groups are views of one
//! matrix, flattened exactly like the RTL registers `xp_ac[x·d + x']`, `xp_ad[x·u + k]`,
//! `xp_bc[k·d + x]`, `xp_bd[k·u + k']`.

use serde::Serialize;

/// Which crosspoints are closed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Crosspoints {
    d: usize,
    u: usize,
    closed: Vec<bool>,
}

/// One of the four crosspoint groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// Downer in to downer out: the turn-around at the LCA.
    AC,
    /// Downer in to upper out: going up.
    AD,
    /// Upper in to downer out: coming down.
    BC,
    /// Upper in to upper out.
    BD,
}

impl Crosspoints {
    /// All open.
    pub fn new(d: usize, u: usize) -> Self {
        Crosspoints {
            d,
            u,
            closed: vec![false; (d + u) * (d + u)],
        }
    }

    fn ports(&self) -> usize {
        self.d + self.u
    }

    /// Whether `input → output` is closed.
    pub fn is_closed(&self, input: usize, output: usize) -> bool {
        self.closed[input * self.ports() + output]
    }

    /// Closes `input → output`.
    pub fn close(&mut self, input: usize, output: usize) {
        let n = self.ports();
        self.closed[input * n + output] = true;
    }

    /// Opens every crosspoint.
    pub fn clear(&mut self) {
        self.closed.fill(false);
    }

    /// Whether every crosspoint is open.
    pub fn is_all_open(&self) -> bool {
        !self.closed.contains(&true)
    }

    /// Whether input `input` drives some output.
    pub fn drives(&self, input: usize) -> bool {
        (0..self.ports()).any(|o| self.is_closed(input, o))
    }

    /// Whether output `output` is driven by some input.
    pub fn is_driven(&self, output: usize) -> bool {
        (0..self.ports()).any(|i| self.is_closed(i, output))
    }

    /// One group, flattened in the RTL's register order (row = input within the group).
    pub fn group(&self, g: Group) -> Vec<bool> {
        let (d, u) = (self.d, self.u);
        let (ins, outs) = match g {
            Group::AC => (0..d, 0..d),
            Group::AD => (0..d, d..d + u),
            Group::BC => (d..d + u, 0..d),
            Group::BD => (d..d + u, d..d + u),
        };
        ins.flat_map(|i| outs.clone().map(move |o| (i, o)))
            .map(|(i, o)| self.is_closed(i, o))
            .collect()
    }

    /// The closed crosspoints as `(input, output)` pairs.
    pub fn closed_pairs(&self) -> Vec<(usize, usize)> {
        let n = self.ports();
        (0..n * n)
            .filter(|&k| self.closed[k])
            .map(|k| (k / n, k % n))
            .collect()
    }

    /// The partner of a port: `A(x)↔C(x)`, `B(k)↔D(k)` — the same index on the other side.
    pub fn partner(port: usize) -> usize {
        port
    }

    /// Pass-through lanes of output `o` (0 if no crosspoint into it is closed); `a`, `b`
    /// are the lanes of `A(0..d)` and `B(0..u)`.
    pub fn forward_port(&self, o: usize, a: &[u64], b: &[u64]) -> u64 {
        let d = self.d;
        (0..self.ports())
            .filter(|&i| self.is_closed(i, o))
            .fold(0, |v, i| v | if i < d { a[i] } else { b[i - d] })
    }

    /// Reverse lanes of output `o`: a closed `i → o'` carries `partner(o')` to
    /// `partner(i)`, and `partner(i) = o` means `i = o`.
    pub fn reverse_port(&self, o: usize, a: &[u64], b: &[u64]) -> u64 {
        let d = self.d;
        (0..self.ports())
            .filter(|&o2| self.is_closed(Self::partner(o), o2))
            .fold(0, |v, o2| {
                let i = Self::partner(o2);
                v | if i < d { a[i] } else { b[i - d] }
            })
    }

    /// Pass-through: for each output, the lanes of the input whose crosspoint into it is
    /// closed (0 if none). `inputs` holds `A(0..d)` then `B(0..u)`.
    pub fn forward(&self, inputs: &[u64]) -> Vec<u64> {
        let n = self.ports();
        (0..n)
            .map(|o| {
                (0..n)
                    .filter(|&i| self.is_closed(i, o))
                    .fold(0, |v, i| v | inputs[i])
            })
            .collect()
    }

    /// Reverse: every closed `i → o` conducts from `partner(o)` (an input) to `partner(i)`
    /// (an output).
    pub fn reverse(&self, inputs: &[u64]) -> Vec<u64> {
        let mut out = vec![0; self.ports()];
        for (i, o) in self.closed_pairs() {
            out[Self::partner(i)] |= inputs[Self::partner(o)];
        }
        out
    }

    /// The invariant of `docs/protocol.md` §8: every output driven at most once and every
    /// input driving at most once. Returns a description of the first violation.
    pub fn check_invariants(&self) -> Result<(), String> {
        let n = self.ports();
        for o in 0..n {
            let k = (0..n).filter(|&i| self.is_closed(i, o)).count();
            if k > 1 {
                return Err(format!("output {o} is driven by {k} inputs"));
            }
        }
        for i in 0..n {
            let k = (0..n).filter(|&o| self.is_closed(i, o)).count();
            if k > 1 {
                return Err(format!("input {i} drives {k} outputs"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reverse_conducts_from_partner_of_out_to_partner_of_in() {
        // d = 2, u = 1: A(1) -> D(0) is input 1 -> output 2.
        let mut xp = Crosspoints::new(2, 1);
        xp.close(1, 2);
        xp.close(0, 0); // A(0) -> C(0), a PE talking to itself
        let fwd = xp.forward(&[0b1, 0b1, 0]);
        assert_eq!(fwd, vec![1, 0, 1]);
        // Reverse of A(1)->D(0): B(0) (input 2) drives C(1) (output 1).
        let rev = xp.reverse(&[0, 0, 1]);
        assert_eq!(rev, vec![0, 1, 0]);
        let ports = |f: &dyn Fn(usize) -> u64| (0..3).map(f).collect::<Vec<_>>();
        assert_eq!(ports(&|o| xp.reverse_port(o, &[0, 0], &[1])), rev);
        assert_eq!(ports(&|o| xp.forward_port(o, &[1, 1], &[0])), fwd);
        let rev = xp.reverse(&[1, 0, 0]);
        assert_eq!(rev, vec![1, 0, 0]);
        assert_eq!(xp.group(Group::AD), vec![false, true]);
        assert_eq!(xp.group(Group::AC), vec![true, false, false, false]);
        assert!(xp.check_invariants().is_ok());
        xp.close(1, 1);
        assert!(xp.check_invariants().unwrap_err().contains("input 1"));
    }
}
