//! Permutations and partial permutations of PEs: validation, the text file format, and
//! the generators shared by every system.
//!
//! # File format
//! Whitespace-separated destinations in PE order: the `i`-th token is where PE `i`
//! sends. `#` starts a comment that runs to the end of the line. In a *partial*
//! permutation a token `-` means "this PE sends nothing". Every violation is reported
//! with the PE it concerns: a duplicate destination names both PEs, a gap names the
//! destination nobody sends to, an out-of-range value names the PE and the range.

use rand::seq::SliceRandom;
use rand::Rng;
use std::fmt;

/// Why a list of destinations is not a (partial) permutation of `0..n`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PermError {
    /// The list has the wrong length.
    #[error("expected {expected} destinations (one per PE), found {found}")]
    WrongLength {
        /// Number of PEs.
        expected: usize,
        /// Number of destinations given.
        found: usize,
    },
    /// A destination is not in `0..n`.
    #[error("PE {pe}: destination {dst} is out of range 0..{n}")]
    OutOfRange {
        /// The sending PE.
        pe: usize,
        /// Its destination.
        dst: usize,
        /// Number of PEs.
        n: usize,
    },
    /// Two PEs send to the same destination.
    #[error("PE {second} and PE {first} both send to {dst} (a permutation is one-to-one)")]
    Duplicate {
        /// The first PE (in PE order) sending to `dst`.
        first: usize,
        /// The second PE sending to `dst`.
        second: usize,
        /// The shared destination.
        dst: usize,
    },
    /// Some destination receives from nobody (full permutations only).
    #[error("no PE sends to {dst} (a permutation is onto)")]
    Gap {
        /// The destination that nobody sends to.
        dst: usize,
    },
    /// A token of a permutation file is not a destination.
    #[error("line {line}: token '{token}' for PE {pe} is not a non-negative integer{hint}")]
    BadToken {
        /// 1-based line number.
        line: usize,
        /// The PE the token belongs to.
        pe: usize,
        /// The offending token.
        token: String,
        /// Extra advice.
        hint: &'static str,
    },
    /// The network is empty.
    #[error("a permutation needs at least one PE")]
    Empty,
}

/// A bijection of `0..n`: PE `i` sends to `dst(i)`.
#[derive(Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "Vec<usize>", into = "Vec<usize>")]
pub struct Permutation {
    dst: Vec<usize>,
}

/// An injective partial map of `0..n`: PE `i` sends to `dst(i)` or nothing.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PartialPermutation {
    dst: Vec<Option<usize>>,
}

fn check_injective(n: usize, dst: &[Option<usize>]) -> Result<(), PermError> {
    if n == 0 {
        return Err(PermError::Empty);
    }
    if dst.len() != n {
        return Err(PermError::WrongLength {
            expected: n,
            found: dst.len(),
        });
    }
    let mut sender = vec![usize::MAX; n];
    for (pe, d) in dst.iter().enumerate() {
        let Some(d) = *d else { continue };
        if d >= n {
            return Err(PermError::OutOfRange { pe, dst: d, n });
        }
        if sender[d] != usize::MAX {
            return Err(PermError::Duplicate {
                first: sender[d],
                second: pe,
                dst: d,
            });
        }
        sender[d] = pe;
    }
    Ok(())
}

impl Permutation {
    /// Validates `dst` as a permutation of `0..dst.len()`.
    pub fn new(dst: Vec<usize>) -> Result<Self, PermError> {
        let n = dst.len();
        let opt: Vec<Option<usize>> = dst.iter().map(|&d| Some(d)).collect();
        check_injective(n, &opt)?;
        // Injective on a finite set of size n into 0..n is onto; a gap is impossible here,
        // but partial inputs converted with `PartialPermutation::into_full` can have one.
        Ok(Self { dst })
    }

    /// The identity on `n` PEs.
    pub fn identity(n: usize) -> Self {
        Self {
            dst: (0..n).collect(),
        }
    }

