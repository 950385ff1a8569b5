//! The golden model's state as the RTL's word-level values (`docs/protocol.md` §11): the
//! bindings that turn `SwitchModel` outputs, crosspoints, winners, arbiter registers and
//! step outcomes into the vectors the co-simulation compares.

use lcanet_hdl::lca::Layout;
use lcanet_sim::lcan::cycle::{Claim, Group, SlotOutcome, StepOutcome, SwitchModel};

/// A bit vector, 32-bit words least significant first, reused from bit-time to bit-time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bits {
    words: Vec<u32>,
    width: usize,
}

impl Bits {
    /// `width` zero bits.
    pub fn new(width: usize) -> Self {
        Bits {
            words: vec![0; width.div_ceil(32).max(1)],
            width,
        }
    }

    /// Width in bits.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Every bit to zero.
    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    /// ORs the low `width ≤ 64` bits of `value` in at bit `lsb`.
    pub fn put(&mut self, lsb: usize, value: u64, width: usize) {
        for i in 0..width {
            if value >> i & 1 == 1 {
                self.set(lsb + i);
            }
        }
    }

    /// Sets bit `i`.
    pub fn set(&mut self, i: usize) {
        debug_assert!(i < self.width, "bit {i} of a {}-bit vector", self.width);
        self.words[i / 32] |= 1 << (i % 32);
    }

    /// Bit `i`.
    pub fn get(&self, i: usize) -> bool {
        self.words
            .get(i / 32)
            .is_some_and(|w| w >> (i % 32) & 1 == 1)
    }

    /// The words.
    pub fn words(&self) -> &[u32] {
        &self.words
    }

    /// The words, to read a signal into.
    pub fn words_mut(&mut self) -> &mut [u32] {
        &mut self.words
    }
}

/// `c` and `d`: output lanes of `C(0..d)` then `D(0..u)`.
pub fn outputs(model: &SwitchModel, lay: &Layout, c: &mut Bits, d: &mut Bits) {
    c.clear();
    d.clear();
    for x in 0..lay.d {
        c.put(x * lay.w, model.output(x), lay.w);
    }
    for k in 0..lay.u {
        d.put(k * lay.w, model.output(lay.d + k), lay.w);
    }
}

/// The four crosspoint groups `xp_ac`, `xp_ad`, `xp_bc`, `xp_bd` (row = input).
pub fn crosspoints(model: &SwitchModel, out: &mut [Bits; 4]) {
    for (g, bits) in [Group::AC, Group::AD, Group::BC, Group::BD]
        .into_iter()
        .zip(out.iter_mut())
    {
        bits.clear();
        for (i, closed) in model.crosspoints().group(g).into_iter().enumerate() {
            if closed {
                bits.set(i);
            }
        }
    }
}

/// `win`: row `x` is `(1, h, s, t)` laid out like a `P1` packet, or zero.
pub fn winners(model: &SwitchModel, lay: &Layout, out: &mut Bits) {
    out.clear();
    for (x, c) in model.winners().iter().enumerate() {
        if let Some(Claim { h, s, t }) = *c {
            let base = x * lay.p1;
            out.set(base + lay.p1 - 1);
            out.put(base + 2 * lay.ab, h, lay.hb);
            out.put(base + lay.ab, s, lay.ab);
            out.put(base, t, lay.ab);
        }
    }
}

/// The UP arbiter's outcome registers `up_gnt`, `up_rej`, `up_ch` after a commit.
pub fn up_outcome(o: &StepOutcome, lay: &Layout, out: &mut [Bits; 3]) {
    out.iter_mut().for_each(Bits::clear);
    for (x, so) in o.up.iter().enumerate() {
        match so {
            SlotOutcome::Idle => {}
            SlotOutcome::Rejected => out[1].set(x),
            SlotOutcome::Granted(ws) => {
                out[0].set(x);
                if let Some(k) = ws[0] {
                    out[2].set(x * lay.u + k);
                }
            }
        }
    }
}

/// The DOWN arbiter's outcome registers `dn_gnt`, `dn_rej`, `dn_ch0` (rows of slots `S`,
/// `X`: the up-wire), `dn_ch1` (rows of slots `X`, `D`: the down-wire) after a commit.
pub fn dn_outcome(o: &StepOutcome, lay: &Layout, out: &mut [Bits; 4]) {
    out.iter_mut().for_each(Bits::clear);
    let (d, u) = (lay.d, lay.u);
    for (s, so) in o.down.iter().enumerate() {
        match so {
            SlotOutcome::Idle => {}
            SlotOutcome::Rejected => out[1].set(s),
            SlotOutcome::Granted(ws) => {
                out[0].set(s);
                if let Some(x) = ws[0] {
                    out[2].set(s * d + x);
                }
                if let Some(x) = ws[1] {
                    out[3].set((s - u) * d + x);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams, SwitchTopology};

    #[test]
    fn bits_put_across_words() {
        let mut b = Bits::new(70);
        b.put(30, 0b1011, 4);
        assert_eq!(b.words(), &[0xC000_0000, 0x2, 0]);
        assert!(b.get(30) && b.get(31) && !b.get(32) && b.get(33));
        b.clear();
        assert_eq!(b.words(), &[0, 0, 0]);
    }

    #[test]
    fn down_outcome_rows_follow_the_slot_numbering() {
        // d = 2, u = 1: slots S(0) = 0, X(0) = 1, X(1) = 2, D(0) = 3.
        let p = SwitchParams::new(2, 1, 1, 3, SwitchTopology::Tree, ArbiterPolicy::Fixed).unwrap();
        let lay = Layout::new(p);
        let mut o = StepOutcome::idle(2, 1);
        o.down[0] = SlotOutcome::Granted([Some(1), None]); // S(0) on up-wire A(1)
        o.down[2] = SlotOutcome::Granted([Some(0), Some(1)]); // X(1): A(0) -> C(1)
        o.down[3] = SlotOutcome::Rejected; // D(0)
        o.up[1] = SlotOutcome::Granted([Some(0), None]);
        let mut dn = [Bits::new(4), Bits::new(4), Bits::new(6), Bits::new(6)];
        dn_outcome(&o, &lay, &mut dn);
        assert_eq!(dn[0].words()[0], 0b0101, "granted: S(0), X(1)");
        assert_eq!(dn[1].words()[0], 0b1000, "rejected: D(0)");
        // dn_ch0 rows S(0), X(0), X(1): S(0) took A(1), X(1) took A(0).
        assert_eq!(dn[2].words()[0], 0b01_00_10);
        // dn_ch1 rows X(0), X(1), D(0): X(1) took C(1).
        assert_eq!(dn[3].words()[0], 0b00_10_00);
        let mut up = [Bits::new(2), Bits::new(2), Bits::new(2)];
        up_outcome(&o, &lay, &mut up);
        assert_eq!(
            (up[0].words()[0], up[1].words()[0], up[2].words()[0]),
            (0b10, 0, 0b10)
        );
    }
}
