//! The per-PE ATAPE unit (docs/min.md §3): holds the destination of the PE's current
//! message and sends its frame, tag then payload.
//!
//! - `dst`: loaded with `first` (the PE's first destination `a_{0,j}`) at `load`; at
//!   `next` (end of a frame) it becomes `dst ⊕ flip`, which walks column `j` of the
//!   Latin square exactly as Table 2 walks the rows (`flip` is `φ_k`'s bit).
//! - `tsr`: a copy of `dst` that rotates left by `rot` bits per header bit-time while
//!   bit `tap` goes out, so header position `p` carries destination bit
//!   `(tap - p·rot) mod m`, the bit stage `p` consumes (`sim::min::hw::TagShifter`).
//!   After the `m` header bits it is back to `dst`.
//! - `tx = (hdr ∧ tsr[tap]) ∨ (pay ∧ din)`: the wire into the network; 0 when idle.
//!
//! The unit is generic over `M = m` so that `first`, `dst` and `flip` are `M`-bit
//! buses; `tap` and the rotation are constants (one module per network kind and m).

use rust_hdl::prelude::*;

/// One PE's ATAPE unit for a network of `M` stages.
#[derive(Clone, Debug, LogicBlock)]
pub struct AtapeUnit<const M: usize> {
    /// The bit clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: `dst` and `tsr` to 0.
    pub reset: Signal<In, Bit>,
    /// Load `first` (the controller accepted `start`).
    pub load: Signal<In, Bit>,
    /// Advance to the next frame's destination.
    pub next: Signal<In, Bit>,
    /// A header (tag) bit-time.
    pub hdr: Signal<In, Bit>,
    /// A payload bit-time.
    pub pay: Signal<In, Bit>,
    /// The destination bit to flip at `next` (one-hot).
    pub flip: Signal<In, Bits<M>>,
    /// The PE's first destination, sampled at `load`.
    pub first: Signal<In, Bits<M>>,
    /// The payload bit the PE offers.
    pub din: Signal<In, Bit>,
    /// The bit sent into the network.
    pub tx: Signal<Out, Bit>,
    /// The destination of the current message.
    pub dst: Signal<Out, Bits<M>>,
    dst_r: DFF<Bits<M>>,
    tsr: DFF<Bits<M>>,
    tap: Constant<Bits<M>>,
    zero: Constant<Bits<M>>,
    rot_left: Constant<Bits<8>>,
    rot_right: Constant<Bits<8>>,
}

impl<const M: usize> AtapeUnit<M> {
    /// A unit sending bit `tap` of a register that rotates left by `rot` bits per
    /// header bit-time (`rot < M`, `tap < M`).
    pub fn new(tap: u32, rot: u32) -> Self {
        assert!(
            (tap as usize) < M && (rot as usize) < M,
            "tap/rot out of range"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            load: Default::default(),
            next: Default::default(),
            hdr: Default::default(),
            pay: Default::default(),
            flip: Default::default(),
            first: Default::default(),
            din: Default::default(),
            tx: Default::default(),
            dst: Default::default(),
            dst_r: Default::default(),
            tsr: Default::default(),
            tap: Constant::new(bits::<M>(1 << tap)),
            zero: Constant::new(bits::<M>(0)),
            rot_left: Constant::new(bits::<8>(u64::from(rot))),
            // Rotation = (x << rot) | (x >> (M - rot)); for rot = 0, x >> M is 0.
            rot_right: Constant::new(bits::<8>(M as u64 - u64::from(rot))),
        }
    }
}

impl<const M: usize> Logic for AtapeUnit<M> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, dst_r, tsr);
        self.dst.next = self.dst_r.q.val();
        self.tx.next = (self.hdr.val() & (self.tsr.q.val() & self.tap.val()).any())
            | (self.pay.val() & self.din.val());
        if self.hdr.val() {
            self.tsr.d.next = (self.tsr.q.val() << self.rot_left.val())
                | (self.tsr.q.val() >> self.rot_right.val());
        }
        if self.next.val() {
            self.dst_r.d.next = self.dst_r.q.val() ^ self.flip.val();
            self.tsr.d.next = self.dst_r.q.val() ^ self.flip.val();
        }
        if self.load.val() {
            self.dst_r.d.next = self.first.val();
            self.tsr.d.next = self.first.val();
        }
        if self.reset.val() {
            self.dst_r.d.next = self.zero.val();
            self.tsr.d.next = self.zero.val();
        }
    }
}
