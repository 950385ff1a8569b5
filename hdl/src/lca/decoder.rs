//! The route decoder (`docs/protocol.md` §1): for each of `n` addresses, the mask of
//! downers that lead to it from a switch of the given level — `down(Y, p)` of
//! `docs/routing.md` §1. This is the tree/cb digit decoder; a Π network would plug in a
//! table-driven block with the same ports.

use lcanet_sim::lcan::cycle::{PacketFormat, SwitchParams, SwitchTopology};
use rust_hdl::prelude::*;

/// `mask[a·d + x]` is set iff the switch's level is `j` (`level_is[j]`) and digit `j` of
/// address `a` selects downer `x`. The match is a constant pattern per `(j, x)`: the
/// digit-`j` field of the address must equal `x` (cb, tree level 0) or `⌊x/u⌋` (tree
/// level ≥ 1); `care` marks the field's bits, `val` their required values.
#[derive(LogicBlock)]
pub struct RouteDecoder {
    /// One-hot level of the switch.
    pub level_is: Vec<Signal<In, Bit>>,
    /// Addresses, address `a` at bits `a·ab ..` (LSB first).
    pub addr: Vec<Signal<In, Bit>>,
    /// Downer masks, address `a` at `a·d ..`.
    pub mask: Vec<Signal<Out, Bit>>,
    care: Vec<Constant<Bit>>,
    val: Vec<Constant<Bit>>,
    hit: Signal<Local, Bit>,
    _n: usize,
    _l: usize,
    _d: usize,
    _ab: usize,
}

impl RouteDecoder {
    /// A decoder of `n` addresses for switches of `params`.
    pub fn new(params: &SwitchParams, fmt: &PacketFormat, n: usize) -> Self {
        let (l, d, ab) = (params.levels, params.d, fmt.ab);
        let mut care = Vec::with_capacity(l * d * ab);
        let mut val = Vec::with_capacity(l * d * ab);
        for (j, &(off, w, _)) in fmt.digits.iter().enumerate() {
            for x in 0..d {
                let digit = match params.topology {
                    SwitchTopology::Tree if j > 0 => x / params.u,
                    _ => x,
                };
                for i in 0..ab {
                    let in_field = i >= off && i < off + w;
                    care.push(Constant::new(in_field));
                    val.push(Constant::new(in_field && (digit >> (i - off)) & 1 == 1));
                }
            }
        }
        RouteDecoder {
            level_is: (0..l).map(|_| Default::default()).collect(),
            addr: (0..n * ab).map(|_| Default::default()).collect(),
            mask: (0..n * d).map(|_| Default::default()).collect(),
            care,
            val,
            hit: Default::default(),
            _n: n,
            _l: l,
            _d: d,
            _ab: ab,
        }
    }
}

impl Logic for RouteDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        self.hit.next = false;
        for d in self._d..(self._d + 1) {
            for ab in self._ab..(self._ab + 1) {
                for a in 0..self._n {
                    for x in 0..self._d {
                        self.mask[a * d + x].next = false;
                        for j in 0..self._l {
                            self.hit.next = self.level_is[j].val();
                            for i in 0..self._ab {
                                self.hit.next = self.hit.val()
                                    & (!self.care[(j * d + x) * ab + i].val()
                                        | !(self.addr[a * ab + i].val()
                                            ^ self.val[(j * d + x) * ab + i].val()));
                            }
                            self.mask[a * d + x].next = self.mask[a * d + x].val() | self.hit.val();
                        }
                    }
                }
            }
        }
    }
}
