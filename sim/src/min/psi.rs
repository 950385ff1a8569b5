//! The first construction of a Latin square (004 §4.1): the set `Ψ` of eq. (8) and
//! Theorem 1.
//!
//! `Ψ = { φ_{i_1}φ_{i_2}…φ_{i_k} | m ≥ i_1 > i_2 > … > i_k ≥ 1, 1 ≤ k ≤ m }`: the
//! `n - 1` products of distinct basic permutations (eq. (5): `φ_i` flips bit `i - 1`),
//! each written with its indices falling. Theorem 1: for any list `a_0 … a_{n-1}` of
//! `0..n` and the `n - 1` elements `ρ_1 … ρ_{n-1}` of `Ψ` in any order, the matrix of
//! rows `a`, `ρ_1(a)`, …, `ρ_{n-1}(a)` is a Latin square. The order of the `ρ_r` is the
//! order of the square's first column (`ρ_r(a_0)`), hence [`PsiOrder`].
//!
//! Everything here composes the `φ_i` one at a time, as the paper writes the products:
//! an element is applied factor by factor (rightmost first), never as an XOR mask, so
//! that a test comparing these squares with Table 2's checks Theorem 3 rather than
//! assuming it. [`PsiElement::from_product`] reduces any product of basic permutations
//! to its element of `Ψ` with the paper's rules (6) (they commute) and (7) (`φ_iφ_i = I`);
//! [`table2_elements`] does so for Table 2's rows, the correspondence `Ψ' = Ψ` of the
//! proof of Theorem 3.

use super::latin::{build_basic_list, phi, LatinSquare};
use super::MinError;
use crate::perm::Permutation;
use crate::rng::seeded;
use rand::seq::SliceRandom;
use std::fmt;

/// One element `φ_{i_1}…φ_{i_k}` of `Ψ`, or the identity `I` (no factor: row 0).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct PsiElement {
    /// `i_1 > i_2 > … > i_k`, each in `1..=m`.
    factors: Vec<u32>,
}

impl PsiElement {
    /// The identity (no factor).
    pub fn identity() -> Self {
        Self {
            factors: Vec::new(),
        }
    }

    /// The reduced form of the product `φ_{f_0}φ_{f_1}…` (applied right to left) by
    /// rules (6) and (7): the indices that occur an odd number of times, falling.
    /// `f` must hold indices `≥ 1`.
    pub fn from_product(f: &[u32]) -> Self {
        let mut factors: Vec<u32> = Vec::with_capacity(f.len());
        for &i in f {
            debug_assert!(i >= 1, "basic permutations are φ_1 … φ_m");
            match factors.iter().position(|&x| x == i) {
                Some(p) => {
                    factors.remove(p);
                }
                None => factors.push(i),
            }
        }
        factors.sort_unstable_by(|a, b| b.cmp(a));
        Self { factors }
    }

    /// The element mapping `from` to `to` (the bits where they differ, as `φ`s).
    pub fn between(from: usize, to: usize) -> Self {
        let diff = from ^ to;
        let factors = (0..usize::BITS)
            .rev()
            .filter(|b| diff >> b & 1 == 1)
            .map(|b| b + 1)
            .collect();
        Self { factors }
    }

    /// The indices `i_1 > … > i_k` (empty for the identity).
    pub fn factors(&self) -> &[u32] {
        &self.factors
    }

    /// `φ_{i_1}(φ_{i_2}(…φ_{i_k}(a)))`: the factors applied one by one, rightmost first.
    pub fn apply(&self, a: usize) -> usize {
        self.factors.iter().rev().fold(a, |x, &i| phi(i, x))
    }

    /// True for the identity.
    pub fn is_identity(&self) -> bool {
        self.factors.is_empty()
    }
}

impl fmt::Display for PsiElement {
    /// `φ3φ2φ1` as the paper writes it; `I` for the identity.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.factors.is_empty() {
            return f.write_str("I");
        }
        for i in &self.factors {
            write!(f, "φ{i}")?;
        }
        Ok(())
    }
}

