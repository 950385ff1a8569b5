//! The bit-level half of structural validation: expressions flattened to bits (with the
//! checks on names, slices, constants and concatenations), drivers and readers recorded per
//! bit, then undriven, multiply driven and unread bits and loops reported.

use super::bits::{ranges, SigKind};
use super::loops::find_cycle;
use super::structural::{Checker, Driver};
use crate::netlist::error::{Site, ValidationError};
use crate::netlist::expr::{significant_bits, Expr};
use std::collections::BTreeMap;

impl<'a> Checker<'a> {
    /// The global bits of `e`, least significant first (`None` for constant bits).
    pub(super) fn flatten(
        &mut self,
        e: &Expr,
        site: &dyn Fn() -> Site,
    ) -> Option<Vec<Option<u32>>> {
        match e {
            Expr::Signal(name) => {
                let s = self.lookup(name, site)?;
                Some((s.0..s.0 + s.1).map(|b| Some(b as u32)).collect())
            }
            Expr::Slice { signal, msb, lsb } => {
                let (offset, width) = self.lookup(signal, site)?;
                if msb < lsb || *msb >= width {
                    self.err(ValidationError::BadSlice {
                        module: self.module.to_owned(),
                        site: site(),
                        name: signal.clone(),
                        msb: *msb,
                        lsb: *lsb,
                        width,
                    });
                    return None;
                }
                Some(
                    (offset + lsb..=offset + msb)
                        .map(|b| Some(b as u32))
                        .collect(),
                )
            }
            Expr::Const { width, words } => {
                let needed = significant_bits(words);
                if *width == 0 {
                    self.err(ValidationError::ZeroWidth {
                        module: self.module.to_owned(),
                        kind: "constant",
                        name: format!("{} ({})", e, site()),
                    });
                    None
                } else if needed > *width {
                    let value = words
                        .iter()
                        .rev()
                        .map(|w| format!("{w:#x}"))
                        .collect::<Vec<_>>();
                    self.err(ValidationError::ConstantTooWide {
                        module: self.module.to_owned(),
                        site: site(),
                        value: value.join(" "),
                        needed,
                        width: *width,
                    });
                    None
                } else {
                    Some(vec![None; *width])
                }
            }
            Expr::Concat(parts) => {
                if parts.is_empty() {
                    self.err(ValidationError::EmptyConcat {
                        module: self.module.to_owned(),
                        site: site(),
                    });
                    return None;
                }
                let mut bits = Vec::new();
                let mut ok = true;
                for p in parts.iter().rev() {
                    match self.flatten(p, site) {
                        Some(b) => bits.extend(b),
                        None => ok = false,
                    }
                }
                ok.then_some(bits)
            }
        }
    }

    /// `(offset, width)` of a signal, or an error.
    fn lookup(&mut self, name: &str, site: &dyn Fn() -> Site) -> Option<(usize, usize)> {
        match self.table.by_name.get(name) {
            Some(&i) => Some((self.table.sigs[i].offset, self.table.sigs[i].width)),
            None => {
                self.err(ValidationError::UnknownSignal {
                    module: self.module.to_owned(),
                    site: site(),
                    name: name.to_owned(),
                });
                None
            }
        }
    }

    pub(super) fn mark_read(&mut self, bits: &[Option<u32>]) {
        for b in bits.iter().flatten() {
            self.read[*b as usize] = true;
        }
    }

    pub(super) fn drive(&mut self, bits: &[Option<u32>], driver: Driver<'a>) {
        self.drivers.push(driver);
        let id = self.drivers.len() as u32;
        let mut into_input: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        let mut twice: BTreeMap<(usize, u32), Vec<usize>> = BTreeMap::new();
        for &b in bits.iter().flatten() {
            let b = b as usize;
            let sig = self.table.owner(b);
            let bit = b - self.table.sigs[sig].offset;
            if self.table.sigs[sig].kind == SigKind::Input {
                into_input.entry(sig).or_default().push(bit);
            } else if self.driver[b] != 0 {
                twice.entry((sig, self.driver[b])).or_default().push(bit);
            } else {
                self.driver[b] = id;
            }
        }
        for (sig, bits) in into_input {
            self.err(ValidationError::DrivesInput {
                module: self.module.to_owned(),
                port: self.table.sigs[sig].name.to_owned(),
                bits: ranges(&bits),
                driver: self.describe(id),
            });
        }
        for ((sig, first), bits) in twice {
            let s = &self.table.sigs[sig];
            self.err(ValidationError::MultipleDrivers {
                module: self.module.to_owned(),
                kind: s.kind.noun(),
                name: s.name.to_owned(),
                bits: ranges(&bits),
                first: self.describe(first),
                second: self.describe(id),
            });
        }
    }

    fn describe(&self, id: u32) -> String {
        match &self.drivers[id as usize - 1] {
            Driver::Pin { instance, port } => format!("instance `{instance}` port `{port}`"),
            Driver::Assign(i) => format!("assign #{i}"),
        }
    }

    pub(super) fn completeness(&mut self) {
        let mut found = Vec::new();
        for (i, sig) in self.table.sigs.iter().enumerate() {
            let bits = sig.offset..sig.offset + sig.width;
            if sig.kind != SigKind::Input {
                let undriven: Vec<usize> = bits
                    .clone()
                    .filter(|&b| self.driver[b] == 0)
                    .map(|b| b - sig.offset)
                    .collect();
                if !undriven.is_empty() {
                    found.push(ValidationError::Undriven {
                        module: self.module.to_owned(),
                        kind: sig.kind.noun(),
                        name: sig.name.to_owned(),
                        width: sig.width,
                        bits: ranges(&undriven),
                    });
                }
            }
            if sig.kind != SigKind::Output && !self.unread_ok[i] {
                let unread: Vec<usize> = bits
                    .filter(|&b| !self.read[b])
                    .map(|b| b - sig.offset)
                    .collect();
                if !unread.is_empty() {
                    found.push(ValidationError::Unread {
                        module: self.module.to_owned(),
                        kind: sig.kind.noun(),
                        name: sig.name.to_owned(),
                        width: sig.width,
                        bits: ranges(&unread),
                    });
                }
            }
        }
        self.errs.extend(found);
    }

    pub(super) fn loops(&mut self) {
        if let Some(cycle) = find_cycle(self.table.total_bits, &self.edges) {
            let path = cycle.into_iter().map(|b| self.table.bit_name(b)).collect();
            self.errs.push(ValidationError::CombinationalLoop {
                module: self.module.to_owned(),
                path,
            });
        }
    }
}
