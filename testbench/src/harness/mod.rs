//! The comparison harness: the caller drives the RTL [`Model`] and its own golden model
//! bit-time by bit-time and asks the harness to compare named signals (top ports or internal
//! signals by hierarchical name, any width) with the golden values. The first difference is
//! returned as a [`Mismatch`] carrying everything needed to reproduce and inspect it, and the
//! VCD is flushed so it stays on disk complete up to that bit-time.
//!
//! The per-bit-time calls ([`Harness::check`], [`Harness::check_words`],
//! [`Harness::finish_bit_time`]) do not allocate: names are resolved by [`Harness::watch`]
//! and values go through a buffer sized once.

mod mismatch;

pub use mismatch::{Mismatch, RunInfo};

use crate::bridge::{BridgeError, Model, PortId, SignalId};
use crate::hex::{u64_to_words, words_to_hex_report};

/// A signal under comparison, resolved by [`Harness::watch`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Watch(u32);

#[derive(Debug, Clone, Copy)]
enum Source {
    Port(PortId),
    Signal(SignalId),
}

#[derive(Debug)]
struct WatchInfo {
    name: String,
    source: Source,
    width: u32,
    words: usize,
}

/// Counts for reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Bit-times finished with [`Harness::finish_bit_time`].
    pub bit_times: u64,
    /// Values compared (one per `check` call).
    pub compared_values: u64,
}

/// Compares an RTL model with golden values, bit-time by bit-time.
#[derive(Debug)]
pub struct Harness {
    model: Model,
    info: RunInfo,
    watches: Vec<WatchInfo>,
    actual: Vec<u32>,
    expected: Vec<u32>,
    bit_time: u64,
    stats: Stats,
}

impl Harness {
    /// A harness around `model`; `info` (parameters, seed) goes into every mismatch report.
    pub fn new(model: Model, info: RunInfo) -> Self {
        Harness {
            model,
            info,
            watches: Vec::new(),
            actual: vec![0; 2],
            expected: vec![0; 2],
            bit_time: 0,
            stats: Stats::default(),
        }
    }

    /// The model, to drive inputs and tick the clock.
    pub fn model(&mut self) -> &mut Model {
        &mut self.model
    }

    /// Gives the model back.
    pub fn into_model(self) -> Model {
        self.model
    }

    /// The current bit-time (0 until the first [`Harness::finish_bit_time`]).
    pub fn bit_time(&self) -> u64 {
        self.bit_time
    }

    /// Counts of bit-times and compared values so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The run's parameters and seed.
    pub fn info(&self) -> &RunInfo {
        &self.info
    }

    /// Resolves a signal to compare: a top port name (`count`), the same port written
    /// hierarchically (`counter.count`), or an internal signal (`top.lvl2_sw13.xp_sel_0`,
    /// which needs a model built with that signal in `ModelOptions::public`).
    pub fn watch(&mut self, name: &str) -> Result<Watch, BridgeError> {
        let top = self.model.top().to_string();
        let port_name = match name.split_once('.') {
            None => Some(name),
            Some((t, rest)) if t == top && !rest.contains('.') => Some(rest),
            _ => None,
        };
        let mut resolved = None;
        if let Some(p) = port_name {
            match self.model.port(p) {
                Ok(id) => {
                    let width = self.model.port_spec(id).map_or(1, |s| s.width);
                    resolved = Some((Source::Port(id), width, format!("{top}.{p}")));
                }
                Err(e) if !name.contains('.') => return Err(e),
                Err(_) => {}
            }
        }
        let (source, width, full) = match resolved {
            Some(r) => r,
            None => {
                let id = self.model.signal(name)?;
                let width = self.model.signal_width(id).unwrap_or(1);
                (Source::Signal(id), width, name.to_string())
            }
        };
        let words = crate::bridge::ports::words_for(width);
        if words > self.actual.len() {
            self.actual.resize(words, 0);
            self.expected.resize(words, 0);
        }
        self.watches.push(WatchInfo {
            name: full,
            source,
            width,
            words,
        });
        Ok(Watch((self.watches.len() - 1) as u32))
    }

    /// The hierarchical name and width of a watched signal.
    pub fn watched(&self, w: Watch) -> Option<(&str, u32)> {
        self.watches
            .get(w.0 as usize)
            .map(|i| (i.name.as_str(), i.width))
    }

    /// Compares a watched signal with `expected` (zero-extended to the signal's width).
    #[inline]
    pub fn check(&mut self, w: Watch, expected: u64) -> Result<(), Box<Mismatch>> {
        let (words, source) = self.watch_info(w)?;
        self.stats.compared_values += 1;
        if words <= 2 {
            let actual = match source {
                Source::Port(p) => self.model.get(p),
                Source::Signal(s) => self.model.read_signal(s),
            };
            if actual == expected {
                return Ok(());
            }
        }
        u64_to_words(expected, &mut self.expected[..2]);
        self.compare_buffers(w, 2)
    }

    /// Compares a watched signal with `expected` words (least significant first; missing
    /// words are zeros).
    #[inline]
    pub fn check_words(&mut self, w: Watch, expected: &[u32]) -> Result<(), Box<Mismatch>> {
        let (words, _) = self.watch_info(w)?;
        self.stats.compared_values += 1;
        let m = words.max(expected.len());
        if m > self.expected.len() {
            // Only reachable with an expected value longer than the signal (then reported).
            self.expected.resize(m, 0);
            self.actual.resize(m, 0);
        }
        self.expected[..expected.len()].copy_from_slice(expected);
        self.compare_buffers(w, expected.len())
    }

    /// Ends the current bit-time; the next checks belong to the next one.
    #[inline]
    pub fn finish_bit_time(&mut self) {
        self.bit_time += 1;
        self.stats.bit_times += 1;
    }

    fn watch_info(&self, w: Watch) -> Result<(usize, Source), Box<Mismatch>> {
        self.watches
            .get(w.0 as usize)
            .map(|i| (i.words, i.source))
            .ok_or_else(|| {
                Box::new(Mismatch::internal(
                    &self.info,
                    self.bit_time,
                    format!("watch {} does not belong to this harness", w.0),
                ))
            })
    }

    /// Reads the actual value and compares it with `self.expected[..n_exp]` (both
    /// zero-extended to a common length; the buffers are at least that long).
    fn compare_buffers(&mut self, w: Watch, n_exp: usize) -> Result<(), Box<Mismatch>> {
        let info = &self.watches[w.0 as usize];
        let m = info.words.max(n_exp);
        self.expected[n_exp..m].fill(0);
        self.actual[info.words..m].fill(0);
        let read = match info.source {
            Source::Port(p) => self.model.get_words(p, &mut self.actual[..info.words]),
            Source::Signal(s) => self
                .model
                .read_signal_words(s, &mut self.actual[..info.words]),
        };
        if let Err(e) = read {
            return Err(Box::new(Mismatch::internal(
                &self.info,
                self.bit_time,
                e.to_string(),
            )));
        }
        if self.actual[..m] == self.expected[..m] {
            return Ok(());
        }
        self.model.vcd_flush();
        Err(Box::new(Mismatch {
            bit_time: self.bit_time,
            signal: info.name.clone(),
            width: info.width,
            expected: words_to_hex_report(&self.expected[..m], info.width),
            actual: words_to_hex_report(&self.actual[..info.words], info.width),
            params: self.info.params_text(),
            seed: self.info.seed,
            vcd: self.model.vcd_path().map(|p| p.to_path_buf()),
            stats: self.stats,
        }))
    }
}