/// `Ψ` for `n = 2^m`, in the order eq. (8) lists it (the paper's example for `n = 8`:
/// `φ1, φ2, φ3, φ2φ1, φ3φ1, φ3φ2, φ3φ2φ1`): by the number of factors `k`, then by the
/// index tuple `(i_1, …, i_k)`, ascending.
pub fn psi(m: u32) -> Vec<PsiElement> {
    // Every non-empty subset {i_1 > … > i_k} of {1, …, m}, one per bit mask.
    let mut out: Vec<PsiElement> = (1usize..1 << m)
        .map(|mask| PsiElement {
            factors: (1..=m).rev().filter(|i| mask >> (i - 1) & 1 == 1).collect(),
        })
        .collect();
    out.sort_by(|a, b| {
        a.factors
            .len()
            .cmp(&b.factors.len())
            .then_with(|| a.factors.cmp(&b.factors))
    });
    out
}

/// Table 2's rows as elements of `Ψ`: row `i` applies `φ_{k_i}…φ_{k_1}` (the basic list
/// of `BuildBasicList(m)`) to row 0, reduced by (6) and (7). Row 0 is `I`. The proof of
/// Theorem 3 lists these for `n = 8`: `φ1, φ2φ1, φ2, φ3φ2, φ3φ2φ1, φ3φ1, φ3`.
pub fn table2_elements(m: u32) -> Vec<PsiElement> {
    let mut product: Vec<u32> = Vec::new();
    let mut out = vec![PsiElement::identity()];
    for k in build_basic_list(m) {
        product.insert(0, k);
        out.push(PsiElement::from_product(&product));
    }
    out
}

/// The order of the `n - 1` elements of `Ψ` in the square (= its first column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PsiOrder {
    /// As eq. (8) lists `Ψ` ([`psi`]).
    Eq8,
    /// As Table 2 produces them ([`table2_elements`]): the Ψ square then equals Table 2's
    /// square row for row.
    Table2,
    /// A uniformly random order drawn from the seed.
    Random(u64),
    /// The order that gives this first column (`a_0` first, then `ρ_r(a_0)` for rows
    /// `r = 1 … n-1`): any permutation of `0..n` starting with `a_0`.
    FirstColumn(Vec<usize>),
}

/// The `n - 1` elements of `Ψ` in `order`, for a square whose row 0 starts with `a0`.
pub fn psi_order(m: u32, a0: usize, order: &PsiOrder) -> Result<Vec<PsiElement>, MinError> {
    let n = 1usize << m;
    Ok(match order {
        PsiOrder::Eq8 => psi(m),
        PsiOrder::Table2 => table2_elements(m).split_off(1),
        PsiOrder::Random(seed) => {
            let mut v = psi(m);
            v.shuffle(&mut seeded(*seed));
            v
        }
        PsiOrder::FirstColumn(col) => {
            let bad = |reason: String| MinError::BadFirstColumn { reason };
            if col.len() != n {
                return Err(bad(format!("it has {} entries, need n = {n}", col.len())));
            }
            if col[0] != a0 {
                return Err(bad(format!(
                    "it starts with {}, but row 0 (the network's first row) starts with {a0}",
                    col[0]
                )));
            }
            let mut seen = vec![false; n];
            for (r, &x) in col.iter().enumerate() {
                if x >= n {
                    return Err(bad(format!("entry {r} is {x}, need 0 ≤ entry < {n}")));
                }
                if std::mem::replace(&mut seen[x], true) {
                    return Err(bad(format!("entry {r} repeats {x}")));
                }
            }
            col[1..]
                .iter()
                .map(|&x| PsiElement::between(a0, x))
                .collect()
        }
    })
}

