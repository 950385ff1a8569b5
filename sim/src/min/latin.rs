//! Latin squares of admissible permutations (004 §4–5).
//!
//! - [`phi`]: the basic permutation `φ_i` of eq. (5) (flip bit `i-1`).
//! - [`build_basic_list`]: Table 2's recursive `BuildBasicList(k)`.
//! - [`build_latin_square`]: Table 2's `BuildLatinSquare`: row 0 is the given list,
//!   row `i` applies the `i`-th basic permutation to row `i-1`.
//! - [`first_row`]: the list each network starts from (§5): the bit reversal `π` of
//!   Corollary 1 (baseline), the identity (omega, Lemma 4: `π₀⁻ᵐ = I`), the one-bit left
//!   rotation `τ` of Corollary 3 (cube); for the reverse networks the inverses, `π⁻¹ = π`,
//!   `I` and the one-bit right rotation `τ⁻¹`. Computed from the network's wiring with
//!   every switch parallel, and checked against those closed forms in the tests.
//!
//! Why Table 2 works for every one of the six networks (004 §5 proves it for the forward
//! three, Theorems 4–6): a stage set all-crossed flips bit 0 of every position, which the
//! links carry to one fixed bit `b(s)` of the output address (the tag bit,
//! [`Min::tag_bit`]), distinct per stage. So with uniform settings the network realizes
//! `ψ ∘ first_row` for exactly the `2^m` products `ψ` of distinct `φ_{b(s)+1}`: `Ψ ∪ {I}`
//! applied to the first row, Theorem 1's square. The tests check Latin property,
//! admissibility and uniform settings of every row for all six.
//!
//! Row `i` of a square is the permutation of frame `i` of algorithm ATAPE: `rows[i][j]`
//! is where PE `j` sends in frame `i`; column `j` is PE `j`'s message order.

use super::route::SwitchSettings;
use super::{Min, MinError};
use crate::perm::Permutation;

/// 004 eq. (5): `φ_i` flips bit `i - 1` of `a` (`1 ≤ i ≤ m`).
pub fn phi(i: u32, a: usize) -> usize {
    a ^ (1 << (i - 1))
}

/// Table 2, `BuildBasicList(k)`: the list of basic permutations (by index `i` of
/// `φ_i`), `2^k - 1` long.
pub fn build_basic_list(k: u32) -> Vec<u32> {
    let mut bl = Vec::with_capacity((1usize << k) - 1);
    fn rec(k: u32, bl: &mut Vec<u32>) {
        if k == 1 {
            bl.push(1);
            return;
        }
        rec(k - 1, bl);
        bl.push(k);
        rec(k - 1, bl);
    }
    rec(k, &mut bl);
    bl
}

/// A Latin square: `rows[i][j]`, `n` rows of `n` entries.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LatinSquare {
    /// `rows[i]` is the permutation of frame `i`.
    pub rows: Vec<Vec<usize>>,
}

/// Table 2, `BuildLatinSquare(BL, {a_0, …, a_{n-1}})`.
///
/// `first` must be a permutation of `0..n` with `n = 2^m`; the basic list is
/// `BuildBasicList(m)`.
pub fn build_latin_square(first: &Permutation) -> Result<LatinSquare, MinError> {
    let n = first.len();
    if !n.is_power_of_two() || n < 2 {
        return Err(MinError::NotPowerOfTwo { n });
    }
    let m = n.trailing_zeros();
    let bl = build_basic_list(m);
    let mut rows = Vec::with_capacity(n);
    let mut b = first.as_slice().to_vec();
    rows.push(b.clone());
    for &k in &bl {
        for x in b.iter_mut() {
            *x = phi(k, *x);
        }
        rows.push(b.clone());
    }
    Ok(LatinSquare { rows })
}

/// The first row of `min`'s Latin square: the overall permutation with every switch
/// set to parallel (`π`, `I` or `τ`).
pub fn first_row(min: &Min) -> Permutation {
    min.realize(&SwitchSettings::parallel(min))
}

/// `LatinSquare(List{first_row(min)})`: the square used by ATAPE on `min`.
pub fn latin_square(min: &Min) -> LatinSquare {
    build_latin_square(&first_row(min)).expect("n = 2^m with m >= 1")
}

impl LatinSquare {
    /// Number of rows (= columns).
    pub fn n(&self) -> usize {
        self.rows.len()
    }