    /// The transpose-like permutation of `n` PEs: with `r` the largest divisor of `n` with
    /// `r² ≤ n` and `c = n / r`, PE `i·c + j` (row `i`, column `j` of an `r × c` matrix in
    /// row-major order) sends to `j·r + i`. For `n = 4^k` this is the matrix transpose
    /// (the high and low halves of the address bits swapped); for `n = 2·4^k` a
    /// rectangular one.
    pub fn transpose(n: usize) -> Self {
        let r = (1..=n)
            .take_while(|r| r * r <= n)
            .filter(|r| n.is_multiple_of(*r))
            .last()
            .unwrap_or(1);
        let c = n / r;
        Self {
            dst: (0..n).map(|p| (p % c) * r + p / c).collect(),
        }
    }

    /// A uniformly random permutation of `n` PEs.
    pub fn random<R: Rng + ?Sized>(n: usize, rng: &mut R) -> Self {
        let mut dst: Vec<usize> = (0..n).collect();
        dst.shuffle(rng);
        Self { dst }
    }

    /// Parses the file format described in the module documentation (no `-` tokens).
    pub fn parse(text: &str, n: usize) -> Result<Self, PermError> {
        PartialPermutation::parse(text, n)?.into_full()
    }

    /// Number of PEs.
    pub fn len(&self) -> usize {
        self.dst.len()
    }

    /// Always false: a permutation has at least one PE.
    pub fn is_empty(&self) -> bool {
        self.dst.is_empty()
    }

    /// Destination of PE `pe`.
    pub fn dst(&self, pe: usize) -> usize {
        self.dst[pe]
    }

    /// Destinations in PE order.
    pub fn as_slice(&self) -> &[usize] {
        &self.dst
    }

    /// The inverse permutation: `inverse().dst(q)` is the PE that sends to `q`.
    pub fn inverse(&self) -> Self {
        let mut inv = vec![0; self.dst.len()];
        for (p, &q) in self.dst.iter().enumerate() {
            inv[q] = p;
        }
        Self { dst: inv }
    }

    /// As a partial permutation in which every PE sends.
    pub fn to_partial(&self) -> PartialPermutation {
        PartialPermutation {
            dst: self.dst.iter().map(|&d| Some(d)).collect(),
        }
    }

    /// The file format: one line, destinations separated by spaces.
    pub fn to_text(&self) -> String {
        let mut s = self
            .dst
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        s.push('\n');
        s
    }
}

impl TryFrom<Vec<usize>> for Permutation {
    type Error = PermError;
    fn try_from(v: Vec<usize>) -> Result<Self, PermError> {
        Self::new(v)
    }
}

impl From<Permutation> for Vec<usize> {
    fn from(p: Permutation) -> Self {
        p.dst
    }
}

impl fmt::Debug for Permutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Permutation{:?}", self.dst)
    }
}

impl PartialPermutation {
    /// Validates `dst` as an injective partial map of `0..dst.len()`.
    pub fn new(dst: Vec<Option<usize>>) -> Result<Self, PermError> {
        check_injective(dst.len(), &dst)?;
        Ok(Self { dst })
    }

    /// Parses the file format described in the module documentation; `-` is allowed.
    pub fn parse(text: &str, n: usize) -> Result<Self, PermError> {
        let mut dst = Vec::new();
        for (lineno, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            for token in line.split_whitespace() {
                let pe = dst.len();
                if token == "-" {
                    dst.push(None);
                    continue;
                }
                match token.parse::<usize>() {
                    Ok(d) => dst.push(Some(d)),
                    Err(_) => {
                        return Err(PermError::BadToken {
                            line: lineno + 1,
                            pe,
                            token: token.to_string(),
                            hint: if token.starts_with('-') {
                                " (use '-' alone for a PE that sends nothing)"
                            } else {
                                ""
                            },
                        })
                    }
                }
            }
        }
        if dst.len() != n {
            return Err(PermError::WrongLength {
                expected: n,
                found: dst.len(),
            });
        }
        Self::new(dst)
    }

    /// Number of PEs.
    pub fn len(&self) -> usize {
        self.dst.len()
    }

    /// Always false: a partial permutation has at least one PE.
    pub fn is_empty(&self) -> bool {
        self.dst.is_empty()
    }

    /// Destination of PE `pe`, if it sends.
    pub fn dst(&self, pe: usize) -> Option<usize> {
        self.dst[pe]
    }

    /// Destinations in PE order.
    pub fn as_slice(&self) -> &[Option<usize>] {
        &self.dst
    }

