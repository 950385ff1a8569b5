//! Key comparison for R1's incoming claims (`docs/routing.md` §3.2): key `(l−1−h, s)`,
//! smallest first. The switch feeds `(¬h, s)` so that an unsigned comparison gives that
//! order (higher LCA level first, then lower source address).

use rust_hdl::prelude::*;

/// `lt[i·n + j]` = `en` and key `i` < key `j`, for `n` keys of `kb` bits (key `i` at bits
/// `i·kb ..`, LSB first). Each pair is scanned from the most significant bit.
#[derive(LogicBlock)]
pub struct KeyCompare {
    /// Compare at all (R1 `DOWN` steps); otherwise every `lt` is 0.
    pub en: Signal<In, Bit>,
    /// The keys.
    pub key: Vec<Signal<In, Bit>>,
    /// The strict order.
    pub lt: Vec<Signal<Out, Bit>>,
    decided: Signal<Local, Bit>,
    less: Signal<Local, Bit>,
    _n: usize,
    _kb: usize,
}

impl KeyCompare {
    /// A comparator of `n` keys of `kb` bits.
    pub fn new(n: usize, kb: usize) -> Self {
        KeyCompare {
            en: Default::default(),
            key: (0..n * kb).map(|_| Default::default()).collect(),
            lt: (0..n * n).map(|_| Default::default()).collect(),
            decided: Default::default(),
            less: Default::default(),
            _n: n,
            _kb: kb,
        }
    }
}

impl Logic for KeyCompare {
    #[hdl_gen]
    fn update(&mut self) {
        self.decided.next = false;
        self.less.next = false;
        for n in self._n..(self._n + 1) {
            for kb in self._kb..(self._kb + 1) {
                for top in (self._kb - 1)..self._kb {
                    for i in 0..self._n {
                        for j in 0..self._n {
                            self.decided.next = false;
                            self.less.next = false;
                            for b in 0..self._kb {
                                if !self.decided.val()
                                    & (self.key[i * kb + top - b].val()
                                        ^ self.key[j * kb + top - b].val())
                                {
                                    self.decided.next = true;
                                    self.less.next = self.key[j * kb + top - b].val();
                                }
                            }
                            self.lt[i * n + j].next = self.en.val() & self.less.val();
                        }
                    }
                }
            }
        }
    }
}