/// Theorem 1's matrix: row 0 is `first`, row `r ≥ 1` is `ρ_r(first)` with `ρ_r =
/// elements[r - 1]`. `elements` must be the `n - 1` elements of `Ψ` (each once, factors
/// falling in `1..=m`); anything else is [`MinError::NotPsi`].
pub fn psi_square(first: &Permutation, elements: &[PsiElement]) -> Result<LatinSquare, MinError> {
    let n = first.len();
    if !n.is_power_of_two() || n < 2 {
        return Err(MinError::NotPowerOfTwo { n });
    }
    let m = n.trailing_zeros();
    let not_psi = |reason: String| MinError::NotPsi { reason };
    if elements.len() != n - 1 {
        return Err(not_psi(format!(
            "{} permutations given, Ψ has n - 1 = {}",
            elements.len(),
            n - 1
        )));
    }
    let mut seen = std::collections::HashSet::with_capacity(n);
    for e in elements {
        let f = e.factors();
        let falling = f.windows(2).all(|w| w[0] > w[1]);
        if f.is_empty() || !falling || f[0] > m || *f.last().unwrap_or(&1) < 1 {
            return Err(not_psi(format!(
                "{e} is not φ_{{i_1}}…φ_{{i_k}} with {m} ≥ i_1 > … > i_k ≥ 1"
            )));
        }
        if !seen.insert(e.clone()) {
            return Err(not_psi(format!("{e} occurs twice")));
        }
    }
    let a = first.as_slice();
    let mut rows = Vec::with_capacity(n);
    rows.push(a.to_vec());
    for e in elements {
        rows.push(a.iter().map(|&x| e.apply(x)).collect());
    }
    Ok(LatinSquare { rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(v: &[PsiElement]) -> Vec<String> {
        v.iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn psi_for_n8_is_the_papers_list() {
        assert_eq!(
            labels(&psi(3)),
            ["φ1", "φ2", "φ3", "φ2φ1", "φ3φ1", "φ3φ2", "φ3φ2φ1"]
        );
    }

    #[test]
    fn psi_has_n_minus_1_distinct_falling_products() {
        for m in 1..=10 {
            let p = psi(m);
            assert_eq!(p.len(), (1 << m) - 1, "m = {m}");
            let set: std::collections::HashSet<_> = p.iter().collect();
            assert_eq!(set.len(), p.len());
            for e in &p {
                assert!(e.factors().windows(2).all(|w| w[0] > w[1]));
                assert!(e.factors()[0] <= m && *e.factors().last().unwrap() >= 1);
            }
            // Binomial counts per k (the paper's |Ψ| = Σ C(m,k) = n - 1).
            for k in 1..=m as usize {
                let c = p.iter().filter(|e| e.factors().len() == k).count();
                let binom = (0..k).fold(1usize, |acc, i| acc * (m as usize - i) / (i + 1));
                assert_eq!(c, binom, "m = {m}, k = {k}");
            }
        }
    }

    #[test]
    fn table2_rows_reduce_to_the_theorem3_correspondence() {
        // The proof of Theorem 3, n = 8: Ψ' = {φ1, φ2φ1, φ1φ2φ1, φ3φ1φ2φ1, …} = Ψ.
        assert_eq!(
            labels(&table2_elements(3)),
            ["I", "φ1", "φ2φ1", "φ2", "φ3φ2", "φ3φ2φ1", "φ3φ1", "φ3"]
        );
        assert_eq!(
            PsiElement::from_product(&[1, 2, 1, 3, 1, 2, 1]).to_string(),
            "φ3"
        );
        assert_eq!(PsiElement::from_product(&[1, 2, 1]).to_string(), "φ2");
        assert!(PsiElement::from_product(&[2, 2]).is_identity());
    }

    #[test]
    fn elements_compose_their_factors() {
        let e = PsiElement::from_product(&[3, 1]);
        assert_eq!(e.apply(0b000), 0b101);
        assert_eq!(e.apply(0b111), 0b010);
        assert_eq!(PsiElement::between(6, 3).to_string(), "φ3φ1");
        assert_eq!(PsiElement::identity().apply(5), 5);
    }

    #[test]
    fn bad_orders_and_element_lists_are_named() {
        let first = Permutation::identity(8);
        let err = |o: PsiOrder| psi_order(3, 0, &o).unwrap_err().to_string();
        assert!(err(PsiOrder::FirstColumn(vec![0, 1, 2])).contains("3 entries, need n = 8"));
        assert!(err(PsiOrder::FirstColumn(vec![1, 0, 2, 3, 4, 5, 6, 7])).contains("starts with 1"));
        assert!(err(PsiOrder::FirstColumn(vec![0, 1, 2, 3, 4, 5, 6, 8])).contains("entry 7 is 8"));
        assert!(err(PsiOrder::FirstColumn(vec![0, 1, 2, 3, 4, 5, 6, 6])).contains("repeats 6"));
        let mut v = psi(3);
        v[6] = v[0].clone();
        assert!(psi_square(&first, &v)
            .unwrap_err()
            .to_string()
            .contains("φ1 occurs twice"));
        v[6] = PsiElement::from_product(&[4]);
        assert!(psi_square(&first, &v)
            .unwrap_err()
            .to_string()
            .contains("3 ≥ i_1"));
        assert!(psi_square(&first, &v[..3]).is_err());
    }
}