    /// The `(source, destination)` pairs in source order.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.dst
            .iter()
            .enumerate()
            .filter_map(|(s, d)| d.map(|d| (s, d)))
    }

    /// Number of PEs that send.
    pub fn senders(&self) -> usize {
        self.dst.iter().filter(|d| d.is_some()).count()
    }

    /// Converts to a full permutation; fails naming the first silent PE or the first gap.
    pub fn into_full(self) -> Result<Permutation, PermError> {
        let n = self.dst.len();
        let mut hit = vec![false; n];
        let mut dst = Vec::with_capacity(n);
        for (pe, d) in self.dst.iter().enumerate() {
            match d {
                Some(d) => {
                    hit[*d] = true;
                    dst.push(*d);
                }
                None => {
                    return Err(PermError::BadToken {
                        line: 0,
                        pe,
                        token: "-".into(),
                        hint: " (every PE must send in a full permutation)",
                    })
                }
            }
        }
        if let Some(gap) = hit.iter().position(|h| !h) {
            return Err(PermError::Gap { dst: gap });
        }
        Ok(Permutation { dst })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::seeded;

    #[test]
    fn transpose_is_the_matrix_transpose() {
        let t = Permutation::transpose(16);
        // 4 × 4: PE 1 = (0,1) -> (1,0) = 4; PE 6 = (1,2) -> (2,1) = 9.
        assert_eq!((t.dst(1), t.dst(6), t.dst(0), t.dst(15)), (4, 9, 0, 15));
        let t = Permutation::transpose(32); // 4 × 8: PE i·8 + j -> j·4 + i
        assert_eq!((t.dst(1), t.dst(8), t.dst(31)), (4, 1, 31));
        assert_eq!(Permutation::transpose(2).as_slice(), &[0, 1]);
        assert_eq!(Permutation::transpose(1).as_slice(), &[0]);
        // A bijection at every size (the constructor would refuse anything else).
        for n in 1..200 {
            let t = Permutation::transpose(n);
            assert!(Permutation::new(t.as_slice().to_vec()).is_ok(), "n = {n}");
        }
    }

    #[test]
    fn parse_accepts_comments_and_newlines() {
        let p = Permutation::parse("# swap\n1 0\n3 2 # tail\n", 4).unwrap();
        assert_eq!(p.as_slice(), &[1, 0, 3, 2]);
    }

    #[test]
    fn errors_name_the_pe() {
        let e = Permutation::parse("0 1 1 2", 4).unwrap_err();
        assert_eq!(
            e,
            PermError::Duplicate {
                first: 1,
                second: 2,
                dst: 1
            }
        );
        assert!(e.to_string().contains("PE 2 and PE 1 both send to 1"));
        let e = Permutation::parse("0 1 9 2", 4).unwrap_err();
        assert_eq!(e.to_string(), "PE 2: destination 9 is out of range 0..4");
        let e = Permutation::parse("0 1 2", 4).unwrap_err();
        assert_eq!(
            e,
            PermError::WrongLength {
                expected: 4,
                found: 3
            }
        );
        let e = Permutation::parse("0 x 2 3", 4).unwrap_err();
        assert!(e.to_string().contains("token 'x' for PE 1"));
        let e = Permutation::parse("0 - 2 3", 4).unwrap_err();
        assert!(e.to_string().contains("PE 1"));
    }

    #[test]
    fn partial_allows_dash_and_rejects_duplicates() {
        let p = PartialPermutation::parse("- 0 - 1", 4).unwrap();
        assert_eq!(p.pairs().collect::<Vec<_>>(), vec![(1, 0), (3, 1)]);
        assert!(PartialPermutation::parse("1 1 - -", 4).is_err());
    }

    #[test]
    fn random_is_a_permutation_and_reproducible() {
        let a = Permutation::random(100, &mut seeded(3));
        let b = Permutation::random(100, &mut seeded(3));
        assert_eq!(a, b);
        assert!(Permutation::new(a.as_slice().to_vec()).is_ok());
        let inv = a.inverse();
        for p in 0..100 {
            assert_eq!(inv.dst(a.dst(p)), p);
        }
    }

    #[test]
    fn text_round_trip() {
        let p = Permutation::random(17, &mut seeded(9));
        assert_eq!(Permutation::parse(&p.to_text(), 17).unwrap(), p);
    }
}