    /// Row `i` as a permutation.
    pub fn row(&self, i: usize) -> Permutation {
        Permutation::new(self.rows[i].clone()).expect("rows of a Latin square are permutations")
    }

    /// Column `j`: PE `j`'s destinations in frame order.
    pub fn column(&self, j: usize) -> Vec<usize> {
        self.rows.iter().map(|r| r[j]).collect()
    }

    /// Checks the Latin property: square, every row and every column a permutation
    /// of `0..n`. Fails naming the first row or column that is not.
    pub fn check_latin(&self) -> Result<(), MinError> {
        let n = self.n();
        let is_perm = |it: &mut dyn Iterator<Item = usize>| {
            let mut seen = vec![false; n];
            let mut count = 0;
            for x in it {
                if x >= n || seen[x] {
                    return false;
                }
                seen[x] = true;
                count += 1;
            }
            count == n
        };
        for (i, r) in self.rows.iter().enumerate() {
            if !is_perm(&mut r.iter().copied()) {
                return Err(MinError::NotLatin {
                    what: format!("row {i}"),
                });
            }
        }
        for j in 0..n {
            if !is_perm(&mut self.rows.iter().map(|r| r[j])) {
                return Err(MinError::NotLatin {
                    what: format!("column {j}"),
                });
            }
        }
        Ok(())
    }
}

/// Gray code: `gray(i) = i ^ (i >> 1)`.
pub fn gray(i: usize) -> usize {
    i ^ (i >> 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::min::route::settings_label;
    use crate::min::Network;

    #[test]
    fn basic_list_is_the_gray_code_flip_sequence() {
        assert_eq!(build_basic_list(3), vec![1, 2, 1, 3, 1, 2, 1]);
        for k in 1..=10 {
            let bl = build_basic_list(k);
            assert_eq!(bl.len(), (1 << k) - 1);
            for (i, &b) in bl.iter().enumerate() {
                assert_eq!(1 << (b - 1), gray(i + 1) ^ gray(i));
            }
        }
    }

    #[test]
    fn first_rows_are_reversal_identity_and_rotation() {
        for m in 1..=8u32 {
            let n = 1usize << m;
            let rev = |a: usize| (0..m).fold(0, |acc, b| acc | (((a >> b) & 1) << (m - 1 - b)));
            let rotl = |a: usize| ((a << 1) | (a >> (m - 1))) & (n - 1);
            let rotr = |a: usize| ((a >> 1) | ((a & 1) << (m - 1))) & (n - 1);
            let row = |net| first_row(&Min::new(net, m).unwrap());
            let (b, o, c) = (
                row(Network::Baseline),
                row(Network::Omega),
                row(Network::Cube),
            );
            let (rb, ro, rc) = (
                row(Network::ReverseBaseline),
                row(Network::ReverseOmega),
                row(Network::ReverseCube),
            );
            for a in 0..n {
                assert_eq!(b.dst(a), rev(a));
                assert_eq!(o.dst(a), a);
                assert_eq!(c.dst(a), rotl(a));
                assert_eq!(rb.dst(a), rev(a));
                assert_eq!(ro.dst(a), a);
                assert_eq!(rc.dst(a), rotr(a));
            }
        }
    }

    #[test]
    fn squares_are_latin_and_rows_admissible_with_uniform_settings() {
        for net in Network::ALL {
            for m in 1..=6 {
                let min = Min::new(net, m).unwrap();
                let sq = latin_square(&min);
                assert_eq!(sq.n(), min.n());
                sq.check_latin().unwrap();
                let mut labels = std::collections::HashSet::new();
                for i in 0..sq.n() {
                    let t = min.transit(&sq.row(i));
                    assert!(t.conflicts.is_empty(), "{net} m={m} row {i}");
                    assert!(min.check(&sq.row(i)).is_admissible());
                    // 004 §5: each row is realized by setting whole stages to I or φ1.
                    let u = t.settings.as_uniform().expect("uniform stage settings");
                    assert!(labels.insert(settings_label(&u)));
                }
                assert_eq!(labels.len(), min.n());
            }
        }
    }

    #[test]
    fn non_latin_is_reported() {
        let sq = LatinSquare {
            rows: vec![vec![0, 1], vec![0, 1]],
        };
        assert_eq!(
            sq.check_latin().unwrap_err().to_string(),
            "not a Latin square: column 0 repeats an entry or misses one"
        );
        assert!(build_latin_square(&Permutation::identity(6)).is_err());
    }
}
