//! Bit-level bookkeeping for module validation: the signals of a module laid out in one
//! bit space, and bit lists written as Verilog ranges for messages.

use std::collections::HashMap;

/// What kind of signal a name denotes inside a module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SigKind {
    /// Input port: driven from outside.
    Input,
    /// Output port: must be driven inside.
    Output,
    /// Wire.
    Net,
    /// Register (loaded by the clocked process only).
    Reg,
    /// Temporary of the process (a value within one pass, not a flip-flop).
    Temp,
    /// Memory (its words loaded and read by the clocked process only).
    Memory,
}

impl SigKind {
    pub(super) fn noun(self) -> &'static str {
        match self {
            SigKind::Input => "input port",
            SigKind::Output => "output port",
            SigKind::Net => "wire",
            SigKind::Reg => "register",
            SigKind::Temp => "temporary",
            SigKind::Memory => "memory",
        }
    }
}

/// One signal and where its bits start in the module's bit space.
#[derive(Debug, Clone)]
pub(super) struct Sig<'a> {
    pub name: &'a str,
    pub width: usize,
    pub kind: SigKind,
    pub offset: usize,
}

/// The ports and nets of one module; bit `b` of signal `s` is global bit `s.offset + b`.
#[derive(Debug, Default)]
pub(super) struct SigTable<'a> {
    pub sigs: Vec<Sig<'a>>,
    pub by_name: HashMap<&'a str, usize>,
    pub total_bits: usize,
}

impl<'a> SigTable<'a> {
    /// Adds a signal unless the name is taken; returns the index of the existing one if so.
    pub fn add(&mut self, name: &'a str, width: usize, kind: SigKind) -> Result<usize, usize> {
        if let Some(&i) = self.by_name.get(name) {
            return Err(i);
        }
        let i = self.sigs.len();
        self.sigs.push(Sig {
            name,
            width,
            kind,
            offset: self.total_bits,
        });
        self.by_name.insert(name, i);
        self.total_bits += width;
        Ok(i)
    }

    /// The signal that owns global bit `bit`.
    pub fn owner(&self, bit: usize) -> usize {
        self.sigs.partition_point(|s| s.offset + s.width <= bit)
    }
}

/// Bit positions written as Verilog ranges, highest first: `[7:4], [1]`.
pub(super) fn ranges(bits: &[usize]) -> String {
    let mut sorted = bits.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    sorted.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let hi = sorted[i];
        let mut lo = hi;
        while i + 1 < sorted.len() && sorted[i + 1] + 1 == lo {
            i += 1;
            lo = sorted[i];
        }
        parts.push(if hi == lo {
            format!("[{hi}]")
        } else {
            format!("[{hi}:{lo}]")
        });
        i += 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_ranges() {
        assert_eq!(ranges(&[0]), "[0]");
        assert_eq!(ranges(&[0, 1, 2, 3]), "[3:0]");
        assert_eq!(ranges(&[7, 5, 4, 1, 0]), "[7], [5:4], [1:0]");
    }

    #[test]
    fn finds_owners() {
        let mut t = SigTable::default();
        t.add("a", 1, SigKind::Input).unwrap();
        t.add("b", 4, SigKind::Net).unwrap();
        assert_eq!(t.add("a", 2, SigKind::Net), Err(0));
        assert_eq!(t.owner(0), 0);
        assert_eq!(t.owner(1), 1);
        assert_eq!(t.owner(4), 1);
    }
}
