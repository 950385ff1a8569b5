//! The report line (`docs/selftest.md` §5): four 32-bit counters — rounds, the ratio's
//! numerator, a third figure, errors — printed as
//! `<PASS|FAIL> <rounds> <unit>, <ratio> <ratio label>, <c1> <name1>, <c2> <name2>,
//! <errors> errors\r\n`. Each family names its counters ([`LineFormat`]); the hardware's
//! template ROM and the golden model's text are both spelled from [`LineFormat::pieces`].

use serde::ser::SerializeMap;

/// What a family's line calls its counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineFormat {
    /// Counter 0, the rounds (`perms`, `exchanges`).
    pub rounds: &'static str,
    /// Label of the ratio `counter 1 / counter 0` (`passes/perm`).
    pub ratio: &'static str,
    /// Counters 1 and 2 (`passes`, `bit-times`).
    pub names: [&'static str; 2],
}

/// One piece of the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// The status word, `PASS` or `FAIL`.
    Status,
    /// Literal text.
    Text(String),
    /// Counter `k` in decimal, no leading zeros.
    Number(usize),
    /// `⌊100 · counter 1 / counter 0⌋` with a `.` before its last two digits.
    Ratio,
}

impl LineFormat {
    /// The line, piece by piece.
    pub fn pieces(&self) -> Vec<Piece> {
        let t = |s: String| Piece::Text(s);
        vec![
            Piece::Status,
            t(" ".into()),
            Piece::Number(0),
            t(format!(" {}, ", self.rounds)),
            Piece::Ratio,
            t(format!(" {}, ", self.ratio)),
            Piece::Number(1),
            t(format!(" {}, ", self.names[0])),
            Piece::Number(2),
            t(format!(" {}, ", self.names[1])),
            Piece::Number(3),
            t(" errors\r\n".into()),
        ]
    }

    /// The counters' names, as JSON keys (`-` spelled `_`).
    pub fn keys(&self) -> [String; 4] {
        let key = |s: &str| s.replace('-', "_");
        [
            key(self.rounds),
            key(self.names[0]),
            key(self.names[1]),
            "errors".to_string(),
        ]
    }
}

/// The self-test's counters (each 32 bits, wrapping), as the hardware's `cnt_*`
/// registers: `[rounds, counter 1, counter 2, errors]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counters {
    /// Their names (for JSON).
    pub format: LineFormat,
    /// The values.
    pub values: [u32; 4],
}

impl Counters {
    /// All zero (power-up).
    pub fn new(format: LineFormat) -> Self {
        Counters {
            format,
            values: [0; 4],
        }
    }

    /// Counter 0: rounds routed and checked.
    pub fn rounds(&self) -> u32 {
        self.values[0]
    }

    /// Counter 3: rounds the checker failed.
    pub fn errors(&self) -> u32 {
        self.values[3]
    }

    /// After one more round that added `add` to counters 1 and 2.
    pub fn tally(&mut self, add: [u32; 2], bad: bool) {
        let v = &mut self.values;
        v[0] = v[0].wrapping_add(1);
        v[1] = v[1].wrapping_add(add[0]);
        v[2] = v[2].wrapping_add(add[1]);
        v[3] = v[3].wrapping_add(u32::from(bad));
    }
}

impl serde::Serialize for Counters {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(4))?;
        for (k, v) in self.format.keys().iter().zip(self.values) {
            map.serialize_entry(k, &v)?;
        }
        map.end()
    }
}

/// `⌊100 · counter 1 / counter 0⌋` modulo 2³² (all ones when counter 0 is 0, as the
/// hardware's restoring divider gives).
pub fn ratio_x100(c: &Counters) -> u32 {
    if c.values[0] == 0 {
        u32::MAX
    } else {
        (u64::from(c.values[1]) * 100 / u64::from(c.values[0])) as u32
    }
}

/// The text of a report line: `PASS` while the error counter is 0, else `FAIL`, then the
/// counters in decimal without leading zeros and the ratio with two decimals (truncated).
pub fn report_line(c: &Counters) -> String {
    let mut s = String::new();
    for piece in c.format.pieces() {
        match piece {
            Piece::Status => s.push_str(if c.errors() == 0 { "PASS" } else { "FAIL" }),
            Piece::Text(t) => s.push_str(&t),
            Piece::Number(k) => s.push_str(&c.values[k].to_string()),
            Piece::Ratio => {
                let q = ratio_x100(c);
                s.push_str(&format!("{}.{:02}", q / 100, q % 100));
            }
        }
    }
    s
}
